//! Speed of reading and replaying PGN, single-threaded, against pgn-reader with shakmaty doing
//! the same work. Prints MB/s; asserts only that both sides agree on the counts.
//!
//! `cargo test --release -p caissa-testsuite --test pgn_speed -- --nocapture --test-threads 1`
//! measures the lichess sample repeated to about 10 MB. Set `PGN_SPEED_FILE` to a file to measure
//! that instead (a ~100 MB one, say), and `PGN_SPEED_ROUNDS` to change the number of timed rounds
//! (the best is kept). With `PGN_SPEED_BIG=1`, `pgn_speed_big_file` also builds a ~100 MB file
//! (the sample repeated) in the temp dir and measures both sides streaming from it.

use std::ops::ControlFlow;
use std::time::Instant;

use caissa_notation::pgn::{Location, Reader, Replayer, Visitor};

/// The input: `PGN_SPEED_FILE`, or the lichess sample repeated ten times.
fn input() -> Vec<u8> {
    match std::env::var_os("PGN_SPEED_FILE") {
        Some(path) => std::fs::read(&path).expect("PGN_SPEED_FILE is readable"),
        None => caissa_testsuite::read_data("pgn/lichess-2025-05-sample.pgn")
            .repeat(10)
            .into_bytes(),
    }
}

/// A clock that does not run while the thread waits for a CPU (the machine is shared): the
/// thread's CPU time from `/proc/thread-self/schedstat` where there is one, else wall time.
struct Clock(Option<u64>, Instant);

impl Clock {
    fn cpu_ns() -> Option<u64> {
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        stat.split_whitespace().next()?.parse().ok()
    }

    fn start() -> Clock {
        Clock(Clock::cpu_ns(), Instant::now())
    }

    fn seconds(&self) -> f64 {
        match (self.0, Clock::cpu_ns()) {
            (Some(start), Some(now)) => (now - start) as f64 / 1e9,
            _ => self.1.elapsed().as_secs_f64(),
        }
    }
}

