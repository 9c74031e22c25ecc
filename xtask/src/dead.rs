//! `cargo xtask dead [ARGS...]`: the dead-position suites of `caissa-testsuite` in full.
//!
//! `cargo test` (and so `cargo xtask ci`) runs `tests/it/dead_*` on a fixed sample of their
//! inputs: every eighth position of `data/dead/chasolver-positions.txt`, an eighth of the
//! soundness hunts. This runs them on everything, with the exact counts asserted: `cargo test
//! --locked -p caissa-testsuite -- dead_ ARGS` with `CAISSA_DEAD_FULL=1` (the test profile is
//! optimised). ARGS go to the test harness (`--nocapture`, a narrower filter, …).

use crate::{Result, Workspace, run_command};

/// Runs the dead-position suites in full.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result {
    let mut command = workspace.cargo(["test", "-p", "caissa-testsuite"]);
    if workspace.root.join("Cargo.lock").is_file() {
        command.arg("--locked");
    }
    command
        .args(["--", "dead_"])
        .args(args)
        .env("CAISSA_DEAD_FULL", "1");
    run_command(&mut command)
}
