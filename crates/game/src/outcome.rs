//! How a game ended: [`Outcome`] = [`GameResult`] + [`Reason`] + [`Article`].

use core::fmt;
use core::str::FromStr;

use caissa_board::Color;

/// The result of a game, as the Laws score it (Articles 5, 10.1, 11.8, and the arbiter's
/// replays under 7.2/7.3).
///
/// The game layer only produces [`WhiteWins`](GameResult::WhiteWins),
/// [`BlackWins`](GameResult::BlackWins) and [`Draw`](GameResult::Draw); the other two are for
/// arbiter decisions.
///
/// Its text form (`Display`, `FromStr`, and serde with the feature) is [`GameResult::as_str`]'s:
/// `"1-0"`, `"0-1"`, `"1/2-1/2"`, `"0-0"`, `"*"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White wins: 1-0.
    WhiteWins,
    /// Black wins: 0-1.
    BlackWins,
    /// Draw: ½-½.
    Draw,
    /// Both players lose, 0-0 (11.8: persistent refusal to comply with the Laws).
    BothLose,
    /// No result: the game is annulled and replayed (7.2.1, 7.3).
    Cancelled,
}

impl GameResult {
    /// A win for `color`.
    #[must_use]
    pub const fn win(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The winner, for a decisive result.
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::BothLose | GameResult::Cancelled => None,
        }
    }

    /// `color`'s score in half points (win 2, draw 1, loss 0), or `None` for a cancelled game.
    #[must_use]
    pub fn half_points(self, color: Color) -> Option<u8> {
        match self {
            GameResult::Draw => Some(1),
            GameResult::BothLose => Some(0),
            GameResult::Cancelled => None,
            GameResult::WhiteWins | GameResult::BlackWins => {
                Some(if self.winner() == Some(color) { 2 } else { 0 })
            }
        }
    }

    /// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`; `0-0` for
    /// [`BothLose`](GameResult::BothLose) (PGN has no token for it) and `*` for
    /// [`Cancelled`](GameResult::Cancelled).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::BothLose => "0-0",
            GameResult::Cancelled => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A text that is not a game result (`1-0`, `0-1`, `1/2-1/2`, `0-0`, `*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("expected a result: 1-0, 0-1, 1/2-1/2, 0-0 or *")]
pub struct ParseGameResultError;

impl FromStr for GameResult {
    type Err = ParseGameResultError;

    /// Reads what [`GameResult::as_str`] writes (and `½-½` for a draw).
    fn from_str(s: &str) -> Result<GameResult, ParseGameResultError> {
        Ok(match s {
            "1-0" => GameResult::WhiteWins,
            "0-1" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" => GameResult::Draw,
            "0-0" => GameResult::BothLose,
            "*" => GameResult::Cancelled,
            _ => return Err(ParseGameResultError),
        })
    }
}

/// Serialises a type as its `Display` text and reads it back with `FromStr`.
#[cfg(feature = "serde")]
macro_rules! serde_as_text {
    ($type:ty) => {
        impl serde::Serialize for $type {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> Result<$type, D::Error> {
                let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
                text.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

#[cfg(feature = "serde")]
serde_as_text!(GameResult);
#[cfg(feature = "serde")]
serde_as_text!(Reason);
#[cfg(feature = "serde")]
serde_as_text!(Article);

/// Why a game ended.
///
/// The game layer decides the automatic endings (checkmate, stalemate, dead position, fivefold
/// repetition, seventy-five moves) and checks claims (threefold repetition, fifty moves); the
/// other reasons are for the arbitration layer.
///
/// Its text form (`Display`, `FromStr`, and serde with the feature) is [`Reason::name`]'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// The side to move is checkmated (5.1.1).
    Checkmate,
    /// A player resigned (5.1.2; a draw if the opponent could not have won).
    Resignation,
    /// The side to move is stalemated (5.2.1).
    Stalemate,
    /// Neither player can checkmate by any series of legal moves (5.2.2).
    DeadPosition,
    /// The players agreed to a draw (5.2.3).
    Agreement,
    /// A player did not complete the prescribed moves in time (6.9; a draw if the opponent could
    /// not have won).
    TimeForfeit,
    /// A player arrived after the default time (6.7).
    Default,
    /// A player's second completed illegal move (7.5.5).
    IllegalMoves,
    /// A correct threefold repetition claim (9.2).
    ThreefoldRepetition,
    /// A correct fifty-move claim (9.3).
    FiftyMoves,
    /// The same position for the fifth time (9.6.1).
    FivefoldRepetition,
    /// Seventy-five moves by each player without a pawn move or a capture (9.6.2).
    SeventyFiveMoves,
    /// Any other decision of the arbiter (for example 11.8 or 12.9).
    ArbiterDecision,
}

impl Reason {
    /// The article of the Laws (2023 text) this reason usually comes from.
    ///
    /// Claims name their sub-article (9.2.1.1 or 9.2.1.2, 9.3.1 or 9.3.2) in their own
    /// [`Outcome`]; this is the article of the rule as a whole.
    #[must_use]
    pub const fn article(self) -> Article {
        match self {
            Reason::Checkmate => Article::CHECKMATE,
            Reason::Resignation => Article::RESIGNATION,
            Reason::Stalemate => Article::STALEMATE,
            Reason::DeadPosition => Article::DEAD_POSITION,
            Reason::Agreement => Article::AGREEMENT,
            Reason::TimeForfeit => Article::TIME_FORFEIT,
            Reason::Default => Article::DEFAULT,
            Reason::IllegalMoves => Article::ILLEGAL_MOVES,
            Reason::ThreefoldRepetition => Article::THREEFOLD,
            Reason::FiftyMoves => Article::FIFTY_MOVES,
            Reason::FivefoldRepetition => Article::FIVEFOLD,
            Reason::SeventyFiveMoves => Article::SEVENTY_FIVE_MOVES,
            Reason::ArbiterDecision => Article::PENALTIES,
        }
    }

    /// A stable lowercase name with underscores, for scripts: `checkmate`, `stalemate`,
    /// `dead_position`, `fivefold_repetition`, `seventy_five_moves`, `threefold_repetition`,
    /// `fifty_moves`, …
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Resignation => "resignation",
            Reason::Stalemate => "stalemate",
            Reason::DeadPosition => "dead_position",
            Reason::Agreement => "agreement",
            Reason::TimeForfeit => "time_forfeit",
            Reason::Default => "default",
            Reason::IllegalMoves => "illegal_moves",
            Reason::ThreefoldRepetition => "threefold_repetition",
            Reason::FiftyMoves => "fifty_moves",
            Reason::FivefoldRepetition => "fivefold_repetition",
            Reason::SeventyFiveMoves => "seventy_five_moves",
            Reason::ArbiterDecision => "arbiter_decision",
        }
    }
}

impl Reason {
    /// Every reason, in declaration order.
    pub const ALL: [Reason; 13] = [
        Reason::Checkmate,
        Reason::Resignation,
        Reason::Stalemate,
        Reason::DeadPosition,
        Reason::Agreement,
        Reason::TimeForfeit,
        Reason::Default,
        Reason::IllegalMoves,
        Reason::ThreefoldRepetition,
        Reason::FiftyMoves,
        Reason::FivefoldRepetition,
        Reason::SeventyFiveMoves,
        Reason::ArbiterDecision,
    ];
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that is not the [`Reason::name`] of a reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("expected a reason such as checkmate, time_forfeit or fifty_moves")]
pub struct ParseReasonError;

impl FromStr for Reason {
    type Err = ParseReasonError;

    fn from_str(s: &str) -> Result<Reason, ParseReasonError> {
        Reason::ALL
            .into_iter()
            .find(|reason| reason.name() == s)
            .ok_or(ParseReasonError)
    }
}

/// How a game ended: the result, the reason, and the article of the Laws that applies.
///
/// `Display` and `FromStr`: `1-0 (checkmate, 5.1.1)`; serde (with the feature): an object
/// `{"result": "1-0", "reason": "checkmate", "article": "5.1.1"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// The score.
    pub result: GameResult,
    /// Why.
    pub reason: Reason,
    /// The article of the FIDE Laws of Chess (2023) that decides it.
    pub article: Article,
}

impl Outcome {
    /// An outcome citing the reason's usual article ([`Reason::article`]).
    #[must_use]
    pub const fn new(result: GameResult, reason: Reason) -> Outcome {
        Outcome {
            result,
            reason,
            article: reason.article(),
        }
    }

    /// A draw for `reason`, citing its usual article.
    #[must_use]
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome::new(GameResult::Draw, reason)
    }
}

