//! Rule sets: how strictly the arbiter applies Articles 4, 6, 7 and 9.
//!
//! One configurable value, [`Rules`], holds every choice the Laws leave to the competition (or
//! that differ between over-the-board and online play). Named profiles build it:
//!
//! | name | penalty | illegal moves | loses at | touch-move | flags | offers | auto draws |
//! |---|---|---|---|---|---|---|---|
//! | `fide-standard` | 2 min (7.5.5, 9.5) | arbiter acts at once (7.5) | 2nd | arbiter corrects at once | when observed (6.8) | any time | 9.6 only |
//! | `fide-rapid` | 1 min (A.3) | at once (A.4) | 2nd | at once | observed | any time | 9.6 only |
//! | `fide-rapid-unsupervised` | 1 min | only if claimed before the reply (A.5.2) | 2nd | on claim | observed | any time | 9.6 only |
//! | `fide-blitz` | 1 min (the common reading of B.2) | at once (B.2) | 2nd | at once | observed | any time | 9.6 only |
//! | `fide-blitz-unsupervised` | 1 min (B.3 → A.3) | claimed before the reply (B.3 → A.5.2) | 2nd | on claim | observed | any time | 9.6 only |
//! | `online` | none | refused, never played | never | off | at once | any time | also at 50 moves |
//! | `club` | 1 min | claimed before the reply | 3rd | on claim | observed | any time, not again after a decline until the opponent offers | 9.6 only |
//!
//! # The text form
//!
//! [`Rules`]'s `FromStr` reads a profile name followed by optional `key=value` changes
//! separated by spaces: `club illegal_moves_to_lose=2 penalty_ms=120000`; `Display` writes the
//! name and every field that differs from the profile, so the text round-trips. The keys are the
//! field names of [`Rules`]; values are numbers, `true`/`false`, `none` for
//! [`Rules::illegal_moves_to_lose`] and [`Rules::offers_from_move`], and the snake-case names of
//! the enums' variants (`arbiter`, `on_claim`, `reject`, `enforced`, `off`, `immediate`,
//! `on_observation`).

use core::fmt;
use core::str::FromStr;

/// A named profile: where a [`Rules`] value starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// `fide-standard`: the Laws' Competition Rules, standard time controls.
    FideStandard,
    /// `fide-rapid`: Appendix A with adequate supervision (A.4).
    FideRapid,
    /// `fide-rapid-unsupervised`: Appendix A without adequate supervision (A.5).
    FideRapidUnsupervised,
    /// `fide-blitz`: Appendix B with adequate supervision (B.2).
    FideBlitz,
    /// `fide-blitz-unsupervised`: Appendix B without adequate supervision (B.3).
    FideBlitzUnsupervised,
    /// `online`: what chess servers do (illegal input refused, flags fall at once, automatic draw
    /// at fifty moves).
    Online,
    /// `club`: a club's rules (three illegal moves lose, no repeated draw offers).
    Club,
}

impl Profile {
    /// Every profile, in the order of the table in the module docs.
    pub const ALL: [Profile; 7] = [
        Profile::FideStandard,
        Profile::FideRapid,
        Profile::FideRapidUnsupervised,
        Profile::FideBlitz,
        Profile::FideBlitzUnsupervised,
        Profile::Online,
        Profile::Club,
    ];

    /// The profile's name, as the event log writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Profile::FideStandard => "fide-standard",
            Profile::FideRapid => "fide-rapid",
            Profile::FideRapidUnsupervised => "fide-rapid-unsupervised",
            Profile::FideBlitz => "fide-blitz",
            Profile::FideBlitzUnsupervised => "fide-blitz-unsupervised",
            Profile::Online => "online",
            Profile::Club => "club",
        }
    }
}

/// How illegal moves are handled (Article 7.5 and Appendix A.5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMoves {
    /// `arbiter`: the arbiter acts on every completed illegal move at once (7.5.1, 7.5.5; A.4, B.2).
    Arbiter,
    /// `on_claim`: an illegal move is penalised only if the opponent claims it (or the arbiter
    /// rules on it) before completing their own next move; otherwise it stands (A.5.2, B.3).
    OnClaim,
    /// `reject`: illegal input is refused and never enters the game, as servers do.
    Reject,
}

