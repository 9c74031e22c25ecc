//! Fuzz target `epd`: any bytes read as an EPD line, and as a file of lines.

use caissa_movegen::{CastlingMode, Position};
use caissa_notation::epd::{self, Epd, Operation};
use caissa_notation::fen::{EnPassantMode, Fen};

use super::assert_offset_inside;

/// Checks what [`Epd::best_moves`], [`Epd::avoid_moves`] and [`Epd::predicted_variation`] give
/// in `pos`: as many legal moves as the operation has SAN operands (the variation's legal one
/// after the other), or an error naming one of them.
fn check_epd_moves(epd: &Epd, pos: &Position) {
    let fen = Fen::from_position(pos, EnPassantMode::Legal);
    let operands = |opcode: &str| match epd.operation(opcode) {
        Some(
            Operation::BestMoves(sans)
            | Operation::AvoidMoves(sans)
            | Operation::PredictedVariation(sans),
        ) => sans.len(),
        _ => 0,
    };
    for (opcode, resolved, sequence) in [
        ("bm", epd.best_moves(pos), false),
        ("am", epd.avoid_moves(pos), false),
        ("pv", epd.predicted_variation(pos), true),
    ] {
        match resolved {
            Ok(moves) => {
                assert_eq!(moves.len(), operands(opcode), "{fen}: {opcode}: {moves:?}");
                let mut at = *pos;
                for m in moves {
                    assert!(at.is_legal(m), "{fen}: {opcode}: {m:?} is illegal");
                    if sequence {
                        at.play_unchecked(m);
                    }
                }
            }
            Err(err) => {
                assert_eq!(err.opcode, opcode, "{fen}: {err}");
                assert!(
                    err.index < operands(opcode),
                    "{fen}: {err}: no such operand"
                );
            }
        }
    }
}

/// EPD: reading any bytes never panics; what reads writes back (with `Display` and
/// `append_to` alike) and reads again as the same EPD; where the position is legal (in standard
/// chess or Chess960), resolving the move operations never panics and gives legal moves (see
/// `check_epd_moves`), and the EPD of the position reads back as that position. Reading the
/// input as a file of EPD lines never panics either.
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    if let Ok(text) = core::str::from_utf8(data) {
        let lines: Vec<&str> = text.lines().collect();
        for (line, read) in epd::read_lines(text) {
            let Some(text) = line.checked_sub(1).and_then(|i| lines.get(i)) else {
                panic!("line {line} of {}", lines.len());
            };
            if let Err(err) = read {
                assert!(err.byte <= text.len(), "line {line}: {err}: past its end");
            }
        }
    }
    let epd = match Epd::from_ascii(data) {
        Ok(epd) => epd,
        Err(err) => {
            assert_offset_inside(err.byte, &err, data);
            return;
        }
    };
    let written = epd.to_string();
    let again = written
        .parse::<Epd>()
        .unwrap_or_else(|e| panic!("caissa wrote {written:?}, which it cannot read back: {e}"));
    assert_eq!(again, epd, "{written:?} does not read back as {epd:?}");
    let mut appended = String::new();
    epd.append_to(&mut appended);
    assert_eq!(appended, written, "append_to and Display disagree");

    for mode in [CastlingMode::Standard, CastlingMode::Chess960] {
        let Ok(pos) = epd.position(mode) else {
            continue;
        };
        check_epd_moves(&epd, &pos);
        let own = Epd::from_position(&pos, EnPassantMode::Legal);
        let text = own.to_string();
        let read = text
            .parse::<Epd>()
            .unwrap_or_else(|e| panic!("caissa wrote {text:?}, which it cannot read back: {e}"));
        assert_eq!(read, own, "{text:?} does not read back");
        let again = read
            .position(mode)
            .unwrap_or_else(|e| panic!("{text}, written from a legal position: {e}"));
        assert_eq!(again, pos, "{text} is not the position of {written}");
    }
}
