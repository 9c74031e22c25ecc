//! Commands embedded in comments: `[%clk 0:03:00]`, `[%emt 0:00:05]`, `[%eval 0.25]`,
//! `[%eval #-3]`, `[%csl Ga4,Rb5]`, `[%cal Ge2e4]`.
//!
//! These are the conventions of lichess, chess.com and ChessBase (Alexander Cherekhovich's
//! "embedded command" proposal). [`Commands`] finds every `[%name args]` in a comment's bytes and
//! reads the known ones into typed values, without allocating:
//!
//! - `%clk` and `%emt`: `h:mm:ss`, `mm:ss` or either with a decimal fraction of seconds
//!   (`0:03:00.5`), into a [`Duration`];
//! - `%eval`: a score in pawns (`0.25`, `-1.3`, `+2`) or a mate in moves (`#3`, `#-3`), optionally
//!   followed by `,depth` (`0.25,18`);
//! - `%csl` (square highlights) and `%cal` (arrows): a comma-separated list of a colour letter
//!   (`R`ed, `G`reen, `Y`ellow, `B`lue) and one square or two.
//!
//! Other commands come back as [`Command::Other`] with their raw arguments; a known command with
//! malformed arguments as a [`ParseCommandError`] with its byte offset in the comment.
//!
//! ```
//! use std::time::Duration;
//! use caissa_notation::pgn::commands::{Command, Commands, Score};
//!
//! let comment = b" [%eval #-3] [%clk 0:03:00.5] Good move! ";
//! let commands: Vec<_> = Commands::new(comment).collect::<Result<_, _>>()?;
//! assert!(matches!(commands[0], Command::Eval(eval) if eval.score == Score::Mate(-3)));
//! assert_eq!(commands[1], Command::Clock(Duration::from_millis(180_500)));
//! assert_eq!(Commands::new(comment).text_without_commands(), "Good move!");
//! # Ok::<(), caissa_notation::pgn::commands::ParseCommandError>(())
//! ```

use core::fmt;
use std::time::Duration;

use caissa_board::Square;

use super::tree::normalize_comment;

/// One command of a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Command<'a> {
    /// `[%clk ...]`: the clock of the player who just moved, after the move.
    Clock(Duration),
    /// `[%emt ...]`: the time the move took.
    ElapsedMoveTime(Duration),
    /// `[%eval ...]`: an engine evaluation, from White's point of view.
    Eval(Eval),
    /// `[%csl ...]`: highlighted squares (each [`Shape`] has `from == to`).
    Highlights(Shapes<'a>),
    /// `[%cal ...]`: arrows.
    Arrows(Shapes<'a>),
    /// Any other command: its name (without `%`) and its arguments, trimmed.
    Other {
        /// The name, like `b"depth"` for `[%depth 20]`.
        name: &'a [u8],
        /// The arguments.
        args: &'a [u8],
    },
}

/// An engine evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score.
    pub score: Score,
    /// The search depth, if given.
    pub depth: Option<u32>,
}

/// A score, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An advantage in hundredths of a pawn (`0.25` is 25). Digits after the second decimal are
    /// dropped.
    Centipawns(i32),
    /// A mate in this many moves; negative when Black mates.
    Mate(i32),
}

/// The colour of a highlight or arrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeColor {
    /// `G`.
    Green,
    /// `R`.
    Red,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

impl ShapeColor {
    const fn from_ascii(b: u8) -> Option<ShapeColor> {
        match b {
            b'G' => Some(ShapeColor::Green),
            b'R' => Some(ShapeColor::Red),
            b'Y' => Some(ShapeColor::Yellow),
            b'B' => Some(ShapeColor::Blue),
            _ => None,
        }
    }

    /// The letter: `G`, `R`, `Y` or `B`.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            ShapeColor::Green => 'G',
            ShapeColor::Red => 'R',
            ShapeColor::Yellow => 'Y',
            ShapeColor::Blue => 'B',
        }
    }
}

/// A highlighted square (`from == to`) or an arrow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    /// The colour.
    pub color: ShapeColor,
    /// The square, or the arrow's tail.
    pub from: Square,
    /// The square again, or the arrow's head.
    pub to: Square,
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.from == self.to {
            write!(f, "{}{}", self.color.char(), self.from)
        } else {
            write!(f, "{}{}{}", self.color.char(), self.from, self.to)
        }
    }
}

/// The shapes of a `%csl` or `%cal` command, already checked; iterate to get them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shapes<'a> {
    args: &'a [u8],
}

