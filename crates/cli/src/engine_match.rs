//! `caissa match`: engine tournaments judged by the Laws, on `caissa_match`.
//!
//! The command line is a contract scripts rely on. `--engine KEY=VALUE...` once per engine
//! (`cmd=PATH` required; `name=`, `arg=` repeatable, `dir=`, `option.NAME=VALUE`, and limits
//! `tc=`, `nodes=`, `depth=`, `movetime=`), `--each KEY=VALUE...` for all of them; `--tc`
//! (the time control of engines without their own `tc=`: engines may play at time odds, and
//! each keeps its control with either colour; without one, each engine needs a limit),
//! `--games` (per pairing, colours alternating on each opening), `--concurrency`,
//! `--openings FILE` (EPD, or PGN by its extension), `--pgn OUT`, `--sprt`, `--draw`,
//! `--resign`, `--max-moves`, `--json`.
//!
//! Output: a progress line per finished game on stderr (a JSON object per game on stdout with
//! `--json`), and at the end, on stdout, for each pairing
//! `result <name1> vs <name2>: wins <W> draws <D> losses <L> elo <E> +- <M>` from the first
//! engine's side; with more than two engines a table follows. The PGN file is appended to, and a
//! match started again with the same arguments skips the games it already holds (by `Round`,
//! the game's number in the schedule), so an interrupted match resumes.
//!
//! This is the only place the match reads a clock: a monotonic `Instant`, in microseconds, given
//! to the runner.

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use caissa::{Move, Position};
use caissa_arbiter::{PgnTimeControl, TimeControl};
use caissa_game::GameResult;
use caissa_match::openings::{Openings, Order};
use caissa_match::referee::{DrawRule, Limits, ResignRule, Settings};
use caissa_match::runner::{self, EngineConfig, GameReport, MatchConfig};
use caissa_match::schedule::{Format, Schedule, Scheduled};
use caissa_match::sprt::{Decision, Sprt};
use caissa_match::stats::{Score, Tally};
use caissa_notation::pgn::{GameTreeBuilder, Reader};
use caissa_uci::client::Stamp;
use clap::Args;

use crate::error::CliError;

/// Arguments of `caissa match`.
#[derive(Debug, Args)]
pub(crate) struct MatchArgs {
    /// An engine, as KEY=VALUE words: cmd=PATH (required), name=, arg= (repeatable), dir=,
    /// option.NAME=VALUE, tc=, nodes=, depth=, movetime=. Once per engine.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE", required = true)]
    engine: Vec<String>,
    /// The words of each `--engine`, one list per occurrence ([`MatchArgs::group_engines`]).
    #[arg(skip)]
    engines: Vec<Vec<String>>,
    /// KEY=VALUE words for every engine (an engine's own words come after).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// The time control, in the PGN TimeControl syntax (10+0.1, 40/5400+30:1800+30, 300d5), of
    /// every engine without its own tc= (time odds).
    #[arg(long)]
    tc: Option<String>,
    /// Games per pairing; the colours alternate on each opening.
    #[arg(long, default_value_t = 2)]
    games: u64,
    /// Games played at once (default: the cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// The first engine against each of the others, instead of a round robin.
    #[arg(long)]
    gauntlet: bool,
    /// Openings: an EPD file, or a PGN file (by its .pgn extension); one opening per pair of games.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Shuffle the openings with this seed (sequential without it).
    #[arg(long)]
    seed: Option<u64>,
    /// Cut each opening after this many plies.
    #[arg(long)]
    plies: Option<usize>,
    /// Append the games to this PGN file, and skip the games it already holds.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Stop when the test decides: elo0=E0 elo1=E1 alpha=A beta=B [model=logistic|normalized].
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    sprt: Vec<String>,
    /// Draw adjudication: movenumber=N movecount=C score=S.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    draw: Vec<String>,
    /// Resign adjudication: movecount=C score=S.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Vec<String>,
    /// A draw once the game has this many moves.
    #[arg(long)]
    max_moves: Option<u32>,
    /// Do not claim threefold repetitions and fifty moves for the engines (the fivefold and
    /// 75-move rules still end the game).
    #[arg(long)]
    no_claims: bool,
    /// Milliseconds of each move not charged to the engine (process latency).
    #[arg(long, default_value_t = 0)]
    margin: u64,
    /// Milliseconds to wait for an engine when no clock decides (start, isready, a search on
    /// limits alone).
    #[arg(long, default_value_t = 10_000)]
    timeout: u64,
    /// The PGN Event tag.
    #[arg(long, default_value = "caissa match")]
    event: String,
    /// A JSON object per finished game on stdout instead of the progress line on stderr.
    #[arg(long)]
    json: bool,
}

