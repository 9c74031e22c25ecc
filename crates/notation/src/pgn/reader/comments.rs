//! Comments: `{ }` comments (spanning lines, or longer than the buffer) and `;` comments, and
//! where an unterminated one ends: at a line that starts the next game's tags.

use std::io::{self, Read};

use super::bytes::{find_any, find_any_near, is_clock_text};
use super::tags::looks_like_tag_line;
use super::{GameStep, Reader, Step, TAG_PROBE, step};
use crate::pgn::error::PgnErrorKind;
use crate::pgn::types::RawComment;
use crate::pgn::visitor::Visitor;

/// Where a search for a comment's end starts, relative to `pos`.
#[derive(Clone, Copy)]
enum SearchFrom {
    /// Inside a line of the comment (`Within(1)`: just after its `{`).
    Within(usize),
    /// At the start of a line of the comment, which is first checked for the next game's tags.
    LineStart(usize),
}

/// What becomes of a comment's bytes while its end is searched for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Text {
    /// They stay in the buffer from `pos` on, until it is full: the visitor gets them.
    Keep,
    /// They are dropped as the search goes.
    Drop,
}

/// How the search for a comment's end ended. Indices are relative to `pos`.
enum CommentEnd {
    /// At the `}` at this index.
    Closed(usize),
    /// The buffer is full from `pos` on and holds no `}` (only with [`Text::Keep`]); the search
    /// goes on from there.
    Full(SearchFrom),
    /// At the end of the input, or at a line that starts the next game's tags (`pos` is there).
    Unterminated,
}

impl<R: Read> Reader<R> {
    /// Finds the `}` of a comment, searching `from` on and counting its newlines. A line inside
    /// the comment that looks like a tag pair (`[Name "`) is taken as the next game's start: the
    /// comment is then unterminated and `pos` is left at that line. `text` says whether the
    /// comment's bytes stay in the buffer.
    fn find_comment_end(&mut self, from: SearchFrom, text: Text) -> io::Result<CommentEnd> {
        let keep = text == Text::Keep;
        let (mut rel, mut line_start) = match from {
            SearchFrom::Within(rel) => (rel, false),
            SearchFrom::LineStart(rel) => (rel, true),
        };
        if !keep {
            self.pos += rel;
            rel = 0;
        }
        loop {
            if line_start {
                line_start = false;
                if self.end - (self.pos + rel) < TAG_PROBE && !self.eof {
                    self.fill(rel + TAG_PROBE)?;
                    // Still short: the buffer is full of the comment (only when keeping it).
                    if self.end - (self.pos + rel) < TAG_PROBE && !self.eof {
                        return Ok(CommentEnd::Full(SearchFrom::LineStart(rel)));
                    }
                }
                let line = &self.buf[self.pos + rel..self.end];
                if looks_like_tag_line(&line[..line.len().min(TAG_PROBE)]) {
                    self.pos += rel;
                    return Ok(CommentEnd::Unterminated);
                }
            }
            let start = self.pos + rel;
            match find_any(&self.buf[start..self.end], [b'}', b'\n']) {
                Some(k) => {
                    let at = start + k;
                    if self.buf[at] == b'}' {
                        return Ok(CommentEnd::Closed(at - self.pos));
                    }
                    self.newline_at(at);
                    rel = at + 1 - self.pos;
                    if !keep {
                        self.pos += rel;
                        rel = 0;
                    }
                    line_start = true;
                }
                None if self.eof => {
                    self.pos = self.end;
                    return Ok(CommentEnd::Unterminated);
                }
                None if keep => {
                    rel = self.end - self.pos;
                    if self.is_full() {
                        return Ok(CommentEnd::Full(SearchFrom::Within(rel)));
                    }
                    self.fill(rel + 1)?;
                }
                None => {
                    self.refill_after_all()?;
                    rel = 0;
                }
            }
        }
    }

    /// Reads the `{` comment at `pos` and hands it to the visitor.
    #[inline]
    pub(super) fn read_brace_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> io::Result<GameStep<V>> {
        // Most comments are short and end on their line, within what is buffered: then there is
        // no newline to count or tag line to look for. The blank that usually follows goes too.
        let rest = &self.buf[self.pos + 1..self.end];
        if self.takes_shortcuts()
            && let Some(i) = find_any(rest, [b'}', b'\n'])
            && rest[i] == b'}'
        {
            let at = self.location();
            let flow = visitor.comment(movetext, RawComment::braced(&rest[..i]), at);
            self.pos += i + 2 + usize::from(rest.get(i + 1) == Some(&b' '));
            return Ok(step(flow));
        }
        self.read_long_brace_comment(visitor, movetext)
    }

