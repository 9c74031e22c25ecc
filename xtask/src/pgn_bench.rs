//! `cargo xtask pgn-bench [--megabytes N] [--runs N]`: `caissa pgn` beside pgn-extract (Debian's
//! package) on the same jobs and the same file, with the ratios, as issue 15 asks.
//!
//! The input is made once, in `<target dir>/pgn-bench/input.pgn`: the PGN samples of
//! `data/pgn/` and the bench files of the pgn-reader crate in cargo's registry (lichess and TWIC
//! games, when the registry has them), repeated until the file holds `N` megabytes (50 by
//! default). The repeats make `dedupe` a job that leaves out most games; both tools see the same.
//!
//! Each [`JOBS`] entry is a task both tools can do, run as each would be scripted: the release
//! `caissa` binary (built first, portable) on every core, pgn-extract on its one. Runs
//! alternate between the tools, job by job, `--runs` times (2 by default), and the best time of
//! each is kept, which is what a noisy shared machine allows. Every job writes to a file in the
//! bench folder (pgn-extract's `-o`, caissa's `-o`; the last run's file is removed first, as
//! overwriting it would time the kernel freeing it), and the games in the two outputs are counted
//! and printed beside the times, so that a ratio between jobs that did different work shows.
//! The last job, `rewrite/1`, is caissa alone on one thread: its MB/s is the rewrite speed
//! per core. That speed goes with the moves rather than the bytes (a lichess dump has about 35
//! bytes a move, with its clock and eval comments; a TWIC file about 10), so it is then timed
//! again on an input of each kind alone ([`KINDS`]), made the same way from those files.
//!
//! `--big` runs the bounded-memory test instead (`crates/cli/tests/it/pgn_big.rs`, ignored by
//! `cargo test`) on the release profile: a gigabyte of zstd-compressed PGN (`--megabytes`
//! sets the size) streamed through `caissa pgn select`, each job's peak memory printed.

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::tools::{GAMES_DIR, ensure_programs, find_program};
use crate::{Error, Result, Workspace, parse_positive, run_command};

/// pgn-extract's ECO file, from its Debian package.
const ECO_FILE: &str = "/usr/share/pgn-extract/eco.pgn";

/// The tag criterion of the Elo job, as pgn-extract's `-t` file holds it.
const ELO_TAGS: &str = "WhiteElo >= \"2000\"\n";

/// One task both tools do. `{input}`, `{out}`, `{tags}` and `{eco}` in the arguments stand
/// for the input file, the job's output file, the Elo tag file and [`ECO_FILE`].
struct Job {
    name: &'static str,
    /// The arguments of `caissa`.
    caissa: &'static [&'static str],
    /// The arguments of `pgn-extract`, or `None` for a caissa-only job.
    extract: Option<&'static [&'static str]>,
    /// How the outputs hold games, for counting them.
    output: Output,
}

/// How a job's output is laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    /// No games (a report).
    Report,
    /// PGN: a game per `[Event ` line.
    Pgn,
    /// A game per non-empty line.
    Lines,
}

