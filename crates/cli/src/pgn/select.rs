//! `caissa pgn select`: the games that match, rewritten, in input order.
//!
//! The files (`-` is stdin; zstd, gzip and bzip2 are recognised by their first bytes) are read
//! one after the other, each on all cores (`caissa_pgntools::select`). Matching games go to
//! stdout or `-o PATH`; broken ones are skipped, kept as they are, or stop the run
//! (`--on-error`), and can be copied byte for byte to `--rejects PATH` and described in
//! `--report PATH`, one JSON object per line:
//! `{"file","line","column","offset","game","message"}` (`game` counts from 1 in its file,
//! `offset` is the problem's byte in the decompressed input).
//!
//! `--format lan` writes the main line in long algebraic notation, `fen` and `epd` one line per
//! position of the main line (the start included); `ndjson` (one JSON object per game) and
//! `csv` (a header line, then one line per game) hold the Parquet file's columns.
//! `--format parquet` writes one Parquet file (`-o PATH`, or stdout) with the columns and types
//! of the Hugging Face `Lichess/standard-chess-games` dataset (`caissa_pgntools::table`), plus
//! the per-ply lists `--ply-columns` asks for; with `--partition`, `-o DIR` is a directory
//! that gets one file per month of `UTCDate`, `DIR/year=2024/month=05/part-0.parquet`.
//!
//! Games are numbered from 1 over all the files, in order, for `--games`, `--every` and
//! `--sample` (a game is in the sample when a hash of `--seed` and its number says so:
//! `caissa_pgntools::sample`); `--limit` stops after so many games written.
//!
//! The last line on stderr is `games <N> matched <M> written <W> errors <E>`: `N` every game
//! read, `M` the well-formed games that passed the filters, `W` the games written (with
//! `--on-error keep`, the broken ones too), `E` the broken games. Games that fail a tag filter
//! are not replayed, so their moves are not checked: `caissa pgn check` checks everything.
//!
//! `--dedupe` leaves out every game that repeats an earlier one (the same start and main-line
//! moves, however written; with `--same-tags`, the same tags too), among the games that pass the
//! filters and the numbers, and writes the repeats to `--duplicates PATH` as the others are
//! written. It reads the input twice (stdin is first copied to a temporary file): once for a
//! key per game (`caissa_pgntools::dedupe`, with at most `--dedupe-memory` keys in memory and
//! the rest in temporary files), then to write. A line `duplicates <D>` comes before the
//! summary, whose `matched` counts the repeats and `written` does not.
//!
//! `--invert` selects the well-formed games that fail the filters (`--where` and the conditions
//! on the main line) instead of those that pass them; `matched` then counts those.
//!
//! `--lenient` reads what other PGN readers accept and the strict reader refuses (`e.p.` after
//! a move, the result `1/2`, glyphs above `$255`, text after the result on its line, a `"` left
//! unescaped in a tag value), with a line `FILE:LINE:COLUMN: warning: what` on stderr for each,
//! instead of counting the game broken.
//!
//! The exit status is 0, 1 when `--on-error stop` stopped at a broken game, 2 when a file
//! cannot be read or the output cannot be written.

use core::ops::{ControlFlow, Range};
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use caissa::San;
use caissa_pgntools::dedupe::{DuplicateFinder, DuplicateGames, GameKey, Same};
use caissa_pgntools::filter::Filter;
use caissa_pgntools::input::decompress;
use caissa_pgntools::material::Material;
use caissa_pgntools::pattern::Pattern;
use caissa_pgntools::sample::Sample;
use caissa_pgntools::table::{
    Columns, ParquetWriter, PartitionedParquet, Row, WriteParquetError, csv_header,
};
use caissa_pgntools::{
    Ending, Feature, Format, GameFilter, InputGame, SelectOptions, Selection, Strip, select,
    select_skipping,
};
use clap::{Args, ValueEnum};

use super::progress::Progress;
use super::{open, read_error, refuse_overwriting_input, threads_or_all, warn_each};
use crate::error::CliError;
use crate::position::read_position_either;

