//! Reading one line of at most a given length, so that a peer sending no newline cannot make
//! us hold unbounded memory.

use std::io::{self, BufRead};

/// The longest line read; the rest of a longer line is skipped. UCI lines are short; a long
/// `info pv` or `option ... var ...` line stays far below this.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineRead {
    /// A line, in the buffer (without its line end; invalid UTF-8 replaced).
    Line,
    /// A line longer than [`MAX_LINE_BYTES`]: its start is in the buffer, the rest was skipped.
    TooLong,
    /// The end of the input.
    Eof,
}

/// Reads one line into `line` (cleared first), without `\n` or `\r\n`.
pub(crate) fn read_line(input: &mut impl BufRead, line: &mut String) -> io::Result<LineRead> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE_BYTES.saturating_sub(bytes.len());
        too_long |= chunk.len() > room;
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    line.clear();
    line.push_str(&String::from_utf8_lossy(&bytes));
    Ok(match (any, too_long) {
        (false, _) => LineRead::Eof,
        (true, true) => LineRead::TooLong,
        (true, false) => LineRead::Line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_long_lines_and_the_end() {
        let mut text = b"uci\r\nisready\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        text.extend(b"\nlast");
        let mut input = io::BufReader::with_capacity(7, &text[..]);
        let mut line = String::new();
        let mut next = || {
            let read = read_line(&mut input, &mut line).unwrap();
            (read, line.len().min(10), line.chars().next())
        };
        assert_eq!(next(), (LineRead::Line, 3, Some('u')));
        assert_eq!(next(), (LineRead::Line, 7, Some('i')));
        assert_eq!(next(), (LineRead::TooLong, 10, Some('x')));
        assert_eq!(next(), (LineRead::Line, 4, Some('l')));
        assert_eq!(next(), (LineRead::Eof, 0, None));
    }
}
