//! Reading a [`Filter`](super::Filter) from text.

use caissa_arbiter::Speed;

use super::eval::{date_range, eco_range, speed_rank};
use super::{ClockPart, Condition, Expr, Op, Players, Test};

/// Parentheses and `not`s nested deeper than this are refused, so that reading stays within a
/// bounded stack on any text.
const MAX_DEPTH: usize = 64;

/// A filter that cannot be read: where (a byte offset into the text) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind} at byte {byte}")]
pub struct ParseFilterError {
    /// Where the problem starts, in bytes from the start of the text.
    pub byte: usize,
    /// What is wrong.
    pub kind: ParseFilterErrorKind,
}

/// What is wrong with a filter's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseFilterErrorKind {
    /// No tag name where a condition starts.
    #[error("expected a tag name (letters, digits, _), `not` or `(`")]
    ExpectedTag,
    /// No operator after a tag name.
    #[error("expected an operator after the tag name: = != < <= > >= ~")]
    ExpectedOperator,
    /// No value after an operator.
    #[error("expected a value after the operator")]
    ExpectedValue,
    /// A `"` that is never closed.
    #[error("unterminated quoted value")]
    UnterminatedQuote,
    /// A `(` without its `)`.
    #[error("expected `)`")]
    ExpectedCloseParen,
    /// A `)` without its `(`.
    #[error("unmatched `)`")]
    UnmatchedCloseParen,
    /// Text where `and`, `or` or the end should be.
    #[error("unexpected `{0}`: expected `and`, `or` or the end")]
    Unexpected(String),
    /// Parentheses or `not`s nested too deep.
    #[error("nested deeper than {MAX_DEPTH}")]
    TooDeep,
    /// A value that is not an integer, for a tag that compares as one.
    #[error("{tag} compares integers, not `{value}`")]
    NotAnInteger {
        /// The tag.
        tag: String,
        /// The value written.
        value: String,
    },
    /// A value that is not a date (`2024`, `2024.05`, `2024.05.17`, `2024.??.??`).
    #[error("not a date: `{0}` (write 2024, 2024.05, 2024.05.17 or 2024.??.??)")]
    NotADate(String),
    /// A value that is not an ECO code or a prefix of one (`B`, `B2`, `B20`).
    #[error("not an ECO code: `{0}` (write a letter A-E and up to two digits)")]
    NotAnEco(String),
    /// A value that is not a result.
    #[error("not a result: `{0}` (write 1-0, 0-1, 1/2-1/2 or *)")]
    NotAResult(String),
    /// A value that is not a speed class.
    #[error(
        "not a speed: `{0}` (write ultrabullet, bullet, blitz, rapid, classical or correspondence)"
    )]
    NotASpeed(String),
    /// An operator the tag's type has no meaning for (`~` on a number, `<` on a result).
    #[error("{tag} does not take `{op}`")]
    OperatorNotForTag {
        /// The operator.
        op: Op,
        /// The tag.
        tag: String,
    },
}