/// Arguments of `caissa pgn select`.
#[derive(Debug, Args)]
pub(crate) struct SelectArgs {
    /// The PGN files (`-` for stdin), plain or compressed (zstd, gzip, bzip2).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// A tag filter, `TAG OP VALUE` with OP one of = != < <= > >= ~ (contains, any case),
    /// joined by and/or/not; repeatable, all must hold.
    #[arg(long = "where", value_name = "FILTER", value_parser = parse_filter)]
    filters: Vec<Filter>,
    /// What to leave out: a comma-separated list of comments, nags, variations, commands.
    #[arg(long, value_name = "LIST", value_parser = parse_strip)]
    strip: Option<Strip>,
    /// How to write the games.
    #[arg(long, value_enum, default_value_t = FormatArg::Pgn)]
    format: FormatArg,
    /// With `--format parquet`: per-ply list columns to add, a comma-separated list of uci,
    /// clocks, evals.
    #[arg(long, value_name = "LIST")]
    ply_columns: Option<Columns>,
    /// With `--format parquet`: `-o` is a directory, with one file per month of UTCDate
    /// (`year=2024/month=05/part-0.parquet`).
    #[arg(long, requires = "output")]
    partition: bool,
    /// Set the PlyCount tag to the main line's length.
    #[arg(long)]
    ply_count: bool,
    /// Set the ECO and Opening tags from the deepest named position of the main line (the
    /// lichess opening table, built in); a game that reaches none keeps its tags.
    #[arg(long)]
    openings: bool,
    /// Add a comment with the FEN after each move.
    #[arg(long)]
    fen_comments: bool,
    /// Make the Result tag and the movetext's result say what the board says (checkmate,
    /// stalemate, a dead position, 75 moves), or else what the movetext says when the tag
    /// contradicts it.
    #[arg(long)]
    fix_result: bool,
    /// Read leniently: accept `e.p.` after a move, the result `1/2`, glyphs above `$255` and
    /// text after the result (left out), and a `"` left unescaped in a tag value, each with a
    /// warning on stderr, instead of counting the game broken.
    #[arg(long)]
    lenient: bool,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// What to do with a game that cannot be read or replayed.
    #[arg(long, value_enum, default_value_t = OnError::Skip)]
    on_error: OnError,
    /// Copy the broken games here, byte for byte.
    #[arg(long, value_name = "PATH")]
    rejects: Option<PathBuf>,
    /// Describe the broken games here, one JSON object per line.
    #[arg(long, value_name = "PATH")]
    report: Option<PathBuf>,
    /// Threads replaying moves, 1 to 256 [default: one per core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// How the main line ends on the board: checkmate, stalemate, repetition, fifty,
    /// insufficient or dead.
    #[arg(long, value_name = "ENDING")]
    ending: Option<Ending>,
    /// What the main line contains, all of a comma-separated list of underpromotion,
    /// castling, kingside-castling, queenside-castling, en-passant.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    contains: Vec<Feature>,
    /// The fewest plies of the main line.
    #[arg(long, value_name = "N")]
    min_plies: Option<u64>,
    /// The most plies of the main line.
    #[arg(long, value_name = "N")]
    max_plies: Option<u64>,
    /// A position the main line reaches, as FEN (move counters aside, compared as the Laws'
    /// "same position"; Chess960 castling rights as Shredder-FEN or X-FEN).
    #[arg(long, value_name = "FEN")]
    position: Option<String>,
    /// A material signature a position of the main line has, one side then the other,
    /// whichever colour: "KQ vs KR", "KRP v KR".
    #[arg(long, value_name = "SIGNATURE")]
    material: Option<Material>,
    /// A pattern a position of the main line matches: a FEN placement whose men must stand on
    /// their squares, the empty squares anything, and optionally the side to move:
    /// "8/8/8/3pP3/8/8/8/8 w".
    #[arg(long, value_name = "PLACEMENT")]
    pattern: Option<Pattern>,
    /// The moves the main line starts with, in SAN: "e4 e5 Nf3".
    #[arg(long, value_name = "SAN...", value_parser = parse_moves)]
    moves: Option<Moves>,
    /// Select the games that fail --where or the conditions on the main line instead of those
    /// that pass them all (as grep -v; pgn-extract -n). --games, --every and --sample still
    /// pick by the input's game numbers, --limit counts the games written, and --dedupe looks
    /// among the games so selected.
    #[arg(long)]
    invert: bool,
    /// Only the games numbered A to B (from 1, over all files; `A:` or `:B` leave an end open).
    #[arg(long, value_name = "A:B", value_parser = parse_range)]
    games: Option<(u64, u64)>,
    /// Only every Nth game (numbers N, 2N, ...).
    #[arg(long, value_name = "N")]
    every: Option<NonZeroUsize>,
    /// Stop after writing N games (0: none).
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// Only a random sample of about this fraction of the games (above 0, at most 1), the same
    /// for the same --seed whatever the threads.
    #[arg(long, value_name = "FRACTION")]
    sample: Option<f64>,
    /// The seed of --sample.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "sample")]
    seed: u64,
    /// Leave out every game that repeats an earlier one: the same start and main-line moves,
    /// however written. Reads the input twice (stdin is copied to a temporary file).
    #[arg(long)]
    dedupe: bool,
    /// With --dedupe: a repeat has the same tags too (the same pairs, in any order).
    #[arg(long, requires = "dedupe")]
    same_tags: bool,
    /// With --dedupe: write the repeats here, as the other games are written (a directory
    /// with --partition).
    #[arg(long, value_name = "PATH", requires = "dedupe")]
    duplicates: Option<PathBuf>,
    /// With --dedupe: the most game keys (40 bytes each) held in memory; more go to temporary
    /// files.
    #[arg(long, value_name = "N", default_value = "1000000")]
    dedupe_memory: NonZeroUsize,
}

