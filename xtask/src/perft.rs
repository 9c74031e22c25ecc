//! `cargo xtask perft [--depth N] [--suite FILE]...`: deep perft runs, too slow for `cargo test`.
//!
//! Builds the CLI in release mode, then runs each suite with
//! `cargo run --release -p caissa-cli -- perft --suite FILE [--depth N] [--chess960]`. Without
//! `--suite`, every `data/perft/*.epd` is run; a suite whose file name contains `960` (such as
//! `chess960-starts-d5.epd`) gets `--chess960`. Without `--depth`, the CLI checks every depth the
//! suite lists; with it, the depths up to `N`.
//!
//! The CLI prints `FAIL <line> …` per wrong count (passed through here) and ends with
//! `positions <P> checked <C> failed <F> unreadable <U>`, exiting with 1 when `F` or `U` is
//! not 0. A suite passes when the CLI succeeds and reports no failure and no unreadable line. A summary line per suite, with its wall time, comes at
//! the end; the command fails if any suite did.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::{Error, Result, Workspace, describe, format_duration, parse_positive, run_command};

/// What `perft` was asked to do.
#[derive(Debug, PartialEq, Eq)]
struct Options {
    depth: Option<u32>,
    suites: Vec<String>,
}

fn parse_options(args: &[String]) -> Result<Options> {
    let mut options = Options {
        depth: None,
        suites: Vec::new(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--depth" => options.depth = Some(parse_positive("--depth", args.next())?),
            "--suite" => options.suites.push(
                args.next()
                    .ok_or_else(|| Error::usage("`--suite` needs a file"))?
                    .clone(),
            ),
            other => {
                return Err(Error::usage(format!(
                    "unexpected argument `{other}` to `perft`"
                )));
            }
        }
    }
    Ok(options)
}

/// Runs the suites asked for; fails if any of them fails.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result {
    let options = parse_options(args)?;
    let suites = if options.suites.is_empty() {
        default_suites(&workspace.root)?
    } else {
        options
            .suites
            .iter()
            .map(|suite| resolve_suite(&workspace.root, suite))
            .collect::<Result<_>>()?
    };

    // Build first, so that the build does not count in the first suite's time.
    run_command(&mut workspace.cargo(["build", "--release", "-p", "caissa-cli"]))?;

    let mut outcomes = Vec::new();
    for suite in &suites {
        outcomes.push(run_suite(workspace, suite, options.depth)?);
    }

    eprintln!("\nperft summary:");
    for outcome in &outcomes {
        eprintln!("  {outcome}");
    }
    let failed = outcomes.iter().filter(|o| !o.passed()).count();
    if failed > 0 {
        return Err(Error::new(format!(
            "{failed} of {} perft suites failed",
            outcomes.len()
        )));
    }
    eprintln!("all {} perft suites passed", outcomes.len());
    Ok(())
}

/// Every `*.epd` file of `data/perft/`, by name.
fn default_suites(root: &Path) -> Result<Vec<PathBuf>> {
    let dir = root.join("data/perft");
    let read_error = |e: std::io::Error| Error::new(format!("reading {}: {e}", dir.display()));
    let mut suites = Vec::new();
    for entry in fs::read_dir(&dir).map_err(read_error)? {
        let path = entry.map_err(read_error)?.path();
        if path.extension().is_some_and(|e| e == "epd") {
            suites.push(path);
        }
    }
    if suites.is_empty() {
        return Err(Error::new(format!("no *.epd suite in {}", dir.display())));
    }
    suites.sort();
    Ok(suites)
}

/// A suite given on the command line: a path (from the current directory), or a file name
/// inside `data/perft/`. Made absolute, since cargo runs from the workspace root.
fn resolve_suite(root: &Path, suite: &str) -> Result<PathBuf> {
    let candidates = [PathBuf::from(suite), root.join("data/perft").join(suite)];
    candidates
        .iter()
        .find(|path| path.is_file())
        .map(|path| fs::canonicalize(path).unwrap_or_else(|_| path.clone()))
        .ok_or_else(|| {
            Error::usage(format!(
                "no perft suite `{suite}` (neither a file nor in data/perft/)"
            ))
        })
}

/// Whether a suite holds Chess960 positions, judging by its file name.
fn is_chess960(suite: &Path) -> bool {
    suite
        .file_name()
        .is_some_and(|name| name.to_string_lossy().contains("960"))
}

/// How one suite went.
#[derive(Debug)]
struct Outcome {
    name: String,
    /// The CLI's last line, if it printed one.
    summary: Option<Summary>,
    /// Whether the CLI exited successfully.
    success: bool,
    time: Duration,
}

