//! One game judged by the Laws: the arbiter keeps the clock and decides, the referee adds what
//! engine matches need (claims made for the engines, forfeits, adjudication) and writes the PGN.
//!
//! The [`Arbiter`] runs under server-like rules (flags fall at once, Article 6.9 applied by the
//! arbiter; no automatic draw at fifty moves or threefold): checkmate, stalemate, a dead
//! position, the fivefold repetition and the 75-move rule end the game at once (5.1.1, 5.2.1,
//! 5.2.2, 9.6). A threefold repetition or fifty moves is claimed for the engine to move when
//! [`Settings::claim_threefold`] / [`Settings::claim_fifty`] say so (9.2.1.2, 9.3.2).
//! An engine that plays an illegal move, sends nonsense, exits or stops answering loses at
//! once: engines are not warned (7.5.5 would give a second chance). Adjudication by score or
//! by length is the referee's, outside the Laws, and recorded as such.
//!
//! The referee reads no clock: each move comes with the time the engine thought
//! ([`Referee::play`]), and the arbiter's clock runs on the sum of those times. The game
//! starts after the opening's moves (played from the book, on no clock); the arbiter judges
//! from there.

use caissa_arbiter::time_control;
use caissa_arbiter::{
    Arbiter, ClaimKind, Clock, Event, EventError, EventKind, MoveText, Rules, Start, TimeControl,
};
use caissa_board::{ByColor, Color};
use caissa_game::{Game, GameResult, Outcome};
use caissa_movegen::{CastlingMode, Move};
use caissa_notation::fen::{EnPassantMode, Fen};
use caissa_notation::pgn::commands::{Command, Eval, Score as PgnScore};
use caissa_notation::pgn::{self, GameTree};
use caissa_notation::san::SanPlus;
use caissa_notation::uci::UciMove;
use caissa_uci::clock::go_from_clock;
use caissa_uci::protocol::{Go, Info, ScoreBound, ScoreValue};

use crate::openings::Opening;

/// Per-engine search limits sent with every `go` besides the clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `movetime`, in milliseconds.
    pub movetime: Option<u64>,
}

/// Draw adjudication: from move `move_number` on, once both engines' scores have stayed within
/// `score` centipawns of zero for `move_count` moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DrawRule {
    /// The first move number it applies at.
    pub move_number: u32,
    /// Consecutive moves of each engine.
    pub move_count: u32,
    /// The bound, in centipawns.
    pub score: i32,
}

/// Resign adjudication: an engine whose score has been at or below `-score` centipawns for
/// `move_count` of its own moves in a row loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResignRule {
    /// Consecutive moves of the losing engine.
    pub move_count: u32,
    /// The bound, in centipawns (positive).
    pub score: i32,
}

/// How games are judged and adjudicated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The time control of the engines without their own ([`Referee::with_time_odds`]), `None`
    /// for games on limits alone.
    pub time_control: Option<TimeControl>,
    /// Claim a threefold repetition for the engine to move (9.2.1.2).
    pub claim_threefold: bool,
    /// Claim fifty moves for the engine to move (9.3.2).
    pub claim_fifty: bool,
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// A draw once the game has this many moves (each side's), book included.
    pub max_moves: Option<u32>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            time_control: None,
            claim_threefold: true,
            claim_fifty: true,
            draw: None,
            resign: None,
            max_moves: None,
        }
    }
}

/// Why an engine forfeited.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Forfeit {
    /// It could not be started, or the handshake failed.
    Start(String),
    /// It played an illegal move.
    IllegalMove(String),
    /// It sent a `bestmove` that does not read, or no move in a position with legal moves.
    Malformed(String),
    /// Its process exited or closed its output.
    Exited,
    /// It stopped answering (in a game without a clock to flag).
    Hang,
    /// It printed only lines that are not UCI.
    Garbage,
}

impl core::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Forfeit::Start(why) => write!(f, "did not start: {why}"),
            Forfeit::IllegalMove(mv) => write!(f, "illegal move {mv}"),
            Forfeit::Malformed(line) => write!(f, "malformed move {line}"),
            Forfeit::Exited => f.write_str("engine exited"),
            Forfeit::Hang => f.write_str("engine stopped answering"),
            Forfeit::Garbage => f.write_str("engine printed garbage"),
        }
    }
}

/// A decision outside the Laws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Adjudication {
    /// Both scores stayed near zero ([`DrawRule`]).
    Draw,
    /// This side's score stayed lost ([`ResignRule`]).
    Resign(Color),
    /// The game reached [`Settings::max_moves`].
    MaxMoves,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// By the Laws (the arbiter's outcome, with its article).
    Laws(Outcome),
    /// An engine lost by misbehaving.
    Forfeit {
        /// Who.
        loser: Color,
        /// Why.
        reason: Forfeit,
    },
    /// By adjudication.
    Adjudication(Adjudication),
}

