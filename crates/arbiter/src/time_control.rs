//! Time controls: periods, increments and delays, and how they are written.
//!
//! A [`TimeControl`] is a list of [`Period`]s. Each period gives a base time, optionally for a
//! number of moves (the last period may be for the rest of the game; if it also has a move quota,
//! it repeats), and a [`Bonus`] per move: a Fischer increment, a simple (US, FIDE "time-delay")
//! delay or a Bronstein delay. The bonus may start at a given move number. Times are integer
//! milliseconds.
//!
//! # The PGN `TimeControl` tag
//!
//! [`TimeControl::from_pgn`] and [`TimeControl::to_pgn`] read and write the PGN standard's form, in
//! seconds: periods separated by `:`, each `moves/seconds` or `seconds` (the last one without a
//! move count is sudden death), with an optional `+increment` (`180+2`, `40/5400+30:1800+30`);
//! `*seconds` is an hourglass; `?` is unknown and `-` no control ([`PgnTimeControl`]).
//! **Extension** for what the standard cannot say: `d` instead of `+` for a simple delay
//! (`300d5`), `b` for a Bronstein delay (`300b5`), and `@N` after a bonus for a bonus that starts
//! at move N (`5400+30@41`). Fractional seconds are allowed (`0.5`), kept to the millisecond.
//!
//! # The readable form
//!
//! [`TimeControl`]'s `Display` and `FromStr` use units: periods are durations in `h`, `m` (and
//! optional `s`; written back as whole hours or as minutes), with `/moves` for a quota, joined
//! by `+`; the bonus is a final `+` term in seconds only, `30s` for an increment, `d30s` for a simple delay, `b30s` for a Bronstein delay,
//! optionally followed by `@N`: `3m+2s`, `90m/40+30m+30s`, `5m+d5s`, `2h/40+1h+30s@41`. A period
//! shorter than a minute is written with minutes, `0m30s`, so it cannot be taken for a bonus.
//! A control whose periods have different bonuses is written in the PGN form, which can say it.
//!
//! `FromStr` reads either form (the readable one when the text has units), `{:#}` writes the
//! PGN form; [`PgnTimeControl`] reads and writes a tag value, `?` and `-` included.
//!
//! # Time odds
//!
//! Players on different controls have no form in the PGN standard, whose `TimeControl` tag
//! holds one control. [`insert_pgn_tags`] then writes `WhiteTimeControl` and
//! `BlackTimeControl`, each in the `TimeControl` syntax, and no `TimeControl` tag: the tags
//! cutechess writes, which fastchess adopted, so that their readers read ours.
//!
//! # Speed classes
//!
//! [`TimeControl::fide_speed`] follows FIDE (blitz if base + 60 × increment ≤ 10 min, rapid if
//! below 60 min, else standard); [`TimeControl::lichess_speed`] follows lichess (base + 40 ×
//! increment, in seconds). Both use the first period and count a delay as an increment.

use core::fmt;
use core::str::FromStr;

use caissa_board::ByColor;
use caissa_notation::pgn::Tags;

/// Time added per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Bonus {
    /// Nothing: sudden death.
    #[default]
    None,
    /// Fischer increment: added after each completed move (not after a flag fall).
    Fischer(u64),
    /// Simple (US, FIDE "time-delay") delay: the main time starts running only after this long.
    SimpleDelay(u64),
    /// Bronstein delay: the time used, up to this much, is given back after the move.
    Bronstein(u64),
}

impl Bonus {
    /// The bonus in milliseconds (0 for none).
    #[must_use]
    pub const fn millis(self) -> u64 {
        match self {
            Bonus::None => 0,
            Bonus::Fischer(ms) | Bonus::SimpleDelay(ms) | Bonus::Bronstein(ms) => ms,
        }
    }
}

/// One period of a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Period {
    /// Moves to complete in this period; `None` for the rest of the game.
    pub moves: Option<u32>,
    /// Base time of the period, in milliseconds.
    pub base_ms: u64,
    /// Time added per move during this period.
    pub bonus: Bonus,
    /// The first move number (counted over the whole game, from 1) that earns the bonus.
    pub bonus_from_move: u32,
}

impl Period {
    /// A period of `base_ms` for `moves` moves (or the rest of the game), with `bonus` from move 1.
    #[must_use]
    pub const fn new(moves: Option<u32>, base_ms: u64, bonus: Bonus) -> Period {
        Period {
            moves,
            base_ms,
            bonus,
            bonus_from_move: 1,
        }
    }
}