impl Iterator for Shapes<'_> {
    type Item = Shape;

    fn next(&mut self) -> Option<Shape> {
        loop {
            let args = self.args;
            if args.is_empty() {
                return None;
            }
            let len = args.iter().position(|&b| b == b',').unwrap_or(args.len());
            self.args = args.get(len + 1..).unwrap_or_default();
            // Checked when the command was read; empty items are skipped.
            if let Ok(Some(shape)) = parse_shape(trim(&args[..len])) {
                return Some(shape);
            }
        }
    }
}

/// A known command whose arguments cannot be read: where in the comment, and which command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("at byte {byte} of the comment: {kind}")]
pub struct ParseCommandError {
    /// Byte offset of the command's `[` in the comment.
    pub byte: usize,
    /// Which command's arguments are malformed.
    pub kind: ParseCommandErrorKind,
}

/// The command whose arguments cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum ParseCommandErrorKind {
    /// `[%clk]`: not `h:mm:ss` or `mm:ss`, with an optional fraction.
    #[error("invalid [%clk] command: expected h:mm:ss")]
    Clock,
    /// `[%emt]`: not `h:mm:ss` or `mm:ss`, with an optional fraction.
    #[error("invalid [%emt] command: expected h:mm:ss")]
    ElapsedMoveTime,
    /// `[%eval]`: not a score in pawns or a mate, with an optional depth.
    #[error("invalid [%eval] command: expected a score like 0.25 or #-3, and maybe ,depth")]
    Eval,
    /// `[%csl]`: not a list of a colour letter and a square.
    #[error("invalid [%csl] command: expected a list like Ga4,Rb5")]
    Highlights,
    /// `[%cal]`: not a list of a colour letter and two squares.
    #[error("invalid [%cal] command: expected a list like Ge2e4,Rd1d8")]
    Arrows,
}

/// The commands of a comment, in order: an iterator of [`Command`] or [`ParseCommandError`].
#[derive(Clone, Debug)]
pub struct Commands<'a> {
    text: &'a [u8],
    pos: usize,
}

impl<'a> Commands<'a> {
    /// The commands of a comment's bytes (without its braces).
    #[must_use]
    pub const fn new(text: &'a [u8]) -> Commands<'a> {
        Commands { text, pos: 0 }
    }

    /// The comment without its commands, whitespace runs made single spaces, trimmed.
    #[must_use]
    pub fn text_without_commands(&self) -> String {
        let mut out = String::new();
        let mut rest = self.text;
        while !rest.is_empty() {
            let (plain, next) = match find_command(rest) {
                Some((start, end)) => (&rest[..start], &rest[end..]),
                None => (rest, &rest[rest.len()..]),
            };
            for word in plain
                .split(|b| b.is_ascii_whitespace())
                .filter(|w| !w.is_empty())
            {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(&String::from_utf8_lossy(word));
            }
            rest = next;
        }
        out
    }
}

impl Commands<'_> {
    /// The comment's commands alone, each as written, separated by single spaces (`""` for a
    /// comment without any): what stays of a comment whose text is replaced.
    ///
    /// ```
    /// use caissa_notation::pgn::commands::Commands;
    ///
    /// let comment = Commands::new(b"Good [%clk 0:01:00] move [%eval 0.3]");
    /// assert_eq!(comment.command_text(), "[%clk 0:01:00] [%eval 0.3]");
    /// ```
    #[must_use]
    pub fn command_text(&self) -> String {
        let mut out = String::new();
        let mut rest = self.text;
        while let Some((start, end)) = find_command(rest) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&String::from_utf8_lossy(&rest[start..end]));
            rest = &rest[end..];
        }
        out
    }
}

