//! `cargo xtask bench [--native] [ARGS...] [-- ARGS...]`: the criterion benches of
//! `caissa-benches`.
//!
//! Runs `cargo bench -p caissa-benches -- ARGS`. ARGS go to criterion (a filter,
//! `--save-baseline NAME`, …); `--native` and `--help` are taken by xtask, except after a literal
//! `--`, from where everything is passed on as is.
//!
//! Builds are portable by default, so that numbers compare across machines. Native builds are an
//! opt-in: `--native` sets `RUSTFLAGS="-C target-cpu=native"` (added to any `RUSTFLAGS` already
//! set) and builds in `<target dir>/native` (`target/native` by default), so that switching does
//! not throw away the portable build.

use crate::{Result, USAGE, Workspace, ci::with_flags, run_command};

/// What `bench` was asked to do.
#[derive(Debug, PartialEq, Eq)]
struct Options {
    native: bool,
    help: bool,
    /// For criterion.
    forwarded: Vec<String>,
}

fn parse_options(args: &[String]) -> Options {
    let mut options = Options {
        native: false,
        help: false,
        forwarded: Vec::new(),
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--native" => options.native = true,
            "--help" | "-h" => options.help = true,
            "--" => {
                options.forwarded.extend(args.by_ref().cloned());
            }
            _ => options.forwarded.push(arg.clone()),
        }
    }
    options
}

/// Runs the benches.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result {
    let options = parse_options(args);
    if options.help {
        print!("{USAGE}");
        return Ok(());
    }
    let mut command = workspace.cargo(["bench", "-p", "caissa-benches"]);
    if options.native {
        let target_dir = workspace.target_dir().join("native");
        command
            .env("RUSTFLAGS", with_flags("RUSTFLAGS", "-C target-cpu=native"))
            .env("CARGO_TARGET_DIR", target_dir);
    } else {
        eprintln!("note: portable build; `cargo xtask bench --native` builds for this CPU");
    }
    if !options.forwarded.is_empty() {
        command.arg("--").args(&options.forwarded);
    }
    run_command(&mut command)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(args: &[&str]) -> Vec<String> {
        args.iter().map(|&a| a.to_owned()).collect()
    }

    #[test]
    fn native_and_help_are_ours_until_a_double_dash() {
        assert_eq!(
            parse_options(&args(&["perft", "--native", "--save-baseline", "main"])),
            Options {
                native: true,
                help: false,
                forwarded: args(&["perft", "--save-baseline", "main"]),
            }
        );
        assert_eq!(
            parse_options(&args(&["-h", "--", "--native", "--help"])),
            Options {
                native: false,
                help: true,
                forwarded: args(&["--native", "--help"]),
            }
        );
    }
}
