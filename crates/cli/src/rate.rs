//! `caissa rate`: rating changes, FIDE Elo or the club points scheme.
//!
//! FIDE Elo (Rating Regulations of 1 March 2024, with the 1 October 2025 amendment):
//!
//! ```text
//! caissa rate --rating 1500 --k 40 --games "1900:1 1600:0.5"
//! caissa rate --rating 1500 --played 12 --games "1900:1,1600:=" --rapid
//! ```
//!
//! `--games` lists `opponent:score` pairs (score `1`, `0.5` or `=` or `½`, `0`), separated by
//! spaces or commas. K is `--k`, or follows the regulations from `--played` (rated games before
//! this period), `--junior` and `--reached-2400`, lowered so that K × games ≤ 700. Output, one
//! `key: value` per line: `rating`, `k`, `games`, `score`, `expected` (the sum of the expected
//! scores from table 8.1.2), `change` (signed, rounded), `new_rating`, `performance`; and for
//! each game `game: opponent score expected change` (the change to two decimals, unrounded).
//!
//! Club points (rules-spec section 12):
//!
//! ```text
//! caissa rate --club --points 550 --opponent 500 --result win
//! ```
//!
//! Output: `points`, `opponent`, `result`, `change`, `new_points`, `opponent_change`,
//! `opponent_new_points`, `level` and `new_level` (`none` below 100 points). Points may have two
//! decimals. `--divisor 10` selects the brief's `10 − gap/10` for the higher side's win in the
//! 10–99 band instead of the source's `10 − gap/12.5`.
//!
//! Bad arguments are reported with exit status 2.

use std::fmt::Write as _;

use caissa_arbiter::rating::{
    CENTI, ClubDivisor, GameScore, KFactorInputs, RatedSpeed, club_level, club_points_change,
    expected_score, is_rated_game, k_factor, performance_rating, rating_change,
};
use clap::Args;

use crate::error::CliError;

/// Arguments of `caissa rate`.
#[derive(Debug, Args)]
pub(crate) struct RateArgs {
    /// FIDE: the player's rating.
    #[arg(long, required_unless_present = "club")]
    rating: Option<u32>,
    /// FIDE: the games, as `opponent:score` pairs ("1900:1 1600:0.5").
    #[arg(long, required_unless_present = "club")]
    games: Option<String>,
    /// FIDE: the K-factor (default: from --played, --junior and --reached-2400).
    #[arg(long)]
    k: Option<u32>,
    /// FIDE: rated games completed before this period (K = 40 below 30).
    #[arg(long, default_value_t = 30)]
    played: u32,
    /// FIDE: the player is a junior (K = 40 below 2300).
    #[arg(long)]
    junior: bool,
    /// FIDE: the player's rating has reached 2400 (K = 10 for good).
    #[arg(long)]
    reached_2400: bool,
    /// FIDE: rapid or blitz (games 600+ points apart with a player above 2600 are unrated).
    #[arg(long)]
    rapid: bool,
    /// Use the club points scheme instead of FIDE Elo.
    #[arg(long, requires_all = ["points", "opponent", "result"])]
    club: bool,
    /// Club: the player's points.
    #[arg(long)]
    points: Option<String>,
    /// Club: the opponent's points.
    #[arg(long)]
    opponent: Option<String>,
    /// Club: the player's result: win, draw or loss.
    #[arg(long)]
    result: Option<String>,
    /// Club: the divisor of the higher side's win in the 10–99 band: 12.5 (default) or 10.
    #[arg(long, default_value = "12.5")]
    divisor: String,
}

fn bad(arg: &'static str, problem: impl Into<String>) -> CliError {
    CliError::Arg {
        arg,
        problem: problem.into(),
    }
}

/// Runs `caissa rate`.
///
/// # Errors
///
/// [`CliError::Arg`] for bad arguments, [`CliError::Write`] for a failing stdout.
pub(crate) fn run(args: &RateArgs) -> Result<(), CliError> {
    let text = if args.club { club(args)? } else { elo(args)? };
    crate::print(&text)
}

