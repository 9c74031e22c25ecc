//! `cargo xtask ci`: the whole CI, one step after the other, stopping at the first failure.
//!
//! The steps, cheapest first so that a failure shows up early:
//!
//! 1. `fmt`: `cargo fmt --all -- --check`.
//! 2. `layering`: the dependency rules of [`crate::layering`], checked by reading the manifests.
//! 3. `tools`: what the tests need from outside the Rust toolchain, installed when missing
//!    ([`crate::tools::prepare`]: stockfish, gnuchess, pgn-extract, the Python venv).
//! 4. `clippy`: `cargo clippy --workspace --all-targets --locked -- -D warnings`.
//! 5. `no_std`: `cargo build -p caissa-board -p caissa-movegen --no-default-features --locked`;
//!    both crates are `#![no_std]` without their default features, and this keeps them so.
//! 6. `test`: `cargo test --workspace --locked` with `CI=true` and `INSTA_UPDATE=no`, so that insta
//!    fails on a changed snapshot instead of writing a `.snap.new` file, and the environment of
//!    the `tools` step (`PATH` with `/usr/games`, `CAISSA_PYTHON`). The dead-position suites run
//!    on their sample there; `cargo xtask dead` ([`crate::dead`]) runs them in full.
//! 7. `doc`: `cargo doc --workspace --no-deps` with `RUSTDOCFLAGS="-D warnings"` (broken intra-doc
//!    links and the like fail).
//!
//! `--locked` is only passed when `Cargo.lock` exists. The time of each step is printed at the
//! end, also when a step failed.

use std::env;
use std::time::{Duration, Instant};

use crate::{Error, Result, Workspace, format_duration, layering, run_command, tools};

/// Runs every step; the error names the step that failed.
pub(crate) fn run(workspace: &Workspace) -> Result {
    let locked = workspace.root.join("Cargo.lock").is_file();
    let lock_flag: &[&str] = if locked { &["--locked"] } else { &[] };
    if !locked {
        eprintln!("note: no Cargo.lock, so clippy and test run without --locked");
    }
    let mut ci = Ci::default();

    ci.step("fmt", || {
        run_command(&mut workspace.cargo(["fmt", "--all", "--", "--check"]))
            .map_err(|e| Error::new(format!("{e}; `cargo fmt --all` fixes the files shown")))
    })?;
    ci.step("layering", || {
        let report = layering::check_workspace(&workspace.root)?;
        eprintln!("{report}");
        Ok(())
    })?;
    let mut test_env = Vec::new();
    ci.step("tools", || {
        test_env = tools::prepare(workspace)?;
        Ok(())
    })?;
    ci.step("clippy", || {
        let mut command = workspace.cargo(["clippy", "--workspace", "--all-targets"]);
        command.args(lock_flag).args(["--", "-D", "warnings"]);
        run_command(&mut command)
    })?;
    ci.step("no_std", || {
        let mut command = workspace.cargo(["build", "-p", "caissa-board", "-p", "caissa-movegen"]);
        command.arg("--no-default-features").args(lock_flag);
        run_command(&mut command)
    })?;
    ci.step("test", || {
        let mut command = workspace.cargo(["test", "--workspace"]);
        command
            .args(lock_flag)
            .env("CI", "true")
            .env("INSTA_UPDATE", "no")
            .envs(test_env.iter().map(|(name, value)| (name, value)));
        run_command(&mut command)
    })?;
    ci.step("doc", || {
        let mut command = workspace.cargo(["doc", "--workspace", "--no-deps"]);
        command.env("RUSTDOCFLAGS", with_flags("RUSTDOCFLAGS", "-D warnings"));
        run_command(&mut command)
    })?;

    ci.print_timings();
    eprintln!("CI passed");
    Ok(())
}

/// `flags` added to what the environment variable `name` already holds.
pub(crate) fn with_flags(name: &str, flags: &str) -> String {
    match env::var(name) {
        Ok(old) if !old.trim().is_empty() => format!("{} {flags}", old.trim()),
        _ => flags.to_owned(),
    }
}

/// The steps run so far and how long each took.
#[derive(Debug, Default)]
struct Ci {
    timings: Vec<(&'static str, Duration, bool)>,
}

impl Ci {
    /// Runs one step and records its time; on failure prints the timings and names the step.
    fn step(&mut self, name: &'static str, step: impl FnOnce() -> Result) -> Result {
        eprintln!("\n==> ci step `{name}`");
        let start = Instant::now();
        let outcome = step();
        self.timings.push((name, start.elapsed(), outcome.is_ok()));
        outcome.map_err(|e| {
            self.print_timings();
            Error::new(format!("CI failed at step `{name}`: {e}"))
        })
    }

    fn print_timings(&self) {
        eprintln!("\nci timings:");
        let mut total = Duration::ZERO;
        for &(name, duration, ok) in &self.timings {
            total += duration;
            let verdict = if ok { "ok" } else { "FAILED" };
            eprintln!("  {name:<10} {:>10}  {verdict}", format_duration(duration));
        }
        eprintln!("  {:<10} {:>10}", "total", format_duration(total));
    }
}