/// When the next period's time is added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PeriodTrigger {
    /// When the player completes the period's last move (electronic clocks).
    #[default]
    OnMoveCount,
    /// When the period's time runs out, if the quota of moves was made (6.4).
    OnFlag,
}

/// A time control: periods, and when each next one starts.
///
/// It reads and writes two text forms: the PGN `TimeControl` tag's (`180+2`,
/// `40/5400+30:1800+30`, `*60` for an hourglass) and a readable one with units (`3m+2s`); the
/// `Display` form is the readable one, `{:#}` and [`TimeControl::to_pgn`] the tag's.
///
/// ```
/// use caissa_arbiter::{Bonus, Period, TimeControl};
///
/// let blitz: TimeControl = "180+2".parse()?;
/// assert_eq!(blitz.periods(), [Period::new(None, 180_000, Bonus::Fischer(2_000))]);
/// assert_eq!(blitz.to_pgn(), "180+2");
/// assert_eq!(blitz.to_string().parse::<TimeControl>()?, blitz);
///
/// // Classical: 90 minutes for 40 moves, then 30 minutes, 30 seconds a move from move 1.
/// let classical: TimeControl = "40/5400+30:1800+30".parse()?;
/// assert_eq!(classical.periods().len(), 2);
/// assert_eq!(classical.periods()[0].moves, Some(40));
/// assert_eq!(format!("{classical:#}"), "40/5400+30:1800+30");
/// # Ok::<(), caissa_arbiter::ParseTimeControlError>(())
/// ```
///
/// With the `serde` feature it is an object `{"periods": [{"moves": 40, "base_ms": 5400000,
/// "bonus": {"fischer": 30000}, "bonus_from_move": 1}, ...], "trigger": "on_move_count",
/// "hourglass": false}`, checked as [`TimeControl::new`] checks (and an hourglass has one period
/// without bonus) when read.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "TimeControlFields"))]
pub struct TimeControl {
    periods: Vec<Period>,
    /// Whether periods are added on the move count or on flag fall.
    pub trigger: PeriodTrigger,
    /// An hourglass: the time one player uses is added to the other's. One period, no bonus.
    pub hourglass: bool,
}

/// A time control as serde reads it, before it is checked.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeControlFields {
    periods: Vec<Period>,
    trigger: PeriodTrigger,
    hourglass: bool,
}

#[cfg(feature = "serde")]
impl TryFrom<TimeControlFields> for TimeControl {
    type Error = TimeControlError;

    fn try_from(fields: TimeControlFields) -> Result<TimeControl, TimeControlError> {
        let control = TimeControl::new(fields.periods, fields.trigger)?;
        if fields.hourglass {
            if control.periods.len() != 1 || control.periods[0].bonus != Bonus::None {
                return Err(TimeControlError::HourglassShape);
            }
            return Ok(TimeControl::hourglass(control.periods[0].base_ms));
        }
        Ok(control)
    }
}

/// A speed class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[allow(missing_docs)]
pub enum Speed {
    UltraBullet,
    Bullet,
    Blitz,
    Rapid,
    Classical,
    Correspondence,
}

