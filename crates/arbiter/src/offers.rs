//! Draw offers (9.1): one pending offer at most, which stands until it is answered.
//!
//! An offer cannot be withdrawn (9.1.2.1). It ends when the opponent accepts (a draw, if both
//! players have made a move: 5.2.3), declines orally, touches a piece with intent or makes a
//! move, or when the game ends. A claim under 9.2 or 9.3 counts as an offer (9.1.2.3). An offer
//! made while the opponent's offer is pending accepts it. A player whose offer was declined may
//! offer again (the Laws do not forbid it), which is told apart so that the arbiter can note it
//! (11.5: offers that annoy are a distraction); with the club rule
//! ([`Rules::no_repeat_offer`](crate::Rules::no_repeat_offer)) such an offer is refused until the
//! opponent has offered.

use caissa_board::{ByColor, Color};

/// What an offer did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Offered {
    /// A new pending offer.
    Pending,
    /// A new pending offer by a player whose last offer was declined, the opponent not having
    /// offered since (allowed by the Laws; 11.5 lets the arbiter act on offers that annoy).
    Repeated,
    /// The same player's offer was already pending.
    AlreadyPending,
    /// The opponent's offer was pending: this accepts it.
    Accepts,
    /// Refused under the club rule: the last offer was declined and the opponent has not
    /// offered since.
    NotAgain,
}

/// The offers of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Offers {
    /// Who has an offer pending.
    pending: Option<Color>,
    /// Whose last offer was declined, the opponent not having offered since.
    declined: ByColor<bool>,
}

impl Offers {
    /// The player whose offer is pending.
    pub(crate) fn pending(&self) -> Option<Color> {
        self.pending
    }

    /// `by` offers a draw; `no_repeat` is the club rule.
    pub(crate) fn offer(&mut self, by: Color, no_repeat: bool) -> Offered {
        match self.pending {
            Some(p) if p == by => Offered::AlreadyPending,
            Some(_) => Offered::Accepts,
            None if no_repeat && self.declined[by] => Offered::NotAgain,
            None => {
                self.pending = Some(by);
                self.declined[!by] = false;
                if self.declined[by] {
                    Offered::Repeated
                } else {
                    Offered::Pending
                }
            }
        }
    }

    /// The offer pending to `by` (made by the opponent) is declined; whether there was one.
    pub(crate) fn decline(&mut self, by: Color) -> bool {
        if self.pending == Some(!by) {
            self.pending = None;
            self.declined[!by] = true;
            true
        } else {
            false
        }
    }

    /// Whether an offer made to `by` is pending.
    pub(crate) fn pending_to(&self, by: Color) -> bool {
        self.pending == Some(!by)
    }

    /// The offer is settled (accepted, or the game ended).
    pub(crate) fn clear(&mut self) {
        self.pending = None;
    }
}
