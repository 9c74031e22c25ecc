//! [`Arbiter`]: the state machine that consumes a game's events and decides as the Laws do.
//!
//! The arbiter keeps the [`Game`] (from the game crate: positions, repetitions, claims,
//! automatic endings), the [`Clock`], the touch-move state of the player having the move, the
//! pending draw offer, the illegal-move counts and the record. Each event is applied in order by
//! [`Arbiter::handle`]; [`Arbiter::verdict`] tells what was decided. [`replay`] does both for a
//! whole log.
//!
//! # How events are decided
//!
//! - **Moves** must be made by the player having the move (1.2; otherwise the event has no
//!   effect and is noted). A legal move that breaks touch-move is refused at once under
//!   [`TouchMove::Enforced`], or stands under [`TouchMove::OnClaim`] until the opponent claims
//!   it, which is possible until the opponent touches a piece (4.8); the offender must then play
//!   a move Article 4 allows. A move declines a draw offer made to the mover. After each move the
//!   game layer's automatic endings (5.1.1, 5.2.1, 5.2.2, 9.6) end the game, and the server rules
//!   add theirs.
//! - **Illegal moves** are completed by the clock press (7.5.1). Under
//!   [`IllegalMoves::Arbiter`] each one is penalised at once: it is counted, the position before
//!   it is reinstated (the press is undone, increment included), the opponent gets
//!   [`Rules::penalty_ms`], and the piece that moved must move (touch-move); the count reaching
//!   [`Rules::illegal_moves_to_lose`] loses the game, or draws it if the opponent cannot
//!   checkmate from the reinstated position (7.5.5). Under [`IllegalMoves::OnClaim`] the move is
//!   put on the board and stands unless the opponent claims it (or the arbiter rules) before
//!   completing their own next move (A.5.2); a move that cannot stand (it leaves the mover in
//!   check, or no single piece can be told to have made it) is dealt with at once. Under
//!   [`IllegalMoves::Reject`] illegal input is refused and nothing else happens. A pawn left
//!   unpromoted on the last rank becomes a queen (7.5.2), a press without a move (7.5.3) and a
//!   move made with two hands (7.5.4) are counted and penalised as illegal moves; these three
//!   are acted on at once under every rule set but `Reject`.
//! - **Clock**: the press completes a move, the increment is earned, the opponent's clock
//!   starts. With [`FlagPolicy::Immediate`] a flag falls at the deadline: whatever comes later is
//!   too late. With [`FlagPolicy::OnObservation`] a flag counts only when the arbiter observes it
//!   ([`EventKind::Flag`]) or the opponent claims it; what ended the game before stands (6.8).
//!   Then 6.9: a loss, or a draw if the opponent cannot checkmate by any series of legal moves
//!   (as far as [`dead::can_win`] proves; "unknown" counts as able). Both flags down: the first
//!   to fall loses, unless the clock does not show it in a standard or rapid game without
//!   increment, where Guidelines III.3.1 draw in the last period and play on before it (III.2.2
//!   excludes blitz and increments).
//! - **Draws**: offers follow 9.1 and the offer fields of [`Rules`] (a repeated offer after a
//!   decline is noted: 11.5); claims (9.2, 9.3) are checked by the game layer, and one with a
//!   written move is correct when the move or the position on the board grounds it (9.2.1.1 or
//!   9.2.1.2, 9.3.1 or 9.3.2). A correct claim draws; an incorrect
//!   one gives the opponent [`Rules::penalty_ms`] (9.5.3), stands as a draw offer (9.1.2.3), and
//!   the written move must then be played. Only the player having the move may claim, and not
//!   after touching a piece (9.4).
//! - **Resignation** loses, or draws if the opponent cannot checkmate (5.1.2).
//! - Events after the end of the game have no effect (noted).

use core::mem;

use caissa_board::{ByColor, Color, Role, Setup, Square};
use caissa_game::dead::{self, Winnability};
use caissa_game::{Article, Game, GameResult, Outcome, Reason};
use caissa_movegen::{CastlingMode, Move, Position, PositionError};
use caissa_notation::san::SanPlus;

use crate::MAX_TIME_MS;
use crate::articles;
use crate::clock::{Clock, TimeAward};
use crate::events::{ArbiterAction, ClaimKind, Event, EventKind, MoveText, Presses, Start};
use crate::illegal::{self, IllegalMove, Written};
use crate::offers::{Offered, Offers};
use crate::record::{Header, Record};
use crate::rules::{FlagPolicy, IllegalMoves, Rules, TouchMove};
use crate::touch::{Obligation, Touches};
use crate::verdict::{Decision, Note, Penalty, Ruling, Verdict};

