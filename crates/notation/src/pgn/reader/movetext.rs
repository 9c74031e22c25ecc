//! Movetext: moves, move numbers, glyphs, variations and the result, read the general way
//! token by token, or by the shortcut for the tokens that fill most lines, which reads the same.

use core::ops::ControlFlow;
use std::io::{self, Read};

use super::bytes::{find_any_near, is_token_byte, token_len};
use super::comments::clock_comment_len;
use super::{GameStep, LOOKAHEAD, Reader, Step, step};
use crate::pgn::error::{Excerpt, PgnError, PgnErrorKind};
use crate::pgn::types::{Location, Nag, RawComment, TerminationMarker, Tolerated, VariationChoice};
use crate::pgn::visitor::{Flow, Visitor};
use crate::san::SanPlus;

/// What the movetext read so far says about the next token.
#[derive(Default)]
struct MovetextState {
    /// How many variations are open.
    depth: u64,
    /// Whether the current line (the main line or a variation) has a move, for a glyph or a
    /// variation to follow.
    has_move: bool,
    /// Whether the result was read.
    ended: bool,
    /// Where the outermost open variation began.
    open_at: Location,
}

impl<R: Read> Reader<R> {
    /// Reads the movetext, from just after the tags to its end (see
    /// [`Reader::movetext_ends_at_line`]): one token at a time, each read by the method for its
    /// first byte, which says how the game goes on. [`Reader::read_plain_movetext`] takes the
    /// common tokens first wherever it can.
    ///
    /// The token handlers are kept out of line (`#[inline(never)]`), so that this loop and its
    /// shortcut, inlined into the game loop, stay small (callgrind, per round of the lichess
    /// sample: read + replay 17.96 M instructions with the handlers inlined and this loop out of
    /// line, 17.73 M this way; read alone 8.89 M and 8.90 M).
    pub(super) fn read_movetext<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
    ) -> io::Result<GameStep<V>> {
        let mut state = MovetextState::default();
        if self.at_line_start() && self.movetext_ends_at_line()? {
            return Ok(Step::Continue);
        }
        loop {
            if !state.ended && self.takes_shortcuts() {
                match self.read_plain_movetext(visitor, movetext) {
                    ControlFlow::Continue(moved) => state.has_move |= moved,
                    ControlFlow::Break(output) => return Ok(Step::Break(output)),
                }
            }
            if self.end - self.pos < LOOKAHEAD {
                self.ensure(LOOKAHEAD)?;
            }
            let Some(b) = self.peek() else { break };
            if state.ended
                && self.lenient
                && !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'{' | b';')
            {
                // Other readers take the result for the game's end and pass over what follows
                // it on its line.
                let at = self.location();
                self.skip_to_line_end()?;
                if let ControlFlow::Break(output) =
                    visitor.tolerated(movetext, Tolerated::AfterResult, at)
                {
                    return Ok(Step::Break(output));
                }
                continue;
            }
            let next = match b {
                b' ' | b'\t' | b'\r' | b'.' => {
                    self.pos += 1;
                    continue;
                }
                b'\n' => {
                    self.newline_at(self.pos);
                    self.pos += 1;
                    if self.movetext_ends_at_line()? {
                        break;
                    }
                    continue;
                }
                b'{' => self.read_brace_comment(visitor, movetext)?,
                b';' => self.read_line_comment(visitor, movetext)?,
                b'0'..=b'9' => self.read_number(visitor, movetext, &mut state),
                b'a'..=b'z' | b'A'..=b'Z' | b'-' => self.read_word(visitor, movetext, &mut state),
                b'$' | b'!' | b'?' => self.read_nag(visitor, movetext, &state),
                b'(' => self.open_variation(visitor, movetext, &mut state)?,
                b')' => self.close_variation(visitor, movetext, &mut state),
                b'*' => {
                    let at = self.location();
                    self.read_result(
                        visitor,
                        movetext,
                        &mut state,
                        TerminationMarker::Unknown,
                        1,
                        at,
                    )
                }
                _ => Step::error(self.location(), unexpected(&self.buf[self.pos..self.end])),
            };
            if !matches!(next, Step::Continue) {
                return Ok(next);
            }
        }
        if state.depth > 0 {
            // `pos` is where the movetext ends, maybe after blanks on a blank line: skipping from
            // there would not see that line as blank.
            return Ok(unterminated_variation(state.open_at));
        }
        Ok(Step::Continue)
    }

    /// Reads the token at `pos` that starts with a digit: a move number with its dots (and the
    /// blank after them), a result, or castling written with zeros.
    #[inline(never)]
    fn read_number<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
        state: &mut MovetextState,
    ) -> GameStep<V> {
        let data = &self.buf[self.pos..self.end];
        let digits = data.iter().take_while(|b| b.is_ascii_digit()).count();
        // (A number as long as the lookahead is a too long token below.)
        if digits < LOOKAHEAD && !data.get(digits).copied().is_some_and(is_token_byte) {
            let dots = data[digits..].iter().take_while(|&&b| b == b'.').count();
            let space = usize::from(data.get(digits + dots) == Some(&b' '));
            self.pos += digits + dots + space;
            return Step::Continue;
        }
        let len = token_len(data);
        let token = &data[..len];
        let at = self.location();
        if len >= LOOKAHEAD {
            return Step::error(at, PgnErrorKind::InvalidToken(Excerpt::new(token)));
        }
        if let Some(marker) = TerminationMarker::from_ascii(token) {
            self.read_result(visitor, movetext, state, marker, len, at)
        } else if self.lenient && token == b"1/2" {
            match visitor.tolerated(movetext, Tolerated::HalfPointResult, at) {
                ControlFlow::Continue(()) => {
                    self.read_result(visitor, movetext, state, TerminationMarker::Draw, len, at)
                }
                ControlFlow::Break(output) => Step::Break(output),
            }
        } else if token.starts_with(b"0-0") {
            self.read_san(visitor, movetext, state, len, at)
        } else {
            Step::error(at, PgnErrorKind::InvalidToken(Excerpt::new(token)))
        }
    }

    /// Reads the token at `pos` that starts with a letter or `-`: a move.
    #[inline(never)]
    fn read_word<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
        state: &mut MovetextState,
    ) -> GameStep<V> {
        let data = &self.buf[self.pos..self.end];
        let len = token_len(data);
        let at = self.location();
        if len >= LOOKAHEAD {
            return Step::error(at, PgnErrorKind::InvalidToken(Excerpt::new(&data[..len])));
        }
        // `e.p.` after a move: alone (`exd6 e.p.`: the token `e`), or attached (`exd6e.p.`).
        const EN_PASSANT: &[u8] = b"e.p.";
        if self.lenient && len > 0 && data[len - 1..].starts_with(EN_PASSANT) {
            if len > 1 {
                let step = self.read_san(visitor, movetext, state, len - 1, at);
                if !matches!(step, Step::Continue) {
                    return step;
                }
            } else if !state.has_move || state.ended {
                return Step::error(at, PgnErrorKind::InvalidSan(Excerpt::new(EN_PASSANT)));
            }
            let at = self.location();
            let after = self.buf[self.pos..self.end].get(EN_PASSANT.len());
            self.pos += EN_PASSANT.len() + usize::from(after == Some(&b' '));
            return step(visitor.tolerated(movetext, Tolerated::EnPassantSuffix, at));
        }
        self.read_san(visitor, movetext, state, len, at)
    }

    /// Reads the move of `len` bytes at `pos` (at `at`), and the blank after it.
    fn read_san<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
        state: &mut MovetextState,
        len: usize,
        at: Location,
    ) -> GameStep<V> {
        let data = &self.buf[self.pos..self.end];
        let token = &data[..len];
        let Ok(san) = SanPlus::from_ascii(token) else {
            return Step::error(at, PgnErrorKind::InvalidSan(Excerpt::new(token)));
        };
        if state.ended {
            return Step::error(at, PgnErrorKind::AfterResult(Excerpt::new(token)));
        }
        state.has_move = true;
        let space = usize::from(data.get(len) == Some(&b' '));
        self.pos += len + space;
        step(visitor.san(movetext, san, at))
    }

    /// Reads the result `marker`, `len` bytes at `pos` (at `at`).
    #[inline(never)]
    fn read_result<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
        state: &mut MovetextState,
        marker: TerminationMarker,
        len: usize,
        at: Location,
    ) -> GameStep<V> {
        if state.depth > 0 {
            return Step::error(at, PgnErrorKind::ResultInVariation);
        }
        if state.ended {
            let token = &self.buf[self.pos..self.pos + len];
            return Step::error(at, PgnErrorKind::AfterResult(Excerpt::new(token)));
        }
        state.ended = true;
        self.pos += len;
        step(visitor.termination_marker(movetext, marker, at))
    }

    /// Reads the annotation glyph at `pos`: `$` and a number, or `!` and `?` suffixes.
    #[inline(never)]
    fn read_nag<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
        state: &MovetextState,
    ) -> GameStep<V> {
        let data = &self.buf[self.pos..self.end];
        let at = self.location();
        // The number of a `$` glyph (saturated), and the glyph if it is one.
        let (nag, len, number) = if data[0] == b'$' {
            let digits = data[1..].iter().take_while(|b| b.is_ascii_digit()).count();
            let number = data[1..1 + digits].iter().fold(0u32, |n, &d| {
                n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
            });
            let nag = (1..=3)
                .contains(&digits)
                .then(|| u8::try_from(number).ok().map(Nag))
                .flatten();
            (nag, 1 + digits, (digits > 0).then_some(number))
        } else {
            let len = data.iter().take_while(|&&b| b == b'!' || b == b'?').count();
            (Nag::from_suffix(&data[..len]), len, None)
        };
        if self.lenient
            && let Some(number) = number.filter(|&n| n > 255)
            && !data.get(len).copied().is_some_and(is_token_byte)
            && state.has_move
            && !state.ended
        {
            self.pos += len;
            return step(visitor.tolerated(movetext, Tolerated::NagOutOfRange(number), at));
        }
        let Some(nag) = nag else {
            let extra = data[len..]
                .iter()
                .take_while(|&&b| is_token_byte(b))
                .count();
            return Step::error(
                at,
                PgnErrorKind::InvalidNag(Excerpt::new(&data[..len + extra])),
            );
        };
        if state.ended {
            return Step::error(at, PgnErrorKind::AfterResult(Excerpt::new(&data[..len])));
        }
        if !state.has_move {
            return Step::error(at, PgnErrorKind::NagBeforeMove);
        }
        self.pos += len;
        step(visitor.nag(movetext, nag))
    }

    /// Reads the `(` at `pos`: enters the variation, or skips it if the visitor says so.
    #[inline(never)]
    fn open_variation<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
        state: &mut MovetextState,
    ) -> io::Result<GameStep<V>> {
        let at = self.location();
        if state.ended {
            return Ok(Step::error(
                at,
                PgnErrorKind::AfterResult(Excerpt::new(b"(")),
            ));
        }
        if !state.has_move {
            return Ok(Step::error(at, PgnErrorKind::VariationBeforeMove));
        }
        self.pos += 1;
        match visitor.begin_variation(movetext, at) {
            ControlFlow::Break(output) => return Ok(Step::Break(output)),
            ControlFlow::Continue(VariationChoice::Enter) => {
                if state.depth == 0 {
                    state.open_at = at;
                }
                state.depth += 1;
                state.has_move = false;
            }
            ControlFlow::Continue(VariationChoice::Skip) => {
                if !self.skip_variation()? {
                    return Ok(unterminated_variation(at));
                }
            }
        }
        Ok(Step::Continue)
    }

    /// Reads the `)` at `pos`, which closes the innermost open variation.
    #[inline(never)]
    fn close_variation<V: Visitor>(
        &mut self,
        visitor: &mut V,
        movetext: &mut V::Movetext,
        state: &mut MovetextState,
    ) -> GameStep<V> {
        let Some(depth) = state.depth.checked_sub(1) else {
            return Step::error(self.location(), PgnErrorKind::UnmatchedParenthesis);
        };
        state.depth = depth;
        state.has_move = true;
        self.pos += 1;
        step(visitor.end_variation(movetext))
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
        // loop reports), and so is the window after it.
        let limit = if self.eof {
            self.end.saturating_sub(PLAIN_WINDOW)
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
            ($window:ident, $len:expr) => {
                if $window[$len] != b' ' {
                    pos += $len;
                    break;
                }
                pos += $len + 1;
            };
        }
        while pos < limit {
            // Numbers and moves are read within a window of fixed size, which needs no bounds
            // checks.
            let Some(window) = data[pos..].first_chunk::<PLAIN_WINDOW>() else {
                break;
            };
            let b = window[0];
            if b == b' ' {
                pos += 1;
            } else if b.is_ascii_digit() {
                let Some(len) = move_number_len(window) else {
                    break; // A result, `0-0`, a bad token, or a rarer number.
                };
                space_or_break!(window, len);
            } else if b.is_ascii_alphabetic() {
                let Some(len) = token_len_within(window) else {
                    break; // Too long for the window: the general loop reads it.
                };
                let Ok(san) = SanPlus::from_ascii(&window[..len]) else {
                    break;
                };
                moved = true;
                if let ControlFlow::Break(output) =
                    visitor.san(movetext, san, self.location_of(pos))
                {
                    self.pos = pos + len;
                    return ControlFlow::Break(output);
                }
                space_or_break!(window, len);
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
                if data.get(pos) != Some(&b' ') {
                    break;
                }
                pos += 1;
            } else {
                break;
            }
        }
        self.pos = pos;
        ControlFlow::Continue(moved)
    }
}