impl Termination {
    /// The result.
    #[must_use]
    pub fn result(&self) -> GameResult {
        match self {
            Termination::Laws(outcome) => outcome.result,
            Termination::Forfeit { loser, .. } => GameResult::win(!*loser),
            Termination::Adjudication(Adjudication::Resign(loser)) => GameResult::win(!*loser),
            Termination::Adjudication(_) => GameResult::Draw,
        }
    }
}

impl core::fmt::Display for Termination {
    /// The PGN `Termination` value: the reason, with the FIDE article for the Laws' endings.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Termination::Laws(outcome) => {
                let reason = outcome.reason.name().replace('_', " ");
                write!(f, "{reason} (FIDE {})", outcome.article)
            }
            Termination::Forfeit { loser, reason } => {
                write!(f, "rules infraction: {} {reason}", color_name(*loser))
            }
            Termination::Adjudication(Adjudication::Draw) => {
                f.write_str("adjudication: draw by score")
            }
            Termination::Adjudication(Adjudication::Resign(c)) => {
                write!(f, "adjudication: {} resigns by score", color_name(*c))
            }
            Termination::Adjudication(Adjudication::MaxMoves) => {
                f.write_str("adjudication: draw at the move limit")
            }
        }
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A game that cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RefereeError {
    /// The opening's move with this index (from 0) is not legal.
    #[error("opening move {} is illegal", .0 + 1)]
    IllegalOpeningMove(usize),
    /// The arbiter refuses the start (position or time control).
    #[error(transparent)]
    Arbiter(#[from] EventError),
    /// One engine plays on a clock and the other has no time control.
    #[error("{} has no time control and {} has one", color_name(*.0), color_name(!*.0))]
    Untimed(Color),
    /// In a game without clocks, an engine has no limit either (`nodes`, `depth`,
    /// `movetime`): its `go` would be bare, a search without end.
    #[error("{} has neither a time control nor a limit", color_name(*.0))]
    Unlimited(Color),
}

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Played {
    san: SanPlus,
    /// The mover's clock after the move.
    clock_ms: Option<u64>,
    /// The engine's score, from White's side, and its depth.
    eval: Option<Eval>,
}

/// One game in progress, judged.
#[derive(Debug)]
pub struct Referee {
    settings: Settings,
    arbiter: Arbiter,
    /// The whole game, book included: what the engines are sent.
    game: Game,
    mode: CastlingMode,
    opening: Opening,
    played: Vec<Played>,
    now: u64,
    ending: Option<Termination>,
    /// Plies in a row with both scores within the draw bound.
    quiet: u32,
    /// Each side's own moves in a row at or below the resign bound.
    lost: [u32; 2],
}

impl Referee {
    /// A game from `opening` between `names` (White, Black), both on
    /// [`Settings::time_control`].
    ///
    /// # Errors
    ///
    /// [`RefereeError`] for an illegal opening move, an opening the arbiter cannot start from,
    /// or a time control too long.
    pub fn new(
        opening: &Opening,
        settings: &Settings,
        names: [&str; 2],
    ) -> Result<Referee, RefereeError> {
        Referee::with_time_odds(opening, settings, names, ByColor::default())
    }

    /// A game from `opening` between `names` (White, Black), each engine on its own time
    /// control in `own` (time odds), or on [`Settings::time_control`] where it has none.
    ///
    /// # Errors
    ///
    /// As [`Referee::new`], and [`RefereeError::Untimed`] when one engine has a time control
    /// and the other none.
    pub fn with_time_odds(
        opening: &Opening,
        settings: &Settings,
        names: [&str; 2],
        own: ByColor<Option<&TimeControl>>,
    ) -> Result<Referee, RefereeError> {
        let controls = own.map(|own| own.or(settings.time_control.as_ref()).cloned());
        let (time_control, black_time_control) = match (controls.white, controls.black) {
            (Some(white), Some(black)) if white == black => (Some(white), None),
            (white, black) if white.is_some() == black.is_some() => (white, black),
            (white, _) => {
                let untimed = if white.is_none() {
                    Color::White
                } else {
                    Color::Black
                };
                return Err(RefereeError::Untimed(untimed));
            }
        };
        let mut game = Game::new(opening.start);
        let mut played = Vec::new();
        for (index, &m) in opening.moves.iter().enumerate() {
            let san = SanPlus::from_move(game.position(), m);
            game.play(m)
                .map_err(|_| RefereeError::IllegalOpeningMove(index))?;
            played.push(Played {
                san,
                clock_ms: None,
                eval: None,
            });
        }
        let start = Start {
            time_control,
            black_time_control,
            rules: Rules {
                auto_draw_fifty: false,
                auto_draw_threefold: false,
                ..Rules::online()
            },
            fen: Some(Fen::from_position(game.position(), EnPassantMode::Legal)),
            chess960: opening.chess960,
            presses: None,
            white: Some(names[0].to_owned()),
            black: Some(names[1].to_owned()),
        };
        let arbiter = Arbiter::new(&start, 0)?;
        let mode = if opening.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let mut referee = Referee {
            settings: settings.clone(),
            arbiter,
            game,
            mode,
            opening: opening.clone(),
            played,
            now: 0,
            ending: None,
            quiet: 0,
            lost: [0; 2],
        };
        referee.judge();
        Ok(referee)
    }

    /// The game so far, book moves included.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The castling convention the engines are told.
    #[must_use]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// Who is to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.game.position().turn()
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn ending(&self) -> Option<&Termination> {
        self.ending.as_ref()
    }

    /// The `go` command for the engine to move: the clock's fields, if there is a clock, and
    /// its own limits.
    #[must_use]
    pub fn go(&self, limits: &Limits) -> Go {
        let mut go = self
            .arbiter
            .clock()
            .map(|clock| go_from_clock(clock, self.now))
            .unwrap_or_default();
        go.nodes = limits.nodes;
        go.depth = limits.depth;
        go.movetime = limits.movetime;
        go
    }

    /// The time the engine to move has left on its clock, if there is a clock.
    #[must_use]
    pub fn time_left_ms(&self) -> Option<u64> {
        let clock = self.arbiter.clock()?;
        Some(clock.remaining(self.turn(), self.now))
    }

    /// The engine to move played `m` (a legal move) after thinking `thinking_ms`, saying
    /// `info` last. Returns how the game ended, if it did.
    pub fn play(&mut self, m: Move, thinking_ms: u64, info: Option<&Info>) -> Option<&Termination> {
        if self.ending.is_some() {
            return self.ending.as_ref();
        }
        let mover = self.turn();
        self.now = self.now.saturating_add(thinking_ms);
        let uci = UciMove::from_move_in_mode(m, self.mode);
        let event = EventKind::Move {
            by: mover,
            mv: MoveText::Uci(uci),
            two_hands: false,
        };
        if self.arbiter.handle(&Event::new(self.now, event)).is_err() {
            // The arbiter refuses only a time beyond its range: the engine used it all.
            self.ending = Some(Termination::Laws(Outcome::new(
                GameResult::win(!mover),
                caissa_game::Reason::TimeForfeit,
            )));
            return self.ending.as_ref();
        }
        // The arbiter took the move unless a flag fell first (then the game is over).
        if self.arbiter.game().ply() + self.opening.moves.len() == self.game.ply() + 1 {
            let san = SanPlus::from_move(self.game.position(), m);
            self.game.play_unchecked(m);
            let eval = info.and_then(|i| {
                let score = i.score?;
                let white = |v: i32| {
                    if mover == Color::White {
                        v
                    } else {
                        v.saturating_neg()
                    }
                };
                let score = match score.value {
                    ScoreValue::Centipawns(cp) => PgnScore::Centipawns(white(cp)),
                    ScoreValue::Mate(n) => PgnScore::Mate(white(n)),
                };
                Some(Eval {
                    score,
                    depth: i.depth,
                })
            });
            let clock_ms = self.arbiter.clock().map(|c| c.remaining(mover, self.now));
            self.played.push(Played {
                san,
                clock_ms,
                eval,
            });
            self.adjudicate(mover, info);
        }
        self.judge();
        self.ending.as_ref()
    }

    /// The engine to move thought `thinking_ms` without answering: its flag falls if its time is
    /// up (6.9 decides the result), else it forfeits for hanging.
    pub fn time_out(&mut self, thinking_ms: u64) -> &Termination {
        let mover = self.turn();
        self.now = self.now.saturating_add(thinking_ms);
        let _ = self.arbiter.tick(self.now);
        self.judge();
        self.ending.get_or_insert(Termination::Forfeit {
            loser: mover,
            reason: Forfeit::Hang,
        })
    }

    /// `loser` forfeits.
    pub fn forfeit(&mut self, loser: Color, reason: Forfeit) -> &Termination {
        self.ending
            .get_or_insert(Termination::Forfeit { loser, reason })
    }

    /// The Laws' verdict after a move: an automatic ending, or a claim made for the engine to move.
    fn judge(&mut self) {
        if self.ending.is_some() {
            return;
        }
        if self.arbiter.outcome().is_none() {
            let claims = self.arbiter.game().claims();
            let claim = if self.settings.claim_threefold && claims.threefold.is_some() {
                Some(ClaimKind::Threefold(None))
            } else if self.settings.claim_fifty && claims.fifty_moves.is_some() {
                Some(ClaimKind::Fifty(None))
            } else {
                None
            };
            if let Some(claim) = claim {
                let by = self.turn();
                let _ = self
                    .arbiter
                    .handle(&Event::new(self.now, EventKind::Claim { by, claim }));
            }
        }
        if let Some(outcome) = self.arbiter.outcome() {
            self.ending = Some(Termination::Laws(outcome));
        } else if self
            .settings
            .max_moves
            .is_some_and(|max| self.game.ply() >= 2 * max as usize)
        {
            self.ending = Some(Termination::Adjudication(Adjudication::MaxMoves));
        }
    }

    /// Score adjudication after `mover`'s move.
    fn adjudicate(&mut self, mover: Color, info: Option<&Info>) {
        // Only an exact score counts: a bound (a fail-low or fail-high line) says less.
        let exact = info
            .and_then(|i| i.score)
            .filter(|s| s.bound == ScoreBound::Exact);
        let cp = exact.map(|s| match s.value {
            ScoreValue::Centipawns(cp) => cp,
            ScoreValue::Mate(n) if n < 0 => -100_000,
            ScoreValue::Mate(_) => 100_000,
        });
        if let Some(rule) = self.settings.draw {
            match cp {
                Some(cp) if cp.saturating_abs() <= rule.score => self.quiet += 1,
                _ => self.quiet = 0,
            }
            let move_number = self.game.ply() / 2 + 1;
            if move_number >= rule.move_number as usize
                && self.quiet >= rule.move_count.saturating_mul(2)
            {
                self.ending = Some(Termination::Adjudication(Adjudication::Draw));
            }
        }
        if let Some(rule) = self.settings.resign {
            let side = usize::from(mover == Color::Black);
            match cp {
                Some(cp) if cp <= rule.score.saturating_neg() => self.lost[side] += 1,
                _ => self.lost[side] = 0,
            }
            if self.lost[side] >= rule.move_count {
                self.ending = Some(Termination::Adjudication(Adjudication::Resign(mover)));
            }
        }
    }

    /// The game in PGN (export format): the seven tags (`Event` as given, `Round` the game's
    /// number), `FEN` and `SetUp` (and `Variant`) when the start is not the standard one,
    /// `TimeControl` (`WhiteTimeControl` and `BlackTimeControl` at time odds:
    /// [`time_control::insert_pgn_tags`]), `Termination`, `Opening` when the book names it; book moves commented
    /// `book`, each engine move with `[%clk]` and `[%eval score,depth]`.
    #[must_use]
    pub fn pgn(&self, event: &str, round: u64, names: [&str; 2]) -> String {
        let mut tree = GameTree::new();
        let result = self
            .ending
            .as_ref()
            .map_or(GameResult::Cancelled, Termination::result);
        let marker = pgn::TerminationMarker::from(result);
        for (tag, value) in [
            ("Event", event),
            ("Site", "?"),
            ("Date", "????.??.??"),
            ("Round", &round.to_string()),
            ("White", names[0]),
            ("Black", names[1]),
            ("Result", marker.as_str()),
        ] {
            tree.tags.insert(tag, value);
        }
        tree.tags.set_start(&self.opening.start);
        time_control::insert_pgn_tags(&mut tree.tags, self.arbiter.clock().map(Clock::controls));
        if let Some(ending) = &self.ending {
            tree.tags.insert("Termination", &ending.to_string());
        }
        if let Some(name) = &self.opening.name {
            tree.tags.insert("Opening", name);
        }
        tree.termination_marker = Some(marker);
        let mut parent = None;
        for (ply, played) in self.played.iter().enumerate() {
            let id = tree.add_move(parent, played.san);
            let mut comment = Vec::new();
            if ply < self.opening.moves.len() {
                comment.push("book".to_owned());
            }
            if let Some(ms) = played.clock_ms {
                comment.push(Command::Clock(core::time::Duration::from_millis(ms)).to_string());
            }
            if let Some(eval) = played.eval {
                comment.push(Command::Eval(eval).to_string());
            }
            if !comment.is_empty() {
                tree.node_mut(id).comments.push(comment.join(" "));
            }
            parent = Some(id);
        }
        tree.to_export_string()
    }
}
