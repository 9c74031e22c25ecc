//! Differential test of caissa's move generation against shakmaty.
//!
//! Random games (seeded, so every run sees the same positions) from the standard start and from
//! random Chess960 starts, with a bias towards castling, en passant and promotions. For every
//! position taken from them, shakmaty builds its own position from caissa's FEN and the two must
//! agree on:
//!
//! - the legal moves (origin, destination, promotion, kind, moving and captured piece; castling
//!   as king-takes-rook in both), and the position after each of them (as FEN);
//! - perft 1, 2 and 3 for every position ([`PERFT3_EVERY`] can thin out depth 3);
//! - check, checkers, checkmate, stalemate, and the en passant square in all three senses;
//! - the FEN itself (caissa writes it, reads it back, and writes the same text; shakmaty writes
//!   the same text too);
//! - Zobrist keys: the key caissa updates move by move equals the key of the same position built
//!   fresh from its FEN, and two positions have the same key exactly when they are the same
//!   position (checked against shakmaty's own notion of "same position").
//!
//! `CAISSA_DIFF_POSITIONS=1000000` runs a deeper comparison (default [`DEFAULT_POSITIONS`]);
//! `CAISSA_DIFF_SEED=<u64>` plays other games. Run with `--nocapture` to see the statistics.

use caissa_testsuite::{env_number, random};

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt::{self, Write as _};
use std::time::Instant;

use caissa_movegen::{CastlingMode, Move, Position, perft};
use caissa_notation::fen::{EnPassantMode, Fen};
use random::{Bias, GameEnd, RandomGame, Rng};
use shakmaty::Position as _;
use shakmaty::zobrist::Zobrist64;

/// Positions compared when `CAISSA_DIFF_POSITIONS` is not set.
const DEFAULT_POSITIONS: usize = 100_000;
/// The seed of the game sequence when `CAISSA_DIFF_SEED` is not set.
const DEFAULT_SEED: u64 = 0xCA15_5A00_D1FF_0001;
/// Every this many positions, perft 3 is compared as well.
const PERFT3_EVERY: usize = 1;
/// The share of positions along a game that are compared (game ends always are).
const SAMPLE_PERCENT: u32 = 35;
/// The longest game, in plies.
const MAX_PLIES: usize = 200;

#[test]
fn random_positions_agree_with_shakmaty() {
    let positions = env_number("CAISSA_DIFF_POSITIONS").map_or(DEFAULT_POSITIONS, |n| {
        usize::try_from(n).expect("CAISSA_DIFF_POSITIONS fits in usize")
    });
    let seed = env_number("CAISSA_DIFF_SEED").unwrap_or(DEFAULT_SEED);
    let started = Instant::now();
    let mut checker = Checker::default();
    let mut games = Rng::new(seed);
    let mut game = 0;
    while checker.stats.positions < positions {
        play_game(&mut checker, seed, game, games.next_u64());
        game += 1;
    }
    let stats = &checker.stats;
    eprintln!(
        "differential_shakmaty: seed {seed:#x}, {game} games, {:.1} s\n{stats}",
        started.elapsed().as_secs_f64()
    );

    // The games must reach what the comparison is for. The floors, per 100,000 positions, are
    // about half of what the default seed reaches.
    let floors = [
        (stats.chess960, 40_000, "Chess960 positions"),
        (stats.checks, 2_500, "positions in check"),
        (stats.checkmates, 400, "checkmates"),
        (stats.stalemates, 60, "stalemates"),
        (stats.legal_ep, 400, "positions with legal en passant"),
        (
            stats.pseudo_ep_only,
            3_000,
            "positions with only pseudo-legal en passant",
        ),
        (stats.castling, 3_000, "positions where castling is legal"),
        (
            stats.castling_in_place,
            500,
            "Chess960 castles with king or rook standing still",
        ),
        (stats.promotions, 1_000, "positions with promotions"),
        (stats.repeats, 700, "repeated positions"),
    ];
    for (count, per_100k, what) in floors {
        let floor = per_100k * positions / 100_000;
        assert!(
            count >= floor,
            "only {count} {what} (expected at least {floor})"
        );
    }
    assert!(
        stats.perft3 >= positions / PERFT3_EVERY,
        "only {} positions to perft 3",
        stats.perft3
    );
}

