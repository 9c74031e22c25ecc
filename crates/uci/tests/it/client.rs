//! The client against real processes: Stockfish at a low node count, and shell scripts that
//! misbehave. Each misbehaviour is a typed error within its timeout.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caissa_board::Square;
use caissa_game::Game;
use caissa_movegen::{CastlingMode, Move};
use caissa_uci::client::position_of;
use caissa_uci::client::{Client, ClientError, EngineCommand, SearchEvent, Stamp};
use caissa_uci::protocol::{Go, SetPosition};

fn stamp() -> Stamp {
    let start = Instant::now();
    Arc::new(move || u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX))
}

/// A `/bin/sh` engine running `script`.
fn script(script: &str) -> EngineCommand {
    EngineCommand {
        program: PathBuf::from("/bin/sh"),
        args: vec!["-c".into(), script.into()],
        dir: None,
    }
}

const SHORT: Duration = Duration::from_millis(500);

fn start() -> SetPosition {
    SetPosition {
        fen: None,
        moves: Vec::new(),
    }
}

fn nodes(n: u64) -> Go {
    Go {
        nodes: Some(n),
        ..Go::default()
    }
}

/// Debian's Stockfish started, or `None` (with a note) where it is not installed.
fn stockfish() -> Option<Client> {
    let program = Path::new("/usr/games/stockfish");
    if !program.exists() {
        eprintln!("no {}; `cargo xtask ci` installs it", program.display());
        return None;
    }
    let command = EngineCommand {
        program: program.into(),
        ..EngineCommand::default()
    };
    Some(Client::spawn(&command, stamp()).unwrap())
}

#[test]
fn stockfish_handshake_sync_and_search() {
    let Some(mut engine) = stockfish() else {
        return;
    };
    let id = engine.handshake(Duration::from_secs(10)).unwrap();
    assert!(id.name.unwrap().starts_with("Stockfish"));
    assert!(id.options.iter().any(|o| o.name == "Hash"));
    engine.set_option("Threads", Some("1")).unwrap();
    engine.set_option("Hash", Some("16")).unwrap();
    engine.sync(Duration::from_secs(10)).unwrap();
    let result = engine
        .search(&start(), &nodes(2000), Duration::from_secs(10))
        .unwrap();
    assert!(result.best.is_some());
    assert!(result.info.is_some_and(|i| i.score.is_some()));
    assert!(result.received_us >= result.sent_us);
    // A game from a FEN, with castling, in both conventions.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut game = Game::new(fen.parse().unwrap());
    let castle = game
        .position()
        .legal_moves()
        .into_iter()
        .find(|m| m.is_castle())
        .unwrap();
    game.play(castle).unwrap();
    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let chess960 = mode == CastlingMode::Chess960;
        engine
            .set_option(
                "UCI_Chess960",
                Some(if chess960 { "true" } else { "false" }),
            )
            .unwrap();
        let position = position_of(&game, mode);
        assert_eq!(
            position.fen.as_ref().map(ToString::to_string).as_deref(),
            Some(fen)
        );
        let (m, _) = engine
            .play(&game, mode, &nodes(500), Duration::from_secs(10))
            .unwrap();
        assert!(game.position().legal_moves().contains(&m));
    }
    engine.quit(Duration::from_secs(2));
}

type Expect = fn(&ClientError) -> bool;