/// The number of timed rounds: `PGN_SPEED_ROUNDS`, or 5.
fn rounds() -> usize {
    std::env::var("PGN_SPEED_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5)
}

/// The least time one call of `f` takes, after a warm-up: the best of a few rounds, each
/// repeating `f` for at least 0.1 s, since the thread's CPU time may advance only at scheduler
/// ticks (4 ms apart, say), which would blur a single run of a few milliseconds.
fn seconds_per_call<T>(f: impl Fn() -> T) -> f64 {
    std::hint::black_box(f());
    let mut best = f64::MAX;
    for _ in 0..rounds() {
        let t = Clock::start();
        let mut calls = 0;
        while calls == 0 || t.seconds() < 0.1 {
            std::hint::black_box(f());
            calls += 1;
        }
        best = best.min(t.seconds() / f64::from(calls));
    }
    best
}

/// The best MB/s of `f`.
fn mbps(bytes: &[u8], f: impl Fn(&[u8]) -> (u64, u64)) -> f64 {
    bytes.len() as f64 / 1e6 / seconds_per_call(|| f(bytes))
}

/// caissa: read and replay every move (variations too), counting games and moves.
fn caissa_replay(bytes: &[u8]) -> (u64, u64) {
    let mut reader = Reader::new(bytes);
    let mut replayer = Replayer::new();
    let (mut games, mut moves) = (0, 0);
    while let Some(game) = reader
        .read_game(&mut replayer)
        .expect("reading from memory")
    {
        moves += game.expect("well-formed").expect("legal").moves;
        games += 1;
    }
    (games, moves)
}

/// caissa: read only (tokens and SAN syntax), counting games and moves.
fn caissa_parse(bytes: &[u8]) -> (u64, u64) {
    struct Count;
    impl Visitor for Count {
        type Tags = ();
        type Movetext = u64;
        type Output = u64;
        fn begin_game(&mut self, _: Location) -> ControlFlow<u64> {
            ControlFlow::Continue(())
        }
        fn begin_movetext(&mut self, (): ()) -> ControlFlow<u64, u64> {
            ControlFlow::Continue(0)
        }
        fn san(
            &mut self,
            n: &mut u64,
            _: caissa_notation::san::SanPlus,
            _: Location,
        ) -> ControlFlow<u64> {
            *n += 1;
            ControlFlow::Continue(())
        }
        fn end_game(&mut self, n: u64) -> u64 {
            n
        }
    }
    let mut reader = Reader::new(bytes);
    let (mut games, mut moves) = (0, 0);
    while let Some(n) = reader.read_game(&mut Count).expect("reading from memory") {
        moves += n.expect("well-formed");
        games += 1;
    }
    (games, moves)
}

mod peer {
    use std::ops::ControlFlow;

    use pgn_reader::{RawTag, SanPlus, Skip, Visitor};
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    struct Replay;

    impl Visitor for Replay {
        type Tags = Option<Chess>;
        type Movetext = (Chess, u64);
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
                let fen = Fen::from_ascii(value.as_bytes()).expect("FEN");
                *tags = Some(fen.into_position(CastlingMode::Standard).expect("legal"));
            }
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<u64, (Chess, u64)> {
            ControlFlow::Continue((tags.unwrap_or_default(), 0))
        }

        fn begin_variation(&mut self, _: &mut (Chess, u64)) -> ControlFlow<u64, Skip> {
            ControlFlow::Continue(Skip(true))
        }

        fn san(&mut self, (pos, n): &mut (Chess, u64), san: SanPlus) -> ControlFlow<u64> {
            let m = san.san.to_move(pos).expect("legal SAN");
            pos.play_unchecked(m);
            *n += 1;
            ControlFlow::Continue(())
        }

        fn end_game(&mut self, (_, n): (Chess, u64)) -> u64 {
            n
        }
    }

    struct Count;

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

        fn san(&mut self, n: &mut u64, _: SanPlus) -> ControlFlow<u64> {
            *n += 1;
            ControlFlow::Continue(())
        }

        fn end_game(&mut self, n: u64) -> u64 {
            n
        }
    }

    fn run(input: impl std::io::Read, visitor: &mut impl Visitor<Output = u64>) -> (u64, u64) {
        let mut reader = pgn_reader::Reader::new(input);
        let (mut games, mut moves) = (0, 0);
        while let Some(n) = reader.read_game(visitor).expect("reading from memory") {
            moves += n;
            games += 1;
        }
        (games, moves)
    }

    /// pgn-reader with shakmaty: read and replay the main line.
    pub(crate) fn replay(bytes: &[u8]) -> (u64, u64) {
        run(bytes, &mut Replay)
    }

    /// pgn-reader with shakmaty, streaming from `input`.
    pub(crate) fn replay_from(input: impl std::io::Read) -> (u64, u64) {
        run(input, &mut Replay)
    }

    /// pgn-reader: read only.
    pub(crate) fn parse(bytes: &[u8]) -> (u64, u64) {
        run(bytes, &mut Count)
    }
}

#[test]
fn pgn_speed_read_and_replay() {
    let bytes = input();
    assert_eq!(caissa_replay(&bytes), peer::replay(&bytes));
    assert_eq!(caissa_parse(&bytes), peer::parse(&bytes));
    let (games, moves) = caissa_replay(&bytes);
    println!(
        "{:.1} MB, {games} games, {moves} moves",
        bytes.len() as f64 / 1e6
    );
    // Interleave the measurements so that load from other processes hits both sides alike.
    let ours = mbps(&bytes, caissa_replay);
    let theirs = mbps(&bytes, peer::replay);
    let ours_parse = mbps(&bytes, caissa_parse);
    let theirs_parse = mbps(&bytes, peer::parse);
    println!("read + replay: caissa {ours:.0} MB/s, pgn-reader + shakmaty {theirs:.0} MB/s");
    println!("read only:     caissa {ours_parse:.0} MB/s, pgn-reader {theirs_parse:.0} MB/s");
}

