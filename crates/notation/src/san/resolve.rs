//! Resolution: the legal move of a position that a [`San`] stands for ([`San::to_move`]), asked
//! of the move generator in one query, [`Position::moves_to`], with castling written as a king
//! move and a UCI move of a piece (`g1f3`) as the lenient fallbacks.

use caissa_board::{Bitboard, CastlingSide, File, Rank, Role, Square};
use caissa_movegen::{Move, MovesTo, Position};

use super::{San, SanError};

/// The squares a SAN's origin may stand on: its file and its rank as far as they are written;
/// for a pawn without a file, the destination's file (a pawn that takes names its file).
#[inline(always)]
fn origins(role: Role, file: Option<File>, rank: Option<Rank>, to: Square) -> Bitboard {
    let file = match (role, file) {
        (Role::Pawn, None) => Some(to.file()),
        _ => file,
    };
    let mut from = Bitboard::FULL;
    if let Some(file) = file {
        from &= Bitboard::from_file(file);
    }
    if let Some(rank) = rank {
        from &= Bitboard::from_rank(rank);
    }
    from
}

impl San {
    /// The legal move of `pos` this SAN stands for, read leniently: the capture mark and the
    /// suffix are not checked, any disambiguation that names the origin is accepted, and a king
    /// move to its castling square (or onto its castling rook) is castling when no ordinary king
    /// move goes there.
    ///
    /// The move is found by [`Position::moves_to`], asked for the written piece from the
    /// squares the written origin allows (for a pawn without a file, the destination's file).
    ///
    /// # Errors
    ///
    /// [`SanError::Illegal`] if no legal move matches, [`SanError::Ambiguous`] with the
    /// candidates if several do, [`SanError::Null`] for the null move.
    #[inline(always)]
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        // The plain case inline, for replaying games; everything else out of line.
        let found = match *self {
            San::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => match pos.moves_to(role, origins(role, file, rank, to), to, promotion) {
                MovesTo::One(m) => return Ok(m),
                found => found,
            },
            San::Castle(_) | San::Null => MovesTo::None,
        };
        self.not_one_move(pos, found)
    }

    /// [`San::to_move`] for castling, the null move, and a piece move for which
    /// [`Position::moves_to`] found no move or several: the UCI move of a piece, the king move
    /// that stands for castling, or the error.
    #[inline(never)]
    fn not_one_move(&self, pos: &Position, found: MovesTo) -> Result<Move, SanError> {
        match (*self, found) {
            (_, MovesTo::One(m)) => Ok(m),
            (San::Normal { .. }, MovesTo::Ambiguous(candidates)) => Err(SanError::Ambiguous {
                san: *self,
                candidates,
            }),
            (San::Normal { .. }, _) => self
                .as_piece_move(pos)
                .and_then(|san| san.to_move(pos).ok())
                .or_else(|| self.castling_as_king_move(pos))
                .ok_or(SanError::Illegal { san: *self }),
            (San::Castle(side), _) => pos
                .castling_move(side)
                .ok_or(SanError::Illegal { san: *self }),
            (San::Null, _) => Err(SanError::Null),
        }
    }

    /// The move of the piece on this pawn move's origin, when both its coordinates are written
    /// and a piece other than a pawn of the side to move stands there (leniency 12 of the
    /// module docs: UCI's `g1f3`, or long algebraic without the letter, `g1-f3`).
    fn as_piece_move(&self, pos: &Position) -> Option<San> {
        let San::Normal {
            role: Role::Pawn,
            file: Some(file),
            rank: Some(rank),
            capture,
            to,
            promotion: None,
        } = *self
        else {
            return None;
        };
        let piece = pos.board().piece_at(Square::from_coords(file, rank))?;
        (piece.color == pos.turn() && piece.role != Role::Pawn).then_some(San::Normal {
            role: piece.role,
            file: Some(file),
            rank: Some(rank),
            capture,
            to,
            promotion: None,
        })
    }

    /// The castling move that this king move stands for (leniency 9 of the module docs): the
    /// king, on the origin as far as it is written, lands on the destination, or else takes
    /// its own rook standing there.
    fn castling_as_king_move(&self, pos: &Position) -> Option<Move> {
        let San::Normal {
            role: Role::King,
            file,
            rank,
            to,
            ..
        } = *self
        else {
            return None;
        };
        if !origins(Role::King, file, rank, to).contains(pos.king(pos.turn())) {
            return None;
        }
        let castles = CastlingSide::ALL.map(|side| pos.castling_move(side));
        let lands_on = |m: &Move| m.king_to() == to;
        let takes = |m: &Move| m.to() == to;
        castles
            .into_iter()
            .flatten()
            .find(lands_on)
            .or_else(|| castles.into_iter().flatten().find(takes))
    }
}
