//! The PGN reader, token by token: what each input produces, which errors it reports and where,
//! and that buffer boundaries change nothing.

use std::io::{self, Read};
use std::ops::ControlFlow;

use caissa_notation::pgn::{
    Flow, GameTreeBuilder, Location, Nag, PgnError, PgnErrorKind, RawComment, RawTag, Reader,
    Replayer, TerminationMarker, VariationChoice, Visitor,
};
use caissa_notation::san::SanPlus;

/// Records every call as a line of text, and enters every variation.
struct Events;

impl Visitor for Events {
    type Tags = Vec<String>;
    type Movetext = Vec<String>;
    type Output = Vec<String>;
    type Error = PgnError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, Vec<String>> {
        ControlFlow::Continue(vec![format!("game@{at}")])
    }

    fn tag(
        &mut self,
        tags: &mut Vec<String>,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> Flow<Self> {
        tags.push(format!(
            "[{}={}]@{at}",
            String::from_utf8_lossy(name),
            value.decode_utf8_lossy()
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Vec<String>) -> Flow<Self, Vec<String>> {
        ControlFlow::Continue(tags)
    }

    fn san(&mut self, ev: &mut Vec<String>, san: SanPlus, at: Location) -> Flow<Self> {
        ev.push(format!("{san}@{at}"));
        ControlFlow::Continue(())
    }

    fn nag(&mut self, ev: &mut Vec<String>, nag: Nag) -> Flow<Self> {
        ev.push(nag.to_string());
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        ev: &mut Vec<String>,
        comment: RawComment<'_>,
        _: Location,
    ) -> Flow<Self> {
        let kind = if comment.is_line_comment() { ";" } else { "{" };
        ev.push(format!("{kind}{}", comment.to_str_lossy()));
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        ev: &mut Vec<String>,
        _: Location,
    ) -> Flow<Self, VariationChoice> {
        ev.push("(".to_owned());
        ControlFlow::Continue(VariationChoice::Enter)
    }

    fn end_variation(&mut self, ev: &mut Vec<String>) -> Flow<Self> {
        ev.push(")".to_owned());
        ControlFlow::Continue(())
    }

    fn termination_marker(
        &mut self,
        ev: &mut Vec<String>,
        marker: TerminationMarker,
        _: Location,
    ) -> Flow<Self> {
        ev.push(marker.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, ev: Vec<String>) -> Result<Vec<String>, PgnError> {
        Ok(ev)
    }
}

/// Every game of `input` as one line: its events joined by spaces, or `error@L:C: reason`.
fn read_all(input: impl Read, capacity: usize) -> Vec<String> {
    let mut reader = Reader::with_capacity(input, capacity);
    let mut out = Vec::new();
    while let Some(game) = reader.read_game(&mut Events) {
        out.push(match game {
            Ok(events) => events.join(" "),
            Err(error) => format!("error@{error}"),
        });
    }
    out
}

/// Reads `input` whole, then in one-byte reads with the smallest buffer, and checks that both
/// give `expected`.
#[track_caller]
fn check(input: &str, expected: &[&str]) {
    let whole = read_all(input.as_bytes(), 64 * 1024);
    assert_eq!(whole, expected, "input: {input:?}");
    let trickled = read_all(OneByte(input.as_bytes()), 1024);
    assert_eq!(trickled, expected, "input read a byte at a time: {input:?}");
}

/// A `Read` that gives one byte per call.
struct OneByte<'a>(&'a [u8]);

impl Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((&b, rest)), Some(slot)) => {
                *slot = b;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

#[test]
fn pgn_reader_tokens() {
    check(
        "[Event \"A \\\"B\\\" \\\\ C\"]\n[Site\"x\"]\n\n1.e4 e5 2. Nf3!? Nc6 $14 *\n",
        &[
            "game@1:1 [Event=A \"B\" \\ C]@1:1 [Site=x]@2:1 e4@4:3 e5@4:6 Nf3@4:12 $5 Nc6@4:18 $14 *",
        ],
    );
    check(
        "1. e4 {a\nb} e5 ; rest of line\n2. O-O-O+ 0-0 e8=Q# 1/2-1/2",
        &["game@1:1 e4@1:4 {a\nb e5@2:4 ; rest of line O-O-O+@3:4 O-O@3:11 e8=Q#@3:15 1/2-1/2"],
    );
    check(
        "1. e4 (1. d4 d5 (1... Nf6)) (1. c4) e5 1-0",
        &["game@1:1 e4@1:4 ( d4@1:11 d5@1:14 ( Nf6@1:23 ) ) ( c4@1:33 ) e5@1:37 1-0"],
    );
    // Glyphs in all forms; suffixes attached to moves.
    check(
        "1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5?! a6 $0 $255 *",
        &["game@1:1 e4@1:4 $1 e5@1:8 $2 Nf3@1:15 $3 Nc6@1:21 $4 Bb5@1:30 $6 a6@1:36 $0 $255 *"],
    );
    // An escaped quote whose `\` ends a read (fuzz crash `tag-value-escaped-quote-across-reads`).
    for len in [200, 247, 248, 251, 252, 900] {
        let a = "a".repeat(len);
        let expected = format!("game@1:1 [Event={a}\"x]@1:1 *");
        check(&format!("[Event \"{a}\\\"x\"]\n\n*\n"), &[&expected]);
    }
    // Null moves, lenient SAN, move numbers in all forms, stray dots.
    check(
        "12... Nf6 13.Nc3 -- 14 . Ng1f3 *",
        &["game@1:1 Nf6@1:7 Nc3@1:14 --@1:18 Ng1f3@1:26 *"],
    );
}

#[test]
fn pgn_reader_game_boundaries() {
    // A blank line, a tag line, or the end of input ends the movetext; results are optional.
    check(
        "1. e4 e5\n\n1. d4\n[Event \"x\"]\n1. c4 *\n\n\n",
        &[
            "game@1:1 e4@1:4 e5@1:7",
            "game@3:1 d4@3:4",
            "game@4:1 [Event=x]@4:1 c4@5:4 *",
        ],
    );
    // Blank lines inside a comment do not end the game; blanks-only lines do.
    check(
        "1. e4 { one\n\ntwo } e5\n   \t\n1. d4",
        &["game@1:1 e4@1:4 { one\n\ntwo  e5@3:7", "game@5:1 d4@5:4"],
    );
    // `%` lines are skipped everywhere; a byte order mark is skipped at the start.
    check(
        "\u{feff}% header\n[A \"1\"]\n% between\n1. e4\n% inside\ne5 *\n%last",
        &["game@2:1 [A=1]@2:1 e4@4:4 e5@6:1 *"],
    );
    // Tags on one line, and movetext after the last tag on the same line (the compact form).
    check(
        "[A \"1\"] [B \"2\"] 1. e4 *",
        &["game@1:1 [A=1]@1:1 [B=2]@1:9 e4@1:20 *"],
    );
    // Comments may follow the result; CRLF line ends.
    check(
        "1. e4 1-0 {won on time}\r\n\r\n1. d4 *\r\n",
        &["game@1:1 e4@1:4 1-0 {won on time", "game@3:1 d4@3:4 *"],
    );
}

#[test]
fn pgn_reader_errors() {
    let cases: &[(&str, &str)] = &[
        ("1. e4 @", "1:7: unexpected character '@'"),
        ("1. e4 \u{1}", "1:7: unexpected character U+0001"),
        ("1. e4 Nf9", "1:7: invalid SAN \"Nf9\""),
        ("1. e4 12x", "1:7: invalid token \"12x\""),
        ("1. e4 0-0-0-0", "1:7: invalid SAN \"0-0-0-0\""),
        ("1. e4 $256", "1:7: invalid annotation glyph \"$256\""),
        ("1. e4 $", "1:7: invalid annotation glyph \"$\""),
        ("1. e4 !!!", "1:7: invalid annotation glyph \"!!!\""),
        ("$1 1. e4", "1:1: annotation glyph before any move"),
        ("1. e4 {never closed", "1:7: unterminated comment"),
        ("1. e4 (1. d4", "1:7: unterminated variation"),
        ("1. e4 (1. d4 (1. c4) e5", "1:7: unterminated variation"),
        ("1. e4 )", "1:7: unmatched ')'"),
        ("(1. e4) 1. d4", "1:1: variation before any move"),
        ("1. e4 ((1. d4))", "1:8: variation before any move"),
        ("1. e4 (1. d4 1-0)", "1:14: result inside a variation"),
        ("1. e4 1-0 e5", "1:11: \"e5\" after the game result"),
        ("1. e4 * *", "1:9: \"*\" after the game result"),
        (
            "[Event \"x]\n1. e4",
            "1:8: malformed tag pair: unterminated tag value",
        ),
        ("[\"x\"]", "1:2: malformed tag pair: expected a tag name"),
        (
            "[Event x]",
            "1:8: malformed tag pair: expected '\"' before the value",
        ),
        (
            "[Event \"x\" y]",
            "1:12: malformed tag pair: expected ']' after the value",
        ),
        (
            "[Event \"x\"",
            "1:11: malformed tag pair: expected ']' after the value",
        ),
    ];
    for (input, expected) in cases {
        check(input, &[&format!("error@{expected}")]);
    }
    // Tokens of 256 bytes or more are invalid tokens, however much of them one read gives (fuzz
    // crash `long-token-error-kind-depends-on-reads`).
    for (token, kind) in [
        ("N".repeat(255), "invalid SAN"),
        ("N".repeat(256), "invalid token"),
        ("N".repeat(300), "invalid token"),
        ("0".repeat(299) + "x", "invalid token"),
        ("0".repeat(300), "invalid token"),
    ] {
        let excerpt = &token[..32];
        check(
            &format!("1. {token} *"),
            &[&format!("error@1:4: {kind} \"{excerpt}…\"")],
        );
    }
    // A tag value ends on its line, even after a `\\` (fuzz crashes
    // `tag-value-backslash-newline-*`); the next lines are counted.
    check(
        "[l\"\\\n\"",
        &["error@1:3: malformed tag pair: unterminated tag value"],
    );
    check(
        "[Event \"a\\\n\"]\n\n1. e4 *\n",
        &[
            "error@1:8: malformed tag pair: unterminated tag value",
            "game@4:1 e4@4:4 *",
        ],
    );
    check(
        "[Event \"a\\\r\n1. e4 $300",
        &["error@1:8: malformed tag pair: unterminated tag value"],
    );
}

#[test]
fn pgn_reader_error_kinds_are_typed() {
    let mut reader = Reader::new(&b"1. e4 Nf9 *"[..]);
    let error = reader.read_game(&mut Events).expect("a game").unwrap_err();
    assert!(matches!(error.kind, PgnErrorKind::InvalidSan(ref e) if e.as_str() == "Nf9"));
    assert_eq!((error.line(), error.column()), (1, 7));
}

#[test]
fn pgn_reader_recovers_at_the_next_game() {
    // An unterminated comment ends at the next line that starts like a tag pair.
    check(
        "[Event \"a\"]\n\n1. e4 { oops\n1... e5\n\n[Event \"b\"]\n\n1. d4 *\n",
        &[
            "error@3:7: unterminated comment",
            "game@6:1 [Event=b]@6:1 d4@8:4 *",
        ],
    );
    // After an error, the rest of the game is skipped, comments and all.
    check(
        "1. e4 Qx9 { [Event \"not a tag\"] } e5 (2. d4\n\n1. d4 *",
        &["error@1:7: invalid SAN \"Qx9\"", "game@3:1 d4@3:4 *"],
    );
    // An unterminated variation is reported at its `(`, and the next game is intact.
    check(
        "1. e4 (1. d4 {x}\n[Event \"b\"]\n1. c4 *",
        &[
            "error@1:7: unterminated variation",
            "game@2:1 [Event=b]@2:1 c4@3:4 *",
        ],
    );
    // A line of blanks ends the movetext of an unterminated variation too, and a tag line after
    // blanks starts the next game (fuzz crash
    // `unterminated-variation-at-blank-line-with-spaces-swallows-next-game`).
    check(
        "e4 (\n \n1. d4 *\n",
        &["error@1:4: unterminated variation", "game@3:1 d4@3:4 *"],
    );
    check(
        "e4 (\n [Event \"b\"]\n1. d4 *\n",
        &[
            "error@1:4: unterminated variation",
            "game@2:2 [Event=b]@2:2 d4@3:4 *",
        ],
    );
    // A broken tag skips the whole game, tags and movetext.
    check(
        "[Event \"a\"]\n[Bad tag]\n[Site \"s\"]\n\n1. e4 *\n\n[Event \"c\"]\n1. d4 *",
        &[
            "error@2:6: malformed tag pair: expected '\"' before the value",
            "game@7:1 [Event=c]@7:1 d4@8:4 *",
        ],
    );
    // Binary junk between games is one bad game; the next one is read.
    check(
        "1. e4 *\n\n\u{7f}\u{0}\u{1}junk\n\n1. d4 *",
        &[
            "game@1:1 e4@1:4 *",
            "error@3:1: unexpected character U+007F",
            "game@5:1 d4@5:4 *",
        ],
    );
}

/// A visitor that stops at the first move, or skips every variation.
struct Stopper {
    skip_variations: bool,
}

impl Visitor for Stopper {
    type Tags = ();
    type Movetext = Vec<String>;
    type Output = Vec<String>;
    type Error = PgnError;

    fn begin_game(&mut self, _: Location) -> Flow<Self> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> Flow<Self, Vec<String>> {
        ControlFlow::Continue(Vec::new())
    }

    fn san(&mut self, moves: &mut Vec<String>, san: SanPlus, _: Location) -> Flow<Self> {
        moves.push(san.to_string());
        if self.skip_variations {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(Ok(core::mem::take(moves)))
        }
    }

    fn end_game(&mut self, moves: Vec<String>) -> Result<Vec<String>, PgnError> {
        Ok(moves)
    }
}

#[test]
fn pgn_reader_stops_and_skips() {
    let input = "1. e4 (1. d4 {)} ;)\n (1... x)) e5 {(} 1-0\n\n1. c4 ( ( ) ) *\n\n1. Nf3 *";
    let mut reader = Reader::new(input.as_bytes());
    let mut stop = Stopper {
        skip_variations: false,
    };
    let mut firsts = Vec::new();
    while let Some(game) = reader.read_game(&mut stop) {
        firsts.push(game.expect("stopped before any error").join(" "));
    }
    assert_eq!(firsts, ["e4", "c4", "Nf3"]);

    // Skipped variations are only checked for balance and closed comments.
    let mut reader = Reader::new(input.as_bytes());
    let mut skip = Stopper {
        skip_variations: true,
    };
    let mut all = Vec::new();
    while let Some(game) = reader.read_game(&mut skip) {
        all.push(game.expect("well-formed").join(" "));
    }
    assert_eq!(all, ["e4 e5", "c4", "Nf3"]);

    // A skipped variation left open ends at a line of blanks, and the next game is read, as
    // when the variation is entered (fuzz crash `unterminated-variation-fuzzed`).
    for input in [
        "e4(\"\n\t\n\u{7f}",
        "e4 (\n \n1. d4 *\n",
        "e4 (\n [Event \"b\"]\n1. d4 *",
    ] {
        let entered = read_all(input.as_bytes(), 1024);
        let mut reader = Reader::new(input.as_bytes());
        let mut skipped = Vec::new();
        while let Some(game) = reader.read_game(&mut skip) {
            skipped.push(game.is_ok());
        }
        assert_eq!(
            skipped,
            [false, entered[1].starts_with("game")],
            "{input:?}"
        );
        assert!(entered[0].starts_with("error@1:"), "{input:?}: {entered:?}");
    }
}

#[test]
fn pgn_reader_refuses_tags_and_comments_longer_than_the_buffer() {
    // Each is an error for its game at its place, however the input arrives; nothing reaches
    // the visitor cut, and the next game is read. A buffer large enough reads them whole.
    let long = "é".repeat(2500);
    let next = "\n\n[Event \"next\"]\n1. d4 *\n";
    for (bad, at, what) in [
        (
            format!("[Annotator \"{long}\"]\n1. e4 *"),
            "1:1",
            "tag pair",
        ),
        (
            format!("[Annotator \"{long}\\\"\"]\n1. e4 *"),
            "1:1",
            "tag pair",
        ),
        (format!("1. e4 {{{long}}} e5 *"), "1:7", "comment"),
        (format!("1. e4 {{\n{long}\n}} e5 *"), "1:7", "comment"),
        (format!("1. e4 e5 ;{long}\n*"), "1:10", "comment"),
    ] {
        let input = format!("{bad}{next}");
        let line = 3 + bad.matches('\n').count();
        let expected = [
            format!("error@{at}: {what} longer than the reader's buffer of 1024 bytes"),
            format!("game@{line}:1 [Event=next]@{line}:1 d4@{}:4 *", line + 1),
        ];
        assert_eq!(read_all(input.as_bytes(), 1024), expected, "{what} at {at}");
        assert_eq!(
            read_all(OneByte(input.as_bytes()), 1024),
            expected,
            "{what} at {at}"
        );
        let whole = read_all(input.as_bytes(), 64 * 1024);
        assert!(whole[0].contains(&long), "{what} at {at}: {whole:?}");
    }
}

#[test]
fn pgn_reader_escaped_quote_at_the_buffer_end() {
    // The `\` of an escaped quote at every offset around the end of a full buffer: the escaped
    // quote never ends the value, which is read whole or is too long.
    let (mut whole, mut too_long) = (0, 0);
    for len in 1005..1025 {
        let input = format!("[Event \"{}\\\"x\"]\n\n1. e4 *", "a".repeat(len));
        let games = read_all(input.as_bytes(), 1024);
        if games[0].starts_with("error@") {
            too_long += 1;
            assert_eq!(
                games,
                ["error@1:1: tag pair longer than the reader's buffer of 1024 bytes"],
                "{len}"
            );
        } else {
            whole += 1;
            assert_eq!(games.len(), 1, "{len}");
            assert!(games[0].ends_with("\"x]@1:1 e4@3:4 *"), "{len}: {games:?}");
        }
        assert_eq!(read_all(OneByte(input.as_bytes()), 1024), games, "{len}");
    }
    assert!(whole > 0 && too_long > 0);
}

#[test]
fn pgn_reader_finds_the_next_game_in_a_comment_wherever_the_buffer_ends() {
    // An unterminated comment that fills the buffer, with the next game's tag line at every
    // offset around the buffer's end.
    for len in 900..1100 {
        let input = format!("1. e4 {{{}\n[Event \"b\"]\n1. d4 *", "x".repeat(len));
        let games = read_all(input.as_bytes(), 1024);
        assert_eq!(
            games,
            [
                "error@1:7: unterminated comment",
                "game@2:1 [Event=b]@2:1 d4@3:4 *"
            ],
            "comment of {len} bytes"
        );
        assert_eq!(read_all(OneByte(input.as_bytes()), 1024), games);
    }
    // Only a line whose `[Name "` fits in 64 bytes ends the comment, however the input arrives
    // (fuzz crash `long-tag-name-line-in-comment-depends-on-reads`).
    for (name, games) in [(5, 2), (60, 2), (61, 1), (200, 1)] {
        let input = format!(
            "1. e4 {{{}\n[R{} \"1-0\"]\n1. d4 *",
            "z".repeat(300),
            "D".repeat(name)
        );
        let whole = read_all(input.as_bytes(), 64 * 1024);
        assert_eq!(whole.len(), games, "name of {name}: {whole:?}");
        assert_eq!(whole[0], "error@1:7: unterminated comment");
        assert_eq!(read_all(OneByte(input.as_bytes()), 1024), whole);
    }
}

/// The reader takes shortcuts where the input is buffered well ahead and reads byte by byte
/// near the buffer's end: both ways must read the same. The sample files, read whole and
/// trickled a byte at a time (where the shortcuts rarely apply), give the same events. (The fuzz
/// corpus gets the same check, and more, from `fuzz_checks::pgn::check`.)
#[test]
fn pgn_reader_reads_the_same_however_the_input_arrives() {
    for name in [
        "cm-pgn-test-list.pgn",
        "lichess-2025-05-sample.pgn",
        "mliebelt-sample-games.pgn",
    ] {
        let text = caissa_testsuite::read_data(&format!("pgn/{name}"));
        let whole = read_all(text.as_bytes(), 64 * 1024);
        assert!(!whole.is_empty(), "{name} has games");
        assert_eq!(whole, read_all(OneByte(text.as_bytes()), 1024), "{name}");
    }
}

/// Every game of `input` replayed and built, as text: results, counts and locations.
fn replayed_and_built(input: impl Read + Copy) -> (Vec<String>, Vec<String>) {
    let replayed = Reader::new(input)
        .games(&mut Replayer::new())
        .map(|game| format!("{game:?}"))
        .collect();
    let built = Reader::new(input)
        .games(&mut GameTreeBuilder)
        .map(|game| format!("{game:?}"))
        .collect();
    (replayed, built)
}

/// Lone CRs (old Mac files) and CRLFs end lines as LFs do: the sample files, their line ends
/// changed, read the same games, errors and places, whole and trickled.
#[test]
fn pgn_reader_line_ends_lf_cr_and_crlf_read_alike() {
    for name in [
        "cm-pgn-test-list.pgn",
        "lichess-2025-05-sample.pgn",
        "mliebelt-sample-games.pgn",
    ] {
        let text = caissa_testsuite::read_data(&format!("pgn/{name}"));
        let expected = replayed_and_built(text.as_bytes());
        assert!(!expected.0.is_empty(), "{name} has games");
        for (ends, variant) in [
            ("CR", text.replace('\n', "\r")),
            ("CRLF", text.replace('\n', "\r\n")),
        ] {
            assert_eq!(
                replayed_and_built(variant.as_bytes()),
                expected,
                "{name}, {ends}"
            );
        }
        let cr = text.replace('\n', "\r");
        let trickled = Reader::with_capacity(OneByte(cr.as_bytes()), 1024)
            .games(&mut Replayer::new())
            .map(|game| format!("{game:?}"))
            .collect::<Vec<_>>();
        assert_eq!(trickled, expected.0, "{name}, CR, a byte at a time");
    }
    // The first game of an old Mac file is not taken for a bad one, nor the second lost.
    check(
        "[Event \"a\"]\r\r1. e4 e5 *\r\r[Event \"b\"]\r\r1. d4 ; x\r*\r",
        &[
            "game@1:1 [Event=a]@1:1 e4@3:4 e5@3:7 *",
            "game@5:1 [Event=b]@5:1 d4@7:4 ; x *",
        ],
    );
}
