//! The arbiter's own actions (7.2, 7.3, 12.9, A.5.1.2).

use super::*;

impl Arbiter {
    /// Moves completed by each player: the record's moves, split by who made the first.
    pub(super) fn moves_made(&self) -> ByColor<usize> {
        let plies = self.record.len();
        let first = self.start.turn();
        let mut made = ByColor::default();
        made[first] = plies.div_ceil(2);
        made[!first] = plies / 2;
        made
    }

    pub(super) fn arbiter_action(&mut self, action: &ArbiterAction) {
        match *action {
            ArbiterAction::AddTime { player, ms } => {
                match self.clock.as_mut().map(|clock| clock.add_time(player, ms)) {
                    Some(TimeAward::Added) => {
                        self.decide(Some(player), Ruling::TimeAdded { ms }, articles::TIME_ADDED);
                    }
                    Some(TimeAward::FlagFell) => {
                        self.note("time added after the flag fell: no effect");
                    }
                    Some(TimeAward::PastLimit) => self.note(format!(
                        "time added beyond the limit of {MAX_TIME_MS} ms on the clock: no effect"
                    )),
                    None => self.note("time added without a clock: no effect"),
                }
            }
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
    pub(super) fn forbid_castling(&mut self, square: Square) -> bool {
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