/// Plays game number `game` of the sequence started by `seed` and compares some of its
/// positions.
fn play_game(checker: &mut Checker, seed: u64, game: usize, game_seed: u64) {
    let mut rng = Rng::new(game_seed);
    let start = rng.start_position();
    let bias = match rng.below(5) {
        0 => Bias::UNIFORM,
        1 => Bias {
            checkmate: 100,
            stalemate: 100,
            ..Bias::UNIFORM
        },
        // Into the endgame, where stalemates are.
        2 => Bias {
            stalemate: 100,
            capture: 50,
            pawn: 20,
            ..Bias::UNIFORM
        },
        3 => Bias {
            checkmate: 50,
            stalemate: 50,
            castle: 10,
            special: 50,
            pawn: 10,
            keep_castling: 80,
            ..Bias::UNIFORM
        },
        _ => Bias {
            checkmate: 100,
            stalemate: 100,
            castle: 20,
            special: 90,
            capture: 10,
            pawn: 35,
            keep_castling: 95,
        },
    };
    let max_plies = 20 + u32::try_from(rng.below(MAX_PLIES - 19)).expect("at most 200");
    let mut sample = Rng::new(rng.next_u64());
    let mut moves = RandomGame::new(Rng::new(rng.next_u64()), start, max_plies, bias);
    while let Some((ply, pos)) = moves.next() {
        let end = moves.end();
        let game_over = matches!(end, Some(GameEnd::Checkmate | GameEnd::Stalemate));
        if game_over || sample.percent(SAMPLE_PERCENT) {
            let origin = Origin {
                seed,
                game,
                game_seed,
                ply,
            };
            checker.check(&pos, &origin);
        }
    }
}

/// Where a position comes from, to name in failure messages.
struct Origin {
    seed: u64,
    game: usize,
    game_seed: u64,
    ply: u32,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ply {} of game #{} (game seed {:#x}) of CAISSA_DIFF_SEED={:#x}",
            self.ply, self.game, self.game_seed, self.seed
        )
    }
}

/// What was compared and what the games reached.
#[derive(Debug, Default)]
struct Stats {
    positions: usize,
    chess960: usize,
    moves: usize,
    perft_nodes: u64,
    perft3: usize,
    checks: usize,
    checkmates: usize,
    stalemates: usize,
    legal_ep: usize,
    pseudo_ep_only: usize,
    castling: usize,
    castling_in_place: usize,
    promotions: usize,
    repeats: usize,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "  {} positions ({} Chess960), {} moves and the positions after them, {} perft nodes \
             ({} positions to depth 3)",
            self.positions, self.chess960, self.moves, self.perft_nodes, self.perft3
        )?;
        write!(
            f,
            "  {} checks, {} checkmates, {} stalemates, {} legal en passant, {} only pseudo-legal \
             en passant, {} with castling ({} Chess960 castles with king or rook standing still), \
             {} with promotions, {} repeated positions",
            self.checks,
            self.checkmates,
            self.stalemates,
            self.legal_ep,
            self.pseudo_ep_only,
            self.castling,
            self.castling_in_place,
            self.promotions,
            self.repeats
        )
    }
}

/// Panics with what differs, the position and where it comes from.
struct Failure<'a> {
    fen: &'a str,
    mode: CastlingMode,
    origin: &'a Origin,
}

impl Failure<'_> {
    fn fail(&self, what: &str, details: &dyn fmt::Display) -> ! {
        let Failure { fen, mode, origin } = self;
        panic!(
            "caissa and shakmaty disagree: {what}\n  position: {fen}\n  castling: {mode:?}\n  \
             from:     {origin}\n{details}"
        )
    }
}

/// Compares positions with shakmaty and remembers them, to compare keys of repeated positions.
#[derive(Default)]
struct Checker {
    stats: Stats,
    /// Positions compared so far, by shakmaty's key (which counts the en passant square only if
    /// a legal capture exists, like FIDE and caissa).
    by_shakmaty_key: HashMap<u64, Position>,
    /// Shakmaty's key of each caissa key seen.
    shakmaty_key_of: HashMap<u64, u64>,
}