/// How touch-move (Article 4) is enforced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TouchMove {
    /// `enforced`: the arbiter sees every touch and refuses a move that breaks Article 4 at once.
    Enforced,
    /// `on_claim`: a breach stands unless the opponent claims it before touching a piece (4.8).
    OnClaim,
    /// `off`: touches are not reported or not binding (online play).
    Off,
}

/// When a fallen flag counts (6.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlagPolicy {
    /// `immediate`: the flag falls the moment the time runs out, as servers decide it; a move
    /// arriving later is refused.
    Immediate,
    /// `on_observation`: a flag counts only once the arbiter observes it or a player claims it
    /// (6.8); whatever ends the game before then stands.
    OnObservation,
}

/// Every choice a competition makes about the Laws the arbiter applies.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The profile these rules start from (kept to write them back).
    pub profile: Profile,
    /// Time added to the opponent's clock for a penalised illegal move (7.5.5) or an incorrect
    /// draw claim (9.5.3), in milliseconds.
    pub penalty_ms: u64,
    /// How illegal moves are handled.
    pub illegal_moves: IllegalMoves,
    /// The number of penalised illegal moves by one player that loses the game (7.5.5: the
    /// second); `None`: never.
    pub illegal_moves_to_lose: Option<u32>,
    /// How touch-move is enforced.
    pub touch_move: TouchMove,
    /// When a fallen flag counts.
    pub flag_policy: FlagPolicy,
    /// The move number from which draws may be offered and agreed (9.1.1); `None`: never
    /// without the arbiter. `Some(1)`: from the start.
    pub offers_from_move: Option<u32>,
    /// Club rule: a player whose offer was declined may not offer again until the opponent has
    /// offered (the Laws leave repeated offers to 11.5).
    pub no_repeat_offer: bool,
    /// Server rule: the game is drawn automatically once fifty moves by each player have passed
    /// without a capture or a pawn move (no claim needed).
    pub auto_draw_fifty: bool,
    /// Server rule: the game is drawn automatically at the third occurrence of a position.
    pub auto_draw_threefold: bool,
    /// The clock shows which flag fell first (electronic clocks): when both flags are down, the
    /// first to fall loses (subject to 6.9). Without it, in a game that Guidelines III govern
    /// (standard or rapid, no increment or delay in any period: III.2.2), III.3.1 decides: a
    /// draw in the last period, play on before it. Elsewhere (blitz, or a control with an
    /// increment or delay) the guidelines do not apply, and the order the log's times
    /// establish decides as with the indicator.
    pub first_flag_indicator: bool,
}

impl Rules {
    /// The Laws' Competition Rules for standard games.
    #[must_use]
    pub const fn fide_standard() -> Rules {
        Rules {
            profile: Profile::FideStandard,
            penalty_ms: 120_000,
            illegal_moves: IllegalMoves::Arbiter,
            illegal_moves_to_lose: Some(2),
            touch_move: TouchMove::Enforced,
            flag_policy: FlagPolicy::OnObservation,
            offers_from_move: Some(1),
            no_repeat_offer: false,
            auto_draw_fifty: false,
            auto_draw_threefold: false,
            first_flag_indicator: true,
        }
    }

    /// Rapid with adequate supervision (A.4): the Competition Rules with one-minute penalties (A.3).
    #[must_use]
    pub const fn fide_rapid() -> Rules {
        Rules {
            profile: Profile::FideRapid,
            penalty_ms: 60_000,
            ..Rules::fide_standard()
        }
    }

    /// Rapid without adequate supervision (A.5): illegal moves and touch-move breaches only on
    /// claim, before the opponent's reply.
    #[must_use]
    pub const fn fide_rapid_unsupervised() -> Rules {
        Rules {
            profile: Profile::FideRapidUnsupervised,
            illegal_moves: IllegalMoves::OnClaim,
            touch_move: TouchMove::OnClaim,
            ..Rules::fide_rapid()
        }
    }

