//! Fuzz target `perft_suite`: any bytes read as a perft suite by the reader of `caissa perft
//! --suite` ([`caissa_cli::perft_suite`]).

use std::io::BufReader;

use caissa_cli::perft_suite::{
    MAX_DEPTH, MAX_LINE_BYTES, ParseSuiteLineError, SuiteLine, SuiteReader, parse_line,
};

/// What a reader over `data` with a buffer of `capacity` bytes gives.
fn read(data: &[u8], capacity: usize) -> Vec<(usize, Result<SuiteLine, ParseSuiteLineError>)> {
    SuiteReader::new(BufReader::with_capacity(capacity, data)).collect()
}

/// Perft suites: reading any bytes never panics and gives at most one item a line, in
/// increasing line order, whatever the reader's buffer size (one to eight bytes, or the
/// default); an error's byte lies inside its line; a position has counts, none deeper than
/// [`MAX_DEPTH`], and written back it reads as the same position.
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    let items = read(data, 8 * 1024);
    let small = read(
        data,
        1 + usize::from(data.first().copied().unwrap_or(0) % 8),
    );
    assert_eq!(items, small, "the buffer size changes what is read");
    let lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    let mut last = 0;
    for (line, item) in &items {
        assert!(*line > last, "line {line} after line {last}");
        last = *line;
        let text = lines.get(line - 1).unwrap_or_else(|| {
            panic!("line {line} of {} lines", lines.len());
        });
        match item {
            Err(error) => assert!(
                error.byte <= text.len().min(MAX_LINE_BYTES + 1),
                "line {line}: {error} at byte {} of {}",
                error.byte,
                text.len()
            ),
            Ok(case) => {
                assert!(!case.counts.is_empty(), "line {line}: no counts");
                assert!(
                    case.counts.iter().all(|&(depth, _)| depth <= MAX_DEPTH),
                    "line {line}: {:?}",
                    case.counts
                );
                let written = case.to_string();
                assert_eq!(
                    parse_line(&written),
                    Ok(Some(case.clone())),
                    "line {line} is written {written:?}, which reads otherwise"
                );
            }
        }
    }
}
