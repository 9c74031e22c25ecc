//! Tag pairs: `[Name "value"]`, read the general way (blanks, escapes, values longer than the
//! buffer) or by the shortcut for the usual spelling, which reads the same.

use std::io::{self, Read};

use super::bytes::{count_blanks, find_any, find_any_near, is_tag_name_byte};
use super::{GameStep, LOOKAHEAD, Reader, Step, step};
use crate::pgn::error::PgnErrorKind;
use crate::pgn::types::{Location, RawTag};
use crate::pgn::visitor::{Flow, Visitor};

impl<R: Read> Reader<R> {
    /// Reads the tag pairs at the start of a game, up to the first line that is not one (or a
    /// blank line).
    pub(super) fn read_tags<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tags: &mut V::Tags,
    ) -> io::Result<GameStep<V>> {
        let mut first = true;
        loop {
            // Between tag pairs there is usually just a newline, which needs no closer look.
            let blank_line = if !first
                && self.takes_shortcuts()
                && self.buf[self.pos..self.end].starts_with(b"\n[")
            {
                self.newline_at(self.pos);
                self.pos += 1;
                false
            } else {
                self.skip_whitespace_lines()?
            };
            // A blank line before a `[` ends a game that has tags and no movetext.
            if self.peek() != Some(b'[') || (blank_line && !first) {
                return Ok(Step::Continue);
            }
            first = false;
            match self.read_tag(visitor, tags)? {
                Step::Continue => {}
                other => return Ok(other),
            }
        }
    }

    /// Reads the tag pair whose `[` is at `pos`, by [`Reader::read_plain_tag`] if it can.
    fn read_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tags: &mut V::Tags,
    ) -> io::Result<GameStep<V>> {
        let at = self.location();
        self.ensure(LOOKAHEAD)?;
        if self.takes_shortcuts()
            && let Some(flow) = self.read_plain_tag(visitor, tags, at)
        {
            return Ok(step(flow));
        }
        self.read_general_tag(visitor, tags, at)
    }

    /// Reads the tag pair whose `[` is at `pos` (at `at`), however it is written: blanks
    /// around the name, escapes in the value, a value longer than the buffer, and every error.
    fn read_general_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tags: &mut V::Tags,
        at: Location,
    ) -> io::Result<GameStep<V>> {
        let data = &self.buf[self.pos..self.end];
        let name_start = 1 + count_blanks(&data[1..]);
        let name_len = data[name_start..]
            .iter()
            .take_while(|&&b| is_tag_name_byte(b))
            .count();
        if name_len == 0 {
            return Ok(self.error_at(name_start, PgnErrorKind::ExpectedTagName));
        }
        if name_len >= LOOKAHEAD / 2 {
            return Ok(self.error_at(name_start, PgnErrorKind::TagNameTooLong));
        }
        let name_end = name_start + name_len;
        let quote = name_end + count_blanks(&data[name_end..]);
        if data.get(quote) != Some(&b'"') {
            return Ok(self.error_at(quote, PgnErrorKind::ExpectedTagValue));
        }
        let value_start = quote + 1;
        let quote_at = self.location_of(self.pos + quote);
        let unterminated = || Step::error(quote_at, PgnErrorKind::UnterminatedTagValue);
        // Find the closing quote (indices relative to `pos`), keeping the value in the buffer
        // while it fits. `None`: the buffer is full and the value goes on. A value ends on its
        // line: a newline, even escaped, leaves it unterminated. `j` is where the search goes on;
        // it stops at a `\` whose escaped byte is not buffered yet, so that the escape is seen
        // whole once more bytes arrive.
        let mut j = value_start;
        let close = loop {
            let data = &self.buf[self.pos..self.end];
            match find_any(&data[j..], [b'"', b'\\', b'\n']).map(|k| j + k) {
                Some(i) if data[i] == b'"' => break Some(i),
                Some(i) if data[i] == b'\\' => match data.get(i + 1) {
                    Some(b'\n') => return Ok(unterminated()),
                    Some(_) => {
                        j = i + 2;
                        continue;
                    }
                    None => j = i,
                },
                Some(_) => return Ok(unterminated()),
                None => j = data.len(),
            }
            if self.eof {
                return Ok(unterminated());
            }
            if self.is_full() {
                break None;
            }
            let want = self.end - self.pos + 1;
            self.fill(want)?;
        };
        let flow = match close {
            Some(mut close) => {
                if self.lenient
                    && let Some(last) = self.unescaped_value_end(close)?
                {
                    self.unescaped_quotes
                        .push(self.location_of(self.pos + close));
                    close = last;
                }
                let data = &self.buf[self.pos..self.end];
                let flow = visitor.tag(
                    tags,
                    &data[name_start..name_end],
                    RawTag::new(&data[value_start..close]),
                    at,
                );
                self.pos += close + 1;
                flow
            }
            None => {
                // `pos` is 0: the whole buffer is this tag. Whether it ended inside an escape,
                // its `\` the last byte.
                let mut escaped = j < self.end;
                loop {
                    self.refill_after_all()?;
                    let data = &self.buf[self.pos..self.end];
                    if data.is_empty() {
                        return Ok(unterminated());
                    }
                    let mut found = None;
                    for (k, &b) in data.iter().enumerate() {
                        if b == b'\n' {
                            return Ok(unterminated());
                        } else if escaped {
                            escaped = false;
                        } else if b == b'\\' {
                            escaped = true;
                        } else if b == b'"' {
                            found = Some(k);
                            break;
                        }
                    }
                    if let Some(k) = found {
                        self.pos += k + 1;
                        let buffer = self.buf.len();
                        return Ok(Step::error(at, PgnErrorKind::TagTooLong { buffer }));
                    }
                }
            }
        };
        self.ensure(LOOKAHEAD)?;
        let data = &self.buf[self.pos..self.end];
        let i = count_blanks(data);
        if data.get(i) != Some(&b']') {
            return Ok(self.error_at(i, PgnErrorKind::ExpectedTagEnd));
        }
        self.pos += i + 1;
        Ok(step(flow))
    }

    /// Where the value of the tag pair at `pos` ends if its `"` at `close` (relative to `pos`)
    /// is followed by more than blanks and `]` on its line, as when a writer left quotes in it
    /// unescaped: its line's last `"` that only blanks and `]` follow, if there is one and the
    /// line fits the buffer (read on until its end is buffered, as the value was).
    fn unescaped_value_end(&mut self, close: usize) -> io::Result<Option<usize>> {
        let line_end = loop {
            let data = &self.buf[self.pos..self.end];
            if let Some(i) = data[close..].iter().position(|&b| b == b'\n') {
                break close + i;
            }
            if self.eof {
                break data.len();
            }
            if self.is_full() {
                return Ok(None);
            }
            let want = self.end - self.pos + 1;
            self.fill(want)?;
        };
        let line = &self.buf[self.pos..self.pos + line_end];
        let after = close + 1 + count_blanks(&line[close + 1..]);
        if line.get(after) == Some(&b']') {
            return Ok(None);
        }
        let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
        let Some(bracket) = line.iter().rposition(|b| !blank(b)) else {
            return Ok(None);
        };
        if line[bracket] != b']' {
            return Ok(None);
        }
        let quote = line[..bracket].iter().rposition(|b| !blank(b));
        Ok(quote.filter(|&q| q > close && line[q] == b'"'))
    }

    /// Reads the tag pair at `pos` if it is written the usual way, `[Name "value"]`: one blank
    /// before the value, no escape in it, and all of it buffered. `None` (and nothing read)
    /// otherwise: [`Reader::read_tag`] then reads it the general way. What this reads, that reads
    /// the same.
    #[inline]
    fn read_plain_tag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        tags: &mut V::Tags,
        at: Location,
    ) -> Option<Flow<V>> {
        let data = &self.buf[self.pos..self.end];
        let name_len = data[1..]
            .iter()
            .take_while(|&&b| is_tag_name_byte(b))
            .count();
        if name_len == 0
            || name_len >= LOOKAHEAD / 2
            || data.get(name_len + 1..name_len + 3) != Some(b" \"")
        {
            return None;
        }
        let value_start = name_len + 3;
        let len = find_any_near(&data[value_start..], [b'"', b'\\', b'\n'])?;
        let close = value_start + len;
        if data[close] != b'"' || data.get(close + 1) != Some(&b']') {
            return None;
        }
        // The search stopped at no `\\` nor line end, and a carriage return is settled into
        // a line feed unless one follows it.
        let flow = visitor.tag(
            tags,
            &data[1..=name_len],
            RawTag::plain(&data[value_start..close]),
            at,
        );
        self.pos += close + 2;
        Some(flow)
    }
}

