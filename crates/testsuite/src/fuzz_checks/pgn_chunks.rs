//! Fuzz target `pgn_chunks`: any bytes read as PGN cut into chunks at game boundaries, and by
//! the parallel reader over a stream that arrives in pieces: the same games, errors and places
//! as one reader of the whole input; and `is_boundary` true exactly where the cuts fall.
//!
//! The first two bytes choose the chunk size (1 to 64) and the stream's piece size (1 to 16, or
//! the stream limit past which a stream is no longer cut); the rest is the input.

use core::ops::ControlFlow;
use std::io::Read;
use std::num::NonZeroUsize;

use caissa_notation::pgn::{ParallelReader, Reader, Replayer, chunks, is_boundary};

/// A stream that gives at most `step` bytes a read.
struct Pieces<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.data.len().min(self.step).min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The line ends of `bytes` as the reader counts them: LF, CRLF, lone CR.
fn line_ends(bytes: &[u8]) -> u64 {
    let ends = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count();
    ends as u64
}

/// Checks that the chunks cover the input, each starting at the line the input has there, and
/// that the chunks read one by one, and the parallel reader over the slice and over a stream,
/// give what one reader gives.
pub fn check(data: &[u8]) {
    let [size, step, input @ ..] = data else {
        return;
    };
    let size = 1 + usize::from(size % 64);
    let (step, limit) = (1 + usize::from(step % 16), 1 + usize::from(step / 16) * 8);
    let expected: Vec<String> = Reader::new(input)
        .games(&mut Replayer::new())
        .map(|game| format!("{game:?}"))
        .collect();

    let mut offset = 0;
    let mut cut = Vec::new();
    for chunk in chunks(input, size) {
        assert_eq!(chunk.offset(), offset as u64, "the chunks leave a gap");
        assert!(!chunk.bytes().is_empty(), "an empty chunk at {offset}");
        let line = 1 + line_ends(&input[..offset]);
        assert_eq!(chunk.first_line(), line, "the chunk at {offset}");
        cut.extend(
            chunk
                .reader()
                .games(&mut Replayer::new())
                .map(|game| format!("{game:?}")),
        );
        offset += chunk.bytes().len();
    }
    assert_eq!(offset, input.len(), "the chunks end early");
    assert_eq!(cut, expected, "chunks of {size}");

    // `is_boundary` says yes exactly where chunks of one byte are cut, and at the ends.
    let boundaries: Vec<usize> = chunks(input, 1).map(|c| c.offset() as usize).collect();
    for at in 0..=input.len() {
        let cut_here = at == input.len() || boundaries.binary_search(&at).is_ok();
        assert_eq!(
            is_boundary(input, at, true),
            cut_here,
            "is_boundary at {at}"
        );
    }

    let reader = ParallelReader::new()
        .threads(NonZeroUsize::MIN.saturating_add(1))
        .chunk_size(size);
    let mut slice = Vec::new();
    let flow = reader.read_slice(input, Replayer::new, |game| {
        slice.push(format!("{game:?}"));
        ControlFlow::<()>::Continue(())
    });
    assert!(flow.is_continue());
    assert_eq!(slice, expected, "in parallel, chunks of {size}");
    for reader in [reader, reader.stream_limit(limit)] {
        let mut stream = Vec::new();
        let pieces = Pieces { data: input, step };
        let flow = reader.read(pieces, Replayer::new, |game| {
            stream.push(format!("{game:?}"));
            ControlFlow::<()>::Continue(())
        });
        assert!(flow.is_continue());
        assert_eq!(stream, expected, "{reader:?}, pieces of {step}");
    }
}
