//! Differential test of the game layer: random games played to their end, compared ply by ply
//! with shakmaty and with a plain reference count of repetitions.
//!
//! At every ply of every game, caissa's [`Game`] must agree with:
//!
//! - shakmaty on checkmate (and who won) and stalemate;
//! - shakmaty's material rule (`has_insufficient_material`, per side): where it says a side
//!   cannot win, caissa's `dead::can_win` must not find a win; where it says the position is
//!   dead, caissa's outcome must be a dead position, unless caissa's analysis leaves the
//!   position undecided (the rules-spec's tri-state: `Unknown` counts as not dead), which the
//!   test counts and reports. shakmaty's rule is a subset of dead positions: where caissa proves
//!   more, the test counts that too;
//! - a reference implementation with python-chess semantics for the rest: fivefold repetition =
//!   the same position (placement, side to move, castling rights, legal en passant square, all
//!   from shakmaty) the fifth time, counted over the whole game with a hash map of full
//!   positions; seventy-five moves = shakmaty's half-move clock at 150;
//! - caissa's precedence when several apply: checkmate, stalemate, dead position, 75 moves,
//!   fivefold (rules-spec section 3 and python-chess put insufficient material before
//!   stalemate; caissa names stalemate first, as every stalemate is a dead position);
//! - the reference on the repetition count, the claims on the board (threefold, fifty) and the
//!   claims with a random written move.
//!
//! The games stop at the first ending, so both sides must end them at the same ply. To reach
//! repetitions, players often move back the piece they moved last; to reach endgames (and the
//! 75-move rule), some games prefer captures.
//!
//! `CAISSA_GAME_DIFF_GAMES=20000` plays more games (default [`DEFAULT_GAMES`]);
//! `CAISSA_GAME_DIFF_SEED=<u64>` plays others. Run with `--nocapture` for the statistics.

use caissa_testsuite::{env_number, random};

use std::collections::HashMap;
use std::fmt;

use caissa_game::dead::{self, Winnability};
use caissa_game::{Game, GameResult, Outcome, Reason};
use caissa_movegen::{CastlingMode, Move, Position};
use caissa_notation::fen::{EnPassantMode, Fen};
use random::{Bias, Rng, random_move};
use shakmaty::Position as _;

/// Games played when `CAISSA_GAME_DIFF_GAMES` is not set.
const DEFAULT_GAMES: usize = 1_000;
/// The seed of the game sequence when `CAISSA_GAME_DIFF_SEED` is not set.
const DEFAULT_SEED: u64 = 0xCA15_5A00_6A3E_0001;
/// No game is this long (the 75-move rule ends every game sooner); a guard against a bug.
const MAX_PLIES: usize = 20_000;

#[test]
fn random_games_end_as_shakmaty_and_a_reference_count_say() {
    let games = env_number("CAISSA_GAME_DIFF_GAMES").map_or(DEFAULT_GAMES, |n| {
        usize::try_from(n).expect("CAISSA_GAME_DIFF_GAMES fits in usize")
    });
    let seed = env_number("CAISSA_GAME_DIFF_SEED").unwrap_or(DEFAULT_SEED);
    let mut stats = Stats::default();
    let mut sequence = Rng::new(seed);
    for game in 0..games {
        let game_seed = sequence.next_u64();
        play_game(&mut stats, game_seed).unwrap_or_else(|failure| {
            panic!(
                "game #{game} (game seed {game_seed:#x}, CAISSA_GAME_DIFF_SEED={seed:#x}): \
                 {failure}"
            )
        });
    }
    eprintln!("game_differential: seed {seed:#x}, {games} games\n{stats}");

    // Every kind of ending and claim must be reached. The floors, per 1,000 games, are about
    // half of what the default seed reaches.
    let per_1000 = |n: usize| n * games / 1_000;
    let floors = [
        (stats.endings(Reason::Checkmate), per_1000(30), "checkmates"),
        (stats.endings(Reason::Stalemate), per_1000(12), "stalemates"),
        (
            stats.endings(Reason::DeadPosition),
            per_1000(150),
            "dead positions",
        ),
        (
            stats.endings(Reason::SeventyFiveMoves),
            per_1000(18),
            "seventy-five move draws",
        ),
        (
            stats.endings(Reason::FivefoldRepetition),
            per_1000(200),
            "fivefold repetitions",
        ),
        (stats.threefold_claims, per_1000(3000), "threefold claims"),
        (stats.fifty_claims, per_1000(1500), "fifty-move claims"),
        (
            stats.intended_threefold,
            per_1000(400),
            "threefold claims with a written move",
        ),
        (
            stats.intended_fifty,
            per_1000(1500),
            "fifty-move claims with a written move",
        ),
        (
            stats.legal_ep,
            per_1000(200),
            "positions with legal en passant",
        ),
    ];
    for (count, floor, what) in floors {
        assert!(
            count >= floor,
            "only {count} {what} (expected at least {floor})"
        );
    }
}