/// What one side says about a move, in a form both libraries can be brought to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct MoveKey {
    from: u8,
    /// The rook's square for castling.
    to: u8,
    promotion: Option<char>,
    kind: Kind,
    role: char,
    capture: Option<char>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Normal,
    EnPassant,
    Castle,
}

impl fmt::Display for MoveKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", square_name(self.from), square_name(self.to))?;
        if let Some(role) = self.promotion {
            write!(f, "{role}")?;
        }
        write!(f, " ({}", self.role)?;
        if let Some(role) = self.capture {
            write!(f, "x{role}")?;
        }
        match self.kind {
            Kind::Normal => f.write_str(")"),
            Kind::EnPassant => f.write_str(" e.p.)"),
            Kind::Castle => f.write_str(" castles)"),
        }
    }
}

fn caissa_key(pos: &Position, m: Move) -> MoveKey {
    let kind = if m.is_castle() {
        Kind::Castle
    } else if m.is_en_passant() {
        Kind::EnPassant
    } else {
        Kind::Normal
    };
    MoveKey {
        from: square_index(m.from().index()),
        to: square_index(m.to().index()),
        promotion: m.promotion_role().map(|r| r.char()),
        kind,
        role: pos.moving_role(m).char(),
        capture: pos.captured_role(m).map(|r| r.char()),
    }
}

fn shakmaty_key(m: shakmaty::Move) -> MoveKey {
    let (kind, promotion) = match m {
        shakmaty::Move::Normal { promotion, .. } => (Kind::Normal, promotion.map(|r| r.char())),
        shakmaty::Move::EnPassant { .. } => (Kind::EnPassant, None),
        shakmaty::Move::Castle { .. } => (Kind::Castle, None),
        shakmaty::Move::Put { .. } => unreachable!("no drops in standard chess"),
    };
    MoveKey {
        from: square_index(m.from().expect("not a drop").to_usize()),
        to: square_index(m.to().to_usize()),
        promotion,
        kind,
        role: m.role().char(),
        capture: m.capture().map(|r| r.char()),
    }
}

fn square_index(index: usize) -> u8 {
    u8::try_from(index).expect("squares are below 64")
}

fn square_name(index: u8) -> String {
    let file = char::from(b'a' + index % 8);
    let rank = char::from(b'1' + index / 8);
    format!("{file}{rank}")
}

/// The moves only in `ours` and those only in `theirs` (both sorted), as two printable lists.
fn move_diff(ours: &[MoveKey], theirs: &[MoveKey]) -> (String, String) {
    let (mut only_ours, mut only_theirs) = (String::new(), String::new());
    let (mut i, mut j) = (0, 0);
    while i < ours.len() || j < theirs.len() {
        let take_ours = match (ours.get(i), theirs.get(j)) {
            (Some(a), Some(b)) if a == b => {
                (i, j) = (i + 1, j + 1);
                continue;
            }
            (Some(a), Some(b)) => a < b,
            (a, _) => a.is_some(),
        };
        if take_ours {
            let _ = write!(only_ours, " {},", ours[i]);
            i += 1;
        } else {
            let _ = write!(only_theirs, " {},", theirs[j]);
            j += 1;
        }
    }
    (only_ours, only_theirs)
}

fn shakmaty_mode(mode: CastlingMode) -> shakmaty::CastlingMode {
    match mode {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    }
}

fn shakmaty_fen(pos: &shakmaty::Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Always).to_string()
}

fn caissa_fen(pos: &Position) -> String {
    Fen::from_position(pos, EnPassantMode::Always).to_string()
}

/// Reads a FEN that caissa wrote back into a caissa position.
fn caissa_from_fen(fen: &str, mode: CastlingMode) -> Result<Position, String> {
    let parsed: Fen = fen
        .parse()
        .map_err(|e| format!("caissa cannot read it: {e}"))?;
    parsed
        .into_position(mode)
        .map_err(|e| format!("caissa refuses it: {e}"))
}

