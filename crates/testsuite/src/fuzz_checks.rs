//! The invariants the fuzz targets in `fuzz/` check, as plain functions of arbitrary bytes.
//!
//! Both the fuzz targets (under `cargo fuzz`) and the corpus replay test
//! (`tests/it/fuzz_corpus.rs`, under plain `cargo test`) call these functions, so a crash found by
//! the fuzzer becomes a regression test by adding its input to `fuzz/corpus/<target>/`.
//!
//! Each `check_*` function accepts any input and panics only when caissa breaks an invariant:
//! a parser panics, a round trip changes what was read, or two ways of asking the move generator
//! the same question disagree.

use core::fmt;
use core::num::NonZeroU32;
use core::ops::ControlFlow;
use std::io::Read;
use std::sync::LazyLock;

use caissa_board::{Board, CastlingRights, CastlingSide, Color, File, Piece, Role, Setup, Square};
use caissa_game::dead::{Budget, Winnability, can_win_with};
use caissa_movegen::{CastlingMode, IllegalMoveError, Move, Position, perft};
use caissa_notation::epd::{self, Epd, Operation};
use caissa_notation::fen::{EnPassantMode, Fen};
use caissa_notation::pgn::{
    DEFAULT_CAPACITY, Flow, GameTree, GameTreeBuilder, Layout, Location, MIN_CAPACITY, Nag,
    PgnError, RawComment, RawTag, Reader, Recorder, Replay, ReplayStats, Replayer,
    SEVEN_TAG_ROSTER, Tags, TerminationMarker, VariationChoice, Visitor,
};
use caissa_notation::san::{ParseSanError, San, SanError, SanPlus, StrictSanError};
use caissa_notation::uci::{UciError, UciMove};

/// Asserts that a parse error's byte offset lies within (or just after) the input it was read
/// from.
fn assert_offset_inside(byte: usize, err: &dyn core::fmt::Display, input: &[u8]) {
    assert!(
        byte <= input.len(),
        "{err}: the offset is past the end of the {} bytes read",
        input.len()
    );
}

/// Reads `text`, which caissa wrote, back as a FEN.
fn reparse(text: &str) -> Fen {
    text.parse()
        .unwrap_or_else(|e| panic!("caissa wrote {text:?}, which it cannot read back: {e}"))
}

/// FEN: reading any bytes never panics; what reads writes back (X-FEN and Shredder-FEN) and
/// reads again as the same setup; a setup that validates keeps its fields, and the FEN of the
/// position reads back as the same position in every [`EnPassantMode`].
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check_fen(data: &[u8]) {
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

/// The node budget of [`check_dead`]: small, so that the verdicts come from the proofs rather
/// than from deep searches, and each input is quick.
const DEAD_BUDGET: Budget = Budget { nodes: 1 << 12 };

/// Dead positions: for any legal setup ([`setup_from_bytes`], as [`check_position`] reads it),
/// `can_win` with a small budget answers for each colour without panicking; a winnable verdict's
/// line replays legally and ends with the other side checkmated; an unwinnable verdict never
/// comes for a side that can mate within two plies (mate in one, or after any reply of the side
/// to move).
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check_dead(data: &[u8]) {
    let (setup, mode) = setup_from_bytes(data);
    let Ok(pos) = Position::from_setup(setup, mode) else {
        return;
    };
    for color in Color::ALL {
        match can_win_with(&pos, color, DEAD_BUDGET) {
            Winnability::Winnable(line) => {
                assert_mating_line(&pos, color, &line, &format_args!("{setup:?}"));
            }
            Winnability::Unwinnable => {
                let mated_within_two_plies = if pos.turn() == color {
                    mates_in_one(&pos)
                } else {
                    let mut found = false;
                    pos.for_each_legal_move(|m| {
                        let mut after = pos;
                        after.play_unchecked(m);
                        found |= mates_in_one(&after);
                    });
                    found
                };
                assert!(
                    !mated_within_two_plies,
                    "{setup:?}: {color:?} called unable to win but mates within two plies"
                );
            }
            Winnability::Unknown => {}
        }
    }
}

/// Asserts that `line`, played from `pos`, is legal move by move and ends with `color`'s
/// opponent checkmated: what a winnable verdict of `can_win` promises. `context` names the case
/// in the panic message.
///
/// # Panics
///
/// When the line has an illegal move, or does not end in a mate by `color`.
pub fn assert_mating_line(pos: &Position, color: Color, line: &[Move], context: &dyn fmt::Display) {
    let mut end = *pos;
    for &m in line {
        end = end
            .play(m)
            .unwrap_or_else(|e| panic!("{context}: illegal move in {line:?}: {e}"));
    }
    assert!(end.is_checkmate(), "{context}: {line:?} ends without mate");
    assert_eq!(
        end.turn(),
        !color,
        "{context}: {line:?} mates the wrong side"
    );
}

/// Whether the side to move has a move that checkmates.
fn mates_in_one(pos: &Position) -> bool {
    let mut found = false;
    pos.for_each_legal_move(|m| {
        let mut after = *pos;
        after.play_unchecked(m);
        found |= after.is_checkmate();
    });
    found
}

/// How many bytes [`setup_from_bytes`] reads; what follows drives [`check_position`].
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

/// How many moves [`check_position`] plays at most from the setup, one per byte.
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
pub fn check_position(data: &[u8]) {
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
/// same Zobrist hash, checkers and pins; and perft 2 is the sum of the children's move counts.
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

/// The positions [`check_uci`] and [`check_san`] match moves against: the start, kiwipete
/// (castling both ways, en passant, promotions one move away), a promotion-rich position,
/// Chess960 positions where the king's two-square step and king-takes-rook differ, and one where
/// four queens and pairs of knights share destinations (every kind of disambiguation).
static POSITIONS: LazyLock<Vec<Position>> = LazyLock::new(|| {
    [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            CastlingMode::Standard,
        ),
        ("4k3/8/8/8/8/8/8/5K1R w H - 0 1", CastlingMode::Chess960),
        (
            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
            CastlingMode::Chess960,
        ),
        (
            "7k/8/1N3N2/2Q1Q3/8/2Q1Q3/1N3N2/K7 w - - 0 1",
            CastlingMode::Standard,
        ),
    ]
    .into_iter()
    .map(|(fen, mode)| {
        reparse(fen)
            .into_position(mode)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
    })
    .collect()
});

/// UCI: reading any bytes never panics; what reads prints and reads back the same; matching it
/// against a few positions never panics, and a match is a legal move whose UCI form matches it
/// again (in standard chess, in both castling conventions), while a refusal means no legal
/// move is written that way.
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check_uci(data: &[u8]) {
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
/// legal move whose SAN reads back strictly as the same move; an ambiguity names at least two
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
/// and writing it while playing it plays it.
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
    });
}