/// Reads a whole filter.
pub(super) fn parse(text: &str) -> Result<Expr, ParseFilterError> {
    let mut parser = Parser { text, pos: 0 };
    let expr = parser.or(0)?;
    parser.skip_blanks();
    match parser.rest().chars().next() {
        None => Ok(expr),
        Some(')') => Err(parser.error(ParseFilterErrorKind::UnmatchedCloseParen)),
        Some(_) => {
            let word = parser.rest().split_whitespace().next().unwrap_or_default();
            Err(parser.error(ParseFilterErrorKind::Unexpected(word.to_owned())))
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn error(&self, kind: ParseFilterErrorKind) -> ParseFilterError {
        ParseFilterError {
            byte: self.pos,
            kind,
        }
    }

    fn skip_blanks(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// The name at the cursor: letters, digits and `_` (possibly empty).
    fn name(&self) -> &str {
        let rest = self.rest();
        let len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        &rest[..len]
    }

    /// Consumes the keyword `word` (any case) if it stands at the cursor as a whole name.
    fn keyword(&mut self, word: &str) -> bool {
        self.skip_blanks();
        if self.name().eq_ignore_ascii_case(word) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    fn or(&mut self, depth: usize) -> Result<Expr, ParseFilterError> {
        self.joined(depth, "or", Parser::and, Expr::Or)
    }

    fn and(&mut self, depth: usize) -> Result<Expr, ParseFilterError> {
        self.joined(depth, "and", Parser::unary, Expr::And)
    }

    /// One or more `item`s joined by the keyword `word`; several are `wrap`ped.
    fn joined(
        &mut self,
        depth: usize,
        word: &str,
        item: fn(&mut Self, usize) -> Result<Expr, ParseFilterError>,
        wrap: fn(Vec<Expr>) -> Expr,
    ) -> Result<Expr, ParseFilterError> {
        let mut items = vec![item(self, depth)?];
        while self.keyword(word) {
            items.push(item(self, depth)?);
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            wrap(items)
        })
    }

    fn unary(&mut self, depth: usize) -> Result<Expr, ParseFilterError> {
        self.skip_blanks();
        if depth >= MAX_DEPTH {
            return Err(self.error(ParseFilterErrorKind::TooDeep));
        }
        if self.rest().starts_with('(') {
            self.pos += 1;
            let inner = self.or(depth + 1)?;
            self.skip_blanks();
            if !self.rest().starts_with(')') {
                return Err(self.error(ParseFilterErrorKind::ExpectedCloseParen));
            }
            self.pos += 1;
            return Ok(inner);
        }
        if self.keyword("not") {
            return Ok(Expr::Not(Box::new(self.unary(depth + 1)?)));
        }
        self.condition().map(Expr::Condition)
    }

    fn condition(&mut self) -> Result<Condition, ParseFilterError> {
        let tag_at = self.pos;
        let tag = self.name();
        if tag.is_empty() {
            return Err(self.error(ParseFilterErrorKind::ExpectedTag));
        }
        let tag = tag.to_owned();
        self.pos += tag.len();
        self.skip_blanks();
        let op = self.operator()?;
        self.skip_blanks();
        let value_at = self.pos;
        let value = self.value()?;
        let test = test(&tag, op, value).map_err(|kind| ParseFilterError {
            byte: if matches!(kind, ParseFilterErrorKind::OperatorNotForTag { .. }) {
                tag_at
            } else {
                value_at
            },
            kind,
        })?;
        Ok(Condition { test, op })
    }

    fn operator(&mut self) -> Result<Op, ParseFilterError> {
        // `==` as programmers write it (read as `=` and a value `= x`, it matched nothing).
        const OPS: [(&str, Op); 8] = [
            ("==", Op::Eq),
            ("!=", Op::Ne),
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("=", Op::Eq),
            ("<", Op::Lt),
            (">", Op::Gt),
            ("~", Op::Contains),
        ];
        let (written, op) = OPS
            .into_iter()
            .find(|(written, _)| self.rest().starts_with(written))
            .ok_or_else(|| self.error(ParseFilterErrorKind::ExpectedOperator))?;
        self.pos += written.len();
        Ok(op)
    }

    /// A quoted value, or a bare one: words up to `)`, a word `and` or `or`, or the end.
    fn value(&mut self) -> Result<String, ParseFilterError> {
        if let Some(quoted) = self.rest().strip_prefix('"') {
            let mut value = String::new();
            let mut chars = quoted.char_indices();
            while let Some((i, c)) = chars.next() {
                match c {
                    '"' => {
                        self.pos += 1 + i + 1;
                        return Ok(value);
                    }
                    '\\' => match chars.next() {
                        Some((_, escaped)) => value.push(escaped),
                        None => break,
                    },
                    c => value.push(c),
                }
            }
            return Err(self.error(ParseFilterErrorKind::UnterminatedQuote));
        }
        let start = self.pos;
        let mut end = start;
        loop {
            let rest = &self.text[end..];
            let blanks = rest.len() - rest.trim_start().len();
            let word_at = end + blanks;
            let word = self.text[word_at..]
                .split(|c: char| c.is_whitespace() || c == ')')
                .next()
                .unwrap_or_default();
            let keyword = word.eq_ignore_ascii_case("and") || word.eq_ignore_ascii_case("or");
            if word.is_empty() || (keyword && end > start) {
                break;
            }
            end = word_at + word.len();
        }
        if end == start {
            return Err(self.error(ParseFilterErrorKind::ExpectedValue));
        }
        self.pos = end;
        Ok(self.text[start..end].to_owned())
    }
}

/// The test a tag calls for, with `value` read as its type.
fn test(tag: &str, op: Op, value: String) -> Result<Test, ParseFilterErrorKind> {
    let refuse = || ParseFilterErrorKind::OperatorNotForTag {
        op,
        tag: tag.to_owned(),
    };
    let integer = |value: &str| {
        value
            .trim()
            .parse::<i64>()
            .map_err(|_| ParseFilterErrorKind::NotAnInteger {
                tag: tag.to_owned(),
                value: value.to_owned(),
            })
    };
    let test = match tag {
        "WhiteElo" | "BlackElo" | "WhiteRatingDiff" | "BlackRatingDiff" | "PlyCount"
        | "WhiteFideId" | "BlackFideId" => Test::Integer {
            tag: tag.to_owned(),
            value: integer(&value)?,
        },
        "Elo" | "BothElo" | "AvgElo" => Test::Elo {
            players: match tag {
                "Elo" => Players::Either,
                "BothElo" => Players::Both,
                _ => Players::Average,
            },
            value: integer(&value)?,
        },
        "Player" => Test::Player { value },
        "Date" | "UTCDate" | "EventDate" => {
            let (first, last) = date_range(&value).ok_or(ParseFilterErrorKind::NotADate(value))?;
            Test::Date {
                tag: tag.to_owned(),
                first,
                last,
            }
        }
        "ECO" => {
            let (first, last) = eco_range(&value).ok_or(ParseFilterErrorKind::NotAnEco(value))?;
            Test::Eco { first, last }
        }
        "Result" => {
            if !matches!(op, Op::Eq | Op::Ne) {
                return Err(refuse());
            }
            let result = ["1-0", "0-1", "1/2-1/2", "*"]
                .into_iter()
                .find(|r| *r == value.trim())
                .ok_or(ParseFilterErrorKind::NotAResult(value))?;
            Test::Result(result)
        }
        "Base" | "Increment" => Test::Clock {
            part: if tag == "Base" {
                ClockPart::Base
            } else {
                ClockPart::Increment
            },
            value: integer(&value)?,
        },
        "Speed" => {
            let speed = Speed::ALL
                .into_iter()
                .find(|speed| speed.name().eq_ignore_ascii_case(value.trim()))
                .ok_or(ParseFilterErrorKind::NotASpeed(value))?;
            Test::Clock {
                part: ClockPart::Speed,
                value: speed_rank(speed),
            }
        }
        _ => Test::Text {
            tag: tag.to_owned(),
            integer: value.trim().parse().ok(),
            value,
        },
    };
    if op == Op::Contains && !matches!(test, Test::Text { .. } | Test::Player { .. }) {
        return Err(refuse());
    }
    Ok(test)
}
