//! The event log as JSON lines, and the verdict as JSON (feature `serde`).
//!
//! # The event log
//!
//! One JSON object per line (`\n` or `\r\n`, at most [`MAX_LINE_BYTES`] bytes, UTF-8, a byte
//! order mark before the first line skipped); blank lines are skipped. [`EventLog`] reads the
//! events one line at a time and [`arbitrate_reader`] replays them as it goes, so a log of any
//! length takes no more memory than its verdict. Every object has `type` and may have
//! `t_ms` (milliseconds, an integer from 0 to [`MAX_TIME_MS`](crate::MAX_TIME_MS); when
//! missing, the previous event's time). Colours are `white`/`black` (or `w`/`b`), squares
//! `e4`, pieces `q`, `r`, `b`, `n` (or `queen`, ...), moves SAN (`Nf3`, `exd5`, `e8=Q`, `O-O`)
//! or UCI (`g1f3`, `e7e8q`). A field that the event's type does not take, or that no event
//! takes, is an error.
//!
//! | `type` | fields | meaning |
//! |---|---|---|
//! | `start` | `time_control` (PGN syntax, `-` or absent for none), `black_time_control` (Black's own, at time odds; `time_control` is then White's), `trigger` (for both controls) (`on_move_count`, the default, or `on_flag`: [`PeriodTrigger`]), `rules` (a [`Rules`] text, default `fide-standard`), `fen`, `chess960`, `presses` (`with_move` or `separate`; absent: separate if the log has `press` events), `white`, `black` (names) | must be the first event; the clock of the side to move starts |
//! | `touch` | `by`, `square` | a deliberate touch of the piece on `square` (4.3) |
//! | `adjust` | `by`, `square` | "j'adoube" and adjusting (4.2.1) |
//! | `release` | `by`, `square`, `from` (optional: the last own piece touched) | a piece let go on `square` (4.7) |
//! | `promote` | `by`, `piece`, `square` | the new piece put on the promotion square (4.4.4) |
//! | `move` | `by`, `move`, `two_hands` (optional) | a move made, and the clock pressed unless presses are separate |
//! | `press` | `by` | the clock pressed |
//! | `offer_draw`, `accept_draw`, `decline_draw`, `withdraw_draw` | `by` | draw offers (9.1) |
//! | `claim` | `by`, `kind` (`threefold`, `fifty`, `touch_move`, `flag`, `illegal_move`), `move` (the written move, threefold and fifty only) | a claim |
//! | `resign` | `by` | resignation (5.1.2) |
//! | `flag` | `by` | the arbiter sees `by`'s flag down (6.8) |
//! | `ruling` | `ruling`: `add_time` (`player`, `ms`), `warning` (`player`), `illegal_move` (`player`: who made it), `colours_reversed`, `wrong_setup` (`misplaced`: optional square), `declare` (`result`: `1-0`, `0-1`, `1/2-1/2`, `0-0`, `*`; `article` optional) | the arbiter acts |
//!
//! # The verdict
//!
//! [`verdict_to_json`] gives one object with: `result` (`1-0`, `0-1`, `1/2-1/2`, `0-0`, or `*`
//! while the game goes on or when cancelled), `termination` (the reason: `checkmate`,
//! `time_forfeit`, `illegal_moves`, ..., or `unterminated`), `article` (or `null`),
//! `ended_at_ms`, `penalties` (`line`, `t_ms`, `offender`, `to`, `ms`, `article`), `decisions`
//! (`line`, `t_ms`, `player`, `article`, `ruling` in words), `notes` (`line`, `t_ms`, `text`),
//! `illegal_moves` and `clock_ms` (`white`, `black`; `clock_ms` is `null` without a clock) and
//! `pgn`.

use core::str::FromStr;
use std::borrow::Cow;
use std::io::{self, BufRead};

use caissa_board::{Color, Role, Square};
use caissa_game::{Article, GameResult};
use caissa_notation::fen::Fen;
use caissa_notation::lines::{LineRead, Overlong, read_line};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::arbiter::{Arbiter, EventError};
use crate::events::{ArbiterAction, ClaimKind, Event, EventKind, MoveText, Presses, Start};
use crate::rules::Rules;
use crate::time_control::{
    ParseTimeControlError, ParseTimeControlErrorKind, PeriodTrigger, PgnTimeControl, TimeControl,
};
use crate::verdict::Verdict;