    /// Blitz with adequate supervision (B.2). The penalty is one minute, the common reading (B.2
    /// literally applies the Competition Rules' two minutes; set [`Rules::penalty_ms`] for that).
    #[must_use]
    pub const fn fide_blitz() -> Rules {
        Rules {
            profile: Profile::FideBlitz,
            ..Rules::fide_rapid()
        }
    }

    /// Blitz without adequate supervision (B.3, which applies A.2, A.3 and A.5).
    #[must_use]
    pub const fn fide_blitz_unsupervised() -> Rules {
        Rules {
            profile: Profile::FideBlitzUnsupervised,
            ..Rules::fide_rapid_unsupervised()
        }
    }

    /// A chess server: illegal input is refused, touch-move does not exist, a flag falls at
    /// once, and fifty moves draw automatically (as lichess does); no penalty times.
    #[must_use]
    pub const fn online() -> Rules {
        Rules {
            profile: Profile::Online,
            penalty_ms: 0,
            illegal_moves: IllegalMoves::Reject,
            illegal_moves_to_lose: None,
            touch_move: TouchMove::Off,
            flag_policy: FlagPolicy::Immediate,
            offers_from_move: Some(1),
            no_repeat_offer: false,
            auto_draw_fifty: true,
            auto_draw_threefold: false,
            first_flag_indicator: true,
        }
    }

    /// A club's rules: one-minute penalties, the third illegal move loses (configurable),
    /// illegal moves and touch-move breaches on claim, no repeated draw offers.
    #[must_use]
    pub const fn club() -> Rules {
        Rules {
            profile: Profile::Club,
            penalty_ms: 60_000,
            illegal_moves: IllegalMoves::OnClaim,
            illegal_moves_to_lose: Some(3),
            touch_move: TouchMove::OnClaim,
            flag_policy: FlagPolicy::OnObservation,
            offers_from_move: Some(1),
            no_repeat_offer: true,
            auto_draw_fifty: false,
            auto_draw_threefold: false,
            first_flag_indicator: true,
        }
    }

    /// The rules of a profile.
    #[must_use]
    pub const fn of(profile: Profile) -> Rules {
        match profile {
            Profile::FideStandard => Rules::fide_standard(),
            Profile::FideRapid => Rules::fide_rapid(),
            Profile::FideRapidUnsupervised => Rules::fide_rapid_unsupervised(),
            Profile::FideBlitz => Rules::fide_blitz(),
            Profile::FideBlitzUnsupervised => Rules::fide_blitz_unsupervised(),
            Profile::Online => Rules::online(),
            Profile::Club => Rules::club(),
        }
    }

    /// Whether the arbiter watches the game (A.4, B.2, standard): illegal moves are acted on at
    /// once.
    #[must_use]
    pub const fn supervised(&self) -> bool {
        matches!(self.illegal_moves, IllegalMoves::Arbiter)
    }

