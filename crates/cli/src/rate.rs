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
//! spaces or commas. K is `--k` (taken as it is), or follows the regulations from `--played`
//! (rated games before this period), `--junior` and `--reached-2400`, lowered so that K × games
//! ≤ 700. Output, one
//! `key: value` per line: `rating`, `k`, `games`, `score`, `expected` (the sum of the expected
//! scores from table 8.1.2), `change` (signed, rounded once: the sum of the games' changes),
//! `new_rating`, `performance`; and for each game `game: opponent score expected change` (the
//! change to two decimals, unrounded). Ratings go from 0 to 4000 and K from 1 to 700; the
//! library (`caissa_arbiter::rating::elo_report`, `club_report`) computes what is printed.
//!
//! Club points (rules-spec section 12):
//!
//! ```text
//! caissa rate --club --points 550 --opponent 500 --result win
//! ```
//!
//! Output: `points`, `opponent`, `result`, `change`, `new_points`, `opponent_change`,
//! `opponent_new_points`, `level` and `new_level` (`none` below 100 points). Points may have two
//! decimals and may be negative (`--points -5`, `--points=-5`); the change is computed exactly
//! and rounded once, to the hundredth. `--divisor 10` selects the brief's `10 − gap/10` for the higher side's win in the
//! 10–99 band instead of the source's `10 − gap/12.5`.
//!
//! Bad arguments are reported with exit status 2.

use std::fmt::Write as _;

use caissa_arbiter::rating::{
    ClubDivisor, GameScore, KFactorInputs, Points, RatedSpeed, RatingError, club_report,
    elo_report, parse_games,
};
use clap::Args;

use crate::error::CliError;

/// Arguments of `caissa rate`.
#[derive(Debug, Args)]
pub(crate) struct RateArgs {
    /// FIDE: the player's rating (0 to 4000).
    #[arg(long, required_unless_present = "club")]
    rating: Option<u32>,
    /// FIDE: the games, as `opponent:score` pairs ("1900:1 1600:0.5").
    #[arg(long, required_unless_present = "club")]
    games: Option<String>,
    /// FIDE: the K-factor, 1 to 700 (default: from --played, --junior and --reached-2400).
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
    /// Club: the player's points (two decimals at most; may be negative).
    #[arg(long, allow_negative_numbers = true)]
    points: Option<String>,
    /// Club: the opponent's points (two decimals at most; may be negative).
    #[arg(long, allow_negative_numbers = true)]
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

/// Reads the text of `arg` with `FromStr`, naming the argument and the text in the error.
fn parse<T: core::str::FromStr<Err: core::fmt::Display>>(
    arg: &'static str,
    text: Option<&str>,
) -> Result<T, CliError> {
    let text = text.ok_or_else(|| bad(arg, "required"))?;
    text.parse().map_err(|e| bad(arg, format!("{text:?}: {e}")))
}

fn elo(args: &RateArgs) -> Result<String, CliError> {
    let rating = args.rating.ok_or_else(|| bad("rating", "required"))?;
    let games = parse_games(args.games.as_deref().unwrap_or_default())
        .map_err(|e| bad("games", e.to_string()))?;
    let speed = if args.rapid {
        RatedSpeed::RapidOrBlitz
    } else {
        RatedSpeed::Standard
    };
    let player = KFactorInputs {
        rating,
        games_played: args.played,
        junior: args.junior,
        reached_2400: args.reached_2400,
    };
    let report = elo_report(player, args.k, &games, speed).map_err(|e| {
        let arg = match e {
            RatingError::Rating(_) => "rating",
            RatingError::K(_) => "k",
            _ => "games",
        };
        bad(arg, e.to_string())
    })?;
    let mut out = String::new();
    let _ = writeln!(out, "rating: {}", report.rating);
    let _ = writeln!(out, "k: {}", report.k);
    let _ = writeln!(out, "games: {}", report.games.len());
    let _ = writeln!(out, "score: {}", report.score);
    let _ = writeln!(out, "expected: {}", report.expected);
    // Whole points, written as `Points` are: a sign unless zero.
    let change = Points::from_hundredths(report.change.saturating_mul(100));
    let _ = writeln!(out, "change: {change:+}");
    let _ = writeln!(out, "new_rating: {}", report.new_rating);
    let _ = writeln!(out, "performance: {}", report.performance);
    for game in &report.games {
        let expected = game
            .expected
            .map_or_else(|| "unrated".to_owned(), |e| e.to_string());
        let _ = writeln!(
            out,
            "game: {} {} {expected} {:+}",
            game.opponent, game.score, game.change
        );
    }
    Ok(out)
}

fn club(args: &RateArgs) -> Result<String, CliError> {
    let points: Points = parse("points", args.points.as_deref())?;
    let opponent: Points = parse("opponent", args.opponent.as_deref())?;
    let result: GameScore = parse("result", args.result.as_deref())?;
    let divisor: ClubDivisor = parse("divisor", Some(&args.divisor))?;
    let report = club_report(points, opponent, result, divisor);
    let level = |level: Option<u32>| level.map_or_else(|| "none".to_owned(), |l| l.to_string());
    let lines = [
        ("points", report.points.to_string()),
        ("opponent", report.opponent.to_string()),
        ("result", report.result.name().to_owned()),
        ("change", format!("{:+}", report.change)),
        ("new_points", report.new_points.to_string()),
        (
            "opponent_change",
            format!("{:+}", Points::from_hundredths(-report.change.hundredths())),
        ),
        (
            "opponent_new_points",
            report.opponent_new_points.to_string(),
        ),
        ("level", level(report.level)),
        ("new_level", level(report.new_level)),
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
    fn negative_points_read_back_and_fractions_are_exact() {
        let out = rate("--club --points -5 --opponent 5 --result win").unwrap();
        assert_eq!(value(&out, "change"), "+11");
        assert_eq!(value(&out, "opponent_new_points"), "-6");
        // What rate prints, it reads back.
        let again = rate(&format!(
            "--club --points={} --opponent={} --result loss",
            value(&out, "new_points"),
            value(&out, "opponent_new_points")
        ))
        .unwrap();
        assert_eq!(value(&again, "points"), "6");
        assert_eq!(value(&again, "opponent"), "-6");
        let out = rate("--club --points 500 --opponent 510.05 --result win --divisor 10").unwrap();
        assert_eq!(value(&out, "change"), "+11.01");
        assert_eq!(value(&out, "new_points"), "511.01");
        assert_eq!(value(&out, "opponent_change"), "-11.01");
        assert_eq!(value(&out, "opponent_new_points"), "499.04");
    }

    #[test]
    fn the_change_is_the_rounded_sum_of_the_game_lines() {
        let out = rate("--rating 4000 --k 700 --games 0:0,0:0").unwrap();
        assert_eq!(value(&out, "change"), "-1400");
        assert_eq!(value(&out, "new_rating"), "2600");
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("game:")).collect();
        assert_eq!(lines, ["game: 0 0 1 -700", "game: 0 0 1 -700"]);
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
            ("--rating 0 --games 4294967295:1", "games"),
            ("--rating 4001 --games 1500:1", "rating"),
            ("--rating 1500 --k 0 --games 1500:1", "k"),
            ("--rating 1500 --k 100000 --games 1500:1", "k"),
            ("--club --points 1e3 --opponent 1 --result win", "points"),
            (
                "--club --points 5 --opponent 10000000000 --result win",
                "opponent",
            ),
        ] {
            match rate(args) {
                Err(CliError::Arg { arg: a, .. }) => assert_eq!(a, arg, "{args}"),
                other => panic!("{args}: {other:?}"),
            }
        }
    }
}
