//! EPD: extended position descriptions (being written).
