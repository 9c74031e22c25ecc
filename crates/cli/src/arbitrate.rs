//! `caissa arbitrate FILE`: replays a game's event log under the FIDE Laws and prints the
//! verdict as one JSON object.
//!
//! The log is JSON lines (the schema is in [`SCHEMA`], printed by `caissa arbitrate --help`,
//! and in `docs/RULES.md`). A line that is not valid JSON, names no known event or has a bad
//! field, or an event that cannot stand where it is (a second start, time going backwards), is
//! an error naming its line (exit status 2). Moves that are illegal in the position are not
//! errors: the arbiter rules on them (Article 7.5).
//!
//! Output on stdout: `result`, `termination`, `article`, `ended_at_ms`, `penalties`,
//! `decisions`, `notes`, `illegal_moves`, `clock_ms` and `pgn` (see `caissa_arbiter::json`).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::time::SystemTime;

use caissa_arbiter::Verdict;
use caissa_arbiter::json::{
    EventLines, JsonLineError, LineErrorKind, arbitrate_reader, detect_presses, verdict_to_json,
};
use clap::Args;

use crate::error::CliError;

/// The event log schema, for `--help`.
pub(crate) const SCHEMA: &str = "\
EVENT LOG: one JSON object per line (blank lines are skipped; at most 65536 bytes a line; a
byte order mark is skipped). The log is replayed as it is read. Each has \"type\" and may have
\"t_ms\": the time in milliseconds from any fixed origin, never decreasing (default: the previous
event's). Colours are white/black, squares e4, pieces q/r/b/n, moves SAN (Nf3, exd5, e8=Q, O-O)
or UCI (g1f3, e7e8q). A field the event does not take is an error.

  start          time_control (PGN syntax: 300+2, 40/5400+30:1800+30, 300d5 simple delay,
                 300b5 Bronstein, *60 hourglass; - or absent: no clock), black_time_control
                 (Black's own at time odds; time_control is then White's), trigger
                 (on_move_count, the default, or on_flag: periods added at flag fall), rules (fide-standard,
                 fide-rapid, fide-rapid-unsupervised, fide-blitz, fide-blitz-unsupervised,
                 online, club; then optional key=value changes, e.g. \"club
                 illegal_moves_to_lose=2\"), fen, chess960, presses (with_move | separate;
                 absent: separate if the log has press events), white, black (names).
                 First event; the clock of the side to move starts.
  move           by, move, two_hands (optional). The move made; also the clock press unless
                 presses are separate. An illegal move is ruled on (7.5), not an error.
  press          by. The clock pressed (logs with separate presses).
  touch          by, square. A deliberate touch of the piece there (4.3).
  adjust         by, square. \"J'adoube\" (4.2.1).
  release        by, square, from (optional). A piece let go on square (4.7).
  promote        by, piece, square. The new piece put on the promotion square (4.4.4).
  offer_draw, accept_draw, decline_draw, withdraw_draw
                 by. Draw offers (9.1; an offer cannot be withdrawn).
  claim          by, kind (threefold | fifty | touch_move | flag | illegal_move), move (the
                 written move, threefold and fifty only).
  resign         by (5.1.2).
  flag           by. The arbiter sees that player's flag down (6.8).
  ruling         ruling: add_time (player, ms) | warning (player) | illegal_move (player who
                 made it) | colours_reversed | wrong_setup (misplaced: optional square) |
                 declare (result: 1-0 0-1 1/2-1/2 0-0 *, article: optional).