/// What the games reached.
#[derive(Debug, Default)]
struct Stats {
    plies: usize,
    endings: HashMap<Reason, usize>,
    /// Dead positions caissa proves that shakmaty's material rule does not.
    dead_beyond_material: usize,
    /// Positions dead by shakmaty's material rule that caissa's analysis leaves undecided.
    dead_undecided: usize,
    threefold_claims: usize,
    fifty_claims: usize,
    intended_threefold: usize,
    intended_fifty: usize,
    legal_ep: usize,
}

impl Stats {
    fn endings(&self, reason: Reason) -> usize {
        self.endings.get(&reason).copied().unwrap_or(0)
    }
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut endings: Vec<_> = self.endings.iter().collect();
        endings.sort_by_key(|(reason, _)| reason.name());
        writeln!(f, "  {} plies; endings:", self.plies)?;
        for (reason, count) in endings {
            writeln!(f, "    {reason}: {count}")?;
        }
        write!(
            f,
            "  dead positions: {} beyond shakmaty's material rule, {} dead by it but undecided \
             by caissa\n  claims on the board: {} threefold, {} \
             fifty; with a written move: {} threefold, {} fifty; {} positions with legal en \
             passant",
            self.dead_beyond_material,
            self.dead_undecided,
            self.threefold_claims,
            self.fifty_claims,
            self.intended_threefold,
            self.intended_fifty,
            self.legal_ep
        )
    }
}

/// The reference's "same position": placement, side to move, castling rights (by rook
/// square) and the en passant square only when a legal capture exists, all from shakmaty.
#[derive(Clone, PartialEq, Eq, Hash)]
struct SameKey {
    board: shakmaty::Board,
    turn: shakmaty::Color,
    castling: shakmaty::Bitboard,
    ep: Option<shakmaty::Square>,
}

fn same_key(pos: &shakmaty::Chess) -> SameKey {
    SameKey {
        board: pos.board().clone(),
        turn: pos.turn(),
        castling: pos.castles().castling_rights(),
        ep: pos.legal_ep_square(),
    }
}

/// The reference: shakmaty for the position, a map of every position seen for repetitions.
struct Reference {
    pos: shakmaty::Chess,
    seen: HashMap<SameKey, usize>,
}

impl Reference {
    fn new(start: &Position) -> Reference {
        let fen = Fen::from_position(start, EnPassantMode::Always).to_string();
        let mode = match start.castling_mode() {
            CastlingMode::Standard => shakmaty::CastlingMode::Standard,
            CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
        };
        let pos = fen
            .parse::<shakmaty::fen::Fen>()
            .expect("shakmaty reads caissa's FEN")
            .into_position(mode)
            .expect("shakmaty accepts the start");
        let mut reference = Reference {
            pos,
            seen: HashMap::new(),
        };
        reference.count_current();
        reference
    }

    fn count_current(&mut self) {
        *self.seen.entry(same_key(&self.pos)).or_insert(0) += 1;
    }

    /// How many times the current position has stood.
    fn repetitions(&self) -> usize {
        self.seen[&same_key(&self.pos)]
    }