impl Speed {
    /// Every class, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The class's name in snake case, as serde writes it: `ultrabullet`, `bullet`, `blitz`,
    /// `rapid`, `classical`, `correspondence`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultrabullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

impl fmt::Display for Speed {
    /// [`Speed::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The PGN `TimeControl` tag's value: a control, unknown (`?`) or none (`-`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PgnTimeControl {
    /// A time control.
    Control(TimeControl),
    /// `?`: not known.
    Unknown,
    /// `-`: no time control.
    None,
}

/// A time control that could not be read: what was wrong and at which byte.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid time control: {kind} at byte {byte}")]
pub struct ParseTimeControlError {
    /// Byte offset of the problem.
    pub byte: usize,
    /// What was wrong.
    pub kind: ParseTimeControlErrorKind,
}

impl ParseTimeControlError {
    /// The same error in a text with `lead` more bytes in front.
    fn after(self, lead: usize) -> ParseTimeControlError {
        ParseTimeControlError {
            byte: self.byte + lead,
            ..self
        }
    }
}

/// An hourglass of `ms`, read at `byte`, if within [`MAX_TIME_MS`](crate::MAX_TIME_MS).
fn hourglass_within_limit(ms: u64, byte: usize) -> Result<TimeControl, ParseTimeControlError> {
    if ms > crate::MAX_TIME_MS {
        return Err(ParseTimeControlError {
            byte,
            kind: ParseTimeControlErrorKind::Invalid(TimeControlError::TimeTooLarge(1)),
        });
    }
    Ok(TimeControl::hourglass(ms))
}

/// What is wrong with a time control's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseTimeControlErrorKind {
    /// Not a move count where one is needed (before or after `/`).
    #[error("expected a move count")]
    ExpectedMoveCount,
    /// Not a move number from 1 after `@`.
    #[error("expected a move number after @")]
    ExpectedMoveNumber,
    /// Not a number of seconds (up to three decimals).
    #[error("expected a number of seconds")]
    ExpectedSeconds,
    /// Not a duration with units (readable form).
    #[error("expected a duration such as 90m, 1h30m or 30s")]
    ExpectedDuration,
    /// A term of the readable form out of place: periods need `h` or `m`, and only the last
    /// term may be a bonus in seconds.
    #[error("periods need h or m units; only the last term may be a bonus in seconds")]
    MisplacedTerm,
    /// The periods do not make a time control.
    #[error(transparent)]
    Invalid(#[from] TimeControlError),
    /// `?` (unknown) where a time control is needed.
    #[error("an unknown time control (?) is not a time control")]
    Unknown,
    /// `-` (none) where a time control is needed.
    #[error("no time control (-) is not a time control")]
    NoControl,
}

/// A time control that makes no sense as a whole.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TimeControlError {
    /// There are no periods.
    #[error("a time control needs at least one period")]
    NoPeriods,
    /// A period that is not the last has no move quota.
    #[error("period {0} is for the rest of the game but is not the last")]
    RestOfGameNotLast(usize),
    /// A period has a quota of zero moves.
    #[error("period {0} has a quota of zero moves")]
    ZeroMoves(usize),
    /// A period's bonus starts at move 0: moves count from 1.
    #[error("period {0} has its bonus from move 0; moves count from 1")]
    BonusFromMoveZero(usize),
    /// A period's time or bonus is beyond [`MAX_TIME_MS`](crate::MAX_TIME_MS).
    #[error("period {0} has a time beyond the limit of {max} ms", max = crate::MAX_TIME_MS)]
    TimeTooLarge(usize),
    /// An hourglass with more than one period or with a bonus.
    #[error("an hourglass has one period and no bonus")]
    HourglassShape,
}

impl TimeControl {
    /// A control from its periods.
    ///
    /// # Errors
    ///
    /// [`TimeControlError`] if there are no periods, a period other than the last is for the rest
    /// of the game, a quota is zero, a bonus starts at move 0, or a time is beyond
    /// [`MAX_TIME_MS`](crate::MAX_TIME_MS).
    pub fn new(
        periods: Vec<Period>,
        trigger: PeriodTrigger,
    ) -> Result<TimeControl, TimeControlError> {
        if periods.is_empty() {
            return Err(TimeControlError::NoPeriods);
        }
        for (i, p) in periods.iter().enumerate() {
            if p.base_ms.max(p.bonus.millis()) > crate::MAX_TIME_MS {
                return Err(TimeControlError::TimeTooLarge(i + 1));
            }
            if p.bonus_from_move == 0 {
                return Err(TimeControlError::BonusFromMoveZero(i + 1));
            }
            match p.moves {
                Some(0) => return Err(TimeControlError::ZeroMoves(i + 1)),
                None if i + 1 != periods.len() => {
                    return Err(TimeControlError::RestOfGameNotLast(i + 1));
                }
                _ => {}
            }
        }
        Ok(TimeControl {
            periods,
            trigger,
            hourglass: false,
        })
    }

    /// Sudden death: `base_ms` for the whole game, plus `bonus` per move.
    #[must_use]
    pub fn simple(base_ms: u64, bonus: Bonus) -> TimeControl {
        TimeControl {
            periods: vec![Period::new(None, base_ms, bonus)],
            trigger: PeriodTrigger::OnMoveCount,
            hourglass: false,
        }
    }

    /// An hourglass with `total_ms` on each side.
    #[must_use]
    pub fn hourglass(total_ms: u64) -> TimeControl {
        TimeControl {
            hourglass: true,
            ..TimeControl::simple(total_ms, Bonus::None)
        }
    }

    /// The periods, in order.
    #[must_use]
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The period that applies after `periods_done` periods have been completed: the last period
    /// repeats if it has a quota.
    #[must_use]
    pub fn period(&self, periods_done: usize) -> &Period {
        let last = self.periods.len() - 1;
        &self.periods[periods_done.min(last)]
    }