EXAMPLE
  {\"t_ms\": 0, \"type\": \"start\", \"time_control\": \"180+2\", \"rules\": \"fide-blitz\"}
  {\"t_ms\": 5100, \"type\": \"move\", \"by\": \"white\", \"move\": \"e4\"}
  {\"t_ms\": 6000, \"type\": \"touch\", \"by\": \"black\", \"square\": \"g8\"}
  {\"t_ms\": 9000, \"type\": \"move\", \"by\": \"black\", \"move\": \"Nf6\"}
  {\"t_ms\": 9500, \"type\": \"resign\", \"by\": \"white\"}

OUTPUT: one JSON object: result (1-0, 0-1, 1/2-1/2, 0-0, * while the game goes on or when
cancelled), termination (checkmate, resignation, time_forfeit, illegal_moves, agreement,
threefold_repetition, ..., unterminated), article, ended_at_ms, penalties, decisions (each with
its line, time, player, article and ruling), notes, illegal_moves, clock_ms (white, black) and
pgn (with Result, Termination, TimeControl and [%clk] after every move).

EXIT STATUS: 0 for a verdict, 2 for an unreadable file or a malformed line (named on stderr).";

/// Arguments of `caissa arbitrate`.
#[derive(Debug, Args)]
#[command(after_long_help = SCHEMA)]
pub(crate) struct ArbitrateArgs {
    /// The event log, in JSON lines (`-` for standard input).
    file: PathBuf,
}

/// The verdict as pretty-printed JSON with a final newline: what `caissa arbitrate` prints.
fn verdict_json(verdict: &Verdict, lines: &EventLines) -> String {
    let json = verdict_to_json(verdict, Some(lines));
    let mut text = serde_json::to_string_pretty(&json).unwrap_or_else(|_| json.to_string());
    text.push('\n');
    text
}

/// The verdict for a log's text, as `caissa arbitrate` prints it. Never panics.
///
/// # Errors
///
/// [`JsonLineError`] naming the first line that cannot be read or applied.
#[cfg(test)]
pub(crate) fn verdict_text(log: &str) -> Result<String, JsonLineError> {
    let (verdict, lines) = caissa_arbiter::json::arbitrate(log)?;
    Ok(verdict_json(&verdict, &lines))
}

/// A copy of standard input in the temporary directory, removed when dropped: a pipe can be
/// read only once, and a log whose start event does not say how presses come is read twice.
struct Spool {
    path: PathBuf,
}

impl Spool {
    fn create() -> io::Result<(Spool, File)> {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "caissa-arbitrate-{}-{nanos}.jsonl",
            std::process::id()
        ));
        let file = File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        Ok((Spool { path }, file))
    }
}

impl Drop for Spool {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A reader that writes what it reads to `copy`.
struct Tee<R, W> {
    inner: R,
    copy: W,
}

impl<R: Read, W: Write> Read for Tee<R, W> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.copy.write_all(&buf[..n])?;
        Ok(n)
    }
}

/// Runs `caissa arbitrate`: the log is read line by line as it is replayed (a file twice when
/// its start event does not say how presses come; standard input once, into a temporary copy
/// that is then replayed).
///
/// # Errors
///
/// [`CliError::Read`] for an unreadable file, [`CliError::Log`] for a malformed line,
/// [`CliError::Write`] for a failing stdout.
pub(crate) fn run(args: &ArbitrateArgs) -> Result<(), CliError> {
    let read_error = |source| CliError::Read {
        path: args.file.clone(),
        source,
    };
    let log_error = |error| CliError::Log {
        file: args.file.display().to_string(),
        error,
    };
    let reopen_error = |e: io::Error| JsonLineError {
        line: 1,
        kind: LineErrorKind::Io(e.kind()),
    };
    let (verdict, lines) = if args.file.as_os_str() == "-" {
        let (_spool, mut file) = Spool::create().map_err(read_error)?;
        let mut tee = BufReader::new(Tee {
            inner: io::stdin().lock(),
            copy: BufWriter::new(&mut file),
        });
        let presses = detect_presses(&mut tee).map_err(log_error)?;
        tee.into_inner().copy.flush().map_err(read_error)?;
        file.seek(SeekFrom::Start(0)).map_err(read_error)?;
        arbitrate_reader(BufReader::new(file), || Ok(presses))
    } else {
        let open = || File::open(&args.file).map(BufReader::new);
        let file = open().map_err(read_error)?;
        arbitrate_reader(file, || detect_presses(open().map_err(reopen_error)?))
    }
    .map_err(log_error)?;
    crate::print(&verdict_json(&verdict, &lines))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(log: &str) -> serde_json::Value {
        serde_json::from_str(&verdict_text(log).unwrap_or_else(|e| panic!("{e}"))).expect("JSON")
    }

    #[test]
    fn the_example_of_the_help_text() {
        let log: String = SCHEMA
            .lines()
            .skip_while(|line| !line.starts_with("EXAMPLE"))
            .skip(1)
            .take_while(|line| line.starts_with("  {"))
            .map(|line| format!("{}\n", line.trim()))
            .collect();
        let v = json(&log);
        assert_eq!(v["result"], "0-1");
        assert_eq!(v["termination"], "resignation");
        assert_eq!(v["article"], "5.1.2");
        // White's clock ran from Black's press to the resignation.
        assert_eq!(v["clock_ms"]["white"], 176_400);
        assert_eq!(v["clock_ms"]["black"], 178_100);
        assert_eq!(v["decisions"][0]["line"], 5);
        let pgn = v["pgn"].as_str().expect("pgn");
        assert!(pgn.contains("[TimeControl \"180+2\"]"), "{pgn}");
        assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
        assert!(pgn.contains("1. e4 { [%clk 0:02:56.9] } 1... Nf6 { [%clk 0:02:58.1] } 0-1"));
    }

    #[test]
    fn illegal_moves_are_rulings_and_malformed_lines_are_errors() {
        let start =
            r#"{"t_ms": 0, "type": "start", "time_control": "300", "rules": "fide-standard"}"#;
        let v = json(&format!(
            "{start}\n{{\"t_ms\": 1000, \"type\": \"move\", \"by\": \"white\", \"move\": \"e5\"}}\n"
        ));
        assert_eq!(v["illegal_moves"]["white"], 1);
        assert_eq!(v["penalties"][0]["to"], "black");
        assert_eq!(v["penalties"][0]["ms"], 120_000);
        assert_eq!(v["penalties"][0]["article"], "7.5.5");
        assert_eq!(v["result"], "*");
        assert_eq!(v["termination"], "unterminated");
        assert_eq!(v["article"], serde_json::Value::Null);
        for (log, line) in [
            (format!("{start}\nnot json\n"), 2),
            (format!("{start}\n\n{{\"type\": \"castle\"}}\n"), 3),
            (
                "{\"type\": \"move\", \"by\": \"white\", \"move\": \"e4\"}".to_owned(),
                1,
            ),
        ] {
            let e = verdict_text(&log).expect_err(&log);
            assert_eq!(e.line, line, "{log}: {e}");
        }
    }
}
