//! `caissa arbitrate`: a log read from a file and from standard input gives the same verdict,
//! a byte order mark is skipped, and endless input stops at the line limit.

use crate::{TempFile, caissa, caissa_stdin};

const LOG: &str = "\
{\"t_ms\": 0, \"type\": \"start\", \"time_control\": \"180+2\", \"rules\": \"fide-blitz\"}
{\"t_ms\": 5100, \"type\": \"move\", \"by\": \"white\", \"move\": \"e4\"}
{\"t_ms\": 6000, \"type\": \"press\", \"by\": \"white\"}
{\"t_ms\": 9500, \"type\": \"resign\", \"by\": \"black\"}
";

/// `caissa arbitrate -` with `input` on standard input: exit status, stdout, stderr.
fn from_stdin(input: &[u8]) -> (i32, String, String) {
    let run = caissa_stdin(&["arbitrate", "-"], input);
    (run.code, run.stdout, run.stderr)
}

#[test]
fn a_file_and_standard_input_give_the_same_verdict() {
    let file = TempFile::new("arbitrate.jsonl", LOG);
    let run = caissa(&["arbitrate", file.path()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The press event makes presses separate: White's clock ran until 6 s, not 5.1 s.
    assert!(run.stdout.contains("\"result\": \"1-0\""), "{}", run.stdout);
    assert!(run.stdout.contains("[%clk 0:02:56]"), "{}", run.stdout);
    let with_bom = [b"\xef\xbb\xbf".as_slice(), LOG.as_bytes()].concat();
    for input in [LOG.as_bytes(), &with_bom] {
        let (code, stdout, stderr) = from_stdin(input);
        assert_eq!(
            (code, stdout.as_str()),
            (0, run.stdout.as_str()),
            "{stderr}"
        );
    }
    let bom_file = TempFile::new("arbitrate-bom.jsonl", &format!("\u{feff}{LOG}"));
    assert_eq!(caissa(&["arbitrate", bom_file.path()]).stdout, run.stdout);
}

#[test]
fn endless_lines_are_an_error_not_memory() {
    let (code, stdout, stderr) = from_stdin(&vec![0; 1 << 20]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("line 1: line longer than 65536 bytes"),
        "{stderr}"
    );
    let run = caissa(&["arbitrate", "/dev/zero"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("line longer than"), "{}", run.stderr);
}