impl Checker {
    /// Compares `pos` with shakmaty's view of it; panics with the FEN, the differences and
    /// `origin` on any disagreement.
    fn check(&mut self, pos: &Position, origin: &Origin) {
        let mode = pos.castling_mode();
        let fen = caissa_fen(pos);
        let fail = Failure {
            fen: &fen,
            mode,
            origin,
        };

        self.check_fen_round_trip(pos, &fen, &fail);
        let sh: shakmaty::Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .map_err(|e| e.to_string())
            .and_then(|f| {
                f.into_position(shakmaty_mode(mode))
                    .map_err(|e| e.to_string())
            })
            .unwrap_or_else(|e| fail.fail("shakmaty refuses caissa's FEN", &e));
        let sh_fen = shakmaty_fen(&sh);
        if sh_fen != fen {
            fail.fail("the FEN", &format_args!("  shakmaty writes {sh_fen}"));
        }

        self.check_state(pos, &sh, &fail);
        self.check_moves(pos, &sh, &fail);
        self.check_keys(pos, &sh, &fail);
        self.check_perft(pos, &sh, &fail);

        self.stats.positions += 1;
        if mode == CastlingMode::Chess960 {
            self.stats.chess960 += 1;
        }
    }

    /// Caissa reads its own FEN (X-FEN and Shredder-FEN castling) back into the same position.
    fn check_fen_round_trip(&self, pos: &Position, fen: &str, fail: &Failure<'_>) {
        let mode = pos.castling_mode();
        let parsed: Fen = fen
            .parse()
            .unwrap_or_else(|e| fail.fail("caissa cannot read its own FEN", &e));
        if parsed.0 != pos.to_setup() {
            fail.fail(
                "caissa's FEN round trip",
                &format_args!("  read back as {:?}\n  was {:?}", parsed.0, pos.to_setup()),
            );
        }
        let again = parsed.to_string();
        if again != fen {
            fail.fail(
                "caissa's FEN round trip",
                &format_args!("  written again as {again}"),
            );
        }
        let shredder = parsed.shredder().to_string();
        match shredder.parse::<Fen>() {
            Ok(back) if back.0 == parsed.0 => {}
            other => fail.fail(
                "caissa's Shredder-FEN round trip",
                &format_args!("  {shredder} reads as {other:?}"),
            ),
        }
        let fresh =
            caissa_from_fen(fen, mode).unwrap_or_else(|e| fail.fail("caissa's own FEN", &e));
        if fresh.to_setup() != pos.to_setup() || fresh != *pos {
            fail.fail(
                "caissa's FEN round trip",
                &format_args!("  position read back: {fresh:?}"),
            );
        }
        if fresh.zobrist_hash() != pos.zobrist_hash() {
            fail.fail(
                "Zobrist key of a position read from its FEN",
                &format_args!(
                    "  played move by move: {:#018x}\n  read from the FEN:   {:#018x}",
                    pos.zobrist_hash(),
                    fresh.zobrist_hash()
                ),
            );
        }
    }

    /// Check, checkmate, stalemate and en passant squares.
    fn check_state(&mut self, pos: &Position, sh: &shakmaty::Chess, fail: &Failure<'_>) {
        let compare = |what: &str, ours: String, theirs: String| {
            if ours != theirs {
                fail.fail(
                    what,
                    &format_args!("  caissa:   {ours}\n  shakmaty: {theirs}"),
                );
            }
        };
        compare(
            "checkers",
            format!("{:?}", pos.checkers().0),
            format!("{:?}", sh.checkers().0),
        );
        compare(
            "is_check",
            pos.is_check().to_string(),
            sh.is_check().to_string(),
        );
        compare(
            "is_checkmate",
            pos.is_checkmate().to_string(),
            sh.is_checkmate().to_string(),
        );
        compare(
            "is_stalemate",
            pos.is_stalemate().to_string(),
            sh.is_stalemate().to_string(),
        );
        let name =
            |index: Option<usize>| index.map_or("-".to_owned(), |i| square_name(square_index(i)));
        let square = |sq: Option<caissa_board::Square>| name(sq.map(caissa_board::Square::index));
        let sh_square = |sq: Option<shakmaty::Square>| name(sq.map(shakmaty::Square::to_usize));
        compare(
            "ep_square",
            square(pos.ep_square()),
            sh_square(sh.maybe_ep_square()),
        );
        compare(
            "pseudo_legal_ep_square",
            square(pos.pseudo_legal_ep_square()),
            sh_square(sh.pseudo_legal_ep_square()),
        );
        compare(
            "legal_ep_square",
            square(pos.legal_ep_square()),
            sh_square(sh.legal_ep_square()),
        );
        let stats = &mut self.stats;
        stats.checks += usize::from(pos.is_check());
        stats.checkmates += usize::from(pos.is_checkmate());
        stats.stalemates += usize::from(pos.is_stalemate());
        stats.legal_ep += usize::from(pos.legal_ep_square().is_some());
    }

