//! Bytes: line ends settled as they are read, the byte tables of tokens and tag names, and
//! scanners that look at eight bytes at a time. Nothing here knows the reader.

/// Settles the line ends of `bytes[from..]`, the bytes just read (after what earlier calls
/// settled): each carriage return followed by anything but a line feed becomes a line feed.
/// Returns the end of the settled bytes: `bytes.len()`, or one less when the last byte is a
/// carriage return whose next byte is not read yet (unless `eof`: then it is a lone one).
pub(super) fn settle_line_ends(bytes: &mut [u8], from: usize, eof: bool) -> usize {
    // Most input has no carriage return, or one per line (CRLF): `memchr` finds them with the
    // widest vectors the CPU has, chosen at run time (callgrind, per round of the lichess
    // sample, which has none: 102 k instructions, against 211 k for a portable SSE2 test of
    // 1 KiB blocks).
    let mut next = from;
    while let Some(k) = memchr::memchr(b'\r', &bytes[next..]) {
        let i = next + k;
        match bytes.get(i + 1) {
            Some(b'\n') => {}
            Some(_) => bytes[i] = b'\n',
            None if eof => bytes[i] = b'\n',
            None => return i,
        }
        next = i + 1;
    }
    bytes.len()
}

/// Whether `b` continues a move, number or result token.
const fn is_token_byte_slow(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'=' | b'+' | b'#' | b'/' | b':' | b'@')
}

/// The table of a predicate on bytes, built at compile time: a lookup is one load, where the
/// predicate is a few comparisons and branches.
macro_rules! byte_table {
    ($predicate:ident) => {{
        let mut table = [false; 256];
        let mut b = 0;
        while b < 256 {
            table[b] = $predicate(b as u8);
            b += 1;
        }
        table
    }};
}

/// [`is_token_byte_slow`] as a table.
static TOKEN_BYTES: [bool; 256] = byte_table!(is_token_byte_slow);

#[inline]
pub(super) fn is_token_byte(b: u8) -> bool {
    TOKEN_BYTES[usize::from(b)]
}

/// The length of the token at the start of `data` (at least 1 if `data` is not empty).
#[inline]
pub(super) fn token_len(data: &[u8]) -> usize {
    data.iter()
        .skip(1)
        .position(|&b| !is_token_byte(b))
        .map_or(data.len(), |n| n + 1)
}

/// Whether `b` is not ASCII, is whitespace other than a space, or is `}`.
const fn is_unplain_byte_slow(b: u8) -> bool {
    !b.is_ascii() || matches!(b, b'\t'..=b'\r' | b'}')
}

/// [`is_unplain_byte_slow`] as a table.
static UNPLAIN_BYTES: [bool; 256] = byte_table!(is_unplain_byte_slow);

/// Whether `text` is ASCII with no whitespace but single spaces and no `}`: a comment's text
/// that is kept and written as it is (once trimmed). No branch a byte, so that the common
/// short comment (`[%clk 0:03:00]`) is looked at in a few instructions a byte.
pub(in crate::pgn) fn is_plain_text(text: &[u8]) -> bool {
    let mut unplain = false;
    let mut after_space = false;
    for &b in text {
        let space = b == b' ';
        unplain |= UNPLAIN_BYTES[usize::from(b)] | (space & after_space);
        after_space = space;
    }
    !unplain
}

/// Whether `padded` is a clock comment's text as lichess writes one after every move,
/// ` [%clk 0:05:00] ` (with less than ten hours left, a space on each side): one masked
/// comparison against that shape, where each digit may be any byte from `0x30` to `0x3F`. Such
/// a text is plain ([`is_plain_text`] once trimmed), and it holds no `}` or newline.
#[inline(always)]
pub(in crate::pgn) fn is_clock_text(padded: &[u8; 16]) -> bool {
    const SHAPE: &[u8; 16] = b" [%clk 0:00:00] ";
    const DIGIT: u8 = 0xF0;
    const MASK: [u8; 16] = {
        let mut mask = [0xFF; 16];
        let mut i = 0;
        while i < 16 {
            if SHAPE[i] == b'0' {
                mask[i] = DIGIT;
            }
            i += 1;
        }
        mask
    };
    u128::from_le_bytes(*padded) & u128::from_le_bytes(MASK) == u128::from_le_bytes(*SHAPE)
}

