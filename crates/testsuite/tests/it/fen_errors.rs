//! FEN errors name the right field, byte and kind; every leniency the `fen` module documents is
//! accepted and means what the documentation says.

use std::collections::HashSet;
use std::mem::discriminant;

use caissa_board::{CastlingSide, Color, File, Setup, Square};
use caissa_movegen::{CastlingMode, SetupProblem};
use caissa_notation::fen::{Fen, FenField, ParseFenError, ParseFenErrorKind};

const EMPTY_BOARD: &str = "8/8/8/8/8/8/8/8";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn parse(text: &str) -> Setup {
    text.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{text:?}: {e}"))
        .into_setup()
}

/// `(input, field, byte, kind)`: what reading `input` must report. On the empty board
/// `8/8/8/8/8/8/8/8`, the fields start at bytes 0, 16, 18, 20, 22 and 24.
#[rustfmt::skip]
const ERRORS: &[(&str, FenField, usize, ParseFenErrorKind)] = {
    use ParseFenErrorKind::*;
    use FenField::*;
    &[
        ("", Placement, 0, Empty),
        (" \t  ", Placement, 0, Empty),
        // Placement.
        ("rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR", Placement, 13, UnexpectedChar('x')),
        ("9/8/8/8/8/8/8/8 w - - 0 1", Placement, 0, UnexpectedChar('9')),
        ("0/8/8/8/8/8/8/8 w - - 0 1", Placement, 0, UnexpectedChar('0')),
        ("8/8/8/8/8/8/8/8,w - - 0 1", Placement, 15, UnexpectedChar(',')),
        ("rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", Placement, 8, RankTooLong),
        ("7pp/8/8/8/8/8/8/8 w - - 0 1", Placement, 2, RankTooLong),
        ("p8/8/8/8/8/8/8/8 w - - 0 1", Placement, 1, RankTooLong),
        ("rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", Placement, 7, RankTooShort),
        ("8/8/8/8/8/8/8/7 w - - 0 1", Placement, 15, RankTooShort),
        ("8/8/8/8/8/8/8/ w - - 0 1", Placement, 14, RankTooShort),
        ("8/8/8/8/8/8/8/8/8 w - - 0 1", Placement, 15, TooManyRanks),
        ("8/8/8/8/8/8/8 w - - 0 1", Placement, 13, TooFewRanks),
        ("44/8/8/8/8/8/8/8 w - - 0 1", Placement, 1, ConsecutiveDigits),
        ("8/8/8/8/8/8/8/611 w - - 0 1", Placement, 15, ConsecutiveDigits),
        // Side to move.
        ("8/8/8/8/8/8/8/8 x - - 0 1", Turn, 16, UnexpectedChar('x')),
        ("8/8/8/8/8/8/8/8 W - - 0 1", Turn, 16, UnexpectedChar('W')),
        // The `w` is fine; the `b` after it is what does not belong.
        ("8/8/8/8/8/8/8/8 wb - - 0 1", Turn, 17, UnexpectedChar('b')),
        // Castling.
        ("8/8/8/8/8/8/8/8 w KX - 0 1", Castling, 19, UnexpectedChar('X')),
        ("8/8/8/8/8/8/8/8 w KQkq1 - 0 1", Castling, 22, UnexpectedChar('1')),
        ("8/8/8/8/8/8/8/8 w -K - 0 1", Castling, 18, UnexpectedChar('-')),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KKq - 0 1", Castling, 27, DuplicateCastling),
        // `K` names the rook on h1, and so does `H`.
        ("r3k2r/8/8/8/8/8/8/R3K2R w KH - 0 1", Castling, 27, DuplicateCastling),
        ("r3k2r/8/8/8/8/8/8/R3K2R w Qqkq - 0 1", Castling, 29, DuplicateCastling),
        // En passant.
        ("8/8/8/8/8/8/8/8 w - e9 0 1", EnPassant, 21, UnexpectedChar('9')),
        ("8/8/8/8/8/8/8/8 w - i3 0 1", EnPassant, 20, UnexpectedChar('i')),
        ("8/8/8/8/8/8/8/8 w - e33 0 1", EnPassant, 22, UnexpectedChar('3')),
        ("8/8/8/8/8/8/8/8 w - E3 0 1", EnPassant, 20, UnexpectedChar('E')),
        ("8/8/8/8/8/8/8/8 w - e4 0 1", EnPassant, 20, EnPassantRank),
        ("8/8/8/8/8/8/8/8 w - a1 0 1", EnPassant, 20, EnPassantRank),
        ("8/8/8/8/8/8/8/8 w - e 0 1", EnPassant, 21, UnexpectedEnd),
        // Counters.
        ("8/8/8/8/8/8/8/8 w - - x 1", Halfmoves, 22, UnexpectedChar('x')),
        ("8/8/8/8/8/8/8/8 w - - -1 1", Halfmoves, 22, UnexpectedChar('-')),
        ("8/8/8/8/8/8/8/8 w - - +1 1", Halfmoves, 22, UnexpectedChar('+')),
        ("8/8/8/8/8/8/8/8 w - - 4294967296 1", Halfmoves, 22, NumberTooLarge),
        ("8/8/8/8/8/8/8/8 w - - 0 1x", Fullmoves, 25, UnexpectedChar('x')),
        ("8/8/8/8/8/8/8/8 w - - 0 1.5", Fullmoves, 25, UnexpectedChar('.')),
        ("8/8/8/8/8/8/8/8 w - - 0 99999999999", Fullmoves, 24, NumberTooLarge),
        // After the sixth field.
        ("8/8/8/8/8/8/8/8 w - - 0 1 x", Fullmoves, 26, TrailingText),
        ("8/8/8/8/8/8/8/8 w - - 0 1  0", Fullmoves, 27, TrailingText),
    ]
};

