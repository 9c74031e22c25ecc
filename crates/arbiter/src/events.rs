//! The events the arbiter consumes: what happens at the board, in order, each with its time.
//!
//! An event log is a list of [`Event`]s. The first is [`EventKind::Start`]; every event carries
//! `t_ms`, the time at which it happened in milliseconds from any fixed origin, never decreasing.
//! The arbiter never reads a clock of its own, so the same log always gives the same verdict.
//!
//! A [`EventKind::Move`] is the move made on the board; unless the log also has
//! [`EventKind::Press`] events, it is also the clock press that completes it (6.2.1), as chess
//! servers and most recorded games have it. Logs from electronic boards, which report the press
//! separately, carry `Press` events: then a move is completed by its press (or by the game
//! ending, or by the opponent's next move, 6.2.1), and [`Start::presses`] says which kind of log
//! this is ([`crate::replay`] finds out by itself when it is `None`).

use core::fmt;
use core::str::FromStr;

use caissa_board::{Color, Role, Square};
use caissa_game::{Article, GameResult};
use caissa_notation::fen::Fen;
use caissa_notation::san::{ParseSanError, ParseSanErrorKind, San, SanPlus};
use caissa_notation::uci::UciMove;

use crate::rules::Rules;
use crate::time_control::TimeControl;

/// One thing that happened at the board, at `t_ms`.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// When it happened, in milliseconds from any fixed origin; never less than the previous
    /// event's time.
    pub t_ms: u64,
    /// What happened.
    pub kind: EventKind,
}

impl Event {
    /// An event of `kind` at `t_ms`.
    #[must_use]
    pub const fn new(t_ms: u64, kind: EventKind) -> Event {
        Event { t_ms, kind }
    }
}

/// How the game starts: position, time control, rules, players.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Start {
    /// The time control (both players', unless [`Start::black_time_control`] gives Black
    /// another), or `None` for a game without clocks.
    pub time_control: Option<TimeControl>,
    /// Black's own time control at time odds (`time_control` is then White's), or `None` when
    /// Black plays `time_control` too.
    pub black_time_control: Option<TimeControl>,
    /// The rules the arbiter applies.
    pub rules: Rules,
    /// The start position, or `None` for the standard one.
    pub fen: Option<Fen>,
    /// Whether castling follows Chess960 (Guidelines II).
    pub chess960: bool,
    /// Whether clock presses are separate events; `None`: [`crate::replay`] looks for `Press`
    /// events, [`crate::Arbiter::new`] assumes moves carry their press.
    pub presses: Option<Presses>,
    /// White's name, for the record.
    pub white: Option<String>,
    /// Black's name, for the record.
    pub black: Option<String>,
}

/// Whether a log's moves include their clock press.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Presses {
    /// Each move event is the move made and the clock pressed.
    WithMove,
    /// Presses are their own events, as electronic boards report them.
    Separate,
}

/// What happened.
#[derive(Clone, Debug, PartialEq)]
// A log has one start: boxing it would make every log's first line harder to write, and save
// little.
#[allow(clippy::large_enum_variant)]
pub enum EventKind {
    /// The game starts: White's clock (the side to move's) starts at this time (6.6).
    Start(Start),
    /// `by` touches the piece on `square`, deliberately (4.2.2: any contact not clearly
    /// accidental counts; an announced adjustment is [`EventKind::Adjust`]).
    Touch {
        /// Who touches.
        by: Color,
        /// The piece's square.
        square: Square,
    },
    /// `by` says "j'adoube" and adjusts the piece on `square` (4.2.1).
    Adjust {
        /// Who adjusts.
        by: Color,
        /// The piece's square.
        square: Square,
    },
    /// `by` lets go of a piece on `to` (4.7): the piece from `from`, or when `from` is `None`
    /// the last own piece `by` touched.
    Release {
        /// Who releases.
        by: Color,
        /// Where the piece came from.
        from: Option<Square>,
        /// Where it was released.
        to: Square,
    },
    /// `by` puts a new `role` on the promotion square `square` (4.4.4: the choice is then made).
    Promote {
        /// Who promotes.
        by: Color,
        /// The piece chosen.
        role: Role,
        /// The promotion square.
        square: Square,
    },
    /// `by` makes a move on the board (and presses the clock, unless presses are separate).
    Move {
        /// Who moves.
        by: Color,
        /// The move, as written.
        mv: MoveText,
        /// Whether two hands were used (7.5.4).
        two_hands: bool,
    },
    /// `by` presses the clock (only in logs with separate presses).
    Press {
        /// Who presses.
        by: Color,
    },
    /// `by` offers a draw (9.1.2).
    OfferDraw {
        /// Who offers.
        by: Color,
    },
    /// `by` accepts the opponent's offer (5.2.3).
    AcceptDraw {
        /// Who accepts.
        by: Color,
    },
    /// `by` declines the opponent's offer (9.1.2.1).
    DeclineDraw {
        /// Who declines.
        by: Color,
    },
    /// `by` tries to withdraw an offer (9.1.2.1: an offer cannot be withdrawn).
    WithdrawDraw {
        /// Who tries.
        by: Color,
    },
    /// `by` makes a claim.
    Claim {
        /// Who claims.
        by: Color,
        /// What is claimed.
        claim: ClaimKind,
    },
    /// `by` resigns (5.1.2).
    Resign {
        /// Who resigns.
        by: Color,
    },
    /// The arbiter observes that `by`'s flag has fallen (6.8); a player's claim of the
    /// opponent's flag is [`ClaimKind::Flag`].
    Flag {
        /// Whose flag.
        by: Color,
    },
    /// The arbiter acts.
    Arbiter(ArbiterAction),
}

