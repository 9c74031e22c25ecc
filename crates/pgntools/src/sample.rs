//! A random sample of games, `caissa pgn select --sample FRACTION --seed N`: the same games
//! whatever the threads or the chunks, since whether a game is in it depends only on the seed
//! and the game's number.

/// A sample of a fraction of the games, by their numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// A game is in the sample when its hash is below this; `u64::MAX` takes every game.
    threshold: u64,
    seed: u64,
}

/// The fraction is not a number above 0 and at most 1.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("the fraction {0} is not above 0 and at most 1")]
pub struct SampleFractionError(pub f64);

impl Sample {
    /// About `fraction` of the games (above 0, at most 1), chosen by `seed`.
    ///
    /// ```
    /// use caissa_pgntools::sample::Sample;
    ///
    /// let tenth = Sample::new(0.1, 7)?;
    /// let taken = (1..=100_000).filter(|&n| tenth.contains(n)).count();
    /// assert!((9_500..10_500).contains(&taken));
    /// assert_eq!(tenth.contains(42), Sample::new(0.1, 7)?.contains(42));
    /// # Ok::<(), caissa_pgntools::sample::SampleFractionError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`SampleFractionError`] for a fraction that is not above 0 and at most 1 (or is NaN).
    pub fn new(fraction: f64, seed: u64) -> Result<Sample, SampleFractionError> {
        if !(fraction > 0.0 && fraction <= 1.0) {
            return Err(SampleFractionError(fraction));
        }
        // 2^64 times the fraction; the cast saturates, so 1 takes every game.
        let threshold = (fraction * 18_446_744_073_709_551_616.0) as u64;
        Ok(Sample { threshold, seed })
    }

    /// Whether the game numbered `number` is in the sample.
    #[must_use]
    pub fn contains(&self, number: u64) -> bool {
        self.threshold == u64::MAX || mix(mix(self.seed) ^ number) < self.threshold
    }
}

/// SplitMix64's finaliser: a bijection of `u64` whose outputs look independent.
const fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_are_kept_and_seeds_choose_other_games() {
        for fraction in [0.01, 0.25, 0.5, 0.9] {
            let sample = Sample::new(fraction, 1).unwrap();
            let taken = (1..=200_000u64).filter(|&n| sample.contains(n)).count() as f64;
            assert!(
                (taken / 200_000.0 - fraction).abs() < 0.01,
                "{fraction}: {taken}"
            );
        }
        let all = Sample::new(1.0, 3).unwrap();
        assert!((1..=10_000).all(|n| all.contains(n)));
        let [a, b] = [1, 2].map(|seed| Sample::new(0.5, seed).unwrap());
        let differ = (1..=1_000)
            .filter(|&n| a.contains(n) != b.contains(n))
            .count();
        assert!((400..600).contains(&differ), "{differ}");
        for bad in [0.0, -0.5, 1.5, f64::NAN, f64::INFINITY] {
            assert!(Sample::new(bad, 0).is_err(), "{bad}");
        }
    }
}