/// SAN: reading any bytes never panics, and what reads prints and reads back the same. The
/// first line of the input (all of it, without a newline) is matched against a few positions
/// (see `check_san_in`): the fixed ones of [`check_uci`], and the setup that
/// [`setup_from_bytes`] reads from the bytes after the newline, if it is legal; in that position
/// the SAN of every legal move also reads back as the move.
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check_san(data: &[u8]) {
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
pub fn check_epd(data: &[u8]) {
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

/// One call a PGN [`Reader`] made to a [`Recording`], with what it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Call {
    BeginGame(Location),
    Tag {
        name: Vec<u8>,
        value: Vec<u8>,
        truncated: bool,
        at: Location,
    },
    BeginMovetext,
    San(SanPlus, Location),
    Nag(Nag),
    Comment {
        text: Vec<u8>,
        truncated: bool,
        line_comment: bool,
    },
    BeginVariation(VariationChoice, Location),
    EndVariation,
    TerminationMarker(TerminationMarker, Location),
    EndGame,
    EndMalformedGame(PgnError),
}

/// A PGN visitor that records every call. With `wander`, it also skips every second variation
/// and stops each game at its fourth move, so that the reader's skipping is exercised too.
#[derive(Debug, Default)]
struct Recording {
    calls: Vec<Call>,
    wander: bool,
    variations: usize,
}

impl Visitor for Recording {
    type Tags = ();
    type Movetext = usize;
    type Output = ();
    type Error = PgnError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, ()> {
        self.calls.push(Call::BeginGame(at));
        ControlFlow::Continue(())
    }

    fn tag(&mut self, (): &mut (), name: &[u8], value: RawTag<'_>, at: Location) -> Flow<Self> {
        self.calls.push(Call::Tag {
            name: name.to_vec(),
            value: value.as_bytes().to_vec(),
            truncated: value.is_truncated(),
            at,
        });
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> Flow<Self, usize> {
        self.calls.push(Call::BeginMovetext);
        ControlFlow::Continue(0)
    }

    fn san(&mut self, moves: &mut usize, san: SanPlus, at: Location) -> Flow<Self> {
        self.calls.push(Call::San(san, at));
        *moves += 1;
        if self.wander && *moves == 4 {
            ControlFlow::Break(Ok(()))
        } else {
            ControlFlow::Continue(())
        }
    }

    fn nag(&mut self, _: &mut usize, nag: Nag) -> Flow<Self> {
        self.calls.push(Call::Nag(nag));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut usize, comment: RawComment<'_>) -> Flow<Self> {
        self.calls.push(Call::Comment {
            text: comment.as_bytes().to_vec(),
            truncated: comment.is_truncated(),
            line_comment: comment.is_line_comment(),
        });
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut usize, at: Location) -> Flow<Self, VariationChoice> {
        self.variations += 1;
        let choice = if self.wander && self.variations.is_multiple_of(2) {
            VariationChoice::Skip
        } else {
            VariationChoice::Enter
        };
        self.calls.push(Call::BeginVariation(choice, at));
        ControlFlow::Continue(choice)
    }

    fn end_variation(&mut self, _: &mut usize) -> Flow<Self> {
        self.calls.push(Call::EndVariation);
        ControlFlow::Continue(())
    }

    fn termination_marker(
        &mut self,
        _: &mut usize,
        marker: TerminationMarker,
        at: Location,
    ) -> Flow<Self> {
        self.calls.push(Call::TerminationMarker(marker, at));
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: usize) -> Result<(), PgnError> {
        self.calls.push(Call::EndGame);
        Ok(())
    }

    fn end_malformed_game(&mut self, _: usize, error: PgnError) -> PgnError {
        self.calls.push(Call::EndMalformedGame(error.clone()));
        error
    }
}

/// A [`Read`] that hands out its bytes 1 to 7 at a time (sizes taken from the bytes
/// themselves), so that a PGN reader over it refills its buffer in every state.
struct Trickle<'a> {
    data: &'a [u8],
    at: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let rest = &self.data[self.at..];
        let size = 1 + usize::from(rest.first().copied().unwrap_or(0) % 7);
        let n = size.min(rest.len()).min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.at += n;
        Ok(n)
    }
}

