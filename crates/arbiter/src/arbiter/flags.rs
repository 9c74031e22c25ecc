//! Flags (6.8, 6.9, III.3.1).

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

    /// 6.9, with both flags down per the first-flag indicator or III.3.1.
    pub(super) fn flag_falls(&mut self, color: Color) {
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
    pub(super) fn in_last_period(&self, color: Color) -> bool {
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
}