/// The jobs of the issue, and the rewrite on one thread.
const JOBS: &[Job] = &[
    Job {
        name: "validate",
        caissa: &["pgn", "check", "{input}"],
        extract: Some(&["-r", "-s", "{input}"]),
        output: Output::Report,
    },
    Job {
        name: "filter by Elo",
        caissa: &[
            "pgn",
            "select",
            "--where",
            "WhiteElo >= 2000",
            "-o",
            "{out}",
            "{input}",
        ],
        extract: Some(&["-s", "-t{tags}", "-o{out}", "{input}"]),
        output: Output::Pgn,
    },
    Job {
        name: "strip to moves",
        caissa: &[
            "pgn",
            "select",
            "--strip",
            "comments,nags,variations",
            "-o",
            "{out}",
            "{input}",
        ],
        extract: Some(&["-s", "-C", "-N", "-V", "-o{out}", "{input}"]),
        output: Output::Pgn,
    },
    Job {
        name: "export UCI",
        caissa: &["pgn", "select", "--format", "uci", "-o", "{out}", "{input}"],
        extract: Some(&[
            "-s",
            "-Wlalg",
            "--notags",
            "--nomovenumbers",
            "--noresults",
            "-C",
            "-N",
            "-V",
            "-w100000",
            "-o{out}",
            "{input}",
        ]),
        output: Output::Lines,
    },
    Job {
        name: "dedupe",
        caissa: &["pgn", "select", "--dedupe", "-o", "{out}", "{input}"],
        extract: Some(&["-s", "-D", "-o{out}", "{input}"]),
        output: Output::Pgn,
    },
    Job {
        name: "ECO-classify",
        caissa: &["pgn", "select", "--openings", "-o", "{out}", "{input}"],
        extract: Some(&["-s", "-e{eco}", "-o{out}", "{input}"]),
        output: Output::Pgn,
    },
    Job {
        name: "rewrite",
        caissa: &["pgn", "select", "-o", "{out}", "{input}"],
        extract: Some(&["-s", "-o{out}", "{input}"]),
        output: Output::Pgn,
    },
    Job {
        name: "rewrite/1",
        caissa: &["pgn", "select", "--threads", "1", "-o", "{out}", "{input}"],
        extract: None,
        output: Output::Pgn,
    },
];

/// What `pgn-bench` was asked for.
struct Options {
    /// The input's size; by default 50 MB, or 1024 with `--big`.
    megabytes: Option<u32>,
    runs: u32,
    /// Run the bounded-memory test instead of the comparison.
    big: bool,
}

fn parse_options(args: &[String]) -> Result<Options> {
    let mut options = Options {
        megabytes: None,
        runs: 2,
        big: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--megabytes" => options.megabytes = Some(parse_positive(arg, args.next())?),
            "--runs" => options.runs = parse_positive(arg, args.next())?,
            "--big" => options.big = true,
            other => {
                return Err(Error::usage(format!(
                    "`pgn-bench` takes --megabytes N, --runs N and --big, got `{other}`"
                )));
            }
        }
    }
    Ok(options)
}

/// The name of the ignored test that `--big` runs.
const BIG_TEST: &str = "pgn_big::a_gigabyte_of_zstd_is_selected_in_bounded_memory";

/// `--big`: the gigabyte test of `crates/cli/tests/it/pgn_big.rs`, on the release profile.
fn run_big(workspace: &Workspace, megabytes: Option<u32>) -> Result {
    let mut command = workspace.cargo(["test", "--release", "-p", "caissa-cli", "--test", "it"]);
    if workspace.root.join("Cargo.lock").is_file() {
        command.arg("--locked");
    }
    command.args(["--", "--ignored", "--exact", "--nocapture", BIG_TEST]);
    if let Some(megabytes) = megabytes {
        command.env("CAISSA_BIG_MB", megabytes.to_string());
    }
    run_command(&mut command)
}

/// The best time and the games written of one tool on one job.
#[derive(Clone, Copy, Default)]
struct Timing {
    best: Option<Duration>,
    games: u64,
}

impl Timing {
    fn add(&mut self, elapsed: Duration, games: u64) {
        self.best = Some(self.best.map_or(elapsed, |best| best.min(elapsed)));
        self.games = games;
    }
}

