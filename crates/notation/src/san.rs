//! SAN: standard algebraic notation (being written).
