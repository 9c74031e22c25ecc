//! `caissa pgn check` on the sample files, the fuzz corpus and crafted inputs: each output is
//! the one recorded from the first implementation (one reading thread, see the git history),
//! whatever the number of threads and however the files are cut into chunks.

use std::fmt::Write as _;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use super::*;
use crate::pgn::tests::{BAD, GOOD, TempPgn};

/// How files are cut into chunks: the [`ParallelReader`]'s chunk size and stream limit.
#[derive(Clone, Copy, Debug)]
struct Split {
    chunk: usize,
    limit: usize,
}

impl Split {
    /// The reader's own.
    const DEFAULT: Split = Split {
        chunk: ParallelReader::DEFAULT_CHUNK_SIZE,
        limit: ParallelReader::DEFAULT_STREAM_LIMIT,
    };
}

/// The thread counts every input is checked with.
const THREADS: [usize; 3] = [1, 2, 3];

/// Each file one chunk: the reference.
const WHOLE: Split = Split {
    chunk: usize::MAX,
    limit: usize::MAX,
};

/// Cuts for inputs of a few kilobytes: chunks from one byte, read a few bytes at a time, so
/// that every boundary is cut at and bytes arrive in every way; some files streamed after a
/// few bytes without a boundary.
const SMALL_SPLITS: [Split; 12] = [
    Split::DEFAULT,
    Split {
        chunk: 1,
        limit: usize::MAX,
    },
    Split {
        chunk: 2,
        limit: usize::MAX,
    },
    Split {
        chunk: 3,
        limit: usize::MAX,
    },
    Split {
        chunk: 5,
        limit: usize::MAX,
    },
    Split {
        chunk: 8,
        limit: usize::MAX,
    },
    Split {
        chunk: 13,
        limit: usize::MAX,
    },
    Split {
        chunk: 40,
        limit: usize::MAX,
    },
    Split {
        chunk: 200,
        limit: usize::MAX,
    },
    Split { chunk: 1, limit: 1 },
    Split {
        chunk: 3,
        limit: 20,
    },
    Split {
        chunk: 10,
        limit: 100,
    },
];

/// Cuts for the sample files (up to a megabyte).
const LARGE_SPLITS: [Split; 4] = [
    Split::DEFAULT,
    Split {
        chunk: 1000,
        limit: usize::MAX,
    },
    Split {
        chunk: 70_000,
        limit: usize::MAX,
    },
    Split {
        chunk: 1000,
        limit: 1500,
    },
];

/// The report of checking `files` (name, path), each path replaced by its name.
fn report(files: &[(&str, &Path)], threads: usize, split: Split) -> (String, Totals) {
    let paths: Vec<PathBuf> = files.iter().map(|(_, path)| path.to_path_buf()).collect();
    let mut out = Vec::new();
    let reader = ParallelReader::new()
        .threads(NonZeroUsize::new(threads).expect("a thread"))
        .chunk_size(split.chunk)
        .stream_limit(split.limit);
    let totals = check(&paths, reader, &mut out).expect("checked");
    let mut text = String::from_utf8(out).expect("UTF-8");
    for (name, path) in files {
        text = text.replace(&format!("{}:", path.display()), &format!("{name}:"));
    }
    (text, totals)
}

/// The report of checking `path` as `name`, the same with every number of threads and every
/// cut (the small ones only if the file is small).
fn report_of(name: &str, path: &Path) -> String {
    let (expected, _) = report(&[(name, path)], 1, WHOLE);
    let small = std::fs::metadata(path).expect("a file").len() < 10_000;
    let splits = LARGE_SPLITS
        .iter()
        .chain(if small { &SMALL_SPLITS[..] } else { &[] });
    for &split in splits {
        for threads in THREADS {
            let (text, _) = report(&[(name, path)], threads, split);
            assert_eq!(text, expected, "{name}, {threads} threads, {split:?}");
        }
    }
    expected
}

/// Asserts that checking `input` (as the file `in`) reports `expected`.
#[track_caller]
fn check_input(input: impl AsRef<[u8]>, expected: &str) {
    let file = TempPgn::new("input", input);
    assert_eq!(report_of("in", &file.0), expected);
}

/// The folder `path` of the repository.
fn repo_path(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The files of a folder of the repository, in name order.
fn files_of(folder: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(repo_path(folder))
        .expect("the folder is there")
        .map(|entry| entry.expect("a readable folder").path())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "{folder} has files");
    paths
}