/// Whether `b` may be part of a tag name.
const fn is_tag_name_byte_slow(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// [`is_tag_name_byte_slow`] as a table.
static TAG_NAME_BYTES: [bool; 256] = byte_table!(is_tag_name_byte_slow);

#[inline]
pub(super) fn is_tag_name_byte(b: u8) -> bool {
    TAG_NAME_BYTES[usize::from(b)]
}

pub(super) fn count_blanks(data: &[u8]) -> usize {
    data.iter()
        .take_while(|&&b| matches!(b, b' ' | b'\t'))
        .count()
}

/// The index of the first byte of `hay` that is one of `needles`. Looks at eight bytes at a
/// time (see [`needle_flags`]).
#[inline]
pub(super) fn find_any<const N: usize>(hay: &[u8], needles: [u8; N]) -> Option<usize> {
    let (words, remainder) = hay.as_chunks::<8>();
    for (i, word) in words.iter().enumerate() {
        let flags = needle_flags(u64::from_le_bytes(*word), needles);
        if flags != 0 {
            return Some(i * 8 + first_flagged(flags));
        }
    }
    let i = words.len() * 8;
    remainder
        .iter()
        .position(|x| needles.contains(x))
        .map(|p| i + p)
}

/// [`find_any`], quicker when the needle is near, as it is in the short comments and tag values
/// that fill most files (a `[%clk]` comment ends at index 16): three words are tested at once,
/// without a loop.
#[inline(always)]
pub(super) fn find_any_near<const N: usize>(hay: &[u8], needles: [u8; N]) -> Option<usize> {
    let (words, _) = hay.as_chunks::<8>();
    let [first, second, third, ..] = *words else {
        return find_any(hay, needles);
    };
    let flags = [first, second, third].map(|word| needle_flags(u64::from_le_bytes(word), needles));
    if flags[0] != 0 {
        Some(first_flagged(flags[0]))
    } else if flags[1] != 0 {
        Some(8 + first_flagged(flags[1]))
    } else if flags[2] != 0 {
        Some(16 + first_flagged(flags[2]))
    } else {
        find_any(&hay[24..], needles).map(|i| 24 + i)
    }
}

/// The bytes of the little-endian `word` that are one of `needles`, each flagged by its high bit
/// or, above the first such byte, perhaps falsely: a byte of a word `x` is zero exactly where
/// `(x - 0x01..01) & !x & 0x80..80` has its lowest set bit, or lower (a borrow only propagates
/// upwards, so the lowest flag is always a true zero); `x` is the word with a needle xored into
/// every byte.
#[inline(always)]
fn needle_flags<const N: usize>(word: u64, needles: [u8; N]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    needles.iter().fold(0, |flags, &needle| {
        let x = word ^ (ONES * u64::from(needle));
        flags | x.wrapping_sub(ONES) & !x
    }) & HIGHS
}

/// The index of the first needle flagged by [`needle_flags`] (which must not be zero).
#[inline(always)]
fn first_flagged(flags: u64) -> usize {
    (flags.trailing_zeros() / 8) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_any_and_find_any_near_find_the_first() {
        // Every position, with bytes around that could fool the word trick (0x7c, 0x7e, 0x09,
        // 0x0b, 0x00, 0xff, 0x80, 0x21, 0x23, 0x5b, 0x5d).
        let noise = [
            b'x',
            0x7c,
            0x7e,
            0x09,
            0x0b,
            0x00,
            0xff,
            0x80,
            0x7d ^ 0x80,
            0x21,
            0x23,
            0x5b,
            0x5d,
        ];
        let needles = [b'}', b'\n', b'"', b'\\'];
        for len in 0..56 {
            for n in 0..noise.len() {
                let fresh =
                    || -> Vec<u8> { (0..len).map(|i| noise[(i + n) % noise.len()]).collect() };
                let mut hay = fresh();
                assert_eq!(find_any(&hay, [b'}', b'\n']), None);
                assert_eq!(find_any_near(&hay, [b'}', b'\n']), None);
                assert_eq!(find_any_near(&hay, [b'"', b'\\', b'\n']), None);
                assert_eq!(find_any(&hay, [b'"', b'\\', b'\n']), None);
                for first in 0..len {
                    for (k, &target) in needles.iter().enumerate() {
                        hay[first] = target;
                        if first + 3 < len {
                            hay[first + 3] = needles[(k + 1) % needles.len()];
                        }
                        let two = [b'}', b'\n'].contains(&target).then_some(first);
                        let three = [b'"', b'\\', b'\n'].contains(&target).then_some(first);
                        if two.is_some() {
                            assert_eq!(find_any(&hay, [b'}', b'\n']), two);
                            assert_eq!(find_any_near(&hay, [b'}', b'\n']), two);
                        }
                        if three.is_some() {
                            assert_eq!(find_any(&hay, [b'"', b'\\', b'\n']), three);
                            assert_eq!(find_any_near(&hay, [b'"', b'\\', b'\n']), three);
                        }
                        hay = fresh();
                    }
                }
            }
        }
    }

    #[test]
    fn byte_tables_match() {
        for b in 0..=255 {
            assert_eq!(is_token_byte(b), is_token_byte_slow(b));
            assert_eq!(is_tag_name_byte(b), is_tag_name_byte_slow(b));
        }
    }

    #[test]
    fn line_ends_settle_as_byte_by_byte() {
        // The plain rule, one byte at a time.
        let plain = |text: &[u8], from: usize, eof: bool| {
            let mut bytes = text.to_vec();
            for i in from..bytes.len() {
                if bytes[i] == b'\r' {
                    match bytes.get(i + 1) {
                        Some(b'\n') => {}
                        Some(_) => bytes[i] = b'\n',
                        None if eof => bytes[i] = b'\n',
                        None => return (bytes, i),
                    }
                }
            }
            let end = bytes.len();
            (bytes, end)
        };
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        for round in 0..400 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let len = (seed % 3000) as usize;
            // From no line end at all to nothing else: CRs and LFs at random.
            let odds = [0, 1, 4, 64, 1000][round % 5];
            let mut state = seed;
            let text: Vec<u8> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1);
                    let r = (state >> 33) as usize;
                    if odds != 0 && r % 4000 < odds * 4 {
                        if r & 1 == 0 { b'\r' } else { b'\n' }
                    } else {
                        b'x'
                    }
                })
                .collect();
            for from in [0, len / 3, len.saturating_sub(1), len] {
                for eof in [false, true] {
                    let mut bytes = text.clone();
                    let end = settle_line_ends(&mut bytes, from, eof);
                    let expected = plain(&text, from, eof);
                    assert_eq!(
                        (bytes, end),
                        expected,
                        "round {round}, from {from}, eof {eof}"
                    );
                }
            }
        }
        // A carriage return at each edge of a block.
        for at in [0, 1023, 1024, 1025, 2047, 2048, 2999] {
            let mut text = vec![b'x'; 3000];
            text[at] = b'\r';
            for eof in [false, true] {
                let mut bytes = text.clone();
                let end = settle_line_ends(&mut bytes, 0, eof);
                assert_eq!((bytes, end), plain(&text, 0, eof), "at {at}, eof {eof}");
            }
        }
    }

    #[test]
    fn lone_carriage_returns_become_line_feeds() {
        let settled = |text: &[u8], from: usize, eof: bool| {
            let mut bytes = text.to_vec();
            let end = settle_line_ends(&mut bytes, from, eof);
            (bytes, end)
        };
        assert_eq!(
            settled(b"a\rb\r\nc\r\rd", 0, true),
            (b"a\nb\r\nc\n\nd".to_vec(), 9)
        );
        // The last CR waits for the next byte, unless the input ended.
        assert_eq!(settled(b"ab\r", 0, false), (b"ab\r".to_vec(), 2));
        assert_eq!(settled(b"ab\r", 0, true), (b"ab\n".to_vec(), 3));
        // Bytes before `from` are settled already; across blocks too.
        assert_eq!(settled(b"\rx\r", 1, true), (b"\rx\n".to_vec(), 3));
        let mut long = vec![b'x'; 100];
        for i in [0, 30, 31, 32, 33, 63, 64, 99] {
            long[i] = b'\r';
        }
        let (bytes, end) = settled(&long, 0, false);
        assert_eq!(end, 99);
        assert_eq!(bytes.iter().filter(|&&b| b == b'\n').count(), 7);
    }
}
