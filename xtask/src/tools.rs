//! The outside programs the tests need, installed when they are missing, so that `cargo xtask
//! ci` passes on a clean machine.
//!
//! - [`PROGRAMS`]: `stockfish`, `gnuchess` and `pgn-extract`, looked for on `PATH` and in
//!   [`GAMES_DIR`] (where Debian puts them). The missing ones are installed with one `apt-get
//!   update && apt-get install -y PACKAGE...`; a machine without `apt-get` gets an error naming
//!   the packages. The tests' `PATH` ends with [`GAMES_DIR`] ([`test_path`]).
//! - [`python_venv`]: a Python virtual environment in `<target dir>/venv` with
//!   [`PYTHON_PACKAGES`], made by `python3 -m venv` and `pip install` when the Python crate
//!   (`crates/python`) exists. Its interpreter reaches the tests as [`PYTHON_VAR`].
//!
//! Every step says what it installs and why. All of it is idempotent and costs a few `stat`
//! calls when everything is there: the venv keeps the package list it was made with in
//! [`VENV_STAMP`] and is only touched again when [`PYTHON_PACKAGES`] changes.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{Error, Result, Workspace, run_command};

/// An outside program and the Debian package that has it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Program {
    /// The executable's name.
    pub(crate) name: &'static str,
    /// The Debian package to install when it is missing.
    pub(crate) package: &'static str,
}

/// The programs tests run: engine matches and UCI tests need stockfish, and GNU Chess as a
/// second engine with its own habits (no `MultiPV`, no `go nodes`), PGN comparisons
/// pgn-extract.
pub(crate) const PROGRAMS: &[Program] = &[
    Program {
        name: "stockfish",
        package: "stockfish",
    },
    Program {
        name: "gnuchess",
        package: "gnuchess",
    },
    Program {
        name: "pgn-extract",
        package: "pgn-extract",
    },
];

/// Where Debian installs games (stockfish, gnuchess, pgn-extract), often not on a root `PATH`.
pub(crate) const GAMES_DIR: &str = "/usr/games";

/// The Python packages the Python crate's tests use: maturin builds the module, pytest runs the
/// tests, the others are what the tests compare with or hand data to.
pub(crate) const PYTHON_PACKAGES: &[&str] = &[
    "maturin",
    "pytest",
    "chess",
    "pyarrow",
    "duckdb",
    "polars",
    "dask[dataframe,distributed]",
];

/// The environment variable that hands the venv's interpreter to the tests.
pub(crate) const PYTHON_VAR: &str = "CAISSA_PYTHON";

/// The file in the venv that holds the package list it was made with, one a line.
pub(crate) const VENV_STAMP: &str = "caissa-packages.txt";