/// `--moves`: one value holding several moves.
#[derive(Clone, Debug)]
struct Moves(Vec<San>);

fn parse_moves(text: &str) -> Result<Moves, String> {
    text.split_whitespace()
        .filter(|word| {
            !word
                .trim_end_matches('.')
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .map(|word| {
            let word = word.rsplit('.').next().unwrap_or(word);
            word.parse::<caissa::SanPlus>()
                .map(|san| san.san)
                .map_err(|e| format!("`{word}`: {e}"))
        })
        .collect::<Result<_, _>>()
        .map(Moves)
}

fn parse_range(text: &str) -> Result<(u64, u64), String> {
    let (first, last) = text
        .split_once(':')
        .ok_or_else(|| format!("`{text}`: expected A:B"))?;
    let number = |part: &str, open: u64| match part.trim() {
        "" => Ok(open),
        part => part.parse::<u64>().map_err(|e| format!("`{part}`: {e}")),
    };
    let range = (number(first, 1)?, number(last, u64::MAX)?);
    if range.0 == 0 || range.0 > range.1 {
        return Err(format!("`{text}`: expected 1 <= A <= B"));
    }
    Ok(range)
}

/// `--format`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    /// The PGN export format, moves as canonical SAN.
    Pgn,
    /// The main line in UCI notation, one game per line.
    Uci,
    /// The main line in long algebraic notation (`Ng1-f3`), one game per line.
    Lan,
    /// The main line in SAN (`Nf3`), without numbers or result, one game per line.
    San,
    /// The FEN of every position of the main line, one per line.
    Fen,
    /// The EPD (FEN without move counters) of every position of the main line, one per line.
    Epd,
    /// One JSON object per game and line, the Parquet file's columns as members.
    Ndjson,
    /// CSV with a header line, the Parquet file's columns.
    Csv,
    /// A Parquet file with the columns of the Lichess dataset on Hugging Face.
    Parquet,
}

impl FormatArg {
    /// Whether games are written as rows of the table.
    const fn is_table(self) -> bool {
        matches!(
            self,
            FormatArg::Ndjson | FormatArg::Csv | FormatArg::Parquet
        )
    }
}

/// `--on-error`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OnError {
    /// Leave broken games out.
    Skip,
    /// Write broken games as they are.
    Keep,
    /// Stop at the first broken game, with exit status 1.
    Stop,
}

