//! Flags (6.8, 6.9, III.3.1).

use crate::time_control::{Bonus, Speed};

use super::*;

impl Arbiter {
    /// [`FlagPolicy::Immediate`]: the running clock's flag falls at its deadline.
    pub(super) fn check_flag_deadline(&mut self, t: u64) {
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
    pub(super) fn flag_observed(&mut self, color: Color, claimant: Option<Color>) {
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
    pub(super) fn fell_at(&self, color: Color) -> Option<u64> {
        let clock = self.clock.as_ref()?;
        clock.flag_fell_at(color).or_else(|| {
            clock
                .flag_deadline()
                .filter(|&(c, at)| c == color && at <= self.now)
                .map(|(_, at)| at)
        })
    }

    /// 6.9; with both flags down, the first to fall loses, unless the clock cannot show which
    /// fell first in a game that Guidelines III govern: then III.3.1.
    pub(super) fn flag_falls(&mut self, color: Color) {
        let mut loser = color;
        if let (Some(mine), Some(theirs)) = (self.fell_at(color), self.fell_at(!color)) {
            if !self.rules.first_flag_indicator && self.under_guidelines_iii() {
                if self.in_last_period(color) {
                    let outcome = Outcome {
                        result: GameResult::Draw,
                        reason: Reason::TimeForfeit,
                        article: articles::BOTH_FLAGS,
                    };
                    self.end(outcome, self.now, None);
                } else {
                    self.decide(None, Ruling::BothFlagsContinue, articles::BOTH_FLAGS);
                }
                return;
            }
            if theirs < mine {
                loser = !color;
            }
        }
        let outcome = self.unless_unwinnable(!loser, Reason::TimeForfeit, Article::TIME_FORFEIT);
        self.end(outcome, self.now, Some(loser));
    }

    /// Whether Guidelines III apply to this game: standard and rapid games without increment,
    /// never blitz (III.2.2). A delay counts as an increment here, as it does for the speed
    /// classes. At time odds both players' controls must qualify.
    pub(super) fn under_guidelines_iii(&self) -> bool {
        self.clock.as_ref().is_some_and(|clock| {
            clock.controls().iter().all(|(_, control)| {
                control.fide_speed() != Speed::Blitz
                    && control.periods().iter().all(|p| p.bonus == Bonus::None)
            })
        })
    }

    /// Whether `color` plays in the control's last period (one without a move quota).
    pub(super) fn in_last_period(&self, color: Color) -> bool {
        let Some(clock) = &self.clock else {
            return true;
        };
        let moves = clock.moves(color);
        let mut due = 0u32;
        for period in clock.control(color).periods() {
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
}
