//! The referee on scripted games: the Laws' endings with their articles, claims made for the
//! engines, flags, forfeits, adjudication, and the PGN it writes.

use caissa_arbiter::{PgnTimeControl, TimeControl};
use caissa_board::{ByColor, Color};
use caissa_game::GameResult;
use caissa_match::openings::Opening;
use caissa_match::referee::{
    Adjudication, DrawRule, Forfeit, Limits, Referee, RefereeError, ResignRule, Settings,
    Termination,
};
use caissa_movegen::Move;
use caissa_notation::pgn::{Reader, Replayer};
use caissa_notation::uci::UciMove;
use caissa_uci::protocol::{EngineMessage, Info};

fn tc(text: &str) -> Option<TimeControl> {
    match TimeControl::from_pgn(text).unwrap() {
        PgnTimeControl::Control(tc) => Some(tc),
        other => panic!("{other:?}"),
    }
}

fn uci(referee: &Referee, text: &str) -> Move {
    text.parse::<UciMove>()
        .unwrap()
        .to_move(referee.game().position())
        .unwrap()
}

fn info(line: &str) -> Info {
    match EngineMessage::parse(line).unwrap().message {
        EngineMessage::Info(info) => *info,
        other => panic!("{other:?}"),
    }
}

fn play(referee: &mut Referee, moves: &str, ms: u64) -> Option<Termination> {
    let mut ending = None;
    for text in moves.split_whitespace() {
        let m = uci(referee, text);
        ending = referee.play(m, ms, None).cloned();
    }
    ending
}

fn termination(referee: &Referee) -> String {
    referee
        .ending()
        .map(ToString::to_string)
        .unwrap_or_default()
}

/// The PGN replays, and its tags say what the referee decided.
fn check_pgn(referee: &Referee) -> String {
    let pgn = referee.pgn("test", 3, ["A", "B"]);
    for game in Reader::new(pgn.as_bytes()).games(&mut Replayer::new()) {
        game.unwrap();
    }
    let result = referee.ending().unwrap().result().as_str();
    assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{pgn}");
    assert!(pgn.contains("[Round \"3\"]"), "{pgn}");
    pgn
}

#[test]
fn checkmate_with_clocks_and_evals() {
    let settings = Settings {
        time_control: tc("60+1"),
        ..Settings::default()
    };
    let mut r = Referee::new(&Opening::standard(), &settings, ["A", "B"]).unwrap();
    assert_eq!(
        r.go(&Limits::default()).to_string(),
        "go wtime 60000 btime 60000 winc 1000 binc 1000"
    );
    let m = uci(&r, "f2f3");
    assert!(
        r.play(m, 2_000, Some(&info("info depth 7 score cp -50")))
            .is_none()
    );
    assert_eq!(r.time_left_ms(), Some(60_000));
    assert_eq!(
        r.go(&Limits {
            nodes: Some(100),
            ..Limits::default()
        })
        .to_string(),
        "go wtime 59000 btime 60000 winc 1000 binc 1000 nodes 100"
    );
    assert!(play(&mut r, "e7e5 g2g4", 500).is_none());
    let m = uci(&r, "d8h4");
    let ending = r
        .play(m, 100, Some(&info("info depth 3 score mate 1")))
        .cloned()
        .unwrap();
    assert_eq!(ending.result(), GameResult::BlackWins);
    assert_eq!(ending.to_string(), "checkmate (FIDE 5.1.1)");
    let pgn = check_pgn(&r);
    assert!(
        pgn.contains("[Termination \"checkmate (FIDE 5.1.1)\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[TimeControl \"60+1\"]"), "{pgn}");
    // White's score -0.50 from White's side; Black's mate in 1 is #-1 from White's.
    assert!(
        pgn.contains("1. f3 { [%clk 0:00:59] [%eval -0.50,7] }"),
        "{pgn}"
    );
    assert!(
        pgn.contains("Qh4# { [%clk 0:01:00.4] [%eval #-1,3] } 0-1"),
        "{pgn}"
    );
}