/// Where `name` is: the first match on `path` (a `PATH` value), else in [`GAMES_DIR`].
pub(crate) fn find_program(name: &str, path: Option<&OsString>) -> Option<PathBuf> {
    let dirs = path.map(env::split_paths).into_iter().flatten();
    dirs.chain([PathBuf::from(GAMES_DIR)])
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// `path` (a `PATH` value) with [`GAMES_DIR`] at the end unless it is there already.
fn with_games_dir(path: Option<OsString>) -> Result<OsString> {
    let mut dirs: Vec<PathBuf> = path.iter().flat_map(env::split_paths).collect();
    if !dirs.iter().any(|dir| dir == Path::new(GAMES_DIR)) {
        dirs.push(PathBuf::from(GAMES_DIR));
    }
    env::join_paths(dirs).map_err(|e| Error::new(format!("PATH cannot hold {GAMES_DIR}: {e}")))
}

/// The `PATH` for the tests: this process's, with [`GAMES_DIR`] at the end.
pub(crate) fn test_path() -> Result<OsString> {
    with_games_dir(env::var_os("PATH"))
}

/// Installs the [`PROGRAMS`] that are neither on `PATH` nor in [`GAMES_DIR`], with `apt-get`.
pub(crate) fn ensure_programs() -> Result {
    let path = env::var_os("PATH");
    let missing: Vec<Program> = PROGRAMS
        .iter()
        .copied()
        .filter(|program| find_program(program.name, path.as_ref()).is_none())
        .collect();
    if missing.is_empty() {
        let found: Vec<&str> = PROGRAMS.iter().map(|p| p.name).collect();
        eprintln!("tools: {} present", found.join(", "));
        return Ok(());
    }
    let packages: Vec<&str> = missing.iter().map(|p| p.package).collect();
    let names: Vec<&str> = missing.iter().map(|p| p.name).collect();
    if find_program("apt-get", path.as_ref()).is_none() {
        return Err(Error::new(format!(
            "the tests need {} and there is no apt-get to install them: install the packages {} \
             (or put the programs on PATH)",
            names.join(", "),
            packages.join(" ")
        )));
    }
    eprintln!(
        "tools: {} missing (looked on PATH and in {GAMES_DIR}): installing the Debian packages {}",
        names.join(", "),
        packages.join(" ")
    );
    run_command(Command::new("apt-get").args(["update", "-qq"]))?;
    run_command(
        Command::new("apt-get")
            .args(["install", "-y", "-qq", "--no-install-recommends"])
            .args(&packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )?;
    let path = test_path()?;
    match missing
        .iter()
        .find(|p| find_program(p.name, Some(&path)).is_none())
    {
        Some(still) => Err(Error::new(format!(
            "`{}` is still missing after installing the package {}",
            still.name, still.package
        ))),
        None => Ok(()),
    }
}

/// Whether the workspace has the Python crate, whose tests need [`python_venv`].
pub(crate) fn needs_python(workspace: &Workspace) -> bool {
    workspace.root.join("crates/python/Cargo.toml").is_file()
}

/// The stamp [`python_venv`] writes: the package list, one a line.
fn venv_stamp() -> String {
    PYTHON_PACKAGES.iter().map(|p| format!("{p}\n")).collect()
}

/// The interpreter of the venv in `venv`.
fn venv_python(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join("python.exe")
    } else {
        venv.join("bin").join("python")
    }
}

/// Makes (or reuses) the Python venv `<target dir>/venv` with [`PYTHON_PACKAGES`] and returns
/// its interpreter. Reused as it is when its stamp holds the current package list; otherwise
/// created with `python3 -m venv` (the system `python3`, or `$PYTHON`) and filled with `pip
/// install`.
pub(crate) fn python_venv(workspace: &Workspace) -> Result<PathBuf> {
    let venv = workspace.target_dir().join("venv");
    let python = venv_python(&venv);
    let stamp = venv.join(VENV_STAMP);
    let wanted = venv_stamp();
    if python.is_file() && fs::read_to_string(&stamp).is_ok_and(|s| s == wanted) {
        eprintln!("tools: Python venv {} present", venv.display());
        return Ok(python);
    }
    eprintln!(
        "tools: making the Python venv {} with {}",
        venv.display(),
        PYTHON_PACKAGES.join(", ")
    );
    if !python.is_file() {
        let base = env::var_os("PYTHON").unwrap_or_else(|| OsString::from("python3"));
        run_command(Command::new(base).args(["-m", "venv"]).arg(&venv))?;
    }
    run_command(
        Command::new(&python)
            .args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
            ])
            .args(PYTHON_PACKAGES),
    )?;
    fs::write(&stamp, wanted)
        .map_err(|e| Error::new(format!("writing {}: {e}", stamp.display())))?;
    Ok(python)
}

/// Installs everything the tests need and returns the environment they run with: `PATH` with
/// [`GAMES_DIR`], and [`PYTHON_VAR`] when the Python crate exists.
pub(crate) fn prepare(workspace: &Workspace) -> Result<Vec<(&'static str, OsString)>> {
    ensure_programs()?;
    let mut vars = vec![("PATH", test_path()?)];
    if needs_python(workspace) {
        let python = python_venv(workspace)?;
        eprintln!("tools: {PYTHON_VAR}={}", python.display());
        vars.push((PYTHON_VAR, python.into_os_string()));
    }
    Ok(vars)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_dir_is_added_once_at_the_end() {
        let path = with_games_dir(Some(OsString::from("/bin:/usr/bin"))).unwrap();
        assert_eq!(path, OsString::from(format!("/bin:/usr/bin:{GAMES_DIR}")));
        assert_eq!(with_games_dir(Some(path.clone())).unwrap(), path);
        assert_eq!(with_games_dir(None).unwrap(), OsString::from(GAMES_DIR));
    }

    #[test]
    fn programs_are_found_on_path_first() {
        let sh = find_program("sh", Some(&OsString::from("/bin:/usr/bin")));
        assert!(sh.is_some_and(|p| p.ends_with("sh")));
        let none = find_program("no-such-program-caissa", Some(&OsString::from("/bin")));
        assert_eq!(none, None);
    }

    #[test]
    fn the_stamp_lists_every_package() {
        let stamp = venv_stamp();
        assert_eq!(stamp.lines().count(), PYTHON_PACKAGES.len());
        assert!(stamp.lines().any(|p| p == "pytest"));
    }
}
