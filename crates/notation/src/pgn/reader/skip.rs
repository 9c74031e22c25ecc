//! Skipping: the whitespace and `%` lines between tokens and games, and whole games, movetext
//! and variations passed over without being read (after an error, or when the visitor asks).

use std::io::{self, Read};

use super::bytes::find_any;
use super::{LOOKAHEAD, Reader};

impl<R: Read> Reader<R> {
    /// Skips whitespace, `%` lines and a byte order mark. Returns whether a game follows.
    pub(super) fn skip_before_game(&mut self) -> io::Result<bool> {
        self.ensure(LOOKAHEAD)?;
        if self.base == 0 && self.pos == 0 && self.buf[..self.end].starts_with(b"\xef\xbb\xbf") {
            self.pos = 3;
            self.line_start = 3;
        }
        self.skip_whitespace_lines()?;
        Ok(self.peek().is_some())
    }

    /// Skips whitespace including newlines, and `%` escape lines. Returns whether a blank line
    /// (a whole line of nothing but blanks) was among them.
    pub(super) fn skip_whitespace_lines(&mut self) -> io::Result<bool> {
        let mut line_so_far_blank = self.at_line_start();
        let mut blank_line = false;
        loop {
            self.ensure(LOOKAHEAD)?;
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'\n') => {
                    blank_line |= line_so_far_blank;
                    line_so_far_blank = true;
                    self.newline_at(self.pos);
                    self.pos += 1;
                }
                Some(b'%') if self.at_line_start() => {
                    line_so_far_blank = false;
                    self.skip_to_line_end()?;
                }
                _ => return Ok(blank_line),
            }
        }
    }

    /// Moves `pos` to the next `\n` (or the end of the input), counting nothing: the newline is
    /// left for the caller.
    pub(super) fn skip_to_line_end(&mut self) -> io::Result<()> {
        loop {
            if let Some(i) = self.buf[self.pos..self.end]
                .iter()
                .position(|&b| b == b'\n')
            {
                self.pos += i;
                return Ok(());
            }
            if self.eof {
                self.pos = self.end;
                return Ok(());
            }
            self.refill_after_all()?;
        }
    }

    /// Called at the start of a line inside movetext: skips its leading blanks, and whole `%`
    /// lines. Returns whether the movetext ends here: at a blank line, a line whose first
    /// non-blank byte is `[`, or the end of the input.
    pub(super) fn movetext_ends_at_line(&mut self) -> io::Result<bool> {
        loop {
            self.ensure(LOOKAHEAD)?;
            match self.peek() {
                None | Some(b'[' | b'\n') => return Ok(true),
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'%') if self.at_line_start() => {
                    self.skip_to_line_end()?;
                    if self.peek().is_none() {
                        return Ok(true);
                    }
                    self.newline_at(self.pos);
                    self.pos += 1;
                }
                Some(_) => return Ok(false),
            }
        }
    }

    /// Skips a whole game from its first byte: its tags and movetext, or, for a game without
    /// tags, its movetext alone, which may end on its first line (so that the games after it
    /// start where they would if it were read).
    pub(super) fn skip_game_from_start(&mut self) -> io::Result<()> {
        if self.peek() == Some(b'[') {
            self.skip_game()
        } else {
            self.skip_movetext()
        }
    }

    /// Skips the rest of a game from its start or from anywhere in its tags. The rest of the
    /// current line goes first: a game never starts in the middle of a line.
    pub(super) fn skip_game(&mut self) -> io::Result<()> {
        self.skip_to_line_end()?;
        loop {
            let blank_line = self.skip_whitespace_lines()?;
            if self.peek() != Some(b'[') {
                return self.skip_movetext();
            }
            if blank_line {
                return Ok(());
            }
            self.skip_to_line_end()?;
        }
    }

    /// Skips to the end of the movetext (see [`Reader::movetext_ends_at_line`]), looking only at
    /// comments, `%` lines and line starts.
    pub(super) fn skip_movetext(&mut self) -> io::Result<()> {
        if self.at_line_start() && self.movetext_ends_at_line()? {
            return Ok(());
        }
        while self.skip_to_parenthesis()?.is_some() {
            self.pos += 1;
        }
        Ok(())
    }

    /// Skips a variation whose `(` is just behind `pos`, to just after its `)`. Returns `false`
    /// if the movetext ends first.
    pub(super) fn skip_variation(&mut self) -> io::Result<bool> {
        let mut depth: u64 = 0;
        while let Some(b) = self.skip_to_parenthesis()? {
            self.pos += 1;
            if b == b'(' {
                depth += 1;
            } else if let Some(d) = depth.checked_sub(1) {
                depth = d;
            } else {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Skips movetext up to the next parenthesis outside comments, and leaves `pos` on it.
    /// Returns it, or `None` if the movetext ends first (see
    /// [`Reader::movetext_ends_at_line`]).
    fn skip_to_parenthesis(&mut self) -> io::Result<Option<u8>> {
        loop {
            let hay = &self.buf[self.pos..self.end];
            match find_any(hay, [b'\n', b'{', b';', b'(', b')']) {
                None => {
                    if self.eof {
                        self.pos = self.end;
                        return Ok(None);
                    }
                    self.refill_after_all()?;
                }
                Some(i) => {
                    self.pos += i;
                    match hay[i] {
                        b'\n' => {
                            self.newline_at(self.pos);
                            self.pos += 1;
                            if self.movetext_ends_at_line()? {
                                return Ok(None);
                            }
                        }
                        b'{' => {
                            if !self.skip_brace_comment()? {
                                return Ok(None);
                            }
                        }
                        b';' => self.skip_to_line_end()?,
                        parenthesis => return Ok(Some(parenthesis)),
                    }
                }
            }
        }
    }
}
