//! `caissa random-engine`: the example engine answers the protocol and plays legal moves.

use std::io::Write as _;
use std::process::{Command, Stdio};

fn session(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_caissa"))
        .arg("random-engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("caissa runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("the engine reads");
    let output = child.wait_with_output().expect("the engine exits");
    assert!(output.status.success());
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn answers_and_plays_legal_moves() {
    let out = session(
        &[],
        "uci\nisready\nposition startpos moves e2e4\ngo wtime 1000 btime 1000\n\
         position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo\nposition startpos moves e2e5\nquit\n",
    );
    let expected = "\
id name caissa random
id author the caissa authors
uciok
readyok
info depth 1 score cp 0 nodes 20 pv g7g5
bestmove g7g5
info depth 1 score cp 0 nodes 0
bestmove (none)
info string position refused: move 0 (e2e5) is not legal: illegal UCI move e2e5
";
    assert_eq!(out, expected);
}

#[test]
fn misbehaves_on_request() {
    let moves = "uci\nisready\nposition startpos\ngo\nposition startpos moves e2e4 e7e5\ngo\n";
    let illegal = session(&["--misbehave", "illegal", "--after", "1"], moves);
    assert!(illegal.ends_with("bestmove a1a1\n"), "{illegal}");
    let exit = session(&["--misbehave", "exit", "--after", "1"], moves);
    assert_eq!(exit.matches("bestmove").count(), 1, "{exit}");
    let noready = session(&["--misbehave", "noready"], "uci\nisready\nquit\n");
    assert!(!noready.contains("readyok"), "{noready}");
    let garbage = session(&["--misbehave", "garbage"], moves);
    assert!(garbage.contains("bestmove e9z4"), "{garbage}");
}