/// A line of the log that cannot be read or applied, with its number (from 1).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct JsonLineError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: LineErrorKind,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LineErrorKind {
    /// Not a JSON object of the event schema (serde's message, with the column).
    #[error("malformed event: {0}")]
    Json(String),
    /// A `type` that names no event.
    #[error("unknown event type {0:?}")]
    UnknownType(String),
    /// A field the event needs is missing.
    #[error("{kind} event without {field}")]
    Missing {
        /// The event type.
        kind: &'static str,
        /// The field.
        field: &'static str,
    },
    /// A field the event's type does not take.
    #[error("{kind} event with a {field} field, which it does not take")]
    Unexpected {
        /// The event type.
        kind: &'static str,
        /// The field.
        field: &'static str,
    },
    /// A field's value cannot be read.
    #[error("field {field}: {problem}")]
    Invalid {
        /// The field.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// The log has no events.
    #[error("no events: the log must begin with a start event")]
    Empty,
    /// A line longer than [`MAX_LINE_BYTES`].
    #[error("line longer than {limit} bytes")]
    LineTooLong {
        /// The limit, [`MAX_LINE_BYTES`].
        limit: usize,
    },
    /// A line that is not UTF-8.
    #[error("not UTF-8 at byte {byte} of the line")]
    NotUtf8 {
        /// The offset of the first byte that is not UTF-8, in the line.
        byte: usize,
    },
    /// The log could not be read.
    #[error("cannot read the log: {0}")]
    Io(io::ErrorKind),
    /// The event is well-formed but cannot be applied where it stands.
    #[error(transparent)]
    Event(#[from] EventError),
}

/// An event line as written (and as [`Event`]'s serde writes it: fields in this order, absent
/// ones left out).
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    #[serde(skip_serializing_if = "Option::is_none")]
    t_ms: Option<u64>,
    #[serde(rename = "type")]
    event_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    square: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<String>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    mv: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    two_hands: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_control: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    black_time_control: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trigger: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    chess960: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    presses: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    white: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    black: Option<String>,
    #[serde(rename = "kind", skip_serializing_if = "Option::is_none")]
    claim: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ruling: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    article: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    misplaced: Option<String>,
}

/// The event types and the fields each takes (besides `type` and `t_ms`).
const TYPES: [(&str, &[&str]); 15] = [
    (
        "start",
        &[
            "time_control",
            "black_time_control",
            "trigger",
            "rules",
            "fen",
            "chess960",
            "presses",
            "white",
            "black",
        ],
    ),
    ("touch", &["by", "square"]),
    ("adjust", &["by", "square"]),
    ("release", &["by", "square", "from"]),
    ("promote", &["by", "piece", "square"]),
    ("move", &["by", "move", "two_hands"]),
    ("press", &["by"]),
    ("offer_draw", &["by"]),
    ("accept_draw", &["by"]),
    ("decline_draw", &["by"]),
    ("withdraw_draw", &["by"]),
    ("claim", &["by", "kind", "move"]),
    ("resign", &["by"]),
    ("flag", &["by"]),
    (
        "ruling",
        &["ruling", "player", "ms", "result", "article", "misplaced"],
    ),
];

impl RawEvent {
    /// The fields given, by name.
    fn present(&self) -> [(&'static str, bool); 22] {
        [
            ("by", self.by.is_some()),
            ("square", self.square.is_some()),
            ("from", self.from.is_some()),
            ("piece", self.piece.is_some()),
            ("move", self.mv.is_some()),
            ("two_hands", self.two_hands.is_some()),
            ("time_control", self.time_control.is_some()),
            ("black_time_control", self.black_time_control.is_some()),
            ("trigger", self.trigger.is_some()),
            ("rules", self.rules.is_some()),
            ("fen", self.fen.is_some()),
            ("chess960", self.chess960.is_some()),
            ("presses", self.presses.is_some()),
            ("white", self.white.is_some()),
            ("black", self.black.is_some()),
            ("kind", self.claim.is_some()),
            ("ruling", self.ruling.is_some()),
            ("player", self.player.is_some()),
            ("ms", self.ms.is_some()),
            ("result", self.result.is_some()),
            ("article", self.article.is_some()),
            ("misplaced", self.misplaced.is_some()),
        ]
    }
}

/// Reads a field with `parse`, naming it in the error.
fn field<T, E: core::fmt::Display>(
    kind: &'static str,
    name: &'static str,
    value: Option<&str>,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, LineErrorKind> {
    let text = value.ok_or(LineErrorKind::Missing { kind, field: name })?;
    parse(text).map_err(|e| LineErrorKind::Invalid {
        field: name,
        problem: format!("{e} in {text:?}"),
    })
}

/// Like [`field`], for an optional field.
fn optional<T, E: core::fmt::Display>(
    name: &'static str,
    value: Option<&str>,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<Option<T>, LineErrorKind> {
    value
        .map(|text| {
            parse(text).map_err(|e| LineErrorKind::Invalid {
                field: name,
                problem: format!("{e} in {text:?}"),
            })
        })
        .transpose()
}

fn color(text: &str) -> Result<Color, &'static str> {
    text.parse().map_err(|_| "expected white or black")
}

fn square(text: &str) -> Result<Square, &'static str> {
    text.parse().map_err(|_| "expected a square such as e4")
}

fn role(text: &str) -> Result<Role, &'static str> {
    let role = match text {
        "q" | "Q" | "queen" => Role::Queen,
        "r" | "R" | "rook" => Role::Rook,
        "b" | "B" | "bishop" => Role::Bishop,
        "n" | "N" | "knight" => Role::Knight,
        _ => return Err("expected a promotion piece: q, r, b or n"),
    };
    Ok(role)
}