    /// shakmaty's move for caissa's `m` (castling is king-takes-rook in both).
    fn shakmaty_move(&self, m: Move) -> shakmaty::Move {
        let from = square(m.from().index());
        let to = square(m.to().index());
        let promotion = m
            .promotion_role()
            .map(|r| shakmaty::Role::from_char(r.char()).expect("a promotion role"));
        self.pos
            .legal_moves()
            .into_iter()
            .find(|theirs| {
                theirs.from() == Some(from) && theirs.to() == to && theirs.promotion() == promotion
            })
            .unwrap_or_else(|| panic!("shakmaty has no move {m:?}"))
    }

    fn play(&mut self, m: Move) {
        let theirs = self.shakmaty_move(m);
        self.pos.play_unchecked(theirs);
        self.count_current();
    }

    /// The automatic ending, if any, with caissa's precedence (python-chess's, except that
    /// stalemate comes before insufficient material); with or without the insufficient-material
    /// rule.
    fn outcome(&self, insufficient_material: bool) -> Option<Outcome> {
        let pos = &self.pos;
        if pos.is_checkmate() {
            let winner = match pos.turn() {
                shakmaty::Color::White => caissa_board::Color::Black,
                shakmaty::Color::Black => caissa_board::Color::White,
            };
            Some(Outcome::new(GameResult::win(winner), Reason::Checkmate))
        } else if pos.is_stalemate() {
            Some(Outcome::draw(Reason::Stalemate))
        } else if insufficient_material && pos.is_insufficient_material() {
            Some(Outcome::draw(Reason::DeadPosition))
        } else if pos.halfmoves() >= 150 {
            Some(Outcome::draw(Reason::SeventyFiveMoves))
        } else if self.repetitions() >= 5 {
            Some(Outcome::draw(Reason::FivefoldRepetition))
        } else {
            None
        }
    }

    /// (threefold, fifty) claims with the written move `m`.
    fn claims_with(&self, m: Move) -> (bool, bool) {
        let mut after = self.pos.clone();
        after.play_unchecked(self.shakmaty_move(m));
        let earlier = self.seen.get(&same_key(&after)).copied().unwrap_or(0);
        (earlier + 1 >= 3, after.halfmoves() >= 100)
    }
}

/// Per side: where shakmaty says a side has insufficient material, caissa must not find a win
/// (it may leave the question undecided).
fn check_winnability(ours: &Position, theirs: &shakmaty::Chess) -> Result<(), String> {
    for (color, their_color) in [
        (caissa_board::Color::White, shakmaty::Color::White),
        (caissa_board::Color::Black, shakmaty::Color::Black),
    ] {
        if theirs.has_insufficient_material(their_color)
            && let Winnability::Winnable(line) = dead::can_win(ours, color)
        {
            return Err(format!(
                "{color} can win with {line:?}, but has insufficient material"
            ));
        }
    }
    Ok(())
}

fn square(index: usize) -> shakmaty::Square {
    shakmaty::Square::new(u32::try_from(index).expect("below 64"))
}