impl MatchArgs {
    /// Splits `--engine`'s words by occurrence, which the derived parser flattens.
    pub(crate) fn group_engines(&mut self, matches: &clap::ArgMatches) {
        if let Ok(Some(occurrences)) = matches.try_get_occurrences::<String>("engine") {
            self.engines = occurrences.map(|words| words.cloned().collect()).collect();
        }
    }
}

fn arg_error(arg: &'static str, problem: impl Into<String>) -> CliError {
    CliError::Arg {
        arg,
        problem: problem.into(),
    }
}

fn number<T: std::str::FromStr>(arg: &'static str, key: &str, value: &str) -> Result<T, CliError> {
    value
        .parse()
        .map_err(|_| arg_error(arg, format!("{key}={value}: not a number in range")))
}

fn time_control(arg: &'static str, text: &str) -> Result<Option<TimeControl>, CliError> {
    match TimeControl::from_pgn(text) {
        Ok(PgnTimeControl::Control(tc)) => Ok(Some(tc)),
        Ok(_) => Ok(None),
        Err(e) => Err(arg_error(arg, format!("{text}: {e}"))),
    }
}

/// One `--engine`, with `--each` first.
fn engine(
    words: impl Iterator<Item = String>,
    index: usize,
) -> Result<(EngineConfig, Option<Option<TimeControl>>), CliError> {
    let mut config = EngineConfig::default();
    let mut program = None;
    let mut tc = None;
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| arg_error("engine", format!("{word}: expected KEY=VALUE")))?;
        match key {
            "cmd" => program = Some(PathBuf::from(value)),
            "name" => config.name = value.to_owned(),
            "arg" => config.command.args.push(value.to_owned()),
            "dir" => config.command.dir = Some(PathBuf::from(value)),
            "tc" => tc = Some(time_control("engine", value)?),
            "nodes" => config.limits.nodes = Some(number("engine", key, value)?),
            "depth" => config.limits.depth = Some(number("engine", key, value)?),
            "movetime" => config.limits.movetime = Some(number("engine", key, value)?),
            _ => match key.strip_prefix("option.") {
                Some(name) if !name.trim().is_empty() => {
                    config
                        .options
                        .push((name.to_owned(), Some(value.to_owned())));
                }
                _ => return Err(arg_error("engine", format!("{word}: unknown key {key}"))),
            },
        }
    }
    config.command.program = program
        .ok_or_else(|| arg_error("engine", format!("engine {}: cmd= is required", index + 1)))?;
    if config.name.is_empty() {
        config.name = config.command.program.file_name().map_or_else(
            || format!("engine{}", index + 1),
            |n| n.to_string_lossy().into_owned(),
        );
    }
    Ok((config, tc))
}

/// `key=value` words of `--draw` / `--resign` into their numbers.
fn rule_values(arg: &'static str, words: &[String], keys: &[&str]) -> Result<Vec<i64>, CliError> {
    let mut values = vec![None; keys.len()];
    for word in words {
        let (key, value) = word.split_once('=').unwrap_or((word, ""));
        let at = keys.iter().position(|k| *k == key).ok_or_else(|| {
            arg_error(arg, format!("{word}: expected {}", keys.join("=, ") + "="))
        })?;
        values[at] = Some(number::<i64>(arg, key, value)?);
    }
    values
        .into_iter()
        .zip(keys)
        .map(|(v, k)| {
            v.filter(|v| *v >= 0)
                .ok_or_else(|| arg_error(arg, format!("{k}= is required and not negative")))
        })
        .collect()
}

fn small<T: TryFrom<i64>>(arg: &'static str, v: i64) -> Result<T, CliError> {
    T::try_from(v).map_err(|_| arg_error(arg, format!("{v} is too large")))
}

/// A finished game of a PGN file from an earlier run.
struct Finished {
    white: String,
    black: String,
    result: GameResult,
    /// Where it started, and its moves.
    start: Position,
    moves: Vec<Move>,
}

