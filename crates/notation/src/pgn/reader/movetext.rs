//! Movetext: moves, move numbers, glyphs, variations and the result, read the general way
//! token by token, or by the shortcut for the tokens that fill most lines, which reads the same.

use core::ops::ControlFlow;
use std::io::{self, Read};

use super::bytes::{find_any_near, is_token_byte, token_len};
use super::comments::clock_comment_len;
use super::{GameStep, LOOKAHEAD, Reader, Step};
use crate::pgn::error::{Excerpt, PgnError, PgnErrorKind};
use crate::pgn::types::{Location, Nag, RawComment, TerminationMarker, VariationChoice};
use crate::pgn::visitor::{Flow, Visitor};
use crate::san::SanPlus;

impl<R: Read> Reader<R> {
    pub(super) fn read_movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> io::Result<GameStep<V>> {
        // Variation depth; whether the current line has a move; whether the result was read;
        // where the outermost open variation began.
        let mut depth: u64 = 0;
        let mut has_move = false;
        let mut ended = false;
        let mut open_at = Location::default();
        if self.at_line_start() && self.movetext_ends_at_line()? {
            return Ok(Step::Continue);
        }
        macro_rules! flow {
            ($flow:expr) => {
                if let ControlFlow::Break(output) = $flow {
                    return Ok(Step::Break(output));
                }
            };
        }
        macro_rules! fail {
            ($at:expr, $kind:expr) => {
                return Ok(Step::Error(PgnError {
                    location: $at,
                    kind: $kind,
                }))
            };
        }
        loop {
            if !ended {
                match self.read_plain_movetext(visitor, movetext) {
                    ControlFlow::Continue(moved) => has_move |= moved,
                    ControlFlow::Break(output) => return Ok(Step::Break(output)),
                }
            }
            if self.end - self.pos < LOOKAHEAD {
                self.ensure(LOOKAHEAD)?;
            }
            let Some(b) = self.peek() else { break };
            match b {
                b' ' | b'\t' | b'\r' => self.pos += 1,
                b'\n' => {
                    self.newline_at(self.pos);
                    self.pos += 1;
                    if self.movetext_ends_at_line()? {
                        break;
                    }
                }
                b'{' => match self.read_brace_comment(visitor, movetext)? {
                    Step::Continue => {}
                    other => return Ok(other),
                },
                b';' => match self.read_line_comment(visitor, movetext)? {
                    Step::Continue => {}
                    other => return Ok(other),
                },
                b'0'..=b'9' => {
                    let data = &self.buf[self.pos..self.end];
                    let digits = data.iter().take_while(|b| b.is_ascii_digit()).count();
                    // (A number as long as the lookahead is a too long token below.)
                    if digits < LOOKAHEAD && !data.get(digits).copied().is_some_and(is_token_byte) {
                        // A move number, with its dots.
                        let dots = data[digits..].iter().take_while(|&&b| b == b'.').count();
                        // And the space that usually follows, saving a turn of the loop.
                        let space = usize::from(data.get(digits + dots) == Some(&b' '));
                        self.pos += digits + dots + space;
                        continue;
                    }
                    let len = token_len(data);
                    let token = &data[..len];
                    let at = self.location();
                    if len >= LOOKAHEAD {
                        fail!(at, PgnErrorKind::InvalidToken(Excerpt::new(token)));
                    }
                    if let Some(marker) = TerminationMarker::from_ascii(token) {
                        if depth > 0 {
                            fail!(at, PgnErrorKind::ResultInVariation);
                        }
                        if ended {
                            fail!(at, PgnErrorKind::AfterResult(Excerpt::new(token)));
                        }
                        ended = true;
                        self.pos += len;
                        flow!(visitor.termination_marker(movetext, marker, at));
                    } else if token.starts_with(b"0-0") {
                        match SanPlus::from_ascii(token) {
                            Ok(san) => {
                                if ended {
                                    fail!(at, PgnErrorKind::AfterResult(Excerpt::new(token)));
                                }
                                has_move = true;
                                self.pos += len;
                                flow!(visitor.san(movetext, san, at));
                            }
                            Err(_) => fail!(at, PgnErrorKind::InvalidSan(Excerpt::new(token))),
                        }
                    } else {
                        fail!(at, PgnErrorKind::InvalidToken(Excerpt::new(token)));
                    }
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'-' => {
                    let data = &self.buf[self.pos..self.end];
                    let len = token_len(data);
                    let token = &data[..len];
                    let at = self.location();
                    if len >= LOOKAHEAD {
                        fail!(at, PgnErrorKind::InvalidToken(Excerpt::new(token)));
                    }
                    match SanPlus::from_ascii(token) {
                        Ok(san) => {
                            if ended {
                                fail!(at, PgnErrorKind::AfterResult(Excerpt::new(token)));
                            }
                            has_move = true;
                            let space = usize::from(data.get(len) == Some(&b' '));
                            self.pos += len + space;
                            flow!(visitor.san(movetext, san, at));
                        }
                        Err(_) => fail!(at, PgnErrorKind::InvalidSan(Excerpt::new(token))),
                    }
                }
                b'$' | b'!' | b'?' => {
                    let data = &self.buf[self.pos..self.end];
                    let at = self.location();
                    let (nag, len) = if b == b'$' {
                        let digits = data[1..].iter().take_while(|b| b.is_ascii_digit()).count();
                        let number = &data[1..1 + digits];
                        let nag = if digits == 0 || digits > 3 {
                            None
                        } else {
                            number
                                .iter()
                                .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'))
                                .try_into()
                                .ok()
                                .map(Nag)
                        };
                        (nag, 1 + digits)
                    } else {
                        let len = data.iter().take_while(|&&b| b == b'!' || b == b'?').count();
                        (Nag::from_suffix(&data[..len]), len)
                    };
                    let Some(nag) = nag else {
                        let extra = data[len..]
                            .iter()
                            .take_while(|&&b| is_token_byte(b))
                            .count();
                        fail!(
                            at,
                            PgnErrorKind::InvalidNag(Excerpt::new(&data[..len + extra]))
                        );
                    };
                    if ended {
                        fail!(at, PgnErrorKind::AfterResult(Excerpt::new(&data[..len])));
                    }
                    if !has_move {
                        fail!(at, PgnErrorKind::NagBeforeMove);
                    }
                    self.pos += len;
                    flow!(visitor.nag(movetext, nag));
                }
                b'(' => {
                    let at = self.location();
                    if ended {
                        fail!(at, PgnErrorKind::AfterResult(Excerpt::new(b"(")));
                    }
                    if !has_move {
                        fail!(at, PgnErrorKind::VariationBeforeMove);
                    }
                    self.pos += 1;
                    match visitor.begin_variation(movetext, at) {
                        ControlFlow::Break(output) => return Ok(Step::Break(output)),
                        ControlFlow::Continue(VariationChoice::Enter) => {
                            if depth == 0 {
                                open_at = at;
                            }
                            depth += 1;
                            has_move = false;
                        }
                        ControlFlow::Continue(VariationChoice::Skip) => {
                            if !self.skip_variation()? {
                                return Ok(Step::ErrorAtEnd(PgnError {
                                    location: at,
                                    kind: PgnErrorKind::UnterminatedVariation,
                                }));
                            }
                        }
                    }
                }
                b')' => {
                    let at = self.location();
                    let Some(d) = depth.checked_sub(1) else {
                        fail!(at, PgnErrorKind::UnmatchedParenthesis);
                    };
                    depth = d;
                    has_move = true;
                    self.pos += 1;
                    flow!(visitor.end_variation(movetext));
                }
                b'*' => {
                    let at = self.location();
                    if depth > 0 {
                        fail!(at, PgnErrorKind::ResultInVariation);
                    }
                    if ended {
                        fail!(at, PgnErrorKind::AfterResult(Excerpt::new(b"*")));
                    }
                    ended = true;
                    self.pos += 1;
                    flow!(visitor.termination_marker(movetext, TerminationMarker::Unknown, at));
                }
                b'.' => self.pos += 1,
                _ => fail!(self.location(), unexpected(&self.buf[self.pos..self.end])),
            }
        }
        if depth > 0 {
            // `pos` is where the movetext ends, maybe after blanks on a blank line: skipping from
            // there would not see that line as blank.
            return Ok(Step::ErrorAtEnd(PgnError {
                location: open_at,
                kind: PgnErrorKind::UnterminatedVariation,
            }));
        }
        Ok(Step::Continue)
    }

    /// Reads the tokens that make up most of a movetext line, as long as they lie well inside
    /// the buffered bytes: blanks, move numbers, SAN and one-line `{` comments, in any order.
    /// Stops, with `pos` on it, at the first byte that needs more care (a newline, a result, a
    /// NAG, a parenthesis, anything malformed), which [`Reader::read_movetext`] then reads the
    /// general way, errors included. Only for a movetext whose result has not been read: a move
    /// is then allowed anywhere. Continues with whether a move was read.
    ///
    /// It reads exactly what the general loop would, only faster: the position stays in a
    /// register, and the blank after a token goes with it.
    #[inline(always)]
    fn read_plain_movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> Flow<V, bool> {
        let data = &self.buf[..self.end];
        // A token that starts before `limit` is buffered whole (or is too long, which the general
        // loop reports).
        let limit = if self.eof {
            self.end
        } else {
            self.end.saturating_sub(LOOKAHEAD)
        };
        let mut pos = self.pos;
        let mut moved = false;
        // The blank after a token, which is nearly always there, is stepped over by a branch
        // that leaves the loop when it is not: a predicted branch lets the next token be read
        // before this byte is loaded, where adding its test's outcome would wait for it. (The
        // general loop reads whatever else follows, such as the end of a line.)
        macro_rules! space_or_break {
            () => {
                if data.get(pos) != Some(&b' ') {
                    break;
                }
                pos += 1;
            };
        }
        while pos < limit {
            let b = data[pos];
            if b == b' ' {
                pos += 1;
            } else if b.is_ascii_digit() {
                let Some(len) = move_number_len(&data[pos..]) else {
                    break; // A result, `0-0`, a bad token, or a rarer number.
                };
                pos += len;
                space_or_break!();
            } else if b.is_ascii_alphabetic() {
                let len = token_len(&data[pos..]);
                let Ok(san) = SanPlus::from_ascii(&data[pos..pos + len]) else {
                    break;
                };
                let at = self.location_of(pos);
                pos += len;
                moved = true;
                if let ControlFlow::Break(output) = visitor.san(movetext, san, at) {
                    self.pos = pos;
                    return ControlFlow::Break(output);
                }
                space_or_break!();
            } else if b == b'{' {
                let rest = &data[pos + 1..];
                let i = match clock_comment_len(rest) {
                    Some(i) => i,
                    None => match find_any_near(rest, [b'}', b'\n']) {
                        Some(i) if rest[i] == b'}' => i,
                        _ => break,
                    },
                };
                let at = self.location_of(pos);
                pos += i + 2;
                if let ControlFlow::Break(output) =
                    visitor.comment(movetext, RawComment::braced(&rest[..i]), at)
                {
                    self.pos = pos;
                    return ControlFlow::Break(output);
                }
                space_or_break!();
            } else {
                break;
            }
        }
        self.pos = pos;
        ControlFlow::Continue(moved)
    }
}

/// The error for the unexpected character at the start of `bytes` (which is not empty): the
/// character, or its first byte if it is not UTF-8.
fn unexpected(bytes: &[u8]) -> PgnErrorKind {
    let width = match bytes[0] {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    };
    let character = bytes
        .get(..width)
        .and_then(|bytes| core::str::from_utf8(bytes).ok())
        .and_then(|text| text.chars().next());
    match character {
        Some(c) => PgnErrorKind::UnexpectedCharacter(c),
        None => PgnErrorKind::UnexpectedByte(bytes[0]),
    }
}

/// The length of the move number at the start of `text` when it has the usual shape: one to
/// three digits, then `.` or `...` (and no more dots). `None` for anything else, which the
/// general loop reads: results, `0-0`, numbers without dots or with other dots.
#[inline(always)]
fn move_number_len(text: &[u8]) -> Option<usize> {
    let at = |i: usize| text.get(i).copied().unwrap_or(0);
    let digits = if !at(1).is_ascii_digit() {
        1
    } else if !at(2).is_ascii_digit() {
        2
    } else if !at(3).is_ascii_digit() {
        3
    } else {
        return None;
    };
    if at(digits) != b'.' {
        return None;
    }
    let dots = if at(digits + 1) != b'.' {
        1
    } else if at(digits + 2) == b'.' && at(digits + 3) != b'.' {
        3
    } else {
        return None;
    };
    Some(digits + dots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_of_the_usual_shape() {
        for (text, len) in [
            (&b"1. e4"[..], Some(2)),
            (b"12... Nf6", Some(5)),
            (b"123.e4", Some(4)),
            (b"7.", Some(2)),
            (b"7...", Some(4)),
            // Left to the general loop.
            (b"1234. e4", None),
            (b"12 e4", None),
            (b"12.. e4", None),
            (b"12.... e4", None),
            (b"1-0", None),
            (b"1/2-1/2", None),
            (b"0-0", None),
        ] {
            assert_eq!(
                move_number_len(text),
                len,
                "{}",
                String::from_utf8_lossy(text)
            );
        }
    }
}
