//! Match results from the first engine's side: wins, draws and losses, the score, the Elo
//! difference with its 95% interval, the likelihood of superiority, and pentanomial counts of
//! game pairs (the two games of one opening, colours swapped).
//!
//! The Elo difference is the logistic one, `-400 log10(1/s - 1)` of the score `s`; its interval
//! maps `s ± 1.96 σ/√n` through the same curve, with `σ` the games' standard deviation. The LOS
//! is `Φ((W - L) / √(W + L))`, draws left out.

/// One game's result for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// A win.
    Win,
    /// A draw.
    Draw,
    /// A loss.
    Loss,
}

impl Score {
    /// Points: 1, ½ or 0, in half points.
    #[must_use]
    pub const fn half_points(self) -> u8 {
        match self {
            Score::Win => 2,
            Score::Draw => 1,
            Score::Loss => 0,
        }
    }
}

/// The results of one pairing, from its first engine's side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins of the first engine.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses of the first engine.
    pub losses: u64,
    /// Game pairs by the first engine's half points over both games: `pairs[k]` counts pairs
    /// scoring `k` half points (0 to 4).
    pub pairs: [u64; 5],
    /// Games whose pair partner has not finished yet, by pair number, with their score.
    pending: Vec<(u64, Score)>,
}

/// The 97.5% quantile of the standard normal distribution.
const Z_975: f64 = 1.959_963_984_540_054;

impl Tally {
    /// Adds game `game` of the pairing (games `2k` and `2k + 1` are a pair).
    pub fn add(&mut self, game: u64, score: Score) {
        match score {
            Score::Win => self.wins += 1,
            Score::Draw => self.draws += 1,
            Score::Loss => self.losses += 1,
        }
        let pair = game / 2;
        match self.pending.iter().position(|&(p, _)| p == pair) {
            Some(at) => {
                let (_, other) = self.pending.swap_remove(at);
                self.pairs[usize::from(other.half_points() + score.half_points())] += 1;
            }
            None => self.pending.push((pair, score)),
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The score, 0 to 1 (½ without games).
    #[must_use]
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (self.wins as f64 + self.draws as f64 / 2.0) / n as f64,
        }
    }

    /// The Elo difference and the half width of its 95% interval (infinite when the score is 0
    /// or 1, or the interval reaches them).
    #[must_use]
    pub fn elo(&self) -> (f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        if n == 0.0 {
            return (0.0, f64::INFINITY);
        }
        let variance = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let margin = Z_975 * (variance / n).sqrt();
        let (low, high) = (elo_of_score(s - margin), elo_of_score(s + margin));
        let half_width = (high - low) / 2.0;
        (
            elo_of_score(s),
            if half_width.is_nan() {
                f64::INFINITY
            } else {
                half_width
            },
        )
    }

    /// The likelihood of superiority of the first engine, 0 to 1.
    #[must_use]
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        normal_cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt())
    }
}

/// The logistic Elo difference of a score (±infinity at 1 and 0).
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // (`+ 0.0` makes an even score's -0.0 a plain 0.)
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// The expected score of a logistic Elo difference.
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function.
pub(crate) fn normal_cdf(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / core::f64::consts::SQRT_2))
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(results: &[Score]) -> Tally {
        let mut t = Tally::default();
        for (i, &s) in results.iter().enumerate() {
            t.add(i as u64, s);
        }
        t
    }

    #[test]
    fn elo_los_and_pairs() {
        use Score::*;
        let t = tally(&[Win, Draw, Draw, Draw, Loss, Win, Win, Win]);
        assert_eq!((t.wins, t.draws, t.losses), (4, 3, 1));
        // Pairs: W+D (3), D+D (2), L+W (2), W+W (4).
        assert_eq!(t.pairs, [0, 0, 2, 1, 1]);
        assert!((t.score() - 0.6875).abs() < 1e-12);
        let (elo, margin) = t.elo();
        assert!((elo - 136.96).abs() < 0.01, "{elo}");
        assert!(margin > 100.0 && margin.is_finite(), "{margin}");
        assert!((t.los() - normal_cdf(3.0 / 5f64.sqrt())).abs() < 1e-12);
        assert!(t.los() > 0.9);
        assert_eq!(tally(&[Draw, Draw]).elo().0, 0.0);
        // Not -0.0, which prints as "-0.0".
        assert_eq!(format!("{:.1}", tally(&[Draw, Draw]).elo().0), "0.0");
        assert_eq!(tally(&[Win]).elo(), (f64::INFINITY, f64::INFINITY));
        assert_eq!(Tally::default().los(), 0.5);
    }

    #[test]
    fn normal_distribution() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-9);
        assert!((normal_cdf(Z_975) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-6);
        assert!((score_of_elo(elo_of_score(0.3)) - 0.3).abs() < 1e-12);
    }
}