/// What a player claims.
#[derive(Clone, Debug, PartialEq)]
pub enum ClaimKind {
    /// A draw by threefold repetition (9.2), with the written move the claimant intends to play
    /// (9.2.1.1) or about the position on the board (9.2.1.2).
    Threefold(Option<MoveText>),
    /// A draw by the fifty-move rule (9.3), with the written move (9.3.1) or without (9.3.2).
    Fifty(Option<MoveText>),
    /// The opponent's last move broke touch-move (4.3 to 4.7).
    TouchMove,
    /// The opponent's flag has fallen (6.8, A.5.3).
    Flag,
    /// The opponent's last move was illegal (A.5.2: before completing one's own next move).
    IllegalMove,
}

impl ClaimKind {
    /// A stable name: `threefold`, `fifty`, `touch_move`, `flag`, `illegal_move`.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            ClaimKind::Threefold(_) => "threefold",
            ClaimKind::Fifty(_) => "fifty",
            ClaimKind::TouchMove => "touch_move",
            ClaimKind::Flag => "flag",
            ClaimKind::IllegalMove => "illegal_move",
        }
    }
}

/// What the arbiter does of their own accord.
#[derive(Clone, Debug, PartialEq)]
pub enum ArbiterAction {
    /// Adds time to a player's clock (7.1 best judgement, 12.9.2).
    AddTime {
        /// Whose clock.
        player: Color,
        /// How much, in milliseconds.
        ms: u64,
    },
    /// Warns a player (12.9.1).
    Warning {
        /// Who.
        player: Color,
    },
    /// The arbiter sees that `player`'s last move was illegal (7.5.1; A.5.2 before the reply).
    IllegalMove {
        /// Who made it.
        player: Color,
    },
    /// The game was found to have started with colours reversed (7.3).
    ColoursReversed,
    /// The initial position was found to be wrong (7.2.1, A.5.1.2). `misplaced`: the square of
    /// the king or rook that stood wrongly, if one did (A.5.1.2 then forbids castling with it).
    WrongSetup {
        /// The square of the misplaced king or rook, now.
        misplaced: Option<Square>,
    },
    /// The arbiter declares a result (for example 11.8 both lose, 12.9 loss of the game).
    Declare {
        /// The result.
        result: GameResult,
        /// The article applied (12.9 when not given).
        article: Option<Article>,
    },
}

/// A move as written in the log: SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`) or UCI (`g1f3`, `e7e8q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveText {
    /// Standard algebraic notation.
    San(SanPlus),
    /// UCI long algebraic notation.
    Uci(UciMove),
}

/// A move text that is neither SAN nor UCI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a move in SAN or UCI: {0}")]
pub struct ParseMoveTextError(pub ParseSanError);

impl FromStr for MoveText {
    type Err = ParseMoveTextError;

    /// UCI when the text has UCI's shape (`e2e4`, `e7e8q`, `0000`), SAN otherwise. A pawn move
    /// to the last rank without the new piece (`e8`, `exd8+`) is read as written, although SAN
    /// does not allow it: it is what a player who did not exchange the pawn made (7.5.2).
    fn from_str(s: &str) -> Result<MoveText, ParseMoveTextError> {
        if let Ok(uci) = UciMove::from_ascii(s.as_bytes()) {
            return Ok(MoveText::Uci(uci));
        }
        match SanPlus::from_ascii(s.as_bytes()) {
            Ok(san) => Ok(MoveText::San(san)),
            Err(e) if e.kind == ParseSanErrorKind::MissingPromotion => {
                let body = s.trim_end_matches(['+', '#', '!', '?']);
                let mut san = SanPlus::from_ascii(format!("{body}=Q").as_bytes())
                    .map_err(|_| ParseMoveTextError(e))?;
                if let San::Normal { promotion, .. } = &mut san.san {
                    *promotion = None;
                }
                Ok(MoveText::San(san))
            }
            Err(e) => Err(ParseMoveTextError(e)),
        }
    }
}

/// With the `serde` feature, a move text is its text (`"Nf3"`, `"g1f3"`).
#[cfg(feature = "serde")]
impl serde::Serialize for MoveText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for MoveText {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<MoveText, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for MoveText {
    /// The text as read back: SAN as [`SanPlus`] writes it, except a pawn move written with its
    /// origin square (`f2f4`), which would read as UCI, gets a hyphen (`f2-f4`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveText::San(san) => {
                let text = san.to_string();
                match text.split_at_checked(2) {
                    Some((from, to)) if UciMove::from_ascii(text.as_bytes()).is_ok() => {
                        write!(f, "{from}-{to}")
                    }
                    _ => f.write_str(&text),
                }
            }
            MoveText::Uci(uci) => uci.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_texts_read_back_as_themselves() {
        // A SAN pawn move with its origin (found by fuzzing: `f1f1!` was written `f1f1`, which
        // reads as UCI) is written with a hyphen.
        for (text, written) in [
            ("f1f1!", "f1-f1"),
            ("e2e4", "e2e4"),
            ("e2-e4", "e2-e4"),
            ("Ng1f3", "Ng1f3"),
            ("e7e8q", "e7e8q"),
            ("e8", "e8"),
            ("exd5+", "exd5+"),
        ] {
            let mv: MoveText = text.parse().unwrap();
            assert_eq!(mv.to_string(), written, "{text}");
            assert_eq!(written.parse::<MoveText>(), Ok(mv), "{text}");
        }
    }
}