/// Whether `line` starts like a tag pair: `[`, a name, blanks, `"`.
pub(in crate::pgn) fn looks_like_tag_line(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"[") else {
        return false;
    };
    let name = rest.iter().take_while(|&&b| is_tag_name_byte(b)).count();
    if name == 0 || !rest[0].is_ascii_alphabetic() {
        return false;
    }
    let rest = &rest[name..];
    rest.get(count_blanks(rest)) == Some(&b'"')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// python-chess writes a tag value's quotes unescaped: a lenient reader reads the value to
    /// the line's last `"` before its `]`, and says so; a strict one refuses the game.
    #[test]
    fn a_lenient_reader_reads_quotes_left_unescaped_in_a_tag() {
        use crate::pgn::{GameTreeBuilder, Reader, Tolerated};
        let pgn = "[Event \"The \"Open\" 2024\"]\n[Site \"back\\\\slash\"] \n\n1. e4 *\n";
        let strict = Reader::new(pgn.as_bytes()).read_game(&mut GameTreeBuilder);
        let error = strict.expect("a game").expect_err("strictly broken");
        assert_eq!(error.kind, PgnErrorKind::ExpectedTagEnd);
        let lenient = Reader::new(pgn.as_bytes())
            .lenient(true)
            .read_game(&mut GameTreeBuilder)
            .expect("a game")
            .expect("read leniently");
        assert_eq!(lenient.tags.get("Event"), Some("The \"Open\" 2024"));
        assert_eq!(lenient.tags.get("Site"), Some("back\\slash"));
        assert_eq!(
            lenient.tolerated,
            [(
                Location {
                    line: 1,
                    column: 13
                },
                Tolerated::UnescapedQuote
            )]
        );
        assert_eq!(lenient.mainline().count(), 1);
        // Anything but blanks between the last `"` and the `]` is still an error.
        for bad in ["[Event \"a\" b\"c]\n\n*\n", "[Event \"a\" b\" c\n\n*\n"] {
            let read = Reader::new(bad.as_bytes())
                .lenient(true)
                .read_game(&mut GameTreeBuilder);
            assert!(read.expect("a game").is_err(), "{bad}");
        }
    }

    #[test]
    fn tag_lines_are_recognised() {
        assert!(looks_like_tag_line(b"[Event \"x\"]"));
        assert!(looks_like_tag_line(b"[Event\"x\"]"));
        assert!(!looks_like_tag_line(b"[%clk 0:01:00]"));
        assert!(!looks_like_tag_line(b"[see the game]"));
        assert!(!looks_like_tag_line(b" [Event \"x\"]"));
    }
}