/// Every file of the sample data and of the PGN fuzz corpus, and the corpus files end to end
/// (as they are, and each followed by a newline), and the report recorded for each in an insta
/// snapshot (`snapshots/`): a line `== NAME`, then the report. A changed report is reviewed with
/// `cargo insta review` (or accepted with `INSTA_UPDATE=always cargo test -p caissa-cli`).
#[test]
fn check_reports_what_was_recorded_for_the_data_and_the_corpus() {
    let mut reports = String::new();
    for folder in ["data/pgn", "fuzz/corpus/pgn"] {
        for path in files_of(folder) {
            let name = format!(
                "{folder}/{}",
                path.file_name().expect("a file").to_string_lossy()
            );
            write!(reports, "== {name}\n{}", report_of(&name, &path)).expect("a string");
        }
    }
    for (name, separator) in [("corpus", &b""[..]), ("corpus-lines", b"\n")] {
        let mut corpus = Vec::new();
        for path in files_of("fuzz/corpus/pgn") {
            corpus.extend(std::fs::read(path).expect("a readable file"));
            corpus.extend(separator);
        }
        let file = TempPgn::new(name, corpus);
        write!(reports, "== {name}\n{}", report_of(name, &file.0)).expect("a string");
    }
    insta::assert_snapshot!("data_and_corpus", reports);
}

#[test]
fn check_reports_in_file_order_whatever_the_threads() {
    let good = TempPgn::new("good", GOOD.repeat(300));
    let bad = TempPgn::new("bad", BAD);
    let files = [("good", &*good.0), ("bad", &bad.0), ("good", &good.0)];
    let expected = "bad:3:13: illegal move Ke3: no legal move matches\n\
                    bad:5:7: unterminated comment\n\
                    games 603 moves 3604 errors 2\n";
    for threads in THREADS {
        let (text, totals) = report(&files, threads, Split::DEFAULT);
        assert_eq!(text, expected);
        assert_eq!((totals.games, totals.moves, totals.errors), (603, 3604, 2));
        assert!(matches!(
            totals.into_result(),
            Err(CliError::ChecksFailed {
                failed: 2,
                checks: 603
            })
        ));
    }
}

#[test]
fn check_passes_good_files_and_reports_unreadable_ones() {
    let good = TempPgn::new("only-good", GOOD);
    let (out, totals) = report(&[("good", &good.0)], 2, Split::DEFAULT);
    assert_eq!(out, "games 1 moves 6 errors 0\n");
    assert!(totals.into_result().is_ok());
    let missing = std::env::temp_dir().join("caissa-pgn-no-such-file.pgn");
    let (out, totals) = report(
        &[("missing", &missing), ("good", &good.0)],
        2,
        Split::DEFAULT,
    );
    assert_eq!(out, "games 1 moves 6 errors 0\n");
    assert!(matches!(totals.into_result(), Err(CliError::Read { .. })));
}

#[test]
fn comments_go_on_over_blank_lines_and_bracket_lines() {
    check_input(
        "[Event \"a\"]\n\n1. e4 {a comment\n\n[not a tag]\n\n[%clk 0:01:00]\n\n[1 \"x\"]\n\
         still it} e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 *\n",
        "games 2 moves 4 errors 0\n",
    );
}

#[test]
fn an_unterminated_comment_ends_at_a_tag_line() {
    check_input(
        "[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 d5 *\n",
        "in:3:7: unterminated comment\ngames 2 moves 3 errors 1\n",
    );
    check_input(
        "1. e4 {never closed\n[Event \"b\"]\n1. d4 Ke7 *\n",
        "in:1:7: unterminated comment\nin:3:7: illegal move Ke7: no legal move matches\n\
         games 2 moves 2 errors 2\n",
    );
    check_input(
        "1. e4 e5 {open",
        "in:1:10: unterminated comment\ngames 1 moves 2 errors 1\n",
    );
}

/// Whether a line ends an unterminated comment depends on where its `"` is: within the first
/// 64 bytes, it does.
#[test]
fn a_tag_line_ends_a_comment_if_it_is_short_enough() {
    let ended = "in:1:7: unterminated comment\ngames 3 moves 3 errors 1\n";
    let not_ended = "in:1:7: unterminated comment\ngames 2 moves 2 errors 1\n";
    // The `"` is at index 1 + name_len + 1.
    for (name_len, expected) in [(29, ended), (30, ended), (61, ended), (62, not_ended)] {
        let name = "N".repeat(name_len);
        check_input(
            format!("1. e4 {{open\n\n[{name} \"v\"]\n1. d4 *\n\n[Event \"x\"]\n\n1. Nf3 *\n"),
            expected,
        );
    }
}

