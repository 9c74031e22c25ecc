//! What the arbiter decided: every ruling with its article, the penalties, and the result.

use core::fmt;
use std::borrow::Cow;

use caissa_board::{ByColor, Color};
use caissa_game::{Article, Outcome};

use crate::events::MoveText;

/// One decision of the arbiter, with the article of the Laws that makes it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Decision {
    /// The index of the event that led to it, in the log (from 0).
    pub event: usize,
    /// When.
    pub t_ms: u64,
    /// The player it concerns (the offender, the claimant, the one who offered...), if one.
    pub player: Option<Color>,
    /// What was decided.
    pub ruling: Ruling,
    /// The article of the FIDE Laws of Chess (2023) applied.
    pub article: Article,
}

/// What the arbiter decided.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Ruling {
    /// The game is over.
    GameOver(Outcome),
    /// A completed illegal move: the position before it is reinstated (7.5.1), and it is the
    /// player's `count`th (7.5.5).
    IllegalMove {
        /// The move as written.
        mv: MoveText,
        /// The player's penalised illegal moves so far, this one included.
        count: u32,
    },
    /// Illegal input refused by the server; the move never entered the game.
    IllegalMoveRefused {
        /// The move as written.
        mv: MoveText,
    },
    /// An illegal move that nobody claimed before the opponent's reply stands (A.5.2).
    IllegalMoveStands {
        /// The move as written.
        mv: MoveText,
    },
    /// A pawn left on the last rank is made a queen, and the move counts as illegal (7.5.2).
    UnfinishedPromotion {
        /// The move as written.
        mv: MoveText,
        /// The player's penalised illegal moves so far, this one included.
        count: u32,
    },
    /// The clock was pressed without a move: penalised as an illegal move (7.5.3).
    PressWithoutMove {
        /// The player's penalised illegal moves so far, this one included.
        count: u32,
    },
    /// Two hands were used for one move: penalised as an illegal move (7.5.4).
    TwoHands {
        /// The move as written.
        mv: MoveText,
        /// The player's penalised illegal moves so far, this one included.
        count: u32,
    },
    /// A move that breaks touch-move is not accepted (Article 4); one of `allowed` must be
    /// played.
    TouchMove {
        /// The move as written (or taken back on the opponent's claim).
        mv: MoveText,
        /// The moves Article 4 allows, in SAN.
        allowed: Vec<String>,
    },
    /// A claim the arbiter does not entertain (no penalty).
    ClaimRefused {
        /// `threefold`, `fifty`, `touch_move`, `flag`, `illegal_move`.
        claim: Cow<'static, str>,
        /// Why.
        why: Cow<'static, str>,
    },
    /// An incorrect draw claim: time to the opponent (9.5.3); it stands as a draw offer
    /// (9.1.2.3).
    ClaimIncorrect {
        /// `threefold` or `fifty`.
        claim: Cow<'static, str>,
        /// The written move, which must now be played (9.5.3).
        must_play: Option<String>,
    },
    /// A draw offer, pending until answered (9.1.2.1).
    DrawOffered {
        /// Whether it was made at the proper time: after making a move and before (or with)
        /// the press (9.1.2.1; an offer at another time is valid, but see 11.5).
        proper_time: bool,
    },
    /// A draw offer not allowed.
    DrawOfferRefused {
        /// Why.
        why: Cow<'static, str>,
    },
    /// The pending offer is declined (orally, by touching a piece, or by a move).
    DrawDeclined,
    /// An offer cannot be withdrawn: it stays pending (9.1.2.1).
    OfferStands,
    /// An acceptance that does not end the game.
    AgreementRefused {
        /// Why.
        why: Cow<'static, str>,
    },
    /// A flag observation or claim while the flag has not fallen.
    FlagNotFallen,
    /// Both flags have fallen and it cannot be told which fell first: the game continues in a
    /// period that is not the last (III.3.1).
    BothFlagsContinue,
    /// The arbiter added time to the player's clock.
    TimeAdded {
        /// Milliseconds added.
        ms: u64,
    },
    /// A warning.
    Warning,
    /// A player other than the one having the move adjusted a piece.
    IrregularAdjustment,
    /// Colours were reversed, found after ten moves each: the game continues (7.3).
    ColoursReversedContinue,
    /// A wrong initial position found after ten moves each without supervision: the game
    /// continues (A.5.1.2); castling with the misplaced king or rook is forbidden.
    WrongSetupContinue {
        /// Whether castling rights were removed.
        castling_forbidden: bool,
    },
}

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ruling::GameOver(outcome) => write!(f, "game over: {outcome}"),
            Ruling::IllegalMove { mv, count } => write!(
                f,
                "illegal move {mv} (number {count}): the position before it is reinstated"
            ),
            Ruling::IllegalMoveRefused { mv } => write!(f, "illegal move {mv} refused"),
            Ruling::IllegalMoveStands { mv } => {
                write!(
                    f,
                    "illegal move {mv} not claimed before the reply: it stands"
                )
            }
            Ruling::UnfinishedPromotion { mv, count } => write!(
                f,
                "pawn left on the last rank by {mv} (illegal move number {count}): it becomes a queen"
            ),
            Ruling::PressWithoutMove { count } => write!(
                f,
                "clock pressed without a move (illegal move number {count})"
            ),
            Ruling::TwoHands { mv, count } => {
                write!(f, "{mv} made with two hands (illegal move number {count})")
            }
            Ruling::TouchMove { mv, allowed } => write!(
                f,
                "{mv} breaks touch-move: must play one of {}",
                allowed.join(" ")
            ),
            Ruling::ClaimRefused { claim, why } => write!(f, "{claim} claim refused: {why}"),
            Ruling::ClaimIncorrect { claim, must_play } => {
                write!(f, "incorrect {claim} claim: it stands as a draw offer")?;
                match must_play {
                    Some(mv) => write!(f, "; the written move {mv} must be played"),
                    None => Ok(()),
                }
            }
            Ruling::DrawOffered { proper_time: true } => f.write_str("draw offered"),
            Ruling::DrawOffered { proper_time: false } => {
                f.write_str("draw offered, not after making a move (valid; 11.5 may apply)")
            }
            Ruling::DrawOfferRefused { why } => write!(f, "draw offer refused: {why}"),
            Ruling::DrawDeclined => f.write_str("draw offer declined"),
            Ruling::OfferStands => f.write_str("a draw offer cannot be withdrawn: it stands"),
            Ruling::AgreementRefused { why } => write!(f, "draw agreement refused: {why}"),
            Ruling::FlagNotFallen => f.write_str("the flag has not fallen"),
            Ruling::BothFlagsContinue => f.write_str(
                "both flags fallen, order unknown, not the last period: the game continues",
            ),
            Ruling::TimeAdded { ms } => write!(f, "{ms} ms added"),
            Ruling::Warning => f.write_str("warning"),
            Ruling::IrregularAdjustment => {
                f.write_str("piece adjusted by the player not having the move")
            }
            Ruling::ColoursReversedContinue => {
                f.write_str("colours reversed, found after ten moves each: the game continues")
            }
            Ruling::WrongSetupContinue { castling_forbidden } => {
                f.write_str("wrong set-up found after ten moves each: the game continues")?;
                if *castling_forbidden {
                    f.write_str("; no castling with the misplaced piece")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Decision {
    /// `#12 t=65000 white 7.5.5: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} t={}", self.event, self.t_ms)?;
        if let Some(player) = self.player {
            write!(f, " {}", player.name())?;
        }
        write!(f, " [{}] {}", self.article, self.ruling)
    }
}

/// Time given to a player's opponent for an offence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Penalty {
    /// The index of the event that led to it.
    pub event: usize,
    /// When.
    pub t_ms: u64,
    /// Who offended; the opponent gets the time.
    pub offender: Color,
    /// Milliseconds added to the opponent's clock.
    pub ms: u64,
    /// The article applied.
    pub article: Article,
}

