//! Writing: the SAN of a legal move ([`San::from_move`], [`SanPlus::from_move`]), naming the
//! origin only as far as another legal move requires, also from the SAN that a replay resolved
//! to it ([`SanPlus::from_resolved`], which need not look for the other moves when the text
//! named no origin), and writing it out ([`Display`], `append_to`).
//!
//! [`Display`]: core::fmt::Display

use core::fmt::{self, Write as _};

use caissa_board::{Bitboard, CastlingSide, File, Rank, Role, Square};
use caissa_movegen::{Move, MovesTo, Position, attacks};

use super::{San, SanPlus, Suffix};

/// The origin's file and rank as far as SAN names them for a move of the `role` on `from` to
/// `to`: nothing when no other piece of that kind can go there; else its file if that tells
/// the pieces apart, else its rank, else both.
fn disambiguation(
    pos: &Position,
    role: Role,
    from: Square,
    to: Square,
) -> (Option<File>, Option<Rank>) {
    // Every move of a piece onto `to` is an attack on it: with no other piece of its kind
    // attacking `to`, none needs naming (most moves; this spares the legality checks).
    let board = pos.board();
    let attackers = match role {
        Role::Knight => attacks::knight(to),
        Role::Bishop => attacks::bishop(to, board.occupied()),
        Role::Rook => attacks::rook(to, board.occupied()),
        Role::Queen => attacks::queen(to, board.occupied()),
        Role::Pawn | Role::King => Bitboard::EMPTY,
    };
    if (attackers & board.by_piece(role.of(pos.turn())))
        .without(from)
        .is_empty()
    {
        return (None, None);
    }
    let MovesTo::Ambiguous(candidates) = pos.moves_to(role, Bitboard::FULL, to, None) else {
        return (None, None);
    };
    let (mut same_file, mut same_rank) = (false, false);
    for other in candidates.as_slice().iter().map(|m| m.from()) {
        if other != from {
            same_file |= other.file() == from.file();
            same_rank |= other.rank() == from.rank();
        }
    }
    (
        (!same_file || same_rank).then_some(from.file()),
        same_file.then_some(from.rank()),
    )
}

impl San {
    /// The SAN of `m`, a legal move of `pos`, with the minimal disambiguation.
    ///
    /// # Panics
    ///
    /// If `m`'s origin is empty in `pos`. Any other move that is not legal here gets some SAN
    /// without a panic, but not a meaningful one.
    #[must_use]
    pub fn from_move(pos: &Position, m: Move) -> San {
        if let Some(side) = m.castling_side() {
            return San::Castle(side);
        }
        let role = pos.moving_role(m);
        let (from, to) = (m.from(), m.to());
        let capture = pos.captured_role(m).is_some();
        let (file, rank) = match role {
            Role::Pawn => (capture.then_some(from.file()), None),
            // There is one king.
            Role::King => (None, None),
            _ => disambiguation(pos, role, from, to),
        };
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: m.promotion_role(),
        }
    }

    /// [`SanPlus::from_resolved`] without the suffix: the SAN of `m`, a legal move of `before`
    /// that `written` stands for, for a caller that finds the suffix itself (a writer that
    /// puts the mate test after a check off, say).
    ///
    /// # Panics
    ///
    /// May panic if `m` is not a legal move of `before`. A `written` that does not stand for
    /// `m` gives a wrong SAN.
    #[must_use]
    pub fn from_resolved(written: San, before: &Position, m: Move) -> San {
        match written {
            // Castling written as a king move aside. (A pawn found without its file was
            // looked for on the square's file: it moves straight, and names no file.)
            San::Normal {
                role,
                file: None,
                rank: None,
                to,
                ..
            } if !m.is_castle() => San::Normal {
                role,
                file: None,
                rank: None,
                capture: before.is_capture(m),
                to,
                promotion: m.promotion_role(),
            },
            _ => San::from_move(before, m),
        }
    }

    /// Appends the SAN to `out`.
    pub fn append_to(&self, out: &mut String) {
        out.extend(self.text().as_bytes().iter().map(|&b| char::from(b)));
    }

    /// The SAN as ASCII bytes, laid out without `fmt`.
    pub(crate) fn text(&self) -> SanText {
        let mut text = SanText::default();
        self.bytes_to(|b| text.push(b));
        text
    }

    /// Hands the SAN's ASCII bytes to `push`, in order, at most 8 of them: what the PGN writer
    /// does once a move, so without `fmt`, characters or a buffer between.
    #[inline]
    pub(crate) fn bytes_to(&self, mut push: impl FnMut(u8)) {
        match *self {
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    push(ROLE_LETTERS[role.index()]);
                }
                if let Some(file) = file {
                    push(b'a' + file as u8);
                }
                if let Some(rank) = rank {
                    push(b'1' + rank as u8);
                }
                if capture {
                    push(b'x');
                }
                push(b'a' + to.file() as u8);
                push(b'1' + to.rank() as u8);
                if let Some(role) = promotion {
                    push(b'=');
                    push(ROLE_LETTERS[role.index()]);
                }
            }
            San::Castle(side) => side.san().bytes().for_each(push),
            San::Null => {
                push(b'-');
                push(b'-');
            }
        }
    }
}

