//! Fuzz target `position`: a setup in a byte format of its own ([`setup_from_bytes`]), then bogus
//! moves and a walk through the game tree; the move generator's answers must agree.

use core::num::NonZeroU32;

use caissa_board::{
    Bitboard, Board, CastlingRights, CastlingSide, Color, File, Piece, Role, Setup, Square,
};
use caissa_movegen::{CastlingMode, IllegalMoveError, Move, Position, perft};
use caissa_notation::fen::{EnPassantMode, Fen};

/// How many bytes [`setup_from_bytes`] reads; what follows drives [`check`].
pub const SETUP_BYTES: usize = 40;

const FLAG_BLACK: u8 = 1;
const FLAG_CHESS960: u8 = 2;
const FLAG_EP: u8 = 4;
const CASTLING_SET: u8 = 8;
const COUNTER_MAX: u8 = 0xff;
/// The castling right each of bytes 2 to 5 stands for.
const CASTLING_BYTES: [(Color, CastlingSide); 4] = [
    (Color::White, CastlingSide::KingSide),
    (Color::White, CastlingSide::QueenSide),
    (Color::Black, CastlingSide::KingSide),
    (Color::Black, CastlingSide::QueenSide),
];

/// A counter byte: `0xff` stands for `u32::MAX`, so the extremes are one mutation away.
fn counter(byte: u8) -> u32 {
    if byte == COUNTER_MAX {
        u32::MAX
    } else {
        u32::from(byte)
    }
}

/// A placement nibble: `1..=6` white pawn to king, `7..=12` black, anything else empty.
fn piece_from_nibble(nibble: u8) -> Option<Piece> {
    let index = usize::from(nibble).checked_sub(1)?;
    let role = Role::from_index(index % 6)?;
    let color = match index / 6 {
        0 => Color::White,
        1 => Color::Black,
        _ => return None,
    };
    Some(role.of(color))
}

/// Reads a setup (valid or not) and a castling mode from the first [`SETUP_BYTES`] bytes of
/// `data`; missing bytes read as zero. The layout:
///
/// - byte 0: flags, bit 0 black to move, bit 1 Chess960, bit 2 an en passant square;
/// - byte 1: the en passant square's index (low six bits);
/// - bytes 2 to 5: white king side, white queen side, black king side, black queen side castling
///   rights; bit 3 grants the right, the low three bits are the rook file;
/// - bytes 6 and 7: halfmove clock and fullmove number (`0xff` is `u32::MAX`; fullmove 0 is 1);
/// - bytes 8 to 39: the placement, a nibble a square from a1 to h8, low nibble first: `1..=6`
///   white pawn, knight, bishop, rook, queen, king; `7..=12` the same for black; else empty.
#[must_use]
pub fn setup_from_bytes(data: &[u8]) -> (Setup, CastlingMode) {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let flags = byte(0);
    let mut board = Board::empty();
    for sq in Square::ALL {
        let packed = byte(8 + sq.index() / 2);
        let nibble = if sq.index() % 2 == 0 {
            packed & 0x0f
        } else {
            packed >> 4
        };
        if let Some(piece) = piece_from_nibble(nibble) {
            board.set_piece_at(sq, piece);
        }
    }
    let mut castling_rights = CastlingRights::NONE;
    for (i, (color, side)) in CASTLING_BYTES.into_iter().enumerate() {
        let b = byte(2 + i);
        if b & CASTLING_SET != 0 {
            castling_rights.set(color, side, File::new(u32::from(b & 7)));
        }
    }
    let setup = Setup {
        board,
        turn: if flags & FLAG_BLACK != 0 {
            Color::Black
        } else {
            Color::White
        },
        castling_rights,
        ep_square: (flags & FLAG_EP != 0).then(|| Square::new_wrapping(u32::from(byte(1)))),
        halfmoves: counter(byte(6)),
        fullmoves: NonZeroU32::new(counter(byte(7))).unwrap_or(NonZeroU32::MIN),
    };
    let mode = if flags & FLAG_CHESS960 != 0 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    (setup, mode)
}

/// The bytes [`setup_from_bytes`] reads back as `setup` and `mode`, for seeding the corpus.
/// Counters above 254 are written as `u32::MAX`.
#[must_use]
pub fn setup_to_bytes(setup: &Setup, mode: CastlingMode) -> [u8; SETUP_BYTES] {
    let mut bytes = [0; SETUP_BYTES];
    bytes[0] = setup.turn.fold(0, FLAG_BLACK)
        | if mode == CastlingMode::Chess960 {
            FLAG_CHESS960
        } else {
            0
        };
    if let Some(ep) = setup.ep_square {
        bytes[0] |= FLAG_EP;
        bytes[1] = ep.index() as u8;
    }
    for (i, (color, side)) in CASTLING_BYTES.into_iter().enumerate() {
        if let Some(file) = setup.castling_rights.rook(color, side) {
            bytes[2 + i] = CASTLING_SET | file.index() as u8;
        }
    }
    let clamp = |n: u32| u8::try_from(n).unwrap_or(COUNTER_MAX);
    bytes[6] = clamp(setup.halfmoves);
    bytes[7] = clamp(setup.fullmoves.get());
    for (sq, piece) in setup.board.pieces() {
        let nibble = piece.index() as u8 + 1;
        bytes[8 + sq.index() / 2] |= if sq.index() % 2 == 0 {
            nibble
        } else {
            nibble << 4
        };
    }
    bytes
}

