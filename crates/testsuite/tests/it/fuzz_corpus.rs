//! Replays the fuzz corpora in `fuzz/corpus/<target>/` through the checks the fuzz targets run
//! (`fuzz_checks::TARGETS`), so every seed and every crash input found so far is a regression
//! test under `cargo test`; and checks that the targets, their `fuzz/Cargo.toml` entries, their
//! corpora and their checks agree.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use caissa_movegen::{CastlingMode, Position};
use caissa_notation::fen::Fen;
use caissa_testsuite::fuzz_checks::TARGETS;
use caissa_testsuite::fuzz_checks::position::{self, setup_from_bytes, setup_to_bytes};
use caissa_testsuite::{PerftCase, parse_perft_suite, read_data};

/// The `fuzz/` folder.
fn fuzz_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The names of the entries of `dir`, without the extension `ext` when one is given (other
/// entries are left out then).
fn names_in(dir: &Path, ext: Option<&str>) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| ext.is_none_or(|ext| path.extension().is_some_and(|e| e == ext)))
        .map(|path| {
            let name = if ext.is_some() {
                path.file_stem()
            } else {
                path.file_name()
            };
            name.expect("a file name").to_string_lossy().into_owned()
        })
        .collect()
}

/// Runs `check` on every file of `fuzz/corpus/<target>/`, naming the file that fails.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = fuzz_dir().join("corpus").join(target);
    let files = names_in(&dir, None);
    assert!(!files.is_empty(), "{} is empty", dir.display());
    for name in files {
        let path = dir.join(name);
        let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(panic) = std::panic::catch_unwind(|| check(&data)) {
            eprintln!("corpus file {} fails", path.display());
            std::panic::resume_unwind(panic);
        }
    }
}

#[test]
fn every_corpus_replays() {
    for &(target, check) in TARGETS {
        replay(target, check);
    }
}

/// Every target in `fuzz/fuzz_targets/` has a check in [`TARGETS`], a `[[bin]]` in
/// `fuzz/Cargo.toml` calling it, and a corpus; and there is nothing else.
#[test]
fn targets_checks_and_corpora_agree() {
    let fuzz = fuzz_dir();
    let checks: BTreeSet<String> = TARGETS.iter().map(|&(name, _)| name.to_owned()).collect();
    assert_eq!(checks.len(), TARGETS.len(), "a target is listed twice");
    assert_eq!(names_in(&fuzz.join("fuzz_targets"), Some("rs")), checks);
    assert_eq!(names_in(&fuzz.join("corpus"), None), checks);
    let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    for name in &checks {
        let bin = format!("name = \"{name}\"\npath = \"fuzz_targets/{name}.rs\"");
        assert!(
            manifest.contains(&bin),
            "fuzz/Cargo.toml has no [[bin]] {name}"
        );
        let source = std::fs::read_to_string(fuzz.join(format!("fuzz_targets/{name}.rs")))
            .expect("the target's source");
        let call = format!("fuzz_checks::{name}::check(data)");
        assert!(
            source.contains(&call),
            "fuzz_targets/{name}.rs does not call {call}"
        );
    }
}

/// The positions of a perft suite (every `step`-th line), validated in `mode`.
fn suite_positions(suite: &str, mode: CastlingMode, step: usize) -> Vec<Position> {
    parse_perft_suite(&read_data(suite))
        .into_iter()
        .step_by(step)
        .map(|PerftCase { fen, line, .. }| {
            fen.parse::<Fen>()
                .unwrap_or_else(|e| panic!("{suite}:{line}: {e}"))
                .into_position(mode)
                .unwrap_or_else(|e| panic!("{suite}:{line}: {e}"))
        })
        .collect()
}

/// The position target's byte format expresses every position of the perft suites (counters
/// aside, which it clamps), and the checks pass on them.
#[test]
fn position_format_round_trips_perft_positions() {
    let positions = [
        suite_positions("perft/standard.epd", CastlingMode::Standard, 1),
        suite_positions("perft/random-d4.epd", CastlingMode::Standard, 200),
        suite_positions("perft/chess960-random-d4.epd", CastlingMode::Chess960, 50),
        suite_positions("perft/chess960-starts-d5.epd", CastlingMode::Chess960, 96),
    ];
    let mut checked = 0;
    for pos in positions.iter().flatten() {
        let setup = pos.to_setup();
        let bytes = setup_to_bytes(&setup, pos.castling_mode());
        assert_eq!(setup_from_bytes(&bytes), (setup, pos.castling_mode()));
        position::check(&bytes);
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} positions checked");
}