/// The byte length of each line of a PGN input, as the reader counts columns (a byte order mark
/// at the start does not count).
fn line_lengths(data: &[u8]) -> Vec<usize> {
    let bom = if data.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let mut lengths: Vec<usize> = data.split(|&b| b == b'\n').map(<[u8]>::len).collect();
    lengths[0] -= bom;
    lengths
}

/// `at` is a place in the input whose lines are `lines` long: a line of it, and a column
/// inside that line or just after its end.
fn check_location(lines: &[usize], at: Location, what: &dyn fmt::Display) {
    let fits = usize::try_from(at.line)
        .ok()
        .and_then(|line| lines.get(line.checked_sub(1)?))
        .is_some_and(|&len| at.column >= 1 && at.column <= len as u64 + 1);
    assert!(
        fits,
        "{what}: {at} is outside the input (lines of {lines:?} bytes)"
    );
}

/// Reads every game of `reader` with `visitor`: no more games than bytes (every game takes at
/// least one), so reading ends.
fn read_games<R: Read, V: Visitor>(
    mut reader: Reader<R>,
    visitor: &mut V,
    len: usize,
) -> Vec<Result<V::Output, V::Error>> {
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(visitor) {
        games.push(game);
        assert!(games.len() <= len, "{} games in {len} bytes", games.len());
    }
    games
}

/// The calls a [`Recording`] gets from a reader over `data` (a slice, or a [`Trickle`] of it),
/// and what each game gave.
fn record(data: &[u8], trickle: bool, capacity: usize, wander: bool) -> (Vec<Call>, Vec<bool>) {
    let mut recording = Recording {
        wander,
        ..Recording::default()
    };
    let games = if trickle {
        let reader = Reader::with_capacity(Trickle { data, at: 0 }, capacity);
        read_games(reader, &mut recording, data.len())
    } else {
        read_games(
            Reader::with_capacity(data, capacity),
            &mut recording,
            data.len(),
        )
    };
    (recording.calls, games.iter().map(Result::is_ok).collect())
}

/// `other` (what `reader` recorded) is `expected` (what a reader over the slice recorded).
fn assert_same_calls(
    expected: &(Vec<Call>, Vec<bool>),
    other: &(Vec<Call>, Vec<bool>),
    reader: &str,
) {
    let differ = expected.0.iter().zip(&other.0).position(|(a, b)| a != b);
    let at = differ.unwrap_or_else(|| expected.0.len().min(other.0.len()));
    assert!(
        expected == other,
        "{reader} makes other calls from call {at}: {:?} instead of {:?} (games {:?} and {:?})",
        other.0.get(at),
        expected.0.get(at),
        other.1,
        expected.1
    );
}