impl fmt::Display for Outcome {
    /// `1-0 (checkmate, 5.1.1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}, {})", self.result, self.reason, self.article)
    }
}

/// A text that is not an outcome as [`Outcome`]'s `Display` writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseOutcomeError {
    /// Not `RESULT (REASON, ARTICLE)`.
    #[error("expected an outcome such as 1-0 (checkmate, 5.1.1)")]
    Shape,
    /// The result.
    #[error(transparent)]
    Result(#[from] ParseGameResultError),
    /// The reason.
    #[error(transparent)]
    Reason(#[from] ParseReasonError),
    /// The article.
    #[error(transparent)]
    Article(#[from] ParseArticleError),
}

impl FromStr for Outcome {
    type Err = ParseOutcomeError;

    /// Reads what `Display` writes: `1-0 (checkmate, 5.1.1)`.
    fn from_str(s: &str) -> Result<Outcome, ParseOutcomeError> {
        let (result, rest) = s.split_once(" (").ok_or(ParseOutcomeError::Shape)?;
        let inner = rest.strip_suffix(')').ok_or(ParseOutcomeError::Shape)?;
        let (reason, article) = inner.split_once(", ").ok_or(ParseOutcomeError::Shape)?;
        Ok(Outcome {
            result: result.parse()?,
            reason: reason.parse()?,
            article: article.parse()?,
        })
    }
}

/// The number of an article of the FIDE Laws of Chess, such as `5.1.1`, `9.2.1.1`, `A.5.3` or
/// `III.3.1`: up to [`Article::MAX_LEN`] bytes, dot-separated groups of digits or capital
/// letters. `Copy`, stored inline.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Article {
    bytes: [u8; Article::MAX_LEN],
    len: u8,
}

/// Why a text is not an article number; `byte` is the offset of the problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("invalid article number: byte {byte}: {problem}")]
pub struct ParseArticleError {
    /// The byte offset where the text stops being an article number.
    pub byte: usize,
    /// What is wrong there.
    pub problem: &'static str,
}

impl Article {
    /// The longest article number, in bytes.
    pub const MAX_LEN: usize = 8;

    /// 5.1.1: checkmate.
    pub const CHECKMATE: Article = Article::constant("5.1.1");
    /// 5.1.2: resignation.
    pub const RESIGNATION: Article = Article::constant("5.1.2");
    /// 5.2.1: stalemate.
    pub const STALEMATE: Article = Article::constant("5.2.1");
    /// 5.2.2: dead position.
    pub const DEAD_POSITION: Article = Article::constant("5.2.2");
    /// 5.2.3: draw by agreement.
    pub const AGREEMENT: Article = Article::constant("5.2.3");
    /// 6.7: default time.
    pub const DEFAULT: Article = Article::constant("6.7");
    /// 6.9: time forfeit.
    pub const TIME_FORFEIT: Article = Article::constant("6.9");
    /// 7.5.5: the second completed illegal move.
    pub const ILLEGAL_MOVES: Article = Article::constant("7.5.5");
    /// 9.2: threefold repetition, the rule as a whole.
    pub const THREEFOLD: Article = Article::constant("9.2");
    /// 9.2.1.1: threefold repetition about to appear with the claimant's written move.
    pub const THREEFOLD_INTENDED: Article = Article::constant("9.2.1.1");
    /// 9.2.1.2: threefold repetition that has just appeared.
    pub const THREEFOLD_ON_BOARD: Article = Article::constant("9.2.1.2");
    /// 9.3: the fifty-move rule as a whole.
    pub const FIFTY_MOVES: Article = Article::constant("9.3");
    /// 9.3.1: fifty moves completed by the claimant's written move.
    pub const FIFTY_MOVES_INTENDED: Article = Article::constant("9.3.1");
    /// 9.3.2: fifty moves already completed.
    pub const FIFTY_MOVES_ON_BOARD: Article = Article::constant("9.3.2");
    /// 9.6.1: fivefold repetition.
    pub const FIVEFOLD: Article = Article::constant("9.6.1");
    /// 9.6.2: seventy-five moves.
    pub const SEVENTY_FIVE_MOVES: Article = Article::constant("9.6.2");
    /// 12.9: the arbiter's penalties.
    pub const PENALTIES: Article = Article::constant("12.9");

    /// Reads an article number.
    ///
    /// # Errors
    ///
    /// [`ParseArticleError`] for an empty or overlong text, an empty group (`5..1`, `.5`,
    /// `5.`), or a byte other than a digit, a capital letter or a dot.
    pub const fn parse(text: &str) -> Result<Article, ParseArticleError> {
        let input = text.as_bytes();
        if input.is_empty() {
            return Err(ParseArticleError {
                byte: 0,
                problem: "empty",
            });
        }
        if input.len() > Article::MAX_LEN {
            return Err(ParseArticleError {
                byte: Article::MAX_LEN,
                problem: "too long",
            });
        }
        let mut bytes = [0; Article::MAX_LEN];
        let mut i = 0;
        while i < input.len() {
            let b = input[i];
            if b == b'.' {
                if i == 0 || input[i - 1] == b'.' || i + 1 == input.len() {
                    return Err(ParseArticleError {
                        byte: i,
                        problem: "empty group",
                    });
                }
            } else if !b.is_ascii_digit() && !b.is_ascii_uppercase() {
                return Err(ParseArticleError {
                    byte: i,
                    problem: "expected a digit, a capital letter or a dot",
                });
            }
            bytes[i] = b;
            i += 1;
        }
        Ok(Article {
            bytes,
            #[allow(clippy::cast_possible_truncation)] // at most MAX_LEN
            len: input.len() as u8,
        })
    }

    /// A constant article number.
    ///
    /// # Panics
    ///
    /// If `text` is not an article number (at compile time, in a `const`).
    #[must_use]
    pub const fn constant(text: &str) -> Article {
        match Article::parse(text) {
            Ok(article) => article,
            Err(_) => panic!("not an article number"),
        }
    }

    /// The number as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(&self.bytes[..usize::from(self.len)]).expect("parse admits ASCII only")
    }
}

