//! Line-based text read from a stream with bounded memory: the one reader behind every
//! line-oriented input of the workspace (the arbiter's event logs, perft suites, UCI).
//!
//! [`read_line`] reads one line (ended by `\n` or `\r\n`, or by the end of the input) into a
//! caller's buffer and never holds more than its limit, so a peer or a file that sends no line
//! end cannot make the reader grow. What happens to the rest of a line past the limit is the
//! caller's [`Overlong`] choice: skip it and go on with the next line, or stop at once (for an
//! input such as `/dev/zero` that has no next line).

use std::io::{self, BufRead};

/// What [`read_line`] does with a line longer than its limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlong {
    /// Reads the line to its end, so that the next call reads the next line.
    SkipRest,
    /// Stops at the limit; the input is left inside the line.
    Stop,
}

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line, whole in the buffer, without its line end.
    Line,
    /// A line longer than the limit: its first `limit` bytes are in the buffer.
    TooLong,
    /// The end of the input: nothing was read.
    Eof,
}

/// Reads one line into `buf` (cleared first), without its `\n` or `\r\n`, keeping at most
/// `limit` bytes of it; a longer line is [`LineRead::TooLong`], and `overlong` says whether
/// its rest is read.
///
/// # Errors
///
/// The input's own errors (an interrupted read is retried).
///
/// ```
/// use caissa_notation::lines::{LineRead, Overlong, read_line};
///
/// let mut input = &b"uci\r\nposition startpos moves e2e4 e7e5\nisready"[..];
/// let mut buf = Vec::new();
/// assert_eq!(read_line(&mut input, &mut buf, 64, Overlong::SkipRest)?, LineRead::Line);
/// assert_eq!(buf, b"uci");
/// assert_eq!(read_line(&mut input, &mut buf, 8, Overlong::SkipRest)?, LineRead::TooLong);
/// assert_eq!(buf, b"position");
/// assert_eq!(read_line(&mut input, &mut buf, 64, Overlong::SkipRest)?, LineRead::Line);
/// assert_eq!(buf, b"isready");
/// assert_eq!(read_line(&mut input, &mut buf, 64, Overlong::SkipRest)?, LineRead::Eof);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_line(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: usize,
    overlong: Overlong,
) -> io::Result<LineRead> {
    buf.clear();
    // One byte more than the limit is kept: it may be the `\r` of a `\r\n`.
    let keep = limit.saturating_add(1);
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        read_any = true;
        let (chunk, used, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (&available[..at], at + 1, true),
            None => (available, available.len(), false),
        };
        let room = keep.saturating_sub(buf.len());
        if chunk.len() > room {
            too_long = true;
            buf.extend_from_slice(&chunk[..room]);
            if overlong == Overlong::Stop {
                input.consume(room);
                break;
            }
        } else {
            buf.extend_from_slice(chunk);
        }
        input.consume(used);
        if ends {
            break;
        }
    }
    if !too_long && buf.last() == Some(&b'\r') {
        buf.pop();
    }
    if buf.len() > limit {
        too_long = true;
        buf.truncate(limit);
    }
    Ok(match (read_any, too_long) {
        (false, _) => LineRead::Eof,
        (true, true) => LineRead::TooLong,
        (true, false) => LineRead::Line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// Every line of `text` read through a 7-byte buffer, with limit 5.
    fn lines(text: &[u8], overlong: Overlong) -> Vec<(LineRead, String)> {
        let mut input = io::BufReader::with_capacity(7, text);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let read = read_line(&mut input, &mut buf, 5, overlong).unwrap();
            out.push((read, String::from_utf8_lossy(&buf).into_owned()));
            if read == LineRead::Eof || (read == LineRead::TooLong && overlong == Overlong::Stop) {
                return out;
            }
        }
    }

    #[test]
    fn line_ends_limits_and_the_end() {
        use LineRead::*;
        let text = b"ab\r\n12345\r\n123456\n\nxxxxxxxxxxxxxxxxxxxx\nlast";
        let got = lines(text, Overlong::SkipRest);
        let want = [
            (Line, "ab"),
            (Line, "12345"),
            (TooLong, "12345"),
            (Line, ""),
            (TooLong, "xxxxx"),
            (Line, "last"),
            (Eof, ""),
        ];
        assert_eq!(got.len(), want.len());
        for ((read, line), (want_read, want_line)) in got.iter().zip(want) {
            assert_eq!((*read, line.as_str()), (want_read, want_line));
        }
    }

    #[test]
    fn stop_reads_no_further_than_the_limit() {
        let endless = io::repeat(0).take(1 << 30);
        let mut input = io::BufReader::new(endless);
        let mut buf = Vec::new();
        let read = read_line(&mut input, &mut buf, 5, Overlong::Stop).unwrap();
        assert_eq!((read, buf.len()), (LineRead::TooLong, 5));
        let got = lines(b"123456789\nnext", Overlong::Stop);
        assert_eq!(got, [(LineRead::TooLong, "12345".to_owned())]);
    }
}
