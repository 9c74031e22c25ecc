//! `caissa pgn select` on a gigabyte of zstd-compressed PGN, made here from the samples and
//! streamed to its stdin: the filter and the exports give the counts the samples predict, in
//! bounded memory. Too slow for a debug build, so ignored by `cargo test`: `cargo xtask
//! pgn-bench --big` runs it on the release profile. `CAISSA_BIG_MB` sets the size of the
//! plain text (1024 by default).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::summary_counts;

/// The samples the input repeats.
const SAMPLES: [&str; 3] = [
    "lichess-2025-05-sample.pgn",
    "mliebelt-sample-games.pgn",
    "cm-pgn-test-list.pgn",
];

/// The most memory a run may use, in kB of peak resident set.
const MEMORY_LIMIT_KB: u64 = 100 * 1024;

/// What one run of `caissa` did.
struct Measured {
    summary: String,
    peak_kb: u64,
    elapsed: Duration,
}

/// Runs `caissa ARGS` with `copies` repeats of `text` compressed with zstd on its stdin,
/// watching its peak memory (`VmHWM`) as it runs.
fn run_streamed(args: &[&str], text: &[u8], copies: u64) -> Measured {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_caissa"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the caissa binary runs");
    let stdin = child.stdin.take().expect("a pipe");
    let text = text.to_vec();
    let writer = std::thread::spawn(move || -> std::io::Result<()> {
        let mut encoder = zstd::stream::Encoder::new(stdin, 1)?;
        for _ in 0..copies {
            encoder.write_all(&text)?;
        }
        encoder.finish()?.flush()
    });
    let status = Path::new("/proc")
        .join(child.id().to_string())
        .join("status");
    let mut peak_kb = 0;
    while child.try_wait().expect("caissa runs").is_none() {
        if let Some(kb) = std::fs::read_to_string(&status)
            .ok()
            .as_deref()
            .and_then(high_water_kb)
        {
            peak_kb = peak_kb.max(kb);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    writer
        .join()
        .expect("the writer")
        .expect("the input is written");
    let output = child.wait_with_output().expect("caissa ends");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8");
    assert!(output.status.success(), "{args:?}: {stderr}");
    Measured {
        summary: stderr.lines().last().unwrap_or_default().to_owned(),
        peak_kb,
        elapsed: start.elapsed(),
    }
}

/// The `VmHWM` (peak resident set) of a `/proc/PID/status` text, in kB.
fn high_water_kb(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A file in a fresh folder under the test's temporary one.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pgn-big");
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

#[test]
#[ignore = "a gigabyte of input: `cargo xtask pgn-bench --big` runs it, on release"]
fn a_gigabyte_of_zstd_is_selected_in_bounded_memory() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/pgn");
    let mut text = Vec::new();
    for sample in SAMPLES {
        text.extend(std::fs::read(data.join(sample)).expect("a sample"));
        text.extend(b"\n\n");
    }
    let megabytes: u64 = std::env::var("CAISSA_BIG_MB")
        .ok()
        .and_then(|mb| mb.parse().ok())
        .unwrap_or(1024);
    let copies = (megabytes << 20).div_ceil(text.len() as u64);
    let once = scratch("once.pgn");
    std::fs::write(&once, &text).expect("the samples");
    let once = once.to_str().expect("UTF-8");

    let parquet = scratch("elo.parquet");
    let uci = scratch("unique.uci");
    let jobs: [(&str, Vec<&str>); 3] = [
        (
            "filter WhiteElo >= 2000, Parquet",
            vec![
                "--where",
                "WhiteElo >= 2000",
                "--format",
                "parquet",
                "-o",
                parquet.to_str().expect("UTF-8"),
            ],
        ),
        (
            "strip to moves, PGN",
            vec!["--strip", "comments,nags,variations,commands"],
        ),
        (
            "dedupe, UCI",
            vec![
                "--dedupe",
                "--format",
                "uci",
                "-o",
                uci.to_str().expect("UTF-8"),
            ],
        ),
    ];
    eprintln!(
        "input: {copies} copies of the samples, {} MB of PGN",
        (copies * text.len() as u64) >> 20
    );
    let mut parquet_rows = 0;
    for (name, options) in &jobs {
        let mut args = vec!["pgn", "select"];
        args.extend(options);
        let expected = crate::caissa(&[&args[..], &[once]].concat());
        let [games, matched, written, errors] =
            summary_counts(expected.stderr.lines().last().unwrap());
        args.push("-");
        let measured = run_streamed(&args, &text, copies);
        eprintln!(
            "{name}: {} in {:.1}s ({:.0} MB/s), peak {} kB",
            measured.summary,
            measured.elapsed.as_secs_f64(),
            (copies * text.len() as u64) as f64
                / f64::from(1 << 20)
                / measured.elapsed.as_secs_f64(),
            measured.peak_kb
        );
        let got = summary_counts(&measured.summary);
        if options.contains(&"parquet") {
            parquet_rows = written * copies;
        }
        // Every copy repeats the first: dedupe writes the games of one copy only.
        let expected_written = if options.contains(&"--dedupe") {
            written
        } else {
            written * copies
        };
        assert_eq!(
            got,
            [
                games * copies,
                matched * copies,
                expected_written,
                errors * copies
            ],
            "{name}"
        );
        assert!(
            measured.peak_kb > 0 && measured.peak_kb < MEMORY_LIMIT_KB,
            "{name}: peak {} kB",
            measured.peak_kb
        );
    }
    let rows = parquet::file::reader::SerializedFileReader::new(
        std::fs::File::open(&parquet).expect("the Parquet file"),
    )
    .map(|reader| {
        parquet::file::reader::FileReader::metadata(&reader)
            .file_metadata()
            .num_rows()
    })
    .expect("a Parquet file");
    assert_eq!(u64::try_from(rows), Ok(parquet_rows));
}
