//! `cargo xtask fuzz [--seconds N] [TARGET...]`: time-boxed fuzzing of the `fuzz/` targets.
//!
//! Installs cargo-fuzz when `cargo fuzz` is missing (`cargo install cargo-fuzz --locked`), asks
//! `cargo fuzz list` (in `fuzz/`) for the targets, then runs each TARGET given (all of them by
//! default) with `cargo fuzz run TARGET fuzz/target/corpus/TARGET corpus/TARGET --
//! -max_total_time=N` (new inputs go to the scratch corpus, never into the committed seeds), `N`
//! being 60 seconds unless
//! `--seconds` says otherwise. Every cargo-fuzz call gets `RUSTC_BOOTSTRAP=1`: cargo-fuzz needs
//! nightly flags (`-Z sanitizer=…`), which this lets the stable toolchain accept.
//!
//! All targets run even if one fails; a summary comes at the end, and the command fails if any
//! target found a crash (cargo-fuzz then says where it saved the input, under
//! `fuzz/artifacts/`).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{Error, Result, Workspace, describe, format_duration, parse_positive, run_command};

/// Seconds per target unless `--seconds` is given.
const DEFAULT_SECONDS: u32 = 60;

/// libFuzzer options a target needs besides the time limit.
///
/// `pgn_chunks` runs the parallel PGN reader, whose worker threads free their standard-library
/// handle (80 bytes) as they exit, which can be just after the join has returned; the leak
/// check libFuzzer makes after each input then reports the handle as leaked, a false positive
/// of leak checks while threads are still ending (google/sanitizers#757). The reader's memory
/// is bounded by design and tested without the fuzzer.
const TARGET_FLAGS: &[(&str, &[&str])] = &[("pgn_chunks", &["-detect_leaks=0"])];

/// The libFuzzer options of `target`.
fn target_flags(target: &str) -> &'static [&'static str] {
    TARGET_FLAGS
        .iter()
        .find(|(name, _)| *name == target)
        .map_or(&[], |(_, flags)| flags)
}

/// What `fuzz` was asked to do.
#[derive(Debug, PartialEq, Eq)]
struct Options {
    seconds: u32,
    targets: Vec<String>,
}

fn parse_options(args: &[String]) -> Result<Options> {
    let mut options = Options {
        seconds: DEFAULT_SECONDS,
        targets: Vec::new(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => options.seconds = parse_positive("--seconds", args.next())?,
            option if option.starts_with('-') => {
                return Err(Error::usage(format!("unknown option `{option}` to `fuzz`")));
            }
            target => options.targets.push(target.to_owned()),
        }
    }
    Ok(options)
}

/// Installs cargo-fuzz if needed and runs the targets.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result {
    let options = parse_options(args)?;
    let fuzz_dir = workspace.root.join("fuzz");
    if !fuzz_dir.join("Cargo.toml").is_file() {
        return Err(Error::new(format!(
            "{} has no Cargo.toml: no fuzz targets yet",
            fuzz_dir.display()
        )));
    }
    let cargo_fuzz = |args: &[&str]| {
        let mut command = workspace.cargo(["fuzz"]);
        command
            .args(args)
            .current_dir(&fuzz_dir)
            .env("RUSTC_BOOTSTRAP", "1");
        command
    };

    let installed = cargo_fuzz(&["--version"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !installed {
        eprintln!("cargo-fuzz is missing: installing it");
        run_command(&mut workspace.cargo(["install", "cargo-fuzz", "--locked"]))?;
    }

    let available = list_targets(&mut cargo_fuzz(&["list"]))?;
    let targets = if options.targets.is_empty() {
        available
    } else {
        if let Some(unknown) = options.targets.iter().find(|t| !available.contains(t)) {
            return Err(Error::usage(format!(
                "no fuzz target `{unknown}`; there are: {}",
                available.join(", ")
            )));
        }
        options.targets
    };

    let max_time = format!("-max_total_time={}", options.seconds);
    let mut outcomes: Vec<(String, Duration, bool)> = Vec::new();
    for target in targets {
        let start = Instant::now();
        // New inputs go to a scratch corpus under fuzz/target/, read after the committed seeds,
        // so fuzzing never adds files to fuzz/corpus/ (add a worthwhile input there by hand).
        let scratch = format!("target/corpus/{target}");
        let seeds = format!("corpus/{target}");
        std::fs::create_dir_all(fuzz_dir.join(&scratch))
            .map_err(|e| Error::new(format!("creating fuzz/{scratch}: {e}")))?;
        let mut args = vec!["run", &target, &scratch, &seeds, "--", &max_time];
        args.extend_from_slice(target_flags(&target));
        let outcome = run_command(&mut cargo_fuzz(&args));
        if let Err(e) = &outcome {
            eprintln!("error: {e}");
        }
        outcomes.push((target, start.elapsed(), outcome.is_ok()));
    }

    eprintln!("\nfuzz summary ({} s per target):", options.seconds);
    for (target, time, ok) in &outcomes {
        let verdict = if *ok { "ok    " } else { "FAILED" };
        eprintln!("  {verdict} {target:<28} {:>9}", format_duration(*time));
    }
    let failed = outcomes.iter().filter(|(_, _, ok)| !ok).count();
    if failed > 0 {
        return Err(Error::new(format!(
            "{failed} of {} fuzz targets failed (inputs are saved under fuzz/artifacts/)",
            outcomes.len()
        )));
    }
    Ok(())
}

/// The targets `cargo fuzz list` prints, one a line.
fn list_targets(command: &mut Command) -> Result<Vec<String>> {
    let shown = describe(command);
    eprintln!("$ {shown}");
    let output = command
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| Error::new(format!("could not start `{shown}`: {e}")))?;
    if !output.status.success() {
        return Err(Error::new(format!("`{shown}` failed ({})", output.status)));
    }
    let targets: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned)
        .collect();
    if targets.is_empty() {
        return Err(Error::new(format!("`{shown}` lists no targets")));
    }
    Ok(targets)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(args: &[&str]) -> Vec<String> {
        args.iter().map(|&a| a.to_owned()).collect()
    }

    #[test]
    fn only_pgn_chunks_runs_without_the_leak_check() {
        assert_eq!(target_flags("pgn_chunks"), ["-detect_leaks=0"]);
        assert!(target_flags("pgn").is_empty());
    }

    #[test]
    fn options_are_parsed() {
        assert_eq!(
            parse_options(&args(&[])).ok(),
            Some(Options {
                seconds: 60,
                targets: Vec::new()
            })
        );
        assert_eq!(
            parse_options(&args(&["fen", "--seconds", "5", "san"])).ok(),
            Some(Options {
                seconds: 5,
                targets: args(&["fen", "san"]),
            })
        );
        for bad in [&["--seconds"][..], &["--seconds", "0"], &["--time", "5"]] {
            assert!(parse_options(&args(bad)).is_err_and(|e| e.usage), "{bad:?}");
        }
    }
}
