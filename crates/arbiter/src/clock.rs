//! The chess clock (Article 6): two displays, one running, time in integer milliseconds.
//!
//! The clock never reads a system clock: every operation takes the time `t_ms` at which it
//! happens (milliseconds from any fixed origin, never decreasing), so the same events always give
//! the same times.
//!
//! Accounting per completed move, with `used` the time from the start of the move to the press:
//! - sudden death and Fischer: `remaining -= used`, then the increment is added;
//! - simple delay `d`: `remaining -= max(0, used - d)`;
//! - Bronstein delay `d`: `remaining -= used`, then `min(used, d)` is given back;
//! - hourglass: the time used is also added to the opponent.
//!
//! A flag falls when the time charged reaches the remaining time (equality counts: CV2b). A flag
//! that falls is recorded with its time; a move completed after it earns no bonus and leaves the
//! display at zero. The clock still switches on a press, as a physical clock does; what a fallen
//! flag means is the arbiter's decision. The first flag to fall is remembered (the electronic
//! clock's first-flag indicator).
//!
//! With [`PeriodTrigger::OnMoveCount`] the next period's time is added when a player completes
//! the period's last move; with [`PeriodTrigger::OnFlag`] when the period's time runs out and the
//! quota of moves has been made (6.4), otherwise the flag falls. Moves are counted by the clock
//! on each press; [`Clock::set_moves`] corrects the count (6.10.2).
//!
//! The players may have different time controls (time odds, [`Clock::with_controls`]): each
//! side's time, bonuses, periods and trigger are then its own control's. An hourglass gives
//! the opponent the time used whichever control the opponent has.

use caissa_board::{ByColor, Color};

use crate::MAX_TIME_MS;
use crate::time_control::{Bonus, PeriodTrigger, TimeControl};

/// A clock running a [`TimeControl`] for each player: the same one ([`Clock::new`]) or one each
/// ([`Clock::with_controls`], time odds).
///
/// With the `serde` feature a clock is an object of its state (what a server stores to resume
/// a game), checked when read: no time beyond [`MAX_TIME_MS`] (remaining times up to a
/// thousand times that), none after the clock's last operation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "ClockFields"))]
pub struct Clock {
    controls: ByColor<TimeControl>,
    remaining: ByColor<u64>,
    periods_done: ByColor<usize>,
    moves: ByColor<u32>,
    running: Option<(Color, u64)>,
    /// Time already used in the current, unfinished move (before a pause).
    in_move: ByColor<u64>,
    flag_fell: ByColor<Option<u64>>,
    first_flag: Option<Color>,
    last_t: u64,
}

/// A clock's state as serde reads it, before it is checked.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockFields {
    controls: ByColor<TimeControl>,
    remaining: ByColor<u64>,
    periods_done: ByColor<usize>,
    moves: ByColor<u32>,
    running: Option<(Color, u64)>,
    in_move: ByColor<u64>,
    flag_fell: ByColor<Option<u64>>,
    first_flag: Option<Color>,
    last_t: u64,
}

/// A clock state that no clock reaches.
#[cfg(feature = "serde")]
#[derive(Debug, thiserror::Error)]
enum ClockStateError {
    #[error("a time beyond the limit of {MAX_TIME_MS} ms")]
    TimeTooLarge,
    #[error("a time after the clock's last operation")]
    AfterLastOperation,
    #[error("more periods completed than moves made")]
    TooManyPeriods,
    #[error("more than {MAX_CLOCK_MOVES} moves, past the longest game the Laws allow")]
    TooManyMoves,
}

/// The most moves of a side a clock read from its serde form may have made: far past the
/// longest game the Laws allow (8,849 moves, with the seventy-five-move rule), and low enough
/// that the periods completed are counted, and their times summed, without overflow.
#[cfg(feature = "serde")]
const MAX_CLOCK_MOVES: u32 = 100_000;

#[cfg(feature = "serde")]
impl TryFrom<ClockFields> for Clock {
    type Error = ClockStateError;