    /// [`Reader::read_brace_comment`] for a comment that spans lines or the buffer's end.
    fn read_long_brace_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> io::Result<GameStep<V>> {
        let at = self.location();
        match self.find_comment_end(SearchFrom::Within(1), Text::Keep)? {
            CommentEnd::Closed(i) => {
                let text = &self.buf[self.pos + 1..self.pos + i];
                let flow = visitor.comment(movetext, RawComment::braced(text), at);
                self.pos += i + 1;
                Ok(step(flow))
            }
            CommentEnd::Unterminated => Ok(Step::error(at, PgnErrorKind::UnterminatedComment)),
            CommentEnd::Full(from) => {
                let kind = match self.find_comment_end(from, Text::Drop)? {
                    CommentEnd::Closed(i) => {
                        self.pos += i + 1;
                        PgnErrorKind::CommentTooLong {
                            buffer: self.buf.len(),
                        }
                    }
                    CommentEnd::Full(_) | CommentEnd::Unterminated => {
                        PgnErrorKind::UnterminatedComment
                    }
                };
                Ok(Step::error(at, kind))
            }
        }
    }

    /// Skips the `{` comment at `pos`. Returns whether it was closed; if not, `pos` is where the
    /// movetext ends (the end of the input, or the next game's tags).
    pub(super) fn skip_brace_comment(&mut self) -> io::Result<bool> {
        // Most comments end on their line, within what is buffered, and soon (a clock's at 16):
        // as `read_brace_comment` reads them.
        let rest = &self.buf[self.pos + 1..self.end];
        if self.takes_shortcuts()
            && let Some(i) = find_any_near(rest, [b'}', b'\n'])
            && rest[i] == b'}'
        {
            self.pos += i + 2;
            return Ok(true);
        }
        Ok(
            match self.find_comment_end(SearchFrom::Within(1), Text::Drop)? {
                CommentEnd::Closed(i) => {
                    self.pos += i + 1;
                    true
                }
                CommentEnd::Full(_) | CommentEnd::Unterminated => false,
            },
        )
    }

    /// Reads the `;` comment at `pos` (up to, not including, the newline) and hands it to the
    /// visitor.
    pub(super) fn read_line_comment<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> io::Result<GameStep<V>> {
        let at = self.location();
        let mut rel = 1;
        loop {
            let start = self.pos + rel;
            if let Some(k) = self.buf[start..self.end].iter().position(|&b| b == b'\n') {
                let text = trim_cr(&self.buf[self.pos + 1..start + k]);
                let flow = visitor.comment(movetext, RawComment::line(text), at);
                self.pos = start + k;
                return Ok(step(flow));
            }
            if self.eof {
                let text = trim_cr(&self.buf[self.pos + 1..self.end]);
                let flow = visitor.comment(movetext, RawComment::line(text), at);
                self.pos = self.end;
                return Ok(step(flow));
            }
            if self.is_full() {
                self.skip_to_line_end()?;
                let buffer = self.buf.len();
                return Ok(Step::error(at, PgnErrorKind::CommentTooLong { buffer }));
            }
            rel = self.end - self.pos;
            self.fill(rel + 1)?;
        }
    }
}

fn trim_cr(text: &[u8]) -> &[u8] {
    text.strip_suffix(b"\r").unwrap_or(text)
}

/// Where the comment `rest` (after its `{`) ends when it is a clock comment as lichess writes one
/// after every move, ` [%clk 0:05:00] }` ([`is_clock_text`], then the `}`): the index of its
/// `}`, 16. A digit's byte is never a `}` or a newline, so the index is right, whatever the
/// clock says. `None` for any other comment, and when fewer than 17 bytes are at hand (near
/// the end of the input).
#[inline(always)]
pub(super) fn clock_comment_len(rest: &[u8]) -> Option<usize> {
    let (head, after) = rest.split_first_chunk::<16>()?;
    (is_clock_text(head) && after.first() == Some(&b'}')).then_some(16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_comments_end_where_the_search_says() {
        let found = |rest: &[u8]| (clock_comment_len(rest), find_any_near(rest, [b'}', b'\n']));
        assert_eq!(found(b" [%clk 0:05:00] } 2. Nf3"), (Some(16), Some(16)));
        assert_eq!(found(b" [%clk 9:59:59] }"), (Some(16), Some(16)));
        // Not the shape: a longer clock, a comment that ends early, a newline.
        assert_eq!(found(b" [%clk 10:05:00] } 2. Nf3"), (None, Some(17)));
        assert_eq!(found(b" [%clk 0:05:00.5] } 2. Nf3"), (None, Some(18)));
        assert_eq!(found(b" [%clk 0:0}:00] } 2. Nf3"), (None, Some(10)));
        assert_eq!(found(b" [%clk 0:05\n00] } 2. Nf3"), (None, Some(11)));
        assert_eq!(found(b" [%clk 0:05:00]  } 2. Nf3"), (None, Some(17)));
        assert_eq!(found(b" [%clk 0:05:00] "), (None, None));
        // Wherever it answers, it agrees with the search.
        let mut rest = *b" [%clk 0:05:00] } 2. Nf3";
        for i in 0..rest.len() {
            for byte in 0..=u8::MAX {
                let old = std::mem::replace(&mut rest[i], byte);
                if let Some(end) = clock_comment_len(&rest) {
                    assert_eq!(Some(end), find_any_near(&rest, [b'}', b'\n']));
                }
                rest[i] = old;
            }
        }
    }
}