/// `text` (a comment's text) with its first `[%name ...]` command replaced by `command`, or
/// `command` added at the end when it has none; with `None`, that first command taken out.
/// Whitespace runs become single spaces, the ends trimmed (as a game keeps comments).
///
/// ```
/// use std::time::Duration;
/// use caissa_notation::pgn::commands::{Command, replace_command};
///
/// let clock = Command::Clock(Duration::from_secs(62));
/// assert_eq!(replace_command("Good [%clk 0:03:00] move", "clk", Some(&clock)),
///            "Good [%clk 0:01:02] move");
/// assert_eq!(replace_command("Good", "clk", Some(&clock)), "Good [%clk 0:01:02]");
/// assert_eq!(replace_command("[%eval 0.3] Good", "eval", None), "Good");
/// ```
#[must_use]
pub fn replace_command(text: &str, name: &str, command: Option<&Command<'_>>) -> String {
    let new = command.map(ToString::to_string).unwrap_or_default();
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some((start, end)) = find_command(&bytes[from..]) {
        let (start, end) = (from + start, from + end);
        let inner = &bytes[start + 2..end - 1];
        let found = inner
            .split(u8::is_ascii_whitespace)
            .next()
            .is_some_and(|n| n == name.as_bytes());
        if found {
            // `[` and `]` are ASCII, so both ends are character boundaries.
            let joined = format!("{} {new} {}", &text[..start], &text[end..]);
            return normalize_comment(joined.as_bytes());
        }
        from = end;
    }
    normalize_comment(format!("{text} {new}").as_bytes())
}

/// The byte range of the first `[%...]` in `text`.
fn find_command(text: &[u8]) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(i) = text[from..].windows(2).position(|w| w == b"[%") {
        let start = from + i;
        if let Some(len) = text[start..].iter().position(|&b| b == b']') {
            return Some((start, start + len + 1));
        }
        from = start + 2;
    }
    None
}

impl<'a> Iterator for Commands<'a> {
    type Item = Result<Command<'a>, ParseCommandError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (start, end) = find_command(&self.text[self.pos..])?;
        let byte = self.pos + start;
        let inner = &self.text[byte + 2..self.pos + end - 1];
        self.pos += end;
        let name_len = inner
            .iter()
            .position(u8::is_ascii_whitespace)
            .unwrap_or(inner.len());
        let (name, args) = (&inner[..name_len], trim(&inner[name_len..]));
        let known = |kind: ParseCommandErrorKind, value: Option<Command<'a>>| {
            value.ok_or(ParseCommandError { byte, kind })
        };
        Some(match name {
            b"clk" => known(
                ParseCommandErrorKind::Clock,
                parse_duration(args).map(Command::Clock),
            ),
            b"emt" => known(
                ParseCommandErrorKind::ElapsedMoveTime,
                parse_duration(args).map(Command::ElapsedMoveTime),
            ),
            b"eval" => known(
                ParseCommandErrorKind::Eval,
                parse_eval(args).map(Command::Eval),
            ),
            b"csl" => known(
                ParseCommandErrorKind::Highlights,
                check_shapes(args, 1).map(|args| Command::Highlights(Shapes { args })),
            ),
            b"cal" => known(
                ParseCommandErrorKind::Arrows,
                check_shapes(args, 2).map(|args| Command::Arrows(Shapes { args })),
            ),
            _ => Ok(Command::Other { name, args }),
        })
    }
}

fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}

/// Reads decimal digits (1 to 9 of them) as a number.
fn parse_number(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(digits.iter().fold(0, |n, &d| n * 10 + u64::from(d - b'0')))
}

/// `h:mm:ss`, `mm:ss`, with an optional fraction of seconds.
fn parse_duration(args: &[u8]) -> Option<Duration> {
    let (whole, fraction) = match args.iter().position(|&b| b == b'.') {
        Some(dot) => (&args[..dot], Some(&args[dot + 1..])),
        None => (args, None),
    };
    let mut fields = whole.split(|&b| b == b':');
    let mut seconds = 0u64;
    let mut count = 0;
    for field in fields.by_ref() {
        let value = parse_number(field)?;
        if count > 0 && (field.len() > 2 || value >= 60) {
            return None;
        }
        seconds = seconds * 60 + value;
        count += 1;
    }
    if !(2..=3).contains(&count) {
        return None;
    }
    let millis = match fraction {
        None => 0,
        Some(digits) => {
            parse_number(digits)?;
            digits
                .iter()
                .chain(b"000")
                .take(3)
                .fold(0, |n, &d| n * 10 + u64::from(d - b'0'))
        }
    };
    Some(Duration::from_millis(seconds * 1000 + millis))
}