impl Finished {
    /// Whether this is `game` of the schedule: the same players, and its opening's start and
    /// moves (a file another tool wrote may number its games otherwise).
    fn is(&self, game: &Scheduled, names: &[String], openings: &Openings) -> bool {
        let opening = openings.get(game.opening);
        self.white == names[game.white]
            && self.black == names[game.black]
            // (The men and the side to move: the castling convention the file was read in
            // may differ from the book's.)
            && self.start.board() == opening.start.board()
            && self.start.turn() == opening.start.turn()
            && self.moves.starts_with(&opening.moves)
    }
}

/// The games a PGN file from an earlier run holds, by game number (its `Round`, from 1; a
/// number given twice, the last).
fn finished_games(text: &[u8]) -> BTreeMap<u64, Finished> {
    let mut done = BTreeMap::new();
    for tree in Reader::new(text).games(&mut GameTreeBuilder).flatten() {
        let tag = |name| tree.tags.get(name).unwrap_or("").to_owned();
        let result = match tag("Result").as_str() {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" => GameResult::Draw,
            _ => continue,
        };
        let Ok(start) = tree.start_position() else {
            continue;
        };
        let moves = tree
            .mainline_moves()
            .map_while(|node| node.ok()?.played)
            .collect();
        if let Some(round) = tag("Round").parse::<u64>().ok().filter(|&r| r > 0) {
            let finished = Finished {
                white: tag("White"),
                black: tag("Black"),
                result,
                start,
                moves,
            };
            done.insert(round - 1, finished);
        }
    }
    done
}

/// The first engine's score of a game of its pairing.
fn score(first_is_white: bool, result: GameResult) -> Score {
    match (result.winner(), result) {
        (Some(caissa_board::Color::White), _) if first_is_white => Score::Win,
        (Some(caissa_board::Color::Black), _) if !first_is_white => Score::Win,
        (Some(_), _) => Score::Loss,
        _ => Score::Draw,
    }
}

fn result_line(names: (&str, &str), t: &Tally) -> String {
    let (elo, margin) = t.elo();
    format!(
        "result {} vs {}: wins {} draws {} losses {} elo {elo:.1} +- {margin:.1}",
        names.0, names.1, t.wins, t.draws, t.losses
    )
}

/// The microseconds from the end of the game's parsing to now, on a monotonic clock.
fn stamp() -> Stamp {
    let start = Instant::now();
    Arc::new(move || u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX))
}

/// This process's CPU time in seconds (user and system), from /proc on Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

