//! `caissa pgn split`: files of N games that together are `pgn select`'s output, and files by
//! a tag's value holding exactly the games with that value (counted on the sample's tag lines).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::{Run, caissa};

const SAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/pgn/lichess-2025-05-sample.pgn"
);

/// A fresh directory in the temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("caissa-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("the temp dir is writable");
        TempDir(path)
    }

    fn files(&self) -> BTreeMap<String, String> {
        std::fs::read_dir(&self.0)
            .expect("the dir")
            .map(|entry| {
                let path = entry.expect("an entry").path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                (
                    name,
                    std::fs::read_to_string(&path).expect("a written file"),
                )
            })
            .collect()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `caissa pgn split` of `input` by `by` (`--games N` or `--by TAG`), the files under `prefix`.
fn split(by: &[&str], prefix: &Path, input: &str) -> Run {
    let prefix = prefix.to_str().expect("a UTF-8 temp path");
    caissa(&[&["pgn", "split"][..], by, &["-o", prefix, input]].concat())
}

#[test]
fn pgn_split_by_count_and_by_tag() {
    let text = std::fs::read_to_string(SAMPLE).expect("the sample");
    let games = text.matches("[Event ").count();
    let selected = caissa(&["pgn", "select", SAMPLE]);
    assert_eq!(selected.code, 0);

    let dir = TempDir::new("split-games");
    let prefix = dir.0.join("part");
    let run = split(&["--games", "100"], &prefix, SAMPLE);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let files = dir.files();
    let names: Vec<_> = files.keys().cloned().collect();
    let expected: Vec<_> = (1..=games.div_ceil(100))
        .map(|k| format!("part-{k:04}.pgn"))
        .collect();
    assert_eq!(names, expected);
    for (name, file) in files.iter().take(names.len() - 1) {
        assert_eq!(file.matches("[Event ").count(), 100, "{name}");
    }
    assert_eq!(files.values().cloned().collect::<String>(), selected.stdout);
    assert_eq!(
        run.stderr.lines().last(),
        Some(
            format!(
                "games {games} written {games} files {} errors 0",
                names.len()
            )
            .as_str()
        )
    );

    let dir = TempDir::new("split-eco");
    let prefix = dir.0.join("eco");
    let run = split(&["--by", "ECO"], &prefix, SAMPLE);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut expected = BTreeMap::new();
    for line in text.lines() {
        if let Some(code) = line
            .strip_prefix("[ECO \"")
            .and_then(|v| v.strip_suffix("\"]"))
        {
            let part = if code == "?" { "unknown" } else { code };
            *expected.entry(format!("eco-{part}.pgn")).or_insert(0) += 1;
        }
    }
    let without = games - expected.values().sum::<usize>();
    if without > 0 {
        *expected.entry("eco-unknown.pgn".to_owned()).or_insert(0) += without;
    }
    let files = dir.files();
    let counts: BTreeMap<_, _> = files
        .iter()
        .map(|(name, file)| (name.clone(), file.matches("[Event ").count()))
        .collect();
    assert_eq!(counts, expected);
    for (name, file) in &files {
        let code = &name["eco-".len()..name.len() - ".pgn".len()];
        if code != "unknown" {
            assert_eq!(
                file.matches(&format!("[ECO \"{code}\"]")).count(),
                counts[name]
            );
        }
    }
}

#[test]
fn a_file_to_write_that_is_an_input_is_refused() {
    let dir = TempDir::new("split-in-place");
    let input = dir.0.join("games-0001.pgn");
    let text = std::fs::read_to_string(SAMPLE).expect("the sample");
    std::fs::write(&input, &text).expect("the input");
    let prefix = dir.0.join("games");
    let run = split(&["--games", "100"], &prefix, input.to_str().unwrap());
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("is also an input"), "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&input).expect("the input"), text);
}
