//! Fuzz target `rate`: the text forms `caissa rate` reads and the arithmetic of its reports.
//!
//! The first byte chooses the player's rating and K, the rest is text: a game list for
//! [`elo_report`], and two numbers of points and a result for [`club_report`].

use caissa_arbiter::rating::{
    ClubDivisor, GameScore, KFactorInputs, MAX_K, MAX_RATING, Points, RatedSpeed, club_report,
    elo_report, parse_games,
};

/// Checks that parsing never panics, that points read back what they write, that the Elo
/// change is the rounded sum of the games' changes, and that club points are zero-sum and the
/// same from either side.
pub fn check(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = core::str::from_utf8(rest) else {
        return;
    };
    for word in text.split([' ', ',', ':']) {
        if let Ok(points) = word.parse::<Points>() {
            assert_eq!(points.to_string().parse(), Ok(points), "{word:?}");
        }
        if let Ok(score) = word.parse::<GameScore>() {
            assert_eq!(score.to_string().parse(), Ok(score));
            assert_eq!(score.name().parse(), Ok(score));
        }
    }
    elo(choice, text);
    club(choice, text);
}

fn elo(choice: u8, text: &str) {
    let Ok(games) = parse_games(text) else {
        return;
    };
    let rating = u32::from(choice) * MAX_RATING / 255;
    let k = (!choice.is_multiple_of(4)).then(|| 1 + u32::from(choice) * (MAX_K - 1) / 255);
    let player = KFactorInputs {
        rating,
        games_played: u32::from(choice % 40),
        junior: choice & 1 == 1,
        reached_2400: choice & 2 == 2,
    };
    let speed = if choice & 4 == 4 {
        RatedSpeed::RapidOrBlitz
    } else {
        RatedSpeed::Standard
    };
    let report = elo_report(player, k, &games, speed).expect("parsed games are rated");
    let hundredths: i128 = report
        .games
        .iter()
        .map(|g| i128::from(g.change.hundredths()))
        .sum();
    // Rounded once, halves away from zero.
    let twice = i128::from(report.change) * 200;
    assert!((twice - 2 * hundredths).abs() <= 100, "{report:?}");
    assert_eq!(report.new_rating, i64::from(rating) + report.change);
    let n = i64::try_from(games.len()).expect("a count");
    assert!((0..=100 * n).contains(&report.score.hundredths()));
    assert!((0..=100 * n).contains(&report.expected.hundredths()));
    assert!((-800..=i64::from(MAX_RATING) + 800).contains(&report.performance));
}

fn club(choice: u8, text: &str) {
    let mut words = text.split(' ');
    let (Some(Ok(a)), Some(Ok(b))) = (
        words.next().map(str::parse::<Points>),
        words.next().map(str::parse::<Points>),
    ) else {
        return;
    };
    let result = match choice % 3 {
        0 => GameScore::Win,
        1 => GameScore::Draw,
        _ => GameScore::Loss,
    };
    let opposite = match result {
        GameScore::Win => GameScore::Loss,
        GameScore::Draw => GameScore::Draw,
        GameScore::Loss => GameScore::Win,
    };
    for divisor in [ClubDivisor::TwelveAndAHalf, ClubDivisor::Ten] {
        let mine = club_report(a, b, result, divisor);
        let theirs = club_report(b, a, opposite, divisor);
        assert_eq!(
            mine.change.hundredths(),
            -theirs.change.hundredths(),
            "{mine:?}"
        );
        assert_eq!(mine.new_points, theirs.opponent_new_points);
        assert_eq!(
            mine.new_points.hundredths() + mine.opponent_new_points.hundredths(),
            a.hundredths() + b.hundredths()
        );
        // A win never loses points, a loss never gains, and no game moves more than the gap
        // allows (half of it, or ten points and a tenth).
        match result {
            GameScore::Win => assert!(mine.change.hundredths() >= 0),
            GameScore::Loss => assert!(mine.change.hundredths() <= 0),
            GameScore::Draw => {}
        }
        let gap = a.hundredths().abs_diff(b.hundredths());
        assert!(mine.change.hundredths().unsigned_abs() <= (gap / 2 + 1).max(1_000 + gap / 10 + 1));
    }
}
