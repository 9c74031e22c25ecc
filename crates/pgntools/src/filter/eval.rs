//! Deciding a [`Filter`](super::Filter) from a game's tags.

use caissa_arbiter::{PgnTimeControl, Speed, TimeControl};

use super::{ClockPart, Condition, Expr, Op, Players, TagLookup, Test};

impl Expr {
    pub(super) fn matches<T: TagLookup + ?Sized>(&self, tags: &T) -> bool {
        match self {
            Expr::Condition(condition) => condition.matches(tags),
            Expr::Not(inner) => !inner.matches(tags),
            Expr::And(all) => all.iter().all(|e| e.matches(tags)),
            Expr::Or(any) => any.iter().any(|e| e.matches(tags)),
        }
    }

    /// Calls `found` with the name of each tag a condition reads.
    pub(super) fn tag_names<'a>(&'a self, found: &mut impl FnMut(&'a str)) {
        match self {
            Expr::Condition(condition) => match &condition.test {
                Test::Text { tag, .. } => found(tag),
                Test::Integer { tag, .. } | Test::Date { tag, .. } => found(tag),
                Test::Elo { .. } => ["WhiteElo", "BlackElo"].into_iter().for_each(found),
                Test::Player { .. } => ["White", "Black"].into_iter().for_each(found),
                Test::Eco { .. } => found("ECO"),
                Test::Result(_) => found("Result"),
                Test::Clock { .. } => found("TimeControl"),
            },
            Expr::Not(inner) => inner.tag_names(found),
            Expr::And(all) | Expr::Or(all) => all.iter().for_each(|e| e.tag_names(found)),
        }
    }
}

impl Condition {
    fn matches<T: TagLookup + ?Sized>(&self, tags: &T) -> bool {
        match self.op {
            Op::Ne => !self.test.holds(Op::Eq, tags),
            op => self.test.holds(op, tags),
        }
    }
}

impl Test {
    /// Whether the game's tags satisfy `op` (never [`Op::Ne`], which is `!(=)`).
    fn holds<T: TagLookup + ?Sized>(&self, op: Op, tags: &T) -> bool {
        match self {
            Test::Text {
                tag,
                value,
                integer,
            } => tags
                .tag(tag)
                .is_some_and(|text| text_holds(op, text, value, *integer)),
            Test::Integer { tag, value } => {
                integer(tags.tag(tag)).is_some_and(|n| ordered(op, (n, n), (*value, *value)))
            }
            Test::Elo { players, value } => {
                let white = integer(tags.tag("WhiteElo"));
                let black = integer(tags.tag("BlackElo"));
                let holds = |elo: i64| ordered(op, (elo, elo), (*value, *value));
                match players {
                    Players::Either => white.is_some_and(holds) || black.is_some_and(holds),
                    Players::Both => white.is_some_and(holds) && black.is_some_and(holds),
                    // Compare the sum with twice the value (the average may end in .5), in 128
                    // bits: Elo tags near `i64::MAX` must not wrap round.
                    Players::Average => white.zip(black).is_some_and(|(w, b)| {
                        let (sum, twice) = (i128::from(w) + i128::from(b), i128::from(*value) * 2);
                        ordered(op, (sum, sum), (twice, twice))
                    }),
                }
            }
            Test::Player { value } => ["White", "Black"]
                .into_iter()
                .filter_map(|tag| tags.tag(tag))
                .any(|name| text_holds(op, name, value, None)),
            Test::Date { tag, first, last } => tags
                .tag(tag)
                .and_then(date_range)
                .is_some_and(|game| ordered(op, game, (*first, *last))),
            Test::Eco { first, last } => tags
                .tag("ECO")
                .and_then(eco_range)
                .is_some_and(|game| game.0 == game.1 && ordered(op, game, (*first, *last))),
            Test::Result(result) => op == Op::Eq && tags.tag("Result") == Some(*result),
            Test::Clock { part, value } => tags
                .tag("TimeControl")
                .and_then(|text| clock_value(*part, text))
                .is_some_and(|n| {
                    let value = match part {
                        ClockPart::Speed => *value,
                        ClockPart::Base | ClockPart::Increment => value.saturating_mul(1000),
                    };
                    ordered(op, (n, n), (value, value))
                }),
        }
    }
}

/// Whether a game's range `game` stands in `op` to the value's range `value`, for every point
/// of the game's range: `=` when it lies within the value's, `<` when it ends before the
/// value's starts, `<=` when it ends before the value's ends, and so on.
fn ordered<P: Ord>(op: Op, game: (P, P), value: (P, P)) -> bool {
    match op {
        Op::Eq => value.0 <= game.0 && game.1 <= value.1,
        Op::Lt => game.1 < value.0,
        Op::Le => game.1 <= value.1,
        Op::Gt => game.0 > value.1,
        Op::Ge => game.0 >= value.0,
        Op::Ne | Op::Contains => false,
    }
}