/// The most notes an arbiter keeps (events without effect, such as the events after the end of
/// the game): a log of millions of them makes a verdict no larger; the rest are counted.
const MAX_NOTES: usize = 10_000;

mod draws;
mod flags;
mod moves;
mod rulings;

/// Half-moves without a capture or pawn move after which the server rule draws.
const FIFTY_MOVES: u32 = 100;

/// An event the arbiter cannot apply: the log itself is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EventError {
    /// The log does not begin with a start event.
    #[error("the game has not started: the first event must be start")]
    NotStarted,
    /// A second start event.
    #[error("the game has already started")]
    StartedTwice,
    /// An event earlier than the one before it.
    #[error("time went backwards: {t_ms} ms after {last_ms} ms")]
    TimeWentBackwards {
        /// The event's time.
        t_ms: u64,
        /// The previous event's time.
        last_ms: u64,
    },
    /// A time beyond [`MAX_TIME_MS`].
    #[error("{ms} ms is more than the limit of {MAX_TIME_MS} ms")]
    TimeTooLarge {
        /// The time given.
        ms: u64,
    },
    /// The start position is not a legal position.
    #[error(transparent)]
    Position(#[from] PositionError),
    /// A move in SAN that fits several legal moves: the log does not say which was made.
    #[error("the move {0} is ambiguous")]
    AmbiguousMove(MoveText),
    /// A start with Black's own time control but none for White.
    #[error("Black's time control is given without White's")]
    BlackTimeControlAlone,
}

/// An event of a log that could not be applied, with its index in the log (from 0).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("event {index}: {error}")]
pub struct ReplayError {
    /// The index of the event in the log, from 0.
    pub index: usize,
    /// What is wrong with it.
    pub error: EventError,
}

/// The last move made, open to claims until the opponent touches a piece (4.8) or completes a
/// move (A.5.2).
#[derive(Clone, Debug)]
struct LastMove {
    by: Color,
    mv: MoveText,
    /// The game before the move, when the move replaced the game (an illegal move that stood);
    /// otherwise the move is taken back with [`Game::undo`].
    game_before: Option<Game>,
    /// The clock before the move's press, once pressed.
    clock_before: Option<Clock>,
    touches_before: Touches,
    forced_before: Option<Obligation>,
    record_len: usize,
    /// The touch-move obligation the move broke (under [`TouchMove::OnClaim`]).
    breach: Option<Obligation>,
    /// The move was illegal and stands until claimed (A.5.2).
    illegal: Option<IllegalMove>,
}

/// A move made on the board whose clock press has not come yet (logs with separate presses).
#[derive(Clone, Copy, Debug)]
enum Unpressed {
    Legal { by: Color, two_hands: bool },
    Illegal { by: Color, illegal: IllegalMove },
    Promotion { by: Color, m: Move, mv: MoveText },
}

impl Unpressed {
    fn by(self) -> Color {
        match self {
            Unpressed::Legal { by, .. }
            | Unpressed::Illegal { by, .. }
            | Unpressed::Promotion { by, .. } => by,
        }
    }
}

/// The arbiter of one game: feed it events with [`Arbiter::handle`], read the result with
/// [`Arbiter::verdict`].
///
/// ```
/// use caissa_arbiter::{Arbiter, Bonus, Event, EventKind, Rules, Start, TimeControl};
/// use caissa_board::Color;
///
/// let start = Start {
///     time_control: Some(TimeControl::simple(180_000, Bonus::Fischer(2_000))),
///     rules: Rules::fide_blitz(),
///     ..Start::default()
/// };
/// let mut arbiter = Arbiter::new(&start, 0)?;
/// let mv = |by, text: &str| EventKind::Move { by, mv: text.parse().unwrap(), two_hands: false };
/// arbiter.handle(&Event::new(4_000, mv(Color::White, "e4")))?;
/// arbiter.handle(&Event::new(9_000, EventKind::Resign { by: Color::Black }))?;
/// let verdict = arbiter.verdict();
/// assert_eq!(verdict.outcome.unwrap().result.as_str(), "1-0");
/// assert_eq!(verdict.clock_ms.unwrap().white, 178_000);
/// # Ok::<(), caissa_arbiter::EventError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Arbiter {
    rules: Rules,
    presses: Presses,
    start: Position,
    names: [Option<String>; 2],
    game: Game,
    clock: Option<Clock>,
    touches: Touches,
    /// A choice imposed by a ruling: the written move after an incorrect claim (9.5.3), or the
    /// moves a claimed touch-move breach left.
    forced: Option<Obligation>,
    offers: Offers,
    illegal_count: ByColor<u32>,
    last: Option<LastMove>,
    unpressed: Option<Unpressed>,
    /// Who completed the last move, and when (for the timing of offers, 9.1.2.1).
    last_completed: Option<(Color, u64)>,
    record: Record,
    decisions: Vec<Decision>,
    penalties: Vec<Penalty>,
    notes: Vec<Note>,
    /// Notes past [`MAX_NOTES`], counted but not kept.
    notes_left_out: u64,
    outcome: Option<Outcome>,
    ended_at: Option<u64>,
    now: u64,
    /// The index of the event being handled.
    index: usize,
}

