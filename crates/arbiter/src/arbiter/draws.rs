//! Draw offers (9.1) and claims (9.2 to 9.5, 4.8, A.5.2).

use caissa_game::Claims;

use super::*;

impl Arbiter {
    /// Whether regulations allow offers and agreement now (9.1.1); the reason if not.
    pub(super) fn offers_forbidden(&self) -> Option<&'static str> {
        match self.rules.offers_from_move {
            None => Some("the regulations forbid draw offers (9.1.1)"),
            Some(n) if self.game.position().fullmoves() < n => {
                Some("the regulations forbid draw offers before this move (9.1.1)")
            }
            Some(_) => None,
        }
    }

    pub(super) fn offer(&mut self, by: Color) {
        if let Some(why) = self.offers_forbidden() {
            self.decide(
                Some(by),
                Ruling::DrawOfferRefused { why: why.into() },
                articles::OFFER_RESTRICTED,
            );
            return;
        }
        let offered = self.offers.offer(by, self.rules.no_repeat_offer);
        match offered {
            Offered::Pending | Offered::Repeated => {
                let proper_time = match self.unpressed {
                    Some(Unpressed::Legal { by: mover, .. }) => mover == by,
                    _ => self.last_completed == Some((by, self.now)),
                };
                self.decide(
                    Some(by),
                    Ruling::DrawOffered { proper_time },
                    articles::OFFER,
                );
                if offered == Offered::Repeated {
                    self.note(format!(
                        "{} offers again after a declined offer: repeated offers may annoy (11.5)",
                        by.name()
                    ));
                }
            }
            Offered::AlreadyPending => {
                self.note(format!("{}'s offer is already pending", by.name()));
            }
            Offered::Accepts => self.accept(by),
            Offered::NotAgain => self.decide(
                Some(by),
                Ruling::DrawOfferRefused {
                    why: "the last offer was declined; no new offer until the opponent offers"
                        .into(),
                },
                articles::DISTRACTION,
            ),
        }
    }

    pub(super) fn accept(&mut self, by: Color) {
        let refused = |why: &'static str| Ruling::AgreementRefused { why: why.into() };
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

    pub(super) fn claim(&mut self, by: Color, claim: &ClaimKind) {
        match claim {
            ClaimKind::Threefold(written) | ClaimKind::Fifty(written) => {
                self.claim_draw(by, claim, *written);
            }
            ClaimKind::TouchMove => self.claim_touch_move(by),
            ClaimKind::Flag => self.flag_observed(!by, Some(by)),
            ClaimKind::IllegalMove => self.claim_illegal(!by),
        }
    }

    pub(super) fn claim_draw(&mut self, by: Color, claim: &ClaimKind, written: Option<MoveText>) {
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
                    claim: name.into(),
                    why: "the claimant has touched a piece on this move".into(),
                },
                articles::CLAIM_AFTER_TOUCH,
            );
            return;
        }
        let pos = *self.game.position();
        // 9.2.1.1 and 9.3.1 with a written move, else 9.2.1.2 and 9.3.2 about the board: the
        // claim is correct if either grounds it, the written move's first.
        let (with_move, intended) = match written.map(|text| illegal::read(&pos, text)) {
            None | Some(Written::Ambiguous) => (None, None),
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
        };
        let of_kind = |claims: Claims| match claim {
            ClaimKind::Threefold(_) => claims.threefold,
            _ => claims.fifty_moves,
        };
        let correct = with_move
            .and_then(of_kind)
            .or_else(|| of_kind(self.game.claims()));
        match correct {
            Some(correct) => self.end(correct.outcome(), self.now, Some(by)),
            None => self.incorrect_claim(by, name, intended),
        }
    }

    /// 9.5.3 and 9.1.2.3.
    pub(super) fn incorrect_claim(
        &mut self,
        by: Color,
        claim: &'static str,
        intended: Option<Move>,
    ) {
        let must_play = intended.map(|m| self.sans(&[m]).concat());
        self.decide(
            Some(by),
            Ruling::ClaimIncorrect {
                claim: claim.into(),
                must_play,
            },
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

    pub(super) fn claim_touch_move(&mut self, by: Color) {
        let refuse = |why: &'static str| Ruling::ClaimRefused {
            claim: "touch_move".into(),
            why: why.into(),
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
    pub(super) fn claim_illegal(&mut self, offender: Color) {
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
                        claim: "illegal_move".into(),
                        why: "no illegal move of the opponent's can be claimed now".into(),
                    },
                    articles::ILLEGAL_REINSTATED,
                );
            }
        }
    }
}