/// Reads a score: `1`, `0.5`, `=`, `½`, `0`.
fn score(text: &str) -> Option<GameScore> {
    match text {
        "1" | "1.0" | "win" => Some(GameScore::Win),
        "0.5" | ".5" | "=" | "½" | "1/2" | "draw" => Some(GameScore::Draw),
        "0" | "0.0" | "loss" => Some(GameScore::Loss),
        _ => None,
    }
}

/// Hundredths as a decimal: `1.28`, `-0.5`, `3`.
fn hundredths(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let (whole, frac) = (value.abs() / 100, value.abs() % 100);
    match frac {
        0 => format!("{sign}{whole}"),
        f if f % 10 == 0 => format!("{sign}{whole}.{}", f / 10),
        f => format!("{sign}{whole}.{f:02}"),
    }
}

/// A signed change: `+9`, `-3`, `0`.
fn signed(text: String) -> String {
    if text.starts_with('-') || text == "0" {
        text
    } else {
        format!("+{text}")
    }
}

fn elo(args: &RateArgs) -> Result<String, CliError> {
    let rating = args.rating.ok_or_else(|| bad("rating", "required"))?;
    let list = args.games.as_deref().unwrap_or_default();
    let mut games = Vec::new();
    for (i, pair) in list.split([' ', ',']).filter(|p| !p.is_empty()).enumerate() {
        let problem = || {
            bad(
                "games",
                format!(
                    "game {} ({pair}): expected opponent:score, e.g. 1900:0.5",
                    i + 1
                ),
            )
        };
        let (opponent, result) = pair.split_once(':').ok_or_else(problem)?;
        let opponent: u32 = opponent.parse().map_err(|_| problem())?;
        games.push((opponent, score(result).ok_or_else(problem)?));
    }
    if games.is_empty() {
        return Err(bad("games", "no games given"));
    }
    let speed = if args.rapid {
        RatedSpeed::RapidOrBlitz
    } else {
        RatedSpeed::Standard
    };
    let n = u32::try_from(games.len()).unwrap_or(u32::MAX);
    let k = args.k.unwrap_or_else(|| {
        k_factor(
            KFactorInputs {
                rating,
                games_played: args.played,
                junior: args.junior,
                reached_2400: args.reached_2400,
            },
            n,
        )
    });
    let change = rating_change(rating, k, &games, speed);
    let points: i64 = games
        .iter()
        .map(|&(_, s)| match s {
            GameScore::Win => 100,
            GameScore::Draw => 50,
            GameScore::Loss => 0,
        })
        .sum();
    let expected: i64 = games
        .iter()
        .filter(|&&(o, _)| is_rated_game(rating, o, speed))
        .map(|&(o, _)| i64::from(expected_score(rating, o)))
        .sum();
    let mut out = String::new();
    let _ = writeln!(out, "rating: {rating}");
    let _ = writeln!(out, "k: {k}");
    let _ = writeln!(out, "games: {}", games.len());
    let _ = writeln!(out, "score: {}", hundredths(points));
    let _ = writeln!(out, "expected: {}", hundredths(expected));
    let _ = writeln!(out, "change: {}", signed(change.to_string()));
    let _ = writeln!(out, "new_rating: {}", i64::from(rating) + i64::from(change));
    if let Some(performance) = performance_rating(&games) {
        let _ = writeln!(out, "performance: {performance}");
    }
    for &(opponent, s) in &games {
        let rated = is_rated_game(rating, opponent, speed);
        let (e, unrounded) = if rated {
            let e = i64::from(expected_score(rating, opponent));
            let w = match s {
                GameScore::Win => 100,
                GameScore::Draw => 50,
                GameScore::Loss => 0,
            };
            (hundredths(e), signed(hundredths(i64::from(k) * (w - e))))
        } else {
            ("unrated".to_owned(), "0".to_owned())
        };
        let s = match s {
            GameScore::Win => "1",
            GameScore::Draw => "0.5",
            GameScore::Loss => "0",
        };
        let _ = writeln!(out, "game: {opponent} {s} {e} {unrounded}");
    }
    Ok(out)
}

