//! [`Game`]: a start position, the moves played, and what the Laws make of them.

use core::cmp::Ordering;
use std::sync::OnceLock;

use caissa_board::Color;
use caissa_movegen::{IllegalMoveError, Move, Position};
use smallvec::SmallVec;

use crate::claim::{Claim, ClaimError, Claims, Ground};
use crate::dead::Verdicts;
use crate::material::Material;
use crate::outcome::{Article, GameResult, Outcome, Reason};

/// Half-moves without a pawn move or capture that let the player having the move claim (9.3).
const FIFTY_MOVES: u32 = 100;
/// Half-moves without a pawn move or capture that end the game (9.6.2).
const SEVENTY_FIVE_MOVES: u32 = 150;
/// Occurrences of the same position that let the player having the move claim (9.2).
const THREEFOLD: usize = 3;
/// Occurrences of the same position that end the game (9.6.1).
const FIVEFOLD: usize = 5;
/// Moves at most between the position whose dead-position verdicts a game keeps and the
/// current one (when the outcome is not asked after every move).
const CARRIED_MOVES: usize = 8;

/// A game: its start position and the moves played since, with every position reached.
///
/// Playing a move and taking one back are O(1) (amortised): the game keeps a stack of
/// positions and does nothing else when a move is played. Repetitions are counted when asked
/// for: only positions since the last capture or pawn move can be the same as the current one,
/// and only every second one has the same side to move, so a query looks back over at most
/// [`Position::halfmoves`] plies, comparing repetition keys ([`Position::zobrist_hash`]) first
/// and then full positions (FIDE's "same position", 9.2.2, which is [`Position`]'s equality),
/// so a key collision can never make a false repetition.
///
/// [`Game::play`] refuses moves once the game has ended automatically ([`Game::outcome`]);
/// [`Game::play_unchecked`], the fast path for trusted moves, records whatever it is given.
///
/// ```
/// use caissa_game::{Game, GameResult, Move, Reason, Square};
///
/// let mut game = Game::standard();
/// // The knights go out and back twice: the start position stands for the third time.
/// for _ in 0..2 {
///     for (from, to) in [
///         (Square::G1, Square::F3),
///         (Square::G8, Square::F6),
///         (Square::F3, Square::G1),
///         (Square::F6, Square::G8),
///     ] {
///         game.play(Move::normal(from, to))?;
///     }
/// }
/// assert_eq!(game.repetitions(), 3);
/// // A threefold repetition is a draw only when claimed (9.2) ...
/// assert_eq!(game.outcome(), None);
/// let claim = game.claims().threefold.expect("a correct claim");
/// assert_eq!(claim.intended, None); // on the board, without a written move
/// assert_eq!(claim.outcome().result, GameResult::Draw);
/// assert_eq!(claim.reason(), Reason::ThreefoldRepetition);
/// // ... and the game goes on until someone claims it.
/// game.play(Move::normal(Square::E2, Square::E4))?;
/// assert_eq!(game.ply(), 9);
/// # Ok::<(), caissa_game::PlayError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    /// The position after the last move.
    current: Position,
    /// The positions before the current one: `earlier[0]` is the start, `earlier[i]` the
    /// position after the `i`th move.
    earlier: Vec<Position>,
    /// `moves[i]` was played in `earlier[i]`.
    moves: Vec<Move>,
    /// [`Game::outcome`] of the current position, once asked for: claims ask for it too.
    outcome: OnceLock<Option<Outcome>>,
    /// Who can still win in the current position, once the outcome needed it.
    verdicts: OnceLock<Verdicts>,
    /// The verdicts of an earlier position and the moves played since, to be carried over to
    /// the current position (see [`crate::dead`]'s `carry` module): the check after each move
    /// then costs a few replayed moves instead of an analysis.
    carried: Option<(Verdicts, SmallVec<[Move; CARRIED_MOVES]>)>,
}

/// Why [`Game::play`] refused a move; the game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PlayError {
    /// The game has already ended automatically (5.1.1, 5.2.1, 5.2.2, 9.6): no move follows.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
    /// The move is not legal in the current position.
    #[error(transparent)]
    IllegalMove(#[from] IllegalMoveError),
}