fn parse_filter(text: &str) -> Result<Filter, String> {
    text.parse().map_err(|e| format!("{e}"))
}

fn parse_strip(text: &str) -> Result<Strip, String> {
    let mut strip = Strip::default();
    for part in text.split(',').map(str::trim) {
        match part {
            "comments" => strip.comments = true,
            "nags" => strip.nags = true,
            "variations" => strip.variations = true,
            "commands" => strip.commands = true,
            other => {
                return Err(format!(
                    "unknown `{other}`: expected comments, nags, variations or commands"
                ));
            }
        }
    }
    Ok(strip)
}

/// The counts of the summary line.
#[derive(Debug, Default)]
struct Counts {
    games: u64,
    matched: u64,
    written: u64,
    errors: u64,
    duplicates: u64,
}

/// Where the selected games go.
enum Out {
    /// Text: PGN, or lines of moves or positions.
    Text(Box<dyn Write>),
    /// Rows as CSV (`csv`) or JSON lines.
    Rows {
        out: Box<dyn Write>,
        columns: Columns,
        csv: bool,
    },
    /// One Parquet file.
    Parquet(Box<ParquetWriter<Box<dyn Write + Send>>>),
    /// One Parquet file per month.
    Partitioned(PartitionedParquet<BufWriter<File>, OpenPartition>),
}

impl Out {
    fn text(&mut self, text: &str) -> io::Result<()> {
        match self {
            Out::Text(out) => out.write_all(text.as_bytes()),
            // The formats are chosen together: a table output gets rows only.
            Out::Rows { .. } | Out::Parquet(_) | Out::Partitioned(_) => Ok(()),
        }
    }

    fn row(&mut self, row: &Row) -> io::Result<()> {
        match self {
            Out::Text(_) => Ok(()),
            Out::Rows { out, columns, csv } => {
                let mut line = String::new();
                if *csv {
                    row.write_csv(*columns, &mut line);
                } else {
                    row.write_json(*columns, &mut line);
                }
                out.write_all(line.as_bytes())
            }
            Out::Parquet(out) => out.push(row).map_err(parquet_error),
            Out::Partitioned(out) => out.push(row).map_err(parquet_error),
        }
    }

    /// Writes a selected game (a text or a row; nothing for the others).
    fn selected(&mut self, selection: &Selection) -> io::Result<()> {
        match selection {
            Selection::Matched(text) => self.text(text),
            Selection::Row(row) => self.row(row),
            Selection::Unmatched
            | Selection::Broken(_)
            | Selection::Key(_)
            | Selection::Skipped => Ok(()),
        }
    }

    fn finish(self) -> io::Result<()> {
        match self {
            Out::Text(mut out) | Out::Rows { mut out, .. } => out.flush(),
            Out::Parquet(out) => out.finish().map_err(parquet_error)?.flush(),
            Out::Partitioned(out) => {
                for (_, mut file) in out.finish().map_err(parquet_error)? {
                    file.flush()?;
                }
                Ok(())
            }
        }
    }
}

/// Creates a partition's file under `-o DIR`.
type OpenPartition = Box<dyn FnMut(&Path) -> io::Result<BufWriter<File>>>;

fn open_partition(dir: &Path) -> OpenPartition {
    let dir = dir.to_owned();
    Box::new(move |file| {
        let path = dir.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        File::create(path).map(BufWriter::new)
    })
}

fn parquet_error(error: WriteParquetError) -> io::Error {
    match error {
        WriteParquetError::Io { path, source } => {
            io::Error::new(source.kind(), format!("{}: {source}", path.display()))
        }
        other => io::Error::other(other),
    }
}

/// Where the games and the broken ones go.
struct Sinks {
    out: Out,
    rejects: Option<BufWriter<File>>,
    report: Option<BufWriter<File>>,
}