/// The uppercase letter of each role, by [`Role::index`].
const ROLE_LETTERS: [u8; 6] = {
    let mut letters = [0; 6];
    let mut i = 0;
    while i < Role::ALL.len() {
        letters[i] = Role::ALL[i].upper_char() as u8;
        i += 1;
    }
    letters
};

/// A SAN with its suffix as ASCII bytes, on the stack. Room for 9: a letter, the origin's file
/// and rank, `x`, the target, `=` and a letter, and `+` or `#` (a legal move needs at most 7,
/// as `Qh4xe1#` or `exd8=Q#`).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SanText {
    bytes: [u8; 16],
    len: usize,
}

impl SanText {
    /// Appends `b`, an ASCII byte of a SAN.
    fn push(&mut self, b: u8) {
        // At most 9 bytes come: the index never wraps, and the mask spares a bounds check.
        self.bytes[self.len % 16] = b;
        self.len += 1;
    }

    /// The bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl SanPlus {
    /// The SAN of `m`, a legal move of `pos`, with `+` or `#` found by playing it on a copy.
    ///
    /// # Panics
    ///
    /// May panic if `m` is not a legal move of `pos`.
    #[must_use]
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let mut after = *pos;
        SanPlus::from_move_and_play_unchecked(&mut after, m)
    }

    /// The SAN of `m`, a legal move of `before`, with the suffix that `after`, the position
    /// `m` leads to, calls for: [`SanPlus::from_move`] for a caller that has played the move
    /// already (a replay), without playing it again.
    ///
    /// ```
    /// use caissa_notation::Position;
    /// use caissa_notation::san::SanPlus;
    ///
    /// let before: Position = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".parse()?;
    /// let m = "a1a8".parse::<caissa_notation::uci::UciMove>()?.to_move(&before)?;
    /// let after = before.play(m)?;
    /// assert_eq!(SanPlus::from_played(&before, m, &after).to_string(), "Ra8#");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    ///
    /// May panic if `m` is not a legal move of `before`. A wrong `after` gives a wrong suffix.
    #[must_use]
    pub fn from_played(before: &Position, m: Move, after: &Position) -> SanPlus {
        SanPlus {
            san: San::from_move(before, m),
            suffix: Suffix::from_position(after),
        }
    }

    /// [`SanPlus::from_played`] for the move `m` that `written` stands for in `before`
    /// ([`San::to_move`] gave it), as a replay has it: quicker when `written` names no
    /// origin. The move of the piece written was then found among all of that kind's moves
    /// onto the square, and alone, the very question that naming the origin asks: the
    /// canonical SAN is the written one but for the capture, read off the board.
    ///
    /// ```
    /// use caissa_notation::Position;
    /// use caissa_notation::san::{San, SanPlus};
    ///
    /// let before: Position = "6k1/5ppp/8/8/8/8/8/R3R1K1 w - - 0 1".parse()?;
    /// let spellings = [("Ra2", "Ra2"), ("Ra1a2", "Ra2"), ("Rad1", "Rad1"), ("Ra1-d1", "Rad1")];
    /// for (text, canonical) in spellings {
    ///     let written: San = text.parse()?;
    ///     let m = written.to_move(&before)?;
    ///     let after = before.play(m)?;
    ///     let san = SanPlus::from_resolved(written, &before, m, &after);
    ///     assert_eq!(san, SanPlus::from_played(&before, m, &after));
    ///     assert_eq!(san.to_string(), canonical);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    ///
    /// May panic if `m` is not a legal move of `before`. A wrong `after` gives a wrong suffix,
    /// and a `written` that does not stand for `m` a wrong SAN.
    #[must_use]
    pub fn from_resolved(written: San, before: &Position, m: Move, after: &Position) -> SanPlus {
        SanPlus {
            san: San::from_resolved(written, before, m),
            suffix: Suffix::from_position(after),
        }
    }

    /// The SAN of `m`, a legal move of `pos`, with its suffix; plays `m` on `pos`.
    ///
    /// # Panics
    ///
    /// May panic, or leave `pos` broken, if `m` is not a legal move of `pos` (as
    /// [`Position::play_unchecked`] does).
    pub fn from_move_and_play_unchecked(pos: &mut Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        pos.play_unchecked(m);
        SanPlus {
            san,
            suffix: Suffix::from_position(pos),
        }
    }

    /// Appends the SAN and its suffix to `out`.
    pub fn append_to(&self, out: &mut String) {
        out.extend(self.text().as_bytes().iter().map(|&b| char::from(b)));
    }

    /// The SAN and its suffix as ASCII bytes ([`San::text`]).
    pub(crate) fn text(&self) -> SanText {
        let mut text = SanText::default();
        self.bytes_to(|b| text.push(b));
        text
    }

    /// Hands the SAN's ASCII bytes and its suffix's to `push` ([`San::bytes_to`]), at most 9.
    #[inline]
    pub(crate) fn bytes_to(&self, mut push: impl FnMut(u8)) {
        self.san.bytes_to(&mut push);
        match self.suffix {
            Some(Suffix::Check) => push(b'+'),
            Some(Suffix::Checkmate) => push(b'#'),
            None => {}
        }
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text().write(f)
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text().write(f)
    }
}