fn time_control(text: &str) -> Result<Option<TimeControl>, ParseTimeControlError> {
    match TimeControl::from_pgn(text)? {
        PgnTimeControl::Control(control) => Ok(Some(control)),
        PgnTimeControl::None => Ok(None),
        PgnTimeControl::Unknown => Err(ParseTimeControlError {
            byte: 0,
            kind: ParseTimeControlErrorKind::Unknown,
        }),
    }
}

impl RawEvent {
    fn into_kind(self) -> Result<EventKind, LineErrorKind> {
        let Some(&(kind, fields)) = TYPES.iter().find(|(name, _)| *name == self.event_type) else {
            return Err(LineErrorKind::UnknownType(self.event_type));
        };
        if let Some((name, _)) = self
            .present()
            .into_iter()
            .find(|&(name, given)| given && !fields.contains(&name))
        {
            return Err(LineErrorKind::Unexpected { kind, field: name });
        }
        let by = || field(kind, "by", self.by.as_deref(), color);
        let sq = || field(kind, "square", self.square.as_deref(), square);
        Ok(match kind {
            "start" => EventKind::Start({
                let trigger = optional("trigger", self.trigger.as_deref(), |t| match t {
                    "on_move_count" => Ok(PeriodTrigger::OnMoveCount),
                    "on_flag" => Ok(PeriodTrigger::OnFlag),
                    _ => Err("expected on_move_count or on_flag"),
                })?;
                let with_trigger = |name, text: Option<&str>| {
                    let control = optional(name, text, time_control)?.flatten();
                    Ok::<_, LineErrorKind>(control.map(|mut control| {
                        if let Some(trigger) = trigger {
                            control.trigger = trigger;
                        }
                        control
                    }))
                };
                let white = with_trigger("time_control", self.time_control.as_deref())?;
                let black = with_trigger("black_time_control", self.black_time_control.as_deref())?;
                if white.is_none() && trigger.is_some() {
                    return Err(LineErrorKind::Invalid {
                        field: "trigger",
                        problem: "a trigger needs a time control".to_owned(),
                    });
                }
                Start {
                    time_control: white,
                    black_time_control: black,
                    rules: optional("rules", self.rules.as_deref(), Rules::from_str)?
                        .unwrap_or_default(),
                    fen: optional("fen", self.fen.as_deref(), Fen::from_str)?,
                    chess960: self.chess960.unwrap_or(false),
                    presses: optional("presses", self.presses.as_deref(), |p| match p {
                        "with_move" => Ok(Presses::WithMove),
                        "separate" => Ok(Presses::Separate),
                        _ => Err("expected with_move or separate"),
                    })?,
                    white: self.white,
                    black: self.black,
                }
            }),
            "touch" => EventKind::Touch {
                by: by()?,
                square: sq()?,
            },
            "adjust" => EventKind::Adjust {
                by: by()?,
                square: sq()?,
            },
            "release" => EventKind::Release {
                by: by()?,
                from: optional("from", self.from.as_deref(), square)?,
                to: sq()?,
            },
            "promote" => EventKind::Promote {
                by: by()?,
                role: field(kind, "piece", self.piece.as_deref(), role)?,
                square: sq()?,
            },
            "move" => EventKind::Move {
                by: by()?,
                mv: field(kind, "move", self.mv.as_deref(), MoveText::from_str)?,
                two_hands: self.two_hands.unwrap_or(false),
            },
            "press" => EventKind::Press { by: by()? },
            "offer_draw" => EventKind::OfferDraw { by: by()? },
            "accept_draw" => EventKind::AcceptDraw { by: by()? },
            "decline_draw" => EventKind::DeclineDraw { by: by()? },
            "withdraw_draw" => EventKind::WithdrawDraw { by: by()? },
            "claim" => {
                let written = optional("move", self.mv.as_deref(), MoveText::from_str)?;
                let claim = field(kind, "kind", self.claim.as_deref(), |k| match k {
                    "threefold" => Ok(ClaimKind::Threefold(written)),
                    "fifty" => Ok(ClaimKind::Fifty(written)),
                    "touch_move" | "flag" | "illegal_move" if written.is_some() => {
                        Err("only threefold and fifty claims take a move")
                    }
                    "touch_move" => Ok(ClaimKind::TouchMove),
                    "flag" => Ok(ClaimKind::Flag),
                    "illegal_move" => Ok(ClaimKind::IllegalMove),
                    _ => Err("expected threefold, fifty, touch_move, flag or illegal_move"),
                })?;
                EventKind::Claim { by: by()?, claim }
            }
            "resign" => EventKind::Resign { by: by()? },
            "flag" => EventKind::Flag { by: by()? },
            _ => EventKind::Arbiter(self.into_action()?),
        })
    }

