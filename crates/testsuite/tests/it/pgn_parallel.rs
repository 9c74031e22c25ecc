//! The parallel PGN reader gives what one reader gives: the same results in the same order at
//! the same places, for the sample files, the fuzz corpus and random pieces of PGN, whatever
//! the threads, the chunk size, the stream limit and how the bytes arrive.

use core::ops::ControlFlow;
use std::io::{self, Read};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use caissa_notation::pgn::{
    GameTreeBuilder, ParallelReader, PgnErrorKind, PgnReplayErrorKind, Reader, Replayer, Visitor,
};

/// The files of a folder of the repository, in name order.
fn files_of(folder: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(folder),
    )
    .expect("the folder is there")
    .map(|entry| entry.expect("a readable folder").path())
    .collect();
    paths.sort();
    paths
}

/// A stream that gives at most `step` bytes a read.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.data.len().min(self.step).min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Every result of one reader of `input`, as text.
fn sequential<V: Visitor>(input: &[u8], mut visitor: V) -> Vec<String>
where
    V::Output: core::fmt::Debug,
    V::Error: core::fmt::Debug,
{
    Reader::new(input)
        .games(&mut visitor)
        .map(|game| format!("{game:?}"))
        .collect()
}

fn reader(threads: usize, chunk: usize, limit: usize) -> ParallelReader {
    ParallelReader::new()
        .threads(NonZeroUsize::new(threads).expect("a thread"))
        .chunk_size(chunk)
        .stream_limit(limit)
}

/// Asserts that the parallel reader with `reader` gives what one reader gives for `input`, over
/// the slice and over a stream arriving `step` bytes at a time, with both visitors.
#[track_caller]
fn assert_same(input: &[u8], reader: ParallelReader, step: usize) {
    fn collect<V, F>(reader: ParallelReader, input: &[u8], step: usize, new: F) -> [Vec<String>; 2]
    where
        V: Visitor<Output: Send + core::fmt::Debug, Error: Send + core::fmt::Debug>,
        F: Fn() -> V + Sync + Copy,
    {
        let mut slice = Vec::new();
        let flow = reader.read_slice(input, new, |game| {
            slice.push(format!("{game:?}"));
            ControlFlow::<()>::Continue(())
        });
        assert!(flow.is_continue());
        let mut stream = Vec::new();
        let trickle = Trickle { data: input, step };
        let flow = reader.read(trickle, new, |game| {
            stream.push(format!("{game:?}"));
            ControlFlow::<()>::Continue(())
        });
        assert!(flow.is_continue());
        [slice, stream]
    }
    let replayed = sequential(input, Replayer::new());
    for got in collect(reader, input, step, Replayer::new) {
        assert_eq!(got, replayed, "{reader:?}, step {step}");
    }
    let built = sequential(input, GameTreeBuilder);
    for got in collect(reader, input, step, || GameTreeBuilder) {
        assert_eq!(got, built, "{reader:?}, step {step}");
    }
}

#[test]
fn the_sample_files_read_the_same_in_parallel() {
    for path in files_of("data/pgn") {
        let input = std::fs::read(&path).expect("a readable file");
        for (threads, chunk, limit) in [
            (1, 1000, 1500),
            (2, 1000, usize::MAX),
            (3, 70_000, usize::MAX),
        ] {
            assert_same(&input, reader(threads, chunk, limit), 4096);
        }
        // With lone CRs for line ends (old Mac files), cut at the same lines.
        let cr: Vec<u8> = input
            .iter()
            .map(|&b| if b == b'\n' { b'\r' } else { b })
            .collect();
        assert_same(&cr, reader(2, 1000, usize::MAX), 4095);
    }
}

#[test]
fn the_fuzz_corpus_reads_the_same_in_parallel() {
    let mut all = Vec::new();
    for path in files_of("fuzz/corpus/pgn") {
        let input = std::fs::read(&path).expect("a readable file");
        for chunk in [1, 2, 5, 40] {
            assert_same(&input, reader(2, chunk, usize::MAX), 3);
        }
        assert_same(&input, reader(2, 3, 20), 1);
        all.extend(input);
        all.push(b'\n');
    }
    for chunk in [1, 13, 200] {
        assert_same(&all, reader(3, chunk, usize::MAX), 7);
    }
}

/// Inputs made of random pieces of PGN (corpus files, tag pairs, comment and variation marks,
/// `%` and `;`, blank lines, CRs, byte order marks, ...) read the same whatever the cut.
#[test]
fn random_pieces_of_pgn_read_the_same_in_parallel() {
    const PIECES: [&[u8]; 38] = [
        b"\n",
        b"\n\n",
        b"\r\n",
        b"\r",
        b"\r\r",
        b" \n",
        b" ",
        b"\t",
        b"[Event \"x\"]",
        b"[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]",
        b"\n[Site \"y\"]\n",
        b"\n\n[Event \"z\"]\n1. d4 d5\n",
        b"[NNNNNNNNNNNNNNNNNNNNNNNNNNNNN \"",
        b"[A\"",
        b"[%clk 0:01]",
        b"[",
        b"\"",
        b"\\",
        b"{",
        b"}",
        b"%",
        b";",
        b"(",
        b")",
        b"1. e4",
        b" e5",
        b" Nf3",
        b" Kb1",
        b" Ke2",
        b" 0-0",
        b" --",
        b"$1",
        b"!?",
        b"*",
        b"1-0",
        b"\xef\xbb\xbf",
        b"\x00",
        b"\xff",
    ];
    let corpus: Vec<Vec<u8>> = files_of("fuzz/corpus/pgn")
        .into_iter()
        .map(|path| std::fs::read(path).expect("a readable file"))
        .collect();
    // xorshift64: the same inputs on every run.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut below = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % n as u64).expect("less than n")
    };
    for _ in 0..150 {
        let mut input = Vec::new();
        for _ in 0..=below(40) {
            if below(4) == 0 {
                input.extend(&corpus[below(corpus.len())]);
            } else {
                input.extend(PIECES[below(PIECES.len())]);
            }
        }
        let chunk = 1 + below(50);
        let limit = if below(3) == 0 {
            1 + below(100)
        } else {
            usize::MAX
        };
        assert_same(&input, reader(1 + below(3), chunk, limit), 1 + below(9));
    }
}