/// Reads points with up to two decimals into centi-points.
fn centi(arg: &'static str, text: Option<&str>) -> Result<i64, CliError> {
    let text = text.ok_or_else(|| bad(arg, "required"))?;
    let problem = || {
        bad(
            arg,
            format!("{text:?}: expected points such as 550 or 99.5"),
        )
    };
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 2
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(problem());
    }
    let whole: i64 = whole.parse().map_err(|_| problem())?;
    let frac: i64 = format!("{frac:0<2}").parse().map_err(|_| problem())?;
    whole
        .checked_mul(CENTI)
        .and_then(|w| w.checked_add(frac))
        .filter(|&v| v <= 1_000_000_000 * CENTI)
        .ok_or_else(problem)
}

fn club(args: &RateArgs) -> Result<String, CliError> {
    let a = centi("points", args.points.as_deref())?;
    let b = centi("opponent", args.opponent.as_deref())?;
    let result = match args.result.as_deref() {
        Some("win" | "1") => GameScore::Win,
        Some("draw" | "0.5" | "=") => GameScore::Draw,
        Some("loss" | "0") => GameScore::Loss,
        _ => return Err(bad("result", "expected win, draw or loss")),
    };
    let divisor = match args.divisor.as_str() {
        "12.5" => ClubDivisor::TwelveAndAHalf,
        "10" => ClubDivisor::Ten,
        other => return Err(bad("divisor", format!("{other:?}: expected 12.5 or 10"))),
    };
    let change = club_points_change(a, b, result, divisor);
    let level =
        |points: i64| club_level(points).map_or_else(|| "none".to_owned(), |l| l.to_string());
    let result = match result {
        GameScore::Win => "win",
        GameScore::Draw => "draw",
        GameScore::Loss => "loss",
    };
    let lines = [
        ("points", hundredths(a)),
        ("opponent", hundredths(b)),
        ("result", result.to_owned()),
        ("change", signed(hundredths(change))),
        ("new_points", hundredths(a + change)),
        ("opponent_change", signed(hundredths(-change))),
        ("opponent_new_points", hundredths(b - change)),
        ("level", level(a)),
        ("new_level", level(a + change)),
    ];
    Ok(lines
        .iter()
        .map(|(key, value)| format!("{key}: {value}\n"))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        rate: RateArgs,
    }

    fn rate(args: &str) -> Result<String, CliError> {
        let cli = Cli::try_parse_from(
            std::iter::once("rate").chain(shell_words(args).iter().map(String::as_str)),
        )
        .unwrap_or_else(|e| panic!("{args}: {e}"));
        if cli.rate.club {
            club(&cli.rate)
        } else {
            elo(&cli.rate)
        }
    }

    /// Splits on spaces, keeping double-quoted parts together.
    fn shell_words(text: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut quoted = false;
        let mut word = String::new();
        for c in text.chars() {
            match c {
                '"' => quoted = !quoted,
                ' ' if !quoted => {
                    if !word.is_empty() {
                        words.push(std::mem::take(&mut word));
                    }
                }
                c => word.push(c),
            }
        }
        if !word.is_empty() {
            words.push(word);
        }
        words
    }

    fn value(text: &str, key: &str) -> String {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}: ")))
            .unwrap_or_else(|| panic!("{key} in {text}"))
            .to_owned()
    }

    #[test]
    fn el_vectors() {
        let cases = [
            (1500, 1500, ["+20", "-20", "0"]),
            (1500, 1900, ["+37", "-3", "+17"]),
            (1500, 2900, ["+37", "-3", "+17"]),
            (1500, 1600, ["+26", "-14", "+6"]),
            (2000, 1000, ["+3", "-37", "-17"]),
            (2000, 1900, ["+14", "-26", "-6"]),
        ];
        for (rating, opponent, changes) in cases {
            for (result, change) in ["1", "0", "0.5"].iter().zip(changes) {
                let out = rate(&format!(
                    "--rating {rating} --k 40 --games {opponent}:{result}"
                ))
                .unwrap();
                assert_eq!(
                    value(&out, "change"),
                    change,
                    "{rating} {opponent} {result}"
                );
            }
        }
        let out = rate("--rating 2800 --k 10 --games 1800:1").unwrap();
        assert_eq!(value(&out, "change"), "0");
        let out = rate("--rating 1800 --k 40 --games 2601:0 --rapid").unwrap();
        assert_eq!(value(&out, "change"), "0");
        assert_eq!(value(&out, "game"), "2601 0 unrated 0");
        let out = rate("--rating 2600 --k 10 --games 1900:1 --rapid").unwrap();
        assert_eq!(value(&out, "change"), "+1");
    }

    #[test]
    fn the_brief_example_and_k_from_the_regulations() {
        let out = rate("--rating 1500 --k 40 --games \"1900:1 1600:0.5\"").unwrap();
        assert_eq!(
            out,
            "rating: 1500\nk: 40\ngames: 2\nscore: 1.5\nexpected: 0.44\nchange: +42\n\
             new_rating: 1542\nperformance: 1943\ngame: 1900 1 0.08 +36.8\n\
             game: 1600 0.5 0.36 +5.6\n"
        );
        // K1: a new player with 20 games in the period: K = 35.
        let games = vec!["1500:0.5"; 20].join(",");
        let out = rate(&format!("--rating 1500 --played 5 --games {games}")).unwrap();
        assert_eq!(value(&out, "k"), "35");
        let out = rate("--rating 2450 --games 2400:1").unwrap();
        assert_eq!(value(&out, "k"), "10");
        // PR: performance ratings.
        let out = rate("--rating 1500 --k 20 --games 1500:1,1500:=,1500:=").unwrap();
        assert_eq!(value(&out, "performance"), "1625");
    }

    #[test]
    fn club_vectors() {
        let cases = [
            ("win", 500, 500, "+10", "+10"),
            ("win", 505, 500, "+10", "+10"),
            ("win", 550, 500, "+6", "+5"),
            ("win", 599, 500, "+2.08", "+0.1"),
            ("win", 600, 500, "+2", "+2"),
            ("win", 700, 500, "0", "0"),
            ("loss", 550, 500, "-15", "-15"),
            ("loss", 600, 500, "-50", "-50"),
            ("loss", 505, 500, "-10", "-10"),
            ("draw", 505, 500, "0", "0"),
            ("draw", 550, 500, "-7.5", "-7.5"),
            ("draw", 600, 500, "-25", "-25"),
            ("draw", 1000, 500, "-125", "-125"),
        ];
        for (result, a, b, source, brief) in cases {
            let args = format!("--club --points {a} --opponent {b} --result {result}");
            assert_eq!(value(&rate(&args).unwrap(), "change"), source, "{args}");
            let args = format!("{args} --divisor 10");
            assert_eq!(value(&rate(&args).unwrap(), "change"), brief, "{args}");
        }
        let out = rate("--club --points 550 --opponent 500 --result win").unwrap();
        assert_eq!(
            out,
            "points: 550\nopponent: 500\nresult: win\nchange: +6\nnew_points: 556\n\
             opponent_change: -6\nopponent_new_points: 494\nlevel: 26\nnew_level: 26\n"
        );
        let out = rate("--club --points 99.5 --opponent 0 --result win").unwrap();
        assert_eq!(value(&out, "level"), "none");
        assert_eq!(value(&out, "new_level"), "30");
    }

    #[test]
    fn bad_arguments_are_named() {
        for (args, arg) in [
            ("--rating 1500 --games 1900", "games"),
            ("--rating 1500 --games 1900:2", "games"),
            ("--rating 1500 --games ,", "games"),
            ("--club --points 5x --opponent 1 --result win", "points"),
            (
                "--club --points 5 --opponent 1.234 --result win",
                "opponent",
            ),
            ("--club --points 5 --opponent 1 --result maybe", "result"),
            (
                "--club --points 5 --opponent 1 --result win --divisor 3",
                "divisor",
            ),
        ] {
            match rate(args) {
                Err(CliError::Arg { arg: a, .. }) => assert_eq!(a, arg, "{args}"),
                other => panic!("{args}: {other:?}"),
            }
        }
    }
}
