//! `caissa match`: real games between Stockfish (at low node counts) and the random engine or
//! GNU Chess, the PGN they produce, resuming, SPRT, and misbehaving engines that lose for the
//! right reason while the match goes on.

use std::path::Path;

use super::{TempFile, caissa};

const STOCKFISH: &str = "/usr/games/stockfish";
const GNUCHESS: &str = "/usr/games/gnuchess";

fn random(extra: &str) -> String {
    format!(
        "cmd={} arg=random-engine {extra}",
        env!("CARGO_BIN_EXE_caissa")
    )
}

/// An EPD book of two openings, 1. e4 and 1. d4.
const E4_D4_BOOK: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\
                          rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - id \"d4\";\n";

/// Two games a pairing at 1+0, two at a time, an engine that does not answer given 500 ms.
const QUICK_PAIRS: [&str; 8] = [
    "--tc",
    "1+0",
    "--games",
    "2",
    "--concurrency",
    "2",
    "--timeout",
    "500",
];

/// `caissa match` with each `--engine` given as one string of words.
fn run_match(engines: &[&str], rest: &[&str]) -> super::Run {
    let mut args = vec!["match".to_owned()];
    for engine in engines {
        args.push("--engine".into());
        args.extend(engine.split_whitespace().map(str::to_owned));
    }
    args.extend(rest.iter().map(|s| (*s).to_owned()));
    caissa(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The PGN's results and terminations, in file order, after `caissa pgn check` accepted it.
fn games(pgn: &Path) -> Vec<(String, String, String, String)> {
    let check = caissa(&["pgn", "check", pgn.to_str().unwrap()]);
    assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
    let text = std::fs::read_to_string(pgn).unwrap();
    let tag = |game: &str, name: &str| {
        let start = format!("[{name} \"");
        game.lines()
            .find_map(|l| l.strip_prefix(&start)?.strip_suffix("\"]"))
            .unwrap_or_default()
            .to_owned()
    };
    text.split("[Event ")
        .skip(1)
        .map(|g| {
            (
                tag(g, "White"),
                tag(g, "Black"),
                tag(g, "Result"),
                tag(g, "Termination"),
            )
        })
        .collect()
}

/// W/D/L of `first` in `games`.
fn wdl(games: &[(String, String, String, String)], first: &str) -> (usize, usize, usize) {
    let mut t = (0, 0, 0);
    for (white, _, result, _) in games {
        match (result.as_str(), white == first) {
            ("1/2-1/2", _) => t.1 += 1,
            ("1-0", true) | ("0-1", false) => t.0 += 1,
            _ => t.2 += 1,
        }
    }
    t
}

#[test]
fn stockfish_against_the_random_engine() {
    if !Path::new(STOCKFISH).exists() {
        eprintln!("no {STOCKFISH}; `cargo xtask setup` installs it");
        return;
    }
    let pgn = TempFile::new("match-sf.pgn", "");
    std::fs::remove_file(pgn.path()).unwrap();
    let openings = TempFile::new("match-book.epd", E4_D4_BOOK);
    let sf = format!("cmd={STOCKFISH} name=sf option.Threads=1 option.Hash=16 nodes=2000");
    let engines = [sf.as_str(), &random("name=random")];
    let rest = [
        "--tc",
        "20+0.2",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--openings",
        openings.path(),
        "--pgn",
        pgn.path(),
        "--max-moves",
        "150",
    ];
    let run = run_match(&engines, &rest);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let progress = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("game "))
        .count();
    assert_eq!(progress, 4, "{}", run.stderr);
    let played = games(pgn.0.as_path());
    assert_eq!(played.len(), 4);
    let (w, d, l) = wdl(&played, "sf");
    let last = run.stdout.lines().last().unwrap();
    assert!(
        last.starts_with(&format!(
            "result sf vs random: wins {w} draws {d} losses {l} elo "
        )),
        "{last}"
    );
    assert!(w >= 3, "{played:?}");
    let text = std::fs::read_to_string(pgn.path()).unwrap();
    assert!(
        text.contains("[TimeControl \"20+0.2\"]") && text.contains("[%clk "),
        "{text}"
    );
    assert!(
        text.contains("[%eval ") && text.contains("[SetUp \"1\"]"),
        "{text}"
    );
    assert!(text.contains("[Opening \"e4\"]") && text.contains("[Opening \"d4\"]"));
    // Run again: every game is in the PGN, nothing is played, the same result.
    let again = run_match(&engines, &rest);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.stdout.lines().last(), Some(last));
    assert_eq!(games(pgn.0.as_path()).len(), 4);
}

