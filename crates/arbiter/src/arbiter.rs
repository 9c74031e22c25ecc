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
//!   to fall loses when the clock shows it; otherwise a draw in the last period and play on
//!   before it (III.3.1).
//! - **Draws**: offers follow 9.1 and the offer fields of [`Rules`]; claims (9.2, 9.3) are checked by
//!   the game layer, with the written move if one is given. A correct claim draws; an incorrect
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
use crate::clock::Clock;
use crate::events::{ArbiterAction, ClaimKind, Event, EventKind, MoveText, Presses, Start};
use crate::illegal::{self, IllegalMove, Written};
use crate::offers::{Offered, Offers};
use crate::record::{Header, Record};
use crate::rules::{FlagPolicy, IllegalMoves, Rules, TouchMove};
use crate::touch::{Obligation, Touches};
use crate::verdict::{Decision, Note, Penalty, Ruling, Verdict};

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
    chess960: bool,
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
    /// a time or a time control beyond [`MAX_TIME_MS`].
    pub fn new(start: &Start, t_ms: u64) -> Result<Arbiter, EventError> {
        check_time(t_ms)?;
        if let Some(control) = &start.time_control {
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
        let mut clock = start.time_control.clone().map(Clock::new);
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
            chess960: start.chess960,
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

    /// Everything decided so far; the clocks are read at the end of the game, or at the last
    /// event.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        let t = self.ended_at.unwrap_or(self.now);
        let header = Header {
            start: &self.start,
            chess960: self.chess960,
            time_control: self.clock.as_ref().map(Clock::control),
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
            notes: self.notes.clone(),
            illegal_moves: self.illegal_count,
            clock_ms: self
                .clock
                .as_ref()
                .map(|clock| ByColor::new_with(|c| clock.remaining(c, t))),
            pgn: self.record.to_pgn(&header),
        }
    }

    /// Applies one event.
    ///
    /// # Errors
    ///
    /// [`EventError`] when the log is wrong: a second start, a time earlier than the last
    /// event's or beyond [`MAX_TIME_MS`], an ambiguous SAN move. The arbiter is unchanged then.
    pub fn handle(&mut self, event: &Event) -> Result<(), EventError> {
        let t = event.t_ms;
        check_time(t)?;
        if t < self.now {
            return Err(EventError::TimeWentBackwards {
                t_ms: t,
                last_ms: self.now,
            });
        }
        if matches!(event.kind, EventKind::Start(_)) {
            return Err(EventError::StartedTwice);
        }
        self.check_ambiguity(&event.kind)?;
        self.index += 1;
        if self.outcome.is_none() {
            self.check_flag_deadline(t);
        }
        self.now = t;
        if self.outcome.is_some() {
            self.note("after the end of the game: no effect");
            return Ok(());
        }
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
        Ok(())
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

    fn note(&mut self, text: impl Into<String>) {
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
        clock.add_time(!offender, ms);
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

    // ----- touch-move ----------------------------------------------------------------------

    fn touch(&mut self, by: Color, square: Square) {
        if by != self.turn() {
            self.note(format!(
                "{} touches {square} without having the move: binds nothing",
                by.name()
            ));
            return;
        }
        let Some(piece) = self.game.position().board().piece_at(square) else {
            self.note(format!("{} touches the empty square {square}", by.name()));
            return;
        };
        self.touches.touch(square, piece);
        self.declined_by_touch(by);
    }

    fn declined_by_touch(&mut self, by: Color) {
        if self.offers.decline(by) {
            self.decide(Some(by), Ruling::DrawDeclined, articles::OFFER);
        }
    }

    fn adjust(&mut self, by: Color, square: Square) {
        if by == self.turn() {
            self.note(format!("{} adjusts {square} (4.2.1)", by.name()));
        } else {
            self.decide(Some(by), Ruling::IrregularAdjustment, articles::ADJUST);
        }
    }

    fn release(&mut self, by: Color, from: Option<Square>, to: Square) {
        if by != self.turn() {
            self.note(format!(
                "{} releases a piece without having the move",
                by.name()
            ));
            return;
        }
        let pos = *self.game.position();
        let Some(from) = from.or_else(|| self.touches.last_own(by)) else {
            self.note(format!("{} releases a piece never touched", by.name()));
            return;
        };
        match pos.board().piece_at(from) {
            Some(piece) if piece.color == by => {
                self.touches.touch(from, piece);
                if from != to {
                    self.touches.release(from, to, &pos);
                }
                self.declined_by_touch(by);
            }
            _ => self.note(format!(
                "{} releases from {from}: no own piece there",
                by.name()
            )),
        }
    }

    fn promote(&mut self, by: Color, role: Role, square: Square) {
        if by != self.turn() {
            self.note(format!("{} promotes without having the move", by.name()));
            return;
        }
        self.touches.promote(square, role);
        self.declined_by_touch(by);
    }

    // ----- moves and presses ---------------------------------------------------------------

    fn make_move(&mut self, by: Color, mv: MoveText, two_hands: bool) {
        if by != self.turn() {
            self.note(format!(
                "{} plays {mv} without having the move: no effect",
                by.name()
            ));
            return;
        }
        // 6.2.1: the opponent's move, made but not pressed, is completed by this one.
        if let Some(Unpressed::Legal { by: other, .. }) = self.unpressed
            && other == !by
        {
            self.press_move(!by, false);
        }
        match illegal::read(self.game.position(), mv) {
            Written::Ambiguous => {}
            Written::Legal(m) => {
                // A ruling's choice is enforced whatever the touch-move policy.
                if let Some(forced) = &self.forced
                    && !forced.allows(m)
                {
                    let (allowed, article) = (self.sans(&forced.moves), forced.article);
                    self.decide(Some(by), Ruling::TouchMove { mv, allowed }, article);
                    return;
                }
                let mut breach = None;
                if self.rules.touch_move != TouchMove::Off
                    && let Some(obligation) = self.touches.obligation(self.game.position())
                    && !obligation.allows(m)
                {
                    if self.rules.touch_move == TouchMove::Enforced {
                        let allowed = self.sans(&obligation.moves);
                        self.decide(
                            Some(by),
                            Ruling::TouchMove { mv, allowed },
                            obligation.article,
                        );
                        return;
                    }
                    breach = Some(obligation);
                }
                let two_hands = two_hands
                    && self.rules.illegal_moves != IllegalMoves::Reject
                    && (m.is_castle()
                        || m.promotion_role().is_some()
                        || self.game.position().captured_role(m).is_some());
                if self.play_legal(by, m, mv, breach) {
                    match self.presses {
                        Presses::WithMove => self.press_move(by, two_hands),
                        Presses::Separate => {
                            self.unpressed = Some(Unpressed::Legal { by, two_hands });
                        }
                    }
                }
            }
            Written::UnfinishedPromotion(m) => {
                if self.rules.illegal_moves == IllegalMoves::Reject {
                    self.decide(
                        Some(by),
                        Ruling::IllegalMoveRefused { mv },
                        articles::LEGAL_MOVE,
                    );
                } else if self.presses == Presses::Separate {
                    self.unpressed = Some(Unpressed::Promotion { by, m, mv });
                } else {
                    self.unfinished_promotion(by, m, mv);
                }
            }
            Written::Illegal(illegal) => {
                if self.rules.illegal_moves == IllegalMoves::Reject {
                    self.decide(
                        Some(by),
                        Ruling::IllegalMoveRefused { mv },
                        articles::LEGAL_MOVE,
                    );
                } else if self.presses == Presses::Separate {
                    // A move corrected before the press: the piece moved stays touched (4.3).
                    if let Some(Unpressed::Illegal {
                        illegal: earlier, ..
                    }) = self.unpressed
                    {
                        for (sq, piece) in earlier.touched(self.game.position()) {
                            self.touches.touch(sq, piece);
                        }
                    }
                    self.unpressed = Some(Unpressed::Illegal { by, illegal });
                } else {
                    self.complete_illegal(by, illegal);
                }
            }
        }
    }

    /// The SAN of legal moves of the current position.
    fn sans(&self, moves: &[Move]) -> Vec<String> {
        let pos = self.game.position();
        moves
            .iter()
            .map(|&m| SanPlus::from_move(pos, m).to_string())
            .collect()
    }

    /// An illegal move of `by`'s opponent that nobody claimed stands once `by` moves (A.5.2).
    fn close_illegal_claims(&mut self, by: Color) {
        if let Some(last) = &mut self.last
            && last.by == !by
            && last.illegal.take().is_some()
        {
            let mv = last.mv;
            self.decide(
                Some(!by),
                Ruling::IllegalMoveStands { mv },
                articles::ILLEGAL_STANDS,
            );
        }
    }

    /// Plays a legal move made by `by` (not yet pressed). Returns whether the game goes on.
    fn play_legal(&mut self, by: Color, m: Move, mv: MoveText, breach: Option<Obligation>) -> bool {
        self.close_illegal_claims(by);
        let san = SanPlus::from_move(self.game.position(), m);
        if self.game.play(m).is_err() {
            self.note(format!("{mv} could not be played"));
            return false;
        }
        self.last = Some(LastMove {
            by,
            mv,
            game_before: None,
            clock_before: None,
            touches_before: mem::take(&mut self.touches),
            forced_before: self.forced.take(),
            record_len: self.record.len(),
            breach,
            illegal: None,
        });
        self.record.push(san, None);
        if self.offers.decline(by) {
            self.decide(Some(by), Ruling::DrawDeclined, articles::OFFER);
        }
        if let Some(outcome) = self.game.outcome() {
            // 6.2.1: a move that ends the game is completed without the press.
            self.last_completed = Some((by, self.now));
            self.end(outcome, self.now, None);
            return false;
        }
        let pos = self.game.position();
        let server_draw = if self.rules.auto_draw_fifty && pos.halfmoves() >= FIFTY_MOVES {
            Some(Outcome {
                result: GameResult::Draw,
                reason: Reason::FiftyMoves,
                article: Article::FIFTY_MOVES_ON_BOARD,
            })
        } else if self.rules.auto_draw_threefold && self.game.repetitions() >= 3 {
            Some(Outcome {
                result: GameResult::Draw,
                reason: Reason::ThreefoldRepetition,
                article: Article::THREEFOLD_ON_BOARD,
            })
        } else {
            None
        };
        if let Some(outcome) = server_draw {
            self.end(outcome, self.now, None);
            return false;
        }
        true
    }

    /// Presses `by`'s clock for the move just made: the move is completed. Penalises a move
    /// made with two hands (7.5.4) once pressed.
    fn press_move(&mut self, by: Color, two_hands: bool) {
        self.unpressed = None;
        self.last_completed = Some((by, self.now));
        let t = self.now;
        if let Some(clock) = &mut self.clock {
            let before = clock.clone();
            match clock.press(t) {
                Ok(press) => {
                    if let Some(at) = press.flag_fell_at {
                        self.notes.push(Note {
                            event: self.index,
                            t_ms: t,
                            text: format!(
                                "{}'s flag had fallen at {at} ms, not yet observed",
                                by.name()
                            ),
                        });
                    }
                }
                Err(_) => *clock = before.clone(),
            }
            let ms = clock.remaining(by, t);
            self.record.set_clock(ms);
            if let Some(last) = &mut self.last
                && last.by == by
            {
                last.clock_before = Some(before);
            }
        }
        if two_hands && let Some(last) = &self.last {
            let mv = last.mv;
            self.count_illegal(
                by,
                |count| Ruling::TwoHands { mv, count },
                articles::TWO_HANDS,
            );
        }
    }

    fn press(&mut self, by: Color) {
        match self.unpressed {
            Some(unpressed) if unpressed.by() == by => match unpressed {
                Unpressed::Legal { two_hands, .. } => self.press_move(by, two_hands),
                Unpressed::Illegal { illegal, .. } => {
                    self.unpressed = None;
                    self.complete_illegal(by, illegal);
                }
                Unpressed::Promotion { m, mv, .. } => {
                    self.unpressed = None;
                    self.unfinished_promotion(by, m, mv);
                }
            },
            _ => {
                let running = self.clock.as_ref().and_then(Clock::running);
                if running == Some(by) && self.rules.illegal_moves != IllegalMoves::Reject {
                    // 7.5.3: the press is undone; the player's clock goes on running.
                    self.count_illegal(
                        by,
                        |count| Ruling::PressWithoutMove { count },
                        articles::PRESS_WITHOUT_MOVE,
                    );
                } else {
                    self.note(format!(
                        "{} presses the clock, which is not running for them: no effect",
                        by.name()
                    ));
                }
            }
        }
    }

    /// 7.5.2: the pawn becomes a queen; the move counts as illegal.
    fn unfinished_promotion(&mut self, by: Color, m: Move, mv: MoveText) {
        if self.count_illegal(
            by,
            |count| Ruling::UnfinishedPromotion { mv, count },
            articles::UNFINISHED_PROMOTION,
        ) && self.play_legal(by, m, mv, None)
        {
            self.press_move(by, false);
        }
    }

    /// An illegal move of `by` completed by the press.
    fn complete_illegal(&mut self, by: Color, illegal: IllegalMove) {
        self.close_illegal_claims(by);
        if self.rules.illegal_moves == IllegalMoves::OnClaim
            && let Some((after, san)) = illegal.place(self.game.position())
        {
            // A.5.2: it stands unless claimed before the opponent's next move.
            let game_before = mem::replace(&mut self.game, Game::new(after));
            self.last = Some(LastMove {
                by,
                mv: illegal.text,
                game_before: Some(game_before),
                clock_before: None,
                touches_before: mem::take(&mut self.touches),
                forced_before: self.forced.take(),
                record_len: self.record.len(),
                breach: None,
                illegal: Some(illegal),
            });
            self.record.push(san, Some("illegal move (A.5.2)"));
            if self.offers.decline(by) {
                self.decide(Some(by), Ruling::DrawDeclined, articles::OFFER);
            }
            self.press_move(by, false);
            return;
        }
        self.penalise_illegal(by, illegal);
    }

    /// 7.5.1 and 7.5.5 for an illegal move of `offender`, the position before it being on the
    /// board and the clock as before its press.
    fn penalise_illegal(&mut self, offender: Color, illegal: IllegalMove) {
        let mv = illegal.text;
        if self.count_illegal(
            offender,
            |count| Ruling::IllegalMove { mv, count },
            articles::ILLEGAL_PENALTY,
        ) {
            for (sq, piece) in illegal.touched(self.game.position()) {
                self.touches.touch(sq, piece);
            }
        }
    }

    /// Takes back the last move (a claimed illegal move or touch-move breach).
    fn take_back(&mut self, last: LastMove) {
        match last.game_before {
            Some(game) => self.game = game,
            None => {
                self.game.undo();
            }
        }
        self.record.truncate(last.record_len);
        if let Some(clock) = last.clock_before {
            self.clock = Some(clock);
        }
        self.touches = last.touches_before;
        self.forced = last.forced_before;
        self.unpressed = None;
    }

    // ----- draws -----------------------------------------------------------------------------

    /// Whether regulations allow offers and agreement now (9.1.1); the reason if not.
    fn offers_forbidden(&self) -> Option<&'static str> {
        match self.rules.offers_from_move {
            None => Some("the regulations forbid draw offers (9.1.1)"),
            Some(n) if self.game.position().fullmoves() < n => {
                Some("the regulations forbid draw offers before this move (9.1.1)")
            }
            Some(_) => None,
        }
    }

    fn offer(&mut self, by: Color) {
        if let Some(why) = self.offers_forbidden() {
            self.decide(
                Some(by),
                Ruling::DrawOfferRefused { why },
                articles::OFFER_RESTRICTED,
            );
            return;
        }
        match self.offers.offer(by, self.rules.no_repeat_offer) {
            Offered::Pending => {
                let proper_time = match self.unpressed {
                    Some(Unpressed::Legal { by: mover, .. }) => mover == by,
                    _ => self.last_completed == Some((by, self.now)),
                };
                self.decide(
                    Some(by),
                    Ruling::DrawOffered { proper_time },
                    articles::OFFER,
                );
            }
            Offered::AlreadyPending => {
                self.note(format!("{}'s offer is already pending", by.name()));
            }
            Offered::Accepts => self.accept(by),
            Offered::NotAgain => self.decide(
                Some(by),
                Ruling::DrawOfferRefused {
                    why: "the last offer was declined; no new offer until the opponent offers",
                },
                articles::DISTRACTION,
            ),
        }
    }

    fn accept(&mut self, by: Color) {
        let refused = |why| Ruling::AgreementRefused { why };
        if !self.offers.pending_to(by) {
            self.decide(
                Some(by),
                refused("no draw offer is pending"),
                articles::OFFER,
            );
        } else if self.record.len() < 2 {
            self.decide(
                Some(by),
                refused("both players must have made a move"),
                articles::AGREEMENT,
            );
        } else if let Some(why) = self.offers_forbidden() {
            self.decide(Some(by), refused(why), articles::OFFER_RESTRICTED);
        } else {
            self.end(Outcome::draw(Reason::Agreement), self.now, None);
        }
    }

    fn claim(&mut self, by: Color, claim: &ClaimKind) {
        match claim {
            ClaimKind::Threefold(written) | ClaimKind::Fifty(written) => {
                self.claim_draw(by, claim, *written);
            }
            ClaimKind::TouchMove => self.claim_touch_move(by),
            ClaimKind::Flag => self.flag_observed(!by, Some(by)),
            ClaimKind::IllegalMove => self.claim_illegal(!by),
        }
    }

    fn claim_draw(&mut self, by: Color, claim: &ClaimKind, written: Option<MoveText>) {
        let name = claim.name();
        if by != self.turn() {
            // 9.2, 9.3: only the player having the move may claim.
            self.incorrect_claim(by, name, None);
            return;
        }
        if self.touches.any() {
            self.decide(
                Some(by),
                Ruling::ClaimRefused {
                    claim: name,
                    why: "the claimant has touched a piece on this move",
                },
                articles::CLAIM_AFTER_TOUCH,
            );
            return;
        }
        let pos = *self.game.position();
        let (claims, intended) = match written.map(|text| illegal::read(&pos, text)) {
            None => (Some(self.game.claims()), None),
            Some(Written::Legal(m) | Written::UnfinishedPromotion(m)) => {
                (self.game.claims_with(m).ok(), Some(m))
            }
            Some(Written::Illegal(illegal)) => {
                // The written move is illegal: another move of that piece (Article 4).
                for (sq, piece) in illegal.touched(&pos) {
                    self.touches.touch(sq, piece);
                }
                (None, None)
            }
            Some(Written::Ambiguous) => (None, None),
        };
        let correct = claims.and_then(|claims| match claim {
            ClaimKind::Threefold(_) => claims.threefold,
            _ => claims.fifty_moves,
        });
        match correct {
            Some(correct) => self.end(correct.outcome(), self.now, Some(by)),
            None => self.incorrect_claim(by, name, intended),
        }
    }

    /// 9.5.3 and 9.1.2.3.
    fn incorrect_claim(&mut self, by: Color, claim: &'static str, intended: Option<Move>) {
        let must_play = intended.map(|m| self.sans(&[m]).concat());
        self.decide(
            Some(by),
            Ruling::ClaimIncorrect { claim, must_play },
            articles::INCORRECT_CLAIM,
        );
        self.penalise(by, articles::INCORRECT_CLAIM);
        if let Some(m) = intended {
            self.forced = Obligation::of(vec![m], articles::INCORRECT_CLAIM);
        }
        if self.offers_forbidden().is_none() && self.offers.offer(by, false) == Offered::Accepts {
            self.accept(by);
        }
    }

    fn claim_touch_move(&mut self, by: Color) {
        let refuse = |why| Ruling::ClaimRefused {
            claim: "touch_move",
            why,
        };
        let open = self
            .last
            .as_ref()
            .is_some_and(|last| last.by == !by && last.breach.is_some() && by == self.turn());
        if !open {
            self.decide(
                Some(by),
                refuse("the opponent's last move kept to touch-move"),
                articles::TOUCH_CLAIM_LOST,
            );
        } else if self.touches.any() {
            self.decide(
                Some(by),
                refuse("the claimant has touched a piece since"),
                articles::TOUCH_CLAIM_LOST,
            );
        } else if let Some(mut last) = self.last.take() {
            let breach = last.breach.take();
            let mv = last.mv;
            self.take_back(last);
            if let Some(obligation) = breach {
                let allowed = self.sans(&obligation.moves);
                self.decide(
                    Some(!by),
                    Ruling::TouchMove { mv, allowed },
                    obligation.article,
                );
                self.forced = Some(obligation);
            }
        }
    }

    /// `offender`'s last move is claimed (or seen by the arbiter) to be illegal.
    fn claim_illegal(&mut self, offender: Color) {
        let open = self
            .last
            .as_ref()
            .is_some_and(|last| last.by == offender && last.illegal.is_some());
        match self.last.take() {
            Some(mut last) if open => {
                let illegal = last.illegal.take();
                self.take_back(last);
                if let Some(illegal) = illegal {
                    self.penalise_illegal(offender, illegal);
                }
            }
            last => {
                self.last = last;
                self.decide(
                    Some(!offender),
                    Ruling::ClaimRefused {
                        claim: "illegal_move",
                        why: "no illegal move of the opponent's can be claimed now",
                    },
                    articles::ILLEGAL_REINSTATED,
                );
            }
        }
    }

    // ----- flags -------------------------------------------------------------------------------

    /// [`FlagPolicy::Immediate`]: the running clock's flag falls at its deadline.
    fn check_flag_deadline(&mut self, t: u64) {
        if self.rules.flag_policy != FlagPolicy::Immediate {
            return;
        }
        if let Some((color, at)) = self.clock.as_ref().and_then(Clock::flag_deadline)
            && at <= t
        {
            let at = at.max(self.now);
            self.now = at;
            self.flag_falls(color);
        }
    }

    /// `color`'s flag is observed (or claimed by `claimant`).
    fn flag_observed(&mut self, color: Color, claimant: Option<Color>) {
        let fallen = self
            .clock
            .as_ref()
            .is_some_and(|clock| clock.has_flag_fallen(color, self.now));
        if fallen {
            self.flag_falls(color);
        } else {
            self.decide(
                Some(claimant.unwrap_or(color)),
                Ruling::FlagNotFallen,
                articles::FLAG_OBSERVED,
            );
        }
    }

    /// When `color`'s flag fell, if it has by now.
    fn fell_at(&self, color: Color) -> Option<u64> {
        let clock = self.clock.as_ref()?;
        clock.flag_fell_at(color).or_else(|| {
            clock
                .flag_deadline()
                .filter(|&(c, at)| c == color && at <= self.now)
                .map(|(_, at)| at)
        })
    }

    /// 6.9, with both flags down per the first-flag indicator or III.3.1.
    fn flag_falls(&mut self, color: Color) {
        let mut loser = color;
        if let (Some(mine), Some(theirs)) = (self.fell_at(color), self.fell_at(!color)) {
            if self.rules.first_flag_indicator {
                if theirs < mine {
                    loser = !color;
                }
            } else if self.in_last_period(color) {
                let outcome = Outcome {
                    result: GameResult::Draw,
                    reason: Reason::TimeForfeit,
                    article: articles::BOTH_FLAGS,
                };
                self.end(outcome, self.now, None);
                return;
            } else {
                self.decide(None, Ruling::BothFlagsContinue, articles::BOTH_FLAGS);
                return;
            }
        }
        let outcome = self.unless_unwinnable(!loser, Reason::TimeForfeit, Article::TIME_FORFEIT);
        self.end(outcome, self.now, Some(loser));
    }

    /// Whether `color` plays in the control's last period (one without a move quota).
    fn in_last_period(&self, color: Color) -> bool {
        let Some(clock) = &self.clock else {
            return true;
        };
        let moves = clock.moves(color);
        let mut due = 0u32;
        for period in clock.control().periods() {
            match period.moves {
                None => return true,
                Some(quota) => {
                    due = due.saturating_add(quota);
                    if moves < due {
                        return false;
                    }
                }
            }
        }
        false
    }

    // ----- the arbiter's own actions ----------------------------------------------------------

    /// Moves completed by each player: the record's moves, split by who made the first.
    fn moves_made(&self) -> ByColor<usize> {
        let plies = self.record.len();
        let first = self.start.turn();
        let mut made = ByColor::default();
        made[first] = plies.div_ceil(2);
        made[!first] = plies / 2;
        made
    }

    fn arbiter_action(&mut self, action: &ArbiterAction) {
        match *action {
            ArbiterAction::AddTime { player, ms } => match &mut self.clock {
                Some(clock) if ms <= MAX_TIME_MS => {
                    clock.add_time(player, ms);
                    self.decide(Some(player), Ruling::TimeAdded { ms }, articles::TIME_ADDED);
                }
                _ => self.note("time added without a clock, or beyond the limit: no effect"),
            },
            ArbiterAction::Warning { player } => {
                self.decide(Some(player), Ruling::Warning, articles::WARNING);
            }
            ArbiterAction::IllegalMove { player } => self.claim_illegal(player),
            ArbiterAction::ColoursReversed => {
                let made = self.moves_made();
                if made.white.min(made.black) < 10 {
                    let outcome = Outcome {
                        result: GameResult::Cancelled,
                        reason: Reason::ArbiterDecision,
                        article: articles::COLOURS_REVERSED,
                    };
                    self.end(outcome, self.now, None);
                } else {
                    self.decide(
                        None,
                        Ruling::ColoursReversedContinue,
                        articles::COLOURS_REVERSED,
                    );
                }
            }
            ArbiterAction::WrongSetup { misplaced } => {
                let made = self.moves_made();
                if !self.rules.supervised() && made.white.min(made.black) >= 10 {
                    let castling_forbidden = misplaced.is_some_and(|sq| self.forbid_castling(sq));
                    self.decide(
                        None,
                        Ruling::WrongSetupContinue { castling_forbidden },
                        articles::SETUP_AFTER_TEN,
                    );
                } else {
                    let outcome = Outcome {
                        result: GameResult::Cancelled,
                        reason: Reason::ArbiterDecision,
                        article: articles::WRONG_SETUP,
                    };
                    self.end(outcome, self.now, None);
                }
            }
            ArbiterAction::Declare { result, article } => {
                let outcome = Outcome {
                    result,
                    reason: Reason::ArbiterDecision,
                    article: article.unwrap_or(Article::PENALTIES),
                };
                self.end(outcome, self.now, None);
            }
        }
    }

    /// A.5.1.2: no castling with the king or rook on `square`. Returns whether a right went.
    ///
    /// The game goes on from the changed position; earlier positions cannot repeat it (their
    /// castling rights differ, 9.2.3), so the repetition history is not lost.
    fn forbid_castling(&mut self, square: Square) -> bool {
        let pos = self.game.position();
        let Some(piece) = pos.board().piece_at(square) else {
            return false;
        };
        let mut setup = pos.to_setup();
        match piece.role {
            Role::King => setup.castling_rights.clear(piece.color),
            Role::Rook => setup.castling_rights.clear_rook(piece.color, square.file()),
            _ => return false,
        }
        if setup.castling_rights == pos.castling_rights() {
            return false;
        }
        match Position::from_setup(setup, pos.castling_mode()) {
            Ok(changed) => {
                self.game = Game::new(changed);
                self.last = None;
                true
            }
            Err(_) => false,
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
