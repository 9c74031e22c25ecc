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
//! [`club_points_change`] implements the ladder scheme of rules-spec section 12 in centi-points
//! (exact integers): zero-sum, bands on the gap between the players' points. The higher side's
//! win in the 10–99 band is `10 − gap/12.5` by default, the fuller source's reading (it joins the
//! next band at gap 100); [`ClubDivisor::Ten`] selects the brief's `10 − gap/10`.

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

/// The K-factor for a player who plays `games_in_period` rated games in the period.
#[must_use]
pub fn k_factor(player: KFactorInputs, games_in_period: u32) -> u32 {
    let k = if player.reached_2400 || player.rating >= 2400 {
        10
    } else if player.games_played < 30 || (player.junior && player.rating < 2300) {
        40
    } else {
        20
    };
    if games_in_period > 0 && k * games_in_period > 700 {
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
    fn hundredths(self) -> i64 {
        match self {
            GameScore::Win => 100,
            GameScore::Draw => 50,
            GameScore::Loss => 0,
        }
    }
}

/// The rating change of a player rated `rating` with factor `k` over `games` (opponent rating,
/// score), rounded to a whole number, halves away from zero. Unrated games count for nothing.
#[must_use]
pub fn rating_change(rating: u32, k: u32, games: &[(u32, GameScore)], speed: RatedSpeed) -> i32 {
    // Sum in units of 1/100 of a point times K: exact.
    let total: i64 = games
        .iter()
        .filter(|&&(opponent, _)| is_rated_game(rating, opponent, speed))
        .map(|&(opponent, score)| {
            i64::from(k) * (score.hundredths() - i64::from(expected_score(rating, opponent)))
        })
        .sum();
    let rounded = (total.abs() + 50) / 100 * total.signum();
    i32::try_from(rounded).unwrap_or(if total < 0 { i32::MIN } else { i32::MAX })
}

/// The performance rating over `games` (opponent rating, score): the average opponent rating plus
/// `dp` for the score fraction. `None` without games.
#[must_use]
pub fn performance_rating(games: &[(u32, GameScore)]) -> Option<i32> {
    let n = i64::try_from(games.len()).ok().filter(|&n| n > 0)?;
    let average = games.iter().map(|&(r, _)| i64::from(r)).sum::<i64>() as f64 / n as f64;
    let points: i64 = games.iter().map(|&(_, s)| s.hundredths()).sum();
    // p rounded to two decimals, in hundredths.
    let p = ((points as f64) / (n as f64)).round() as i64;
    let dp = if p >= 50 {
        DP_TABLE[(p - 50) as usize]
    } else {
        -DP_TABLE[(50 - p) as usize]
    };
    Some(average.round() as i32 + dp)
}

/// Centi-points in a point: the club scheme's unit.
pub const CENTI: i64 = 100;

/// Which divisor the club scheme uses for the higher side's win in the 10–99 band.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ClubDivisor {
    /// `10 − gap/12.5` (the fuller source; joins the next band).
    #[default]
    TwelveAndAHalf,
    /// `10 − gap/10` (the brief's reading).
    Ten,
}

/// The club points change of player A, in centi-points (B's is the negative), for A's `result`
/// against B, given both players' points in centi-points.
#[must_use]
pub fn club_points_change(a: i64, b: i64, result: GameScore, divisor: ClubDivisor) -> i64 {
    let gap = (a - b).abs();
    let a_higher = a > b;
    // All amounts in centi-points; gap is in centi-points too.
    let lower_wins = if gap >= 100 * CENTI {
        gap / 2
    } else if gap >= 10 * CENTI {
        10 * CENTI + gap / 10
    } else {
        10 * CENTI
    };
    let higher_wins = if gap >= 200 * CENTI {
        0
    } else if gap >= 100 * CENTI {
        2 * CENTI
    } else if gap >= 10 * CENTI {
        match divisor {
            ClubDivisor::TwelveAndAHalf => 10 * CENTI - gap * 2 / 25,
            ClubDivisor::Ten => 10 * CENTI - gap / 10,
        }
    } else {
        10 * CENTI
    };
    let draw_to_lower = if gap >= 100 * CENTI {
        gap / 4
    } else if gap >= 10 * CENTI {
        (10 * CENTI + gap / 10) / 2
    } else {
        0
    };
    match (result, a_higher) {
        (GameScore::Win, true) => higher_wins,
        (GameScore::Win, false) => lower_wins,
        (GameScore::Loss, true) => -lower_wins,
        (GameScore::Loss, false) => -higher_wins,
        (GameScore::Draw, true) => -draw_to_lower,
        (GameScore::Draw, false) => draw_to_lower,
    }
}

/// The club level for `points` (centi-points): `None` below 100 points, then 30 down to 1.
#[must_use]
pub fn club_level(points: i64) -> Option<u32> {
    let hundreds = points.max(0) / (100 * CENTI);
    (hundreds >= 1).then(|| 31 - hundreds.min(30) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameScore::{Draw, Loss, Win};

    fn change(rating: u32, k: u32, opponent: u32, score: GameScore) -> i32 {
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
            let (a, b) = (a * 100, b * 100);
            assert_eq!(
                club_points_change(a, b, result, TwelveAndAHalf),
                source,
                "{a} {b}"
            );
            assert_eq!(club_points_change(a, b, result, Ten), brief, "{a} {b}");
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
            assert_eq!(club_level(points * 100), level, "{points}");
        }
    }
}