    fn try_from(f: ClockFields) -> Result<Clock, ClockStateError> {
        let last_t = f.last_t;
        if last_t > MAX_TIME_MS {
            return Err(ClockStateError::TimeTooLarge);
        }
        for color in Color::ALL {
            if f.remaining[color] > 1_000 * MAX_TIME_MS {
                return Err(ClockStateError::TimeTooLarge);
            }
            if f.moves[color] > MAX_CLOCK_MOVES {
                return Err(ClockStateError::TooManyMoves);
            }
            if f.in_move[color] > last_t || f.flag_fell[color].is_some_and(|t| t > 2 * MAX_TIME_MS)
            {
                return Err(ClockStateError::AfterLastOperation);
            }
            if f.periods_done[color] > usize::try_from(f.moves[color]).unwrap_or(usize::MAX) {
                return Err(ClockStateError::TooManyPeriods);
            }
        }
        if let Some((color, since)) = f.running
            && (since > last_t || f.in_move[color] > since)
        {
            return Err(ClockStateError::AfterLastOperation);
        }
        Ok(Clock {
            controls: f.controls,
            remaining: f.remaining,
            periods_done: f.periods_done,
            moves: f.moves,
            running: f.running,
            in_move: f.in_move,
            flag_fell: f.flag_fell,
            first_flag: f.first_flag,
            last_t,
        })
    }
}

/// An operation with a time earlier than one already seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("time went backwards: {t_ms} ms after {last_ms} ms")]
pub struct TimeWentBackwards {
    /// The time given.
    pub t_ms: u64,
    /// The latest time seen before.
    pub last_ms: u64,
}

/// What a clock press did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Press {
    /// Whose clock was stopped (the player who completed a move), if one was running.
    pub by: Option<Color>,
    /// When that player's flag fell, if it fell before the press.
    pub flag_fell_at: Option<u64>,
}

/// How a running move is charged: the time until the flag falls, and the periods added on the
/// way (with [`PeriodTrigger::OnFlag`]).
struct Allowance {
    until_flag: u64,
    periods_added: usize,
    time_added: u64,
}

impl Clock {
    /// A stopped clock at the start of the game, both players on `control`, each with the first
    /// period's time.
    #[must_use]
    pub fn new(control: TimeControl) -> Clock {
        Clock::with_controls(ByColor {
            white: control.clone(),
            black: control,
        })
    }

    /// A stopped clock at the start of the game, each player on its own control (time odds),
    /// with its first period's time.
    #[must_use]
    pub fn with_controls(controls: ByColor<TimeControl>) -> Clock {
        Clock {
            remaining: ByColor::new_with(|c| controls[c].period(0).base_ms),
            controls,
            periods_done: ByColor::default(),
            moves: ByColor::default(),
            running: None,
            in_move: ByColor::default(),
            flag_fell: ByColor::default(),
            first_flag: None,
            last_t: 0,
        }
    }

    /// `color`'s time control.
    #[must_use]
    pub fn control(&self, color: Color) -> &TimeControl {
        &self.controls[color]
    }

    /// Both players' time controls.
    #[must_use]
    pub fn controls(&self) -> &ByColor<TimeControl> {
        &self.controls
    }

    /// Whose clock runs, if any.
    #[must_use]
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// Moves completed by `color`, as the clock counts them.
    #[must_use]
    pub fn moves(&self, color: Color) -> u32 {
        self.moves[color]
    }

    /// Corrects the number of moves `color` has completed (6.10.2: the arbiter fixes the counter).
    pub fn set_moves(&mut self, color: Color, moves: u32) {
        self.moves[color] = moves;
    }

    /// The first flag that fell, if any (the first-flag indicator).
    #[must_use]
    pub fn first_flag(&self) -> Option<Color> {
        self.first_flag
    }

    /// When `color`'s flag fell, if it has (as of the last operation).
    #[must_use]
    pub fn flag_fell_at(&self, color: Color) -> Option<u64> {
        self.flag_fell[color]
    }

    fn advance(&mut self, t_ms: u64) -> Result<(), TimeWentBackwards> {
        if t_ms < self.last_t {
            return Err(TimeWentBackwards {
                t_ms,
                last_ms: self.last_t,
            });
        }
        self.last_t = t_ms;
        Ok(())
    }

    /// The total number of moves `color` owes by the end of the period after `periods_done`
    /// periods; `None` for a rest-of-game period.
    fn quota_end(&self, color: Color, periods_done: usize) -> Option<u32> {
        let control = &self.controls[color];
        (0..=periods_done).try_fold(0u32, |sum, i| {
            control.period(i).moves.map(|m| sum.saturating_add(m))
        })
    }

    /// The bonus that applies to `color`'s next move.
    fn bonus_for_next_move(&self, color: Color, periods_done: usize) -> Bonus {
        let period = self.controls[color].period(periods_done);
        if self.moves[color].saturating_add(1) >= period.bonus_from_move {
            period.bonus
        } else {
            Bonus::None
        }
    }

