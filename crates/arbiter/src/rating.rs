//! Ratings: FIDE Elo (Rating Regulations of 1 March 2024, with the 1 October 2025 amendment) and
//! a club points scheme.
//!
//! # FIDE
//!
//! - [`expected_score`]: the normative table 8.1.2 (not the logistic curve it approximates), with
//!   the 400-point rule: a difference above 400 counts as 400 for a player rated below 2650.
//! - [`k_factor`]: 40 for a new player until 30 games, and for juniors (until the end of the year
//!   of their 18th birthday) rated below 2300; 20 below 2400; 10 once 2400 was reached. When
//!   `K × games > 700` in one period, K becomes the largest whole number with `K × games ≤ 700`.
//! - [`rating_change`]: the sum over a period's games of `K × (score − expected)`, rounded to a
//!   whole number (halves away from zero). Rapid and blitz games between players 600 or more
//!   points apart are not rated if either is rated above 2600 ([`is_rated_game`]).
//! - [`performance_rating`]: the average opponent rating plus `dp` from table 8.1.1 for the score
//!   fraction rounded to two decimals.
//!
//! # Club points
//!
//! [`club_points_change`] implements the ladder scheme of rules-spec section 12 exactly: points
//! have two decimals ([`Points`]), the bands' fractions of the gap are computed without loss and
//! the change is rounded once, to the hundredth (halves away from zero); zero-sum, bands on the
//! gap between the players' points. The higher side's win in the 10–99 band is `10 − gap/12.5`
//! by default, the fuller source's reading (it joins the next band at gap 100);
//! [`ClubDivisor::Ten`] selects the brief's `10 − gap/10`.
//!
//! # Reports
//!
//! [`elo_report`] and [`club_report`] compute everything `caissa rate` prints, from validated
//! inputs ([`MAX_RATING`], [`MAX_K`], [`MAX_CLUB_POINTS`]); [`parse_games`], [`Points`],
//! [`GameScore`] and [`ClubDivisor`] read the text forms.
//!
//! ```
//! use caissa_arbiter::rating::{GameScore, KFactorInputs, RatedSpeed, elo_report, parse_games};
//!
//! let games = parse_games("1900:1 1600:0.5")?;
//! let player = KFactorInputs { rating: 1500, games_played: 100, ..KFactorInputs::default() };
//! let report = elo_report(player, Some(40), &games, RatedSpeed::Standard)?;
//! assert_eq!((report.change, report.new_rating, report.performance), (42, 1542, 1943));
//! assert_eq!(report.games[0].change.to_string(), "36.8");
//! assert_eq!(report.games[1].score, GameScore::Draw);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;

/// Upper bounds of |D| for each expected score from 0.50 to 0.99 (table 8.1.2); above the last,
/// 1.00.
const PD_TABLE: [u32; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162,
    170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374,
    391, 411, 432, 456, 484, 517, 559, 619, 735,
];

/// `dp` for p = 0.50, 0.51, … 1.00 (table 8.1.1).
const DP_TABLE: [i32; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// The rating at and above which the 400-point rule no longer applies.
const NO_CAP_FROM: u32 = 2650;

/// The game's rate of play, for the rules that differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RatedSpeed {
    /// Standard chess.
    Standard,
    /// Rapid or blitz.
    RapidOrBlitz,
}

/// A player's expected score, in hundredths (50 = 0.50), against an opponent, from table 8.1.2.
#[must_use]
pub fn expected_score(rating: u32, opponent: u32) -> u32 {
    let mut diff = rating.abs_diff(opponent);
    if rating < NO_CAP_FROM && diff > 400 {
        diff = 400;
    }
    let higher = PD_TABLE
        .iter()
        .position(|&bound| diff <= bound)
        .map_or(100, |i| 50 + i as u32);
    if rating >= opponent {
        higher
    } else {
        100 - higher
    }
}

/// What a player is, for the K-factor (8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct KFactorInputs {
    /// The player's rating.
    pub rating: u32,
    /// Rated games completed before this period.
    pub games_played: u32,
    /// Whether the period is before the end of the year of the player's 18th birthday.
    pub junior: bool,
    /// Whether the player's published rating has ever reached 2400.
    pub reached_2400: bool,
}

