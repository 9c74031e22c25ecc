//! Fuzz target `san`: a SAN move, matched against fixed positions (`super::POSITIONS`) and,
//! after a newline, against a setup of the [`position`](super::position) byte format.

use caissa_movegen::Position;
use caissa_notation::fen::{EnPassantMode, Fen};
use caissa_notation::san::{ParseSanError, San, SanError, SanPlus, StrictSanError};

use super::position::setup_from_bytes;
use super::{POSITIONS, assert_offset_inside};

/// Reads `text` as SAN with both readers: they agree, an error's byte is inside the text, and
/// what reads prints (with `Display` and `append_to` alike) and reads back as the same value.
fn check_san_syntax(text: &[u8]) -> Result<SanPlus, ParseSanError> {
    let parsed = SanPlus::from_ascii(text);
    assert_eq!(
        San::from_ascii(text),
        parsed.map(|san_plus| san_plus.san),
        "{text:?}: San and SanPlus read it differently"
    );
    match parsed {
        Ok(san_plus) => {
            let written = san_plus.to_string();
            assert_eq!(
                written.parse(),
                Ok(san_plus),
                "{text:?} is written {written:?}, which does not read back"
            );
            let mut appended = String::new();
            san_plus.append_to(&mut appended);
            assert_eq!(appended, written, "append_to and Display disagree");
            let san = san_plus.san.to_string();
            assert_eq!(san.parse(), Ok(san_plus.san), "{san:?} does not read back");
        }
        Err(err) => assert_offset_inside(err.byte, &err, text),
    }
    parsed
}

/// Matches `text` against `pos` with the lenient and the strict reader. A lenient match is a
/// legal move whose SAN reads back strictly as the same move, and is the SAN written from what
/// was read ([`SanPlus::from_resolved`]); an ambiguity names at least two
/// legal moves; a legal move whose SAN is exactly the text is the one found; the strict reader
/// accepts exactly the text [`SanPlus::from_move`] writes and otherwise agrees with the
/// lenient one on the move and its spelling.
fn check_san_in(text: &[u8], parsed: Result<SanPlus, ParseSanError>, pos: &Position) {
    let fen = Fen::from_position(pos, EnPassantMode::Legal);
    let strict = San::parse_strict(text, pos);
    let san_plus = match parsed {
        Ok(san_plus) => san_plus,
        Err(err) => {
            assert_eq!(strict, Err(StrictSanError::Syntax(err)), "{fen}: {text:?}");
            return;
        }
    };
    let san = san_plus.san;
    let lenient = san.to_move(pos);
    match lenient {
        Ok(m) => {
            assert!(pos.is_legal(m), "{fen}: {san} matched the illegal {m:?}");
            let mut after = *pos;
            after.play_unchecked(m);
            assert_eq!(
                SanPlus::from_resolved(san, pos, m, &after),
                SanPlus::from_move(pos, m),
                "{fen}: {san} is {m:?}, written otherwise from what was read"
            );
            let written = SanPlus::from_move(pos, m).to_string();
            assert_eq!(
                San::parse_strict(written.as_bytes(), pos),
                Ok(m),
                "{fen}: {san} is {m:?}, written {written}, which does not read back strictly"
            );
        }
        Err(SanError::Illegal { san: refused }) => {
            assert_eq!(refused, san, "{fen}: the error names another move");
        }
        Err(SanError::Ambiguous {
            san: refused,
            candidates,
        }) => {
            assert_eq!(refused, san, "{fen}: the error names another move");
            let moves = candidates.as_slice();
            assert!(moves.len() >= 2, "{fen}: {san} ambiguous between {moves:?}");
            for (i, &m) in moves.iter().enumerate() {
                assert!(pos.is_legal(m), "{fen}: {san}: candidate {m:?} is illegal");
                assert!(!moves[..i].contains(&m), "{fen}: {san}: {m:?} listed twice");
            }
        }
        Err(SanError::Null) => assert_eq!(san, San::Null, "{fen}: {san} is not a null move"),
        // A kind of error added later: nothing to check about it yet.
        Err(_) => {}
    }
    pos.for_each_legal_move(|m| {
        if San::from_move(pos, m) == san {
            assert_eq!(lenient, Ok(m), "{fen}: {san} is the SAN of {m:?}");
        }
    });
    match strict {
        Ok(m) => {
            assert_eq!(lenient, Ok(m), "{fen}: strict and lenient {san} differ");
            let written = SanPlus::from_move(pos, m).to_string();
            assert_eq!(
                written.as_bytes(),
                text,
                "{fen}: strict SAN accepted {text:?} for {m:?}, which is written {written}"
            );
        }
        Err(StrictSanError::Meaning(err)) => {
            assert_eq!(lenient, Err(err), "{fen}: strict and lenient {san} differ");
        }
        Err(StrictSanError::NotStrict { byte, expected, .. }) => {
            let m = lenient.unwrap_or_else(|e| panic!("{fen}: {san}: not strict, but {e}"));
            assert_eq!(expected, SanPlus::from_move(pos, m), "{fen}: {san}");
            assert!(
                byte <= text.len(),
                "{fen}: {san}: byte {byte} is past the end"
            );
            assert_ne!(
                expected.to_string().as_bytes(),
                text,
                "{fen}: the strict spelling was refused"
            );
        }
        Err(err) => panic!("{fen}: {san} reads, but strictly: {err}"),
    }
}

/// The SAN of every legal move of `pos` reads back, leniently and strictly, as the same move,
/// and writing it while playing it (or from the position it leads to) gives the same.
fn check_san_writing(pos: &Position) {
    let fen = Fen::from_position(pos, EnPassantMode::Legal);
    pos.for_each_legal_move(|m| {
        let san_plus = SanPlus::from_move(pos, m);
        let text = san_plus.to_string();
        assert_eq!(
            text.parse(),
            Ok(san_plus),
            "{fen}: {text} does not read back"
        );
        assert_eq!(
            san_plus.san.to_move(pos),
            Ok(m),
            "{fen}: {text} is not {m:?}"
        );
        assert_eq!(
            San::parse_strict(text.as_bytes(), pos),
            Ok(m),
            "{fen}: {text} is not strict SAN"
        );
        let mut after = *pos;
        assert_eq!(
            SanPlus::from_move_and_play_unchecked(&mut after, m),
            san_plus,
            "{fen}: {m:?}"
        );
        let mut played = *pos;
        played.play_unchecked(m);
        assert_eq!(after.to_setup(), played.to_setup(), "{fen}: {m:?} played");
        assert_eq!(
            SanPlus::from_played(pos, m, &played),
            san_plus,
            "{fen}: {m:?} from the position after it"
        );
    });
}

/// SAN: reading any bytes never panics, and what reads prints and reads back the same. The
/// first line of the input (all of it, without a newline) is matched against a few positions
/// (see `check_san_in`): the fixed `POSITIONS` of `fuzz_checks`, and the setup that
/// [`setup_from_bytes`] reads from the bytes after the newline, if it is legal; in that position
/// the SAN of every legal move also reads back as the move.
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    let (line, rest) = match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    };
    let parsed = check_san_syntax(line);
    if rest.is_some() {
        let _whole = check_san_syntax(data);
    }
    let from_bytes = rest.and_then(|bytes| {
        let (setup, mode) = setup_from_bytes(bytes);
        Position::from_setup(setup, mode).ok()
    });
    if let Some(pos) = &from_bytes {
        check_san_writing(pos);
    }
    for pos in POSITIONS.iter().chain(&from_bytes) {
        check_san_in(line, parsed, pos);
    }
}