    /// The legal moves, and the position after each of them.
    fn check_moves(&mut self, pos: &Position, sh: &shakmaty::Chess, fail: &Failure<'_>) {
        let mode = pos.castling_mode();
        let mut ours: Vec<(MoveKey, Move)> = pos
            .legal_moves()
            .into_iter()
            .map(|m| (caissa_key(pos, m), m))
            .collect();
        let mut theirs: Vec<(MoveKey, shakmaty::Move)> = sh
            .legal_moves()
            .into_iter()
            .map(|m| (shakmaty_key(m), m))
            .collect();
        ours.sort_by_key(|&(key, _)| key);
        theirs.sort_by_key(|&(key, _)| key);
        let our_keys: Vec<MoveKey> = ours.iter().map(|&(key, _)| key).collect();
        let their_keys: Vec<MoveKey> = theirs.iter().map(|&(key, _)| key).collect();
        if our_keys != their_keys {
            let (only_ours, only_theirs) = move_diff(&our_keys, &their_keys);
            fail.fail(
                "legal moves",
                &format_args!(
                    "  only caissa:  [{only_ours} ]\n  only shakmaty: [{only_theirs} ]\n  \
                     ({} moves in caissa, {} in shakmaty)",
                    our_keys.len(),
                    their_keys.len()
                ),
            );
        }

        for (&(key, m), &(_, sm)) in ours.iter().zip(&theirs) {
            if !pos.is_legal(m) {
                fail.fail(
                    "is_legal",
                    &format_args!("  caissa generates {key} but says it is illegal"),
                );
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let mut sh_child = sh.clone();
            sh_child.play_unchecked(sm);
            let (fen, sh_fen) = (caissa_fen(&child), shakmaty_fen(&sh_child));
            if fen != sh_fen {
                fail.fail(
                    "the position after a move",
                    &format_args!("  move: {key}\n  caissa:   {fen}\n  shakmaty: {sh_fen}"),
                );
            }
            let fresh = caissa_from_fen(&fen, mode).unwrap_or_else(|e| {
                fail.fail(
                    "the position after a move",
                    &format_args!("  move: {key}\n  {fen}: {e}"),
                )
            });
            if fresh.zobrist_hash() != child.zobrist_hash() || fresh != child {
                fail.fail(
                    "Zobrist key after a move (played vs. read from the FEN)",
                    &format_args!(
                        "  move: {key}\n  after it: {fen}\n  played: {:#018x}\n  from FEN: {:#018x}\n  \
                         equal positions: {}",
                        child.zobrist_hash(),
                        fresh.zobrist_hash(),
                        fresh == child
                    ),
                );
            }
        }

        let stats = &mut self.stats;
        stats.moves += our_keys.len();
        stats.castling += usize::from(our_keys.iter().any(|k| k.kind == Kind::Castle));
        stats.castling_in_place += ours
            .iter()
            .filter(|(_, m)| m.is_castle() && is_castle_in_place(*m))
            .count();
        stats.promotions += usize::from(our_keys.iter().any(|k| k.promotion.is_some()));
    }

    /// Keys: the same position (by shakmaty's key) has the same caissa key and is `==`, and one
    /// caissa key means one position; an en passant square without a legal capture changes
    /// nothing.
    fn check_keys(&mut self, pos: &Position, sh: &shakmaty::Chess, fail: &Failure<'_>) {
        let key = pos.zobrist_hash();
        let sh_key = sh
            .zobrist_hash::<Zobrist64>(shakmaty::EnPassantMode::Legal)
            .0;
        match self.by_shakmaty_key.entry(sh_key) {
            Entry::Occupied(earlier) => {
                let earlier = earlier.get();
                self.stats.repeats += 1;
                if earlier != pos || earlier.zobrist_hash() != key {
                    fail.fail(
                        "a repeated position (same for shakmaty, different for caissa)",
                        &format_args!(
                            "  earlier: {}\n  equal: {}\n  keys: {:#018x} now, {:#018x} earlier",
                            caissa_fen(earlier),
                            earlier == pos,
                            key,
                            earlier.zobrist_hash()
                        ),
                    );
                }
            }
            Entry::Vacant(slot) => {
                slot.insert(*pos);
            }
        }
        let earlier_sh_key = *self.shakmaty_key_of.entry(key).or_insert(sh_key);
        if earlier_sh_key != sh_key {
            let earlier = &self.by_shakmaty_key[&earlier_sh_key];
            fail.fail(
                "two different positions (for shakmaty) with one caissa key",
                &format_args!(
                    "  earlier: {}\n  caissa key {key:#018x}, equal: {}",
                    caissa_fen(earlier),
                    earlier == pos
                ),
            );
        }

        if let Some(ep) = pos.ep_square() {
            let mut setup = pos.to_setup();
            setup.ep_square = None;
            let without = Position::from_setup(setup, pos.castling_mode())
                .unwrap_or_else(|e| fail.fail("dropping the en passant square", &e));
            // Without a legal capture the square changes nothing; with one it makes another
            // position.
            let legal = pos.legal_ep_square().is_some();
            let (equal, same_key) = (without == *pos, without.zobrist_hash() == key);
            if equal == legal || same_key == legal {
                fail.fail(
                    "the same position without its en passant square",
                    &format_args!(
                        "  en passant on {ep} is {}legal; without it: equal {equal}, same key \
                         {same_key}",
                        if legal { "" } else { "not " },
                    ),
                );
            }
            self.stats.pseudo_ep_only += usize::from(!legal);
        }
    }

    /// Perft 1 and 2, and 3 for every `PERFT3_EVERY`th position.
    fn check_perft(&mut self, pos: &Position, sh: &shakmaty::Chess, fail: &Failure<'_>) {
        let depth = if self.stats.positions.is_multiple_of(PERFT3_EVERY) {
            self.stats.perft3 += 1;
            3
        } else {
            2
        };
        for d in 1..=depth {
            let (ours, theirs) = (perft(pos, d), shakmaty::perft(sh, d));
            if ours != theirs {
                fail.fail(
                    &format!("perft {d}: caissa {ours}, shakmaty {theirs}"),
                    &perft_diff(pos, sh, d),
                );
            }
            self.stats.perft_nodes += ours;
        }
    }
}

/// A Chess960 castling move where the king or the rook ends where it starts.
fn is_castle_in_place(m: Move) -> bool {
    let side = m.castling_side().expect("a castling move");
    let rank = m.from().rank();
    let rook_to = caissa_board::Square::from_coords(side.rook_to_file(), rank);
    m.king_to() == m.from() || rook_to == m.to()
}

/// The moves after which the perft counts of depth `depth - 1` differ, with the position after
/// each.
fn perft_diff(pos: &Position, sh: &shakmaty::Chess, depth: u32) -> String {
    let mut out = String::new();
    for m in pos.legal_moves() {
        let key = caissa_key(pos, m);
        let Some(sm) = sh
            .legal_moves()
            .into_iter()
            .find(|&sm| shakmaty_key(sm) == key)
        else {
            continue; // the move lists were compared already
        };
        let mut child = *pos;
        child.play_unchecked(m);
        let mut sh_child = sh.clone();
        sh_child.play_unchecked(sm);
        let (ours, theirs) = (
            perft(&child, depth - 1),
            shakmaty::perft(&sh_child, depth - 1),
        );
        if ours != theirs {
            let _ = writeln!(
                out,
                "  after {key}: caissa {ours}, shakmaty {theirs} ({})",
                caissa_fen(&child)
            );
        }
    }
    out
}