/// The K-factor for a player who plays `games_in_period` rated games in the period: 40, 20 or
/// 10, lowered to the largest whole number with `K × games` at most 700 (so 0 past 700 games:
/// the rating does not change).
#[must_use]
pub fn k_factor(player: KFactorInputs, games_in_period: u32) -> u32 {
    let k = if player.reached_2400 || player.rating >= 2400 {
        10
    } else if player.games_played < 30 || (player.junior && player.rating < 2300) {
        40
    } else {
        20
    };
    // (Compared without multiplying: `k * games` overflows past 107 million games.)
    if games_in_period > 0 && games_in_period > 700 / k {
        700 / games_in_period
    } else {
        k
    }
}

/// Whether a game between these ratings is rated (rapid and blitz: not if 600 or more points
/// apart with either player above 2600).
#[must_use]
pub fn is_rated_game(rating: u32, opponent: u32, speed: RatedSpeed) -> bool {
    !(speed == RatedSpeed::RapidOrBlitz
        && rating.abs_diff(opponent) >= 600
        && rating.max(opponent) > 2600)
}

/// A game's score for the player: 2 for a win, 1 for a draw, 0 for a loss (half points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    /// A win (1 point).
    Win,
    /// A draw (½ point).
    Draw,
    /// A loss (0 points).
    Loss,
}

impl GameScore {
    /// The score in hundredths of a point: 100, 50, 0.
    #[must_use]
    pub const fn hundredths(self) -> i64 {
        match self {
            GameScore::Win => 100,
            GameScore::Draw => 50,
            GameScore::Loss => 0,
        }
    }

    /// The word for it: `win`, `draw`, `loss`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameScore::Win => "win",
            GameScore::Draw => "draw",
            GameScore::Loss => "loss",
        }
    }
}

impl fmt::Display for GameScore {
    /// The score as a number: `1`, `0.5`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameScore::Win => "1",
            GameScore::Draw => "0.5",
            GameScore::Loss => "0",
        })
    }
}

/// A text that is not a game score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a score: 1, 0.5 (or =, ½, 1/2), 0, or win, draw, loss")]
pub struct ParseGameScoreError;

impl FromStr for GameScore {
    type Err = ParseGameScoreError;

    /// `1`, `1.0`, `win`; `0.5`, `.5`, `=`, `½`, `1/2`, `draw`; `0`, `0.0`, `loss`.
    fn from_str(s: &str) -> Result<GameScore, ParseGameScoreError> {
        match s {
            "1" | "1.0" | "win" => Ok(GameScore::Win),
            "0.5" | ".5" | "=" | "½" | "1/2" | "draw" => Ok(GameScore::Draw),
            "0" | "0.0" | "loss" => Ok(GameScore::Loss),
            _ => Err(ParseGameScoreError),
        }
    }
}

/// `n / d` rounded to the nearest whole number, halves away from zero (`d > 0`).
const fn round_div(n: i128, d: i128) -> i128 {
    if n < 0 {
        -((-n + d / 2) / d)
    } else {
        (n + d / 2) / d
    }
}

/// `value` as an `i64`, saturating (only sums over more games than memory holds could need it).
fn saturate(value: i128) -> i64 {
    i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
}

/// K × (score − expected) for one rated game, in hundredths of a rating point: exact.
fn game_change(rating: u32, k: u32, opponent: u32, score: GameScore) -> i64 {
    i64::from(k) * (score.hundredths() - i64::from(expected_score(rating, opponent)))
}

/// The rating change of a player rated `rating` with factor `k` over `games` (opponent rating,
/// score), rounded once to a whole number, halves away from zero. Unrated games count for
/// nothing.
#[must_use]
pub fn rating_change(rating: u32, k: u32, games: &[(u32, GameScore)], speed: RatedSpeed) -> i64 {
    let total: i128 = games
        .iter()
        .filter(|&&(opponent, _)| is_rated_game(rating, opponent, speed))
        .map(|&(opponent, score)| i128::from(game_change(rating, k, opponent, score)))
        .sum();
    saturate(round_div(total, 100))
}