/// A move of any kind from two bytes, legal or (mostly) not: origin and destination in the low
/// six bits, the kind in the top two bits of both.
fn move_from_bytes(a: u8, b: u8) -> Move {
    let from = Square::new_wrapping(u32::from(a));
    let to = Square::new_wrapping(u32::from(b));
    match (a >> 6) | (b >> 6) << 2 {
        1 => Move::en_passant(from, to),
        2 => Move::castle(from, to),
        kind @ 3..=6 => Move::promotion(from, to, Role::PROMOTIONS[usize::from(kind - 3)]),
        _ => Move::normal(from, to),
    }
}

/// Every kind of move between the squares of `m`.
fn variants(m: Move) -> [Move; 7] {
    let (from, to) = (m.from(), m.to());
    [
        Move::normal(from, to),
        Move::en_passant(from, to),
        Move::castle(from, to),
        Move::promotion(from, to, Role::Queen),
        Move::promotion(from, to, Role::Rook),
        Move::promotion(from, to, Role::Bishop),
        Move::promotion(from, to, Role::Knight),
    ]
}

/// How many moves [`check`] plays at most from the setup, one per byte.
const MAX_WALK: usize = 64;

/// Move generation: any bytes read by [`setup_from_bytes`] validate without panicking; in a
/// legal position the move list, the move count, perft, `is_legal`, `play` and make-move agree
/// (see `check_moves`). The bytes after the setup are read as bogus moves (two bytes each)
/// and then as a walk: each byte picks the legal move to play next, and every position on the
/// way is checked too.
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    let (setup, mode) = setup_from_bytes(data);
    let tail = data.get(SETUP_BYTES..).unwrap_or_default();
    let mut pos = match Position::from_setup(setup, mode) {
        Ok(pos) => pos,
        Err(err) => {
            assert!(
                !err.problems().is_empty(),
                "{setup:?}: an error without problems"
            );
            return;
        }
    };
    check_moves(&pos, tail);
    for &choice in tail.iter().take(MAX_WALK) {
        let moves = pos.legal_moves();
        let Some(&m) = moves.get(usize::from(choice) % moves.len().max(1)) else {
            break;
        };
        pos.play_unchecked(m);
        check_moves(&pos, &[]);
    }
}

/// The move generator's answers for `pos` agree with each other: the list has no duplicates and
/// as many moves as `count_legal_moves` says; `castling_move` finds the generator's castling
/// moves; `is_legal` accepts each of them and refuses every
/// other kind of move between the same squares and every move built from `bogus`; `play`
/// matches `play_unchecked` or refuses; each child rebuilt from its setup validates with the
/// same Zobrist hash, checkers and pins; perft 2 is the sum of the children's move counts; and
/// `pawn_targets` gives each pawn's listed targets.
fn check_moves(pos: &Position, bogus: &[u8]) {
    let fen = Fen::from_position(pos, EnPassantMode::Always);
    let moves = pos.legal_moves();
    assert_eq!(
        pos.count_legal_moves(),
        moves.len() as u64,
        "{fen}: count and list differ"
    );
    let mut sorted = moves.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(
        sorted.len(),
        moves.len(),
        "{fen}: a move is listed twice: {moves:?}"
    );

    for side in CastlingSide::ALL {
        let generated = moves
            .iter()
            .copied()
            .find(|m| m.castling_side() == Some(side));
        assert_eq!(
            pos.castling_move(side),
            generated,
            "{fen}: castling_move({side:?}) differs from the generator"
        );
    }

    let mut grandchildren = 0;
    for &m in &moves {
        let mut child = *pos;
        child.play_unchecked(m);
        let played = pos.play(m).map(|p| p.to_setup());
        assert_eq!(
            played,
            Ok(child.to_setup()),
            "{fen}: play({m:?}) differs from play_unchecked"
        );
        let rebuilt = Position::from_setup(child.to_setup(), pos.castling_mode())
            .unwrap_or_else(|e| panic!("{fen}: after {m:?} the position does not validate: {e}"));
        assert_eq!(
            rebuilt, child,
            "{fen}: after {m:?} the rebuilt position differs"
        );
        assert_eq!(
            rebuilt.zobrist_hash(),
            child.zobrist_hash(),
            "{fen}: after {m:?} the incremental hash differs from the rebuilt one"
        );
        assert_eq!(
            rebuilt.checkers(),
            child.checkers(),
            "{fen}: after {m:?}: checkers"
        );
        assert_eq!(
            rebuilt.pinned(),
            child.pinned(),
            "{fen}: after {m:?}: pinned pieces"
        );
        grandchildren += child.count_legal_moves();
        for variant in variants(m) {
            check_is_legal(pos, &fen, &moves, variant);
        }
    }
    assert_eq!(perft(pos, 2), grandchildren, "{fen}: perft 2");
    for from in Square::ALL {
        let is_our_pawn = (pos.board().pawns() & pos.board().by_color(pos.turn())).contains(from);
        let listed = moves
            .iter()
            .filter(|m| is_our_pawn && m.from() == from)
            .fold(Bitboard::EMPTY, |targets, m| targets.with(m.to()));
        assert_eq!(
            pos.pawn_targets(from),
            listed,
            "{fen}: pawn_targets({from:?}) disagrees with the list"
        );
    }
    for pair in bogus.chunks_exact(2) {
        check_is_legal(pos, &fen, &moves, move_from_bytes(pair[0], pair[1]));
    }
}

/// `is_legal` and `play` agree with the move list about `m`.
fn check_is_legal(pos: &Position, fen: &Fen, moves: &[Move], m: Move) {
    let listed = moves.contains(&m);
    assert_eq!(
        pos.is_legal(m),
        listed,
        "{fen}: is_legal({m:?}) disagrees with the list"
    );
    if !listed {
        assert_eq!(
            pos.play(m).map(|p| p.to_setup()),
            Err(IllegalMoveError { mv: m }),
            "{fen}: play({m:?}) accepted an illegal move"
        );
    }
}