    /// The FIDE speed class (A.1, B.1): blitz if base + 60 × bonus ≤ 10 min, rapid below 60 min,
    /// otherwise standard. Returns [`Speed::Blitz`], [`Speed::Rapid`] or [`Speed::Classical`]
    /// (FIDE's "standard").
    #[must_use]
    pub fn fide_speed(&self) -> Speed {
        let first = self.periods[0];
        let total_ms = first.base_ms + 60 * first.bonus.millis();
        if total_ms <= 10 * 60_000 {
            Speed::Blitz
        } else if total_ms < 60 * 60_000 {
            Speed::Rapid
        } else {
            Speed::Classical
        }
    }

    /// The lichess speed class: base + 40 × bonus, in seconds.
    #[must_use]
    pub fn lichess_speed(&self) -> Speed {
        let first = self.periods[0];
        let estimate = (first.base_ms + 40 * first.bonus.millis()) / 1000;
        match estimate {
            0..=29 => Speed::UltraBullet,
            30..=179 => Speed::Bullet,
            180..=479 => Speed::Blitz,
            480..=1499 => Speed::Rapid,
            1500..=21599 => Speed::Classical,
            _ => Speed::Correspondence,
        }
    }

    /// Reads the value of a PGN `TimeControl` tag (see the module docs for the syntax).
    ///
    /// # Errors
    ///
    /// [`ParseTimeControlError`] with the byte where the text stops making sense.
    pub fn from_pgn(text: &str) -> Result<PgnTimeControl, ParseTimeControlError> {
        let lead = text.len() - text.trim_start().len();
        TimeControl::from_trimmed_pgn(text.trim()).map_err(|e| e.after(lead))
    }

    /// [`TimeControl::from_pgn`] for a text with no blanks around it.
    fn from_trimmed_pgn(text: &str) -> Result<PgnTimeControl, ParseTimeControlError> {
        match text {
            "?" => return Ok(PgnTimeControl::Unknown),
            "-" => return Ok(PgnTimeControl::None),
            _ => {}
        }
        let err = |byte, kind| ParseTimeControlError { byte, kind };
        if let Some(rest) = text.strip_prefix('*') {
            let ms = parse_seconds(rest, 1)?;
            return hourglass_within_limit(ms, 1).map(PgnTimeControl::Control);
        }
        let mut periods = Vec::new();
        let mut offset = 0;
        for part in text.split(':') {
            let (moves, rest, rest_offset) = match part.split_once('/') {
                Some((m, rest)) => {
                    let moves = m
                        .parse::<u32>()
                        .map_err(|_| err(offset, ParseTimeControlErrorKind::ExpectedMoveCount))?;
                    (Some(moves), rest, offset + m.len() + 1)
                }
                None => (None, part, offset),
            };
            let (base, bonus) = split_bonus(rest, rest_offset)?;
            let base_ms = parse_seconds(base, rest_offset)?;
            periods.push(Period {
                moves,
                base_ms,
                bonus: bonus.0,
                bonus_from_move: bonus.1,
            });
            offset += part.len() + 1;
        }
        TimeControl::new(periods, PeriodTrigger::OnMoveCount)
            .map(PgnTimeControl::Control)
            .map_err(|e| err(0, e.into()))
    }

    /// The value of a PGN `TimeControl` tag for this control (seconds; see the module docs).
    #[must_use]
    pub fn to_pgn(&self) -> String {
        if self.hourglass {
            return format!("*{}", Seconds(self.periods[0].base_ms));
        }
        let mut out = String::new();
        for (i, p) in self.periods.iter().enumerate() {
            if i > 0 {
                out.push(':');
            }
            if let Some(moves) = p.moves {
                out.push_str(&format!("{moves}/"));
            }
            out.push_str(&Seconds(p.base_ms).to_string());
            let (sign, ms) = match p.bonus {
                Bonus::None => continue,
                Bonus::Fischer(ms) => ('+', ms),
                Bonus::SimpleDelay(ms) => ('d', ms),
                Bonus::Bronstein(ms) => ('b', ms),
            };
            out.push(sign);
            out.push_str(&Seconds(ms).to_string());
            if p.bonus_from_move > 1 {
                out.push_str(&format!("@{}", p.bonus_from_move));
            }
        }
        out
    }
}