/// Runs the benchmark.
pub(crate) fn run(workspace: &Workspace, args: &[String]) -> Result {
    let options = parse_options(args)?;
    if options.big {
        return run_big(workspace, options.megabytes);
    }
    ensure_programs()?;
    let mut build = workspace.cargo(["build", "--release", "-p", "caissa-cli"]);
    if workspace.root.join("Cargo.lock").is_file() {
        build.arg("--locked");
    }
    run_command(&mut build)?;
    let caissa = workspace.target_dir().join("release/caissa");
    let dir = workspace.target_dir().join("pgn-bench");
    fs::create_dir_all(&dir).map_err(|e| io_error(&dir, &e))?;
    let input = dir.join("input.pgn");
    let size = u64::from(options.megabytes.unwrap_or(50)) << 20;
    let sources = sources(workspace)?;
    let bytes = make_input(&input, &sources, size)?;
    let tags = dir.join("elo.tags");
    fs::write(&tags, ELO_TAGS).map_err(|e| io_error(&tags, &e))?;
    let extract = find_program("pgn-extract", std::env::var_os("PATH").as_ref())
        .ok_or_else(|| Error::new(format!("pgn-extract is neither on PATH nor in {GAMES_DIR}")))?;
    let eco_missing = !Path::new(ECO_FILE).is_file();

    let mut timings = vec![[Timing::default(); 2]; JOBS.len()];
    for run in 1..=options.runs {
        eprintln!("pgn-bench: run {run} of {}", options.runs);
        for (job, timing) in JOBS.iter().zip(&mut timings) {
            let out = dir.join(format!("caissa-{}.out", slug(job.name)));
            remove_output(&out)?;
            let args = substitute(job.caissa, &input, &out, &tags);
            let mut command = Command::new(&caissa);
            command.args(&args);
            let elapsed = time(&mut command, &dir.join("caissa.log"))?;
            timing[0].add(elapsed, count_games(&out, job.output)?);
            let Some(extract_args) = job.extract else {
                continue;
            };
            if eco_missing && extract_args.iter().any(|a| a.contains("{eco}")) {
                continue;
            }
            let out = dir.join(format!("pgn-extract-{}.out", slug(job.name)));
            remove_output(&out)?;
            let args = substitute(extract_args, &input, &out, &tags);
            let mut command = Command::new(&extract);
            command.args(&args).current_dir(&dir);
            let elapsed = time(&mut command, &dir.join("pgn-extract.log"))?;
            timing[1].add(elapsed, count_games(&out, job.output)?);
        }
    }
    print_table(bytes, &timings);
    if eco_missing {
        println!("(no {ECO_FILE}: pgn-extract did not classify)");
    }
    rewrite_by_kind(&caissa, &dir, &sources, size, options.runs)
}

/// The kinds of input whose rewrite speed differs most: the speed goes with the moves, so
/// the denser a file's movetext, the fewer megabytes a second. Each is named by the start of
/// its files' names, with what sets it apart.
const KINDS: [(&str, &str); 2] = [
    ("lichess", "lichess dumps (clock and eval comments)"),
    ("twic", "TWIC (bare moves)"),
];

/// The rewrite on one thread (`rewrite/1`) over an input of each of [`KINDS`], made of its
/// source files alone, `size` bytes of it, the best of `runs`: the rewrite speed a core gives
/// on each kind of file.
fn rewrite_by_kind(caissa: &Path, dir: &Path, sources: &[PathBuf], size: u64, runs: u32) -> Result {
    let rewrite = JOBS
        .iter()
        .find(|job| job.name == "rewrite/1")
        .expect("the one-thread rewrite is a job");
    println!("\nrewrite/1 by kind of input");
    println!(
        "{:<42} {:>8} {:>10} {:>11} {:>8}",
        "input", "MB", "caissa", "caissa MB/s", "games"
    );
    for (prefix, description) in KINDS {
        let own: Vec<PathBuf> = sources
            .iter()
            .filter(|path| {
                path.file_name()
                    .is_some_and(|name| name.to_string_lossy().starts_with(prefix))
            })
            .cloned()
            .collect();
        if own.is_empty() {
            continue;
        }
        let input = dir.join(format!("input-{prefix}.pgn"));
        let bytes = make_input(&input, &own, size)?;
        let out = dir.join(format!("caissa-rewrite-1-{prefix}.out"));
        let mut timing = Timing::default();
        for _ in 0..runs {
            remove_output(&out)?;
            let args = substitute(rewrite.caissa, &input, &out, Path::new(""));
            let elapsed = time(Command::new(caissa).args(&args), &dir.join("caissa.log"))?;
            timing.add(elapsed, count_games(&out, rewrite.output)?);
        }
        let Some(best) = timing.best else { continue };
        let megabytes = bytes as f64 / f64::from(1 << 20);
        println!(
            "{description:<42} {megabytes:>8.1} {:>9.2}s {:>11.0} {:>8}",
            best.as_secs_f64(),
            megabytes / best.as_secs_f64(),
            timing.games,
        );
    }
    Ok(())
}

