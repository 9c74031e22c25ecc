//! `caissa pgn stats`: its counts agree with the sample's tag lines counted independently
//! (a line scan, no PGN reader), in the table and in JSON, plain and gzip-compressed.

use std::collections::BTreeMap;
use std::io::Write as _;

use crate::{TempFile, caissa};

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/pgn/lichess-2025-05-sample.pgn"
);

/// How many games have each value of tag `name`, by scanning the lines `[name "value"]`.
fn tag_counts(text: &str, name: &str, key: impl Fn(&str) -> String) -> BTreeMap<String, u64> {
    let prefix = format!("[{name} \"");
    let mut counts = BTreeMap::new();
    for line in text.lines() {
        if let Some(value) = line
            .strip_prefix(&prefix)
            .and_then(|v| v.strip_suffix("\"]"))
        {
            *counts.entry(key(value)).or_default() += 1;
        }
    }
    counts
}

fn json_counts(json: &serde_json::Value, name: &str) -> BTreeMap<String, u64> {
    json[name]
        .as_object()
        .expect("an object of counts")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().expect("a count")))
        .collect()
}

#[test]
fn pgn_stats_agree_with_the_tag_lines() {
    let text = std::fs::read_to_string(SAMPLE).expect("the sample");
    let games = text.matches("[Event ").count() as u64;
    let run = caissa(&["pgn", "stats", "--json", SAMPLE]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(json["games"], games);
    assert_eq!(json["errors"], 0);
    // Every game of the sample has these tags.
    assert_eq!(
        json_counts(&json, "result"),
        tag_counts(&text, "Result", str::to_owned)
    );
    assert_eq!(
        json_counts(&json, "termination"),
        tag_counts(&text, "Termination", str::to_owned)
    );
    let mut eco = tag_counts(&text, "ECO", |code| {
        if code.len() == 3 {
            code[..1].to_owned()
        } else {
            "?".to_owned()
        }
    });
    let without = games - eco.values().sum::<u64>();
    if without > 0 {
        *eco.entry("?".to_owned()).or_default() += without;
    }
    assert_eq!(json_counts(&json, "eco"), eco);
    for name in ["speed", "elo"] {
        assert_eq!(
            json_counts(&json, name).values().sum::<u64>(),
            games,
            "{name}"
        );
    }

    // The table says the same, and so does the file compressed.
    let table = caissa(&["pgn", "stats", SAMPLE]);
    assert_eq!(table.code, 0);
    assert!(
        table
            .stdout
            .starts_with(&format!("games {games} errors 0\n\nresult\n"))
    );
    for (result, n) in json_counts(&json, "result") {
        assert!(
            table.stdout.lines().any(|l| {
                let words: Vec<_> = l.split_whitespace().collect();
                words.len() == 3 && words[0] == result && words[1] == n.to_string()
            }),
            "{result} {n}:\n{}",
            table.stdout
        );
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    let file = TempFile::new_bytes("stats.pgn.gz", &gz.finish().unwrap());
    let compressed = caissa(&["pgn", "stats", "--json", file.path()]);
    assert_eq!(compressed.stdout, run.stdout);
}

/// A game that cannot be read is counted and told on stderr with its place, as `pgn select`
/// tells it.
#[test]
fn broken_games_are_told_where() {
    let file = TempFile::new(
        "stats-broken.pgn",
        "[Result \"1-0\"]\n\n1. e4 1-0\n\n[Result \"1-0\"]\n[Bad tag\n\n1. e4 1-0\n",
    );
    let run = caissa(&["pgn", "stats", file.path()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("games 1 errors 1\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains(&format!("{}:6:6: ", file.path())),
        "{}",
        run.stderr
    );
}