    fn into_action(self) -> Result<ArbiterAction, LineErrorKind> {
        const KIND: &str = "ruling";
        let player = || field(KIND, "player", self.player.as_deref(), color);
        let name = self.ruling.as_deref().ok_or(LineErrorKind::Missing {
            kind: KIND,
            field: "ruling",
        })?;
        let action = match name {
            "add_time" => ArbiterAction::AddTime {
                player: player()?,
                ms: self.ms.ok_or(LineErrorKind::Missing {
                    kind: KIND,
                    field: "ms",
                })?,
            },
            "warning" => ArbiterAction::Warning { player: player()? },
            "illegal_move" => ArbiterAction::IllegalMove { player: player()? },
            "colours_reversed" => ArbiterAction::ColoursReversed,
            "wrong_setup" => ArbiterAction::WrongSetup {
                misplaced: optional("misplaced", self.misplaced.as_deref(), square)?,
            },
            "declare" => ArbiterAction::Declare {
                result: field(KIND, "result", self.result.as_deref(), GameResult::from_str)?,
                article: optional("article", self.article.as_deref(), Article::parse)?,
            },
            _ => {
                return Err(LineErrorKind::Invalid {
                    field: "ruling",
                    problem: format!(
                        "unknown ruling {name:?} (add_time, warning, illegal_move, \
                         colours_reversed, wrong_setup, declare)"
                    ),
                });
            }
        };
        Ok(action)
    }
}

impl RawEvent {
    /// The line for `event`, or why it has none (a promotion to a king or a pawn, a Black time
    /// control whose period trigger is not White's).
    fn from_event(event: &Event) -> Result<RawEvent, &'static str> {
        let name = |c: Color| Some(c.name().to_owned());
        let text = |value: &dyn core::fmt::Display| Some(value.to_string());
        let raw = |event_type: &str| RawEvent {
            t_ms: Some(event.t_ms),
            event_type: event_type.to_owned(),
            ..RawEvent::default()
        };
        Ok(match &event.kind {
            EventKind::Start(start)
                if start.black_time_control.as_ref().is_some_and(|black| {
                    start.time_control.as_ref().map(|white| white.trigger) != Some(black.trigger)
                }) =>
            {
                return Err("Black's period trigger is not White's");
            }
            EventKind::Start(start) => RawEvent {
                time_control: start.time_control.as_ref().map(TimeControl::to_pgn),
                black_time_control: start.black_time_control.as_ref().map(TimeControl::to_pgn),
                trigger: start
                    .time_control
                    .as_ref()
                    .filter(|c| c.trigger == PeriodTrigger::OnFlag)
                    .map(|_| "on_flag".to_owned()),
                rules: text(&start.rules),
                fen: start.fen.as_ref().map(ToString::to_string),
                chess960: start.chess960.then_some(true),
                presses: start.presses.map(|p| {
                    match p {
                        Presses::WithMove => "with_move",
                        Presses::Separate => "separate",
                    }
                    .to_owned()
                }),
                white: start.white.clone(),
                black: start.black.clone(),
                ..raw("start")
            },
            &EventKind::Touch { by, square } => RawEvent {
                by: name(by),
                square: text(&square),
                ..raw("touch")
            },
            &EventKind::Adjust { by, square } => RawEvent {
                by: name(by),
                square: text(&square),
                ..raw("adjust")
            },
            &EventKind::Release { by, from, to } => RawEvent {
                by: name(by),
                from: from.map(|sq| sq.to_string()),
                square: text(&to),
                ..raw("release")
            },
            &EventKind::Promote { by, role, square } => {
                if matches!(role, Role::King | Role::Pawn) {
                    return Err("a promotion to a king or a pawn has no event line");
                }
                RawEvent {
                    by: name(by),
                    piece: Some(role.char().to_string()),
                    square: text(&square),
                    ..raw("promote")
                }
            }
            &EventKind::Move { by, mv, two_hands } => RawEvent {
                by: name(by),
                mv: text(&mv),
                two_hands: two_hands.then_some(true),
                ..raw("move")
            },
            &EventKind::Press { by } => RawEvent {
                by: name(by),
                ..raw("press")
            },
            &EventKind::OfferDraw { by } => RawEvent {
                by: name(by),
                ..raw("offer_draw")
            },
            &EventKind::AcceptDraw { by } => RawEvent {
                by: name(by),
                ..raw("accept_draw")
            },
            &EventKind::DeclineDraw { by } => RawEvent {
                by: name(by),
                ..raw("decline_draw")
            },
            &EventKind::WithdrawDraw { by } => RawEvent {
                by: name(by),
                ..raw("withdraw_draw")
            },
            EventKind::Claim { by, claim } => RawEvent {
                by: name(*by),
                claim: Some(claim.name().to_owned()),
                mv: match claim {
                    ClaimKind::Threefold(mv) | ClaimKind::Fifty(mv) => mv.map(|m| m.to_string()),
                    _ => None,
                },
                ..raw("claim")
            },
            &EventKind::Resign { by } => RawEvent {
                by: name(by),
                ..raw("resign")
            },
            &EventKind::Flag { by } => RawEvent {
                by: name(by),
                ..raw("flag")
            },
            EventKind::Arbiter(action) => {
                let ruling = |ruling: &str| RawEvent {
                    ruling: Some(ruling.to_owned()),
                    ..raw("ruling")
                };
                match *action {
                    ArbiterAction::AddTime { player, ms } => RawEvent {
                        player: name(player),
                        ms: Some(ms),
                        ..ruling("add_time")
                    },
                    ArbiterAction::Warning { player } => RawEvent {
                        player: name(player),
                        ..ruling("warning")
                    },
                    ArbiterAction::IllegalMove { player } => RawEvent {
                        player: name(player),
                        ..ruling("illegal_move")
                    },
                    ArbiterAction::ColoursReversed => ruling("colours_reversed"),
                    ArbiterAction::WrongSetup { misplaced } => RawEvent {
                        misplaced: misplaced.map(|sq| sq.to_string()),
                        ..ruling("wrong_setup")
                    },
                    ArbiterAction::Declare { result, article } => RawEvent {
                        result: text(&result),
                        article: article.map(|a| a.to_string()),
                        ..ruling("declare")
                    },
                }
            }
        })
    }
}

