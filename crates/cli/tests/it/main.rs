//! Runs the real `caissa` binary and checks its stdout contracts, stderr messages and exit
//! statuses: one test binary, a module per area, the helpers here.

mod arbitrate;
mod engine_match;
mod errors;
mod moves;
mod perft;
mod pgn_big;
mod pgn_check;
mod pgn_fmt;
mod pgn_select;
mod pgn_split;
mod pgn_stats;
mod random_engine;

use std::path::PathBuf;
use std::process::Command;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// A Chess960 setup (king b1, rooks a1 and e1) where both castlings are legal and the
/// standard spelling of O-O-O, `b1c1`, would be the same text as a plain king move.
const CHESS960: &str = "7k/8/8/8/8/8/8/RK2R3 w EA - 0 1";

/// A game with what only a lenient reader reads (line 3), then a plain one.
const LENIENT: &str = "[Event \"ep\"]\n\n1. e4 d5 2. e5 f5 3. exf6 e.p. $300 Nf6 1/2\n\n\
                      [Event \"plain\"]\n\n1. d4 d5 *\n";

/// The warnings of a lenient reading of [`LENIENT`] in the file `path`.
fn lenient_warnings(path: &str) -> [String; 3] {
    [
        "3:27: warning: 'e.p.' after a move, stepped over",
        "3:32: warning: glyph $300 is above $255, left out",
        "3:41: warning: result '1/2' read as '1/2-1/2'",
    ]
    .map(|warning| format!("{path}:{warning}"))
}

/// What a run of `caissa` printed and returned.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

impl From<std::process::Output> for Run {
    fn from(output: std::process::Output) -> Run {
        Run {
            code: output.status.code().expect("caissa exits normally"),
            stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
        }
    }
}

fn caissa(args: &[&str]) -> Run {
    Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .output()
        .expect("the caissa binary runs")
        .into()
}

/// [`caissa`] with `path` as standard input, as a shell's `< path` gives it.
fn caissa_stdin_file(args: &[&str], path: &std::path::Path) -> Run {
    Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .stdin(std::fs::File::open(path).expect("the input"))
        .output()
        .expect("the caissa binary runs")
        .into()
}

/// [`caissa`] with `input` on standard input, written from another thread so that a command
/// writing while it reads cannot block the test.
fn caissa_stdin(args: &[&str], input: &[u8]) -> Run {
    use std::io::Write;
    use std::process::Stdio;

    let mut child = Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the caissa binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    let input = input.to_vec();
    // The command may stop reading early (a line too long): a broken pipe is expected then.
    let writer = std::thread::spawn(move || drop(stdin.write_all(&input)));
    let output = child.wait_with_output().expect("caissa exits");
    writer.join().expect("the writer thread");
    output.into()
}

/// The counts of a `pgn select` summary line: games, matched, written, errors.
fn summary_counts(summary: &str) -> [u64; 4] {
    let words: Vec<&str> = summary.split_whitespace().collect();
    let count = |name: &str| -> u64 {
        let at = words.iter().position(|w| *w == name);
        at.and_then(|i| words.get(i + 1))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no `{name}` in {summary:?}"))
    };
    ["games", "matched", "written", "errors"].map(count)
}

/// Asserts `lines` are in ascending order of their text.
fn assert_sorted(lines: &[&str]) {
    assert!(lines.is_sorted(), "not sorted: {lines:?}");
}

/// A temporary file that is removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &str) -> TempFile {
        TempFile::new_bytes(name, contents.as_bytes())
    }

    fn new_bytes(name: &str, contents: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("caissa-cli-{}-{name}", std::process::id()));
        std::fs::write(&path, contents).expect("the temp dir is writable");
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}
