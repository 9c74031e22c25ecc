//! Hostile PGN: variations nested a million deep, a 100 MB comment, a 10 MB tag, binary junk.
//! Each is generated on the fly by a `Read` (never held in memory), read in linear time, with
//! the game after it intact. The CPU-time bounds are loose (quadratic behaviour would blow them
//! by orders of magnitude). Memory is checked by a test that runs alone in a child process.

use std::io::{self, Read};
use std::time::Instant;

use caissa_notation::pgn::{
    GameTree, GameTreeBuilder, Layout, PgnErrorKind, PgnReplayErrorKind, Reader, Recorder,
    ReplayStats, Replayer,
};

/// A `Read` that yields `head`, then `count` bytes from `fill` (called with the index), then
/// `tail`, without holding the middle in memory.
struct Generated<F> {
    parts: [Vec<u8>; 2],
    fill: F,
    count: u64,
    pos: u64,
}

impl<F: FnMut(u64) -> u8> Generated<F> {
    fn new(head: &str, count: u64, fill: F, tail: &str) -> Generated<F> {
        Generated {
            parts: [head.as_bytes().to_vec(), tail.as_bytes().to_vec()],
            fill,
            count,
            pos: 0,
        }
    }
}

impl<F: FnMut(u64) -> u8> Read for Generated<F> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let head = self.parts[0].len() as u64;
        let mut n = 0;
        while n < buf.len() {
            let i = self.pos;
            let byte = if i < head {
                self.parts[0][i as usize]
            } else if i < head + self.count {
                (self.fill)(i - head)
            } else if let Some(&b) = self.parts[1].get((i - head - self.count) as usize) {
                b
            } else {
                break;
            };
            buf[n] = byte;
            n += 1;
            self.pos += 1;
        }
        Ok(n)
    }
}

/// Runs `f` and checks that it took less than `limit` seconds of CPU time (wall time where the
/// thread's CPU time is not available).
fn within<T>(limit: f64, what: &str, f: impl FnOnce() -> T) -> T {
    fn cpu_ns() -> Option<u64> {
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        stat.split_whitespace().next()?.parse().ok()
    }
    let (cpu, wall) = (cpu_ns(), Instant::now());
    let out = f();
    let seconds = match (cpu, cpu_ns()) {
        (Some(start), Some(end)) => (end - start) as f64 / 1e9,
        _ => wall.elapsed().as_secs_f64(),
    };
    println!("{what}: {seconds:.2} s");
    assert!(seconds < limit, "{what} took {seconds:.2} s");
    out
}

const GOOD_GAME: &str = "\n\n[Event \"after\"]\n\n1. e4 e5 2. Nf3 *\n";

/// Replays every game, returning what each gave (errors as text).
fn replay_all(input: impl Read) -> Vec<Result<ReplayStats, String>> {
    let mut reader = Reader::new(input);
    let mut out = Vec::new();
    while let Some(game) = reader.read_game(&mut Replayer::new()) {
        out.push(game.map_err(|error| error.to_string()));
    }
    out
}

/// `1. e4 ( e4 ( e4 ... ) ) *`: each variation replaces the e4 before it. Unclosed, the game
/// ends at the blank line before the next game.
fn nested(depth: u64, closed: bool) -> Generated<impl FnMut(u64) -> u8> {
    nested_with(b"( e4 ", depth, closed)
}

fn nested_with(open: &'static [u8], depth: u64, closed: bool) -> Generated<impl FnMut(u64) -> u8> {
    let tail = if closed {
        format!("{} *{GOOD_GAME}", ")".repeat(depth as usize))
    } else {
        GOOD_GAME.to_owned()
    };
    let len = open.len() as u64;
    Generated::new(
        "1. e4 ",
        depth * len,
        move |i| open[(i % len) as usize],
        &tail,
    )
}

