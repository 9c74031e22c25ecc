//! Touch-move (Article 4), moves and clock presses (6.2, 7.5).

use super::*;

impl Arbiter {
    pub(super) fn touch(&mut self, by: Color, square: Square) {
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

    pub(super) fn declined_by_touch(&mut self, by: Color) {
        if self.offers.decline(by) {
            self.decide(Some(by), Ruling::DrawDeclined, articles::OFFER);
        }
    }

    pub(super) fn adjust(&mut self, by: Color, square: Square) {
        if by == self.turn() {
            self.note(format!("{} adjusts {square} (4.2.1)", by.name()));
        } else {
            self.decide(Some(by), Ruling::IrregularAdjustment, articles::ADJUST);
        }
    }

    pub(super) fn release(&mut self, by: Color, from: Option<Square>, to: Square) {
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

    pub(super) fn promote(&mut self, by: Color, role: Role, square: Square) {
        if by != self.turn() {
            self.note(format!("{} promotes without having the move", by.name()));
            return;
        }
        self.touches.promote(square, role);
        self.declined_by_touch(by);
    }

    // ----- moves and presses ---------------------------------------------------------------

    pub(super) fn make_move(&mut self, by: Color, mv: MoveText, two_hands: bool) {
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
        if self.left_without_a_move(by) {
            return;
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
            Written::UnfinishedPromotion(_) | Written::Illegal(_)
                if self.rules.illegal_moves == IllegalMoves::Reject =>
            {
                self.decide(
                    Some(by),
                    Ruling::IllegalMoveRefused { mv },
                    articles::LEGAL_MOVE,
                );
            }
            Written::UnfinishedPromotion(m) => {
                if self.presses == Presses::Separate {
                    self.unpressed = Some(Unpressed::Promotion { by, m, mv });
                } else {
                    self.unfinished_promotion(by, m, mv);
                }
            }
            Written::Illegal(illegal) => {
                if self.presses == Presses::Separate {
                    // Made but not pressed: it may still be corrected, but its pieces were
                    // touched (4.3.1, 4.3.3), so the replacement keeps to touch-move (7.5.1).
                    for (sq, piece) in illegal.touched(self.game.position()) {
                        self.touches.touch(sq, piece);
                    }
                    self.unpressed = Some(Unpressed::Illegal { by, illegal });
                } else {
                    self.complete_illegal(by, illegal);
                }
            }
        }
    }

    /// The SAN of legal moves of the current position.
    pub(super) fn sans(&self, moves: &[Move]) -> Vec<String> {
        let pos = self.game.position();
        moves
            .iter()
            .map(|&m| SanPlus::from_move(pos, m).to_string())
            .collect()
    }

    /// An illegal move of `by`'s opponent that nobody claimed stands once `by` moves (A.5.2).
    /// If the position it left ends the game (checkmate, stalemate, a dead position), the game
    /// ends by that position. Returns whether the game goes on.
    pub(super) fn close_illegal_claims(&mut self, by: Color) -> bool {
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
            if let Some(outcome) = self.game.outcome() {
                self.end(outcome, self.now, None);
                return false;
            }
        }
        true
    }

    /// A move or a press by `by` where `by` has no legal move, after an illegal move of the
    /// opponent that may still be claimed: not claiming it, `by` lets it stand, and the game
    /// ends by the checkmate or stalemate it left (A.5.2, 5.1.1, 5.2.1). `by` is not charged
    /// with an illegal move for failing to find a legal one. Returns whether that happened.
    fn left_without_a_move(&mut self, by: Color) -> bool {
        let open = self
            .last
            .as_ref()
            .is_some_and(|last| last.by == !by && last.illegal.is_some());
        if open && !self.game.position().has_legal_moves() {
            self.close_illegal_claims(by);
            true
        } else {
            false
        }
    }

    /// Plays a legal move made by `by` (not yet pressed). Returns whether the game goes on.
    pub(super) fn play_legal(
        &mut self,
        by: Color,
        m: Move,
        mv: MoveText,
        breach: Option<Obligation>,
    ) -> bool {
        if !self.close_illegal_claims(by) {
            return false;
        }
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
    pub(super) fn press_move(&mut self, by: Color, two_hands: bool) {
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

    pub(super) fn press(&mut self, by: Color) {
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
                if self.left_without_a_move(by) {
                    return;
                }
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
    pub(super) fn unfinished_promotion(&mut self, by: Color, m: Move, mv: MoveText) {
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
    pub(super) fn complete_illegal(&mut self, by: Color, illegal: IllegalMove) {
        if !self.close_illegal_claims(by) {
            return;
        }
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
    pub(super) fn penalise_illegal(&mut self, offender: Color, illegal: IllegalMove) {
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
    pub(super) fn take_back(&mut self, last: LastMove) {
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
}
