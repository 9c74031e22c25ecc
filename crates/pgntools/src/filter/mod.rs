//! Tag filters: `WhiteElo >= 2400 and not Event ~ bullet`, typed by the tag they name.
//!
//! A [`Filter`] is an expression of conditions `TAG OP VALUE` combined with `and`, `or`, `not`
//! and parentheses (`not` binds tightest, then `and`, then `or`; the words in any case). It is
//! read from text ([`Filter::from_str`](core::str::FromStr)) and decided from a game's tags alone
//! ([`Filter::matches`]), so that games it rejects need never be replayed.
//!
//! # Operators
//!
//! `=` (or `==`), `!=`, `<`, `<=`, `>`, `>=`, and `~`, which holds when the tag contains the
//! value, ignoring ASCII case (`White ~ carlsen`). `!=` holds exactly when `=` does not, so it also
//! holds for a game without the tag; every other operator needs the tag.
//!
//! # Values
//!
//! A value is a bare text, which ends at `)`, before a word `and` or `or`, or at the end (so
//! `Event = Rated Blitz game` needs no quotes), or a quoted one, `"..."` with `\"` and `\\`.
//! How it compares depends on the tag:
//!
//! | tag | compares as |
//! |---|---|
//! | `WhiteElo`, `BlackElo`, `WhiteRatingDiff`, `BlackRatingDiff`, `PlyCount`, `WhiteFideId`, `BlackFideId` | integers |
//! | `Elo`, `BothElo`, `AvgElo` | integers: either player's Elo, both players', their average (both needed) |
//! | `Player` | text: either player's name (`White` or `Black`) |
//! | `Date`, `UTCDate`, `EventDate` | dates, see below |
//! | `ECO` | opening codes, see below |
//! | `Result` | `1-0`, `0-1`, `1/2-1/2` or `*`; only `=` and `!=` |
//! | `Base`, `Increment` | integer seconds: the first period of `TimeControl` (`180+2`: 180 and 2) |
//! | `Speed` | `ultrabullet < bullet < blitz < rapid < classical < correspondence`, the lichess classes of `TimeControl` (base + 40 × increment; `-` is correspondence) |
//! | any other tag | text, byte by byte; as integers when both sides are integers |
//!
//! Typed tags refuse `~` and values that are not of their type, when the filter is read. A tag
//! value that does not read as its type (`?`, `-`, a misspelt date) counts as missing.
//!
//! Dates and opening codes may be partial, on either side: `2024.??.??` (or `2024`) is the
//! whole year, `B2` the codes `B20` to `B29`. A partial value is the range of what it may be,
//! and a condition holds only when it holds for every point of the game's range: `Date = 2024`
//! holds for `2024.05.??`; `Date >= 2024.05` for `2024.05.??` and later; `Date < 2024.06.01`
//! not for `2024.??.??`. A date with an unknown year is missing.

mod eval;
mod parse;

use core::fmt;
use core::str::FromStr;

pub(crate) use eval::date_range;
pub use parse::{ParseFilterError, ParseFilterErrorKind};

/// A parsed tag filter: conditions on tags combined with `and`, `or`, `not`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    expr: Expr,
}

/// A filter's expression.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Expr {
    Condition(Condition),
    Not(Box<Expr>),
    And(Vec<Expr>),
    Or(Vec<Expr>),
}

/// `TAG OP VALUE`: what is compared, typed, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Condition {
    test: Test,
    op: Op,
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `=`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `~`: contains, ignoring ASCII case.
    Contains,
}

