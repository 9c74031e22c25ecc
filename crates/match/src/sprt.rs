//! The sequential probability ratio test: does the first engine lead by `elo0` (H0) or by
//! `elo1` (H1)? The match stops when the log-likelihood ratio leaves
//! `[ln(β/(1-α)), ln((1-β)/α)]`.
//!
//! The ratio is the generalised SPRT's normal approximation: with `n` samples of mean `x̄` and
//! variance `σ²`, `LLR = n (s1 - s0) (2x̄ - s0 - s1) / (2σ²)`, where `s0` and `s1` are the
//! expected scores under each hypothesis. The samples are the game pairs (pentanomial) once
//! there are any, else the games. Elo is either logistic (`s = 1/(1 + 10^(-elo/400))`) or
//! normalised (`s = ½ + elo σ ln(10) / 800`, with `σ` the per-game standard deviation).

use core::fmt;
use core::str::FromStr;

use crate::stats::{Tally, score_of_elo};

/// How the hypotheses' Elo is meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum EloModel {
    /// Logistic Elo.
    #[default]
    Logistic,
    /// Normalised Elo (fishtest's "nElo"): independent of the draw rate.
    Normalized,
}

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// H0: the first engine leads by this much.
    pub elo0: f64,
    /// H1: it leads by this much.
    pub elo1: f64,
    /// The false positive rate.
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
    /// How the Elo values are meant.
    pub model: EloModel,
}

/// What the test says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// H0 is accepted.
    H0,
    /// H1 is accepted.
    H1,
    /// Play on.
    Continue,
}

impl Sprt {
    /// The lower and upper bounds of the LLR.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for `tally` (0 while it cannot be estimated).
    #[must_use]
    pub fn llr(&self, tally: &Tally) -> f64 {
        let pairs: u64 = tally.pairs.iter().sum();
        let (n, mean, variance, per_game_sd) = if pairs > 0 {
            let (mean, var) = moments(
                tally
                    .pairs
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| (k as f64 / 4.0, c)),
            );
            (pairs as f64, mean, var, (2.0 * var).sqrt())
        } else {
            let counts = [(1.0, tally.wins), (0.5, tally.draws), (0.0, tally.losses)];
            let (mean, var) = moments(counts.into_iter());
            (tally.games() as f64, mean, var, var.sqrt())
        };
        if n == 0.0 {
            return 0.0;
        }
        let expected = |elo: f64| match self.model {
            EloModel::Logistic => score_of_elo(elo),
            EloModel::Normalized => 0.5 + elo * per_game_sd * core::f64::consts::LN_10 / 800.0,
        };
        let (s0, s1) = (expected(self.elo0), expected(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Whether the test has decided on `tally`.
    #[must_use]
    pub fn decide(&self, tally: &Tally) -> Decision {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

/// The mean and variance of weighted values, each count at least 0.001 (as fishtest does) so
/// that a one-sided start has a variance.
fn moments(values: impl Iterator<Item = (f64, u64)> + Clone) -> (f64, f64) {
    let values = values.map(|(v, c)| (v, (c as f64).max(1e-3)));
    let n: f64 = values.clone().map(|(_, c)| c).sum();
    let mean = values.clone().map(|(v, c)| v * c).sum::<f64>() / n;
    let variance = values.map(|(v, c)| c * (v - mean).powi(2)).sum::<f64>() / n;
    (mean, variance)
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
            Decision::Continue => "continue",
        })
    }
}

/// A `--sprt` value that does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad SPRT parameter {token:?}: {kind}")]
pub struct ParseSprtError {
    /// The `key=value` token.
    pub token: String,
    /// What is wrong.
    pub kind: ParseSprtErrorKind,
}

/// What is wrong in an SPRT parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseSprtErrorKind {
    /// A key other than `elo0`, `elo1`, `alpha`, `beta`, `model`.
    #[error("expected elo0=, elo1=, alpha=, beta= or model=logistic|normalized")]
    UnknownKey,
    /// A value that is not a number in range (alpha and beta strictly between 0 and 1), or a
    /// model other than `logistic` and `normalized`.
    #[error("value out of range or not a number")]
    BadValue,
    /// `elo0` and `elo1` missing or equal.
    #[error("elo0 and elo1 are required and must differ")]
    MissingElo,
    /// `alpha + beta` of 1 or more: the bounds cross, and the test would decide before any
    /// game.
    #[error("alpha + beta must be below 1")]
    CrossedBounds,
}