/// The performance rating over `games` (opponent rating, score): the average opponent rating
/// (rounded) plus `dp` for the score fraction rounded to two decimals, in exact integer
/// arithmetic. `None` without games.
#[must_use]
pub fn performance_rating(games: &[(u32, GameScore)]) -> Option<i64> {
    let n = i128::try_from(games.len()).ok().filter(|&n| n > 0)?;
    let ratings: i128 = games.iter().map(|&(r, _)| i128::from(r)).sum();
    let points: i128 = games.iter().map(|&(_, s)| i128::from(s.hundredths())).sum();
    // p in hundredths, from 0 to 100.
    let p = round_div(points, n);
    let dp = DP_TABLE[usize::try_from((p - 50).unsigned_abs())
        .unwrap_or(50)
        .min(50)];
    let dp = if p >= 50 { dp } else { -dp };
    Some(saturate(round_div(ratings, n) + i128::from(dp)))
}

/// The highest rating [`elo_report`] accepts, for the player and the opponents: above any
/// rating ever published.
pub const MAX_RATING: u32 = 4000;

/// The highest K-factor [`elo_report`] accepts: K × games ≤ 700 (8.3.3) bounds every K the
/// regulations give (a K given as it is, rather than found by [`k_factor`], is not lowered).
pub const MAX_K: u32 = 700;

/// Inputs [`elo_report`] does not rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RatingError {
    /// The player's rating is above [`MAX_RATING`].
    #[error("rating {0} is above {MAX_RATING}")]
    Rating(u32),
    /// The opponent of game `game` (from 1) is rated above [`MAX_RATING`].
    #[error("game {game}: opponent rating {rating} is above {MAX_RATING}")]
    Opponent {
        /// The game, from 1.
        game: usize,
        /// The rating given.
        rating: u32,
    },
    /// A K-factor given as 0 or above [`MAX_K`].
    #[error("K-factor {0} is not from 1 to {MAX_K}")]
    K(u32),
    /// No games.
    #[error("no games given")]
    NoGames,
}

/// One game of an [`EloReport`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// The opponent's rating.
    pub opponent: u32,
    /// The player's score.
    pub score: GameScore,
    /// The expected score (table 8.1.2), or `None` for a game that is not rated.
    pub expected: Option<Points>,
    /// K × (score − expected), unrounded: the rounded sum of these is the change.
    pub change: Points,
}

/// A rating period under the FIDE regulations: what `caissa rate` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EloReport {
    /// The player's rating.
    pub rating: u32,
    /// The K-factor applied.
    pub k: u32,
    /// The player's score over all the games.
    pub score: Points,
    /// The sum of the expected scores of the rated games.
    pub expected: Points,
    /// The rating change: the games' changes summed and rounded once.
    pub change: i64,
    /// `rating + change`.
    pub new_rating: i64,
    /// The performance rating over all the games.
    pub performance: i64,
    /// Each game.
    pub games: Vec<GameLine>,
}

/// The report of a rating period for `player` over `games` (opponent rating, score), with the
/// K-factor `k` or, when `None`, the one [`k_factor`] gives.
///
/// # Errors
///
/// [`RatingError`] for a rating above [`MAX_RATING`], a K-factor `k` given outside 1 to
/// [`MAX_K`], or no games.
///
/// ```
/// use caissa_arbiter::rating::{GameScore, KFactorInputs, RatedSpeed, elo_report};
///
/// let player = KFactorInputs { rating: 1500, games_played: 50, junior: false, reached_2400: false };
/// // Past 700 games the K-factor is 0 (K × games may not pass 700): no change.
/// let games = vec![(1500, GameScore::Win); 701];
/// let report = elo_report(player, None, &games, RatedSpeed::Standard)?;
/// assert_eq!((report.k, report.change), (0, 0));
/// # Ok::<(), caissa_arbiter::rating::RatingError>(())
/// ```
pub fn elo_report(
    player: KFactorInputs,
    k: Option<u32>,
    games: &[(u32, GameScore)],
    speed: RatedSpeed,
) -> Result<EloReport, RatingError> {
    let rating = player.rating;
    if rating > MAX_RATING {
        return Err(RatingError::Rating(rating));
    }
    if let Some((i, &(opponent, _))) = games
        .iter()
        .enumerate()
        .find(|(_, (opponent, _))| *opponent > MAX_RATING)
    {
        return Err(RatingError::Opponent {
            game: i + 1,
            rating: opponent,
        });
    }
    let n = u32::try_from(games.len()).unwrap_or(u32::MAX);
    let k = match k {
        Some(k) if !(1..=MAX_K).contains(&k) => return Err(RatingError::K(k)),
        Some(k) => k,
        None => k_factor(player, n),
    };
    let performance = performance_rating(games).ok_or(RatingError::NoGames)?;
    let lines: Vec<GameLine> = games
        .iter()
        .map(|&(opponent, score)| {
            let rated = is_rated_game(rating, opponent, speed);
            GameLine {
                opponent,
                score,
                expected: rated
                    .then(|| Points::from_hundredths(expected_score(rating, opponent).into())),
                change: Points::from_hundredths(if rated {
                    game_change(rating, k, opponent, score)
                } else {
                    0
                }),
            }
        })
        .collect();
    let change = rating_change(rating, k, games, speed);
    let sum = |f: fn(&GameLine) -> i64| {
        Points::from_hundredths(saturate(lines.iter().map(|l| i128::from(f(l))).sum()))
    };
    Ok(EloReport {
        rating,
        k,
        score: sum(|l| l.score.hundredths()),
        expected: sum(|l| l.expected.map_or(0, Points::hundredths)),
        change,
        new_rating: i64::from(rating) + change,
        performance,
        games: lines,
    })
}

