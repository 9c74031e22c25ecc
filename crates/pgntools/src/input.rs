//! Input: plain or compressed PGN, told apart by its first bytes, never by a file name.
//!
//! [`decompress`] wraps any [`Read`] (a file, stdin, a socket) in the decoder its magic bytes call
//! for: zstd (`28 b5 2f fd`, or a skippable frame's `5? 2a 4d 18`, which `pzstd` writes first),
//! gzip (`1f 8b`) or bzip2 (`BZh`), and anything else is read as it is. Concatenated frames or
//! members (as `cat a.gz b.gz` makes, or `pzstd` and `pbzip2` write) are all read. The decoders are
//! the well-kept `zstd`, `flate2` and `bzip2` crates; their memory is set by the format's window,
//! not by the input's size (zstd refuses windows above 128 MiB; bzip2 blocks are at most 900 kB;
//! gzip's window is 32 KiB).
//!
//! The module opens no file: the caller hands in what to read.

use std::io::{self, Read};

/// How an input is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Not compressed.
    None,
    /// Zstandard (`.zst`).
    Zstd,
    /// gzip (`.gz`).
    Gzip,
    /// bzip2 (`.bz2`).
    Bzip2,
}

impl Compression {
    /// The compression whose magic bytes `start` begins with (`None` when no magic matches; a
    /// start too short to hold one is `None` too).
    ///
    /// ```
    /// use caissa_pgntools::input::Compression;
    ///
    /// assert_eq!(Compression::detect(b"\x28\xb5\x2f\xfd\x04"), Compression::Zstd);
    /// assert_eq!(Compression::detect(b"\x50\x2a\x4d\x18"), Compression::Zstd);
    /// assert_eq!(Compression::detect(b"[Event \"x\"]"), Compression::None);
    /// ```
    #[must_use]
    pub fn detect(start: &[u8]) -> Compression {
        // A frame, or a skippable frame (magic 0x184d2a50 to 0x184d2a5f, little-endian).
        let skippable = matches!(start, [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..]);
        if start.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) || skippable {
            Compression::Zstd
        } else if start.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if start.starts_with(b"BZh") {
            Compression::Bzip2
        } else {
            Compression::None
        }
    }

    /// The name of the format, as in messages: `zstd`, `gzip`, `bzip2`, `none`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }
}

/// The bytes read ahead to look at the magic: the longest magic is four bytes.
const MAGIC_LEN: usize = 4;

/// `input`, decompressed if its first bytes say it is compressed, and the compression found.
///
/// # Errors
///
/// An [`io::Error`] from reading the first bytes, or from setting up the zstd decoder.
///
/// # Examples
///
/// ```
/// use std::io::Read;
/// use caissa_pgntools::input::{Compression, decompress};
///
/// let (mut plain, found) = decompress(&b"1. e4 e5 *\n"[..])?;
/// assert_eq!(found, Compression::None);
/// let mut text = String::new();
/// plain.read_to_string(&mut text)?;
/// assert_eq!(text, "1. e4 e5 *\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn decompress<'a, R: Read + Send + 'a>(
    mut input: R,
) -> io::Result<(Box<dyn Read + Send + 'a>, Compression)> {
    // Read the magic (a pipe may deliver it in pieces), then put it back in front.
    let mut magic = [0u8; MAGIC_LEN];
    let got = fill(&mut input, &mut magic).map_err(|(error, _)| error)?;
    let compression = Compression::detect(&magic[..got]);
    let whole = io::Cursor::new(magic).take(got as u64).chain(input);
    let reader: Box<dyn Read + Send + 'a> = match compression {
        Compression::None => Box::new(whole),
        Compression::Zstd => Box::new(zstd::Decoder::new(whole)?),
        Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(whole)),
        Compression::Bzip2 => Box::new(bzip2::read::MultiBzDecoder::new(whole)),
    };
    Ok((reader, compression))
}