impl Arbiter {
    /// An arbiter for a game starting as `start` says at `t_ms` (the first player's clock
    /// starts then, 6.6). Presses are separate events only if `start.presses` says so.
    ///
    /// # Errors
    ///
    /// [`EventError::Position`] for an illegal start position, [`EventError::TimeTooLarge`] for
    /// a time or a time control beyond [`MAX_TIME_MS`], [`EventError::BlackTimeControlAlone`]
    /// for a start with [`Start::black_time_control`] and no [`Start::time_control`].
    pub fn new(start: &Start, t_ms: u64) -> Result<Arbiter, EventError> {
        check_time(t_ms)?;
        for control in start.time_control.iter().chain(&start.black_time_control) {
            for period in control.periods() {
                check_time(period.base_ms)?;
                check_time(period.bonus.millis())?;
            }
        }
        let mode = if start.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let setup = start.fen.map_or(Setup::standard(), |fen| fen.0);
        let position = Position::from_setup(setup, mode)?;
        let mut clock = match (&start.time_control, &start.black_time_control) {
            (None, None) => None,
            (Some(both), None) => Some(Clock::new(both.clone())),
            (Some(white), Some(black)) => Some(Clock::with_controls(ByColor {
                white: white.clone(),
                black: black.clone(),
            })),
            (None, Some(_)) => return Err(EventError::BlackTimeControlAlone),
        };
        if let Some(clock) = &mut clock {
            clock
                .start(position.turn(), t_ms)
                .map_err(|e| EventError::TimeWentBackwards {
                    t_ms: e.t_ms,
                    last_ms: e.last_ms,
                })?;
        }
        let mut arbiter = Arbiter {
            rules: start.rules.clone(),
            presses: start.presses.unwrap_or(Presses::WithMove),
            start: position,
            names: [start.white.clone(), start.black.clone()],
            game: Game::new(position),
            clock,
            touches: Touches::default(),
            forced: None,
            offers: Offers::default(),
            illegal_count: ByColor::default(),
            last: None,
            unpressed: None,
            last_completed: None,
            record: Record::default(),
            decisions: Vec::new(),
            penalties: Vec::new(),
            notes: Vec::new(),
            notes_left_out: 0,
            outcome: None,
            ended_at: None,
            now: t_ms,
            index: 0,
        };
        // A start position may already be over (checkmate, stalemate, dead position).
        if let Some(outcome) = arbiter.game.outcome() {
            arbiter.end(outcome, t_ms, None);
        }
        Ok(arbiter)
    }

    /// The rules applied.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The game as it stands.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The clock, if the game has one.
    #[must_use]
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// How the game ended, if it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The moves the player having the move must choose from under Article 4 (or a ruling), or
    /// `None` for any legal move.
    #[must_use]
    pub fn obligation(&self) -> Option<Obligation> {
        self.forced
            .clone()
            .or_else(|| self.touches.obligation(self.game.position()))
    }

    /// How many decisions, penalties and notes the arbiter has recorded: it changes when an
    /// event leaves something in the verdict.
    #[cfg(feature = "serde")]
    pub(crate) fn recorded(&self) -> usize {
        self.decisions.len() + self.penalties.len() + self.notes.len()
    }