/// A number of points with up to two decimals, held exactly in hundredths: `550`, `-7.5`,
/// `2.08`. `Display` writes no more decimals than needed (and a `+` for a positive value with
/// `{:+}`); `FromStr` reads an optional `-` and up to two decimals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Points(i64);

impl Points {
    /// `hundredths` hundredths of a point.
    #[must_use]
    pub const fn from_hundredths(hundredths: i64) -> Points {
        Points(hundredths)
    }

    /// The value in hundredths of a point.
    #[must_use]
    pub const fn hundredths(self) -> i64 {
        self.0
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 {
            "-"
        } else if f.sign_plus() && self.0 > 0 {
            "+"
        } else {
            ""
        };
        let (whole, frac) = (self.0.unsigned_abs() / 100, self.0.unsigned_abs() % 100);
        match frac {
            0 => write!(f, "{sign}{whole}"),
            _ if frac % 10 == 0 => write!(f, "{sign}{whole}.{}", frac / 10),
            _ => write!(f, "{sign}{whole}.{frac:02}"),
        }
    }
}

/// A text that is not a number of points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid points: {kind} at byte {byte}")]
pub struct ParsePointsError {
    /// Where the text stops being a number of points.
    pub byte: usize,
    /// What is wrong there.
    pub kind: ParsePointsErrorKind,
}

/// What is wrong with a number of points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParsePointsErrorKind {
    /// Not a digit where one is needed.
    #[error("expected a digit")]
    ExpectedDigit,
    /// A third decimal.
    #[error("more than two decimals")]
    TooManyDecimals,
    /// More than [`MAX_CLUB_POINTS`] either way.
    #[error("beyond {MAX_CLUB_POINTS} points")]
    TooLarge,
}

/// The most points, either way, [`Points`] reads: far beyond any ladder.
pub const MAX_CLUB_POINTS: i64 = 1_000_000_000;

impl FromStr for Points {
    type Err = ParsePointsError;

    fn from_str(s: &str) -> Result<Points, ParsePointsError> {
        let error = |byte, kind| ParsePointsError { byte, kind };
        let (negative, digits) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s),
        };
        let offset = usize::from(negative);
        let (whole, frac) = digits.split_once('.').unwrap_or((digits, ""));
        if let Some(at) = whole
            .bytes()
            .position(|b| !b.is_ascii_digit())
            .or(whole.is_empty().then_some(0))
        {
            return Err(error(offset + at, ParsePointsErrorKind::ExpectedDigit));
        }
        let frac_at = offset + whole.len() + 1;
        if let Some(at) = frac.bytes().position(|b| !b.is_ascii_digit()) {
            return Err(error(frac_at + at, ParsePointsErrorKind::ExpectedDigit));
        }
        if frac.len() > 2 {
            return Err(error(frac_at + 2, ParsePointsErrorKind::TooManyDecimals));
        }
        let frac_value = frac
            .bytes()
            .chain(core::iter::repeat(b'0'))
            .take(2)
            .fold(0, |v, b| v * 10 + i64::from(b - b'0'));
        let value = whole
            .parse::<i64>()
            .ok()
            .filter(|&w| w <= MAX_CLUB_POINTS)
            .map(|w| w * 100 + frac_value)
            .filter(|&v| v <= MAX_CLUB_POINTS * 100)
            .ok_or(error(offset, ParsePointsErrorKind::TooLarge))?;
        Ok(Points(if negative { -value } else { value }))
    }
}

