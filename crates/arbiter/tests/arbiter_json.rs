//! Event logs in JSON lines (`tests/logs/*.jsonl`) replayed to their JSON verdicts, as
//! `caissa arbitrate` prints them (feature `serde`, which the CLI enables).

#![cfg(feature = "serde")]

use std::fs;
use std::path::Path;

use caissa_arbiter::json::{arbitrate, verdict_to_json};

#[test]
fn logs_give_their_verdicts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/logs");
    let mut paths: Vec<_> = fs::read_dir(&dir)
        .expect("tests/logs")
        .map(|entry| entry.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 5);
    for path in paths {
        let text = fs::read_to_string(&path).expect("a log");
        let (verdict, lines) =
            arbitrate(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Replaying again gives the same verdict.
        assert_eq!(arbitrate(&text).expect("again").0, verdict);
        let json = verdict_to_json(&verdict, Some(&lines));
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        insta::assert_snapshot!(name, serde_json::to_string_pretty(&json).expect("JSON"));
    }
}
