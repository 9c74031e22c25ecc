//! Builds the Python extension into the venv of `CAISSA_PYTHON` (`maturin develop`) and runs
//! the pytest suite of `crates/python/tests` with it.
//!
//! `cargo xtask ci` makes the venv and sets `CAISSA_PYTHON`; without it the test says how to
//! get one and passes, except under `CI`, where a missing interpreter fails. The extension is
//! built in its own target folder (under `CARGO_TARGET_TMPDIR`), since the outer `cargo test`
//! holds the lock of the usual one.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Cargo profile the extension is built with for the tests: optimised, without the fat
/// LTO of `release` (see the workspace manifest).
const PROFILE: &str = "python-test";

fn run(what: &str, command: &mut Command) {
    eprintln!("running {command:?}");
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("{what}: cannot start {command:?}: {e}"));
    assert!(status.success(), "{what} failed ({status})");
}

#[test]
fn pytest_suite() {
    let Some(python) = env::var_os("CAISSA_PYTHON").map(PathBuf::from) else {
        assert!(
            env::var_os("CI").is_none(),
            "CAISSA_PYTHON is not set: `cargo xtask ci` sets it (its `tools` step makes the venv)"
        );
        eprintln!(
            "CAISSA_PYTHON is not set: the pytest suite did not run. `cargo xtask setup` prints \
             the export line that makes the venv's interpreter available"
        );
        return;
    };
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = python
        .parent()
        .and_then(Path::parent)
        .expect("CAISSA_PYTHON is <venv>/bin/python");
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("python");
    run(
        "maturin develop",
        Command::new(&python)
            .args(["-m", "maturin", "develop", "--quiet", "--profile", PROFILE])
            .arg("--manifest-path")
            .arg(crate_dir.join("Cargo.toml"))
            .env("VIRTUAL_ENV", venv)
            .env("CARGO_TARGET_DIR", &target)
            .env_remove("CARGO_BUILD_TARGET_DIR"),
    );
    run(
        "pytest",
        Command::new(&python)
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(crate_dir.join("tests"))
            .current_dir(crate_dir),
    );
}