/// A game list that cannot be read: the game (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game} ({text}): {kind}")]
pub struct ParseGamesError {
    /// The game, from 1 (0 when there is none).
    pub game: usize,
    /// The game as written.
    pub text: String,
    /// What is wrong with it.
    pub kind: ParseGamesErrorKind,
}

/// What is wrong with a game of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseGamesErrorKind {
    /// Not `opponent:score`.
    #[error("expected opponent:score, e.g. 1900:0.5")]
    ExpectedPair,
    /// The opponent's rating is not a number from 0 to [`MAX_RATING`].
    #[error("expected an opponent rating from 0 to {MAX_RATING}")]
    Opponent,
    /// The score is not one of [`GameScore`]'s texts.
    #[error(transparent)]
    Score(#[from] ParseGameScoreError),
    /// The list has no games.
    #[error("no games given")]
    NoGames,
}

/// Reads `opponent:score` pairs separated by spaces or commas (`1900:1 1600:0.5`, `1900:1,1600:=`).
///
/// # Errors
///
/// [`ParseGamesError`] naming the first game that is not a pair of a rating (0 to
/// [`MAX_RATING`]) and a score, or for an empty list.
pub fn parse_games(list: &str) -> Result<Vec<(u32, GameScore)>, ParseGamesError> {
    let mut games = Vec::new();
    for (i, pair) in list.split([' ', ',']).filter(|p| !p.is_empty()).enumerate() {
        let error = |kind| ParseGamesError {
            game: i + 1,
            text: pair.to_owned(),
            kind,
        };
        let (opponent, score) = pair
            .split_once(':')
            .ok_or(error(ParseGamesErrorKind::ExpectedPair))?;
        let opponent = opponent
            .parse::<u32>()
            .ok()
            .filter(|&r| r <= MAX_RATING)
            .ok_or(error(ParseGamesErrorKind::Opponent))?;
        let score = score
            .parse()
            .map_err(|e| error(ParseGamesErrorKind::Score(e)))?;
        games.push((opponent, score));
    }
    if games.is_empty() {
        return Err(ParseGamesError {
            game: 0,
            text: list.to_owned(),
            kind: ParseGamesErrorKind::NoGames,
        });
    }
    Ok(games)
}

/// Ten-thousandths of a point in a hundredth: the club scheme's exact unit.
const EXACT: i64 = 100;

/// Which divisor the club scheme uses for the higher side's win in the 10–99 band.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ClubDivisor {
    /// `10 − gap/12.5` (the fuller source; joins the next band).
    #[default]
    TwelveAndAHalf,
    /// `10 − gap/10` (the brief's reading).
    Ten,
}

/// A text that is not a club divisor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected a divisor: 12.5 or 10")]
pub struct ParseClubDivisorError;

impl FromStr for ClubDivisor {
    type Err = ParseClubDivisorError;

    /// `12.5` or `10`.
    fn from_str(s: &str) -> Result<ClubDivisor, ParseClubDivisorError> {
        match s {
            "12.5" => Ok(ClubDivisor::TwelveAndAHalf),
            "10" => Ok(ClubDivisor::Ten),
            _ => Err(ParseClubDivisorError),
        }
    }
}

impl fmt::Display for ClubDivisor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClubDivisor::TwelveAndAHalf => "12.5",
            ClubDivisor::Ten => "10",
        })
    }
}