/// An event is written as its line of the log (`serde_json::to_string(&event)` is that line)
/// and read from one. Reading one event alone, a missing `t_ms` is 0 ([`EventLog`] takes the
/// previous event's). A promotion to a king or a pawn, which no line can say, cannot be
/// written.
impl Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RawEvent::from_event(self)
            .map_err(serde::ser::Error::custom)?
            .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Event, D::Error> {
        let raw = RawEvent::deserialize(deserializer)?;
        let t_ms = raw.t_ms.unwrap_or(0);
        let kind = raw.into_kind().map_err(serde::de::Error::custom)?;
        Ok(Event { t_ms, kind })
    }
}

/// Reads one event line; `previous_t_ms` is used when the line has no `t_ms`.
///
/// # Errors
///
/// [`LineErrorKind`] for a line that is not an event of the schema (see the module docs).
pub fn parse_event(line: &str, previous_t_ms: u64) -> Result<Event, LineErrorKind> {
    let raw: RawEvent =
        serde_json::from_str(line).map_err(|e| LineErrorKind::Json(e.to_string()))?;
    let t_ms = raw.t_ms.unwrap_or(previous_t_ms);
    Ok(Event {
        t_ms,
        kind: raw.into_kind()?,
    })
}

/// The longest line an event log may have, in bytes, without its line end: far more than
/// any event needs (a start event with a FEN and two names takes a few hundred bytes), and the
/// most a reader ever holds of a log.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// A log's lines, one at a time, each at most [`MAX_LINE_BYTES`]: `\n` or `\r\n` ends a line,
/// a byte order mark before the first is skipped.
#[derive(Debug)]
struct LineReader<R> {
    reader: R,
    line: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    fn new(reader: R) -> LineReader<R> {
        LineReader {
            reader,
            line: 0,
            buf: Vec::new(),
        }
    }

    /// The next line and its number (from 1), or `None` at the end of the log.
    fn next_line(&mut self) -> Result<Option<(usize, &str)>, JsonLineError> {
        self.line += 1;
        let line = self.line;
        let error = |kind| JsonLineError { line, kind };
        let read = read_line(
            &mut self.reader,
            &mut self.buf,
            MAX_LINE_BYTES,
            Overlong::Stop,
        )
        .map_err(|e| error(LineErrorKind::Io(e.kind())))?;
        match read {
            LineRead::Eof => return Ok(None),
            LineRead::TooLong => {
                return Err(error(LineErrorKind::LineTooLong {
                    limit: MAX_LINE_BYTES,
                }));
            }
            LineRead::Line => {}
        }
        let text = core::str::from_utf8(&self.buf).map_err(|e| {
            error(LineErrorKind::NotUtf8 {
                byte: e.valid_up_to(),
            })
        })?;
        let text = if line == 1 {
            text.strip_prefix('\u{feff}').unwrap_or(text)
        } else {
            text
        };
        Ok(Some((line, text)))
    }
}

/// The events of a log read line by line, each with the number of its line (from 1); blank
/// lines are skipped, and the iterator ends after the first error. It holds one line at a
/// time, whatever the length of the log.
#[derive(Debug)]
pub struct EventLog<R> {
    lines: LineReader<R>,
    t_ms: u64,
    failed: bool,
}

impl<R: BufRead> EventLog<R> {
    /// The events of the log `reader` reads.
    pub fn new(reader: R) -> EventLog<R> {
        EventLog {
            lines: LineReader::new(reader),
            t_ms: 0,
            failed: false,
        }
    }
}