fn text_holds(op: Op, text: &str, value: &str, integer: Option<i64>) -> bool {
    if op == Op::Contains {
        return contains_ignoring_case(text, value);
    }
    if let (Some(value), Ok(n)) = (integer, text.trim().parse::<i64>()) {
        return ordered(op, (n, n), (value, value));
    }
    let order = text.cmp(value);
    match op {
        Op::Eq => order.is_eq(),
        Op::Lt => order.is_lt(),
        Op::Le => order.is_le(),
        Op::Gt => order.is_gt(),
        Op::Ge => order.is_ge(),
        Op::Ne | Op::Contains => false,
    }
}

fn contains_ignoring_case(text: &str, part: &str) -> bool {
    let (text, part) = (text.as_bytes(), part.as_bytes());
    part.is_empty()
        || text
            .windows(part.len())
            .any(|w| w.eq_ignore_ascii_case(part))
}

/// A tag's integer value; `None` for a missing tag or anything else (`?`, `-`).
fn integer(text: Option<&str>) -> Option<i64> {
    text?.trim().parse().ok()
}

/// A PGN date's range of `yyyymmdd`: `2024.05.??` is `20240501..=20240531`. `None` when the
/// year is unknown or the text is not a date.
pub(crate) fn date_range(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.trim().splitn(3, ['.', '-', '/']);
    let year = number_part(parts.next()?, 4, 0, 9999)??;
    let month = parts
        .next()
        .map_or(Some(None), |m| number_part(m, 2, 1, 12))?;
    // A day under an unknown month says nothing more than the year.
    let day = parts
        .next()
        .map_or(Some(None), |d| number_part(d, 2, 1, 31))?;
    let day = day.filter(|_| month.is_some());
    let first = year * 10_000 + month.unwrap_or(1) * 100 + day.unwrap_or(1);
    let last = year * 10_000 + month.unwrap_or(12) * 100 + day.unwrap_or(31);
    Some((first, last))
}

/// One part of a date: `Some(None)` for question marks (unknown), `Some(Some(n))` for a
/// number of `width` digits in `min..=max`, `None` for anything else.
fn number_part(text: &str, width: usize, min: u32, max: u32) -> Option<Option<u32>> {
    if text.len() != width {
        return None;
    }
    if text.bytes().all(|b| b == b'?') {
        return Some(None);
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u32 = text.parse().ok()?;
    (min..=max).contains(&n).then_some(Some(n))
}

/// An ECO code's range: `B20` is one code, `B2` is `B20..=B29`, `B` is `B00..=B99`. `None` for
/// anything but a letter `A` to `E` and up to two digits.
pub(super) fn eco_range(text: &str) -> Option<(u32, u32)> {
    let text = text.trim().as_bytes();
    let (&letter, digits) = text.split_first()?;
    let letter = match letter.to_ascii_uppercase() {
        b @ b'A'..=b'E' => u32::from(b - b'A') * 100,
        _ => return None,
    };
    if digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let prefix = digits.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0'));
    let (first, last) = match digits.len() {
        0 => (0, 99),
        1 => (prefix * 10, prefix * 10 + 9),
        _ => (prefix, prefix),
    };
    Some((letter + first, letter + last))
}

/// What a `TimeControl` tag gives for `part`: milliseconds for `Base` and `Increment` (of the
/// first period), the class's rank for `Speed`. `None` for `?` or a tag that does not read.
fn clock_value(part: ClockPart, text: &str) -> Option<i64> {
    match (TimeControl::from_pgn(text).ok()?, part) {
        (PgnTimeControl::Control(control), ClockPart::Speed) => {
            Some(speed_rank(control.lichess_speed()))
        }
        (PgnTimeControl::None, ClockPart::Speed) => Some(speed_rank(Speed::Correspondence)),
        (PgnTimeControl::Control(control), ClockPart::Base) => {
            i64::try_from(control.periods()[0].base_ms).ok()
        }
        (PgnTimeControl::Control(control), ClockPart::Increment) => {
            i64::try_from(control.periods()[0].bonus.millis()).ok()
        }
        _ => None,
    }
}

/// The rank of a speed class, fastest first (its place in [`Speed::ALL`], which is the order
/// of its declaration), for comparisons.
pub(super) fn speed_rank(speed: Speed) -> i64 {
    speed as i64
}