/// GNU Chess, a second real engine with its own habits (its UCI mode takes `go depth` but not
/// `go nodes`, and has no `MultiPV`), against Stockfish: both games end by the Laws (no
/// forfeit, no flag) or at the move limit, and the PGN holds GNU Chess's scores and clocks.
#[test]
fn stockfish_against_gnu_chess() {
    if !Path::new(STOCKFISH).exists() || !Path::new(GNUCHESS).exists() {
        eprintln!("no {STOCKFISH} or {GNUCHESS}; `cargo xtask setup` installs them");
        return;
    }
    let pgn = TempFile::new("match-gnu.pgn", "");
    std::fs::remove_file(pgn.path()).unwrap();
    let sf = format!("cmd={STOCKFISH} name=sf option.Threads=1 option.Hash=16 nodes=2000");
    let gnu = format!("cmd={GNUCHESS} arg=--uci name=gnu depth=3");
    let rest = [
        "--tc",
        "20+0.2",
        "--games",
        "2",
        "--concurrency",
        "2",
        "--pgn",
        pgn.path(),
        "--max-moves",
        "150",
    ];
    let run = run_match(&[&sf, &gnu], &rest);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let played = games(pgn.0.as_path());
    assert_eq!(played.len(), 2, "{}", run.stderr);
    for (white, black, result, termination) in &played {
        let by_laws = termination.contains("(FIDE ") && !termination.contains("time");
        assert!(
            by_laws || termination == "adjudication: draw at the move limit",
            "{white} vs {black} {result}: {termination}"
        );
    }
    let text = std::fs::read_to_string(pgn.path()).unwrap();
    let gnu_moves = text
        .split("[Event ")
        .skip(1)
        .map(|game| game.matches(",3] }").count())
        .sum::<usize>();
    assert!(gnu_moves > 10, "GNU Chess's depth-3 scores: {text}");
    let last = run.stdout.lines().last().unwrap();
    assert!(last.starts_with("result sf vs gnu: wins "), "{last}");
}

/// The `[%clk]` times of a game's movetext, in seconds, in ply order.
fn clocks(game: &str) -> Vec<f64> {
    game.split("[%clk ")
        .skip(1)
        .map(|rest| {
            let text = &rest[..rest.find(']').unwrap()];
            text.split(':')
                .map(|part| part.parse::<f64>().unwrap())
                .fold(0.0, |total, part| total * 60.0 + part)
        })
        .collect()
}