/// A run of consecutive checks by one side that repeats a position: see
/// [`Game::perpetual_check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PerpetualCheck {
    /// The side giving the checks.
    pub checker: Color,
    /// How many consecutive checks the run has, up to the last move.
    pub checks: usize,
    /// The ply of the first check of the run (the position after it).
    pub first_ply: usize,
    /// The most times one position has stood within the run (at least 2).
    pub repetitions: usize,
}

impl Game {
    /// A game from `start` (any legal position: the standard start, a Chess960 start, or a
    /// position read from FEN). The start counts as the first occurrence of its position.
    #[must_use]
    pub fn new(start: Position) -> Game {
        Game {
            current: start,
            earlier: Vec::new(),
            moves: Vec::new(),
            outcome: OnceLock::new(),
            verdicts: OnceLock::new(),
            carried: None,
        }
    }

    /// A game from the standard starting position.
    #[must_use]
    pub fn standard() -> Game {
        Game::new(Position::standard())
    }

    /// A game from the Chess960 starting position with Scharnagl number `number` (0 to 959),
    /// or `None` for a larger number.
    #[must_use]
    pub fn chess960(number: u32) -> Option<Game> {
        Position::chess960(number).map(Game::new)
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position {
        self.earlier.first().unwrap_or(&self.current)
    }

    /// The current position.
    #[inline]
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The last move played.
    #[must_use]
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// The number of moves (plies) played; also the index of the current position.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The position after `ply` moves (0 = the start), if that many have been played.
    #[must_use]
    pub fn position_at(&self, ply: usize) -> Option<&Position> {
        match ply.cmp(&self.ply()) {
            Ordering::Less => Some(&self.earlier[ply]),
            Ordering::Equal => Some(&self.current),
            Ordering::Greater => None,
        }
    }

    /// Every position of the game, from the start to the current one.
    pub fn positions(&self) -> impl DoubleEndedIterator<Item = &Position> + ExactSizeIterator {
        (0..self.ply() + 1).map(|ply| self.position_at(ply).expect("a ply of the game"))
    }

    /// The repetition key ([`Position::zobrist_hash`]) of the position after `ply` moves.
    #[must_use]
    pub fn key_at(&self, ply: usize) -> Option<u64> {
        self.position_at(ply).map(Position::zobrist_hash)
    }

    /// The material on the board now.
    #[must_use]
    pub fn material(&self) -> Material {
        Material::of(self.position().board())
    }

    /// Plays `m` if the game goes on and `m` is legal here.
    ///
    /// # Errors
    ///
    /// [`PlayError::GameOver`] if the game has ended automatically ([`Game::outcome`]: no
    /// move may follow a checkmate, a stalemate, a dead position, seventy-five moves or a
    /// fivefold repetition), [`PlayError::IllegalMove`] if `m` is not a legal move in the
    /// current position; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        if self.position().is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMoveError { mv: m }.into())
        }
    }

    /// Plays `m`, which must be legal here: the fast path for moves that come from the current
    /// position's move list. It does not look at [`Game::outcome`]: a game ended automatically
    /// goes on recording (an arbiter may replay a game as it was played).
    ///
    /// # Panics
    ///
    /// May panic, or record a broken position, if `m` is not legal (see
    /// [`Position::play_unchecked`]). Use [`Game::play`] for untrusted moves.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        self.earlier.push(self.current);
        self.current.play_unchecked(m);
        self.moves.push(m);
        self.outcome = OnceLock::new();
        if let Some(verdicts) = self.verdicts.take() {
            let mut since = SmallVec::new();
            since.push(m);
            self.carried = Some((verdicts, since));
        } else if let Some((_, since)) = &mut self.carried {
            if since.len() < CARRIED_MOVES {
                since.push(m);
            } else {
                self.carried = None;
            }
        }
    }

    /// Takes back the last move and returns it, or `None` at the start. Everything (position,
    /// repetition counts, claims) is as it was before the move.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.current = self.earlier.pop().expect("a position for each move");
        self.outcome = OnceLock::new();
        self.carried = None;
        // The lines of the position after `m` are lines of the one before it, `m` in front.
        self.verdicts = self
            .verdicts
            .take()
            .and_then(|verdicts| verdicts.before(m, &self.current))
            .map_or_else(OnceLock::new, OnceLock::from);
        Some(m)
    }

    /// Takes back moves until `ply` moves remain (nothing if no more than `ply` were played).
    pub fn truncate(&mut self, ply: usize) {
        if ply < self.ply() {
            self.current = self.earlier[ply];
            self.earlier.truncate(ply);
            self.moves.truncate(ply);
            self.outcome = OnceLock::new();
            self.verdicts = OnceLock::new();
            self.carried = None;
        }
    }

    /// How many times the current position has stood in this game, this time included.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        self.occurrences(self.ply()).len()
    }

    /// The plies at which the position after `ply` moves had stood by then, `ply` included, in
    /// increasing order (empty if `ply` is beyond the current ply).
    #[must_use]
    pub fn occurrences(&self, ply: usize) -> SmallVec<[usize; 4]> {
        let mut plies = SmallVec::new();
        if let Some(pos) = self.position_at(ply) {
            self.earlier_occurrences(pos, ply, |i| plies.push(i));
            plies.reverse();
            plies.push(ply);
        }
        plies
    }

    /// How the game has ended automatically, if it has: checkmate (5.1.1), stalemate (5.2.1),
    /// a dead position (5.2.2), seventy-five moves (9.6.2), or fivefold repetition (9.6.1).
    ///
    /// When several apply at once they are tried in that order, so checkmate by the 150th
    /// half-move without progress stands (9.6.2). Stalemate comes before the dead position
    /// because a stalemated position is always dead too (no move can lead to a mate); so a
    /// stalemate with insufficient material is recorded as stalemate, where python-chess
    /// records insufficient material. A position is dead exactly when [`dead::can_win`] proves
    /// for both sides that they cannot win, with no smaller budget: only a position the full
    /// analysis leaves undecided keeps the game going.
    ///
    /// Asked after every move, as a server does, the check is cheap: the game keeps a mating
    /// line of a side that can still win (or the proof that it cannot) and carries it over
    /// to the next position, repaired and replayed, so that the full analysis runs only when
    /// no line survives the moves played. The answer is kept until the next move or
    /// take-back, so asking again (or asking for claims, which need it) costs nothing.
    ///
    /// [`dead::can_win`]: crate::dead::can_win
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        *self.outcome.get_or_init(|| self.find_outcome())
    }

    fn find_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if !pos.has_legal_moves() {
            Some(if pos.is_check() {
                Outcome::new(GameResult::win(!pos.turn()), Reason::Checkmate)
            } else {
                Outcome::draw(Reason::Stalemate)
            })
        } else if self.verdicts().dead() {
            Some(Outcome::draw(Reason::DeadPosition))
        } else if pos.halfmoves() >= SEVENTY_FIVE_MOVES {
            Some(Outcome::draw(Reason::SeventyFiveMoves))
        } else if self.repetitions() >= FIVEFOLD {
            Some(Outcome::draw(Reason::FivefoldRepetition))
        } else {
            None
        }
    }

    /// Who can still win in the current position: carried over from the last position analysed,
    /// or analysed afresh.
    fn verdicts(&self) -> &Verdicts {
        self.verdicts.get_or_init(|| match &self.carried {
            Some((verdicts, since)) => verdicts.after(self.position(), since),
            None => Verdicts::of(self.position()),
        })
    }

    /// The draws the player having the move may claim now, about the position on the board:
    /// threefold repetition (9.2.1.2) and fifty moves (9.3.2). Empty once the game is over.
    #[must_use]
    pub fn claims(&self) -> Claims {
        if self.outcome().is_some() {
            return Claims::default();
        }
        let halfmoves = self.position().halfmoves();
        let plies = self.occurrences(self.ply());
        Claims {
            threefold: (plies.len() >= THREEFOLD).then(|| Claim {
                ground: Ground::Repetition { plies },
                intended: None,
                article: Article::THREEFOLD_ON_BOARD,
            }),
            fifty_moves: (halfmoves >= FIFTY_MOVES).then_some(Claim {
                ground: Ground::FiftyMoves { halfmoves },
                intended: None,
                article: Article::FIFTY_MOVES_ON_BOARD,
            }),
        }
    }

    /// The draws the player having the move may claim by writing down `intended` without
    /// playing it (9.2.1.1, 9.3.1): the position after it would stand for the third time, or it
    /// would complete fifty moves by each player without a pawn move or a capture.
    ///
    /// Following the Laws, a written move that would checkmate or stalemate still supports a
    /// fifty-move claim (python-chess refuses such claims).
    ///
    /// # Errors
    ///
    /// [`ClaimError::GameOver`] if the game has ended, [`ClaimError::IllegalMove`] if
    /// `intended` is not legal here.
    pub fn claims_with(&self, intended: Move) -> Result<Claims, ClaimError> {
        if let Some(outcome) = self.outcome() {
            return Err(ClaimError::GameOver(outcome));
        }
        let next = self.position().play(intended)?;
        let ply = self.ply() + 1;
        let mut plies = SmallVec::<[usize; 4]>::new();
        self.earlier_occurrences(&next, ply, |i| plies.push(i));
        plies.reverse();
        plies.push(ply);
        let halfmoves = next.halfmoves();
        Ok(Claims {
            threefold: (plies.len() >= THREEFOLD).then(|| Claim {
                ground: Ground::Repetition { plies },
                intended: Some(intended),
                article: Article::THREEFOLD_INTENDED,
            }),
            fifty_moves: (halfmoves >= FIFTY_MOVES).then_some(Claim {
                ground: Ground::FiftyMoves { halfmoves },
                intended: Some(intended),
                article: Article::FIFTY_MOVES_INTENDED,
            }),
        })
    }

    /// The run of consecutive checks by the side that made the last move, if the run repeats a
    /// position: every one of that side's moves since [`PerpetualCheck::first_ply`] gave check,
    /// and some position has stood at least twice since the first of them.
    ///
    /// Information for users: in the Laws perpetual check is not a draw by itself, only
    /// through repetition (9.2, 9.6.1).
    #[must_use]
    pub fn perpetual_check(&self) -> Option<PerpetualCheck> {
        let last = self.ply();
        if last == 0 || !self.position().is_check() {
            return None;
        }
        // The positions after the checker's moves are last, last - 2, ...; ply 0 is the start,
        // not a move.
        let mut first = last;
        while first >= 3 && self.earlier[first - 2].is_check() {
            first -= 2;
        }
        let repetitions = (first..=last)
            .map(|ply| {
                let mut count = 1;
                let pos = self.position_at(ply).expect("a ply of the game");
                self.earlier_occurrences(pos, ply, |i| {
                    count += usize::from(i >= first);
                });
                count
            })
            .max()
            .unwrap_or(1);
        (repetitions >= 2).then(|| PerpetualCheck {
            checker: !self.position().turn(),
            checks: (last - first) / 2 + 1,
            first_ply: first,
            repetitions,
        })
    }

    /// Calls `found` with every ply before `ply` at which `pos` stood, latest first, where `pos`
    /// stands (or would stand) at `ply`. Only positions since the last capture or pawn move can
    /// be the same (such moves cannot be undone, and `halfmoves` counts the plies since), and
    /// only every second one has the same side to move.
    fn earlier_occurrences(&self, pos: &Position, ply: usize, mut found: impl FnMut(usize)) {
        let key = pos.zobrist_hash();
        let window = usize::try_from(pos.halfmoves()).map_or(ply, |h| h.min(ply));
        for i in (2..=window).step_by(2).map(|back| ply - back) {
            let earlier = &self.earlier[i];
            if earlier.zobrist_hash() == key && earlier == pos {
                found(i);
            }
        }
    }
}

impl Default for Game {
    /// A game from the standard starting position.
    fn default() -> Game {
        Game::standard()
    }
}

impl From<Position> for Game {
    fn from(start: Position) -> Game {
        Game::new(start)
    }
}