fn parse_eval(args: &[u8]) -> Option<Eval> {
    let (score, depth) = match args.iter().position(|&b| b == b',') {
        Some(comma) => (
            trim(&args[..comma]),
            Some(u32::try_from(parse_number(trim(&args[comma + 1..]))?).ok()?),
        ),
        None => (args, None),
    };
    let score = if let Some(mate) = score.strip_prefix(b"#") {
        let (negative, digits) = sign(mate);
        let n = i32::try_from(parse_number(digits)?).ok()?;
        Score::Mate(if negative { -n } else { n })
    } else {
        let (negative, number) = sign(score);
        let (int, frac) = match number.iter().position(|&b| b == b'.') {
            Some(dot) => (&number[..dot], &number[dot + 1..]),
            None => (number, &b""[..]),
        };
        if int.is_empty() && frac.is_empty() {
            return None;
        }
        let int = if int.is_empty() {
            0
        } else {
            parse_number(int)?
        };
        if !frac.is_empty() {
            parse_number(frac)?;
        }
        let hundredths = frac
            .iter()
            .chain(b"00")
            .take(2)
            .fold(0, |n, &d| n * 10 + u64::from(d - b'0'));
        let cp = i32::try_from(int * 100 + hundredths).ok()?;
        Score::Centipawns(if negative { -cp } else { cp })
    };
    Some(Eval { score, depth })
}

fn sign(bytes: &[u8]) -> (bool, &[u8]) {
    match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, bytes),
    }
}

/// A colour letter and one square (`arrow == false`) or two.
fn parse_shape(item: &[u8]) -> Result<Option<Shape>, ()> {
    if item.is_empty() {
        return Ok(None);
    }
    let color = ShapeColor::from_ascii(item[0]).ok_or(())?;
    let squares = &item[1..];
    let (from, to) = match squares.len() {
        2 => {
            let sq = Square::from_ascii(squares).map_err(|_| ())?;
            (sq, sq)
        }
        4 => (
            Square::from_ascii(&squares[..2]).map_err(|_| ())?,
            Square::from_ascii(&squares[2..]).map_err(|_| ())?,
        ),
        _ => return Err(()),
    };
    Ok(Some(Shape { color, from, to }))
}

/// Checks a shape list: every item a colour letter and `squares` squares (1 for highlights, 2
/// for arrows).
fn check_shapes(args: &[u8], squares: usize) -> Option<&[u8]> {
    args.split(|&b| b == b',')
        .try_for_each(|item| {
            let item = trim(item);
            match parse_shape(item) {
                Ok(None) => Ok(()),
                Ok(Some(_)) if item.len() == 1 + 2 * squares => Ok(()),
                _ => Err(()),
            }
        })
        .ok()
        .map(|()| args)
}