impl Op {
    /// The operator as written.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Op::Eq => "=",
            Op::Ne => "!=",
            Op::Lt => "<",
            Op::Le => "<=",
            Op::Gt => ">",
            Op::Ge => ">=",
            Op::Contains => "~",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a condition compares, with its value read for that.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Test {
    /// A tag compared as text, or as integers when both sides are.
    Text {
        tag: String,
        value: String,
        integer: Option<i64>,
    },
    /// A tag compared as an integer.
    Integer { tag: String, value: i64 },
    /// `Elo`, `BothElo`, `AvgElo`.
    Elo { players: Players, value: i64 },
    /// `Player`: `White` or `Black`, as text.
    Player { value: String },
    /// A date tag; the value as the range of `yyyymmdd` it may be.
    Date { tag: String, first: u32, last: u32 },
    /// `ECO`; the value as the range of codes (`letter * 100 + number`) it may be.
    Eco { first: u32, last: u32 },
    /// `Result`, as written.
    Result(&'static str),
    /// `Base` or `Increment` in seconds, or `Speed` as its class's rank.
    Clock { part: ClockPart, value: i64 },
}

/// Which players' Elo an `Elo` condition asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Players {
    Either,
    Both,
    Average,
}

/// A part of the `TimeControl` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ClockPart {
    Base,
    Increment,
    Speed,
}

/// A game's tags, as a filter asks for them: the value of the first tag of a name.
///
/// Implemented for slices of `(name, value)` pairs and for
/// [`Tags`](caissa_notation::pgn::Tags).
pub trait TagLookup {
    /// The value of the first tag named `name`, if any.
    fn tag(&self, name: &str) -> Option<&str>;
}

impl<N: AsRef<str>, V: AsRef<str>> TagLookup for [(N, V)] {
    fn tag(&self, name: &str) -> Option<&str> {
        self.iter()
            .find(|(n, _)| n.as_ref() == name)
            .map(|(_, v)| v.as_ref())
    }
}

impl TagLookup for caissa_notation::pgn::Tags {
    fn tag(&self, name: &str) -> Option<&str> {
        self.get(name)
    }
}

impl Filter {
    /// A filter that holds when all of `filters` do (and for every game when there is none):
    /// what several `--where` options mean.
    #[must_use]
    pub fn all(filters: impl IntoIterator<Item = Filter>) -> Filter {
        Filter {
            expr: Expr::And(filters.into_iter().map(|f| f.expr).collect()),
        }
    }

    /// Whether a game with these tags passes.
    #[must_use]
    pub fn matches<T: TagLookup + ?Sized>(&self, tags: &T) -> bool {
        self.expr.matches(tags)
    }

    /// The names of the tags the filter reads, each once, in the order first named: a reader
    /// need keep no other tag to decide it.
    #[must_use]
    pub fn tag_names(&self) -> Vec<&str> {
        let mut names = Vec::new();
        self.expr.tag_names(&mut |name| {
            if !names.contains(&name) {
                names.push(name);
            }
        });
        names
    }
}

impl Default for Filter {
    /// The filter every game passes.
    fn default() -> Filter {
        Filter::all([])
    }
}

impl FromStr for Filter {
    type Err = ParseFilterError;