#[test]
fn pgn_hostile_million_deep_variations() {
    const DEPTH: u64 = 1_000_000;
    let closed = within(10.0, "replaying a million nested variations", || {
        replay_all(nested(DEPTH, true))
    });
    let games = &closed;
    assert_eq!(games.len(), 2);
    // A variation deeper than the replay limit is an error at its `(` (each `( e4 ` is five
    // bytes after `1. e4 `).
    let limit = caissa_notation::pgn::MAX_REPLAY_DEPTH as u64;
    assert_eq!(
        games[0],
        Err(format!(
            "1:{}: variations nested deeper than {limit}",
            7 + 5 * limit
        ))
    );
    assert_eq!(games[1].as_ref().expect("legal").moves, 3);

    // Unclosed, the same: the replay stops there, and the next game is intact.
    let games = within(10.0, "reading a million unclosed variations", || {
        replay_all(nested(DEPTH, false))
    });
    assert_eq!(games.len(), 2);
    assert_eq!(games[0], closed[0]);
    assert_eq!(games[1].as_ref().expect("legal").moves, 3);

    // Skipped (the default of visitors that do not want variations), the variations are read
    // to their end; unclosed, the nesting is an error at the outermost `(`.
    let mut reader = Reader::new(nested(DEPTH, true));
    let mut mainline = Replayer::mainline_only();
    let stats = within(10.0, "skipping a million nested variations", || {
        reader.read_game(&mut mainline)
    });
    let stats = stats.expect("a game").expect("legal");
    assert_eq!(stats.moves, 1);
    let mut reader = Reader::new(nested(DEPTH, false));
    let games: Vec<_> = within(10.0, "skipping a million unclosed variations", || {
        reader.games(&mut mainline).collect()
    });
    assert_eq!(games.len(), 2);
    let error = games[0].as_ref().expect_err("unterminated");
    assert_eq!(error.to_string(), "1:7: unterminated variation");
    assert_eq!(games[1].as_ref().expect("legal").moves, 3);
}

#[test]
fn pgn_hostile_deep_trees_build_write_and_drop_without_recursion() {
    // Each `( Nf3 Nf6` replaces the move before it and goes one move deeper: a tree (and a
    // written form) as deep as the nesting. The moves need not be legal to build a tree.
    const DEPTH: u64 = 300_000;
    let game = within(
        20.0,
        "building a deep tree, writing it, reading it back",
        || {
            let read = |input: &mut dyn Read| -> GameTree {
                Reader::new(input)
                    .read_game(&mut GameTreeBuilder)
                    .expect("a game")
                    .expect("well-formed")
            };
            let game = read(&mut nested_with(b"( Nf3 Nf6 ", DEPTH, true));
            assert_eq!(game.len() as u64, 2 * DEPTH + 1);
            let deepest = (0..game.len()).fold(game.roots()[1], |id, _| {
                *game.node(id).children().last().unwrap_or(&id)
            });
            let depth = std::iter::successors(Some(deepest), |&id| game.node(id).parent()).count();
            assert_eq!(depth as u64, DEPTH + 1);
            let mut text = String::new();
            game.write(&mut text, Layout::Compact);
            assert!(text.starts_with(
                "1. e4 ( 1. Nf3 Nf6 ( 1... Nf3 2. Nf6 ( 2. Nf3 Nf6 ( 2... Nf3 3. Nf6 ("
            ));
            assert_eq!(text.matches('(').count() as u64, DEPTH);
            assert!(
                read(&mut text.as_bytes()) == game,
                "the written tree reads back the same"
            );
            game
        },
    );
    within(5.0, "dropping a deep tree", || drop(game));

    // The recorder keeps nested variations, and replays them to the replay depth limit.
    let recorded = Reader::new(nested(DEPTH, true))
        .read_game(&mut Recorder::new())
        .expect("a game")
        .expect("well-formed");
    assert_eq!(recorded.tokens.len() as u64, 3 * DEPTH + 1);
    let error = recorded.replay().expect_err("too deep");
    assert_eq!(error.replayed, 257);
    assert_eq!(error.kind, PgnReplayErrorKind::TooDeep);
}

#[test]
fn pgn_hostile_hundred_megabyte_comment() {
    const SIZE: u64 = 100_000_000;
    let input = Generated::new(
        "1. e4 {",
        SIZE,
        |i| b"comment \n"[(i % 9) as usize],
        &format!("}} e5 *{GOOD_GAME}"),
    );
    // Too long to hand over whole: an error at its `{`, not a cut comment.
    let games = within(15.0, "reading a 100 MB comment", || replay_all(input));
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0],
        Err("1:7: comment longer than the reader's buffer of 65536 bytes".to_owned())
    );
    assert_eq!(games[1].as_ref().expect("legal").moves, 3);

    // Unterminated, it is reported at its `{`, and the next game's tags end it.
    let input = Generated::new(
        "1. e4 {",
        SIZE,
        |i| b"comment \n"[(i % 9) as usize],
        GOOD_GAME,
    );
    let games = within(15.0, "reading an unterminated 100 MB comment", || {
        replay_all(input)
    });
    assert_eq!(games.len(), 2);
    assert_eq!(games[0], Err("1:7: unterminated comment".to_owned()));
    assert_eq!(games[1].as_ref().expect("legal").moves, 3);
}