    /// Everything decided so far; the clocks are read at the end of the game, or at the last
    /// event.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        let t = self.ended_at.unwrap_or(self.now);
        let header = Header {
            start: &self.start,
            time_controls: self.clock.as_ref().map(Clock::controls),
            names: [self.names[0].as_deref(), self.names[1].as_deref()],
            outcome: self.outcome,
            unpressed_clock_ms: self
                .clock
                .as_ref()
                .zip(self.last.as_ref())
                .map(|(clock, last)| clock.remaining(last.by, t)),
        };
        Verdict {
            outcome: self.outcome,
            ended_at_ms: self.ended_at,
            decisions: self.decisions.clone(),
            penalties: self.penalties.clone(),
            notes: self.verdict_notes(),
            illegal_moves: self.illegal_count,
            clock_ms: self
                .clock
                .as_ref()
                .map(|clock| ByColor::new_with(|c| clock.remaining(c, t))),
            pgn: self.record.to_pgn(&header),
        }
    }

    /// Applies one event, and returns the decisions it led to (empty for an event that only
    /// changes the state, such as a legal move, or that is only noted; a refused illegal move,
    /// a penalty or the end of the game is among them).
    ///
    /// ```
    /// use caissa_arbiter::{Arbiter, Color, Event, EventKind, Rules, Ruling, Start};
    ///
    /// let start = Start { rules: Rules::online(), ..Start::default() };
    /// let mut arbiter = Arbiter::new(&start, 0)?;
    /// let mv = |text: &str| EventKind::Move { by: Color::White, mv: text.parse().unwrap(), two_hands: false };
    /// assert!(arbiter.handle(&Event::new(1_000, mv("e5")))?.iter().any(|d| {
    ///     matches!(d.ruling, Ruling::IllegalMoveRefused { .. })
    /// }));
    /// assert!(arbiter.handle(&Event::new(2_000, mv("e4")))?.is_empty());
    /// # Ok::<(), caissa_arbiter::EventError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`EventError`] when the log is wrong: a second start, a time earlier than the last
    /// event's or beyond [`MAX_TIME_MS`], an ambiguous SAN move. The arbiter is unchanged then.
    pub fn handle(&mut self, event: &Event) -> Result<&[Decision], EventError> {
        let t = event.t_ms;
        self.check_now(t)?;
        if matches!(event.kind, EventKind::Start(_)) {
            return Err(EventError::StartedTwice);
        }
        self.check_ambiguity(&event.kind)?;
        let first = self.decisions.len();
        self.index += 1;
        if self.outcome.is_none() {
            self.check_flag_deadline(t);
        }
        self.now = t;
        if self.outcome.is_some() {
            self.note("after the end of the game: no effect");
        } else {
            self.apply(event);
        }
        Ok(&self.decisions[first..])
    }

    /// Time passes until `t_ms` without an event: under [`FlagPolicy::Immediate`] a flag whose
    /// time has run out falls (the game ends on time), and nothing is noted otherwise. Under
    /// [`FlagPolicy::OnObservation`] a flag counts only when observed, so a tick decides
    /// nothing. Returns the decisions made; they name the last event handled.
    ///
    /// ```
    /// use caissa_arbiter::{Arbiter, Bonus, Color, Event, EventKind, Rules, Start, TimeControl};
    ///
    /// let start = Start {
    ///     time_control: Some(TimeControl::simple(60_000, Bonus::None)),
    ///     rules: Rules::online(),
    ///     ..Start::default()
    /// };
    /// let mut arbiter = Arbiter::new(&start, 0)?;
    /// assert_eq!(arbiter.next_flag(), Some((Color::White, 60_000)));
    /// assert!(arbiter.tick(59_999)?.is_empty());
    /// let decided = arbiter.tick(61_000)?;
    /// assert_eq!(decided.len(), 1);
    /// let verdict = arbiter.verdict();
    /// assert_eq!(verdict.outcome.map(|o| o.result.as_str()), Some("0-1"));
    /// assert_eq!(verdict.ended_at_ms, Some(60_000));
    /// assert!(verdict.notes.is_empty());
    /// # Ok::<(), caissa_arbiter::EventError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`EventError::TimeWentBackwards`] or [`EventError::TimeTooLarge`], as for an event.
    pub fn tick(&mut self, t_ms: u64) -> Result<&[Decision], EventError> {
        self.check_now(t_ms)?;
        let first = self.decisions.len();
        if self.outcome.is_none() {
            self.check_flag_deadline(t_ms);
        }
        self.now = t_ms;
        Ok(&self.decisions[first..])
    }

    /// When the next flag falls if nobody presses first: the player whose clock runs and the
    /// time; `None` without a clock running or once the game is over. (Under
    /// [`FlagPolicy::OnObservation`] it counts only once observed.)
    #[must_use]
    pub fn next_flag(&self) -> Option<(Color, u64)> {
        if self.outcome.is_some() {
            return None;
        }
        self.clock.as_ref().and_then(Clock::flag_deadline)
    }

    /// Refuses a time beyond [`MAX_TIME_MS`] or before the last event's.
    fn check_now(&self, t: u64) -> Result<(), EventError> {
        check_time(t)?;
        if t < self.now {
            return Err(EventError::TimeWentBackwards {
                t_ms: t,
                last_ms: self.now,
            });
        }
        Ok(())
    }

    /// Applies an event to a game that goes on.
    fn apply(&mut self, event: &Event) {
        let t = event.t_ms;
        match &event.kind {
            EventKind::Start(_) => {}
            &EventKind::Touch { by, square } => self.touch(by, square),
            &EventKind::Adjust { by, square } => self.adjust(by, square),
            &EventKind::Release { by, from, to } => self.release(by, from, to),
            &EventKind::Promote { by, role, square } => self.promote(by, role, square),
            &EventKind::Move { by, mv, two_hands } => self.make_move(by, mv, two_hands),
            &EventKind::Press { by } => self.press(by),
            &EventKind::OfferDraw { by } => self.offer(by),
            &EventKind::AcceptDraw { by } => self.accept(by),
            &EventKind::DeclineDraw { by } => {
                if self.offers.decline(by) {
                    self.decide(Some(by), Ruling::DrawDeclined, articles::OFFER);
                } else {
                    self.note(format!("{} declines, but no offer is pending", by.name()));
                }
            }
            &EventKind::WithdrawDraw { by } => {
                if self.offers.pending() == Some(by) {
                    self.decide(Some(by), Ruling::OfferStands, articles::OFFER);
                } else {
                    self.note(format!("{} withdraws, but has no offer pending", by.name()));
                }
            }
            EventKind::Claim { by, claim } => self.claim(*by, claim),
            &EventKind::Resign { by } => {
                let outcome =
                    self.unless_unwinnable(!by, Reason::Resignation, Article::RESIGNATION);
                self.end(outcome, t, Some(by));
            }
            &EventKind::Flag { by } => self.flag_observed(by, None),
            EventKind::Arbiter(action) => self.arbiter_action(action),
        }
    }

    /// Refuses, before anything changes, a SAN move or written claim move that fits several
    /// legal moves of the position it is meant for.
    fn check_ambiguity(&self, kind: &EventKind) -> Result<(), EventError> {
        let text = match kind {
            EventKind::Move { mv, .. } => *mv,
            EventKind::Claim {
                claim: ClaimKind::Threefold(Some(mv)) | ClaimKind::Fifty(Some(mv)),
                ..
            } => *mv,
            _ => return Ok(()),
        };
        if self.outcome.is_none() && illegal::read(self.game.position(), text) == Written::Ambiguous
        {
            return Err(EventError::AmbiguousMove(text));
        }
        Ok(())
    }

    // ----- bookkeeping -------------------------------------------------------------------

    fn decide(&mut self, player: Option<Color>, ruling: Ruling, article: Article) {
        self.decisions.push(Decision {
            event: self.index,
            t_ms: self.now,
            player,
            ruling,
            article,
        });
    }

    /// The notes kept, and one that counts those left out past [`MAX_NOTES`], if any.
    fn verdict_notes(&self) -> Vec<Note> {
        let mut notes = self.notes.clone();
        if self.notes_left_out > 0 {
            notes.push(Note {
                event: self.index,
                t_ms: self.now,
                text: format!(
                    "{} more notes left out (at most {MAX_NOTES} are kept)",
                    self.notes_left_out
                ),
            });
        }
        notes
    }

    fn note(&mut self, text: impl Into<String>) {
        if self.notes.len() >= MAX_NOTES {
            self.notes_left_out += 1;
            return;
        }
        self.notes.push(Note {
            event: self.index,
            t_ms: self.now,
            text: text.into(),
        });
    }

    fn turn(&self) -> Color {
        self.game.position().turn()
    }

    /// A win for `winner` for `reason`, or a draw if `winner` cannot checkmate in the current
    /// position (5.1.2, 6.9, 7.5.5).
    fn unless_unwinnable(&self, winner: Color, reason: Reason, article: Article) -> Outcome {
        let result = match dead::can_win(self.game.position(), winner) {
            Winnability::Unwinnable => GameResult::Draw,
            Winnability::Winnable(_) | Winnability::Unknown => GameResult::win(winner),
        };
        Outcome {
            result,
            reason,
            article,
        }
    }

    /// Ends the game at `t`; `player` is the one whose act or failure ended it, if one.
    fn end(&mut self, outcome: Outcome, t: u64, player: Option<Color>) {
        let t = t.max(self.now);
        if let Some(clock) = &mut self.clock {
            if self.record.last_clock_missing()
                && let Some(last) = &self.last
            {
                let ms = clock.remaining(last.by, t);
                self.record.set_clock(ms);
            }
            // The clock's own time is never later than `t`.
            let _ = clock.stop(t);
        }
        self.outcome = Some(outcome);
        self.ended_at = Some(t);
        self.offers.clear();
        self.unpressed = None;
        self.decide(player, Ruling::GameOver(outcome), outcome.article);
    }

    /// Time to `offender`'s opponent.
    fn penalise(&mut self, offender: Color, article: Article) {
        let ms = self.rules.penalty_ms;
        if ms == 0 {
            return;
        }
        let Some(clock) = &mut self.clock else {
            return;
        };
        let refused = match clock.add_time(!offender, ms) {
            TimeAward::Added => None,
            TimeAward::FlagFell => Some("the flag has fallen".to_owned()),
            TimeAward::PastLimit => {
                Some(format!("the clock would show more than {MAX_TIME_MS} ms"))
            }
        };
        if let Some(why) = refused {
            self.note(format!("no penalty time for {}: {why}", (!offender).name()));
            return;
        }
        self.penalties.push(Penalty {
            event: self.index,
            t_ms: self.now,
            offender,
            ms,
            article,
        });
    }

    /// Counts a penalised illegal move of `offender` and records `ruling(count)`; ends the game
    /// if the count loses (7.5.5), else gives the opponent the penalty time. Returns whether
    /// the game goes on.
    fn count_illegal(
        &mut self,
        offender: Color,
        ruling: impl FnOnce(u32) -> Ruling,
        article: Article,
    ) -> bool {
        let count = self.illegal_count[offender].saturating_add(1);
        self.illegal_count[offender] = count;
        self.decide(Some(offender), ruling(count), article);
        if self
            .rules
            .illegal_moves_to_lose
            .is_some_and(|limit| count >= limit)
        {
            let outcome =
                self.unless_unwinnable(!offender, Reason::IllegalMoves, Article::ILLEGAL_MOVES);
            self.end(outcome, self.now, Some(offender));
            false
        } else {
            self.penalise(offender, articles::ILLEGAL_PENALTY);
            true
        }
    }
}

