//! `cargo xtask match [--games N] [ARGS...]`: the long Stockfish match of issue 16, outside
//! `ci` (it takes hours): Stockfish against itself at 1 s + 10 ms, Threads=1, Hash=16,
//! concurrency 2, through the release CLI, `cargo run --release --locked -p caissa-cli --
//! match ...` (1,000 games by default; ARGS are passed on, e.g. `--margin 5`). The games go to
//! `<target dir>/match/stockfish.pgn`, so an interrupted run resumes; stderr ends with the
//! runner's overhead per move and its CPU use, the figures to quote besides the forfeits
//! (`grep -c 'time forfeit' <target dir>/match/stockfish.pgn`).

use crate::tools::{ensure_programs, test_path};
use crate::{Error, Result, Workspace, run_command};

/// Plays the match.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result {
    let mut games = "1000".to_owned();
    let mut rest = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if arg == "--games" {
            games = args
                .next()
                .filter(|n| n.parse::<u64>().is_ok_and(|n| n > 0))
                .ok_or_else(|| Error::usage("--games needs a positive number"))?
                .clone();
        } else {
            rest.push(arg.clone());
        }
    }
    ensure_programs()?;
    let dir = workspace.target_dir().join("match");
    std::fs::create_dir_all(&dir)
        .map_err(|e| Error::new(format!("cannot create {}: {e}", dir.display())))?;
    let pgn = dir.join("stockfish.pgn");
    let mut command = workspace.cargo(["run", "--release", "-p", "caissa-cli"]);
    if workspace.root.join("Cargo.lock").is_file() {
        command.arg("--locked");
    }
    command
        .args([
            "--",
            "match",
            "--engine",
            "cmd=stockfish",
            "name=sf1",
            "--engine",
        ])
        .args([
            "cmd=stockfish",
            "name=sf2",
            "--each",
            "option.Threads=1",
            "option.Hash=16",
        ])
        .args([
            "--tc",
            "1+0.01",
            "--concurrency",
            "2",
            "--games",
            &games,
            "--pgn",
        ])
        .arg(&pgn)
        .args(rest)
        .env("PATH", test_path()?);
    run_command(&mut command)
}