/// The first problem of each game when reading and replaying are apart: a [`Recorder`]'s game
/// replayed, or for a malformed game what was recorded before the error replayed, then the
/// error.
fn check_with_recorder(data: &[u8]) -> Vec<Result<ReplayStats, String>> {
    let mut recorder = Recorder::new();
    let mut reader = Reader::new(data);
    let mut found = Vec::new();
    while let Some(game) = reader.read_game(&mut recorder) {
        found.push(match game {
            Ok(game) => game.replay().map_err(|e| e.to_string()),
            Err(error) => match recorder.take_malformed() {
                Some(game) => {
                    let start = game.start.clone();
                    let replayed = start
                        .map_err(|e| PgnError::from(e).into())
                        .and_then(|start| game.replay_into(&mut Replay::new(start)));
                    Err(replayed.err().map_or(error.to_string(), |e| e.to_string()))
                }
                None => Err(error.to_string()),
            },
        });
        assert!(found.len() <= data.len(), "more games than bytes");
    }
    found
}

/// The game [`GameTree::write`] is expected to give back once read: the result written out, and in
/// the export layout the seven tag roster first (the first value of each, else its
/// placeholder) and no second tag of a roster name; in the compact layout comments with `}`
/// made `)`. Tag values lose their line breaks either way.
fn written_game(game: &GameTree, layout: Layout) -> GameTree {
    let mut expected = game.clone();
    let marker = game
        .termination_marker
        .or_else(|| game.tags.get("Result").and_then(|r| r.parse().ok()))
        .unwrap_or(TerminationMarker::Unknown);
    expected.termination_marker = Some(marker);
    let mut tags = Tags::new();
    if layout == Layout::Export {
        for (name, placeholder) in SEVEN_TAG_ROSTER {
            let value = match (game.tags.get(name), game.termination_marker) {
                (Some(value), _) => value,
                (None, Some(marker)) if name == "Result" => marker.as_str(),
                (None, _) => placeholder,
            };
            tags.push(name.to_owned(), value.to_owned());
        }
    }
    for (name, value) in game.tags.iter() {
        if layout == Layout::Compact || !SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == name) {
            tags.push(name.to_owned(), value.to_owned());
        }
    }
    expected.tags = Tags::new();
    for (name, value) in tags.iter() {
        expected
            .tags
            .push(name.to_owned(), value.replace(['\n', '\r'], " "));
    }
    if layout == Layout::Compact {
        let braces = |comments: &mut Vec<String>| {
            for comment in comments {
                *comment = comment.replace('}', ")");
            }
        };
        braces(&mut expected.comments);
        let mut stack = expected.roots().to_vec();
        while let Some(id) = stack.pop() {
            let node = expected.node_mut(id);
            braces(&mut node.comments_before);
            braces(&mut node.comments);
            stack.extend_from_slice(node.children());
        }
    }
    expected
}

/// Writing `game` in both layouts and reading the text back gives one well-formed game, the
/// one [`written_game`] expects, and writing that gives the same text.
fn check_pgn_round_trip(game: &GameTree) {
    for layout in [Layout::Export, Layout::Compact] {
        let mut text = String::new();
        game.write(&mut text, layout);
        let games = read_games(
            Reader::new(text.as_bytes()),
            &mut GameTreeBuilder,
            text.len(),
        );
        let [Ok(read)] = &games[..] else {
            panic!("{layout:?}: caissa wrote\n{text}\nwhich reads as {games:?}");
        };
        assert_eq!(
            *read,
            written_game(game, layout),
            "{layout:?}: caissa wrote\n{text}\nwhich reads as another game"
        );
        let mut again = String::new();
        read.write(&mut again, layout);
        assert_eq!(again, text, "{layout:?}: written twice, the texts differ");
    }
}

/// `data` without the blanks (spaces, tabs, carriage returns) at the end of its lines.
fn without_trailing_blanks(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    for (i, mut line) in data.split(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        while let [rest @ .., b' ' | b'\t' | b'\r'] = line {
            line = rest;
        }
        out.extend_from_slice(line);
    }
    out
}

/// Blanks at the end of lines mean nothing: without them, `data` reads as the same games
/// (`built`), and malformed games fail in the same way on the same line.
fn check_pgn_trailing_blanks(data: &[u8], built: &[Result<GameTree, PgnError>]) {
    let stripped = without_trailing_blanks(data);
    if stripped == data {
        return;
    }
    let again = read_games(
        Reader::new(&stripped[..]),
        &mut GameTreeBuilder,
        stripped.len(),
    );
    assert_eq!(
        again.len(),
        built.len(),
        "without blanks at the ends of lines, the games are {again:?}, not {built:?}"
    );
    for (i, (game, same)) in built.iter().zip(&again).enumerate() {
        let fits = match (game, same) {
            (Ok(game), Ok(same)) => game == same,
            (Err(error), Err(same)) => {
                (&error.kind, error.location.line) == (&same.kind, same.location.line)
            }
            _ => false,
        };
        assert!(
            fits,
            "game {i}: without blanks at the ends of lines it reads as {same:?}, not {game:?}"
        );
    }
}