    fn allowance(&self, color: Color) -> Allowance {
        let mut periods_done = self.periods_done[color];
        let delay = match self.bonus_for_next_move(color, periods_done) {
            Bonus::SimpleDelay(d) => d,
            _ => 0,
        };
        let mut allowance = Allowance {
            until_flag: self.remaining[color] + delay,
            periods_added: 0,
            time_added: 0,
        };
        let control = &self.controls[color];
        if control.trigger == PeriodTrigger::OnFlag {
            while let Some(due) = self.quota_end(color, periods_done) {
                // (A sum of quotas past `u32::MAX` moves is no game's: it stops the count.)
                if self.moves[color] < due || due == u32::MAX {
                    break;
                }
                periods_done += 1;
                let base = control.period(periods_done).base_ms;
                allowance.until_flag = allowance.until_flag.saturating_add(base);
                allowance.time_added = allowance.time_added.saturating_add(base);
                allowance.periods_added += 1;
            }
        }
        allowance
    }

    /// Time `color` has used in the current move by `t_ms`.
    fn used_in_move(&self, color: Color, t_ms: u64) -> u64 {
        let running = match self.running {
            Some((c, since)) if c == color => t_ms.saturating_sub(since),
            _ => 0,
        };
        self.in_move[color] + running
    }

    /// Starts `color`'s clock at `t_ms`, pausing the other one if it runs (its move goes on when
    /// its clock is started again).
    ///
    /// # Errors
    ///
    /// [`TimeWentBackwards`] if `t_ms` is before an earlier operation.
    pub fn start(&mut self, color: Color, t_ms: u64) -> Result<(), TimeWentBackwards> {
        self.stop(t_ms)?;
        self.running = Some((color, t_ms));
        Ok(())
    }

    /// Pauses the running clock at `t_ms` without completing a move (to call the arbiter, 6.11).
    /// The move goes on when [`Clock::start`] restarts that clock: a delay is not granted twice.
    ///
    /// # Errors
    ///
    /// [`TimeWentBackwards`] if `t_ms` is before an earlier operation.
    pub fn stop(&mut self, t_ms: u64) -> Result<(), TimeWentBackwards> {
        self.advance(t_ms)?;
        if let Some((color, since)) = self.running.take() {
            self.in_move[color] += t_ms - since;
            if self.used_in_move(color, t_ms) >= self.allowance(color).until_flag {
                self.record_flag(color, t_ms - self.in_move[color]);
            }
        }
        Ok(())
    }

    /// The player whose clock runs completes a move at `t_ms`: their clock stops, the bonus is
    /// applied (unless their flag fell first), and the opponent's clock starts.
    ///
    /// # Errors
    ///
    /// [`TimeWentBackwards`] if `t_ms` is before an earlier operation.
    pub fn press(&mut self, t_ms: u64) -> Result<Press, TimeWentBackwards> {
        self.advance(t_ms)?;
        let Some((color, _)) = self.running else {
            return Ok(Press {
                by: None,
                flag_fell_at: None,
            });
        };
        let used = self.used_in_move(color, t_ms);
        self.running = None;
        self.in_move[color] = 0;
        let flag_fell_at = self.complete_move(color, used);
        self.running = Some((!color, t_ms));
        Ok(Press {
            by: Some(color),
            flag_fell_at,
        })
    }

    /// Records that `color`'s flag fell, its move having started at `move_start`.
    fn record_flag(&mut self, color: Color, move_start: u64) {
        if self.flag_fell[color].is_some() {
            return;
        }
        let at = move_start + self.allowance(color).until_flag;
        self.flag_fell[color] = Some(at);
        self.remaining[color] = 0;
        if self.first_flag.is_none() || self.flag_fell[!color].is_some_and(|other| other > at) {
            self.first_flag = Some(color);
        }
    }

