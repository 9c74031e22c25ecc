//! Project automation for caissa, run as `cargo xtask <command>` (the alias lives in
//! `.cargo/config.toml`). Std only, no dependencies: it builds in a second on a fresh clone.
//!
//! Every command runs cargo through the `CARGO` environment variable (falling back to `cargo`),
//! from the workspace root, whatever the current directory.
//!
//! # Commands
//!
//! - `cargo xtask ci` ([`ci`]): the whole CI, in this order, stopping at the first failure with a
//!   message naming the failed step: `cargo fmt --all -- --check`; the layering check of
//!   [`layering`] (in Rust, no build needed); `cargo clippy --workspace --all-targets --locked --
//!   -D warnings`; `cargo test --workspace --locked` with `CI=true` and `INSTA_UPDATE=no` so that a
//!   changed insta snapshot fails; `cargo doc --workspace --no-deps` with `RUSTDOCFLAGS=-D
//!   warnings`. Before the tests, the `tools` step installs what they need from outside the Rust
//!   toolchain ([`tools`]). `--locked` is dropped when there is no `Cargo.lock`. It prints the time
//!   each step took at the end. `.ci/run` calls exactly this on a fresh clone.
//! - `cargo xtask setup` ([`tools`]): only the `tools` step of `ci`: installs stockfish, GNU
//!   Chess and pgn-extract when missing and, when the Python crate exists, the Python venv;
//!   prints the environment the tests get (`export PATH=…`, `export CAISSA_PYTHON=…`) on stdout.
//! - `cargo xtask perft [--depth N] [--suite FILE]...` ([`perft`]): runs the perft suites of
//!   `data/perft/` (all of them by default) through the release CLI, `cargo run --release -p
//!   caissa-cli -- perft --suite FILE [--depth N] [--chess960]`, to their full depth or at most
//!   `N`. Suites whose file name contains `960` are Chess960. Prints a summary line per suite with
//!   its wall time, and fails if any suite does.
//! - `cargo xtask bench [--native] [ARGS...]` ([`bench`](mod@bench)): `cargo bench -p
//!   caissa-benches -- ARGS`. Builds are portable unless `--native` is given, which sets
//!   `RUSTFLAGS=-C target-cpu=native` and builds in `target/native` so that the portable build
//!   is kept.
//! - `cargo xtask fuzz [--seconds N] [TARGET...]` ([`fuzz`]): installs cargo-fuzz if it is
//!   missing, then runs each target of `fuzz/` (all of them by default) for `N` seconds (60 by
//!   default) with `RUSTC_BOOTSTRAP=1`, which lets cargo-fuzz use its nightly flags on stable.
//! - `cargo xtask dead [ARGS...]` ([`dead`]): the dead-position suites (`tests/it/dead_*` of
//!   caissa-testsuite) on all their inputs, which `cargo test` only samples: `cargo test --locked
//!   -p caissa-testsuite -- dead_ ARGS` with `CAISSA_DEAD_FULL=1`.
//! - `cargo xtask match [--games N] [ARGS...]` ([`engine_match`]): the long Stockfish match
//!   (1+0.01, concurrency 2, 1,000 games by default) through the release CLI, not part of `ci`.
//! - `cargo xtask pgn-bench [--megabytes N] [--runs N] [--big]` ([`pgn_bench`]): `caissa pgn`
//!   beside pgn-extract on the same jobs (validate, filter by Elo, strip, export UCI, dedupe,
//!   ECO-classify, rewrite) and the same file of `N` MB, printing the time ratios; with
//!   `--big`, the gigabyte bounded-memory test instead.
//! - `cargo xtask help`, or no command: the usage text.

#![forbid(unsafe_code)]

mod bench;
mod ci;
mod dead;
mod engine_match;
mod fuzz;
mod layering;
mod perft;
mod pgn_bench;
mod tools;

use std::env;
use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

/// The usage text, printed by `cargo xtask help`.
const USAGE: &str = "\
Project automation for caissa (std only). Usage: cargo xtask <COMMAND> [OPTIONS]