    fn from_str(text: &str) -> Result<Filter, ParseFilterError> {
        parse::parse(text).map(|expr| Filter { expr })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: [(&str, &str); 12] = [
        ("Event", "Rated Blitz game"),
        ("Date", "2024.05.??"),
        ("UTCDate", "2024.05.17"),
        ("White", "Carlsen, Magnus"),
        ("Black", "Nakamura, Hikaru"),
        ("Result", "1/2-1/2"),
        ("WhiteElo", "2830"),
        ("BlackElo", "2790"),
        ("ECO", "B33"),
        ("TimeControl", "180+2"),
        ("Round", "10"),
        ("Termination", "Normal"),
    ];

    /// Each filter, and whether it holds for [`GAME`].
    fn check(cases: &[(&str, bool)]) {
        for &(text, expected) in cases {
            let filter: Filter = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(filter.matches(&GAME[..]), expected, "{text}");
        }
    }

    #[test]
    fn integers_compare_as_integers() {
        check(&[
            ("WhiteElo >= 2800", true),
            ("WhiteElo>2830", false),
            ("BlackElo < 2800", true),
            ("WhiteElo = 2830", true),
            ("WhiteElo != 2830", false),
            // A text tag with an integer on both sides: 10 > 9, not "10" < "9".
            ("Round > 9", true),
            ("PlyCount > 0", false),
            ("PlyCount != 5", true),
        ]);
    }

    #[test]
    fn elo_of_either_both_or_the_average() {
        check(&[
            ("Elo >= 2800", true),
            ("BothElo >= 2800", false),
            ("BothElo >= 2790", true),
            ("AvgElo = 2810", true),
            ("AvgElo > 2810", false),
            ("Elo < 2790", false),
        ]);
        // The average may end in .5: 2830 and 2791 average 2810.5.
        let tags = [("WhiteElo", "2830"), ("BlackElo", "2791")];
        let above: Filter = "AvgElo > 2810".parse().expect("a filter");
        let below: Filter = "AvgElo < 2811".parse().expect("a filter");
        assert!(above.matches(&tags[..]) && below.matches(&tags[..]));
        // Elos near the integers' end average without wrapping round.
        let huge = [
            ("WhiteElo", "9223372036854775807"),
            ("BlackElo", "9223372036854775807"),
        ];
        for (text, expected) in [("AvgElo > 2000", true), ("AvgElo < 0", false)] {
            let filter: Filter = text.parse().expect("a filter");
            assert_eq!(filter.matches(&huge[..]), expected, "{text}");
        }
        // Without both Elos there is no average, and no `both`.
        let one = [("WhiteElo", "2830"), ("BlackElo", "?")];
        for text in ["AvgElo > 0", "BothElo > 0"] {
            assert!(!text.parse::<Filter>().expect("a filter").matches(&one[..]));
        }
        assert!(
            "Elo > 0"
                .parse::<Filter>()
                .expect("a filter")
                .matches(&one[..])
        );
    }

    #[test]
    fn names_exact_or_contained_ignoring_case() {
        check(&[
            ("White = \"Carlsen, Magnus\"", true),
            ("White == \"Carlsen, Magnus\"", true),
            ("White = Carlsen, Magnus", true),
            ("White = carlsen, magnus", false),
            ("White ~ CARLSEN", true),
            ("Player ~ nakamura", true),
            ("Player = \"Nakamura, Hikaru\"", true),
            ("Player ~ caruana", false),
            ("Event ~ blitz", true),
            ("Event = Rated Blitz game", true),
            ("Termination = Normal", true),
            ("Site ~ lichess", false),
            ("Site != x", true),
        ]);
    }

    #[test]
    fn dates_partial_on_either_side() {
        check(&[
            ("Date = 2024", true),
            ("Date = 2024.05", true),
            ("Date = 2024.05.17", false),
            ("Date >= 2024.05.01", true),
            ("Date > 2024.04", true),
            ("Date < 2024.06", true),
            ("Date < 2024.05.31", false),
            ("Date <= 2024.05", true),
            ("Date > 2024.05.10", false),
            ("UTCDate = 2024.05.17", true),
            ("UTCDate = 2024-05-17", true),
            ("UTCDate > 2024.05.16", true),
            ("EventDate > 1900", false),
            ("EventDate != 1900", true),
        ]);
        let unknown = [("Date", "????.??.??")];
        for text in ["Date < 3000", "Date > 0001", "Date = 2024"] {
            assert!(
                !text
                    .parse::<Filter>()
                    .expect("a filter")
                    .matches(&unknown[..])
            );
        }
    }

    #[test]
    fn eco_by_prefix_and_range() {
        check(&[
            ("ECO = B", true),
            ("ECO = B3", true),
            ("ECO = B33", true),
            ("ECO = B34", false),
            ("ECO = b3", true),
            ("ECO >= B30", true),
            ("ECO < B4", true),
            ("ECO < B3", false),
            ("ECO > A", true),
            ("ECO <= B2", false),
        ]);
    }

    #[test]
    fn results_and_time_controls() {
        check(&[
            ("Result = 1/2-1/2", true),
            ("Result != 1-0", true),
            ("Base = 180", true),
            ("Increment = 2", true),
            ("Increment > 2", false),
            ("Speed = blitz", true),
            ("Speed >= bullet", true),
            ("Speed > blitz", false),
            ("Speed = Blitz", true),
            ("TimeControl = 180+2", true),
        ]);
        let correspondence = [("TimeControl", "-")];
        let speed: Filter = "Speed = correspondence".parse().expect("a filter");
        assert!(speed.matches(&correspondence[..]));
        let base: Filter = "Base >= 0".parse().expect("a filter");
        assert!(!base.matches(&correspondence[..]));
    }

    #[test]
    fn and_or_not_and_parentheses() {
        check(&[
            ("WhiteElo > 2800 and BlackElo > 2800", false),
            ("WhiteElo > 2800 or BlackElo > 2800", true),
            ("not WhiteElo > 2800", false),
            ("NOT (WhiteElo > 2800 AND BlackElo > 2800)", true),
            ("Event ~ bullet or Event ~ blitz and WhiteElo > 3000", false),
            (
                "(Event ~ bullet or Event ~ blitz) and WhiteElo > 2000",
                true,
            ),
            ("not not Result = 1/2-1/2", true),
            ("Opening = Sicilian or ECO = B", true),
        ]);
        let all = Filter::all(["WhiteElo > 2800", "Result = 1-0"].map(|t| t.parse().expect("ok")));
        assert!(!all.matches(&GAME[..]));
        assert!(Filter::all([]).matches(&GAME[..]));
    }

    #[test]
    fn tag_names_are_those_read() {
        let filter: Filter = "Elo > 2000 and (ECO = B or Speed = blitz) and Event ~ x"
            .parse()
            .expect("a filter");
        assert_eq!(
            filter.tag_names(),
            ["WhiteElo", "BlackElo", "ECO", "TimeControl", "Event"]
        );
    }

    #[test]
    fn errors_say_what_and_where() {
        use ParseFilterErrorKind as K;
        let cases: [(&str, usize, K); 13] = [
            ("", 0, K::ExpectedTag),
            ("WhiteElo", 8, K::ExpectedOperator),
            ("WhiteElo >=", 11, K::ExpectedValue),
            (
                "WhiteElo >= x",
                12,
                K::NotAnInteger {
                    tag: "WhiteElo".into(),
                    value: "x".into(),
                },
            ),
            ("White = \"a", 8, K::UnterminatedQuote),
            ("(Result = 1-0", 13, K::ExpectedCloseParen),
            ("Result = 1-0)", 12, K::UnmatchedCloseParen),
            ("Result = \"1-0\" x", 15, K::Unexpected("x".into())),
            ("Date = 2024.13", 7, K::NotADate("2024.13".into())),
            ("ECO = F00", 6, K::NotAnEco("F00".into())),
            (
                "Result < 1-0",
                0,
                K::OperatorNotForTag {
                    op: Op::Lt,
                    tag: "Result".into(),
                },
            ),
            (
                "WhiteElo ~ 2",
                0,
                K::OperatorNotForTag {
                    op: Op::Contains,
                    tag: "WhiteElo".into(),
                },
            ),
            ("Speed = slow", 8, K::NotASpeed("slow".into())),
        ];
        for (text, byte, kind) in cases {
            assert_eq!(
                text.parse::<Filter>(),
                Err(ParseFilterError { byte, kind }),
                "{text}"
            );
        }
        let deep = format!("{}Result = *{}", "(".repeat(100), ")".repeat(100));
        assert_eq!(deep.parse::<Filter>().map_err(|e| e.kind), Err(K::TooDeep));
        assert_eq!(
            "WhiteElo >= x".parse::<Filter>().map_err(|e| e.to_string()),
            Err("WhiteElo compares integers, not `x` at byte 12".to_owned())
        );
    }
}
