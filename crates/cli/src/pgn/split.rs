//! `caissa pgn split`: the games of the files, rewritten as `pgn select` writes them, into
//! files of N games (`--games N`: `PREFIX-0001.pgn`, `PREFIX-0002.pgn`, ...) or one file per
//! value of a tag (`--by ECO`: `PREFIX-B20.pgn`, ..., `PREFIX-unknown.pgn` for games without
//! it; a value that is no safe file name as it stands, `Carlsen, Magnus`, is made one with a
//! hash of it, `PREFIX-Carlsen__Magnus~1a2b3c4d.pgn`), in input order
//! (`caissa_pgntools::split`). A broken game is reported on stderr as
//! `FILE:LINE:COL: message` and written nowhere; the last stderr line is
//! `games <N> written <W> files <F> errors <E>`, and the exit status is 1 when E > 0.

use core::num::NonZeroU64;
use core::ops::ControlFlow;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use caissa_pgntools::input::decompress;
use caissa_pgntools::split::{SplitBy, Splitter};
use caissa_pgntools::{SelectOptions, Selection, select};
use clap::Args;

use super::progress::Progress;
use super::{open, read_error, refuse_overwriting_input, threads_or_all};
use crate::error::CliError;

/// The most files `--by` writes at once: a tag with more values (a player's name, say) is
/// refused past it rather than holding a file open for each. (Below the 1,024 files a
/// process may hold open by default on Linux, with room for the inputs.)
pub(super) const MAX_FILES: usize = 500;

/// Arguments of `caissa pgn split`.
#[derive(Debug, Args)]
pub(super) struct SplitArgs {
    /// The PGN files (`-` for stdin), plain or compressed (zstd, gzip, bzip2).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// This many games a file.
    #[arg(
        long,
        value_name = "N",
        conflicts_with = "by",
        required_unless_present = "by"
    )]
    games: Option<NonZeroU64>,
    /// One file for each value of this tag (e.g. ECO, Event, White).
    #[arg(long, value_name = "TAG")]
    by: Option<String>,
    /// The start of the files' names, a path [default: split].
    #[arg(short, long, value_name = "PREFIX", default_value = "split")]
    output: PathBuf,
    /// Threads replaying moves, 1 to 256 [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
}

/// The files written so far, by name part; with `--games` only the last one is open.
struct Files {
    prefix: PathBuf,
    /// The files read, which no file written may be.
    inputs: Vec<PathBuf>,
    open: HashMap<String, BufWriter<File>>,
    count: u64,
    keep_one: bool,
}

/// `error` of the file at `path`, which it names.
fn named(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

impl Files {
    /// Writes `text` to the file of `part`; an error names the file.
    fn write(&mut self, part: String, text: &str) -> Result<(), CliError> {
        let path = path_of(&self.prefix, &part);
        let file = self.file(part)?;
        Ok(file
            .write_all(text.as_bytes())
            .map_err(|e| named(&path, e))?)
    }

    /// Flushes every file open, and closes them.
    fn close_all(&mut self) -> Result<(), CliError> {
        for (part, mut file) in self.open.drain() {
            file.flush()
                .map_err(|e| named(&path_of(&self.prefix, &part), e))?;
        }
        Ok(())
    }

    /// The file of `part`, created when it is new.
    fn file(&mut self, part: String) -> Result<&mut BufWriter<File>, CliError> {
        if !self.open.contains_key(&part) {
            if self.keep_one {
                self.close_all()?;
            } else if self.open.len() == MAX_FILES {
                return Err(CliError::Arg {
                    arg: "by",
                    problem: format!(
                        "more than {MAX_FILES} values of the tag: stopped, with the files of \
                         the first {MAX_FILES} written"
                    ),
                });
            }
        }
        match self.open.entry(part) {
            Entry::Occupied(file) => Ok(file.into_mut()),
            Entry::Vacant(slot) => {
                let path = path_of(&self.prefix, slot.key());
                refuse_overwriting_input("output", &path, &self.inputs)?;
                let file = File::create(&path).map_err(|e| named(&path, e))?;
                self.count += 1;
                Ok(slot.insert(BufWriter::new(file)))
            }
        }
    }

    fn finish(mut self) -> Result<u64, CliError> {
        self.close_all()?;
        Ok(self.count)
    }
}

/// Splits the files.
pub(super) fn run(args: &SplitArgs) -> Result<(), CliError> {
    let by = match (&args.by, args.games) {
        (Some(tag), _) => SplitBy::Tag(tag.clone()),
        (None, Some(n)) => SplitBy::Games(n),
        (None, None) => {
            return Err(CliError::Arg {
                arg: "games",
                problem: "give --games N or --by TAG".to_owned(),
            });
        }
    };
    let mut files = Files {
        prefix: args.output.clone(),
        inputs: args.files.clone(),
        open: HashMap::new(),
        count: 0,
        keep_one: matches!(by, SplitBy::Games(_)),
    };
    let mut splitter = Splitter::new(by);
    let threads = threads_or_all(args.threads);
    let options = SelectOptions {
        tag_value: args.by.clone(),
        ..SelectOptions::default()
    };
    let (mut games, mut written, mut errors) = (0u64, 0u64, 0u64);
    let mut progress = Progress::new();
    for path in &args.files {
        let (input, _) = decompress(progress.reader(open(path)?)).map_err(read_error(path))?;
        let mut failed = Ok(());
        select(input, &options, threads, |game| {
            games += 1;
            progress.game();
            let text = match game.selection {
                Selection::Matched(text) => text,
                Selection::Broken(broken) => {
                    errors += 1;
                    let (at, kind) = (broken.error.location, broken.error.kind);
                    eprintln!("{}:{at}: {kind}", path.display());
                    return ControlFlow::Continue(());
                }
                Selection::Unmatched
                | Selection::Row(_)
                | Selection::Key(_)
                | Selection::Skipped => {
                    return ControlFlow::Continue(());
                }
            };
            let part = splitter.part(game.tag_value.as_deref());
            failed = files.write(part, &text);
            written += u64::from(failed.is_ok());
            if failed.is_ok() {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        })
        .map_err(read_error(path))?;
        failed?;
    }
    progress.finish();
    let count = files.finish()?;
    eprintln!("games {games} written {written} files {count} errors {errors}");
    if errors > 0 {
        return Err(CliError::ChecksFailed {
            failed: errors,
            checks: games,
        });
    }
    Ok(())
}

/// The path of the file of `part` under `prefix`: `PREFIX-PART.pgn`.
fn path_of(prefix: &Path, part: &str) -> PathBuf {
    let mut name = prefix.to_path_buf().into_os_string();
    name.push(format!("-{part}.pgn"));
    PathBuf::from(name)
}