/// The bytes from a token's start within which [`Reader::read_plain_movetext`] reads a move
/// number or a move and the byte after it: more than any move's text.
const PLAIN_WINDOW: usize = 32;
const _: () = assert!(PLAIN_WINDOW <= LOOKAHEAD);

/// The length of the token at the start of `window`, shorter than the window so that the
/// byte after it is in the window too; `None` for a token that fills the window.
#[inline(always)]
fn token_len_within(window: &[u8; PLAIN_WINDOW]) -> Option<usize> {
    let mut len = 1;
    while len < PLAIN_WINDOW {
        if !is_token_byte(window[len]) {
            return Some(len);
        }
        len += 1;
    }
    None
}

/// The error of the variation opened at `at` when the movetext ends inside it (`pos` is where
/// it ends, so nothing of the game is left to skip).
fn unterminated_variation<O>(at: Location) -> Step<O> {
    Step::ErrorAtEnd(PgnError {
        location: at,
        kind: PgnErrorKind::UnterminatedVariation,
    })
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
fn move_number_len(window: &[u8; PLAIN_WINDOW]) -> Option<usize> {
    let at = |i: usize| window[i];
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
    use crate::pgn::PgnError;

    /// The moves, glyphs and what was tolerated (with where), and the marker.
    struct Lenient;

    type Seen = (Vec<String>, Option<TerminationMarker>);

    impl Visitor for Lenient {
        type Tags = ();
        type Movetext = Seen;
        type Output = Seen;
        type Error = PgnError;

        fn begin_game(&mut self, _: Location) -> Flow<Self, ()> {
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, (): ()) -> Flow<Self, Seen> {
            ControlFlow::Continue(Seen::default())
        }

        fn san(&mut self, read: &mut Seen, san: SanPlus, _: Location) -> Flow<Self> {
            read.0.push(san.to_string());
            ControlFlow::Continue(())
        }

        fn nag(&mut self, read: &mut Seen, nag: Nag) -> Flow<Self> {
            read.0.push(format!("${}", nag.0));
            ControlFlow::Continue(())
        }

        fn tolerated(&mut self, read: &mut Seen, what: Tolerated, at: Location) -> Flow<Self> {
            read.0.push(format!("{}:{} {what}", at.line, at.column));
            ControlFlow::Continue(())
        }

        fn termination_marker(
            &mut self,
            read: &mut Seen,
            marker: TerminationMarker,
            _: Location,
        ) -> Flow<Self> {
            read.1 = Some(marker);
            ControlFlow::Continue(())
        }

        fn end_game(&mut self, read: Seen) -> Result<Seen, PgnError> {
            Ok(read)
        }
    }

    fn lenient(input: &str, on: bool) -> Vec<Result<Seen, String>> {
        let mut results = Vec::new();
        for shortcuts in [true, false] {
            let mut reader = Reader::new(input.as_bytes()).lenient(on);
            reader.shortcuts = shortcuts;
            let games: Vec<_> = reader
                .games(&mut Lenient)
                .map(|g| g.map_err(|e| e.to_string()))
                .collect();
            if let Some(first) = results.first() {
                assert_eq!(first, &games[0], "shortcuts change {input:?}");
            }
            results = games;
        }
        results
    }

    #[test]
    fn lenient_reading_steps_over_what_other_readers_accept() {
        let pgn = "1. e4 d5 2. e5 f5 3. exf6 e.p. Nc6 $256 4. d4 $1 $1000 1/2\n\n\
                   1. e4 d5 2. e5 f5 3. exf6e.p. *\n";
        let strict = lenient(pgn, false);
        assert_eq!(strict[0], Err("1:27: invalid SAN \"e\"".to_owned()));
        assert_eq!(strict[1], Err("3:22: invalid SAN \"exf6e\"".to_owned()));
        let games = lenient(pgn, true);
        let (first, marker) = games[0].clone().unwrap();
        assert_eq!(
            first,
            [
                "e4",
                "d5",
                "e5",
                "f5",
                "exf6",
                "1:27 'e.p.' after a move, stepped over",
                "Nc6",
                "1:36 glyph $256 is above $255, left out",
                "d4",
                "$1",
                "1:50 glyph $1000 is above $255, left out",
                "1:56 result '1/2' read as '1/2-1/2'",
            ]
        );
        assert_eq!(marker, Some(TerminationMarker::Draw));
        let (second, marker) = games[1].clone().unwrap();
        assert_eq!(
            second[4..],
            ["exf6", "3:26 'e.p.' after a move, stepped over"]
        );
        assert_eq!(marker, Some(TerminationMarker::Unknown));
        // Still refused: `e.p.` before any move, a glyph with a letter in it.
        for bad in ["e.p. e4 *", "1. e4 $300x *"] {
            assert!(lenient(bad, true)[0].is_err(), "{bad}");
        }
        // Text after the result, to the end of its line (a second result too), is passed
        // over, a comment there read as ever; the next line of movetext is read the same way.
        let after = "1. e4 e5 1-0 { late } resigns 2. Nf3\n1/2 *\n\n1. d4 *\n";
        assert_eq!(
            lenient(after, false)[0],
            Err("1:23: invalid SAN \"resigns\"".to_owned())
        );
        let games = lenient(after, true);
        let (first, marker) = games[0].clone().unwrap();
        assert_eq!(
            first,
            [
                "e4",
                "e5",
                "1:23 text after the result, passed over",
                "2:1 text after the result, passed over",
            ]
        );
        assert_eq!(marker, Some(TerminationMarker::WhiteWins));
        assert_eq!(games[1].clone().unwrap().0, ["d4"]);
    }

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
            let mut window = [b'x'; PLAIN_WINDOW];
            window[..text.len()].copy_from_slice(text);
            assert_eq!(
                move_number_len(&window),
                len,
                "{}",
                String::from_utf8_lossy(text)
            );
        }
    }
}