/// The buffer of the games' output: a write call for each megabyte rather than each 8 KiB
/// (the default), which on a 50 MB rewrite was 7,000 calls on the thread that hands the games
/// out.
const OUT_BUFFER: usize = 1 << 20;

/// Opens where the games go: `output`, or stdout.
fn open_out(args: &SelectArgs, output: Option<&Path>) -> Result<Out, CliError> {
    let create =
        |path: &Path| File::create(path).map(|file| BufWriter::with_capacity(OUT_BUFFER, file));
    let columns = args.ply_columns.unwrap_or_default();
    let text = |output: Option<&Path>| -> io::Result<Box<dyn Write>> {
        Ok(match output {
            Some(path) => Box::new(create(path)?),
            None => Box::new(BufWriter::with_capacity(OUT_BUFFER, io::stdout().lock())),
        })
    };
    let parquet = matches!(args.format, FormatArg::Parquet);
    Ok(match (output, parquet, args.partition) {
        (Some(dir), true, true) => {
            Out::Partitioned(PartitionedParquet::new(columns, open_partition(dir)))
        }
        (output, true, _) => {
            let file: Box<dyn Write + Send> = match output {
                Some(path) => Box::new(create(path)?),
                None => Box::new(BufWriter::new(io::stdout())),
            };
            Out::Parquet(Box::new(
                ParquetWriter::new(file, columns).map_err(parquet_error)?,
            ))
        }
        (output, false, _) if args.format.is_table() => {
            let csv = matches!(args.format, FormatArg::Csv);
            let mut out = text(output)?;
            if csv {
                out.write_all(csv_header(columns).as_bytes())?;
            }
            Out::Rows { out, columns, csv }
        }
        (output, _, _) => Out::Text(text(output)?),
    })
}

/// The input files; stdin copied to a temporary file first when it is read twice.
struct Inputs {
    stdin_copy: Option<File>,
}

impl Inputs {
    fn new(files: &[PathBuf], twice: bool) -> Result<Inputs, CliError> {
        let stdin = files.iter().any(|path| path == Path::new("-"));
        let stdin_copy = if twice && stdin {
            let mut copy = tempfile::tempfile().map_err(CliError::Temporary)?;
            io::copy(&mut io::stdin().lock(), &mut copy).map_err(read_error(Path::new("-")))?;
            Some(copy)
        } else {
            None
        };
        Ok(Inputs { stdin_copy })
    }

    /// Opens a file from its start, or stdin (its copy) for `-`.
    fn open(&self, path: &Path) -> Result<Box<dyn Read + Send>, CliError> {
        match &self.stdin_copy {
            Some(copy) if path == Path::new("-") => {
                let mut copy = copy.try_clone().map_err(CliError::Temporary)?;
                copy.seek(SeekFrom::Start(0)).map_err(CliError::Temporary)?;
                Ok(Box::new(copy))
            }
            _ => open(path),
        }
    }
}

/// `--dedupe`'s first pass: the key of each game that passes the filters and the numbers, and
/// from them the repeats; and the number of each file's last game.
fn find_duplicates(
    args: &SelectArgs,
    options: &SelectOptions,
    numbers: Numbers,
    inputs: &Inputs,
    threads: usize,
) -> Result<(DuplicateGames<File>, Vec<u64>), CliError> {
    let same = if args.same_tags {
        Same::MovesAndTags
    } else {
        Same::Moves
    };
    let options = SelectOptions {
        format: Format::Key(same),
        ..options.clone()
    };
    let mut finder = DuplicateFinder::new(args.dedupe_memory.get(), tempfile::tempfile);
    let progress = Progress::new();
    let mut n = 0;
    let mut last_games = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let input = inputs.open(path)?;
        let (input, _) = decompress(progress.reader(input)).map_err(read_error(path))?;
        let mut pushed = Ok(());
        // A keyed game waits for the next game's start, where its bytes end.
        let mut waiting: Option<(u64, u64, GameKey)> = None;
        select(input, &options, threads, |game| {
            if let Some((number, start, key)) = waiting.take() {
                pushed = finder.push(number, start..game.offset, key);
            }
            n += 1;
            if pushed.is_err() || numbers.is_past(n) {
                return ControlFlow::Break(());
            }
            if let Selection::Key(key) = game.selection
                && numbers.takes(n)
            {
                waiting = Some((n, game.offset, key));
            }
            ControlFlow::Continue(())
        })
        .map_err(read_error(path))?;
        if let Some((number, start, key)) = waiting
            && pushed.is_ok()
        {
            pushed = finder.push(number, start..u64::MAX, key);
        }
        pushed.map_err(CliError::Temporary)?;
        last_games.push(n);
        if numbers.is_past(n) {
            break;
        }
    }
    progress.finish();
    // Files not read (past `--games`) hold no game that counts.
    last_games.resize(args.files.len(), n);
    let games = finder.finish().map_err(CliError::Temporary)?;
    Ok((games, last_games))
}

