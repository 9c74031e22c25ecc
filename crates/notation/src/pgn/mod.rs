//! PGN: a streaming reader and a writer (being written).