impl Sprt {
    /// Reads `elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=logistic|normalized]` (alpha and beta
    /// default to 0.05).
    ///
    /// # Errors
    ///
    /// [`ParseSprtError`] naming the token.
    pub fn from_tokens<'a>(
        tokens: impl IntoIterator<Item = &'a str>,
    ) -> Result<Sprt, ParseSprtError> {
        let mut sprt = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        let mut last = String::new();
        for token in tokens {
            let error = |kind| ParseSprtError {
                token: token.to_owned(),
                kind,
            };
            last = token.to_owned();
            let (key, value) = token
                .split_once('=')
                .ok_or(error(ParseSprtErrorKind::UnknownKey))?;
            let number = || {
                f64::from_str(value)
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or(error(ParseSprtErrorKind::BadValue))
            };
            let rate = || {
                number().and_then(|v| {
                    if v > 0.0 && v < 1.0 {
                        Ok(v)
                    } else {
                        Err(error(ParseSprtErrorKind::BadValue))
                    }
                })
            };
            match key {
                "elo0" => sprt.elo0 = number()?,
                "elo1" => sprt.elo1 = number()?,
                "alpha" => sprt.alpha = rate()?,
                "beta" => sprt.beta = rate()?,
                "model" => {
                    sprt.model = match value {
                        "logistic" => EloModel::Logistic,
                        "normalized" | "normalised" => EloModel::Normalized,
                        _ => return Err(error(ParseSprtErrorKind::BadValue)),
                    }
                }
                _ => return Err(error(ParseSprtErrorKind::UnknownKey)),
            }
        }
        if sprt.elo0.is_nan() || sprt.elo1.is_nan() || sprt.elo0 == sprt.elo1 {
            return Err(ParseSprtError {
                token: last,
                kind: ParseSprtErrorKind::MissingElo,
            });
        }
        if sprt.alpha + sprt.beta >= 1.0 {
            return Err(ParseSprtError {
                token: last,
                kind: ParseSprtErrorKind::CrossedBounds,
            });
        }
        Ok(sprt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Score;

    fn tally(w: u64, d: u64, l: u64) -> Tally {
        let mut t = Tally::default();
        let mut game = 0;
        for (score, n) in [(Score::Win, w), (Score::Draw, d), (Score::Loss, l)] {
            for _ in 0..n {
                t.add(game, score);
                game += 2; // no pairs: the trinomial model
            }
        }
        t
    }

    #[test]
    fn decides_both_ways() {
        let sprt = Sprt::from_tokens(["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"]).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944).abs() < 1e-3 && (lower + 2.944).abs() < 1e-3);
        assert_eq!(sprt.decide(&tally(0, 0, 0)), Decision::Continue);
        // Equal play: the LLR drifts down; a clear lead: up.
        assert_eq!(sprt.decide(&tally(4000, 2000, 4000)), Decision::H0);
        assert_eq!(sprt.decide(&tally(4600, 2000, 3400)), Decision::H1);
        assert_eq!(sprt.decide(&tally(10, 5, 9)), Decision::Continue);
        // Logistic LLR by hand: 10 games, s0 = 0.5, s1 = score_of_elo(10).
        let t = tally(6, 0, 4);
        let s1 = score_of_elo(10.0);
        let expected = 10.0 * (s1 - 0.5) * (2.0 * 0.6 - 0.5 - s1) / (2.0 * 0.24);
        assert!((sprt.llr(&t) - expected).abs() < 1e-3);
        // Wins only: the floor on empty counts gives a variance, and the test decides.
        assert_eq!(sprt.decide(&tally(8, 0, 0)), Decision::H1);
        let normalized = Sprt {
            model: EloModel::Normalized,
            ..sprt
        };
        assert!(normalized.llr(&t) > 0.0);
    }

    #[test]
    fn parse_errors_name_the_token() {
        let e = Sprt::from_tokens(["elo0=0", "elo=5"]).unwrap_err();
        assert_eq!(
            (e.token.as_str(), e.kind),
            ("elo=5", ParseSprtErrorKind::UnknownKey)
        );
        let e = Sprt::from_tokens(["elo0=0", "elo1=5", "alpha=1"]).unwrap_err();
        assert_eq!(e.kind, ParseSprtErrorKind::BadValue);
        let e = Sprt::from_tokens(["elo0=5"]).unwrap_err();
        assert_eq!(e.kind, ParseSprtErrorKind::MissingElo);
        // Bounds that cross would decide before any game.
        let e = Sprt::from_tokens(["elo0=0", "elo1=5", "alpha=0.6", "beta=0.5"]).unwrap_err();
        assert_eq!(e.kind, ParseSprtErrorKind::CrossedBounds);
        let s = Sprt::from_tokens(["elo0=0", "elo1=5", "model=normalized"]).unwrap();
        assert_eq!(s.model, EloModel::Normalized);
    }
}