#[test]
fn escape_lines_are_skipped_anywhere() {
    check_input(
        "%header\n[Event \"a\"]\n%inside the tags\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n\
         1. Kb1 %not an escape\n\n%x\n[Event \"c\"]\n%y\n1. e4 *\n%z\n\n1. Ka2 *\n",
        "in:6:8: unexpected character '%'\n\
         in:14:4: illegal move Ka2: no legal move matches\n\
         games 3 moves 2 errors 2\n",
    );
}

#[test]
fn line_comments_end_at_the_line_end() {
    check_input(
        "1. e4 ; a { brace\ne5 ;[Event \"x\"]\n2. Nf3 *\n\n1. d4 ; c\n[Event \"n\"]\n1. Ke2 *\n",
        "in:7:4: illegal move Ke2: no legal move matches\ngames 3 moves 4 errors 1\n",
    );
}

#[test]
fn bad_tags_are_reported_and_skipped() {
    check_input(
        "[Event \"a\n1. e4 *\n\n[Event a\"]\n\n1. e4 *\n\n[Event \"x\"] junk\n[Site \"y\"]\n\
         1. e4 *\n\n[Event \"a\n[Site \"b\"]\n\n1. e4 *\n\n[Event \"ok\"]\n\n1. e4 e5 *\n",
        "in:1:8: malformed tag pair: unterminated tag value\n\
         in:4:8: malformed tag pair: expected '\"' before the value\n\
         in:8:13: invalid SAN \"junk\"\n\
         in:12:8: malformed tag pair: unterminated tag value\n\
         games 6 moves 3 errors 4\n",
    );
}

#[test]
fn crlf_line_ends() {
    check_input(
        format!("{GOOD}{BAD}").replace('\n', "\r\n"),
        "in:7:13: illegal move Ke3: no legal move matches\n\
         in:9:7: unterminated comment\n\
         games 4 moves 10 errors 2\n",
    );
}

/// A byte order mark does not hide that the first line is a tag pair, or a `%` line; columns
/// count from after it.
#[test]
fn a_byte_order_mark_is_skipped() {
    check_input(
        "\u{feff}[Event \"a\"]\n[FEN \"bad\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. Ke2 *\n",
        "in:2:1: in the FEN tag: invalid FEN: unexpected character 'a' in the placement field \
         at byte 1\n\
         in:8:4: illegal move Ke2: no legal move matches\n\
         games 2 moves 0 errors 2\n",
    );
    check_input(
        "\u{feff}%x\n[Event \"a\"]\n%y\n[FEN \"bad\"]\n\n1. e4 *\n",
        "in:4:1: in the FEN tag: invalid FEN: unexpected character 'a' in the placement field \
         at byte 1\n\
         games 1 moves 0 errors 1\n",
    );
    check_input(
        "\u{feff}1. e4 Ke7\n",
        "in:1:7: illegal move Ke7: no legal move matches\ngames 1 moves 1 errors 1\n",
    );
}

#[test]
fn games_without_blank_lines_between_them() {
    check_input(
        "[Event \"a\"]\n1. e4 e5 1-0\n[Event \"b\"]\n1. d4 Kd7 Ke2 *\n[Event \"c\"]\n\
         [FEN \"bad\"]\n1. Nf3 *\n[Event \"d\"]\n 1. e4 *\n1. d4 *\n[Event \"e\"]\n1. d4 *",
        "in:4:7: illegal move Kd7: no legal move matches\n\
         in:6:1: in the FEN tag: invalid FEN: unexpected character 'a' in the placement field \
         at byte 1\n\
         in:10:4: \"d4\" after the game result\n\
         games 5 moves 5 errors 3\n",
    );
}

#[test]
fn an_error_in_the_last_game_without_a_final_newline() {
    check_input(
        "1. e4 *\n\n1. e4 e5 2. Ke3",
        "in:3:13: illegal move Ke3: no legal move matches\ngames 2 moves 3 errors 1\n",
    );
    check_input(
        "1. e4 *\n\n1. e4 e5 2. Nf3 )",
        "in:3:17: unmatched ')'\ngames 2 moves 4 errors 1\n",
    );
}