    /// Charges a completed move of `used` ms to `color`: counts it and applies the bonus and
    /// period changes. Returns when the flag fell, if it did.
    fn complete_move(&mut self, color: Color, used: u64) -> Option<u64> {
        let allowance = self.allowance(color);
        let bonus = self.bonus_for_next_move(color, self.periods_done[color]);
        self.moves[color] = self.moves[color].saturating_add(1);
        let (hourglass, trigger) = (self.controls[color].hourglass, self.controls[color].trigger);
        if hourglass {
            self.remaining[!color] += used.min(self.remaining[color]);
        }
        if used >= allowance.until_flag {
            self.record_flag(color, self.last_t - used);
        }
        if self.flag_fell[color].is_some() {
            return self.flag_fell[color];
        }
        self.periods_done[color] += allowance.periods_added;
        let charged = match bonus {
            Bonus::SimpleDelay(d) => used.saturating_sub(d),
            _ => used,
        };
        let mut remaining = self.remaining[color] + allowance.time_added - charged;
        remaining += match bonus {
            Bonus::Fischer(inc) => inc,
            Bonus::Bronstein(d) => used.min(d),
            Bonus::None | Bonus::SimpleDelay(_) => 0,
        };
        if trigger == PeriodTrigger::OnMoveCount
            && self.quota_end(color, self.periods_done[color]) == Some(self.moves[color])
        {
            self.periods_done[color] += 1;
            remaining += self.controls[color]
                .period(self.periods_done[color])
                .base_ms;
        }
        self.remaining[color] = remaining;
        None
    }

    /// `color`'s main time at `t_ms` (at least the last operation's time), as a display shows it:
    /// the running player's time counts down (with a simple delay, only once the delay is used).
    #[must_use]
    pub fn remaining(&self, color: Color, t_ms: u64) -> u64 {
        if self.flag_fell[color].is_some() {
            return 0;
        }
        match self.used_in_move(color, t_ms) {
            0 => self.remaining[color],
            used => {
                let allowance = self.allowance(color);
                if used >= allowance.until_flag {
                    return 0;
                }
                let charged = match self.bonus_for_next_move(color, self.periods_done[color]) {
                    Bonus::SimpleDelay(d) => used.saturating_sub(d),
                    _ => used,
                };
                (self.remaining[color] + allowance.time_added).saturating_sub(charged)
            }
        }
    }

    /// When the running player's flag will fall if they do not press first: `(player, t_ms)`.
    #[must_use]
    pub fn flag_deadline(&self) -> Option<(Color, u64)> {
        let (color, since) = self.running?;
        match self.flag_fell[color] {
            Some(at) => Some((color, at)),
            None => Some((
                color,
                since - self.in_move[color] + self.allowance(color).until_flag,
            )),
        }
    }

    /// Whether `color`'s flag has fallen by `t_ms` (including a running clock that has passed its
    /// deadline but has not been pressed yet).
    #[must_use]
    pub fn has_flag_fallen(&self, color: Color, t_ms: u64) -> bool {
        self.flag_fell[color].is_some_and(|at| at <= t_ms)
            || self
                .flag_deadline()
                .is_some_and(|(c, at)| c == color && at <= t_ms)
    }

    /// Adds `ms` to `color`'s time (an arbiter's award, e.g. two minutes under 7.5.5 or 9.5),
    /// and says whether it did: nothing is added once that flag has fallen, nor when the time
    /// would then be more than [`MAX_TIME_MS`] (however many awards, a clock never shows more).
    #[must_use]
    pub fn add_time(&mut self, color: Color, ms: u64) -> TimeAward {
        if self.flag_fell[color].is_some() {
            return TimeAward::FlagFell;
        }
        match self.remaining[color].checked_add(ms) {
            Some(total) if total <= MAX_TIME_MS => {
                self.remaining[color] = total;
                TimeAward::Added
            }
            _ => TimeAward::PastLimit,
        }
    }
}