/// Reads `input` into `room` until it is full or the input ends, and gives how many bytes it
/// read; on an error, also how many were read before it. Reads interrupted by a signal are
/// tried again.
pub(crate) fn fill(input: &mut impl Read, room: &mut [u8]) -> Result<usize, (io::Error, usize)> {
    let mut read = 0;
    while read < room.len() {
        match input.read(&mut room[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err((error, read)),
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const PGN: &[u8] = b"[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n";

    fn read_all(input: &[u8]) -> (Vec<u8>, Compression) {
        let (mut reader, found) = decompress(input).expect("decoder");
        let mut out = Vec::new();
        reader.read_to_end(&mut out).expect("decoded");
        (out, found)
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(data).expect("in memory");
        encoder.finish().expect("in memory")
    }

    fn bzip2(data: &[u8]) -> Vec<u8> {
        let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        encoder.write_all(data).expect("in memory");
        encoder.finish().expect("in memory")
    }

    #[test]
    fn each_format_is_found_by_its_magic_and_read_whole() {
        let zstd = zstd::encode_all(PGN, 3).expect("in memory");
        for (bytes, expected) in [
            (PGN.to_vec(), Compression::None),
            (zstd, Compression::Zstd),
            (gzip(PGN), Compression::Gzip),
            (bzip2(PGN), Compression::Bzip2),
        ] {
            assert_eq!(read_all(&bytes), (PGN.to_vec(), expected));
        }
    }

    /// `pzstd` writes a skippable frame (its own index) before the data.
    #[test]
    fn zstd_behind_a_skippable_frame_is_read() {
        let mut bytes = vec![0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4];
        bytes.extend(zstd::encode_all(PGN, 3).expect("in memory"));
        assert_eq!(read_all(&bytes), (PGN.to_vec(), Compression::Zstd));
    }

    #[test]
    fn concatenated_frames_and_members_are_all_read() {
        let twice = [PGN, PGN].concat();
        let frame = zstd::encode_all(PGN, 1).expect("in memory");
        let zstd = [frame.clone(), frame].concat();
        for bytes in [
            zstd,
            [gzip(PGN), gzip(PGN)].concat(),
            [bzip2(PGN), bzip2(PGN)].concat(),
        ] {
            assert_eq!(read_all(&bytes).0, twice);
        }
    }

    /// Hands out one byte per read, as a slow pipe might.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            match (self.0.split_first(), buf.first_mut()) {
                (Some((&byte, rest)), Some(slot)) => {
                    *slot = byte;
                    self.0 = rest;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn a_magic_split_over_reads_is_still_found() {
        let zstd = zstd::encode_all(PGN, 3).expect("in memory");
        let (mut reader, found) = decompress(Trickle(&zstd)).expect("decoder");
        assert_eq!(found, Compression::Zstd);
        let mut out = Vec::new();
        reader.read_to_end(&mut out).expect("decoded");
        assert_eq!(out, PGN);
    }

    #[test]
    fn short_and_empty_inputs_are_plain() {
        assert_eq!(read_all(b""), (Vec::new(), Compression::None));
        assert_eq!(read_all(b"\x1f"), (b"\x1f".to_vec(), Compression::None));
        assert_eq!(read_all(b"BZ"), (b"BZ".to_vec(), Compression::None));
    }

    #[test]
    fn corrupt_compressed_input_is_an_error_not_a_panic() {
        let mut zstd = zstd::encode_all(PGN, 3).expect("in memory");
        let mid = zstd.len() / 2;
        zstd[mid] ^= 0xff;
        zstd.truncate(zstd.len() - 2);
        let (mut reader, _) = decompress(&zstd[..]).expect("decoder");
        let mut out = Vec::new();
        assert!(reader.read_to_end(&mut out).is_err());
        let (mut reader, _) = decompress(&b"\x1f\x8bgarbage"[..]).expect("decoder");
        assert!(reader.read_to_end(&mut out).is_err());
    }
}