/// Runs `caissa pgn select`.
///
/// # Errors
///
/// [`CliError::Read`] when a file cannot be read, [`CliError::Write`] when an output cannot be
/// written, [`CliError::Stopped`] when `--on-error stop` stopped.
pub(crate) fn run(args: &SelectArgs) -> Result<(), CliError> {
    let options = SelectOptions {
        filter: Filter::all(args.filters.iter().cloned()),
        strip: args.strip.unwrap_or_default(),
        ply_count: args.ply_count,
        openings: args.openings,
        fen_comments: args.fen_comments,
        fix_result: args.fix_result,
        lenient: args.lenient,
        tag_value: None,
        format: match args.format {
            FormatArg::Pgn => Format::Pgn,
            FormatArg::Uci => Format::Uci,
            FormatArg::Lan => Format::Lan,
            FormatArg::San => Format::San,
            FormatArg::Fen => Format::Fen,
            FormatArg::Epd => Format::Epd,
            FormatArg::Ndjson | FormatArg::Csv | FormatArg::Parquet => {
                Format::Row(args.ply_columns.unwrap_or_default())
            }
        },
        game: GameFilter {
            ending: args.ending,
            contains: args.contains.clone(),
            min_plies: args.min_plies,
            max_plies: args.max_plies,
            position: args
                .position
                .as_deref()
                .map(read_position_either)
                .transpose()?,
            moves: args.moves.clone().map(|m| m.0).unwrap_or_default(),
            material: args.material,
            pattern: args.pattern,
        },
        invert: args.invert,
    };
    let numbers = Numbers {
        range: args.games.unwrap_or((1, u64::MAX)),
        every: args.every.map_or(1, |n| n.get() as u64),
        limit: args.limit.unwrap_or(u64::MAX),
        sample: args
            .sample
            .map(|fraction| Sample::new(fraction, args.seed))
            .transpose()
            .map_err(|e| CliError::Arg {
                arg: "sample",
                problem: e.to_string(),
            })?,
    };
    let threads = threads_or_all(args.threads);
    let parquet = matches!(args.format, FormatArg::Parquet);
    if args.partition && !parquet {
        return Err(CliError::Arg {
            arg: "partition",
            problem: "needs --format parquet".to_owned(),
        });
    }
    if args.ply_columns.is_some() && !args.format.is_table() {
        return Err(CliError::Arg {
            arg: "ply-columns",
            problem: "needs --format ndjson, csv or parquet".to_owned(),
        });
    }
    if !matches!(args.format, FormatArg::Pgn) && args.on_error == OnError::Keep {
        return Err(CliError::Arg {
            arg: "on-error",
            problem: "keep writes broken games as PGN: only with --format pgn".to_owned(),
        });
    }
    for (arg, path) in [
        ("output", &args.output),
        ("rejects", &args.rejects),
        ("report", &args.report),
        ("duplicates", &args.duplicates),
    ] {
        if let Some(path) = path {
            refuse_overwriting_input(arg, path, &args.files)?;
        }
    }
    let inputs = Inputs::new(&args.files, args.dedupe)?;
    let dedupe = if args.dedupe {
        let (games, last_games) = find_duplicates(args, &options, numbers, &inputs, threads)?;
        let side = args
            .duplicates
            .as_deref()
            .map(|path| open_out(args, Some(path)))
            .transpose()?;
        Some(Dedupe {
            games: Some(games),
            side,
            last_games,
        })
    } else {
        None
    };
    let out = open_out(args, args.output.as_deref())?;
    let create = |path: &Path| File::create(path).map(BufWriter::new);
    let sinks = Sinks {
        out,
        rejects: args.rejects.as_deref().map(create).transpose()?,
        report: args.report.as_deref().map(create).transpose()?,
    };
    let mut writer = Writer {
        on_error: args.on_error,
        numbers,
        sinks,
        dedupe,
        counts: Counts::default(),
        progress: Progress::new(),
    };
    let mut result = Ok(());
    for (index, path) in args.files.iter().enumerate() {
        match writer.select_file(index, path, &inputs, &options, threads) {
            Ok(ControlFlow::Continue(())) => {}
            Ok(ControlFlow::Break(Stop::Done)) => break,
            Ok(ControlFlow::Break(Stop::AtError)) => {
                result = Err(CliError::Stopped);
                break;
            }
            Err(error) => {
                result = Err(error);
                break;
            }
        }
    }
    let Writer {
        sinks,
        dedupe,
        counts,
        progress,
        ..
    } = writer;
    progress.finish();
    let Sinks {
        out,
        mut rejects,
        mut report,
    } = sinks;
    let mut finished = out.finish();
    if let Some(side) = dedupe.and_then(|dedupe| dedupe.side) {
        finished = finished.and(side.finish());
    }
    for file in [&mut rejects, &mut report].into_iter().flatten() {
        file.flush()?;
    }
    let Counts {
        games,
        matched,
        written,
        errors,
        duplicates,
    } = counts;
    if args.dedupe {
        eprintln!("duplicates {duplicates}");
    }
    eprintln!("games {games} matched {matched} written {written} errors {errors}");
    result.and(finished.map_err(CliError::Write))
}

