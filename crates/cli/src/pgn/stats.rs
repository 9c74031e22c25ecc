//! `caissa pgn stats`: counts of the games of the files by result, termination, speed, ECO
//! family and Elo band (`caissa_pgntools::stats`), as a table or JSON.

use std::io::Write;
use std::path::PathBuf;

use caissa_pgntools::input::decompress;
use caissa_pgntools::stats::{Stats, read_stats_reporting};
use clap::Args;
use serde_json::{Map, Value, json};

use super::progress::Progress;
use super::{open, read_error};
use crate::error::CliError;

/// Arguments of `caissa pgn stats`.
#[derive(Debug, Args)]
pub(super) struct StatsArgs {
    /// The PGN files (`-` for stdin), plain or compressed (zstd, gzip, bzip2).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// One JSON object instead of the table.
    #[arg(long)]
    json: bool,
}

/// The categories, in the order printed, with their names in the table and in JSON.
fn categories(stats: &Stats) -> [(&'static str, &std::collections::BTreeMap<String, u64>); 5] {
    [
        ("result", &stats.results),
        ("termination", &stats.terminations),
        ("speed", &stats.speeds),
        ("eco", &stats.eco_families),
        ("elo", &stats.elo_bands),
    ]
}

/// Counts the games of every file and prints the counts of all of them together.
pub(super) fn run(args: &StatsArgs, out: &mut impl Write) -> Result<(), CliError> {
    let mut total = Stats::default();
    let progress = Progress::new();
    for path in &args.files {
        let (input, _) = decompress(progress.reader(open(path)?)).map_err(read_error(path))?;
        let report = |error: &caissa::notation::pgn::PgnError| {
            eprintln!("{}:{}: {}", path.display(), error.location, error.kind);
        };
        total.merge(&read_stats_reporting(input, report).map_err(read_error(path))?);
    }
    progress.finish();
    if args.json {
        let mut object = Map::new();
        object.insert("games".to_owned(), json!(total.games));
        object.insert("errors".to_owned(), json!(total.errors));
        for (name, counts) in categories(&total) {
            object.insert(name.to_owned(), json!(counts));
        }
        writeln!(out, "{}", Value::Object(object))?;
        return Ok(());
    }
    writeln!(out, "games {} errors {}", total.games, total.errors)?;
    for (name, counts) in categories(&total) {
        writeln!(out, "\n{name}")?;
        let mut rows: Vec<_> = counts.iter().collect();
        // The largest first; ties in the map's order.
        rows.sort_by(|a, b| b.1.cmp(a.1));
        let width = rows.iter().map(|(key, _)| key.len()).max().unwrap_or(0);
        for (key, n) in rows {
            let percent = 100.0 * *n as f64 / total.games.max(1) as f64;
            writeln!(out, "  {key:<width$}  {n:>10}  {percent:5.1}%")?;
        }
    }
    Ok(())
}