impl<R: BufRead> Iterator for EventLog<R> {
    type Item = Result<(usize, Event), JsonLineError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        let item = loop {
            match self.lines.next_line() {
                Ok(None) => return None,
                Ok(Some((_, text))) if text.trim().is_empty() => {}
                Ok(Some((line, text))) => {
                    break parse_event(text, self.t_ms)
                        .map(|event| (line, event))
                        .map_err(|kind| JsonLineError { line, kind });
                }
                Err(e) => break Err(e),
            }
        };
        match &item {
            Ok((_, event)) => self.t_ms = event.t_ms,
            Err(_) => self.failed = true,
        }
        Some(item)
    }
}

/// How a log's presses come, as [`crate::replay`] finds out when the start event does not say:
/// separate if any line is a `press` event. Only the `type` of each line is looked at; a line
/// that is not an event is left for the replay to report. Every line is read, one at a time, so
/// a reader that copies what it reads (to replay a pipe from a copy) copies all of it.
///
/// # Errors
///
/// [`JsonLineError`] for a line that cannot be read at all: longer than [`MAX_LINE_BYTES`],
/// not UTF-8, or failing to read.
pub fn detect_presses(reader: impl BufRead) -> Result<Presses, JsonLineError> {
    #[derive(Deserialize)]
    struct Type<'a> {
        #[serde(rename = "type", borrow)]
        event_type: Cow<'a, str>,
    }
    let mut lines = LineReader::new(reader);
    let mut presses = Presses::WithMove;
    while let Some((_, text)) = lines.next_line()? {
        if presses == Presses::WithMove
            && serde_json::from_str::<Type<'_>>(text).is_ok_and(|t| t.event_type == "press")
        {
            presses = Presses::Separate;
        }
    }
    Ok(presses)
}

/// The lines of a log's events that left something in the verdict (a decision, a penalty or
/// a note): what [`verdict_to_json`] names them by. It holds no more entries than the verdict.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventLines {
    /// `(event index, line)`, by index.
    lines: Vec<(usize, usize)>,
}

impl EventLines {
    /// The line of event `index` (from 0), if that event left something in the verdict.
    #[must_use]
    pub fn line(&self, index: usize) -> Option<usize> {
        self.lines
            .binary_search_by_key(&index, |&(i, _)| i)
            .ok()
            .map(|at| self.lines[at].1)
    }
}

/// Reads a log line by line and replays it as it goes: the verdict, and the lines of the events
/// that left something in it. Memory does not grow with the log beyond what the verdict holds.
/// `presses` is asked only when the start event does not say how presses come (with a second
/// reader of the same log, [`detect_presses`] tells it as [`crate::replay`] would).
///
/// # Errors
///
/// [`JsonLineError`] naming the first line that cannot be read or applied, or the error
/// `presses` returns.
pub fn arbitrate_reader(
    reader: impl BufRead,
    presses: impl FnOnce() -> Result<Presses, JsonLineError>,
) -> Result<(Verdict, EventLines), JsonLineError> {
    let mut events = EventLog::new(reader);
    let (line, first) = events.next().transpose()?.ok_or(JsonLineError {
        line: 1,
        kind: LineErrorKind::Empty,
    })?;
    let at = |line| {
        move |error: EventError| JsonLineError {
            line,
            kind: LineErrorKind::Event(error),
        }
    };
    let EventKind::Start(mut start) = first.kind else {
        return Err(at(line)(EventError::NotStarted));
    };
    if start.presses.is_none() {
        start.presses = Some(presses()?);
    }
    let mut arbiter = Arbiter::new(&start, first.t_ms).map_err(at(line))?;
    let mut lines = EventLines::default();
    if arbiter.recorded() > 0 {
        lines.lines.push((0, line));
    }
    for (index, item) in (1..).zip(events) {
        let (line, event) = item?;
        let before = arbiter.recorded();
        arbiter.handle(&event).map_err(at(line))?;
        if arbiter.recorded() != before {
            lines.lines.push((index, line));
        }
    }
    Ok((arbiter.verdict(), lines))
}

/// Reads a log held in memory and replays it: [`arbitrate_reader`] over its text. This is the
/// entry point for fuzzing: no input makes it panic.
///
/// # Errors
///
/// [`JsonLineError`] naming the first line that cannot be read or applied.
pub fn arbitrate(text: &str) -> Result<(Verdict, EventLines), JsonLineError> {
    arbitrate_reader(text.as_bytes(), || detect_presses(text.as_bytes()))
}