/// Splits `300+2@41` into its base and `(bonus, from move)`.
fn split_bonus(text: &str, offset: usize) -> Result<(&str, (Bonus, u32)), ParseTimeControlError> {
    let Some(at) = text.find(['+', 'd', 'b']) else {
        return Ok((text, (Bonus::None, 1)));
    };
    let (base, rest) = text.split_at(at);
    let kind = rest.as_bytes()[0];
    let rest = &rest[1..];
    let (amount, from) = match rest.split_once('@') {
        Some((amount, from)) => {
            let from_offset = offset + at + 1 + amount.len() + 1;
            let n = from
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or(ParseTimeControlError {
                    byte: from_offset,
                    kind: ParseTimeControlErrorKind::ExpectedMoveNumber,
                })?;
            (amount, n)
        }
        None => (rest, 1),
    };
    let ms = parse_seconds(amount, offset + at + 1)?;
    let bonus = match kind {
        b'+' => Bonus::Fischer(ms),
        b'd' => Bonus::SimpleDelay(ms),
        _ => Bonus::Bronstein(ms),
    };
    Ok((base, (bonus, from)))
}

/// Parses seconds with up to three decimals into milliseconds.
fn parse_seconds(text: &str, offset: usize) -> Result<u64, ParseTimeControlError> {
    let err = |byte| ParseTimeControlError {
        byte,
        kind: ParseTimeControlErrorKind::ExpectedSeconds,
    };
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(offset));
    }
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(offset + whole.len() + 1));
    }
    let whole: u64 = whole.parse().map_err(|_| err(offset))?;
    let frac_ms: u64 = format!("{frac:0<3}").parse().map_err(|_| err(offset))?;
    whole
        .checked_mul(1000)
        .and_then(|ms| ms.checked_add(frac_ms))
        .ok_or(err(offset))
}

/// Milliseconds written as seconds, with decimals only when needed.
struct Seconds(u64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, ms) = (self.0 / 1000, self.0 % 1000);
        if ms == 0 {
            write!(f, "{s}")
        } else {
            let frac = format!("{ms:03}");
            write!(f, "{s}.{}", frac.trim_end_matches('0'))
        }
    }
}

/// Milliseconds written with units: as a period `2h` (whole hours), `90m`, `2m30s`, `0m30s`
/// (always with `h` or `m`), as a bonus `30s`, `1.5s`.
struct Units {
    ms: u64,
    as_period: bool,
}

impl fmt::Display for Units {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.as_period {
            return write!(f, "{}s", Seconds(self.ms));
        }
        if self.ms > 0 && self.ms.is_multiple_of(3_600_000) {
            return write!(f, "{}h", self.ms / 3_600_000);
        }
        let (m, rest) = (self.ms / 60_000, self.ms % 60_000);
        write!(f, "{m}m")?;
        if rest > 0 {
            write!(f, "{}s", Seconds(rest))?;
        }
        Ok(())
    }
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    /// Reads either form: the readable one when the text has units (`h`, `m`, `s`), the PGN
    /// tag's otherwise (`180+2`, `40/5400+30:1800+30`, `*60`; `?` and `-` are errors here, see
    /// [`PgnTimeControl`]).
    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        match s.parse::<PgnTimeControl>()? {
            PgnTimeControl::Control(control) => Ok(control),
            PgnTimeControl::Unknown => Err(ParseTimeControlError {
                byte: 0,
                kind: ParseTimeControlErrorKind::Unknown,
            }),
            PgnTimeControl::None => Err(ParseTimeControlError {
                byte: 0,
                kind: ParseTimeControlErrorKind::NoControl,
            }),
        }
    }
}

impl FromStr for PgnTimeControl {
    type Err = ParseTimeControlError;

    /// Reads a PGN tag value, or a control in the readable form (a text with units).
    fn from_str(s: &str) -> Result<PgnTimeControl, ParseTimeControlError> {
        if s.contains(['h', 'm', 's']) {
            TimeControl::from_readable(s).map(PgnTimeControl::Control)
        } else {
            TimeControl::from_pgn(s)
        }
    }
}

impl fmt::Display for PgnTimeControl {
    /// The PGN tag value: `?`, `-` or [`TimeControl::to_pgn`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnTimeControl::Control(control) => f.write_str(&control.to_pgn()),
            PgnTimeControl::Unknown => f.write_str("?"),
            PgnTimeControl::None => f.write_str("-"),
        }
    }
}

