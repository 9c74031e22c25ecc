//! Fuzz target `fen`: any bytes read as a FEN.

use caissa_movegen::CastlingMode;
use caissa_notation::fen::{EnPassantMode, Fen};

use super::{assert_offset_inside, reparse};

/// FEN: reading any bytes never panics; what reads writes back (X-FEN and Shredder-FEN) and
/// reads again as the same setup; a setup that validates keeps its fields, and the FEN of the
/// position reads back as the same position in every [`EnPassantMode`].
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    let fen = match Fen::from_ascii(data) {
        Ok(fen) => fen,
        Err(err) => {
            assert_offset_inside(err.byte, &err, data);
            return;
        }
    };
    let written = fen.to_string();
    assert_eq!(
        reparse(&written),
        fen,
        "X-FEN {written:?} does not read back as {fen:?}"
    );
    let shredder = fen.shredder().to_string();
    assert_eq!(
        reparse(&shredder),
        fen,
        "Shredder-FEN {shredder:?} does not read back"
    );
    let mut appended = String::new();
    fen.append_to(&mut appended);
    assert_eq!(appended, written, "append_to and Display disagree");

    let standard = fen.into_position(CastlingMode::Standard);
    let chess960 = fen.into_position(CastlingMode::Chess960);
    for err in [&standard, &chess960]
        .into_iter()
        .filter_map(|r| r.as_ref().err())
    {
        assert!(
            !err.problems().is_empty(),
            "{written}: an error without problems"
        );
    }
    if let Err(err) = &chess960 {
        assert!(
            standard.is_err(),
            "{written} is legal in standard chess but not in Chess960: {err}"
        );
    }
    for pos in [standard, chess960].into_iter().flatten() {
        assert_eq!(
            pos.to_setup(),
            fen.0,
            "{written}: validation changed the setup"
        );
        for ep_mode in [
            EnPassantMode::Legal,
            EnPassantMode::PseudoLegal,
            EnPassantMode::Always,
        ] {
            let fen_of_pos = Fen::from_position(&pos, ep_mode);
            let text = fen_of_pos.to_string();
            let again = reparse(&text);
            assert_eq!(again, fen_of_pos, "{text:?} does not read back");
            let again = again
                .into_position(pos.castling_mode())
                .unwrap_or_else(|e| panic!("{text}, written from a legal position: {e}"));
            assert_eq!(
                again, pos,
                "{text} ({ep_mode:?}) is not the position of {written}"
            );
            assert_eq!(
                again.zobrist_hash(),
                pos.zobrist_hash(),
                "{text}: hash differs"
            );
        }
    }
}