    /// The `key=value` pairs of every field, in a fixed order.
    fn fields(&self) -> [(&'static str, String); 10] {
        let enum_name = |s: &'static str| s.to_owned();
        [
            ("penalty_ms", self.penalty_ms.to_string()),
            (
                "illegal_moves",
                enum_name(match self.illegal_moves {
                    IllegalMoves::Arbiter => "arbiter",
                    IllegalMoves::OnClaim => "on_claim",
                    IllegalMoves::Reject => "reject",
                }),
            ),
            (
                "illegal_moves_to_lose",
                self.illegal_moves_to_lose
                    .map_or_else(|| "none".to_owned(), |n| n.to_string()),
            ),
            (
                "touch_move",
                enum_name(match self.touch_move {
                    TouchMove::Enforced => "enforced",
                    TouchMove::OnClaim => "on_claim",
                    TouchMove::Off => "off",
                }),
            ),
            (
                "flag_policy",
                enum_name(match self.flag_policy {
                    FlagPolicy::Immediate => "immediate",
                    FlagPolicy::OnObservation => "on_observation",
                }),
            ),
            (
                "offers_from_move",
                self.offers_from_move
                    .map_or_else(|| "none".to_owned(), |n| n.to_string()),
            ),
            ("no_repeat_offer", self.no_repeat_offer.to_string()),
            ("auto_draw_fifty", self.auto_draw_fifty.to_string()),
            ("auto_draw_threefold", self.auto_draw_threefold.to_string()),
            (
                "first_flag_indicator",
                self.first_flag_indicator.to_string(),
            ),
        ]
    }

    /// Sets the field `key` from `value`.
    fn set(&mut self, key: &str, value: &str) -> Result<(), ParseRulesErrorKind> {
        use ParseRulesErrorKind::{
            ExpectedBool, ExpectedCount, ExpectedMilliseconds, ExpectedOneOf, UnknownKey,
        };
        fn flag(value: &str) -> Result<bool, ParseRulesErrorKind> {
            value.parse().map_err(|_| ExpectedBool)
        }
        /// A count from 1 (0 would mean the same as 1), or `none`.
        fn count(value: &str) -> Result<Option<u32>, ParseRulesErrorKind> {
            match value {
                "none" => Ok(None),
                _ => value
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .map(Some)
                    .ok_or(ExpectedCount),
            }
        }
        match key {
            "penalty_ms" => {
                self.penalty_ms = value
                    .parse()
                    .ok()
                    .filter(|&ms| ms <= crate::MAX_TIME_MS)
                    .ok_or(ExpectedMilliseconds)?;
            }
            "illegal_moves" => {
                self.illegal_moves = match value {
                    "arbiter" => IllegalMoves::Arbiter,
                    "on_claim" => IllegalMoves::OnClaim,
                    "reject" => IllegalMoves::Reject,
                    _ => return Err(ExpectedOneOf(&["arbiter", "on_claim", "reject"])),
                };
            }
            "illegal_moves_to_lose" => self.illegal_moves_to_lose = count(value)?,
            "touch_move" => {
                self.touch_move = match value {
                    "enforced" => TouchMove::Enforced,
                    "on_claim" => TouchMove::OnClaim,
                    "off" => TouchMove::Off,
                    _ => return Err(ExpectedOneOf(&["enforced", "on_claim", "off"])),
                };
            }
            "flag_policy" => {
                self.flag_policy = match value {
                    "immediate" => FlagPolicy::Immediate,
                    "on_observation" => FlagPolicy::OnObservation,
                    _ => return Err(ExpectedOneOf(&["immediate", "on_observation"])),
                };
            }
            "offers_from_move" => self.offers_from_move = count(value)?,
            "no_repeat_offer" => self.no_repeat_offer = flag(value)?,
            "auto_draw_fifty" => self.auto_draw_fifty = flag(value)?,
            "auto_draw_threefold" => self.auto_draw_threefold = flag(value)?,
            "first_flag_indicator" => self.first_flag_indicator = flag(value)?,
            _ => return Err(UnknownKey),
        }
        Ok(())
    }
}

impl Default for Rules {
    /// [`Rules::fide_standard`].
    fn default() -> Rules {
        Rules::fide_standard()
    }
}

impl From<Profile> for Rules {
    fn from(profile: Profile) -> Rules {
        Rules::of(profile)
    }
}

impl fmt::Display for Rules {
    /// The profile's name, then `key=value` for each field that differs from it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.profile.name())?;
        let base = Rules::of(self.profile).fields();
        for ((key, value), (_, default)) in self.fields().iter().zip(&base) {
            if value != default {
                write!(f, " {key}={value}")?;
            }
        }
        Ok(())
    }
}

/// A rules text that could not be read: what was wrong and at which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid rules: {kind} at byte {byte}")]
pub struct ParseRulesError {
    /// Byte offset of the problem.
    pub byte: usize,
    /// What was wrong.
    pub kind: ParseRulesErrorKind,
}