fn check_time(ms: u64) -> Result<(), EventError> {
    if ms > MAX_TIME_MS {
        Err(EventError::TimeTooLarge { ms })
    } else {
        Ok(())
    }
}

/// Replays a whole event log and returns the verdict.
///
/// The first event must be [`EventKind::Start`]. When its [`Start::presses`] is `None`, presses
/// are taken to be separate events if the log has any [`EventKind::Press`]. The same log always
/// gives the same verdict, and no log makes it panic.
///
/// # Errors
///
/// [`ReplayError`] with the index of the first event that cannot be applied (see
/// [`EventError`]).
pub fn replay(events: &[Event]) -> Result<Verdict, ReplayError> {
    let Some((first, rest)) = events.split_first() else {
        return Err(ReplayError {
            index: 0,
            error: EventError::NotStarted,
        });
    };
    let EventKind::Start(start) = &first.kind else {
        return Err(ReplayError {
            index: 0,
            error: EventError::NotStarted,
        });
    };
    let mut start = start.clone();
    if start.presses.is_none() {
        let separate = rest
            .iter()
            .any(|e| matches!(e.kind, EventKind::Press { .. }));
        start.presses = Some(if separate {
            Presses::Separate
        } else {
            Presses::WithMove
        });
    }
    let mut arbiter =
        Arbiter::new(&start, first.t_ms).map_err(|error| ReplayError { index: 0, error })?;
    for (i, event) in rest.iter().enumerate() {
        arbiter.handle(event).map_err(|error| ReplayError {
            index: i + 1,
            error,
        })?;
    }
    Ok(arbiter.verdict())
}
