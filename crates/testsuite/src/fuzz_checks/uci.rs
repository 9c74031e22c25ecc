//! Fuzz target `uci`: any bytes read as a UCI move and matched against fixed positions
//! (`super::POSITIONS`).

use caissa_movegen::CastlingMode;
use caissa_notation::fen::{EnPassantMode, Fen};
use caissa_notation::uci::{UciError, UciMove};

use super::{POSITIONS, assert_offset_inside};

/// UCI: reading any bytes never panics; what reads prints and reads back the same; matching it
/// against a few positions never panics, and a match is a legal move whose UCI form matches it
/// again (in standard chess, in both castling conventions), while a refusal means no legal
/// move is written that way.
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    let uci = match UciMove::from_ascii(data) {
        Ok(uci) => uci,
        Err(err) => {
            assert_offset_inside(err.byte, &err, data);
            return;
        }
    };
    let text = uci.to_string();
    assert_eq!(
        text.parse(),
        Ok(uci),
        "{text:?} does not read back as {uci:?}"
    );
    for pos in POSITIONS.iter() {
        let fen = Fen::from_position(pos, EnPassantMode::Legal);
        match uci.to_move(pos) {
            Ok(m) => {
                assert!(pos.is_legal(m), "{fen}: {uci} matched the illegal {m:?}");
                let written = UciMove::from_move(pos, m);
                assert_eq!(written.to_move(pos), Ok(m), "{fen}: {written} (from {uci})");
                if pos.castling_mode() == CastlingMode::Standard {
                    let king_takes_rook = UciMove::from_move_in_mode(m, CastlingMode::Chess960);
                    assert_eq!(
                        king_takes_rook.to_move(pos),
                        Ok(m),
                        "{fen}: {king_takes_rook}"
                    );
                }
            }
            Err(UciError::Null) => assert_eq!(uci, UciMove::Null, "{fen}: {uci} is not 0000"),
            Err(UciError::Illegal(refused)) => {
                assert_eq!(refused, uci, "{fen}: the error names another move");
                pos.for_each_legal_move(|m| {
                    assert_ne!(UciMove::from_move(pos, m), uci, "{fen}: {uci} is {m:?}");
                });
            }
        }
    }
}
