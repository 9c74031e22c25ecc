use super::super::tests::{BAD, GOOD, TempPgn};
use super::*;

/// `format` of `text`, read strictly: the counts and what was written.
fn formatted(text: &str, layout: Layout) -> ((u64, u64), String) {
    format_text(text, layout, false)
}

/// [`formatted`], read leniently.
fn formatted_leniently(text: &str, layout: Layout) -> ((u64, u64), String) {
    format_text(text, layout, true)
}

/// `format` of `text` in a file of its own.
fn format_text(text: &str, layout: Layout, lenient: bool) -> ((u64, u64), String) {
    let file = TempPgn::new("fmt", text);
    let args = FmtArgs {
        file: file.0.clone(),
        compact: layout == Layout::Compact,
        lenient,
    };
    let mut out = Vec::new();
    let counts = format(&args, &mut out).expect("formatted");
    (counts, String::from_utf8(out).expect("UTF-8"))
}

#[test]
fn fmt_writes_export_format_and_skips_malformed_games() {
    let (counts, text) = formatted(&format!("{GOOD}{BAD}"), Layout::Export);
    assert_eq!(counts, (4, 1));
    assert_eq!(text.matches("[Event ").count(), 3);
    assert!(text.starts_with("[Event \"a\"]\n[Site \"?\"]\n"));
    assert!(text.contains("\n\n[Event \"b\"]\n"));
    let (_, compact) = formatted(&format!("{GOOD}{BAD}"), Layout::Compact);
    assert_eq!(compact.lines().count(), 3);
    assert_eq!(
        compact.lines().next(),
        Some("[Event \"a\"] 1. e4 e5 ( 1... c5 2. Nf3 ) 2. Nf3 Nc6 1-0")
    );
}

/// Every game of `text` read strictly with [`Fmt`]: the error or the move count, and the
/// warnings.
fn read(text: &[u8]) -> Vec<(Result<usize, String>, Vec<Warning>)> {
    let mut reader = Reader::new(text);
    let mut fmt = Fmt::default();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut fmt) {
        let game = game.map(|tree| tree.len()).map_err(|e| e.to_string());
        games.push((game, core::mem::take(&mut fmt.warnings)));
    }
    games
}

#[test]
fn fmt_reports_a_game_whose_start_it_cannot_read() {
    // Written with the standard start's numbers, `7... Kd7` would become a White move.
    let text =
        "[FEN \"8/8/8/3k4 w\"]\n\n7... Kd7 *\n\n[Variant \"Atomic\"]\n\n1. e4 *\n\n1. d4 *\n";
    let games = read(text.as_bytes());
    assert!(
        games[0]
            .0
            .as_ref()
            .is_err_and(|e| e.starts_with("1:1: in the FEN tag: ")),
        "{games:?}"
    );
    assert_eq!(
        games[1].0,
        Err("5:1: unsupported variant \"Atomic\"".to_owned())
    );
    assert_eq!(games[2].0, Ok(1));
    let (counts, written) = formatted(text, Layout::Compact);
    assert_eq!(counts, (3, 2));
    assert_eq!(written, "1. d4 *\n");
}

#[test]
fn fmt_stops_games_too_large_to_hold() {
    // A million sibling variations would take about 170 MB; past the limit the game is an
    // error at the first move too many, and the next game is read.
    let siblings = format!("1. e4 {}*\n\n1. d4 *\n", "(1. d4) ".repeat(MAX_MOVES));
    let games = read(siblings.as_bytes());
    let column = 7 + 8 * (MAX_MOVES - 1) + 4;
    assert_eq!(
        games[0].0,
        Err(format!("1:{column}: more than 250000 moves in one game"))
    );
    assert_eq!(games[1].0, Ok(1));
    // Tags and comments: 300 comments of 60,000 bytes pass 16 MiB.
    let comment = format!("{{{}}} ", "c".repeat(60_000));
    let long = format!("1. e4 {} *\n\n1. d4 *\n", comment.repeat(300));
    let games = read(long.as_bytes());
    // The error is at the comment that passes the limit: the 280th, at its `{`.
    let column = 7 + 60_003 * (MAX_TEXT / 60_000);
    assert_eq!(
        games[0].0,
        Err(format!(
            "1:{column}: more than 16777216 bytes of tags and comments in one game"
        ))
    );
    assert_eq!(games[1].0, Ok(1));
}

#[test]
fn fmt_warns_of_text_not_written_as_read() {
    let text = b"[Event \"caf\xe9\"]\n[Site \"a\0b\"]\n\n{x\xff} 1. e4 {\0} e5 {fine} *\n";
    let games = read(text);
    assert_eq!(games.len(), 1);
    let (game, warnings) = &games[0];
    assert_eq!(game, &Ok(2));
    let at = |line, column| Location { line, column };
    assert_eq!(
        warnings,
        &[
            Warning {
                at: at(1, 1),
                message: Text::Tag.not_utf8()
            },
            Warning {
                at: at(2, 1),
                message: Text::Tag.nul()
            },
            Warning {
                at: at(4, 1),
                message: Text::Comment.not_utf8()
            },
            Warning {
                at: at(4, 12),
                message: Text::Comment.nul()
            },
        ]
    );
}

#[test]
fn fmt_writes_what_it_read_leniently_as_the_standard_has_it() {
    let text = "[Event \"ep\"]\n\n1. e4 d5 2. e5 f5 3. exf6 e.p. $300 Nf6 1/2\n\n1. d4 *\n";
    let (counts, written) = formatted(text, Layout::Compact);
    assert_eq!((counts, written.as_str()), ((2, 1), "1. d4 *\n"));
    let (counts, written) = formatted_leniently(text, Layout::Compact);
    assert_eq!(counts, (2, 0));
    // `e.p.` and `$300` left out, `1/2` in full; the moves as read (`fmt` keeps their SAN).
    assert_eq!(
        written,
        "[Event \"ep\"] 1. e4 d5 2. e5 f5 3. exf6 Nf6 1/2-1/2\n1. d4 *\n"
    );
    let mut reader = Reader::new(text.as_bytes()).lenient(true);
    let mut fmt = Fmt::default();
    assert!(reader.read_game(&mut fmt).is_some_and(|game| game.is_ok()));
    let at = |column| Location { line: 3, column };
    assert_eq!(
        fmt.tolerated,
        [
            (at(27), Tolerated::EnPassantSuffix),
            (at(32), Tolerated::NagOutOfRange(300)),
            (at(41), Tolerated::HalfPointResult),
        ]
    );
    assert!(fmt.warnings.is_empty());
}