impl fmt::Display for Penalty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "#{} t={} [{}] {} ms to {} for {}'s offence",
            self.event,
            self.t_ms,
            self.article,
            self.ms,
            (!self.offender).name(),
            self.offender.name()
        )
    }
}

/// Something the arbiter noticed that is not a decision: an event with no effect.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Note {
    /// The index of the event.
    pub event: usize,
    /// When.
    pub t_ms: u64,
    /// What.
    pub text: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} t={} {}", self.event, self.t_ms, self.text)
    }
}

/// Everything the arbiter decided about a game.
///
/// With the `serde` feature the verdict and its parts serialise and read back (snake-case names;
/// rulings as `{"illegal_move": {"mv": "e5", "count": 1}}`), for a server to show or archive.
/// A verdict also follows from its event log, which is what a server need keep
/// ([`Event`](crate::Event) reads and writes the log's lines): [`replay`](crate::replay)
/// gives it again. [`json::verdict_to_json`](crate::json::verdict_to_json) writes the shape
/// `caissa arbitrate` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Verdict {
    /// The result, reason and article, or `None` while the game goes on.
    pub outcome: Option<Outcome>,
    /// When the game ended.
    pub ended_at_ms: Option<u64>,
    /// Every decision, in order.
    pub decisions: Vec<Decision>,
    /// Every penalty time given, in order.
    pub penalties: Vec<Penalty>,
    /// Events that had no effect, and why.
    pub notes: Vec<Note>,
    /// Penalised illegal moves per player (7.5.5).
    pub illegal_moves: ByColor<u32>,
    /// Each player's time at the end (or at the last event), `None` without a clock.
    pub clock_ms: Option<ByColor<u64>>,
    /// The game in PGN.
    pub pgn: String,
}

impl fmt::Display for Verdict {
    /// A report for people: the result, the clocks, the decisions, penalties and notes, and
    /// the PGN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Some(outcome) => writeln!(f, "result: {outcome}")?,
            None => writeln!(f, "result: * (the game goes on)")?,
        }
        if let Some(t) = self.ended_at_ms {
            writeln!(f, "ended at: {t} ms")?;
        }
        if let Some(clock) = self.clock_ms {
            writeln!(
                f,
                "clock: white {} ms, black {} ms",
                clock.white, clock.black
            )?;
        }
        writeln!(
            f,
            "illegal moves: white {}, black {}",
            self.illegal_moves.white, self.illegal_moves.black
        )?;
        for (title, lines) in [
            (
                "decisions",
                self.decisions
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>(),
            ),
            (
                "penalties",
                self.penalties.iter().map(ToString::to_string).collect(),
            ),
            (
                "notes",
                self.notes.iter().map(ToString::to_string).collect(),
            ),
        ] {
            if !lines.is_empty() {
                writeln!(f, "{title}:")?;
                for line in lines {
                    writeln!(f, "  {line}")?;
                }
            }
        }
        f.write_str(&self.pgn)
    }
}