/// The club points change of player A (B's is the negative), for A's `result` against B,
/// given both players' points. The bands' amounts are exact fractions of the gap; the change is
/// rounded once, to the hundredth, halves away from zero.
#[must_use]
pub fn club_points_change(a: Points, b: Points, result: GameScore, divisor: ClubDivisor) -> Points {
    // Amounts in ten-thousandths of a point (EXACT per hundredth): every fraction of the gap
    // the bands take (1/2, 1/4, 1/10, 2/25, 1/20) is whole in that unit.
    let gap = i128::from(a.0.abs_diff(b.0));
    let (point, exact) = (i128::from(100 * EXACT), i128::from(EXACT));
    let band = |points: i128| gap >= points * 100;
    let lower_wins = if band(100) {
        gap * exact / 2
    } else if band(10) {
        10 * point + gap * exact / 10
    } else {
        10 * point
    };
    let higher_wins = if band(200) {
        0
    } else if band(100) {
        2 * point
    } else if band(10) {
        match divisor {
            ClubDivisor::TwelveAndAHalf => 10 * point - gap * exact * 2 / 25,
            ClubDivisor::Ten => 10 * point - gap * exact / 10,
        }
    } else {
        10 * point
    };
    let draw_to_lower = if band(100) {
        gap * exact / 4
    } else if band(10) {
        (10 * point + gap * exact / 10) / 2
    } else {
        0
    };
    let a_higher = a > b;
    let change = match (result, a_higher) {
        (GameScore::Win, true) => higher_wins,
        (GameScore::Win, false) => lower_wins,
        (GameScore::Loss, true) => -lower_wins,
        (GameScore::Loss, false) => -higher_wins,
        (GameScore::Draw, true) => -draw_to_lower,
        (GameScore::Draw, false) => draw_to_lower,
    };
    Points(saturate(round_div(change, exact)))
}

/// The club level for `points`: `None` below 100 points, then 30 down to 1.
#[must_use]
pub fn club_level(points: Points) -> Option<u32> {
    let hundreds = points.0.max(0) / (100 * 100);
    (hundreds >= 1).then(|| 31 - u32::try_from(hundreds.min(30)).unwrap_or(30))
}

/// A club game: what `caissa rate --club` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClubReport {
    /// The player's points.
    pub points: Points,
    /// The opponent's points.
    pub opponent: Points,
    /// The player's result.
    pub result: GameScore,
    /// The player's change (the opponent's is its negative).
    pub change: Points,
    /// The player's points after the game.
    pub new_points: Points,
    /// The opponent's points after the game.
    pub opponent_new_points: Points,
    /// The player's level before the game.
    pub level: Option<u32>,
    /// The player's level after it.
    pub new_level: Option<u32>,
}