/// What is wrong with a rules text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseRulesErrorKind {
    /// No profile name.
    #[error("expected a rules name")]
    MissingProfile,
    /// A name that is no profile's.
    #[error(
        "unknown rules name (fide-standard, fide-rapid, fide-rapid-unsupervised, fide-blitz, \
         fide-blitz-unsupervised, online, club)"
    )]
    UnknownProfile,
    /// A change that is not `key=value`.
    #[error("expected key=value")]
    ExpectedKeyValue,
    /// A key that names no field of [`Rules`].
    #[error("unknown rule")]
    UnknownKey,
    /// Not `true` or `false`.
    #[error("expected true or false")]
    ExpectedBool,
    /// Not a count from 1, or `none`.
    #[error("expected a number from 1, or none")]
    ExpectedCount,
    /// Not a number of milliseconds up to [`MAX_TIME_MS`](crate::MAX_TIME_MS).
    #[error("expected a number of milliseconds")]
    ExpectedMilliseconds,
    /// Not one of the names the key takes.
    #[error("expected one of {}", .0.join(", "))]
    ExpectedOneOf(&'static [&'static str]),
}

/// With the `serde` feature, rules are their text: `"club illegal_moves_to_lose=2"`.
#[cfg(feature = "serde")]
impl serde::Serialize for Rules {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Rules {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Rules, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Reads a profile name and optional `key=value` changes (see the module docs).
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        let mut words = s
            .split(' ')
            .scan(0, |offset, word| {
                let at = *offset;
                *offset += word.len() + 1;
                Some((at, word))
            })
            .filter(|(_, word)| !word.is_empty());
        let (at, name) = words.next().ok_or(ParseRulesError {
            byte: 0,
            kind: ParseRulesErrorKind::MissingProfile,
        })?;
        let profile =
            Profile::ALL
                .into_iter()
                .find(|p| p.name() == name)
                .ok_or(ParseRulesError {
                    byte: at,
                    kind: ParseRulesErrorKind::UnknownProfile,
                })?;
        let mut rules = Rules::of(profile);
        for (at, word) in words {
            let (key, value) = word.split_once('=').ok_or(ParseRulesError {
                byte: at,
                kind: ParseRulesErrorKind::ExpectedKeyValue,
            })?;
            rules.set(key, value).map_err(|kind| ParseRulesError {
                byte: if kind == ParseRulesErrorKind::UnknownKey {
                    at
                } else {
                    at + key.len() + 1
                },
                kind,
            })?;
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for profile in Profile::ALL {
            let rules = Rules::of(profile);
            assert_eq!(rules.to_string(), profile.name());
            assert_eq!(profile.name().parse::<Rules>(), Ok(rules));
        }
    }

    #[test]
    fn changes_round_trip_and_errors_say_where() {
        let rules: Rules = "club illegal_moves_to_lose=2 penalty_ms=120000 touch_move=off"
            .parse()
            .unwrap();
        assert_eq!(rules.illegal_moves_to_lose, Some(2));
        assert_eq!(rules.penalty_ms, 120_000);
        assert_eq!(rules.touch_move, TouchMove::Off);
        assert_eq!(
            rules.to_string(),
            "club penalty_ms=120000 illegal_moves_to_lose=2 touch_move=off"
        );
        assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
        let none: Rules = "fide-standard offers_from_move=none illegal_moves_to_lose=none"
            .parse()
            .unwrap();
        assert_eq!(
            (none.offers_from_move, none.illegal_moves_to_lose),
            (None, None)
        );
        for (text, byte) in [
            ("", 0),
            ("fide", 0),
            ("club x", 5),
            ("club foo=1", 5),
            ("club penalty_ms=x", 16),
            ("club  touch_move=maybe", 17),
            ("club illegal_moves_to_lose=0", 27),
            ("club offers_from_move=0", 22),
        ] {
            assert_eq!(text.parse::<Rules>().unwrap_err().byte, byte, "{text}");
        }
    }

    #[test]
    fn profiles_differ_where_the_laws_do() {
        assert_eq!(Rules::fide_standard().penalty_ms, 120_000);
        assert_eq!(Rules::fide_rapid().penalty_ms, 60_000);
        assert!(Rules::fide_blitz().supervised());
        assert!(!Rules::fide_blitz_unsupervised().supervised());
        assert_eq!(Rules::club().illegal_moves_to_lose, Some(3));
        assert_eq!(Rules::online().flag_policy, FlagPolicy::Immediate);
    }
}