#[test]
fn results_come_in_input_order_from_every_input() {
    let good = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n".repeat(500);
    let bad = "[Event \"b\"]\n\n1. e4 Ke7 Ke8 *\n\n";
    let inputs = [good.as_str(), bad, "", good.as_str()];
    let mut seen = Vec::new();
    let flow = reader(3, 100, usize::MAX).read_all(
        inputs.map(|text| Ok(text.as_bytes())),
        Replayer::new,
        |input, game| {
            seen.push((
                input,
                game.map(|stats| stats.moves).map_err(|e| e.location.line),
            ));
            ControlFlow::<()>::Continue(())
        },
    );
    assert!(flow.is_continue());
    let mut expected = vec![(0, Ok(3)); 500];
    expected.push((1, Err(3)));
    expected.extend(vec![(3, Ok(3)); 500]);
    assert_eq!(seen, expected);
}

#[test]
fn an_input_that_fails_gives_its_games_then_the_error() {
    /// A stream of `data`, then an error.
    struct Failing<'a>(&'a [u8]);
    impl Read for Failing<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("the disk is gone"));
            }
            let n = self.0.len().min(buf.len()).min(1000);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let good = "[Event \"a\"]\n\n1. e4 e5 *\n\n".repeat(100);
    let inputs: [io::Result<Failing>; 3] = [
        Err(io::Error::other("no such file")),
        Ok(Failing(good.as_bytes())),
        Ok(Failing(b"1. e4 *\n")),
    ];
    let mut seen = Vec::new();
    let flow = reader(2, 50, usize::MAX).read_all(inputs, Replayer::new, |input, game| {
        let io = match &game {
            Err(error) => match &error.kind {
                PgnReplayErrorKind::Pgn(PgnErrorKind::Io(failure)) => Some(failure.to_string()),
                _ => None,
            },
            Ok(_) => None,
        };
        seen.push((input, io));
        ControlFlow::<()>::Continue(())
    });
    assert!(flow.is_continue());
    assert_eq!(seen[0], (0, Some("no such file".to_owned())));
    // The games whose end came before the failure, then the failure.
    let first: Vec<_> = seen.iter().filter(|(input, _)| *input == 1).collect();
    assert!(first.len() >= 97, "{}", first.len());
    assert!(first[..first.len() - 1].iter().all(|(_, io)| io.is_none()));
    assert_eq!(
        first.last().map(|(_, io)| io.as_deref()),
        Some(Some("the disk is gone"))
    );
    let last: Vec<_> = seen.iter().filter(|(input, _)| *input == 2).collect();
    assert_eq!(last.len(), 1);
    assert_eq!(last[0].1.as_deref(), Some("the disk is gone"));
}

#[test]
fn reading_stops_when_told() {
    let pgn = "1. e4 e5 *\n\n[Event \"x\"]\n1. d4 *\n\n".repeat(10_000);
    let mut seen = 0;
    let flow = reader(2, 64, usize::MAX).read_slice(pgn.as_bytes(), Replayer::new, |_| {
        seen += 1;
        if seen == 1000 {
            ControlFlow::Break(seen)
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(flow, ControlFlow::Break(1000));
    let mut seen = 0;
    let stream = Trickle {
        data: pgn.as_bytes(),
        step: 100,
    };
    let flow = reader(2, 64, usize::MAX).read(stream, Replayer::new, |_| {
        seen += 1;
        if seen == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((flow, seen), (ControlFlow::Break(()), 3));
}

#[test]
fn threads_are_capped() {
    let reader = ParallelReader::new().threads(NonZeroUsize::MAX);
    assert_eq!(
        reader.thread_count().get(),
        caissa_notation::pgn::MAX_THREADS
    );
    let mut games = 0;
    let flow = reader.read_slice(b"1. e4 *\n\n[A \"\"]\n1. d4 *\n", Replayer::new, |game| {
        games += u32::from(game.is_ok());
        ControlFlow::<()>::Continue(())
    });
    assert!(flow.is_continue());
    assert_eq!(games, 2);
    // Chunks and limits of any size: buffers grow as bytes come, not in advance.
    let reader = reader.chunk_size(usize::MAX).stream_limit(usize::MAX);
    let stream = Trickle {
        data: b"1. e4 *\n\n[A \"\"]\n1. d4 *\n",
        step: 5,
    };
    let flow = reader.read(stream, Replayer::new, |game| {
        games += u32::from(game.is_ok());
        ControlFlow::<()>::Continue(())
    });
    assert!(flow.is_continue());
    assert_eq!(games, 4);
}