#[test]
fn errors_name_field_byte_and_kind() {
    // Every case is tried before failing, so one wrong offset does not hide another.
    let mut wrong = Vec::new();
    for &(input, field, byte, kind) in ERRORS {
        let expected = Err(ParseFenError::new(field, byte, kind));
        let got = input.parse::<Fen>();
        if got != expected {
            wrong.push(format!("{input:?}: got {got:?}, expected {expected:?}"));
        }
        assert_eq!(
            Fen::from_ascii(input.as_bytes()),
            got,
            "{input:?}: bytes and str differ"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_error_kind_is_produced() {
    let kinds: HashSet<_> = ERRORS.iter().map(|(.., kind)| discriminant(kind)).collect();
    // Empty, UnexpectedChar, RankTooLong, RankTooShort, TooManyRanks, TooFewRanks,
    // ConsecutiveDigits, DuplicateCastling, EnPassantRank, NumberTooLarge, TrailingText,
    // UnexpectedEnd.
    assert_eq!(kinds.len(), 12);
    let fields: HashSet<_> = ERRORS.iter().map(|&(_, field, ..)| field).collect();
    assert_eq!(fields.len(), 6, "every field has an error case");
}

#[test]
fn display_names_field_and_byte() {
    // Whatever the error says, its message says it too.
    for &(input, ..) in ERRORS {
        let err = input.parse::<Fen>().unwrap_err();
        let message = err.to_string();
        for part in [
            err.field.to_string(),
            format!("byte {}", err.byte),
            err.kind.to_string(),
        ] {
            assert!(
                message.contains(&part),
                "{input:?}: {message:?} lacks {part:?}"
            );
        }
    }
    assert_eq!(
        "8/8/8/8/8/8/8/8 w - e4"
            .parse::<Fen>()
            .unwrap_err()
            .to_string(),
        "invalid FEN: en passant square must be on the third or sixth rank in the en passant \
         field at byte 20"
    );
}

#[test]
fn fields_may_be_separated_by_any_run_of_ascii_whitespace() {
    let canonical = parse("4k3/8/8/8/8/8/8/4K3 b - - 12 40");
    for text in [
        // A line as read from a file, with its end.
        "4k3/8/8/8/8/8/8/4K3 b - - 12 40\n",
        "4k3/8/8/8/8/8/8/4K3 b - - 12 40\r\n",
        "4k3/8/8/8/8/8/8/4K3\nb - -\r12 40",
        "  4k3/8/8/8/8/8/8/4K3 b - - 12 40",
        "4k3/8/8/8/8/8/8/4K3 b - - 12 40 \t ",
        "4k3/8/8/8/8/8/8/4K3   b\t-\t\t-  12    40",
        "\t4k3/8/8/8/8/8/8/4K3 \t b - -   12 40\t",
    ] {
        assert_eq!(parse(text), canonical, "{text:?}");
    }
}

#[test]
fn missing_counters_read_as_zero_and_one() {
    let full = parse("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(parse("4k3/8/8/8/8/8/8/4K3 b - -"), full);
    let halfmoves_only = parse("4k3/8/8/8/8/8/8/4K3 b - - 7");
    assert_eq!(halfmoves_only.halfmoves, 7);
    assert_eq!(halfmoves_only.fullmoves.get(), 1);
}

#[test]
fn missing_castling_and_en_passant_read_as_dashes() {
    let black = parse("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(parse("4k3/8/8/8/8/8/8/4K3 b"), black);
    let castling_only = parse("r3k2r/8/8/8/8/8/8/R3K2R w Kq");
    assert_eq!(castling_only, parse("r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1"));
    assert_eq!(castling_only.ep_square, None);
    // With the placement alone, white is to move.
    let placement_only = parse(EMPTY_BOARD);
    assert_eq!(placement_only.turn, Color::White);
    assert!(placement_only.castling_rights.is_empty());
    assert_eq!(placement_only, parse("8/8/8/8/8/8/8/8 w - - 0 1"));
}

#[test]
fn fullmove_zero_reads_as_one() {
    assert_eq!(parse("4k3/8/8/8/8/8/8/4K3 w - - 3 0").fullmoves.get(), 1);
    assert_eq!(
        parse("4k3/8/8/8/8/8/8/4K3 w - - 3 0"),
        parse("4k3/8/8/8/8/8/8/4K3 w - - 3 1")
    );
    let max = parse("4k3/8/8/8/8/8/8/4K3 w - - 4294967295 4294967295");
    assert_eq!((max.halfmoves, max.fullmoves.get()), (u32::MAX, u32::MAX));
}

#[test]
fn x_fen_castling_names_outermost_rooks_by_side_and_inner_rooks_by_file() {
    // Rooks on a1, b1 and h1: `K` is h, `Q` is a, `B` the inner b rook.
    let text = "rr2k2r/8/8/8/8/8/8/RR2K2R w KBkq - 0 1";
    let setup = parse(text);
    let rights = setup.castling_rights;
    assert_eq!(
        rights.rook(Color::White, CastlingSide::KingSide),
        Some(File::H)
    );
    assert_eq!(
        rights.rook(Color::White, CastlingSide::QueenSide),
        Some(File::B)
    );
    assert_eq!(
        rights.rook(Color::Black, CastlingSide::QueenSide),
        Some(File::A)
    );
    assert_eq!(Fen(setup).to_string(), text);
    // A Chess960 start written with KQkq.
    let chess960 = parse("rn1knbbr/ppp1pppp/3p4/8/5q2/N5PP/PPPPP3/R1QKNBBR w KQkq - 0 1");
    let rights = chess960.castling_rights;
    assert_eq!(
        rights.rook(Color::White, CastlingSide::KingSide),
        Some(File::H)
    );
    assert_eq!(
        rights.rook(Color::White, CastlingSide::QueenSide),
        Some(File::A)
    );
    assert!(Fen(chess960).into_position(CastlingMode::Chess960).is_ok());
    // `K` with the king on b1 and rooks on a1 and h1 names the h rook.
    let king_b = parse("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
    let rights = king_b.castling_rights;
    assert_eq!(
        rights.rook(Color::Black, CastlingSide::KingSide),
        Some(File::H)
    );
    assert_eq!(
        rights.rook(Color::Black, CastlingSide::QueenSide),
        Some(File::A)
    );
}

#[test]
fn shredder_fen_castling_names_rook_files() {
    let text = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    let fen: Fen = text.parse().unwrap();
    let rights = fen.0.castling_rights;
    for color in Color::ALL {
        assert_eq!(rights.rook(color, CastlingSide::KingSide), Some(File::H));
        assert_eq!(rights.rook(color, CastlingSide::QueenSide), Some(File::F));
    }
    assert_eq!(fen.shredder().to_string(), text);
    assert_eq!(
        fen.to_string(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    // The standard start in Shredder-FEN is the standard start.
    assert_eq!(
        parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"),
        Setup::standard()
    );
    assert_eq!(
        Fen(Setup::standard()).shredder().to_string(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    );
}

#[test]
fn castling_letters_may_come_in_any_order() {
    let standard = parse(START);
    for rights in ["qkQK", "kqKQ", "QKqk", "KkQq", "AHah", "hHaA", "KaQh"] {
        let text = START.replace("KQkq", rights);
        assert_eq!(parse(&text), standard, "{text}");
    }
}

#[test]
fn a_right_without_its_rook_is_read_and_refused_by_validation() {
    let setup = parse("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1");
    assert_eq!(
        setup
            .castling_rights
            .rook(Color::White, CastlingSide::KingSide),
        Some(File::H)
    );
    let problems = Fen(setup)
        .into_position(CastlingMode::Standard)
        .unwrap_err()
        .problems()
        .to_vec();
    assert_eq!(problems.len(), 4, "{problems:?}");
    assert!(
        problems
            .iter()
            .all(|p| matches!(p, SetupProblem::InvalidCastlingRight { .. }))
    );
}

#[test]
fn an_en_passant_square_is_kept_as_written() {
    // No black pawn can take on e3, and the square needs no pawn behind it to be read.
    let setup = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_eq!(setup.ep_square, Some(Square::E3));
    assert_eq!(parse("8/8/8/8/8/8/8/8 w - a6").ep_square, Some(Square::A6));
    assert_eq!(parse("8/8/8/8/8/8/8/8 w - h3").ep_square, Some(Square::H3));
}