#[test]
fn misbehaving_engines_are_typed_errors() {
    let ready = "read l; echo uciok; read l; echo readyok;";
    let cases: [(String, Expect); 8] = [
        ("exit 0".into(), |e| matches!(e, ClientError::Exited { .. })),
        ("sleep 5".into(), |e| {
            matches!(
                e,
                ClientError::Timeout {
                    waiting_for: "uciok",
                    ..
                }
            )
        }),
        ("read l; echo uciok; sleep 5".into(), |e| {
            matches!(
                e,
                ClientError::Timeout {
                    waiting_for: "readyok",
                    ..
                }
            )
        }),
        (
            format!("{ready} read l; read l; echo 'bestmove e9e4'; sleep 5"),
            |e| matches!(e, ClientError::Malformed { .. }),
        ),
        (
            format!("{ready} read l; read l; echo 'bestmove e2e5'; sleep 5"),
            |e| matches!(e, ClientError::IllegalMove { .. }),
        ),
        (
            format!("{ready} read l; read l; echo 'bestmove (none)'; sleep 5"),
            |e| matches!(e, ClientError::NoMove { .. }),
        ),
        (format!("{ready} while :; do echo '%%%'; done"), |e| {
            matches!(e, ClientError::Garbage { .. })
        }),
        // Messages that are not the one waited for do not put the deadline off.
        (
            format!("{ready} read l; read l; while :; do echo readyok; sleep 0.05; done"),
            |e| {
                matches!(
                    e,
                    ClientError::Timeout {
                        waiting_for: "bestmove",
                        ..
                    }
                )
            },
        ),
    ];
    for (text, expected) in cases {
        let mut engine = Client::spawn(&script(&text), stamp()).unwrap();
        let started = Instant::now();
        let error = engine
            .handshake(SHORT)
            .and_then(|_| engine.sync(SHORT))
            .and_then(|()| {
                let game = Game::standard();
                engine
                    .play(&game, CastlingMode::Standard, &nodes(1), SHORT)
                    .map(|_| ())
            })
            .expect_err(&text);
        assert!(expected(&error), "{text}: {error:?}");
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "{text}: too slow"
        );
    }
    let missing = EngineCommand {
        program: "/nonexistent/engine".into(),
        ..EngineCommand::default()
    };
    assert!(matches!(
        Client::spawn(&missing, stamp()),
        Err(ClientError::Spawn(_))
    ));
}

/// An engine that stops reading its input (the pipe to it full) is an error after the write
/// timeout, never a caller blocked for good; one that reads late is written to whole.
#[test]
fn writes_wait_for_an_engine_that_reads_no_longer_than_their_timeout() {
    // More than the 64 KiB a pipe holds, in one command.
    let value = "v".repeat(200_000);
    let mut engine = Client::spawn(&script("exec sleep 30"), stamp()).unwrap();
    engine.set_write_timeout(Duration::from_millis(300));
    let started = Instant::now();
    let error = engine.set_option("Book", Some(&value)).unwrap_err();
    assert_eq!(error, ClientError::Unread { timeout_ms: 300 });
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(300), "{waited:?}");
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    // The input may hold part of a command now: nothing more is written, at once.
    let started = Instant::now();
    assert_eq!(
        engine.stopper().stop(),
        Err(ClientError::Unread { timeout_ms: 300 })
    );
    assert!(started.elapsed() < Duration::from_millis(100));
    // The wait ends even when the caller's clock stands still.
    let still: Stamp = Arc::new(|| 0);
    let mut engine = Client::spawn(&script("exec sleep 30"), still).unwrap();
    engine.set_write_timeout(Duration::from_millis(300));
    let started = Instant::now();
    let error = engine.set_option("Book", Some(&value)).unwrap_err();
    assert_eq!(error, ClientError::Unread { timeout_ms: 300 });
    assert!(started.elapsed() < Duration::from_secs(3));
    // An engine that starts reading after a while takes the whole command (it names the
    // length of the line it read), then answers.
    let late = r#"sleep 0.3; read l; echo "id name ${#l}"; read l; echo uciok"#;
    let mut engine = Client::spawn(&script(late), stamp()).unwrap();
    engine.set_write_timeout(Duration::from_secs(10));
    engine.set_option("Book", Some(&value)).unwrap();
    let id = engine.handshake(Duration::from_secs(10)).unwrap();
    let line = format!("setoption name Book value {value}");
    assert_eq!(id.name, Some(line.len().to_string()));
}

/// A line that only mentions `bestmove`, and a `ponder` that is no move, forfeit nothing.
#[test]
fn a_bestmove_stands_beside_lines_that_do_not_read() {
    let ready = "read l; echo uciok; read l; echo readyok;";
    for last in ["bestmove e2e4 ponder xyz", "bestmove e2e4 ponder"] {
        let text = format!("{ready} read l; read l; echo 'log: no bestmove found'; echo '{last}'");
        let mut engine = Client::spawn(&script(&text), stamp()).unwrap();
        engine.handshake(SHORT).unwrap();
        engine.sync(SHORT).unwrap();
        let (played, result) = engine
            .play(&Game::standard(), CastlingMode::Standard, &nodes(1), SHORT)
            .expect(&text);
        assert_eq!(played, Move::normal(Square::E2, Square::E4), "{text}");
        assert_eq!(result.ponder, None, "{text}");
    }
}