#[test]
fn threefold_claimed_or_played_on() {
    let shuffle = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";
    let mut r = Referee::new(&Opening::standard(), &Settings::default(), ["A", "B"]).unwrap();
    let ending = play(&mut r, shuffle, 10).unwrap();
    assert_eq!(ending.result(), GameResult::Draw);
    assert!(
        termination(&r).starts_with("threefold repetition (FIDE 9.2"),
        "{}",
        termination(&r)
    );
    check_pgn(&r);
    // Without claims the game goes on to the fivefold repetition (9.6.1).
    let settings = Settings {
        claim_threefold: false,
        ..Settings::default()
    };
    let mut r = Referee::new(&Opening::standard(), &settings, ["A", "B"]).unwrap();
    assert!(play(&mut r, shuffle, 10).is_none());
    play(&mut r, shuffle, 10);
    assert_eq!(termination(&r), "fivefold repetition (FIDE 9.6.1)");
}

#[test]
fn flags_forfeits_and_adjudication() {
    let settings = Settings {
        time_control: tc("10"),
        ..Settings::default()
    };
    let mut r = Referee::new(&Opening::standard(), &settings, ["A", "B"]).unwrap();
    play(&mut r, "e2e4", 3_000);
    // Black thinks past its 10 s: the flag falls, and White can mate: White wins (6.9).
    assert_eq!(r.time_out(10_001).result(), GameResult::WhiteWins);
    assert_eq!(termination(&r), "time forfeit (FIDE 6.9)");
    check_pgn(&r);
    // A move that arrives after the flag does not count.
    let mut r = Referee::new(&Opening::standard(), &settings, ["A", "B"]).unwrap();
    let m = uci(&r, "e2e4");
    assert_eq!(
        r.play(m, 10_500, None).map(Termination::result),
        Some(GameResult::BlackWins)
    );

    // Flag against a lone king: 6.9 makes it a draw.
    let bare = Opening {
        start: "4k3/8/8/8/8/8/8/4K2Q b - - 0 1".parse().unwrap(),
        ..Opening::standard()
    };
    let mut r = Referee::new(&bare, &settings, ["A", "B"]).unwrap();
    assert_eq!(r.time_out(10_000).result(), GameResult::WhiteWins);
    let mut r = Referee::new(&bare, &settings, ["A", "B"]).unwrap();
    play(&mut r, "e8d7", 100);
    assert_eq!(r.time_out(20_000).result(), GameResult::Draw);

    // Without a clock, silence is a hang; any misbehaviour loses with its reason.
    let mut r = Referee::new(&Opening::standard(), &Settings::default(), ["A", "B"]).unwrap();
    assert_eq!(
        r.time_out(60_000),
        &Termination::Forfeit {
            loser: Color::White,
            reason: Forfeit::Hang
        }
    );
    let mut r = Referee::new(&Opening::standard(), &Settings::default(), ["A", "B"]).unwrap();
    play(&mut r, "e2e4", 1);
    r.forfeit(Color::Black, Forfeit::IllegalMove("e7e4".into()));
    assert_eq!(termination(&r), "rules infraction: Black illegal move e7e4");
    assert!(check_pgn(&r).contains("1-0"));

    // Adjudication: a draw by score, a resignation, the move limit.
    let settings = Settings {
        draw: Some(DrawRule {
            move_number: 2,
            move_count: 2,
            score: 10,
        }),
        ..Settings::default()
    };
    let mut r = Referee::new(&Opening::standard(), &settings, ["A", "B"]).unwrap();
    for text in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        let m = uci(&r, text);
        r.play(m, 1, Some(&info("info score cp 5")));
    }
    assert_eq!(
        r.ending(),
        Some(&Termination::Adjudication(Adjudication::Draw))
    );
    // Bounds and scores at the ends of the range count for no draw (a bound says less than a
    // score; -2147483648, which some engines print for "lost", once panicked), and a huge move
    // count no longer wraps to an adjudication after the first move.
    for (line, move_count) in [
        ("info score cp 5 upperbound", 2),
        ("info score cp -2147483648", 2),
        ("info score mate -2147483648", 2),
        ("info score cp 5", u32::MAX),
    ] {
        let settings = Settings {
            draw: Some(DrawRule {
                move_number: 1,
                move_count,
                score: 10,
            }),
            ..Settings::default()
        };
        let mut r = Referee::new(&Opening::standard(), &settings, ["A", "B"]).unwrap();
        for text in ["e2e4", "e7e5", "g1f3", "b8c6"] {
            let m = uci(&r, text);
            r.play(m, 1, Some(&info(line)));
        }
        assert_eq!(r.ending(), None, "{line} {move_count}");
        assert!(r.pgn("test", 3, ["A", "B"]).contains("[%eval"), "{line}");
    }
    let settings = Settings {
        resign: Some(ResignRule {
            move_count: 2,
            score: 500,
        }),
        ..Settings::default()
    };
    let mut r = Referee::new(&Opening::standard(), &settings, ["A", "B"]).unwrap();
    for text in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        let m = uci(&r, text);
        let line = if r.turn() == Color::Black {
            "info score cp -600"
        } else {
            "info score cp 600"
        };
        r.play(m, 1, Some(&info(line)));
    }
    assert_eq!(
        r.ending().map(Termination::result),
        Some(GameResult::WhiteWins)
    );
    assert_eq!(termination(&r), "adjudication: Black resigns by score");
    let settings = Settings {
        max_moves: Some(2),
        ..Settings::default()
    };
    let opening = Opening {
        moves: vec![],
        ..Opening::standard()
    };
    let mut r = Referee::new(&opening, &settings, ["A", "B"]).unwrap();
    play(&mut r, "e2e4 e7e5 g1f3", 1);
    assert!(r.ending().is_none());
    play(&mut r, "b8c6", 1);
    assert_eq!(
        r.ending(),
        Some(&Termination::Adjudication(Adjudication::MaxMoves))
    );
}