/// Replaying only, from SAN already parsed: caissa's `San::to_move` and `play_unchecked` against
/// shakmaty's, in moves per microsecond.
#[test]
fn pgn_speed_replay_only() {
    use caissa_notation::pgn::{RecordedToken, Recorder};
    use shakmaty::Position as _;

    let bytes = input();
    let mut reader = Reader::new(&bytes[..]);
    let mut ours = Vec::new();
    while let Some(game) = reader
        .read_game(&mut Recorder::new())
        .expect("reading from memory")
    {
        let game = game.expect("well-formed");
        let sans: Vec<_> = game
            .tokens
            .iter()
            .filter_map(|t| match t {
                RecordedToken::Move(san, _) => Some(san.san),
                _ => None,
            })
            .collect();
        ours.push((game.start.expect("legal start"), sans));
    }
    let theirs: Vec<(shakmaty::Chess, Vec<shakmaty::san::San>)> = ours
        .iter()
        .map(|(start, sans)| {
            let fen = caissa_notation::fen::Fen::from_position(start, Default::default());
            let fen: shakmaty::fen::Fen = fen.to_string().parse().expect("FEN");
            let pos = fen
                .into_position(shakmaty::CastlingMode::Standard)
                .expect("legal");
            let sans = sans
                .iter()
                .map(|san| san.to_string().parse().expect("SAN"))
                .collect();
            (pos, sans)
        })
        .collect();
    let moves: usize = ours.iter().map(|(_, sans)| sans.len()).sum();
    let ours_time = seconds_per_call(|| {
        for (start, sans) in &ours {
            let mut pos = *start;
            for san in sans {
                let m = san.to_move(&pos).expect("legal");
                pos.play_unchecked(m);
            }
            std::hint::black_box(pos);
        }
    });
    let theirs_time = seconds_per_call(|| {
        for (start, sans) in &theirs {
            let mut pos = start.clone();
            for san in sans {
                let m = san.to_move(&pos).expect("legal");
                pos.play_unchecked(m);
            }
            std::hint::black_box(pos);
        }
    });
    println!(
        "SAN to move + play: caissa {:.0} ns/move, shakmaty {:.0} ns/move ({moves} moves)",
        ours_time * 1e9 / moves as f64,
        theirs_time * 1e9 / moves as f64
    );
}

/// Both sides streaming from a ~100 MB file (the sample repeated), read through `File`, not
/// memory. Opt-in with `PGN_SPEED_BIG=1`: it writes 100 MB to the temp dir.
#[test]
fn pgn_speed_big_file() {
    if std::env::var_os("PGN_SPEED_BIG").is_none() {
        println!("set PGN_SPEED_BIG=1 to measure a 100 MB file");
        return;
    }
    let sample = caissa_testsuite::read_data("pgn/lichess-2025-05-sample.pgn");
    let path = std::env::temp_dir().join(format!("caissa-pgn-speed-{}.pgn", std::process::id()));
    let copies = (100_000_000 / sample.len()).max(1);
    std::fs::write(&path, sample.repeat(copies)).expect("the temp dir is writable");
    let size = std::fs::metadata(&path).expect("written").len() as f64 / 1e6;
    let open = || std::fs::File::open(&path).expect("the file is readable");
    let time = |f: &dyn Fn() -> (u64, u64)| {
        let counts = f();
        let t = Clock::start();
        assert_eq!(f(), counts);
        (counts, size / t.seconds())
    };
    let (ours_counts, ours) = time(&|| {
        let mut reader = Reader::new(open());
        let mut replayer = Replayer::new();
        let (mut games, mut moves) = (0, 0);
        while let Some(game) = reader.read_game(&mut replayer).expect("reading the file") {
            moves += game.expect("well-formed").expect("legal").moves;
            games += 1;
        }
        (games, moves)
    });
    let (theirs_counts, theirs) = time(&|| peer::replay_from(open()));
    let _ = std::fs::remove_file(&path);
    assert_eq!(ours_counts, theirs_counts);
    println!(
        "{size:.0} MB file, {} games, {} moves: caissa {ours:.0} MB/s, pgn-reader + shakmaty {theirs:.0} MB/s",
        ours_counts.0, ours_counts.1
    );
}

/// For profiling caissa alone: `-- pgn_speed_profile_caissa`, with `PGN_SPEED_PHASE` set to
/// `parse` or `replay` to run only that.
#[test]
fn pgn_speed_profile_caissa() {
    let bytes = input();
    let phase = std::env::var("PGN_SPEED_PHASE").unwrap_or_default();
    if phase != "parse" {
        println!(
            "caissa read + replay: {:.0} MB/s",
            mbps(&bytes, caissa_replay)
        );
    }
    if phase != "replay" {
        println!("caissa read only: {:.0} MB/s", mbps(&bytes, caissa_parse));
    }
}
