//! Reading PGN, one thread, caissa against pgn-reader (with shakmaty to replay), in bytes per
//! second:
//!
//! - `read+replay`: read every game and replay every SAN move, main line and variations, to a
//!   position (caissa's `Replayer`; pgn-reader with shakmaty's `San::to_move` and
//!   `play_unchecked`, keeping the position before each move for the variations);
//! - `read`: read every game and parse every SAN move, without a board.
//!
//! On two inputs in memory: `data/pgn/lichess-2025-05-sample.pgn` (about 1 MB) and that sample
//! repeated 32 times (about 32 MB). Before timing, both sides must count the same games and
//! moves, whether replaying or only reading.
//!
//! ```text
//! cargo bench -p caissa-benches --bench pgn
//! ```

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

use caissa::SanPlus;
use caissa::notation::pgn::{Location, Reader, Replayer, VariationChoice, Visitor};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// caissa: reads and replays every game, counting games and moves.
fn caissa_replay(pgn: &[u8]) -> (u64, u64) {
    let mut reader = Reader::new(pgn);
    let mut replayer = Replayer::new();
    let (mut games, mut moves) = (0, 0);
    while let Some(game) = reader.read_game(&mut replayer).expect("reading memory") {
        moves += game.expect("well-formed").expect("legal").moves;
        games += 1;
    }
    (games, moves)
}

/// caissa: counts the moves of a game, main line and variations.
struct CaissaCount;

impl Visitor for CaissaCount {
    type Tags = ();
    type Movetext = u64;
    type Output = u64;

    fn begin_game(&mut self, _: Location) -> ControlFlow<u64> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> ControlFlow<u64, u64> {
        ControlFlow::Continue(0)
    }

    fn san(&mut self, moves: &mut u64, _: SanPlus, _: Location) -> ControlFlow<u64> {
        *moves += 1;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut u64) -> ControlFlow<u64, VariationChoice> {
        ControlFlow::Continue(VariationChoice::Enter)
    }

    fn end_game(&mut self, moves: u64) -> u64 {
        moves
    }
}

/// caissa: reads every game, counting games and moves.
fn caissa_read(pgn: &[u8]) -> (u64, u64) {
    let mut reader = Reader::new(pgn);
    let (mut games, mut moves) = (0, 0);
    while let Some(n) = reader.read_game(&mut CaissaCount).expect("reading memory") {
        moves += n.expect("well-formed");
        games += 1;
    }
    (games, moves)
}

/// pgn-reader with shakmaty, written the way its docs suggest.
mod peer {
    use std::ops::ControlFlow;

    use pgn_reader::{RawTag, SanPlus, Skip, Visitor};
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    /// The position of the current line, the one before its last move, and for each open
    /// variation the same pair of the line it interrupts; the moves replayed.
    #[derive(Default)]
    pub(crate) struct Line {
        pos: Chess,
        before: Chess,
        stack: Vec<(Chess, Chess)>,
        moves: u64,
    }

    /// Replays every move, main line and variations.
    pub(crate) struct Replay;

    impl Visitor for Replay {
        type Tags = Option<Chess>;
        type Movetext = Line;
        type Output = u64;

        fn begin_tags(&mut self) -> ControlFlow<u64, Option<Chess>> {
            ControlFlow::Continue(None)
        }

        fn tag(
            &mut self,
            tags: &mut Option<Chess>,
            name: &[u8],
            value: RawTag<'_>,
        ) -> ControlFlow<u64> {
            if name == b"FEN" {
                let fen = Fen::from_ascii(value.as_bytes()).expect("a FEN");
                let pos = fen.into_position(CastlingMode::Standard).expect("legal");
                *tags = Some(pos);
            }
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<u64, Line> {
            let pos = tags.unwrap_or_default();
            ControlFlow::Continue(Line {
                before: pos.clone(),
                pos,
                ..Line::default()
            })
        }

        fn san(&mut self, line: &mut Line, san: SanPlus) -> ControlFlow<u64> {
            let m = san.san.to_move(&line.pos).expect("legal SAN");
            line.before.clone_from(&line.pos);
            line.pos.play_unchecked(m);
            line.moves += 1;
            ControlFlow::Continue(())
        }

        fn begin_variation(&mut self, line: &mut Line) -> ControlFlow<u64, Skip> {
            let before = line.before.clone();
            let pos = std::mem::replace(&mut line.pos, before);
            line.stack.push((pos, line.before.clone()));
            ControlFlow::Continue(Skip(false))
        }

        fn end_variation(&mut self, line: &mut Line) -> ControlFlow<u64> {
            if let Some((pos, before)) = line.stack.pop() {
                line.pos = pos;
                line.before = before;
            }
            ControlFlow::Continue(())
        }

        fn end_game(&mut self, line: Line) -> u64 {
            line.moves
        }
    }

    /// Counts the moves, main line and variations.
    pub(crate) struct Count;

    impl Visitor for Count {
        type Tags = ();
        type Movetext = u64;
        type Output = u64;

        fn begin_tags(&mut self) -> ControlFlow<u64> {
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, (): ()) -> ControlFlow<u64, u64> {
            ControlFlow::Continue(0)
        }

        fn san(&mut self, moves: &mut u64, _: SanPlus) -> ControlFlow<u64> {
            *moves += 1;
            ControlFlow::Continue(())
        }

        fn begin_variation(&mut self, _: &mut u64) -> ControlFlow<u64, Skip> {
            ControlFlow::Continue(Skip(false))
        }

        fn end_game(&mut self, moves: u64) -> u64 {
            moves
        }
    }

    /// Reads every game of `pgn` with `visitor`, counting games and moves.
    pub(crate) fn run(pgn: &[u8], visitor: &mut impl Visitor<Output = u64>) -> (u64, u64) {
        let mut reader = pgn_reader::Reader::new(pgn);
        let (mut games, mut moves) = (0, 0);
        while let Some(n) = reader.read_game(visitor).expect("reading memory") {
            moves += n;
            games += 1;
        }
        (games, moves)
    }
}

fn pgn(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/pgn/lichess-2025-05-sample.pgn"
    );
    let sample = std::fs::read(path).expect("the lichess sample");
    let inputs = [
        ("lichess-sample", sample.clone()),
        ("sample-x32", sample.repeat(32)),
    ];
    for (name, pgn) in &inputs {
        let replayed = caissa_replay(pgn);
        assert_eq!(peer::run(pgn, &mut peer::Replay), replayed, "{name}");
        assert_eq!(caissa_read(pgn), replayed, "{name}");
        assert_eq!(peer::run(pgn, &mut peer::Count), replayed, "{name}");
        let mut group = c.benchmark_group(format!("pgn/{name}"));
        group
            .sample_size(20)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4))
            .throughput(Throughput::Bytes(pgn.len() as u64));
        group.bench_function("read+replay/caissa", |b| {
            b.iter(|| caissa_replay(black_box(pgn)));
        });
        group.bench_function("read+replay/pgn-reader+shakmaty", |b| {
            b.iter(|| peer::run(black_box(pgn), &mut peer::Replay));
        });
        group.bench_function("read/caissa", |b| b.iter(|| caissa_read(black_box(pgn))));
        group.bench_function("read/pgn-reader", |b| {
            b.iter(|| peer::run(black_box(pgn), &mut peer::Count));
        });
        group.finish();
    }
}

criterion_group!(benches, pgn);
criterion_main!(benches);