/// Writes the input file from `sources`, repeated, unless one of `bytes` or more is there,
/// and returns its size.
fn make_input(input: &Path, sources: &[PathBuf], bytes: u64) -> Result<u64> {
    if let Ok(meta) = fs::metadata(input)
        && meta.len() >= bytes
        && meta.len() < bytes + (8 << 20)
    {
        return Ok(meta.len());
    }
    let texts: Vec<Vec<u8>> = sources
        .iter()
        .map(|path| fs::read(path).map_err(|e| io_error(path, &e)))
        .collect::<Result<_>>()?;
    let mut file = io::BufWriter::new(File::create(input).map_err(|e| io_error(input, &e))?);
    let mut written = 0;
    'fill: loop {
        for text in &texts {
            file.write_all(text)
                .and_then(|()| file.write_all(b"\n\n"))
                .map_err(|e| io_error(input, &e))?;
            written += text.len() as u64 + 2;
            if written >= bytes {
                break 'fill;
            }
        }
    }
    file.flush().map_err(|e| io_error(input, &e))?;
    let names: Vec<String> = sources
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    eprintln!(
        "pgn-bench: wrote {} ({} MB) from {}",
        input.display(),
        written >> 20,
        names.join(", ")
    );
    Ok(written)
}

/// The PGN files the input is made of: `data/pgn/*.pgn` and pgn-reader's `benches/*.pgn`.
fn sources(workspace: &Workspace) -> Result<Vec<PathBuf>> {
    let mut dirs = vec![workspace.root.join("data/pgn")];
    let registry = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".cargo")))
        .map(|home| home.join("registry/src"));
    if let Some(Ok(indexes)) = registry.map(fs::read_dir) {
        dirs.extend(
            indexes
                .flatten()
                .map(|index| index.path().join("pgn-reader-0.29.0/benches"))
                .filter(|dir| dir.is_dir())
                .take(1),
        );
    }
    let mut files = Vec::new();
    for dir in dirs {
        let entries = fs::read_dir(&dir).map_err(|e| io_error(&dir, &e))?;
        let mut pgns: Vec<PathBuf> = entries
            .flatten()
            .map(|entry| entry.path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "pgn"))
            .collect();
        pgns.sort();
        files.extend(pgns);
    }
    if files.is_empty() {
        return Err(Error::new(
            "no PGN files in data/pgn to make the input from",
        ));
    }
    Ok(files)
}

/// The arguments with the placeholders filled in.
fn substitute(args: &[&str], input: &Path, out: &Path, tags: &Path) -> Vec<String> {
    args.iter()
        .map(|arg| {
            arg.replace("{input}", &input.to_string_lossy())
                .replace("{out}", &out.to_string_lossy())
                .replace("{tags}", &tags.to_string_lossy())
                .replace("{eco}", ECO_FILE)
        })
        .collect()
}

/// Runs `command` with stdout and stderr going to `log`, and returns its wall time. A status
/// other than success is fine (pgn-extract and `caissa pgn check` fail on a broken game), but
/// a command that cannot start is not.
fn time(command: &mut Command, log: &Path) -> Result<Duration> {
    let log_file = File::create(log).map_err(|e| io_error(log, &e))?;
    let err_file = log_file.try_clone().map_err(|e| io_error(log, &e))?;
    command
        .stdin(Stdio::null())
        .stdout(log_file)
        .stderr(err_file);
    let shown = crate::describe(command);
    let start = Instant::now();
    let status = command
        .status()
        .map_err(|e| Error::new(format!("could not start `{shown}`: {e}")))?;
    let elapsed = start.elapsed();
    eprintln!(
        "  {:>7.2}s  {shown}{}",
        elapsed.as_secs_f64(),
        if status.success() { "" } else { " (failed)" }
    );
    Ok(elapsed)
}

