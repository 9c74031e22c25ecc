//! `caissa pgn fmt`: games read leniently are written as the standard has them, with a
//! warning for each thing read past.

use crate::{LENIENT, TempFile, caissa, lenient_warnings};

#[test]
fn lenient_writes_what_strict_leaves_out() {
    let file = TempFile::new("fmt-lenient.pgn", LENIENT);
    let path = file.path();
    let strict = caissa(&["pgn", "fmt", "--compact", path]);
    assert_eq!(strict.code, 1, "{}", strict.stderr);
    assert_eq!(strict.lines(), ["[Event \"plain\"] 1. d4 d5 *"]);
    assert_eq!(
        strict.stderr,
        format!("{path}:3:27: invalid SAN \"e\"\nerror: 1 of 2 checks failed\n")
    );
    let lenient = caissa(&["pgn", "fmt", "--lenient", path]);
    assert_eq!(lenient.code, 0, "{}", lenient.stderr);
    assert_eq!(
        lenient.stderr.lines().collect::<Vec<_>>(),
        lenient_warnings(path)
    );
    // `e.p.` and the glyph left out, the marker in full; the moves as written (`fmt` keeps
    // their SAN).
    assert!(
        lenient
            .stdout
            .contains("\n\n1. e4 d5 2. e5 f5 3. exf6 Nf6 1/2-1/2\n"),
        "{}",
        lenient.stdout
    );
    assert!(
        lenient.stdout.contains("[Result \"*\"]\n\n1. d4 d5 *\n"),
        "{}",
        lenient.stdout
    );
}