impl fmt::Display for Command<'_> {
    /// Writes the command back as `[%name args]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn duration(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
            let secs = d.as_secs();
            write!(f, "{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)?;
            match d.subsec_millis() {
                0 => Ok(()),
                ms if ms % 100 == 0 => write!(f, ".{}", ms / 100),
                ms if ms % 10 == 0 => write!(f, ".{:02}", ms / 10),
                ms => write!(f, ".{ms:03}"),
            }
        }
        type WriteShape = fn(&mut fmt::Formatter<'_>, Shape) -> fmt::Result;
        fn shapes(f: &mut fmt::Formatter<'_>, shapes: Shapes<'_>, each: WriteShape) -> fmt::Result {
            for (i, shape) in shapes.enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                each(f, shape)?;
            }
            Ok(())
        }
        // An arrow keeps both squares, even from a square to itself (`Ga1a1`), which a
        // highlight's one square would not read back as.
        fn arrow(f: &mut fmt::Formatter<'_>, s: Shape) -> fmt::Result {
            write!(f, "{}{}{}", s.color.char(), s.from, s.to)
        }
        f.write_str("[%")?;
        match *self {
            Command::Clock(d) => {
                f.write_str("clk ")?;
                duration(f, d)?;
            }
            Command::ElapsedMoveTime(d) => {
                f.write_str("emt ")?;
                duration(f, d)?;
            }
            Command::Eval(eval) => {
                f.write_str("eval ")?;
                match eval.score {
                    Score::Mate(n) => write!(f, "#{n}")?,
                    Score::Centipawns(cp) => {
                        let sign = if cp < 0 { "-" } else { "" };
                        let cp = cp.unsigned_abs();
                        write!(f, "{sign}{}.{:02}", cp / 100, cp % 100)?;
                    }
                }
                if let Some(depth) = eval.depth {
                    write!(f, ",{depth}")?;
                }
            }
            Command::Highlights(s) => {
                f.write_str("csl ")?;
                shapes(f, s, |f, shape| write!(f, "{shape}"))?;
            }
            Command::Arrows(s) => {
                f.write_str("cal ")?;
                shapes(f, s, arrow)?;
            }
            Command::Other { name, args } => {
                f.write_str(&String::from_utf8_lossy(name))?;
                if !args.is_empty() {
                    write!(f, " {}", String::from_utf8_lossy(args))?;
                }
            }
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<Command<'_>, ParseCommandError> {
        let mut commands = Commands::new(text.as_bytes());
        let command = commands.next().expect("one command");
        assert!(commands.next().is_none());
        command
    }

    #[test]
    fn clocks() {
        let ms = Duration::from_millis;
        for (text, expected) in [
            ("[%clk 0:05:00]", Some(ms(300_000))),
            ("[%clk 1:00:01.5]", Some(ms(3_601_500))),
            ("[%clk 12:34]", Some(ms(754_000))),
            ("[%clk 0:03:00.123456]", Some(ms(180_123))),
            ("[%emt 0:00:07]", Some(ms(7_000))),
            ("[%clk 0:60:00]", None),
            ("[%clk 5]", None),
            ("[%clk 0:05:xx]", None),
            ("[%clk]", None),
        ] {
            let got = one(text).ok().map(|c| match c {
                Command::Clock(d) | Command::ElapsedMoveTime(d) => d,
                other => panic!("{other:?}"),
            });
            assert_eq!(got, expected, "{text}");
        }
    }

    #[test]
    fn evals() {
        let cp = |n, depth| {
            Some(Eval {
                score: Score::Centipawns(n),
                depth,
            })
        };
        let mate = |n| {
            Some(Eval {
                score: Score::Mate(n),
                depth: None,
            })
        };
        for (text, expected) in [
            ("[%eval 0.25]", cp(25, None)),
            ("[%eval -1.3]", cp(-130, None)),
            ("[%eval +2]", cp(200, None)),
            ("[%eval -.5]", cp(-50, None)),
            ("[%eval 0.257,18]", cp(25, Some(18))),
            ("[%eval #-3]", mate(-3)),
            ("[%eval #7]", mate(7)),
            ("[%eval]", None),
            ("[%eval #]", None),
            ("[%eval 1.x]", None),
            ("[%eval 0.1,]", None),
        ] {
            let got = one(text).ok().map(|c| match c {
                Command::Eval(e) => e,
                other => panic!("{other:?}"),
            });
            assert_eq!(got, expected, "{text}");
        }
    }

    #[test]
    fn shapes() {
        let Ok(Command::Highlights(shapes)) = one("[%csl Ga4,Rb5]") else {
            panic!("highlights")
        };
        let shapes: Vec<_> = shapes.collect();
        assert_eq!(shapes.len(), 2);
        assert_eq!(
            (shapes[1].color, shapes[1].from),
            (ShapeColor::Red, Square::B5)
        );
        let Ok(Command::Arrows(arrows)) = one("[%cal Ge2e4,Bg1f3]") else {
            panic!("arrows")
        };
        let arrows: Vec<_> = arrows.collect();
        assert_eq!((arrows[0].from, arrows[0].to), (Square::E2, Square::E4));
        assert_eq!(arrows[1].color, ShapeColor::Blue);
        assert!(one("[%csl Ge2e4]").is_err());
        assert!(one("[%cal Ge2]").is_err());
        assert!(one("[%csl Xa1]").is_err());
        assert!(one("[%csl Gz9]").is_err());
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "[%clk 0:05:00]",
            "[%clk 1:02:03.5]",
            "[%emt 0:00:01.25]",
            "[%eval 0.25]",
            "[%eval -1.30,20]",
            "[%eval #-3]",
            "[%csl Ga4,Rb5]",
            "[%cal Ge2e4,Yd1h5]",
            "[%depth 20]",
        ] {
            assert_eq!(one(text).expect(text).to_string(), text);
        }
    }

    #[test]
    fn others_and_plain_text() {
        let comment = b"see [%foo bar baz] and [%clk 0:00:01] [not a command";
        let commands: Vec<_> = Commands::new(comment).collect();
        assert_eq!(
            commands[0],
            Ok(Command::Other {
                name: b"foo",
                args: b"bar baz"
            })
        );
        assert_eq!(commands.len(), 2);
        assert_eq!(
            Commands::new(comment).text_without_commands(),
            "see and [not a command"
        );
        let error = Commands::new(b"xx [%clk nonsense]").next();
        assert_eq!(
            error,
            Some(Err(ParseCommandError {
                byte: 3,
                kind: ParseCommandErrorKind::Clock,
            }))
        );
    }
}