/// PGN: reading any bytes never panics and ends, with no more games than bytes; every location
/// the reader reports (errors, games, tags, moves) is inside the input. A reader fed 1 to 7
/// bytes per `read` makes the same visitor calls as one over the slice (also with the smallest
/// buffer, when the input is shorter than it), including when the visitor skips variations and
/// stops games early. Every visitor sees the same number of games, and blanks at the ends of lines
/// change nothing (see `check_pgn_trailing_blanks`). The replayers agree: the
/// [`Replayer`] and a [`Recorder`] whose games are replayed afterwards find the same first
/// problem of each game; a game that replays does so main line only too, and its tree (from
/// [`GameTreeBuilder`]) replays to the same position. Every well-formed game written in both
/// layouts reads back as the same game (see `check_pgn_round_trip`).
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check_pgn(data: &[u8]) {
    let lines = line_lengths(data);
    let (calls, games_ok) = record(data, false, DEFAULT_CAPACITY, false);
    for call in &calls {
        match call {
            Call::BeginGame(at) | Call::Tag { at, .. } | Call::San(_, at) => {
                check_location(&lines, *at, &format_args!("{call:?}"));
            }
            Call::EndMalformedGame(error) => check_location(&lines, error.location, error),
            _ => {}
        }
    }
    for wander in [false, true] {
        let by_slice = record(data, false, DEFAULT_CAPACITY, wander);
        let trickled = record(data, true, DEFAULT_CAPACITY, wander);
        assert_same_calls(&by_slice, &trickled, "a reader fed a few bytes at a time");
        let small = record(data, true, MIN_CAPACITY, wander);
        // Shorter than the buffer, so that the reader sees the end of the input before the buffer
        // is full.
        if data.len() < MIN_CAPACITY {
            assert_same_calls(&by_slice, &small, "a reader with the smallest buffer");
        }
    }

    let built = read_games(Reader::new(data), &mut GameTreeBuilder, data.len());
    check_pgn_trailing_blanks(data, &built);
    let replayed = read_games(Reader::new(data), &mut Replayer::new(), data.len());
    let mainline = read_games(
        Reader::new(data),
        &mut Replayer::mainline_only(),
        data.len(),
    );
    let checked = check_with_recorder(data);
    let counts = [built.len(), replayed.len(), mainline.len(), checked.len()];
    assert!(
        counts.iter().all(|&n| n == games_ok.len()),
        "visitors see different numbers of games: {counts:?} and {}",
        games_ok.len()
    );
    for (i, game) in built.iter().enumerate() {
        match game {
            Ok(game) => check_pgn_round_trip(game),
            Err(error) => {
                check_location(&lines, error.location, error);
                assert!(
                    !games_ok[i],
                    "game {i}: {error}, but the recording saw it end"
                );
            }
        }
    }
    for (i, replay) in replayed.iter().enumerate() {
        let problem = match replay {
            Ok(stats) => Ok(*stats),
            Err(error) => {
                check_location(&lines, error.location, error);
                Err(error.to_string())
            }
        };
        assert_eq!(
            problem, checked[i],
            "game {i}: replayer and recorder disagree"
        );
        let Ok(stats) = problem else {
            continue;
        };
        match &mainline[i] {
            Ok(main) => {
                assert_eq!(
                    (main.moves, main.mainline_moves, main.position),
                    (stats.mainline_moves, stats.mainline_moves, stats.position),
                    "game {i}: the main line alone replays otherwise"
                );
            }
            other => panic!("game {i} replays, but not its main line alone: {other:?}"),
        }
        let game = built[i]
            .as_ref()
            .unwrap_or_else(|e| panic!("game {i} replays, but does not read: {e}"));
        let start = game
            .start_position()
            .unwrap_or_else(|e| panic!("game {i} replays, but has no start: {e}"));
        let mut replay = Replay::new(start);
        for node in game.mainline() {
            replay
                .play(node.san, Location::default())
                .unwrap_or_else(|e| panic!("game {i}: its tree does not replay: {e}"));
        }
        let tree = replay.finish();
        assert_eq!(
            (tree.mainline_moves, tree.position),
            (stats.mainline_moves, stats.position),
            "game {i}: its tree replays otherwise"
        );
    }
}