/// The club report for a game of a player with `points` against one with `opponent`.
#[must_use]
pub fn club_report(
    points: Points,
    opponent: Points,
    result: GameScore,
    divisor: ClubDivisor,
) -> ClubReport {
    let change = club_points_change(points, opponent, result, divisor);
    let new_points = Points(points.0.saturating_add(change.0));
    ClubReport {
        points,
        opponent,
        result,
        change,
        new_points,
        opponent_new_points: Points(opponent.0.saturating_sub(change.0)),
        level: club_level(points),
        new_level: club_level(new_points),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameScore::{Draw, Loss, Win};

    fn change(rating: u32, k: u32, opponent: u32, score: GameScore) -> i64 {
        rating_change(rating, k, &[(opponent, score)], RatedSpeed::Standard)
    }

    #[test]
    fn el_vectors() {
        let cases = [
            (1500, 40, 1500, [20, -20, 0]),
            (1500, 40, 1900, [37, -3, 17]),
            (1500, 40, 2900, [37, -3, 17]),
            (1500, 40, 1600, [26, -14, 6]),
            (2000, 40, 1000, [3, -37, -17]),
            (2000, 40, 1900, [14, -26, -6]),
        ];
        for (rating, k, opponent, expected) in cases {
            let got = [Win, Loss, Draw].map(|s| change(rating, k, opponent, s));
            assert_eq!(got, expected, "{rating} v {opponent}");
        }
        assert_eq!(change(2800, 10, 1800, Win), 0);
        assert_eq!(
            rating_change(2800, 10, &[(1800, Win); 11], RatedSpeed::Standard),
            0
        );
        let rapid = RatedSpeed::RapidOrBlitz;
        assert_eq!(rating_change(1800, 40, &[(2601, Loss)], rapid), 0);
        assert_eq!(rating_change(2601, 10, &[(1800, Win)], rapid), 0);
        assert!(
            !is_rated_game(1800, 2601, rapid) && is_rated_game(1800, 2601, RatedSpeed::Standard)
        );
        assert_eq!(rating_change(2600, 10, &[(1900, Win)], rapid), 1);
    }

    #[test]
    fn expected_scores() {
        let cases = [
            (0, 50),
            (100, 64),
            (-100, 36),
            (300, 85),
            (-300, 15),
            (400, 92),
            (-400, 8),
        ];
        for (d, e) in cases {
            assert_eq!(expected_score((2000 + d) as u32, 2000), e, "D = {d}");
        }
        assert_eq!(expected_score(2000, 1200), 92);
        assert_eq!(expected_score(2700, 1900), 100);
        assert_eq!(expected_score(1900, 2700), 8);
    }

    #[test]
    fn performance_and_k() {
        let pr = |games: &[(u32, GameScore)]| performance_rating(games).unwrap();
        assert_eq!(pr(&[(1500, Win)]), 2300);
        assert_eq!(pr(&[(1500, Loss)]), 700);
        assert_eq!(pr(&[(1500, Draw)]), 1500);
        assert_eq!(pr(&[(1500, Win), (1500, Draw)]), 1693);
        assert_eq!(pr(&[(1500, Win), (1500, Draw), (1500, Draw)]), 1625);
        assert_eq!(pr(&[(1500, Win), (1700, Loss)]), 1600);
        assert_eq!(performance_rating(&[]), None);
        let new_player = KFactorInputs {
            rating: 1500,
            games_played: 5,
            ..Default::default()
        };
        assert_eq!(k_factor(new_player, 20), 35);
        assert_eq!(k_factor(new_player, 5), 40);
        // No overflow however many games: past 700 of them K is 0.
        assert_eq!(k_factor(new_player, u32::MAX), 0);
        assert_eq!(k_factor(new_player, 700), 1);
        let adult = KFactorInputs {
            rating: 2100,
            games_played: 300,
            ..Default::default()
        };
        assert_eq!(k_factor(adult, 1), 20);
        assert_eq!(
            k_factor(
                KFactorInputs {
                    junior: true,
                    ..adult
                },
                1
            ),
            40
        );
        assert_eq!(
            k_factor(
                KFactorInputs {
                    reached_2400: true,
                    ..adult
                },
                1
            ),
            10
        );
    }

    #[test]
    fn performance_never_wraps_and_inputs_are_bounded() {
        assert_eq!(
            performance_rating(&[(u32::MAX, Win), (u32::MAX, Win)]),
            Some(i64::from(u32::MAX) + 800)
        );
        let player = |rating| KFactorInputs {
            rating,
            ..KFactorInputs::default()
        };
        let speed = RatedSpeed::Standard;
        let err = |rating, k, games: &[(u32, GameScore)]| {
            elo_report(player(rating), k, games, speed).unwrap_err()
        };
        assert_eq!(
            err(0, None, &[(4_294_967_295, Win)]),
            RatingError::Opponent {
                game: 1,
                rating: 4_294_967_295
            }
        );
        assert_eq!(
            err(MAX_RATING + 1, None, &[(1500, Win)]),
            RatingError::Rating(4001)
        );
        assert_eq!(err(1500, Some(0), &[(1500, Win)]), RatingError::K(0));
        assert_eq!(err(1500, Some(701), &[(1500, Win)]), RatingError::K(701));
        assert_eq!(err(1500, None, &[]), RatingError::NoGames);
        // The largest inputs: the change is the rounded sum of the game lines, unclamped.
        let games = vec![(0, Win); 10_000];
        let report = elo_report(player(MAX_RATING), Some(MAX_K), &games, speed).unwrap();
        assert_eq!(report.change, 0);
        let report = elo_report(
            player(0),
            Some(MAX_K),
            &vec![(MAX_RATING, Win); 10_000],
            speed,
        )
        .unwrap();
        let lines: i64 = report.games.iter().map(|g| g.change.hundredths()).sum();
        assert_eq!(report.change * 100, lines);
        assert_eq!(report.change, 10_000 * 700 * 92 / 100);
        assert_eq!(report.new_rating, report.change);
    }

    #[test]
    fn points_read_and_write_exactly() {
        for (text, hundredths, written) in [
            ("550", 55_000, "550"),
            ("-5", -500, "-5"),
            ("99.5", 9_950, "99.5"),
            ("2.08", 208, "2.08"),
            ("-0.05", -5, "-0.05"),
            ("0.50", 50, "0.5"),
            ("1000000000", 100_000_000_000, "1000000000"),
        ] {
            let points: Points = text.parse().unwrap();
            assert_eq!(points.hundredths(), hundredths, "{text}");
            assert_eq!(points.to_string(), written);
        }
        assert_eq!(format!("{:+}", Points(600)), "+6");
        assert_eq!(format!("{:+}", Points(0)), "0");
        for (text, byte, kind) in [
            ("", 0, ParsePointsErrorKind::ExpectedDigit),
            ("-", 1, ParsePointsErrorKind::ExpectedDigit),
            ("5x", 1, ParsePointsErrorKind::ExpectedDigit),
            (".5", 0, ParsePointsErrorKind::ExpectedDigit),
            ("1.2.3", 3, ParsePointsErrorKind::ExpectedDigit),
            ("1.234", 4, ParsePointsErrorKind::TooManyDecimals),
            ("1000000000.01", 0, ParsePointsErrorKind::TooLarge),
            ("99999999999999999999", 0, ParsePointsErrorKind::TooLarge),
            ("+5", 0, ParsePointsErrorKind::ExpectedDigit),
        ] {
            assert_eq!(
                text.parse::<Points>(),
                Err(ParsePointsError { byte, kind }),
                "{text}"
            );
        }
    }

    #[test]
    fn club_arithmetic_is_exact_for_fractional_points() {
        let change = |a: &str, b: &str, result| {
            club_points_change(
                a.parse().unwrap(),
                b.parse().unwrap(),
                result,
                ClubDivisor::Ten,
            )
            .to_string()
        };
        // Gap 10.05: the lower side wins 10 + 1.005 = 11.005, rounded once to 11.01 (it was
        // 11 with the gap's tenth truncated first); half of it for a draw, 5.5025 -> 5.5.
        assert_eq!(change("500", "510.05", Win), "11.01");
        assert_eq!(change("510.05", "500", Loss), "-11.01");
        assert_eq!(change("500", "510.05", Draw), "5.5");
        // Gap 150.03: a quarter is 37.5075 -> 37.51.
        assert_eq!(change("-50.03", "100", Draw), "37.51");
        let report = club_report(
            "-5".parse().unwrap(),
            "5".parse().unwrap(),
            Win,
            ClubDivisor::TwelveAndAHalf,
        );
        assert_eq!(report.change, Points(1_100));
        assert_eq!(report.new_points, Points(600));
        assert_eq!(report.opponent_new_points, Points(-600));
        assert_eq!((report.level, report.new_level), (None, None));
    }

    #[test]
    fn club_points_vectors() {
        use ClubDivisor::{Ten, TwelveAndAHalf};
        let cases = [
            (Win, 500, 500, 1000, 1000),
            (Win, 505, 500, 1000, 1000),
            (Win, 550, 500, 600, 500),
            (Win, 599, 500, 208, 10),
            (Win, 600, 500, 200, 200),
            (Win, 700, 500, 0, 0),
            (Loss, 550, 500, -1500, -1500),
            (Loss, 600, 500, -5000, -5000),
            (Loss, 505, 500, -1000, -1000),
            (Draw, 505, 500, 0, 0),
            (Draw, 550, 500, -750, -750),
            (Draw, 600, 500, -2500, -2500),
            (Draw, 1000, 500, -12500, -12500),
        ];
        for (result, a, b, source, brief) in cases {
            let (a, b) = (Points(a * 100), Points(b * 100));
            assert_eq!(
                club_points_change(a, b, result, TwelveAndAHalf),
                Points(source),
                "{a} {b}"
            );
            assert_eq!(
                club_points_change(a, b, result, Ten),
                Points(brief),
                "{a} {b}"
            );
        }
        let levels = [
            (0, None),
            (99, None),
            (100, Some(30)),
            (199, Some(30)),
            (200, Some(29)),
            (1500, Some(16)),
            (2999, Some(2)),
            (3000, Some(1)),
            (3550, Some(1)),
        ];
        for (points, level) in levels {
            assert_eq!(club_level(Points(points * 100)), level, "{points}");
        }
    }
}