impl fmt::Display for TimeControl {
    /// The readable form: `3m+2s`, `90m/40+30m+30s` (see the module docs); with `{:#}`, or for
    /// a control whose periods have different bonuses (which the readable form cannot say),
    /// the PGN tag's form, as [`TimeControl::to_pgn`] writes it.
    ///
    /// ```
    /// use caissa_arbiter::TimeControl;
    ///
    /// let classical: TimeControl = "40/5400+30:1800+30".parse()?;
    /// assert_eq!(classical.to_string(), "90m/40+30m+30s");
    /// assert_eq!(format!("{classical:#}"), "40/5400+30:1800+30");
    /// assert_eq!("90m/40+30m+30s".parse::<TimeControl>()?, classical);
    /// assert!("?".parse::<TimeControl>().is_err());
    /// # Ok::<(), caissa_arbiter::ParseTimeControlError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The readable form has one bonus for the whole control; a control whose periods
        // differ in it is written in the PGN form, so that what is written always reads back.
        let last = self.periods[self.periods.len() - 1];
        let one_bonus = self
            .periods
            .iter()
            .all(|p| (p.bonus, p.bonus_from_move) == (last.bonus, last.bonus_from_move));
        if f.alternate() || !one_bonus {
            return f.write_str(&self.to_pgn());
        }
        if self.hourglass {
            return write!(
                f,
                "hourglass {}",
                Units {
                    ms: self.periods[0].base_ms,
                    as_period: true
                }
            );
        }
        for (i, p) in self.periods.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(
                f,
                "{}",
                Units {
                    ms: p.base_ms,
                    as_period: true
                }
            )?;
            if let Some(moves) = p.moves {
                write!(f, "/{moves}")?;
            }
        }
        let prefix = match last.bonus {
            Bonus::None => return Ok(()),
            Bonus::Fischer(_) => "",
            Bonus::SimpleDelay(_) => "d",
            Bonus::Bronstein(_) => "b",
        };
        write!(
            f,
            "+{prefix}{}",
            Units {
                ms: last.bonus.millis(),
                as_period: false
            }
        )?;
        if last.bonus_from_move > 1 {
            write!(f, "@{}", last.bonus_from_move)?;
        }
        Ok(())
    }
}

/// Parses `1h30m`, `90m`, `2m30s`, `0m30s` (a period: needs `h` or `m`) or `30s`, `1.5s` (a bonus).
fn parse_units(text: &str, offset: usize) -> Result<(u64, bool), ParseTimeControlError> {
    let err = |byte| ParseTimeControlError {
        byte,
        kind: ParseTimeControlErrorKind::ExpectedDuration,
    };
    let mut total = 0u64;
    let mut has_hm = false;
    let mut rest = text;
    let mut consumed = 0;
    if rest.is_empty() {
        return Err(err(offset));
    }
    while !rest.is_empty() {
        let unit_at = rest
            .find(['h', 'm', 's'])
            .ok_or(err(offset + consumed + rest.len()))?;
        let (number, tail) = rest.split_at(unit_at);
        let unit = tail.as_bytes()[0];
        let factor = match unit {
            b'h' => 3_600_000,
            b'm' => 60_000,
            _ => 1_000,
        };
        has_hm |= unit != b's';
        let ms = parse_seconds(number, offset + consumed)?;
        total = ms
            .checked_mul(factor / 1000)
            .and_then(|v| total.checked_add(v))
            .ok_or(err(offset + consumed))?;
        consumed += unit_at + 1;
        rest = &tail[1..];
    }
    Ok((total, has_hm))
}

impl TimeControl {
    /// Reads the readable form (see the module docs): `3m+2s`, `90m/40+30m+30s`.
    ///
    /// # Errors
    ///
    /// [`ParseTimeControlError`] with the byte where the text stops making sense.
    pub fn from_readable(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        let lead = s.len() - s.trim_start().len();
        TimeControl::from_trimmed_readable(s.trim()).map_err(|e| e.after(lead))
    }

