//! The articles of the FIDE Laws of Chess (2023) the arbiter cites, beyond those
//! [`Article`] already names.

use caissa_game::Article;

/// 1.2: the players move alternately.
pub const ALTERNATE_MOVES: Article = Article::constant("1.2");
/// 3.10.1: only legal moves are played (an online server refuses illegal input).
pub const LEGAL_MOVE: Article = Article::constant("3.10.1");
/// 4.2.1: only the player having the move may adjust pieces.
pub const ADJUST: Article = Article::constant("4.2.1");
/// 4.3.1: an own piece touched must be moved.
pub const TOUCH_OWN: Article = Article::constant("4.3.1");
/// 4.3.2: an opponent's piece touched must be captured.
pub const TOUCH_OPPONENT: Article = Article::constant("4.3.2");
/// 4.3.3: pieces of both colours touched.
pub const TOUCH_BOTH: Article = Article::constant("4.3.3");
/// 4.4.1: king then rook touched: castle.
pub const TOUCH_CASTLING: Article = Article::constant("4.4.1");
/// 4.4.2: rook then king touched: no castling with that rook.
pub const TOUCH_ROOK_FIRST: Article = Article::constant("4.4.2");
/// 4.4.3: castling intended but illegal: another king move.
pub const TOUCH_CASTLING_ILLEGAL: Article = Article::constant("4.4.3");
/// 4.4.4: the promotion piece is chosen once it has touched the promotion square.
pub const TOUCH_PROMOTION: Article = Article::constant("4.4.4");
/// 4.7: a piece released on a square as a legal move cannot go elsewhere.
pub const TOUCH_RELEASED: Article = Article::constant("4.7");
/// 4.8: the right to claim a breach of 4.1 to 4.7 is lost once the claimant touches a piece.
pub const TOUCH_CLAIM_LOST: Article = Article::constant("4.8");
/// 5.2.3: agreement only after both players have made a move.
pub const AGREEMENT: Article = Article::AGREEMENT;
/// 6.2.1: a move is completed by the clock press (or by ending the game).
pub const COMPLETED: Article = Article::constant("6.2.1");
/// 6.8: a flag counts as fallen when observed or validly claimed.
pub const FLAG_OBSERVED: Article = Article::constant("6.8");
/// 7.2.1: wrong initial position: the game is cancelled.
pub const WRONG_SETUP: Article = Article::constant("7.2.1");
/// 7.3: colours reversed.
pub const COLOURS_REVERSED: Article = Article::constant("7.3");
/// 7.5.1: an illegal move completed: the position before it is reinstated.
pub const ILLEGAL_REINSTATED: Article = Article::constant("7.5.1");
/// 7.5.2: a pawn on the last rank not exchanged: it becomes a queen.
pub const UNFINISHED_PROMOTION: Article = Article::constant("7.5.2");
/// 7.5.3: the clock pressed without a move.
pub const PRESS_WITHOUT_MOVE: Article = Article::constant("7.5.3");
/// 7.5.4: two hands used for one move.
pub const TWO_HANDS: Article = Article::constant("7.5.4");
/// 7.5.5: penalties for completed illegal moves.
pub const ILLEGAL_PENALTY: Article = Article::ILLEGAL_MOVES;
/// 9.1.1: the competition may restrict draw offers.
pub const OFFER_RESTRICTED: Article = Article::constant("9.1.1");
/// 9.1.2.1: how a draw is offered, and that an offer stands until answered.
pub const OFFER: Article = Article::constant("9.1.2.1");
/// 9.1.2.3: a claim under 9.2 or 9.3 counts as a draw offer.
pub const CLAIM_IS_OFFER: Article = Article::constant("9.1.2.3");
/// 9.2: only the player having the move may claim a threefold repetition.
pub const THREEFOLD: Article = Article::THREEFOLD;
/// 9.3: only the player having the move may claim fifty moves.
pub const FIFTY: Article = Article::FIFTY_MOVES;
/// 9.4: a player who has touched a piece loses the right to claim on that move.
pub const CLAIM_AFTER_TOUCH: Article = Article::constant("9.4");
/// 9.5.3: an incorrect claim: time to the opponent, and the written move must be played.
pub const INCORRECT_CLAIM: Article = Article::constant("9.5.3");
/// 11.5: unreasonable draw offers are a distraction.
pub const DISTRACTION: Article = Article::constant("11.5");
/// 12.9.1: a warning.
pub const WARNING: Article = Article::constant("12.9.1");
/// 12.9.2: time added to a clock.
pub const TIME_ADDED: Article = Article::constant("12.9.2");
/// A.5.1.2: after ten moves each, no claim about the set-up; castling with a misplaced king or
/// rook is forbidden.
pub const SETUP_AFTER_TEN: Article = Article::constant("A.5.1.2");
/// A.5.2: an unclaimed illegal move stands once the opponent has moved.
pub const ILLEGAL_STANDS: Article = Article::constant("A.5.2");
/// III.3.1: both flags fallen, order unknown.
pub const BOTH_FLAGS: Article = Article::constant("III.3.1");