impl Outcome {
    fn passed(&self) -> bool {
        self.success && self.summary.is_some_and(Summary::clean)
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let verdict = if self.passed() { "ok    " } else { "FAILED" };
        write!(
            f,
            "{verdict} {:<28} {:>9}  ",
            self.name,
            format_duration(self.time)
        )?;
        match self.summary {
            Some(s) => write!(
                f,
                "positions {} checked {} failed {} unreadable {}",
                s.positions, s.checked, s.failed, s.unreadable
            )?,
            None => f.write_str("(no summary line from the CLI)")?,
        }
        if !self.success && self.summary.is_some_and(Summary::clean) {
            f.write_str(" (but the CLI failed)")?;
        }
        Ok(())
    }
}

/// The CLI's last line: `positions <P> checked <C> failed <F> unreadable <U>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Summary {
    positions: u64,
    checked: u64,
    failed: u64,
    unreadable: u64,
}

impl Summary {
    /// No failed check and no unreadable line.
    fn clean(self) -> bool {
        self.failed == 0 && self.unreadable == 0
    }
}

fn parse_summary(line: &str) -> Option<Summary> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words[..] {
        [
            "positions",
            positions,
            "checked",
            checked,
            "failed",
            failed,
            "unreadable",
            unreadable,
        ] => Some(Summary {
            positions: positions.parse().ok()?,
            checked: checked.parse().ok()?,
            failed: failed.parse().ok()?,
            unreadable: unreadable.parse().ok()?,
        }),
        _ => None,
    }
}

/// Runs one suite, passing the CLI's output through and keeping its last line.
fn run_suite(workspace: &Workspace, suite: &Path, depth: Option<u32>) -> Result<Outcome> {
    let mut command = workspace.cargo(["run", "--quiet", "--release", "-p", "caissa-cli", "--"]);
    command.arg("perft").arg("--suite").arg(suite);
    if let Some(depth) = depth {
        command.arg("--depth").arg(depth.to_string());
    }
    if is_chess960(suite) {
        command.arg("--chess960");
    }
    let shown = describe(&command);
    eprintln!("\n$ {shown}");

    let start = Instant::now();
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| Error::new(format!("could not start `{shown}`: {e}")))?;
    let mut last_line = String::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| Error::new(format!("reading from `{shown}`: {e}")))?;
            println!("{line}");
            if !line.trim().is_empty() {
                last_line = line;
            }
        }
    }
    let status = child
        .wait()
        .map_err(|e| Error::new(format!("waiting for `{shown}`: {e}")))?;

    Ok(Outcome {
        name: suite.file_name().map_or_else(
            || suite.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        ),
        summary: parse_summary(&last_line),
        success: status.success(),
        time: start.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(args: &[&str]) -> Vec<String> {
        args.iter().map(|&a| a.to_owned()).collect()
    }

    #[test]
    fn options_are_parsed() {
        assert_eq!(
            parse_options(&args(&[
                "--suite", "a.epd", "--depth", "3", "--suite", "b.epd"
            ]))
            .ok(),
            Some(Options {
                depth: Some(3),
                suites: args(&["a.epd", "b.epd"]),
            })
        );
        for bad in [
            &["--depth"][..],
            &["--depth", "0"],
            &["--suite"],
            &["standard.epd"],
        ] {
            assert!(parse_options(&args(bad)).is_err_and(|e| e.usage), "{bad:?}");
        }
    }

    #[test]
    fn summary_lines_are_read() {
        assert_eq!(
            parse_summary("positions 960 checked 4800 failed 2 unreadable 1"),
            Some(Summary {
                positions: 960,
                checked: 4800,
                failed: 2,
                unreadable: 1,
            })
        );
        assert_eq!(parse_summary("positions 1 checked 2 failed 0"), None);
        assert_eq!(parse_summary("FAIL 3 depth 4 expected 1 got 2"), None);
        assert_eq!(
            parse_summary("positions 1 checked 2 failed 0 unreadable"),
            None
        );
        assert_eq!(parse_summary("positions x checked 2 failed 0"), None);
    }

    #[test]
    fn chess960_suites_are_known_by_name() {
        assert!(is_chess960(Path::new("data/perft/chess960-starts-d5.epd")));
        assert!(is_chess960(Path::new("frc960-deep.epd")));
        assert!(!is_chess960(Path::new("data/perft/random-d5.epd")));
    }

    #[test]
    fn outcomes_pass_only_on_success_without_failures() {
        let outcome = |success, failed: Option<u64>| Outcome {
            name: "s.epd".into(),
            summary: failed.map(|failed| Summary {
                positions: 2,
                checked: 4,
                failed,
                unreadable: 0,
            }),
            success,
            time: Duration::from_secs(1),
        };
        assert!(outcome(true, Some(0)).passed());
        assert!(!outcome(false, Some(1)).passed());
        assert!(!outcome(true, Some(1)).passed());
        assert!(!outcome(true, None).passed());
        let crashed = outcome(false, Some(0));
        assert!(!crashed.passed());
        assert!(
            crashed
                .to_string()
                .ends_with("failed 0 unreadable 0 (but the CLI failed)")
        );
    }
}