    /// [`TimeControl::from_readable`] for a text with no blanks around it.
    fn from_trimmed_readable(text: &str) -> Result<TimeControl, ParseTimeControlError> {
        if let Some(rest) = text.strip_prefix("hourglass ") {
            let body = rest.trim_start();
            let at = text.len() - body.len();
            let (ms, _) = parse_units(body, at)?;
            return hourglass_within_limit(ms, at);
        }
        let mut periods = Vec::new();
        let mut bonus = (Bonus::None, 1);
        let mut offset = 0;
        let terms: Vec<&str> = text.split('+').collect();
        for (i, term) in terms.iter().enumerate() {
            let is_last = i + 1 == terms.len();
            let (kind, body) = match term.as_bytes().first() {
                Some(b'd') => (Some(b'd'), &term[1..]),
                Some(b'b') => (Some(b'b'), &term[1..]),
                _ => (None, *term),
            };
            let (body, from) = match body.split_once('@') {
                Some((b, from)) => (b, Some(from)),
                None => (body, None),
            };
            let (duration, quota) = match body.split_once('/') {
                Some((d, q)) => (d, Some(q)),
                None => (body, None),
            };
            let body_offset = offset + usize::from(kind.is_some());
            let (ms, is_period) = parse_units(duration, body_offset)?;
            if is_period && kind.is_none() && from.is_none() {
                let moves = quota
                    .map(|q| {
                        q.parse::<u32>().map_err(|_| ParseTimeControlError {
                            byte: body_offset + duration.len() + 1,
                            kind: ParseTimeControlErrorKind::ExpectedMoveCount,
                        })
                    })
                    .transpose()?;
                periods.push(Period::new(moves, ms, Bonus::None));
            } else if is_last && !is_period && quota.is_none() && !periods.is_empty() {
                let from =
                    match from {
                        Some(f) => f.parse::<u32>().ok().filter(|&n| n >= 1).ok_or(
                            ParseTimeControlError {
                                byte: offset + term.len() - f.len(),
                                kind: ParseTimeControlErrorKind::ExpectedMoveNumber,
                            },
                        )?,
                        None => 1,
                    };
                bonus = (
                    match kind {
                        Some(b'd') => Bonus::SimpleDelay(ms),
                        Some(_) => Bonus::Bronstein(ms),
                        None => Bonus::Fischer(ms),
                    },
                    from,
                );
            } else {
                return Err(ParseTimeControlError {
                    byte: offset,
                    kind: ParseTimeControlErrorKind::MisplacedTerm,
                });
            }
            offset += term.len() + 1;
        }
        for p in &mut periods {
            p.bonus = bonus.0;
            p.bonus_from_move = bonus.1;
        }
        TimeControl::new(periods, PeriodTrigger::OnMoveCount).map_err(|e| ParseTimeControlError {
            byte: 0,
            kind: e.into(),
        })
    }
}