#[test]
fn time_odds_follow_the_engine() {
    let pgn = TempFile::new("match-odds.pgn", "");
    std::fs::remove_file(pgn.path()).unwrap();
    // fast 10+0.01 against slow 5+0.005, the slow one on the match's --tc; both think 25 ms a
    // move, so that their clocks run down.
    let run = run_match(
        &[
            &random("name=fast tc=10+0.01 arg=--think arg=25"),
            &random("name=slow arg=--think arg=25"),
        ],
        &[
            "--tc",
            "5+0.005",
            "--games",
            "2",
            "--concurrency",
            "2",
            "--max-moves",
            "20",
            "--pgn",
            pgn.path(),
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(games(pgn.0.as_path()).len(), 2);
    let text = std::fs::read_to_string(pgn.path()).unwrap();
    assert!(!text.contains("[TimeControl "), "{text}");
    let mut colours = Vec::new();
    for game in text.split("[Event ").skip(1) {
        let fast_is_white = game.contains("[White \"fast\"]");
        colours.push(fast_is_white);
        let (white, black) = if fast_is_white {
            ("10+0.01", "5+0.005")
        } else {
            ("5+0.005", "10+0.01")
        };
        assert!(
            game.contains(&format!("[WhiteTimeControl \"{white}\"]"))
                && game.contains(&format!("[BlackTimeControl \"{black}\"]")),
            "{game}"
        );
        let clocks = clocks(game);
        assert_eq!(clocks.len(), 40, "{game}");
        for (ply, &clock) in clocks.iter().enumerate() {
            // Each engine's n-th move leaves it base + n increments less the n times 25 ms or
            // more it thought (well under 3 s in all): the ranges of the two controls are apart.
            let fast = (ply % 2 == 0) == fast_is_white;
            let (base, inc) = if fast { (10.0, 0.01) } else { (5.0, 0.005) };
            let n = (ply / 2 + 1) as f64;
            let most = base + n * (inc - 0.025);
            assert!(
                clock <= most + 1e-9 && clock > most - 3.0,
                "ply {ply} ({}): {clock} s, {most} s at most\n{game}",
                if fast { "fast" } else { "slow" }
            );
            // And it runs down, move by move.
            assert!(ply < 2 || clock < clocks[ply - 2], "ply {ply}\n{game}");
        }
    }
    colours.sort_unstable();
    assert_eq!(colours, [false, true], "each engine plays each colour");
}

#[test]
fn sprt_stops_the_match() {
    if !Path::new(STOCKFISH).exists() {
        return;
    }
    let sf = format!("cmd={STOCKFISH} name=sf option.Threads=1 nodes=500");
    // Without clocks each engine needs a limit, which the random engine ignores.
    let run = run_match(
        &[&sf, &random("name=random depth=1")],
        &[
            "--games",
            "200",
            "--concurrency",
            "2",
            "--sprt",
            "elo0=0",
            "elo1=300",
            "--max-moves",
            "150",
            "--json",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("sprt: H1 accepted"), "{}", run.stderr);
    let games = run.stdout.lines().filter(|l| l.starts_with('{')).count();
    assert!((2..200).contains(&games), "{games}");
    let first: serde_json::Value =
        serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap();
    assert!(
        first["termination"].is_string() && first["pentanomial"].is_array(),
        "{first}"
    );
}

#[test]
fn misbehaving_engines_lose_for_the_right_reason() {
    let cases = [
        ("illegal", "rules infraction: {c} illegal move a1a1"),
        ("exit", "rules infraction: {c} engine exited"),
        ("garbage", "rules infraction: {c} malformed move"),
        ("hang", "time forfeit (FIDE 6.9)"),
        (
            "noready",
            "rules infraction: {c} did not start: no readyok within 500 ms",
        ),
    ];
    for (mode, reason) in cases {
        let pgn = TempFile::new(&format!("match-{mode}.pgn"), "");
        std::fs::remove_file(pgn.path()).unwrap();
        let bad = random(&format!(
            "name=bad arg=--misbehave arg={mode} arg=--after arg=3"
        ));
        let run = run_match(
            &[&bad, &random("name=good")],
            &[&QUICK_PAIRS[..], &["--pgn", pgn.path()]].concat(),
        );
        assert_eq!(run.code, 0, "{mode}: {}", run.stderr);
        let played = games(pgn.0.as_path());
        assert_eq!(played.len(), 2, "{mode}: the match goes on");
        for (white, _, result, termination) in &played {
            let bad_is_white = white == "bad";
            let color = if bad_is_white { "White" } else { "Black" };
            assert!(
                termination.starts_with(&reason.replace("{c}", color)),
                "{mode}: {termination}"
            );
            assert_eq!(result, if bad_is_white { "0-1" } else { "1-0" }, "{mode}");
        }
        let last = run.stdout.lines().last().unwrap();
        assert_eq!(
            last.split(" elo ").next(),
            Some("result bad vs good: wins 0 draws 0 losses 2"),
            "{mode}"
        );
    }
}

#[test]
fn bad_arguments_are_usage_errors() {
    for (engines, rest, needle) in [
        (&["name=x"][..], &["--tc", "1+0"][..], "cmd= is required"),
        (&["cmd=a"][..], &["--tc", "1+0"][..], "two engines or more"),
        (&["cmd=a", "cmd=b"][..], &["--tc", "x"][..], "--tc"),
        (
            &["cmd=a name=n", "cmd=b name=n"][..],
            &["--tc", "1"][..],
            "two engines are named n",
        ),
        (&["cmd=a", "cmd=b"][..], &[][..], "give a time control"),
        // Its `go` would be bare, a search without end.
        (
            &["cmd=a depth=1", "cmd=b"][..],
            &[][..],
            "b has neither a time control nor a limit",
        ),
        (
            &["cmd=a tc=1", "cmd=b"][..],
            &[][..],
            "a has a time control and b none",
        ),
        (
            &["cmd=a tc=1", "cmd=b tc=-"][..],
            &["--tc", "1"][..],
            "b none",
        ),
        (
            &["cmd=a bogus=1", "cmd=b"][..],
            &["--tc", "1"][..],
            "unknown key bogus",
        ),
        (
            &["cmd=a", "cmd=b"][..],
            &["--tc", "1", "--sprt", "elo0=1"][..],
            "--sprt",
        ),
        (
            &["cmd=a", "cmd=b"][..],
            &[
                "--tc",
                "1",
                "--sprt",
                "elo0=0",
                "elo1=5",
                "alpha=0.6",
                "beta=0.5",
            ][..],
            "alpha + beta must be below 1",
        ),
        (
            &["cmd=a", "cmd=b", "cmd=c"][..],
            &["--tc", "1", "--sprt", "elo0=0", "elo1=5"][..],
            "needs exactly two engines",
        ),
        (
            &["cmd=a", "cmd=b"][..],
            &["--tc", "1", "--draw", "movecount=3"][..],
            "movenumber= is required",
        ),
    ] {
        let run = run_match(engines, rest);
        assert_eq!(run.code, 2, "{engines:?} {rest:?}: {}", run.stderr);
        assert!(run.stderr.contains(needle), "{needle}: {}", run.stderr);
    }
}

/// The table of more than two engines ranks by the share of the points of each one's games: a
/// gauntlet's first engine plays more games than the others. Here `a` (first) loses both games
/// to `b` (an illegal move) and wins both against `c` (which never starts): 2 points of 4 for
/// `a`, 2 of 2 for `b`.
#[test]
fn the_table_ranks_by_the_share_of_points() {
    let a = random("name=a arg=--misbehave arg=illegal arg=--after arg=3");
    let c = random("name=c arg=--misbehave arg=noready");
    let run = run_match(
        &[&a, &random("name=b"), &c],
        &[&["--gauntlet"][..], &QUICK_PAIRS].concat(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let table: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|line| *line != "rank name points games")
        .collect();
    assert_eq!(
        table,
        ["rank name points games", "1 b 2 2", "2 a 2 4", "3 c 0 2"],
        "{}",
        run.stdout
    );
}

/// An SPRT that the games played do not decide says so, with its ratio.
#[test]
fn an_undecided_sprt_says_so() {
    let run = run_match(
        &[&random("name=a depth=1"), &random("name=b depth=1")],
        &[
            "--games",
            "2",
            "--max-moves",
            "20",
            "--sprt",
            "elo0=0",
            "elo1=5",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .lines()
            .any(|l| l.starts_with("sprt: no decision (llr ")),
        "{}",
        run.stderr
    );
}

/// A match started again counts the games of its PGN that are the schedule's (the same round,
/// players and opening) and plays the others: a game whose opening is not the one its round
/// has, as in a file another tool numbered otherwise, is played again.
#[test]
fn resuming_counts_only_the_schedules_games() {
    let pgn = TempFile::new("match-resume.pgn", "");
    std::fs::remove_file(pgn.path()).unwrap();
    let book = TempFile::new("match-resume.epd", E4_D4_BOOK);
    let engines = [random("name=a depth=1"), random("name=b depth=1")];
    let engines = [engines[0].as_str(), engines[1].as_str()];
    let rest = [
        "--games",
        "4",
        "--max-moves",
        "10",
        "--openings",
        book.path(),
        "--pgn",
        pgn.path(),
    ];
    let first = run_match(&engines, &rest);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(games(pgn.0.as_path()).len(), 4);
    let again = run_match(&engines, &rest);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(games(pgn.0.as_path()).len(), 4, "nothing to play");
    // Rounds 1 and 3 swapped: the same players (the first engine White in both), the other
    // opening each, so neither is the schedule's game of its round any more.
    let text = std::fs::read_to_string(pgn.path()).unwrap();
    assert!(text.contains("[Round \"1\"]") && text.contains("[Round \"3\"]"));
    let swapped = text
        .replace("[Round \"1\"]", "[Round \"x\"]")
        .replace("[Round \"3\"]", "[Round \"1\"]")
        .replace("[Round \"x\"]", "[Round \"3\"]");
    std::fs::write(pgn.path(), swapped).unwrap();
    let replayed = run_match(&engines, &rest);
    assert_eq!(replayed.code, 0, "{}", replayed.stderr);
    assert_eq!(games(pgn.0.as_path()).len(), 6, "{}", replayed.stderr);
}
