//! Seeded randomness for tests: a small pseudo-random number generator and random games.
//!
//! The same seed gives the same numbers, games and positions on every machine and every run, so a
//! failing test can name the seed that reproduces it. No `rand` dependency: tests need speed and
//! reproducibility, not statistical perfection.

use caissa_board::{Rank, Role, Square};
use caissa_movegen::{Move, MoveList, Position};

/// A SplitMix64 generator (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014): 64 bits of state, one addition and a mixing function per number.
///
/// Good enough to pick moves and positions; not for cryptography.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose sequence is determined by `seed` (any value, zero included).
    #[must_use]
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, by multiplying and keeping the high half (the bias, below `n / 2^64`,
    /// does not matter here).
    ///
    /// # Panics
    ///
    /// If `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        let wide = u128::from(self.next_u64()) * n as u128;
        usize::try_from(wide >> 64).expect("below n, which is a usize")
    }

    /// `true` with probability `percent / 100`.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// The standard start position or, as often, a random Chess960 start position.
    pub fn start_position(&mut self) -> Position {
        if self.percent(50) {
            Position::standard()
        } else {
            let number = u32::try_from(self.below(960)).expect("below 960");
            Position::chess960(number).expect("a Scharnagl number below 960")
        }
    }

    /// One of `items`, each as likely as the others, or `None` if there are none.
    pub fn choose<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            None
        } else {
            Some(items[self.below(items.len())])
        }
    }

    /// Plays up to `plies` uniformly random legal moves on `pos` (fewer if the game ends).
    pub fn walk(&mut self, pos: &mut Position, plies: usize) {
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let Some(m) = self.choose(&moves) else { break };
            pos.play_unchecked(m);
        }
    }
}

/// How a random game chooses its moves: uniformly among the legal moves, except that with the
/// given chances (in percent, checked at each move in the order of the fields) it first looks at
/// some kinds of moves, so that games reach mates, castling, en passant and promotions more often
/// than uniform play does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bias {
    /// Checkmate when possible.
    pub checkmate: u32,
    /// Stalemate when possible.
    pub stalemate: u32,
    /// Castle when castling is legal.
    pub castle: u32,
    /// Play a special move when there is one: en passant, a promotion, or a double pawn push that
    /// lands beside an enemy pawn.
    pub special: u32,
    /// Capture when possible (games reach endgames sooner).
    pub capture: u32,
    /// Play a pawn move when there is one (pawns that advance promote).
    pub pawn: u32,
    /// Avoid moves that give up castling rights (other than castling), when there are others.
    pub keep_castling: u32,
}

impl Bias {
    /// Uniformly random legal moves.
    pub const UNIFORM: Bias = Bias {
        checkmate: 0,
        stalemate: 0,
        castle: 0,
        special: 0,
        capture: 0,
        pawn: 0,
        keep_castling: 0,
    };
}

/// A random legal move of `pos` chosen as `bias` says, or `None` if there is no legal move.
pub fn random_move(rng: &mut Rng, pos: &Position, bias: Bias) -> Option<Move> {
    let moves = pos.legal_moves();
    let ends_game = |m: Move, check: bool| {
        let mut child = *pos;
        child.play_unchecked(m);
        child.is_check() == check && !child.has_legal_moves()
    };
    let preferences: [(u32, &dyn Fn(Move) -> bool); 7] = [
        (bias.checkmate, &|m| ends_game(m, true)),
        (bias.stalemate, &|m| ends_game(m, false)),
        (bias.castle, &|m| m.is_castle()),
        (bias.special, &|m| is_special(pos, m)),
        (bias.capture, &|m| pos.captured_role(m).is_some()),
        (bias.pawn, &|m| pos.moving_role(m) == Role::Pawn),
        (bias.keep_castling, &|m| {
            m.is_castle() || !gives_up_castling(pos, m)
        }),
    ];
    for (percent, prefer) in preferences {
        if percent > 0 && rng.percent(percent) {
            let preferred: MoveList = moves.iter().copied().filter(|&m| prefer(m)).collect();
            if let Some(m) = rng.choose(&preferred) {
                return Some(m);
            }
        }
    }
    rng.choose(&moves)
}

/// En passant, promotions, and double pushes that give the opponent an en passant capture to
/// consider.
fn is_special(pos: &Position, m: Move) -> bool {
    if m.is_en_passant() || m.promotion_role().is_some() {
        return true;
    }
    let (from, to) = (m.from(), m.to());
    let double_push = pos.moving_role(m) == Role::Pawn && from.index().abs_diff(to.index()) == 16;
    let enemy_pawn = Role::Pawn.of(!pos.turn());
    double_push
        && [-1, 1]
            .into_iter()
            .filter_map(|df| to.offset(df, 0))
            .any(|sq: Square| pos.board().piece_at(sq) == Some(enemy_pawn))
}

/// Whether `m` moves the king or a rook that still has castling rights.
fn gives_up_castling(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let rights = pos.castling_rights();
    rights.has_any(us)
        && (pos.moving_role(m) == Role::King
            || rights.iter().any(|(color, _, file)| {
                color == us && m.from() == Square::from_coords(file, Rank::back_rank(us))
            }))
}

/// Why a random game stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move is stalemated.
    Stalemate,
    /// Only the two kings are left.
    BareKings,
    /// A hundred half-moves without a capture or pawn move.
    FiftyMoves,
    /// The game reached its length limit.
    MaxPlies,
}

/// A random game as an iterator over its positions: the start, then the position after each
/// move, up to and including the last one (a checkmate, a stalemate, bare kings, the fifty-move
/// mark, or the length limit; see [`RandomGame::end`]).
#[derive(Clone, Debug)]
pub struct RandomGame {
    rng: Rng,
    next: Option<Position>,
    ply: u32,
    max_plies: u32,
    bias: Bias,
    end: Option<GameEnd>,
}

impl RandomGame {
    /// A game from `start` of at most `max_plies` moves, chosen with `rng` as `bias` says.
    #[must_use]
    pub fn new(rng: Rng, start: Position, max_plies: u32, bias: Bias) -> RandomGame {
        RandomGame {
            rng,
            next: Some(start),
            ply: 0,
            max_plies,
            bias,
            end: None,
        }
    }

    /// Why the game stopped, once the iterator has yielded its last position.
    #[must_use]
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }
}

impl Iterator for RandomGame {
    /// The number of moves played so far, and the position.
    type Item = (u32, Position);

    fn next(&mut self) -> Option<(u32, Position)> {
        let pos = self.next.take()?;
        let ply = self.ply;
        let end = if pos.board().occupied().count() == 2 {
            Some(GameEnd::BareKings)
        } else if pos.halfmoves() >= 100 {
            Some(GameEnd::FiftyMoves)
        } else if ply >= self.max_plies {
            Some(GameEnd::MaxPlies)
        } else {
            match random_move(&mut self.rng, &pos, self.bias) {
                Some(m) => {
                    let mut child = pos;
                    child.play_unchecked(m);
                    self.next = Some(child);
                    self.ply += 1;
                    None
                }
                None if pos.is_check() => Some(GameEnd::Checkmate),
                None => Some(GameEnd::Stalemate),
            }
        };
        self.end = end;
        Some((ply, pos))
    }
}