/// Removes the output file of a job's last run, before the run that would overwrite it is
/// timed: truncating an old output of 50 MB takes the kernel about 20 ms (measured: a rewrite
/// at 164 ms into an existing file, 141 ms into a new one), which is neither tool's work.
fn remove_output(out: &Path) -> Result {
    match fs::remove_file(out) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(io_error(out, &e)),
        _ => Ok(()),
    }
}

/// The games in a job's output file (0 for a report, or when there is no file).
fn count_games(path: &Path, output: Output) -> Result<u64> {
    if output == Output::Report {
        return Ok(0);
    }
    let Ok(file) = File::open(path) else {
        return Ok(0);
    };
    let mut games = 0;
    for line in BufReader::new(file).split(b'\n') {
        let line = line.map_err(|e| io_error(path, &e))?;
        games += u64::from(match output {
            Output::Pgn => line.starts_with(b"[Event "),
            _ => !line.iter().all(u8::is_ascii_whitespace),
        });
    }
    Ok(games)
}

/// Prints the times, the ratios and the games written, a job a line.
fn print_table(bytes: u64, timings: &[[Timing; 2]]) {
    let megabytes = bytes as f64 / f64::from(1 << 20);
    println!("input: {megabytes:.1} MB");
    println!(
        "{:<16} {:>10} {:>10} {:>8} {:>11} {:>13} {:>13}",
        "job", "caissa", "pgn-extract", "ratio", "caissa MB/s", "caissa games", "extract games"
    );
    for (job, [ours, theirs]) in JOBS.iter().zip(timings) {
        let Some(our_time) = ours.best else { continue };
        let (their_time, ratio, their_games) = match theirs.best {
            Some(t) => (
                format!("{:.2}s", t.as_secs_f64()),
                format!("{:.1}x", t.as_secs_f64() / our_time.as_secs_f64()),
                theirs.games.to_string(),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        println!(
            "{:<16} {:>9.2}s {:>10} {:>8} {:>11.0} {:>13} {:>13}",
            job.name,
            our_time.as_secs_f64(),
            their_time,
            ratio,
            megabytes / our_time.as_secs_f64(),
            ours.games,
            their_games,
        );
    }
}

/// A job's name as a file name.
fn slug(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

fn io_error(path: &Path, error: &io::Error) -> Error {
    Error::new(format!("{}: {error}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_in() {
        let args = substitute(
            &["-t{tags}", "-o{out}", "{input}", "-e{eco}"],
            Path::new("/b/in.pgn"),
            Path::new("/b/x.out"),
            Path::new("/b/elo.tags"),
        );
        assert_eq!(
            args,
            [
                "-t/b/elo.tags",
                "-o/b/x.out",
                "/b/in.pgn",
                &format!("-e{ECO_FILE}")
            ]
        );
    }

    #[test]
    fn every_job_writes_where_it_is_told() {
        for job in JOBS {
            let writes = |args: &[&str]| args.iter().any(|a| a.contains("{out}"));
            assert_eq!(
                writes(job.caissa),
                job.output != Output::Report,
                "{}",
                job.name
            );
            if let Some(extract) = job.extract {
                assert_eq!(
                    writes(extract),
                    job.output != Output::Report,
                    "{}",
                    job.name
                );
            }
        }
    }

    #[test]
    fn options_are_checked() {
        let options = parse_options(&["--runs".into(), "3".into(), "--big".into()]).unwrap();
        assert_eq!(
            (options.megabytes, options.runs, options.big),
            (None, 3, true)
        );
        assert!(parse_options(&["--fast".into()]).is_err());
        assert!(parse_options(&["--megabytes".into(), "0".into()]).is_err());
    }
}
