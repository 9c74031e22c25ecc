//! Event logs in JSON lines (`tests/logs/*.jsonl`) replayed to their JSON verdicts, as
//! `caissa arbitrate` prints them (feature `serde`, which the CLI enables), and mangled logs,
//! which give a verdict or an error naming a line, never a panic.

use std::fs;
use std::path::{Path, PathBuf};

use caissa_arbiter::json::{arbitrate, verdict_to_json};

fn sample_logs() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/logs");
    let mut paths: Vec<_> = fs::read_dir(&dir)
        .expect("tests/logs")
        .map(|entry| entry.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = fs::read_to_string(&p).expect("a log");
            (p, text)
        })
        .collect()
}

#[test]
fn logs_give_their_verdicts() {
    let logs = sample_logs();
    assert!(logs.len() >= 5);
    for (path, text) in logs {
        let (verdict, lines) =
            arbitrate(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Replaying again gives the same verdict.
        assert_eq!(arbitrate(&text).expect("again").0, verdict);
        let json = verdict_to_json(&verdict, Some(&lines));
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        insta::assert_snapshot!(name, serde_json::to_string_pretty(&json).expect("JSON"));
    }
}

#[test]
fn mangled_logs_give_a_verdict_or_name_a_line() {
    const BYTES: &[u8] = b"{}[]\":,0a9-eqxKQ\n ";
    let mut rng = crate::common::Rng::new(2023);
    for (path, text) in sample_logs() {
        for _ in 0..300 {
            let mut bytes = text.clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() as u64 + 1) as usize;
                match rng.below(4) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 => bytes.insert(at, BYTES[rng.below(BYTES.len() as u64) as usize]),
                    2 if at < bytes.len() => bytes[at] = rng.below(128) as u8,
                    _ => {
                        // Two lines change places.
                        let text = String::from_utf8_lossy(&bytes).into_owned();
                        let mut lines: Vec<&str> = text.lines().collect();
                        let n = lines.len() as u64;
                        if n > 0 {
                            lines.swap(rng.below(n) as usize, rng.below(n) as usize);
                        }
                        bytes = lines.join("\n").into_bytes();
                    }
                }
            }
            let mangled = String::from_utf8_lossy(&bytes);
            let lines = mangled.lines().count().max(1);
            match arbitrate(&mangled) {
                Ok((verdict, _)) => assert_eq!(arbitrate(&mangled).expect("again").0, verdict),
                Err(e) => assert!(
                    (1..=lines).contains(&e.line),
                    "{}: {e}\n{mangled}",
                    path.display()
                ),
            }
        }
    }
}