#[test]
fn openings_are_played_from_the_book() {
    let mut r0 = Referee::new(&Opening::standard(), &Settings::default(), ["A", "B"]).unwrap();
    let moves: Vec<Move> = ["e2e4", "e7e5"]
        .iter()
        .map(|t| {
            let m = uci(&r0, t);
            r0.play(m, 1, None);
            m
        })
        .collect();
    let opening = Opening {
        moves,
        name: Some("Open Game".into()),
        ..Opening::standard()
    };
    let mut r = Referee::new(
        &opening,
        &Settings {
            time_control: tc("5+0"),
            ..Settings::default()
        },
        ["A", "B"],
    )
    .unwrap();
    assert_eq!(r.game().ply(), 2);
    play(&mut r, "g1f3", 1_000);
    r.forfeit(Color::Black, Forfeit::Exited);
    let pgn = check_pgn(&r);
    assert!(
        pgn.contains("1. e4 { book } 1... e5 { book } 2. Nf3 { [%clk 0:00:04] }"),
        "{pgn}"
    );
    assert!(pgn.contains("[Opening \"Open Game\"]"), "{pgn}");
    let bad = Opening {
        moves: vec![opening.moves[1]],
        ..Opening::standard()
    };
    assert!(Referee::new(&bad, &Settings::default(), ["A", "B"]).is_err());
}

#[test]
fn time_odds_each_engine_on_its_own_control() {
    let settings = Settings {
        time_control: tc("5+0.05"),
        ..Settings::default()
    };
    let fast = tc("10+0.1");
    let own = ByColor {
        white: None,
        black: fast.as_ref(),
    };
    let mut r = Referee::with_time_odds(&Opening::standard(), &settings, ["A", "B"], own).unwrap();
    play(&mut r, "e2e4", 1_000);
    assert_eq!(r.time_left_ms(), Some(10_000));
    play(&mut r, "e7e5", 2_000);
    assert_eq!(r.time_left_ms(), Some(4_050));
    assert_eq!(
        r.go(&Limits::default()).to_string(),
        "go wtime 4050 btime 8100 winc 50 binc 100"
    );
    r.forfeit(Color::White, Forfeit::Exited);
    let pgn = check_pgn(&r);
    assert!(
        pgn.contains("[WhiteTimeControl \"5+0.05\"]")
            && pgn.contains("[BlackTimeControl \"10+0.1\"]")
            && !pgn.contains("[TimeControl "),
        "{pgn}"
    );
    assert!(
        pgn.contains("1. e4 { [%clk 0:00:04.05] } 1... e5 { [%clk 0:00:08.1] }"),
        "{pgn}"
    );
    // Its own control equal to the match's is no odds.
    let same = ByColor {
        white: settings.time_control.as_ref(),
        black: None,
    };
    let mut r = Referee::with_time_odds(&Opening::standard(), &settings, ["A", "B"], same).unwrap();
    r.forfeit(Color::White, Forfeit::Exited);
    assert!(check_pgn(&r).contains("[TimeControl \"5+0.05\"]"));
    // A clock for one engine only cannot be.
    let untimed =
        Referee::with_time_odds(&Opening::standard(), &Settings::default(), ["A", "B"], own);
    assert_eq!(untimed.err(), Some(RefereeError::Untimed(Color::White)));
}
