//! Who plays whom, with which colours and opening: the games of a match in a fixed order.
//!
//! A round robin pairs every engine with every other; a gauntlet pairs the first engine with
//! each of the others. Each pairing plays `games` games: the games `2k` and `2k + 1` share
//! opening `k` with colours swapped (the pairing's first engine is White in the even game).
//! The games are ordered so that pairings take turns, pair by pair: an interrupted match has
//! played about as many games of each pairing.

/// How engines are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// Every engine against every other.
    #[default]
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scheduled {
    /// The game's number in the match, from 0.
    pub number: u64,
    /// The pairing's index in [`Schedule::pairings`].
    pub pairing: usize,
    /// The game's number within its pairing, from 0.
    pub game: u64,
    /// The opening's number (the same for both games of a pair).
    pub opening: u64,
    /// The engine playing White (an index into the match's engines).
    pub white: usize,
    /// The engine playing Black.
    pub black: usize,
}

/// The games of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    games: u64,
}

impl Schedule {
    /// The schedule for `engines` engines in `format`, `games` games per pairing.
    #[must_use]
    pub fn new(engines: usize, format: Format, games: u64) -> Schedule {
        let pairings = match format {
            Format::RoundRobin => (0..engines)
                .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
                .collect(),
            Format::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
        };
        Schedule { pairings, games }
    }

    /// The pairings: `(first, second)` engine indices; results are given from `first`'s side.
    #[must_use]
    pub fn pairings(&self) -> &[(usize, usize)] {
        &self.pairings
    }

    /// Games per pairing.
    #[must_use]
    pub fn games_per_pairing(&self) -> u64 {
        self.games
    }

    /// The number of games (`u64::MAX` for more than that).
    #[must_use]
    pub fn len(&self) -> u64 {
        self.games.saturating_mul(self.pairings.len() as u64)
    }

    /// Whether there is no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Game `number`, or `None` past the end.
    #[must_use]
    pub fn game(&self, number: u64) -> Option<Scheduled> {
        if number >= self.len() {
            return None;
        }
        let p = self.pairings.len() as u64;
        let paired = (self.games / 2 * 2).saturating_mul(p);
        let (pairing, game) = if number < paired {
            // Pairs of games in turn: pair k of pairing 0, pair k of pairing 1, ...
            let slot = number / 2;
            (slot % p, slot / p * 2 + number % 2)
        } else {
            // An odd count: the last game of each pairing, after every pair.
            (number - paired, self.games - 1)
        };
        let pairing = usize::try_from(pairing).ok()?;
        let (first, second) = self.pairings[pairing];
        let (white, black) = if game % 2 == 0 {
            (first, second)
        } else {
            (second, first)
        };
        Some(Scheduled {
            number,
            pairing,
            game,
            opening: game / 2,
            white,
            black,
        })
    }

    /// Every game, in order.
    pub fn iter(&self) -> impl Iterator<Item = Scheduled> + '_ {
        (0..self.len()).filter_map(|n| self.game(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet() {
        let s = Schedule::new(3, Format::RoundRobin, 2);
        assert_eq!(s.pairings(), &[(0, 1), (0, 2), (1, 2)]);
        let games: Vec<_> = s
            .iter()
            .map(|g| (g.pairing, g.game, g.white, g.black))
            .collect();
        assert_eq!(
            games,
            [
                (0, 0, 0, 1),
                (0, 1, 1, 0),
                (1, 0, 0, 2),
                (1, 1, 2, 0),
                (2, 0, 1, 2),
                (2, 1, 2, 1)
            ]
        );
        assert_eq!(
            Schedule::new(3, Format::Gauntlet, 4).pairings(),
            &[(0, 1), (0, 2)]
        );
    }

    #[test]
    fn every_game_once_with_odd_counts() {
        for (engines, games) in [(2, 1), (2, 5), (3, 3), (4, 7)] {
            let s = Schedule::new(engines, Format::RoundRobin, games);
            let mut seen: Vec<_> = s.iter().map(|g| (g.pairing, g.game)).collect();
            assert_eq!(seen.len() as u64, s.len());
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len() as u64, s.len(), "{engines} {games}");
            assert!(s.iter().all(|g| g.opening == g.game / 2));
        }
        assert_eq!(Schedule::new(1, Format::RoundRobin, 10).len(), 0);
        assert!(Schedule::new(2, Format::RoundRobin, 2).game(2).is_none());
    }
}