/// `--games`, `--every`, `--limit`, `--sample`.
#[derive(Clone, Copy, Debug)]
struct Numbers {
    range: (u64, u64),
    every: u64,
    limit: u64,
    sample: Option<Sample>,
}

impl Numbers {
    /// Whether game `n` (over all files) is past `--games`, and so every game after it.
    const fn is_past(&self, n: u64) -> bool {
        n > self.range.1
    }

    /// Whether game `n` is in `--games`, `--every` and `--sample`.
    fn takes(&self, n: u64) -> bool {
        n >= self.range.0
            && n <= self.range.1
            && n.is_multiple_of(self.every)
            && self.sample.is_none_or(|sample| sample.contains(n))
    }
}

/// `--dedupe`'s second pass: which games are repeats, and where they go.
///
/// Without a side file the repeats are not written at all: the second pass skips them
/// (by where they start, which the first pass noted), so that only the games written are
/// replayed again. With one, every game is read and each is asked about by its number.
struct Dedupe {
    /// The repeats (`None` only while a file is read, skipping them).
    games: Option<DuplicateGames<File>>,
    side: Option<Out>,
    /// The number of each file's last game.
    last_games: Vec<u64>,
}

/// Why reading stopped before the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// Past `--games` or at `--limit`: nothing more to write.
    Done,
    /// `--on-error stop` met a broken game.
    AtError,
}

/// Takes the games of every file in order: counts them, writes them where they go.
struct Writer {
    on_error: OnError,
    numbers: Numbers,
    sinks: Sinks,
    dedupe: Option<Dedupe>,
    counts: Counts,
    progress: Progress,
}