impl SanText {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_bytes()
            .iter()
            .try_for_each(|&b| f.write_char(char::from(b)))
    }
}

/// Appends `m`, legal in `before`, in long algebraic notation: the piece's letter (none for a
/// pawn), its square, `-` or `x`, the square reached, `=` and the promotion's letter, the
/// suffix; castling as `O-O` or `O-O-O` (python-chess's `Board.lan`, and `caissa pgn select
/// --format lan`).
///
/// ```
/// use caissa_notation::san::{Suffix, append_lan};
/// use caissa_notation::{Move, Position, Square};
///
/// let mut out = String::new();
/// append_lan(&mut out, &Position::standard(), Move::normal(Square::G1, Square::F3), None);
/// assert_eq!(out, "Ng1-f3");
/// let pos: Position = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1".parse()?;
/// out.clear();
/// append_lan(&mut out, &pos, Move::normal(Square::A1, Square::A8), Some(Suffix::Check));
/// assert_eq!(out, "Ra1-a8+");
/// # Ok::<(), caissa_notation::fen::ParsePositionError>(())
/// ```
pub fn append_lan(out: &mut String, before: &Position, m: Move, suffix: Option<Suffix>) {
    match m.castling_side() {
        Some(CastlingSide::KingSide) => out.push_str("O-O"),
        Some(CastlingSide::QueenSide) => out.push_str("O-O-O"),
        None => {
            let role = before.board().piece_at(m.from()).map(|piece| piece.role);
            if let Some(role) = role.filter(|&r| r != Role::Pawn) {
                out.push(role.upper_char());
            }
            out.push_str(m.from().name());
            out.push(if before.captured_role(m).is_some() {
                'x'
            } else {
                '-'
            });
            out.push_str(m.to().name());
            if let Some(promotion) = m.promotion_role() {
                out.push('=');
                out.push(promotion.upper_char());
            }
        }
    }
    match suffix {
        Some(Suffix::Check) => out.push('+'),
        Some(Suffix::Checkmate) => out.push('#'),
        None => {}
    }
}