Commands:
  ci        The whole CI, stopping at the first failing step:
              fmt       cargo fmt --all -- --check
              layering  crates depend only on lower layers, internal crates as
                        `caissa-x.workspace = true`; no peer chess crate outside
                        dev-dependencies of library crates (read line by line, no build)
              tools     what the tests need from outside, installed when missing (as `setup`)
              clippy    cargo clippy --workspace --all-targets --locked -- -D warnings
              test      cargo test --workspace --locked  (CI=true INSTA_UPDATE=no, PATH with
                        /usr/games, CAISSA_PYTHON when there is a Python crate; the dead-position
                        suites on their sample, see `dead`)
              doc       cargo doc --workspace --no-deps  (RUSTDOCFLAGS=\"-D warnings\")
            then prints the time each step took.

  setup     Installs what the tests need when it is missing, saying so: stockfish, gnuchess
            and pgn-extract (`apt-get update && apt-get install -y PACKAGE...` for those neither
            on PATH nor in /usr/games), and when crates/python exists a Python venv in
            <target dir>/venv with maturin, pytest, chess, pyarrow, duckdb, polars, dask. Prints
            the tests' environment as `export NAME='VALUE'` lines on stdout.

  perft [--depth N] [--suite FILE]...
            Runs perft suites (default: every data/perft/*.epd) through the release CLI,
            `cargo run --release -p caissa-cli -- perft --suite FILE [--depth N] [--chess960]`,
            to their full depth, or to at most depth N. Files whose name contains `960` are
            Chess960. FILE is a path, or a file name inside data/perft/. Prints a summary per
            suite with its wall time; fails if any suite fails.

  bench [--native] [ARGS...] [-- ARGS...]
            Runs `cargo bench -p caissa-benches -- ARGS` (ARGS go to criterion, e.g. a filter or
            `--save-baseline main`; everything after a literal `--` is passed as is).
            Builds are portable by default. Native builds are opt-in: `--native` sets
            RUSTFLAGS=\"-C target-cpu=native\" and builds in target/native, so the portable build
            in target/ is kept.

  fuzz [--seconds N] [TARGET...]
            Installs cargo-fuzz if missing (`cargo install cargo-fuzz --locked`), then runs
            `cargo fuzz run TARGET -- -max_total_time=N` in fuzz/ for each TARGET (default: all
            of `cargo fuzz list`), N seconds each (default 60), with RUSTC_BOOTSTRAP=1.

  dead [ARGS...]
            The dead-position suites in full: `cargo test --locked -p caissa-testsuite -- dead_
            ARGS` with CAISSA_DEAD_FULL=1 (`cargo test` runs them on every eighth
            position of data/dead and an eighth of the soundness hunts).

  match [--games N] [ARGS...]
            The long engine match (not in ci): Stockfish against itself at 1+0.01, Threads=1,
            Hash=16, concurrency 2, N games (default 1000), through the release CLI's `caissa
            match` (ARGS passed on); PGN in <target dir>/match/stockfish.pgn (resumable).
  pgn-bench [--megabytes N] [--runs N] [--big]
            `caissa pgn` beside pgn-extract (not in ci): the release CLI on every core and
            pgn-extract on the same jobs (validate, filter by Elo, strip to moves, export UCI,
            dedupe, ECO-classify, rewrite) over an input of N MB (default 50) made from
            data/pgn and pgn-reader's bench files in <target dir>/pgn-bench; the best of R
            runs (default 2), alternating the tools; prints times, ratios and games written.
            --big runs the ignored test pgn_big of caissa-cli on release instead: a gigabyte
            (or N MB) of zstd PGN streamed through `caissa pgn select`, peak memory checked.
  help      This text.
";

/// Why a command failed.
#[derive(Debug)]
struct Error {
    message: String,
    /// The command line was wrong: exit with status 2 and point at `cargo xtask help`.
    usage: bool,
}

impl Error {
    /// A failure of the work itself.
    fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            usage: false,
        }
    }

    /// A wrong command line.
    fn usage(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            usage: true,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

type Result<T = ()> = std::result::Result<T, Error>;

fn main() -> ExitCode {
    let args = match env::args_os()
        .skip(1)
        .map(OsString::into_string)
        .collect::<std::result::Result<Vec<_>, _>>()
    {
        Ok(args) => args,
        Err(arg) => {
            eprintln!("error: argument {arg:?} is not valid UTF-8");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.usage => {
            eprintln!("error: {e}\n(see `cargo xtask help`)");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Dispatches on the subcommand.
fn run(args: &[String]) -> Result {
    let Some((command, rest)) = args.split_first() else {
        print!("{USAGE}");
        return Ok(());
    };
    let workspace = Workspace::locate();
    match command.as_str() {
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        _ if rest.iter().any(|a| a == "--help" || a == "-h") && command != "bench" => {
            print!("{USAGE}");
            Ok(())
        }
        "ci" => {
            if let Some(arg) = rest.first() {
                return Err(Error::usage(format!(
                    "`ci` takes no arguments, got `{arg}`"
                )));
            }
            ci::run(&workspace)
        }
        "setup" => {
            if let Some(arg) = rest.first() {
                return Err(Error::usage(format!(
                    "`setup` takes no arguments, got `{arg}`"
                )));
            }
            for (name, value) in tools::prepare(&workspace)? {
                let value = value.to_string_lossy().replace('\'', "'\\''");
                println!("export {name}='{value}'");
            }
            Ok(())
        }
        "perft" => perft::run(&workspace, rest),
        "bench" => bench::run(&workspace, rest),
        "fuzz" => fuzz::run(&workspace, rest),
        "dead" => dead::run(&workspace, rest),
        "match" => engine_match::run(&workspace, rest),
        "pgn-bench" => pgn_bench::run(&workspace, rest),
        other => Err(Error::usage(format!("unknown command `{other}`"))),
    }
}

/// Where the workspace is and how to call cargo.
#[derive(Debug)]
struct Workspace {
    /// The workspace root: the parent of this package's folder.
    root: PathBuf,
    /// The cargo to call: `$CARGO`, or `cargo`.
    cargo: OsString,
}

impl Workspace {
    fn locate() -> Self {
        let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = manifest_dir.parent().unwrap_or(manifest_dir).to_path_buf();
        let cargo = env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
        Self { root, cargo }
    }

    /// cargo's target directory: `$CARGO_TARGET_DIR` (relative to the workspace root), or
    /// `target/` in the root.
    fn target_dir(&self) -> PathBuf {
        env::var_os("CARGO_TARGET_DIR").map_or_else(
            || self.root.join("target"),
            |dir| self.root.join(PathBuf::from(dir)),
        )
    }

    /// `cargo ARGS...`, to be run from the workspace root.
    fn cargo<I, S>(&self, args: I) -> Command
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut command = Command::new(&self.cargo);
        command.args(args).current_dir(&self.root);
        command
    }
}

/// A command as one would type it (`CI=true cargo test --workspace`), for messages.
fn describe(command: &Command) -> String {
    let mut parts: Vec<String> = command
        .get_envs()
        .filter_map(|(key, value)| value.map(|v| format!("{}={}", key.to_string_lossy(), quote(v))))
        .collect();
    let program = Path::new(command.get_program());
    parts.push(
        program
            .file_name()
            .unwrap_or(program.as_os_str())
            .to_string_lossy()
            .into_owned(),
    );
    parts.extend(command.get_args().map(quote));
    parts.join(" ")
}

/// Quotes an argument for [`describe`] when it holds a space or is empty.
fn quote(arg: &OsStr) -> String {
    let arg = arg.to_string_lossy();
    if arg.is_empty() || arg.contains(char::is_whitespace) {
        format!("\"{arg}\"")
    } else {
        arg.into_owned()
    }
}

/// Prints the command, runs it with inherited standard streams, and fails unless it succeeds.
fn run_command(command: &mut Command) -> Result {
    let shown = describe(command);
    eprintln!("$ {shown}");
    let status = command
        .status()
        .map_err(|e| Error::new(format!("could not start `{shown}`: {e}")))?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::new(format!("`{shown}` failed ({status})")))
    }
}

/// A duration for humans: `12.3s`, `4m 05.2s`.
fn format_duration(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 60.0 {
        format!("{seconds:.1}s")
    } else {
        let minutes = (seconds / 60.0).floor();
        format!("{minutes:.0}m {:04.1}s", seconds - minutes * 60.0)
    }
}

/// Parses the value of a numeric option (`--depth 5`), which must be at least 1.
fn parse_positive(option: &str, value: Option<&String>) -> Result<u32> {
    let value = value.ok_or_else(|| Error::usage(format!("`{option}` needs a value")))?;
    match value.parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(Error::usage(format!(
            "`{option}` takes a whole number of at least 1, got `{value}`"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(format_duration(Duration::from_millis(12_340)), "12.3s");
        assert_eq!(format_duration(Duration::from_millis(245_200)), "4m 05.2s");
    }

    #[test]
    fn numeric_options_are_checked() {
        assert_eq!(parse_positive("--depth", Some(&"5".into())).ok(), Some(5));
        for bad in ["0", "-1", "five", ""] {
            let e = parse_positive("--depth", Some(&bad.into())).unwrap_err();
            assert!(e.usage && e.message.contains("--depth"), "{bad}: {e}");
        }
        assert!(parse_positive("--depth", None).is_err());
    }

    #[test]
    fn commands_are_described_as_typed() {
        let mut command = Command::new("/usr/bin/cargo");
        command.env("CI", "true").args(["test", "a b"]);
        assert_eq!(describe(&command), "CI=true cargo test \"a b\"");
    }
}
