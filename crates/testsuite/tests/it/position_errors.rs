//! `Position::from_setup` reports every problem of a setup, each as the right `SetupProblem`,
//! in order, and accepts the legal setups that look like them.

use caissa_board::{CastlingSide, Color, File, Square};
use caissa_movegen::{CastlingMode, SetupProblem};
use caissa_notation::fen::Fen;

use CastlingMode::{Chess960, Standard};
use CastlingSide::{KingSide, QueenSide};
use Color::{Black, White};
use SetupProblem::*;

/// A FEN and the problems validating it must report, in order; none means the setup is legal.
type Case<'a> = (&'a str, &'a [SetupProblem]);

/// Validates each FEN in `mode` and compares the problems, and the error's message, with the
/// expected ones.
fn check(mode: CastlingMode, cases: &[Case<'_>]) {
    for &(fen, expected) in cases {
        let result = fen
            .parse::<Fen>()
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .into_position(mode);
        match result {
            Ok(_) => assert!(
                expected.is_empty(),
                "{fen} ({mode:?}) validates, expected {expected:?}"
            ),
            Err(err) => {
                assert_eq!(err.problems(), expected, "{fen} ({mode:?})");
                let message = err.to_string();
                for problem in expected {
                    assert!(
                        message.contains(&problem.to_string()),
                        "{message:?} lacks {problem}"
                    );
                }
            }
        }
    }
}

const fn castling(color: Color, side: CastlingSide, rook_file: File) -> SetupProblem {
    InvalidCastlingRight {
        color,
        side,
        rook_file,
    }
}

#[test]
#[rustfmt::skip]
fn kings() {
    check(Standard, &[
        ("8/8/8/8/8/8/8/8 w - - 0 1", &[MissingKing(White), MissingKing(Black)]),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", &[MissingKing(White)]),
        ("8/8/8/8/8/8/8/4K3 b - - 0 1", &[MissingKing(Black)]),
        ("4k3/8/8/8/8/8/8/2K1K3 w - - 0 1", &[TooManyKings(White, 2)]),
        ("k1k1k3/8/8/8/8/8/8/4K3 w - - 0 1", &[TooManyKings(Black, 3)]),
        ("4k3/8/8/8/8/8/8/KKKKKKKK w - - 0 1", &[TooManyKings(White, 8)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn pawns_on_back_ranks_are_listed_in_square_order() {
    check(Standard, &[
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", &[PawnOnBackRank(Square::A8)]),
        ("P3k2p/8/8/8/8/8/8/p3K2P w - - 0 1", &[
            PawnOnBackRank(Square::A1),
            PawnOnBackRank(Square::H1),
            PawnOnBackRank(Square::A8),
            PawnOnBackRank(Square::H8),
        ]),
        ("4k3/P7/8/8/8/8/p7/4K3 w - - 0 1", &[]),
    ]);
}

#[test]
#[rustfmt::skip]
fn the_side_not_to_move_must_not_be_in_check() {
    check(Standard, &[
        ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", &[OppositeCheck]),
        ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", &[OppositeCheck]),
        ("4k3/8/8/8/8/8/3p4/4K3 b - - 0 1", &[OppositeCheck]),
        ("8/8/8/8/8/8/8/3kK3 w - - 0 1", &[OppositeCheck]),
        // The same positions with the checked side to move are legal.
        ("4k3/4R3/8/8/8/8/8/4K3 b - - 0 1", &[]),
        ("4k3/8/8/8/8/8/8/4K2r w - - 0 1", &[]),
    ]);
}

#[test]
#[rustfmt::skip]
fn checks_no_move_could_have_given() {
    check(Standard, &[
        // Three checkers: two knights and a rook; a bishop, a queen and a rook.
        ("4k3/8/3N1N2/8/8/8/8/K3R3 b - - 0 1", &[ImpossibleCheck]),
        ("4k3/8/8/1B5Q/8/8/8/K3R3 b - - 0 1", &[ImpossibleCheck]),
        // Two knights; a pawn and a knight.
        ("4k3/8/3N1N2/8/8/8/8/K7 b - - 0 1", &[ImpossibleCheck]),
        ("4k3/3P4/5N2/8/8/8/8/K7 b - - 0 1", &[ImpossibleCheck]),
        // Two sliders on one line, on both sides of the king: rooks on a file, a bishop and a
        // queen on a diagonal.
        ("4R3/8/8/4k3/8/8/8/K3R3 b - - 0 1", &[ImpossibleCheck]),
        ("7B/8/8/4k3/8/8/1Q6/K7 b - - 0 1", &[ImpossibleCheck]),
        // Legal double checks: a knight and a rook, a bishop and a rook.
        ("4k3/8/5N2/8/8/8/8/K3R3 b - - 0 1", &[]),
        ("4k3/8/8/1B6/8/8/8/K3R3 b - - 0 1", &[]),
        // A single check by anything is possible.
        ("4k3/3P4/8/8/8/8/8/K7 b - - 0 1", &[]),
    ]);
}

#[test]
#[rustfmt::skip]
fn a_check_must_fit_the_en_passant_square() {
    check(Standard, &[
        // White just played d2-d4, yet a rook on e1 that d4 never blocked gives check.
        ("4k3/8/8/8/3P4/8/8/K3R3 b - d3 0 1", &[ImpossibleCheck]),
        // Without the en passant square the same check is fine.
        ("4k3/8/8/8/3P4/8/8/K3R3 b - - 0 1", &[]),
        // The pushed pawn gives check.
        ("8/8/8/4k3/3P4/8/8/K7 b - d3 0 1", &[]),
        // The push uncovered the c1 bishop's diagonal through d2.
        ("8/8/7k/8/3P4/8/8/K1B5 b - d3 0 1", &[]),
        // The pushed pawn gives check, but so does a rook the push did not uncover.
        ("8/8/8/4k3/3P4/8/8/K3R3 b - d3 0 1", &[ImpossibleCheck]),
        // A knight check cannot come from a pawn push.
        ("4k3/8/5N2/8/3P4/8/8/K7 b - d3 0 1", &[ImpossibleCheck]),
        // Before c2-c4 the f7 bishop checked along the diagonal c4 now blocks, with White to
        // move; the queen's check through c2 alone would be a discovered one.
        ("8/5B2/8/8/2P5/8/k4Q2/7K b - c3 0 1", &[ImpossibleCheck]),
        ("8/2B5/8/3QB3/5P2/2K3k1/1B6/4B3 b - f3 0 1", &[ImpossibleCheck]),
        // The pushed pawn gives check, but before e7-e5 the g7 bishop checked through e5.
        ("k7/6b1/8/4p3/3K4/8/8/8 w - e6 0 1", &[ImpossibleCheck]),
        // No check now, but one before the push, through the square the pawn now holds.
        ("8/8/8/8/k1P3R1/8/8/7K b - c3 0 1", &[ImpossibleCheck]),
        // The same positions without the en passant square are legal.
        ("8/8/8/8/k1P3R1/8/8/7K b - - 0 1", &[]),
    ]);
}

#[test]
#[rustfmt::skip]
fn en_passant_squares_need_a_pawn_that_just_passed() {
    check(Standard, &[
        ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", &[]),
        // No pawn in front of the square.
        ("4k3/8/8/8/8/8/8/4K3 b - e3 0 1", &[InvalidEnPassant(Square::E3)]),
        ("4k3/8/8/8/8/8/8/4K3 w - c6 0 1", &[InvalidEnPassant(Square::C6)]),
        // The pawn in front is the side to move's own.
        ("4k3/8/8/8/4p3/8/8/4K3 b - e3 0 1", &[InvalidEnPassant(Square::E3)]),
        // The square itself, or the pawn's origin, is occupied.
        ("4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1", &[InvalidEnPassant(Square::E3)]),
        ("4k3/8/8/8/4P3/8/4N3/4K3 b - e3 0 1", &[InvalidEnPassant(Square::E3)]),
        // The square is on the mover's side of the board: white cannot capture on e3.
        ("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", &[InvalidEnPassant(Square::E3)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn castling_rights_in_standard_chess() {
    check(Standard, &[
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &[]),
        // The king is not on e1.
        ("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1", &[
            castling(White, KingSide, File::H),
            castling(White, QueenSide, File::A),
        ]),
        // The rook is not on h1 (X-FEN `K` names the g1 rook).
        ("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", &[castling(White, KingSide, File::G)]),
        // The rook is missing, or is the other side's.
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", &[castling(White, KingSide, File::H)]),
        ("4k3/8/8/8/8/8/8/4K1Nr w K - 0 1", &[castling(White, KingSide, File::H)]),
        ("r3k3/8/8/8/8/8/8/4K3 b q - 0 1", &[]),
        ("4k3/8/8/8/8/8/8/R3K3 b q - 0 1", &[castling(Black, QueenSide, File::A)]),
        // The king is off its back rank.
        ("r6r/4k3/8/8/8/8/8/4K3 b kq - 0 1", &[
            castling(Black, KingSide, File::H),
            castling(Black, QueenSide, File::A),
        ]),
    ]);
}

#[test]
#[rustfmt::skip]
fn castling_rights_in_chess960() {
    check(Chess960, &[
        // What standard chess refuses, Chess960 accepts.
        ("4k3/8/8/8/8/8/8/R2K3R w KQ - 0 1", &[]),
        ("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", &[]),
        ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", &[]),
        // An inner rook named by its file.
        ("4k3/8/8/8/8/8/8/RR2K1R1 w GB - 0 1", &[]),
        // The rook is missing.
        ("4k3/8/8/8/8/8/8/1R2K3 w GB - 0 1", &[castling(White, KingSide, File::G)]),
        // The king is off its back rank.
        ("4k3/8/8/8/8/8/4K3/R6R w HA - 0 1", &[
            castling(White, KingSide, File::H),
            castling(White, QueenSide, File::A),
        ]),
        // A file letter for a square that holds a knight.
        ("4k3/8/8/8/8/8/8/RN2K2R w B - 0 1", &[castling(White, QueenSide, File::B)]),
    ]);
}

#[test]
#[rustfmt::skip]
fn several_problems_are_reported_together() {
    check(Standard, &[
        ("P7/8/8/8/8/8/8/8 w KQ e6 0 1", &[
            MissingKing(White),
            MissingKing(Black),
            PawnOnBackRank(Square::A8),
            castling(White, KingSide, File::H),
            castling(White, QueenSide, File::A),
            InvalidEnPassant(Square::E6),
        ]),
        ("k1k5/8/8/8/8/8/8/4K2p w K e3 0 1", &[
            TooManyKings(Black, 2),
            PawnOnBackRank(Square::H1),
            castling(White, KingSide, File::H),
            InvalidEnPassant(Square::E3),
        ]),
        // Both check problems at once: black is in check with white to move, and white's king
        // is attacked by two knights.
        ("4k3/4R3/8/8/8/1n6/2n5/K7 w - - 0 1", &[OppositeCheck, ImpossibleCheck]),
        // With one king a side, the checks are judged whatever else is wrong: a castling
        // right without its rook and two rooks checking along one file; a pawn on the back
        // rank and the side not to move in check; an en passant square without its pawn (left
        // out of the check test) and two knights.
        ("4R3/8/8/4k3/8/8/8/K3R3 b k - 0 1", &[
            castling(Black, KingSide, File::H),
            ImpossibleCheck,
        ]),
        ("P3k3/4R3/8/8/8/8/8/K7 w - - 0 1", &[PawnOnBackRank(Square::A8), OppositeCheck]),
        ("4k3/8/3N1N2/8/8/8/8/K7 b - e3 0 1", &[
            InvalidEnPassant(Square::E3),
            ImpossibleCheck,
        ]),
    ]);
}