#[test]
fn the_last_scored_info_line_is_kept() {
    // A scored line that does not read, then the last scored one, then info lines without a
    // score and a `score` inside `info string`: the search keeps the last scored line.
    let text = "read l; echo uciok; read l; echo readyok; read l; read l; \
        echo 'info depth 1 score cp 10 pv e2e4'; \
        echo 'info depth x score'; \
        echo 'info depth 2 seldepth 3 score mate 3 nodes 40 pv d2d4 d7d5'; \
        echo 'info currmove e2e4 currmovenumber 1'; \
        echo 'info string my score is 900'; \
        echo 'bestmove d2d4'; sleep 5";
    let mut engine = Client::spawn(&script(text), stamp()).unwrap();
    engine.handshake(SHORT).unwrap();
    engine.sync(SHORT).unwrap();
    let result = engine.search(&start(), &nodes(1), SHORT).unwrap();
    assert_eq!(result.best.map(|m| m.to_string()).as_deref(), Some("d2d4"));
    let info = result.info.unwrap();
    assert_eq!((info.depth, info.nodes), (Some(2), Some(40)));
    assert_eq!(info.pv.len(), 2);
}

#[test]
fn a_followed_search_hands_over_each_info_line_as_it_comes() {
    let text = "read l; echo uciok; read l; read l; \
        echo 'info depth 1 score cp 10 pv e2e4'; \
        echo 'info depth x score'; \
        echo 'info depth 2 seldepth 3 score mate 3 nodes 40 pv d2d4 d7d5'; \
        echo 'info currmove e2e4 currmovenumber 1'; \
        echo 'info string my score is 900'; \
        echo 'bestmove d2d4 ponder d7d5'; \
        read l; read l; echo 'info depth 7 score cp 1'; echo 'bestmove e2e4'; sleep 5";
    let mut engine = Client::spawn(&script(text), stamp()).unwrap();
    engine.handshake(SHORT).unwrap();
    engine.start_search(&start(), &nodes(1)).unwrap();
    let mut depths = Vec::new();
    let mut strings = Vec::new();
    let (best, ponder) = loop {
        match engine.next_search_event(SHORT).unwrap() {
            SearchEvent::Info(info) => {
                depths.push(info.depth);
                strings.extend(info.string);
            }
            SearchEvent::BestMove { best, ponder } => break (best, ponder),
        }
    };
    // The line that does not read is skipped; the others come in order, scored or not.
    assert_eq!(depths, [Some(1), Some(2), None, None]);
    assert_eq!(strings, ["my score is 900"]);
    assert_eq!(best.map(|m| m.to_string()).as_deref(), Some("d2d4"));
    assert_eq!(ponder.map(|m| m.to_string()).as_deref(), Some("d7d5"));
    // A search waited for afterwards keeps only the last scored line again.
    let result = engine.search(&start(), &nodes(1), SHORT).unwrap();
    assert_eq!(result.info.and_then(|i| i.depth), Some(7));
}

#[test]
fn stockfish_infinite_search_followed_then_stopped() {
    let Some(mut engine) = stockfish() else {
        return;
    };
    engine.handshake(Duration::from_secs(10)).unwrap();
    engine.set_option("Threads", Some("1")).unwrap();
    engine.sync(Duration::from_secs(10)).unwrap();
    let infinite = Go {
        infinite: true,
        ..Go::default()
    };
    engine.start_search(&start(), &infinite).unwrap();
    let mut depths = Vec::new();
    while depths.len() < 5 {
        if let SearchEvent::Info(info) = engine.next_search_event(Duration::from_secs(10)).unwrap()
            && info.score.is_some()
        {
            depths.extend(info.depth);
        }
    }
    assert!(depths.is_sorted(), "{depths:?}");
    engine.stop().unwrap();
    let best = loop {
        if let SearchEvent::BestMove { best, .. } =
            engine.next_search_event(Duration::from_secs(10)).unwrap()
        {
            break best;
        }
    };
    assert!(best.is_some());
    // Stopped from another thread while this one waits for the search's lines.
    engine.start_search(&start(), &infinite).unwrap();
    let stopper = engine.stopper();
    // Timed from before the stopping thread starts, whose sleep may begin before this one
    // resumes.
    let waited = Instant::now();
    let stopping = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        stopper.stop()
    });
    while !matches!(
        engine.next_search_event(Duration::from_secs(10)).unwrap(),
        SearchEvent::BestMove { .. }
    ) {}
    stopping.join().unwrap().unwrap();
    assert!(waited.elapsed() >= Duration::from_millis(200));
    let result = engine
        .search(&start(), &nodes(1000), Duration::from_secs(10))
        .unwrap();
    assert!(result.best.is_some());
    engine.quit(Duration::from_secs(2));
}