/// Writes a game's time controls into `tags` (`None`: a game without clocks): `TimeControl`
/// when both players have the same control (`-` for none), else `WhiteTimeControl` and
/// `BlackTimeControl` ([time odds](self#time-odds)). Controls are the same when their tag
/// values are.
pub fn insert_pgn_tags(tags: &mut Tags, controls: Option<&ByColor<TimeControl>>) {
    let Some(controls) = controls else {
        tags.insert("TimeControl", "-");
        return;
    };
    let [white, black] = [controls.white.to_pgn(), controls.black.to_pgn()];
    if white == black {
        tags.insert("TimeControl", &white);
    } else {
        tags.insert("WhiteTimeControl", &white);
        tags.insert("BlackTimeControl", &black);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pgn(text: &str) -> TimeControl {
        match TimeControl::from_pgn(text).unwrap() {
            PgnTimeControl::Control(tc) => tc,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn pgn_tags_round_trip() {
        for text in [
            "180+2",
            "300",
            "40/5400+30:1800+30",
            "*60",
            "300d5",
            "300b5",
            "5400+30@41",
            "0.5+0.25",
            "40/7200:20/3600:900+30",
        ] {
            assert_eq!(pgn(text).to_pgn(), text);
        }
        let multi = pgn("40/5400+30:1800+30");
        assert_eq!(
            multi.periods()[0],
            Period::new(Some(40), 5_400_000, Bonus::Fischer(30_000))
        );
        assert_eq!(
            multi.periods()[1],
            Period::new(None, 1_800_000, Bonus::Fischer(30_000))
        );
        assert!(pgn("*60").hourglass);
        assert_eq!(TimeControl::from_pgn("?"), Ok(PgnTimeControl::Unknown));
        assert_eq!(TimeControl::from_pgn("-"), Ok(PgnTimeControl::None));
    }

    #[test]
    fn pgn_errors_say_where() {
        for (text, byte) in [
            ("", 0),
            ("x", 0),
            ("40/", 3),
            ("a/300", 0),
            ("300+", 4),
            ("300+x", 4),
            ("300:40/60", 0),
            ("1.2345", 2),
            ("300+2@0", 6),
            ("0/300", 0),
            // Counted in the text as given, blanks in front included.
            ("  300+x", 6),
            // An hourglass past the longest time a clock holds.
            ("*18446744073709551", 1),
        ] {
            let e = TimeControl::from_pgn(text).unwrap_err();
            assert_eq!(e.byte, byte, "{text}: {e}");
        }
        for (text, byte) in [
            (" 3m+x", 5),
            ("hourglass xx  ", 12),
            ("  hourglass  xx", 15),
            ("hourglass 99999999999999h", 10),
        ] {
            let e = TimeControl::from_readable(text).unwrap_err();
            assert_eq!(e.byte, byte, "{text}: {e}");
        }
        assert!(TimeControl::from_readable("hourglass 5m").is_ok());
        assert!(TimeControl::from_pgn(" *300 ").is_ok());
    }

    #[test]
    fn readable_form_round_trips() {
        for text in [
            "3m+2s",
            "90m/40+30m+30s",
            "5m+d5s",
            "5m+b5s",
            "2h/40+1h+30s@41",
            "90m",
            "0m30s+1s",
            "2m30s",
            "hourglass 1m",
        ] {
            let tc: TimeControl = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(tc.to_string(), text);
        }
        assert_eq!("1h30m".parse::<TimeControl>().unwrap().to_string(), "90m");
        let tc: TimeControl = "90m/40+30m+30s".parse().unwrap();
        assert_eq!(tc, pgn("40/5400+30:1800+30"));
        assert!("3m+2m".parse::<TimeControl>().is_err());
        assert!("30s".parse::<TimeControl>().is_err());
        assert!("3x".parse::<TimeControl>().is_err());
        assert!("90m/x".parse::<TimeControl>().is_err());
    }

    #[test]
    fn either_form_reads_and_either_is_written() {
        for (text, pgn_form) in [
            ("180+2", "180+2"),
            ("3m+2s", "180+2"),
            ("40/5400+30:1800+30", "40/5400+30:1800+30"),
            ("90m/40+30m+30s", "40/5400+30:1800+30"),
            ("*60", "*60"),
            ("hourglass 1m", "*60"),
            ("40/5400:1800+30", "40/5400:1800+30"),
        ] {
            let control: TimeControl = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(format!("{control:#}"), pgn_form, "{text}");
            assert_eq!(control.to_string().parse(), Ok(control.clone()), "{text}");
            let tag: PgnTimeControl = text.parse().unwrap();
            assert_eq!(tag, PgnTimeControl::Control(control));
            assert_eq!(tag.to_string(), pgn_form);
        }
        for (text, tag) in [("?", PgnTimeControl::Unknown), ("-", PgnTimeControl::None)] {
            assert_eq!(text.parse(), Ok(tag.clone()));
            assert_eq!(tag.to_string(), text);
        }
        for (text, kind) in [
            ("?", ParseTimeControlErrorKind::Unknown),
            ("-", ParseTimeControlErrorKind::NoControl),
            ("3m+2s+1m", ParseTimeControlErrorKind::MisplacedTerm),
            ("300:40/60", TimeControlError::RestOfGameNotLast(1).into()),
            ("0/300", TimeControlError::ZeroMoves(1).into()),
            ("300+2@0", ParseTimeControlErrorKind::ExpectedMoveNumber),
        ] {
            assert_eq!(
                text.parse::<TimeControl>().map_err(|e| e.kind),
                Err(kind),
                "{text}"
            );
        }
    }

    #[test]
    fn speed_classes_cv7() {
        let cases = [
            ("180+2", Speed::Blitz, Speed::Blitz),
            ("600", Speed::Blitz, Speed::Rapid),
            ("600+5", Speed::Rapid, Speed::Rapid),
            ("1500", Speed::Rapid, Speed::Classical),
            ("1800+30", Speed::Classical, Speed::Classical),
            ("120+1", Speed::Blitz, Speed::Bullet),
        ];
        for (text, fide, lichess) in cases {
            let tc = pgn(text);
            assert_eq!(
                (tc.fide_speed(), tc.lichess_speed()),
                (fide, lichess),
                "{text}"
            );
        }
    }

    #[test]
    fn invalid_structures_are_refused() {
        assert_eq!(
            TimeControl::new(vec![], PeriodTrigger::OnMoveCount),
            Err(TimeControlError::NoPeriods)
        );
        let rest = Period::new(None, 1000, Bonus::None);
        assert_eq!(
            TimeControl::new(vec![rest, rest], PeriodTrigger::OnMoveCount),
            Err(TimeControlError::RestOfGameNotLast(1))
        );
        assert_eq!(
            TimeControl::new(
                vec![Period::new(Some(0), 1, Bonus::None)],
                PeriodTrigger::OnFlag
            ),
            Err(TimeControlError::ZeroMoves(1))
        );
        let from_zero = Period {
            bonus_from_move: 0,
            ..Period::new(Some(40), 1000, Bonus::Fischer(1000))
        };
        assert_eq!(
            TimeControl::new(vec![from_zero, rest], PeriodTrigger::OnMoveCount),
            Err(TimeControlError::BonusFromMoveZero(1))
        );
    }
}