impl fmt::Display for Article {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Article {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Article({})", self.as_str())
    }
}

impl FromStr for Article {
    type Err = ParseArticleError;

    fn from_str(s: &str) -> Result<Article, ParseArticleError> {
        Article::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_reasons_and_outcomes_read_what_they_write() {
        for result in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::BothLose,
            GameResult::Cancelled,
        ] {
            assert_eq!(result.to_string().parse(), Ok(result));
        }
        assert_eq!("½-½".parse(), Ok(GameResult::Draw));
        assert_eq!("1-1".parse::<GameResult>(), Err(ParseGameResultError));
        for reason in Reason::ALL {
            assert_eq!(reason.to_string().parse(), Ok(reason));
            let outcome = Outcome::new(GameResult::Draw, reason);
            assert_eq!(outcome.to_string().parse(), Ok(outcome));
        }
        assert_eq!("Checkmate".parse::<Reason>(), Err(ParseReasonError));
        let mate: Outcome = "0-1 (checkmate, 5.1.1)".parse().unwrap();
        assert_eq!(mate, Outcome::new(GameResult::BlackWins, Reason::Checkmate));
        for (text, error) in [
            ("0-1", ParseOutcomeError::Shape),
            ("0-1 (checkmate 5.1.1)", ParseOutcomeError::Shape),
            ("2-0 (checkmate, 5.1.1)", ParseGameResultError.into()),
            ("0-1 (mate, 5.1.1)", ParseReasonError.into()),
        ] {
            assert_eq!(text.parse::<Outcome>(), Err(error), "{text}");
        }
        assert!(matches!(
            "0-1 (checkmate, 5..1)".parse::<Outcome>(),
            Err(ParseOutcomeError::Article(_))
        ));
    }