/// Plays one game to its end, comparing at every ply.
fn play_game(stats: &mut Stats, game_seed: u64) -> Result<(), String> {
    let mut rng = Rng::new(game_seed);
    let start = if rng.percent(60) {
        Position::standard()
    } else {
        let number = u32::try_from(rng.below(960)).expect("below 960");
        Position::chess960(number).expect("a Scharnagl number below 960")
    };
    // How often a player moves back the piece it moved last (repetitions), and how the other
    // moves are chosen (captures lead to endgames, where the 75-move rule and dead positions
    // are).
    let move_back = [0, 30, 60, 85][rng.below(4)];
    let bias = match rng.below(3) {
        0 => Bias::UNIFORM,
        1 => Bias {
            capture: 40,
            special: 20,
            ..Bias::UNIFORM
        },
        _ => Bias {
            checkmate: 100,
            capture: 70,
            pawn: 10,
            ..Bias::UNIFORM
        },
    };

    let mut game = Game::new(start);
    let mut reference = Reference::new(&start);
    loop {
        let ply = game.ply();
        let at = |what: &str| {
            let fen = Fen::from_position(game.position(), EnPassantMode::Always);
            format!("ply {ply} ({fen}): {what}")
        };
        stats.plies += 1;
        stats.legal_ep += usize::from(game.position().legal_ep_square().is_some());
        check_winnability(game.position(), &reference.pos).map_err(|e| at(&e))?;
        let actual = game.outcome();
        let mut expected = reference.outcome(true);
        if actual != expected
            && expected.is_some_and(|o| o.reason == Reason::DeadPosition)
            && actual.is_none_or(|o| o.reason != Reason::DeadPosition)
        {
            // Dead by material, but the dead-position analysis could not decide (checked
            // above: it never calls a side with insufficient material winnable). The game
            // goes on; the other rules must still agree.
            stats.dead_undecided += 1;
            expected = reference.outcome(false);
        }
        if actual != expected {
            let dead_beyond_material = actual.is_some_and(|o| o.reason == Reason::DeadPosition)
                && expected
                    .is_none_or(|o| !matches!(o.reason, Reason::Checkmate | Reason::DeadPosition));
            if !dead_beyond_material {
                return Err(at(&format!(
                    "outcome {} (reference {})",
                    show(actual),
                    show(expected)
                )));
            }
            stats.dead_beyond_material += 1;
        }
        if game.repetitions() != reference.repetitions() {
            return Err(at(&format!(
                "repetitions {} (reference {})",
                game.repetitions(),
                reference.repetitions()
            )));
        }
        if let Some(outcome) = actual {
            *stats.endings.entry(outcome.reason).or_insert(0) += 1;
            let m = game.position().legal_moves().first().copied();
            if m.is_some_and(|m| game.claims_with(m).is_ok()) {
                return Err(at("a claim after the end"));
            }
            if !game.claims().is_empty() {
                return Err(at("claims after the end"));
            }
            return Ok(());
        }
        if ply >= MAX_PLIES {
            return Err(at("no ending"));
        }

        // Claims on the board, then with a random written move.
        let claims = game.claims();
        let on_board = (claims.threefold.is_some(), claims.fifty_moves.is_some());
        let expected_on_board = (
            reference.repetitions() >= 3,
            reference.pos.halfmoves() >= 100,
        );
        if on_board != expected_on_board {
            return Err(at(&format!(
                "claims (threefold, fifty) {on_board:?} (reference {expected_on_board:?})"
            )));
        }
        stats.threefold_claims += usize::from(on_board.0);
        stats.fifty_claims += usize::from(on_board.1);
        let moves = game.position().legal_moves();
        let written = moves[rng.below(moves.len())];
        let claims = game
            .claims_with(written)
            .map_err(|e| at(&format!("claim with {written:?}: {e}")))?;
        let with_move = (claims.threefold.is_some(), claims.fifty_moves.is_some());
        let expected_with_move = reference.claims_with(written);
        if with_move != expected_with_move {
            return Err(at(&format!(
                "claims (threefold, fifty) with {written:?}: {with_move:?} (reference \
                 {expected_with_move:?})"
            )));
        }
        stats.intended_threefold += usize::from(with_move.0);
        stats.intended_fifty += usize::from(with_move.1);

        let m = move_back_move(&game)
            .filter(|_| rng.percent(move_back))
            .or_else(|| random_move(&mut rng, game.position(), bias))
            .expect("the game goes on, so there is a legal move");
        game.play_unchecked(m);
        reference.play(m);
    }
}

/// The move that takes back the side to move's last move, if that was a plain move of a piece
/// and going back is legal.
fn move_back_move(game: &Game) -> Option<Move> {
    let ply = game.ply().checked_sub(2)?;
    let earlier = game.moves()[ply];
    let before = game.position_at(ply).expect("a ply of the game");
    let plain = earlier.promotion_role().is_none()
        && !earlier.is_castle()
        && !earlier.is_en_passant()
        && before.moving_role(earlier) != caissa_board::Role::Pawn;
    let back = Move::normal(earlier.to(), earlier.from());
    (plain && game.position().is_legal(back)).then_some(back)
}

fn show(outcome: Option<Outcome>) -> String {
    outcome.map_or_else(|| "none".to_owned(), |o| o.to_string())
}
