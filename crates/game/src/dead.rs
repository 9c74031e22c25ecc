//! Dead positions and unwinnability (being written).