#[test]
fn games_of_tags_only() {
    check_input(
        "[Event \"a\"]\n\n[Event \"b\"]\n\n[Event \"c\"]\n",
        "games 3 moves 0 errors 0\n",
    );
    check_input(
        "[Event \"a\"]\n\n\n[FEN \"x\"]",
        "in:4:1: in the FEN tag: invalid FEN: unexpected character 'x' in the placement field \
         at byte 0\n\
         games 2 moves 0 errors 1\n",
    );
}

#[test]
fn start_tags_that_give_no_position() {
    check_input(
        "[FEN \"bad\"]\n\n1. e4 {x *\n\n[Variant \"Atomic\"]\n\n1. e4 *\n\n[SetUp \"1\"]\n\
         [FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n*\n",
        "in:1:1: in the FEN tag: invalid FEN: unexpected character 'a' in the placement field \
         at byte 1\n\
         in:5:1: unsupported variant \"Atomic\"\n\
         in:10:1: in the FEN tag: illegal position: white has no king; black has no king\n\
         games 3 moves 0 errors 3\n",
    );
}

#[test]
fn the_first_problem_in_reading_order() {
    check_input(
        "1. e4 e5 2. Ke3 )\n\n1. e4 ) 2. Ke3\n",
        "in:1:13: illegal move Ke3: no legal move matches\n\
         in:3:7: unmatched ')'\n\
         games 2 moves 3 errors 2\n",
    );
}

#[test]
fn variations() {
    check_input(
        "1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 (1... c5 2. Nf3 (2. Ke3)) 2. Nf3 *\n\n\
         1. e4 (1. d4 (1. c4\n\n1. e4 e5 (2. Nf3) *\n",
        "in:1:69: illegal move Ke3: no legal move matches\n\
         in:3:7: unterminated variation\n\
         in:5:14: illegal move Nf3: no legal move matches\n\
         games 3 moves 14 errors 3\n",
    );
    let deep = format!(
        "1. e4 {}{} *\n\n1. e4 *\n",
        "(1. d4 ".repeat(5000),
        ")".repeat(5000)
    );
    // Variations deeper than 256 are an error where the 257th opens: the moves inside it were
    // not checked. Unclosed, the same error comes first.
    check_input(
        deep,
        "in:1:1799: variations nested deeper than 256\ngames 2 moves 258 errors 1\n",
    );
    check_input(
        format!("1. e4 {}\n\n1. d4 *\n", "(1. d4 ".repeat(5000)),
        "in:1:1799: variations nested deeper than 256\ngames 2 moves 258 errors 1\n",
    );
}

#[test]
fn blank_lines_of_blanks() {
    check_input(
        "1. e4 *\n \t\r\n[Event \"b\"]\n\n1. e4 e5\r\n\t \n[Event \"c\"]\n1. d4 *",
        "games 3 moves 4 errors 0\n",
    );
}

#[test]
fn empty_inputs() {
    check_input("", "games 0 moves 0 errors 0\n");
    check_input("\n\n \n", "games 0 moves 0 errors 0\n");
    check_input("%only\n%escape lines", "games 0 moves 0 errors 0\n");
}

#[test]
fn brackets_in_movetext() {
    check_input(
        "1. e4 [Event \"x\"] e5 *\n\n1. d4 *\n",
        "in:1:7: unexpected character '['\ngames 2 moves 2 errors 1\n",
    );
    check_input(
        "1. e4 *\n\n [Event \"b\"]\n[FEN \"bad\"]\n\n1. e4 *\n\n[Event \"c\"]\n [FEN \"bad\"]\n",
        "in:4:1: in the FEN tag: invalid FEN: unexpected character 'a' in the placement field \
         at byte 1\n\
         in:9:2: in the FEN tag: invalid FEN: unexpected character 'a' in the placement field \
         at byte 1\n\
         games 3 moves 1 errors 2\n",
    );
}

#[test]
fn binary_junk() {
    check_input(
        b"1. e4 \xff\x00 *\n\n1. e4 *\n\x00\n\n[Event \"\xff\"]\n1. e4 *",
        "in:1:7: unexpected byte 0xff (not UTF-8)\n\
         in:4:1: unexpected character U+0000\n\
         games 3 moves 3 errors 2\n",
    );
}