/// Runs the match.
pub(crate) fn run(args: &MatchArgs) -> Result<(), CliError> {
    let time_control = match &args.tc {
        Some(text) => time_control("tc", text)?,
        None => None,
    };
    let mut engines = Vec::new();
    for (index, words) in args.engines.iter().enumerate() {
        let (mut config, own) = engine(args.each.iter().chain(words).cloned(), index)?;
        config.time_control = own.unwrap_or_else(|| time_control.clone());
        engines.push(config);
    }
    if let (Some(timed), Some(untimed)) = (
        engines.iter().find(|e| e.time_control.is_some()),
        engines.iter().find(|e| e.time_control.is_none()),
    ) {
        return Err(arg_error(
            "engine",
            format!(
                "{} has a time control and {} none: give tc= to each engine, or --tc",
                timed.name, untimed.name
            ),
        ));
    }
    if engines.len() < 2 {
        return Err(arg_error("engine", "a match needs two engines or more"));
    }
    let mut names: Vec<String> = Vec::new();
    for e in &engines {
        if names.contains(&e.name) {
            return Err(arg_error(
                "engine",
                format!("two engines are named {}: give name=", e.name),
            ));
        }
        names.push(e.name.clone());
    }
    // Without clocks, each engine's limits end its searches: a bare `go` would not.
    let timed = engines.iter().any(|e| e.time_control.is_some());
    if !timed && engines.iter().all(|e| e.limits == Limits::default()) {
        return Err(arg_error(
            "tc",
            "give a time control (--tc) or limits (nodes=, depth=, movetime=)",
        ));
    }
    if !timed && let Some(unlimited) = engines.iter().find(|e| e.limits == Limits::default()) {
        return Err(arg_error(
            "engine",
            format!(
                "{} has neither a time control nor a limit: give it nodes=, depth= or \
                 movetime=, or give --tc",
                unlimited.name
            ),
        ));
    }
    let draw = if args.draw.is_empty() {
        None
    } else {
        let v = rule_values("draw", &args.draw, &["movenumber", "movecount", "score"])?;
        Some(DrawRule {
            move_number: small("draw", v[0])?,
            move_count: small("draw", v[1])?,
            score: small("draw", v[2])?,
        })
    };
    let resign = if args.resign.is_empty() {
        None
    } else {
        let v = rule_values("resign", &args.resign, &["movecount", "score"])?;
        Some(ResignRule {
            move_count: small("resign", v[0])?,
            score: small("resign", v[1])?,
        })
    };
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        Some(
            Sprt::from_tokens(args.sprt.iter().map(String::as_str))
                .map_err(|e| arg_error("sprt", e.to_string()))?,
        )
    };
    // The test is of one pairing's results.
    if sprt.is_some() && engines.len() > 2 {
        return Err(arg_error("sprt", "needs exactly two engines"));
    }
    let mut openings = match &args.openings {
        None => Openings::from_vec(Vec::new()),
        Some(path) => {
            let bytes = fs::read(path).map_err(|source| CliError::Read {
                path: path.clone(),
                source,
            })?;
            let pgn = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
            let book = if pgn {
                Openings::from_pgn(&bytes)
            } else {
                Openings::from_epd(&String::from_utf8_lossy(&bytes))
            };
            book.map_err(|e| arg_error("openings", format!("{}: {e}", path.display())))?
        }
    };
    if let Some(plies) = args.plies {
        openings = openings.limit(plies);
    }
    if let Some(seed) = args.seed {
        openings = openings.ordered(Order::Random(seed));
    }
    let format = if args.gauntlet {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    let schedule = Schedule::new(engines.len(), format, args.games);
    let config = MatchConfig {
        engines,
        schedule,
        openings,
        settings: Settings {
            time_control,
            claim_threefold: !args.no_claims,
            claim_fifty: !args.no_claims,
            draw,
            resign,
            max_moves: args.max_moves,
        },
        margin_ms: args.margin,
        timeout_ms: args.timeout,
        event: args.event.clone(),
    };

    let pairings = config.schedule.pairings().to_vec();
    let mut tallies = vec![Tally::default(); pairings.len()];
    let done = match &args.pgn {
        Some(path) if path.exists() => {
            let bytes = fs::read(path).map_err(|source| CliError::Read {
                path: path.clone(),
                source,
            })?;
            finished_games(&bytes)
        }
        _ => BTreeMap::new(),
    };
    // The games the PGN holds already, as the schedule has them (the same number, players
    // and opening), count; the others are played, taken from the schedule as threads come free.
    let held = |game: &Scheduled| {
        done.get(&game.number)
            .filter(|finished| finished.is(game, &names, &config.openings))
    };
    let mut resumed = 0;
    for &number in done.keys() {
        if let Some(game) = config.schedule.game(number)
            && let Some(&Finished { result, .. }) = held(&game)
        {
            let first_is_white = pairings[game.pairing].0 == game.white;
            tallies[game.pairing].add(game.game, score(first_is_white, result));
            resumed += 1;
        }
    }
    let decided = |tallies: &[Tally]| {
        sprt.filter(|_| pairings.len() == 1)
            .map(|s| s.decide(&tallies[0]))
            .filter(|d| *d != Decision::Continue)
    };
    let mut out_pgn = match &args.pgn {
        Some(path) => Some(
            fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|source| CliError::Read {
                    path: path.clone(),
                    source,
                })?,
        ),
        None => None,
    };
    let total = config.schedule.len();
    // The test's first decision stands: the games still running when it comes are counted,
    // but may move the ratio back between the bounds.
    let mut decision = decided(&tallies);
    let left = if decision.is_some() {
        0
    } else {
        total - resumed
    };
    let todo = config
        .schedule
        .iter()
        .filter(|game| held(game).is_none())
        .take(usize::try_from(left).unwrap_or(usize::MAX));
    // No more threads than games to play.
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .clamp(1, usize::try_from(left).unwrap_or(usize::MAX).max(1));
    let mut finished = resumed;
    let mut overhead: Vec<u64> = Vec::new();
    let mut failure = None;
    let clock = stamp();
    let started = Instant::now();
    let cpu_before = cpu_seconds();
    runner::run(&config, todo, concurrency, &clock, |report| {
        let report: GameReport = match report {
            Ok(report) => report,
            Err(e) => {
                failure = Some(arg_error("openings", e.to_string()));
                return false;
            }
        };
        finished += 1;
        let game = report.scheduled;
        let result = report.termination.result();
        let first_is_white = pairings[game.pairing].0 == game.white;
        let tally = &mut tallies[game.pairing];
        tally.add(game.game, score(first_is_white, result));
        overhead.extend(&report.overhead_us);
        if let Some(file) = &mut out_pgn
            && let Err(e) = writeln!(file, "{}", report.pgn).and_then(|()| file.flush())
        {
            failure = Some(CliError::Write(e));
            return false;
        }
        let (first, second) = pairings[game.pairing];
        let (elo, margin) = tally.elo();
        if args.json {
            let line = serde_json::json!({
                "game": game.number + 1,
                "white": names[game.white],
                "black": names[game.black],
                "result": result.as_str(),
                "termination": report.termination.to_string(),
                "pairing": [names[first], names[second]],
                "wins": tally.wins, "draws": tally.draws, "losses": tally.losses,
                "elo": if elo.is_finite() { serde_json::json!(elo) } else { serde_json::Value::Null },
                "margin": if margin.is_finite() { serde_json::json!(margin) } else { serde_json::Value::Null },
                "los": tally.los(),
                "pentanomial": tally.pairs,
            });
            println!("{line}");
        } else {
            eprintln!(
                "game {finished}/{total} (round {}): {} vs {} {} {}; {} vs {}: {}-{}-{} elo {elo:.1} +- {margin:.1} los {:.1}% penta {:?}",
                game.number + 1,
                names[game.white],
                names[game.black],
                result.as_str(),
                report.termination,
                names[first],
                names[second],
                tally.wins,
                tally.losses,
                tally.draws,
                tally.los() * 100.0,
                tally.pairs,
            );
        }
        decision = decision.or_else(|| decided(&tallies));
        decision.is_none()
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if let Some(sprt) = sprt.filter(|_| pairings.len() == 1) {
        let llr = sprt.llr(&tallies[0]);
        match decision {
            Some(d) => eprintln!("sprt: {d} (llr {llr:.2})"),
            None => eprintln!("sprt: no decision (llr {llr:.2})"),
        }
    }
    overhead.sort_unstable();
    if !overhead.is_empty() {
        let at = |q: f64| overhead[((overhead.len() - 1) as f64 * q) as usize];
        eprintln!(
            "runner overhead per move: median {} us, p99 {} us, max {} us ({} moves)",
            at(0.5),
            at(0.99),
            at(1.0),
            overhead.len()
        );
    }
    if let (Some(before), Some(after)) = (cpu_before, cpu_seconds()) {
        let wall = started.elapsed().as_secs_f64();
        eprintln!(
            "runner cpu: {:.2} s in {wall:.1} s ({:.2}% of one core)",
            after - before,
            100.0 * (after - before) / wall.max(1e-9)
        );
    }
    let mut text = String::new();
    for (i, &(a, b)) in pairings.iter().enumerate() {
        text.push_str(&result_line((&names[a], &names[b]), &tallies[i]));
        text.push('\n');
    }
    if names.len() > 2 {
        // The table: each engine's points over all its games, ranked by their share of its
        // games (a gauntlet's first engine plays more games than the others).
        let mut points = vec![(0u64, 0u64); names.len()];
        for (i, &(a, b)) in pairings.iter().enumerate() {
            let t = &tallies[i];
            points[a].0 += 2 * t.wins + t.draws;
            points[b].0 += 2 * t.losses + t.draws;
            points[a].1 += t.games();
            points[b].1 += t.games();
        }
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by(|&x, &y| {
            let share = |i: usize| (u128::from(points[i].0), u128::from(points[i].1.max(1)));
            let ((hx, gx), (hy, gy)) = (share(x), share(y));
            (hy * gx).cmp(&(hx * gy))
        });
        text.push_str("rank name points games\n");
        for (rank, i) in order.into_iter().enumerate() {
            let (half, games) = points[i];
            text.push_str(&format!(
                "{} {} {}{} {games}\n",
                rank + 1,
                names[i],
                half / 2,
                if half % 2 == 1 { ".5" } else { "" }
            ));
        }
    }
    crate::print(&text)
}
