//! Prints a Markdown table of perft speeds, in millions of nodes per second, for caissa and its
//! peers on every workload of [`caissa_benches::WORKLOADS`].
//!
//! Each library runs each workload once to warm up (the count is checked against the known one),
//! then three timed runs (`--runs N` for another number); the best run is reported. The timed
//! runs take turns between the libraries, so a burst of load from elsewhere on the machine slows
//! one run of each rather than every run of one.
//!
//! ```text
//! cargo run --release -p caissa-benches --bin perft-table [-- --runs N]
//! ```

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use caissa_benches::{Library, WORKLOADS, Workload};

/// Timed runs per library and workload when `--runs` is not given; the best is kept.
const DEFAULT_RUNS: u32 = 3;

fn main() -> ExitCode {
    match runs_from_args().and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("perft-table: {message}");
            ExitCode::FAILURE
        }
    }
}

fn runs_from_args() -> Result<u32, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(DEFAULT_RUNS),
        [flag, n] if flag == "--runs" => match n.parse() {
            Ok(runs) if runs > 0 => Ok(runs),
            _ => Err(format!("--runs takes a positive number, not {n:?}")),
        },
        _ => Err("usage: perft-table [--runs N]".to_owned()),
    }
}

fn run(runs: u32) -> Result<(), String> {
    let mut rows = Vec::new();
    for workload in &WORKLOADS {
        let best = best_times(workload, runs)?;
        let mnps: Vec<f64> = best
            .iter()
            .map(|time| workload.nodes as f64 / time.as_secs_f64() / 1e6)
            .collect();
        for ((library, time), speed) in Library::ALL.iter().zip(&best).zip(&mnps) {
            eprintln!(
                "{} {library}: best {:.3} s, {speed:.1} Mnps",
                workload.id,
                time.as_secs_f64()
            );
        }
        rows.push((workload, mnps));
    }

    print!("| workload | nodes |");
    for library in Library::ALL {
        print!(" {library} |");
    }
    println!(" caissa / fastest peer |");
    println!("|---|---:|{}---:|", "---:|".repeat(Library::ALL.len()));
    for (workload, mnps) in rows {
        print!(
            "| {} depth {} | {} |",
            workload.id.split('-').next().unwrap_or(workload.id),
            workload.depth,
            grouped(workload.nodes)
        );
        for speed in &mnps {
            print!(" {speed:.1} |");
        }
        let fastest_peer = mnps[1..].iter().copied().fold(f64::NAN, f64::max);
        println!(" {:.2} |", mnps[0] / fastest_peer);
    }
    println!();
    println!(
        "Mnps, best of {runs} runs. Build: target feature bmi2 {}, popcnt {}.",
        on_off(cfg!(target_feature = "bmi2")),
        on_off(cfg!(target_feature = "popcnt")),
    );
    Ok(())
}

/// The best time of each library (in [`Library::ALL`] order) over `runs` timed runs, after one
/// warm-up run each that checks the count.
fn best_times(workload: &Workload, runs: u32) -> Result<Vec<Duration>, String> {
    let mut positions = Vec::new();
    for library in Library::ALL {
        let pos = library.setup(workload.fen).map_err(|e| e.to_string())?;
        let nodes = pos.perft(workload.depth);
        if nodes != workload.nodes {
            return Err(format!(
                "{library} counts {nodes} nodes for {}, expected {}",
                workload.id, workload.nodes
            ));
        }
        positions.push(pos);
    }
    let mut best = vec![Duration::MAX; positions.len()];
    for _ in 0..runs {
        for (pos, best) in positions.iter().zip(&mut best) {
            let start = Instant::now();
            black_box(black_box(pos).perft(black_box(workload.depth)));
            *best = (*best).min(start.elapsed());
        }
    }
    Ok(best)
}

/// `n` with commas between groups of three digits: `119,060,324`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn on_off(enabled: bool) -> &'static str {
    if enabled { "on" } else { "off" }
}