#[test]
fn pgn_hostile_ten_megabyte_tag_and_token() {
    const SIZE: u64 = 10_000_000;
    let input = Generated::new(
        "[Annotator \"",
        SIZE,
        |_| b'x',
        &format!("\"]\n1. e4 *{GOOD_GAME}"),
    );
    let games = within(5.0, "reading a 10 MB tag", || {
        let mut reader = Reader::new(input);
        let mut games = Vec::new();
        while let Some(game) = reader.read_game(&mut GameTreeBuilder) {
            games.push(game.map_err(|e| e.to_string()));
        }
        games
    });
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0],
        Err("1:1: tag pair longer than the reader's buffer of 65536 bytes".to_owned())
    );
    assert_eq!(
        games[1].as_ref().expect("read").tags.get("Event"),
        Some("after")
    );

    // A 10 MB token is an error, not a 10 MB allocation.
    let input = Generated::new("1. e4 ", SIZE, |_| b'a', GOOD_GAME);
    let games = within(5.0, "reading a 10 MB token", || replay_all(input));
    assert_eq!(games.len(), 2);
    assert!(
        games[0]
            .as_ref()
            .unwrap_err()
            .starts_with("1:7: invalid token \"aaaa")
    );
    assert_eq!(games[1].as_ref().expect("legal").moves, 3);

    // So is an unterminated 10 MB tag value.
    let input = Generated::new(
        "[Annotator \"",
        SIZE,
        |_| b'x',
        &format!("\n1. e4 *{GOOD_GAME}"),
    );
    let games = within(5.0, "reading an unterminated 10 MB tag", || {
        replay_all(input)
    });
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0],
        Err("1:12: malformed tag pair: unterminated tag value".to_owned())
    );
    assert_eq!(games[1].as_ref().expect("legal").moves, 3);
}

/// A deterministic byte stream: xorshift.
fn junk(seed: u64) -> impl FnMut(u64) -> u8 {
    let mut state = seed;
    move |_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 24) as u8
    }
}

#[test]
fn pgn_hostile_binary_junk() {
    const SIZE: u64 = 10_000_000;
    for seed in [1, 0x9e37_79b9_7f4a_7c15] {
        let input = Generated::new("", SIZE, junk(seed), GOOD_GAME);
        let games = within(10.0, "reading 10 MB of junk", || replay_all(input));
        let (last, junk_games) = games.split_last().expect("games");
        assert_eq!(last.as_ref().expect("the good game survives").moves, 3);
        assert!(junk_games.iter().all(Result::is_err));
        assert!(!junk_games.is_empty());
    }
}

#[test]
fn pgn_hostile_errors_are_typed_for_junk() {
    let mut reader = Reader::new(&b"\xff\xfe garbage"[..]);
    let error = reader
        .read_game(&mut GameTreeBuilder)
        .expect("a game")
        .unwrap_err();
    assert_eq!(error.kind, PgnErrorKind::UnexpectedByte(0xff));
    assert!(reader.read_game(&mut GameTreeBuilder).is_none());
}

/// The peak resident memory of this process, in kB (Linux only).
fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs [`pgn_hostile_memory_child`] alone in a child process (so that no other test's memory
/// counts) and checks that it passed.
#[test]
fn pgn_hostile_memory_is_bounded() {
    if peak_rss_kb().is_none() {
        println!("no /proc/self/status: memory not measured");
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    // The test's name inside this binary: its module path without the crate's name.
    let module = module_path!().split_once("::").map_or("", |(_, path)| path);
    let child = format!("{module}::pgn_hostile_memory_child");
    let output = std::process::Command::new(exe)
        .args(["--exact", &child, "--nocapture"])
        .env("PGN_HOSTILE_MEMORY_CHILD", "1")
        .output()
        .expect("running the child");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("peak memory growth"), "the child measured");
}

/// Streams every hostile input through the replayer and checks that the peak resident memory
/// grows by less than 16 MB. Does nothing unless run by [`pgn_hostile_memory_is_bounded`].
#[test]
fn pgn_hostile_memory_child() {
    if std::env::var_os("PGN_HOSTILE_MEMORY_CHILD").is_none() {
        return;
    }
    let before = peak_rss_kb().expect("measured");
    let count = |input: &mut dyn Read| {
        let mut reader = Reader::new(input);
        let mut games = 0;
        while reader.read_game(&mut Replayer::new()).is_some() {
            games += 1;
        }
        games
    };
    let fill = |i: u64| b"comment "[(i % 8) as usize];
    assert_eq!(count(&mut nested(1_000_000, true)), 2);
    assert_eq!(
        count(&mut Generated::new("1. e4 {", 100_000_000, fill, GOOD_GAME)),
        2
    );
    assert_eq!(
        count(&mut Generated::new("[A \"", 10_000_000, fill, GOOD_GAME)),
        2
    );
    assert!(count(&mut Generated::new("", 10_000_000, junk(7), GOOD_GAME)) > 1);
    let growth = peak_rss_kb().expect("measured").saturating_sub(before);
    println!("peak memory growth: {growth} kB");
    assert!(growth < 16 * 1024, "peak memory grew by {growth} kB");
}