    #[test]
    fn article_numbers_parse_and_print() {
        for text in ["5.1.1", "9.2.1.1", "A.5.3", "III.3.1", "12.9", "9"] {
            assert_eq!(Article::parse(text).map(|a| a.to_string()), Ok(text.into()));
        }
        let bad = [
            ("", 0),
            (".5", 0),
            ("5.", 1),
            ("5..1", 2),
            ("5.1a", 3),
            ("9.2.1.1.1", 8),
        ];
        for (text, byte) in bad {
            assert_eq!(
                Article::parse(text).map_err(|e| e.byte),
                Err(byte),
                "{text}"
            );
        }
        assert_eq!(format!("{:?}", Article::FIVEFOLD), "Article(9.6.1)");
    }

    #[test]
    fn results_score_and_print() {
        assert_eq!(GameResult::win(Color::Black), GameResult::BlackWins);
        assert_eq!(GameResult::WhiteWins.half_points(Color::White), Some(2));
        assert_eq!(GameResult::WhiteWins.half_points(Color::Black), Some(0));
        assert_eq!(GameResult::Draw.half_points(Color::Black), Some(1));
        assert_eq!(GameResult::BothLose.half_points(Color::White), Some(0));
        assert_eq!(GameResult::Cancelled.half_points(Color::White), None);
        let texts: Vec<_> = [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
            GameResult::BothLose,
            GameResult::Cancelled,
        ]
        .map(|r| r.to_string())
        .into();
        assert_eq!(texts, ["1-0", "0-1", "1/2-1/2", "0-0", "*"]);
        let mate = Outcome::new(GameResult::WhiteWins, Reason::Checkmate);
        assert_eq!(mate.to_string(), "1-0 (checkmate, 5.1.1)");
        assert_eq!(
            Outcome::draw(Reason::SeventyFiveMoves).to_string(),
            "1/2-1/2 (seventy_five_moves, 9.6.2)"
        );
    }
}