impl Writer {
    /// Selects the games of one file, the `index`th.
    fn select_file(
        &mut self,
        index: usize,
        path: &Path,
        inputs: &Inputs,
        options: &SelectOptions,
        threads: usize,
    ) -> Result<ControlFlow<Stop>, CliError> {
        let input = self.progress.reader(inputs.open(path)?);
        let (input, _) = decompress(input).map_err(read_error(path))?;
        // Repeats that go nowhere are skipped: read, not replayed.
        let mut skipping = match &mut self.dedupe {
            Some(Dedupe {
                games,
                side: None,
                last_games,
            }) => games.take().map(|games| (games, last_games[index])),
            _ => None,
        };
        let mut number = 0;
        let mut outcome = Ok(ControlFlow::Continue(()));
        let skip = |bytes: Range<u64>| match &mut skipping {
            Some((games, last)) => games.starts_before(*last, bytes.end),
            None => Ok(Vec::new()),
        };
        let read = select_skipping(input, options, threads, skip, |game| {
            number += 1;
            self.progress.game();
            outcome = self.take(game, path, number);
            match outcome {
                Ok(ControlFlow::Continue(())) => ControlFlow::Continue(()),
                _ => ControlFlow::Break(()),
            }
        });
        if let (Some(dedupe), Some((games, _))) = (&mut self.dedupe, skipping) {
            dedupe.games = Some(games);
        }
        read.map_err(read_error(path))?;
        outcome.map_err(CliError::Write)
    }

    /// Writes one game (the `number`th of its file) where it goes, and counts it.
    fn take(&mut self, game: InputGame, path: &Path, number: u64) -> io::Result<ControlFlow<Stop>> {
        let (counts, sinks, numbers) = (&mut self.counts, &mut self.sinks, self.numbers);
        if numbers.limit == 0 {
            return Ok(ControlFlow::Break(Stop::Done));
        }
        counts.games += 1;
        let n = counts.games;
        if numbers.is_past(n) {
            counts.games -= 1;
            return Ok(ControlFlow::Break(Stop::Done));
        }
        if !numbers.takes(n) {
            return Ok(ControlFlow::Continue(()));
        }
        if !matches!(game.selection, Selection::Broken(_)) {
            warn_each(path, &game.warnings);
        }
        match game.selection {
            Selection::Unmatched | Selection::Key(_) => {}
            Selection::Skipped => {
                // Only repeats are skipped.
                counts.matched += 1;
                counts.duplicates += 1;
            }
            Selection::Matched(_) | Selection::Row(_) => {
                counts.matched += 1;
                let repeat = match &mut self.dedupe {
                    Some(Dedupe {
                        games: Some(games), ..
                    }) => games.contains(n)?,
                    _ => false,
                };
                let out = if repeat {
                    counts.duplicates += 1;
                    self.dedupe.as_mut().and_then(|dedupe| dedupe.side.as_mut())
                } else {
                    counts.written += 1;
                    Some(&mut sinks.out)
                };
                if let Some(out) = out {
                    out.selected(&game.selection)?;
                }
            }
            Selection::Broken(broken) => {
                counts.errors += 1;
                eprintln!(
                    "{}:{}: {}",
                    path.display(),
                    broken.error.location,
                    broken.error.kind
                );
                if let Some(rejects) = &mut sinks.rejects {
                    rejects.write_all(&broken.bytes)?;
                }
                if let Some(report) = &mut sinks.report {
                    let line = serde_json::json!({
                        "file": path.display().to_string(),
                        "line": broken.error.location.line,
                        "column": broken.error.location.column,
                        "offset": broken.offset,
                        "game": number,
                        "message": broken.error.kind.to_string(),
                    });
                    writeln!(report, "{line}")?;
                }
                match self.on_error {
                    OnError::Skip => {}
                    OnError::Keep => {
                        counts.written += 1;
                        if let Out::Text(out) = &mut sinks.out {
                            out.write_all(&broken.bytes)?;
                        }
                    }
                    OnError::Stop => return Ok(ControlFlow::Break(Stop::AtError)),
                }
            }
        }
        Ok(if counts.written >= numbers.limit {
            ControlFlow::Break(Stop::Done)
        } else {
            ControlFlow::Continue(())
        })
    }
}