/// What [`Clock::add_time`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeAward {
    /// The time was added.
    Added,
    /// Nothing: the flag had fallen.
    FlagFell,
    /// Nothing: the clock would have shown more than [`MAX_TIME_MS`].
    PastLimit,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_control::{Period, PgnTimeControl};

    fn tc(pgn: &str) -> TimeControl {
        match TimeControl::from_pgn(pgn).unwrap() {
            PgnTimeControl::Control(tc) => tc,
            other => panic!("{other:?}"),
        }
    }

    /// White moves once, taking `used` ms; returns the press and the clock.
    fn white_moves(control: TimeControl, used: u64) -> (Press, Clock) {
        let mut clock = Clock::new(control);
        clock.start(Color::White, 1_000).unwrap();
        let press = clock.press(1_000 + used).unwrap();
        (press, clock)
    }

    #[test]
    fn cv1_sudden_death() {
        let (press, clock) = white_moves(tc("300"), 12_300);
        assert_eq!(press.flag_fell_at, None);
        assert_eq!(clock.remaining(Color::White, 20_000), 287_700);
        assert_eq!(clock.running(), Some(Color::Black));
        assert_eq!(clock.moves(Color::White), 1);
    }

    #[test]
    fn cv2_fischer_and_cv2b_flag_before_press() {
        let (_, clock) = white_moves(tc("180+2"), 5_000);
        assert_eq!(clock.remaining(Color::White, 6_000), 177_000);
        let mut clock = Clock::new(tc("4+2"));
        clock.start(Color::White, 0).unwrap();
        assert!(clock.has_flag_fallen(Color::White, 4_000));
        let press = clock.press(4_000).unwrap();
        assert_eq!(press.flag_fell_at, Some(4_000));
        assert_eq!(clock.remaining(Color::White, 5_000), 0);
        assert_eq!(clock.first_flag(), Some(Color::White));
        // An award after the flag fell adds nothing, and says so.
        assert_eq!(clock.add_time(Color::White, 60_000), TimeAward::FlagFell);
        assert_eq!(clock.remaining(Color::White, 5_000), 0);
    }

    #[test]
    fn cv3_periods_on_move_count() {
        let control = tc("40/5400+30:1800+30");
        let mut clock = Clock::new(control);
        clock.set_moves(Color::White, 39);
        // Give white exactly 45 s + 30 s used on the 40th move: 45 s left after the press,
        // before the increment.
        clock.remaining.white = 75_000;
        clock.start(Color::White, 0).unwrap();
        clock.press(30_000).unwrap();
        assert_eq!(
            clock.remaining(Color::White, 30_000),
            45_000 + 30_000 + 1_800_000
        );
        assert_eq!(clock.moves(Color::White), 40);
    }

    #[test]
    fn cv3b_and_cv3c_periods_on_flag() {
        let mut control = tc("40/5400+30:1800+30");
        // CV3b: time runs out after 38 moves: the flag falls under either trigger.
        for trigger in [PeriodTrigger::OnMoveCount, PeriodTrigger::OnFlag] {
            control.trigger = trigger;
            let mut clock = Clock::new(control.clone());
            clock.set_moves(Color::White, 38);
            clock.remaining.white = 10_000;
            clock.start(Color::White, 0).unwrap();
            assert_eq!(clock.flag_deadline(), Some((Color::White, 10_000)));
            assert_eq!(clock.press(10_001).unwrap().flag_fell_at, Some(10_000));
        }
        // CV3c: 40 moves made with 75 s left; on flag the next 1800 s are added and play goes on.
        control.trigger = PeriodTrigger::OnFlag;
        let mut clock = Clock::new(control);
        clock.set_moves(Color::White, 40);
        clock.remaining.white = 75_000;
        clock.start(Color::White, 0).unwrap();
        assert_eq!(clock.flag_deadline(), Some((Color::White, 1_875_000)));
        let press = clock.press(80_000).unwrap();
        assert_eq!(press.flag_fell_at, None);
        assert_eq!(
            clock.remaining(Color::White, 80_000),
            1_875_000 - 80_000 + 30_000
        );
    }

    #[test]
    fn cv4_cv5_simple_delay() {
        for (used, left) in [(3_000, 60_000), (8_000, 57_000)] {
            let (_, clock) = white_moves(tc("60d5"), used);
            assert_eq!(clock.remaining(Color::White, 100_000), left);
        }
        let mut clock = Clock::new(tc("2d5"));
        clock.start(Color::White, 0).unwrap();
        assert!(!clock.has_flag_fallen(Color::White, 6_500));
        assert_eq!(clock.remaining(Color::White, 6_500), 500);
        assert_eq!(clock.flag_deadline(), Some((Color::White, 7_000)));
        assert_eq!(clock.press(6_500).unwrap().flag_fell_at, None);
        assert_eq!(clock.remaining(Color::White, 6_500), 500);
    }

    #[test]
    fn cv6_bronstein() {
        for (used, left) in [(3_000, 60_000), (8_000, 57_000)] {
            let (_, clock) = white_moves(tc("60b5"), used);
            assert_eq!(clock.remaining(Color::White, 100_000), left);
        }
        let (press, _) = white_moves(tc("2b5"), 2_000);
        assert_eq!(press.flag_fell_at, Some(3_000));
    }

    #[test]
    fn bonus_from_move_n_and_hourglass() {
        let control = TimeControl::new(
            vec![Period {
                bonus_from_move: 2,
                ..Period::new(None, 60_000, Bonus::Fischer(10_000))
            }],
            PeriodTrigger::OnMoveCount,
        )
        .unwrap();
        let mut clock = Clock::new(control);
        clock.start(Color::White, 0).unwrap();
        clock.press(1_000).unwrap(); // white move 1: no increment
        clock.press(2_000).unwrap(); // black move 1
        clock.press(3_000).unwrap(); // white move 2: increment
        assert_eq!(
            clock.remaining(Color::White, 3_000),
            60_000 - 1_000 - 1_000 + 10_000
        );

        let mut glass = Clock::new(TimeControl::hourglass(60_000));
        glass.start(Color::White, 0).unwrap();
        glass.press(10_000).unwrap();
        assert_eq!(glass.remaining(Color::White, 10_000), 50_000);
        assert_eq!(glass.remaining(Color::Black, 10_000), 70_000);
    }

    #[test]
    fn stop_add_time_and_backwards_time() {
        let mut clock = Clock::new(tc("300"));
        clock.start(Color::White, 0).unwrap();
        clock.stop(5_000).unwrap();
        assert_eq!(clock.running(), None);
        assert_eq!(clock.remaining(Color::White, 9_000), 295_000);
        assert_eq!(clock.moves(Color::White), 0);
        // The paused move goes on: 5 s before the pause and 2 s after.
        clock.start(Color::White, 8_000).unwrap();
        assert_eq!(clock.flag_deadline(), Some((Color::White, 303_000)));
        clock.press(10_000).unwrap();
        assert_eq!(clock.remaining(Color::White, 10_000), 293_000);
        clock.stop(10_000).unwrap();
        assert_eq!(clock.add_time(Color::Black, 120_000), TimeAward::Added);
        assert_eq!(clock.remaining(Color::Black, 9_000), 420_000);
        // Two awards cannot together take a clock past the limit that one cannot pass.
        assert_eq!(
            clock.add_time(Color::Black, MAX_TIME_MS - 420_000),
            TimeAward::Added
        );
        assert_eq!(clock.add_time(Color::Black, 1), TimeAward::PastLimit);
        assert_eq!(clock.remaining(Color::Black, 9_000), MAX_TIME_MS);
        assert_eq!(
            clock.start(Color::Black, 4_000),
            Err(TimeWentBackwards {
                t_ms: 4_000,
                last_ms: 10_000
            })
        );
        assert_eq!(
            clock.press(11_000).unwrap(),
            Press {
                by: None,
                flag_fell_at: None
            }
        );
    }

    #[test]
    fn time_odds_flags_fall_on_each_players_control() {
        let odds = ByColor {
            white: tc("10+0.1"),
            black: tc("40/5+0.05:60"),
        };
        let mut clock = Clock::with_controls(odds.clone());
        assert_eq!(clock.controls(), &odds);
        assert_eq!(clock.control(Color::Black), &odds.black);
        assert_eq!(clock.remaining(Color::White, 0), 10_000);
        assert_eq!(clock.remaining(Color::Black, 0), 5_000);
        clock.start(Color::White, 0).unwrap();
        assert_eq!(clock.flag_deadline(), Some((Color::White, 10_000)));
        clock.press(1_000).unwrap();
        assert_eq!(clock.remaining(Color::White, 1_000), 9_100);
        assert_eq!(clock.flag_deadline(), Some((Color::Black, 6_000)));
        clock.press(2_000).unwrap();
        assert_eq!(clock.remaining(Color::Black, 2_000), 4_050);
        // Black's 40th move brings its second period, White has none to get.
        clock.set_moves(Color::Black, 39);
        clock.press(3_000).unwrap();
        clock.press(4_000).unwrap();
        assert_eq!(
            clock.remaining(Color::Black, 4_000),
            4_050 - 1_000 + 50 + 60_000
        );
        clock.set_moves(Color::White, 39);
        clock.press(5_000).unwrap();
        assert_eq!(
            clock.remaining(Color::White, 5_000),
            9_100 - 1_000 + 100 - 1_000 + 100
        );
        // One control for both is two equal controls.
        assert_eq!(
            Clock::new(tc("60")),
            Clock::with_controls(ByColor {
                white: tc("60"),
                black: tc("60"),
            })
        );
    }

    #[test]
    fn both_flags_first_flag_is_remembered() {
        let mut clock = Clock::new(tc("10"));
        clock.start(Color::White, 0).unwrap();
        clock.press(12_000).unwrap(); // white flag at 10 s, unnoticed
        clock.press(25_000).unwrap(); // black flag at 22 s
        assert_eq!(clock.flag_fell_at(Color::White), Some(10_000));
        assert_eq!(clock.flag_fell_at(Color::Black), Some(22_000));
        assert_eq!(clock.first_flag(), Some(Color::White));
    }
}