/// The verdict as one JSON object (see the module docs); each entry names its event's line,
/// as `line` (without `lines`, or for an event `lines` does not know, by its index, as `event`).
#[must_use]
pub fn verdict_to_json(verdict: &Verdict, lines: Option<&EventLines>) -> Value {
    let at = |event: usize| match lines.and_then(|l| l.line(event)) {
        Some(line) => ("line", line),
        None => ("event", event),
    };
    let with_place = |event: usize, mut value: Value| {
        let (key, n) = at(event);
        if let Some(map) = value.as_object_mut() {
            map.insert(key.to_owned(), json!(n));
        }
        value
    };
    let pair = |white: u64, black: u64| json!({ "white": white, "black": black });
    let outcome = verdict.outcome;
    json!({
        "result": outcome.map_or("*", |o| o.result.as_str()),
        "termination": outcome.map_or("unterminated", |o| o.reason.name()),
        "article": outcome.map(|o| o.article.as_str().to_owned()),
        "ended_at_ms": verdict.ended_at_ms,
        "penalties": verdict.penalties.iter().map(|p| with_place(p.event, json!({
            "t_ms": p.t_ms,
            "offender": p.offender.name(),
            "to": (!p.offender).name(),
            "ms": p.ms,
            "article": p.article.as_str(),
        }))).collect::<Vec<_>>(),
        "decisions": verdict.decisions.iter().map(|d| with_place(d.event, json!({
            "t_ms": d.t_ms,
            "player": d.player.map(Color::name),
            "article": d.article.as_str(),
            "ruling": d.ruling.to_string(),
        }))).collect::<Vec<_>>(),
        "notes": verdict.notes.iter().map(|n| with_place(n.event, json!({
            "t_ms": n.t_ms,
            "text": n.text,
        }))).collect::<Vec<_>>(),
        "illegal_moves": pair(
            u64::from(verdict.illegal_moves.white),
            u64::from(verdict.illegal_moves.black),
        ),
        "clock_ms": verdict.clock_ms.map(|c| pair(c.white, c.black)),
        "pgn": verdict.pgn,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> JsonLineError {
        arbitrate(text).expect_err(text)
    }

    #[test]
    fn malformed_lines_are_named() {
        let start = r#"{"t_ms": 0, "type": "start"}"#;
        let cases = [
            ("", 1, "no events"),
            ("{", 1, "malformed event"),
            ("[1, 2]", 1, "malformed event"),
            (r#"{"type": "dance"}"#, 1, "unknown event type"),
            (r#"{"type": "start", "colour": "red"}"#, 1, "unknown field"),
            (r#"{"type": "start", "t_ms": -1}"#, 1, "malformed event"),
            (r#"{"type": "start", "t_ms": 1.5}"#, 1, "malformed event"),
            (r#"{"type": "start", "rules": "fide"}"#, 1, "field rules"),
            (
                r#"{"type": "start", "time_control": "?"}"#,
                1,
                "field time_control",
            ),
            (r#"{"type": "start", "fen": "8/8 w"}"#, 1, "field fen"),
            (r#"{"type": "start", "by": "white"}"#, 1, "does not take"),
            (
                r#"{"type": "move", "by": "white", "move": "e4"}"#,
                1,
                "has not started",
            ),
            (
                &format!("{start}\n\n{{\"type\": \"move\", \"by\": \"white\"}}"),
                3,
                "without move",
            ),
            (
                &format!("{start}\n{{\"type\": \"move\", \"by\": \"red\", \"move\": \"e4\"}}"),
                2,
                "field by",
            ),
            (
                &format!("{start}\n{{\"type\": \"move\", \"by\": \"white\", \"move\": \"xyz\"}}"),
                2,
                "field move",
            ),
            (
                &format!("{start}\n{{\"type\": \"touch\", \"by\": \"white\", \"square\": \"i9\"}}"),
                2,
                "field square",
            ),
            (
                &format!(
                    "{start}\n{{\"type\": \"claim\", \"by\": \"white\", \"kind\": \"flag\", \"move\": \"e4\"}}"
                ),
                2,
                "only threefold",
            ),
            (
                &format!("{start}\n{{\"type\": \"ruling\", \"ruling\": \"dance\"}}"),
                2,
                "unknown ruling",
            ),
            (
                &format!(
                    "{start}\n{{\"type\": \"ruling\", \"ruling\": \"add_time\", \"player\": \"white\"}}"
                ),
                2,
                "without ms",
            ),
            (
                &format!(
                    "{start}\n{{\"type\": \"promote\", \"by\": \"white\", \"piece\": \"k\", \"square\": \"e8\"}}"
                ),
                2,
                "promotion piece",
            ),
            (&format!("{start}\n{start}"), 2, "already started"),
            (
                "{\"t_ms\": 10, \"type\": \"start\"}\n{\"t_ms\": 5, \"type\": \"resign\", \"by\": \"white\"}",
                2,
                "backwards",
            ),
            (
                &format!(
                    "{start}\n{{\"t_ms\": 99999999999999, \"type\": \"resign\", \"by\": \"white\"}}"
                ),
                2,
                "limit",
            ),
            (
                &format!("{start}\n{{\"type\": \"move\", \"by\": \"white\", \"move\": \"Nd2\"}}"),
                2,
                "ambiguous",
            ),
        ];
        for (text, line, words) in cases {
            // The last case: Nd2 is ambiguous only with both knights able to go there.
            let text = if words == "ambiguous" {
                text.replace(
                    r#""type": "start"}"#,
                    r#""type": "start", "fen": "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1"}"#,
                )
            } else {
                text.to_owned()
            };
            let e = error(&text);
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.to_string().contains(words), "{text}: {e}");
        }
    }

    #[test]
    fn lines_are_bounded_and_a_bom_is_skipped() {
        let start = r#"{"t_ms": 0, "type": "start"}"#;
        let resign = r#"{"t_ms": 5, "type": "resign", "by": "white"}"#;
        let plain = arbitrate(&format!("{start}\n{resign}\n"));
        for log in [
            format!("\u{feff}{start}\n{resign}\n"),
            format!("{start}\r\n{resign}\r\n"),
            format!("{start}\n{resign}"),
        ] {
            assert_eq!(arbitrate(&log), plain, "{log:?}");
        }
        // A BOM anywhere but at the start is not skipped.
        assert_eq!(error(&format!("{start}\n\u{feff}{resign}")).line, 2);
        let long = format!("{start}\n{}\n", " ".repeat(MAX_LINE_BYTES + 1));
        let e = error(&long);
        assert_eq!(
            (e.line, e.kind),
            (
                2,
                LineErrorKind::LineTooLong {
                    limit: MAX_LINE_BYTES
                }
            )
        );
        // The longest line allowed is read (here blank), with its `\r\n`.
        let longest = format!("{start}\n{}\r\n{resign}", " ".repeat(MAX_LINE_BYTES));
        assert_eq!(arbitrate(&longest).map(|(v, _)| v), plain.map(|(v, _)| v));
        // Endless input without a line end stops at the limit.
        let zeros = std::io::Read::take(std::io::repeat(0), u64::MAX);
        let e =
            arbitrate_reader(std::io::BufReader::new(zeros), || Ok(Presses::WithMove)).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(matches!(e.kind, LineErrorKind::LineTooLong { .. }));
        let mut bytes = format!("{start}\n").into_bytes();
        bytes.extend_from_slice(b"{\"type\": \"resign\", \"by\": \"wh\xffite\"}");
        let e = arbitrate_reader(bytes.as_slice(), || Ok(Presses::WithMove)).unwrap_err();
        assert_eq!((e.line, e.kind), (2, LineErrorKind::NotUtf8 { byte: 28 }));
    }

    #[test]
    fn the_first_line_in_order_that_fails_is_named() {
        // An event that cannot be applied on line 2 comes before a malformed line 3.
        let e = error(
            "{\"t_ms\": 9, \"type\": \"start\", \"presses\": \"with_move\"}\n\
             {\"t_ms\": 1, \"type\": \"resign\", \"by\": \"white\"}\n{",
        );
        assert_eq!(e.line, 2, "{e}");
        // Without `presses`, the press events decide, wherever they are.
        let log = "{\"type\": \"start\"}\n{\"type\": \"move\", \"by\": \"white\", \"move\": \"e4\"}\n\
                   {\"type\": \"press\", \"by\": \"white\"}\n";
        assert_eq!(detect_presses(log.as_bytes()), Ok(Presses::Separate));
        assert_eq!(
            detect_presses(&log.as_bytes()[..log.len() - 36]),
            Ok(Presses::WithMove)
        );
        let (verdict, _) = arbitrate(log).unwrap();
        assert!(verdict.notes.is_empty(), "{verdict}");
    }

    #[test]
    fn time_added_never_takes_a_clock_past_the_limit() {
        let add = |ms: u64| {
            format!(r#"{{"type": "ruling", "ruling": "add_time", "player": "white", "ms": {ms}}}"#)
        };
        let half = crate::MAX_TIME_MS / 2;
        let log = format!(
            "{{\"type\": \"start\", \"time_control\": \"60\"}}\n{}\n{}\n",
            add(half),
            add(half)
        );
        let (verdict, lines) = arbitrate(&log).unwrap();
        assert_eq!(verdict.decisions.len(), 1);
        assert_eq!(verdict.clock_ms.unwrap().white, 60_000 + half);
        assert_eq!(verdict.notes.len(), 1);
        assert!(verdict.notes[0].text.contains("beyond the limit"));
        assert_eq!(lines.line(verdict.notes[0].event), Some(3));
    }

    #[test]
    fn missing_times_repeat_the_previous_one() {
        let log =
            "{\"t_ms\": 7, \"type\": \"start\"}\n\n{\"type\": \"offer_draw\", \"by\": \"w\"}\n";
        let events: Vec<(usize, Event)> = EventLog::new(log.as_bytes())
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(events[1].1.t_ms, 7);
        assert_eq!(events.iter().map(|e| e.0).collect::<Vec<_>>(), [1, 3]);
    }
}
