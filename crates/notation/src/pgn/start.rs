//! Where a game starts: the `[FEN]`, `[SetUp]` and `[Variant]` tags.

use caissa_board::Color;
use caissa_movegen::{CastlingMode, Position, PositionError};

use super::error::Excerpt;
use super::types::{Location, RawTag};
use crate::fen::{Fen, ParseFenError};

/// Collects the tags that say where a game starts, for visitors that replay moves.
///
/// - `[FEN "..."]` gives the start position. It is used whether or not `[SetUp "1"]` is there
///   (the standard asks for both; files often have only the FEN).
/// - `[Variant "Chess960"]` (also `Chess 960`, `Fischerandom`, `Fischer Random`, in any case)
///   selects Chess960 castling. `Standard`, `Chess`, `Normal` and `From Position` are ordinary
///   chess; any other variant is refused. Without the tag, a FEN whose castling rights are only
///   possible in Chess960 is read as Chess960.
/// - `[SetUp]` is accepted and otherwise ignored.
///
/// ```
/// use caissa_notation::pgn::{Location, RawTag, StartTags};
///
/// let mut start = StartTags::default();
/// let fen = b"4k3/8/8/8/8/8/4P3/4K3 w - - 0 40";
/// assert!(start.observe(b"FEN", RawTag::new(fen), Location::default()));
/// assert!(!start.observe(b"White", RawTag::new(b"Kasparov"), Location::default()));
/// let pos = start.position()?;
/// assert_eq!(pos.fullmoves(), 40);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartTags {
    fen: Option<(Result<Fen, ParseFenError>, Location)>,
    chess960: bool,
    unsupported: Option<(Excerpt, Location)>,
}

/// Why a game's start tags give no position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct StartError {
    /// Where the offending tag is.
    pub location: Location,
    /// What is wrong.
    pub kind: StartErrorKind,
}

/// What is wrong with a game's start tags.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StartErrorKind {
    /// The FEN tag cannot be read.
    #[error("in the FEN tag: {0}")]
    Fen(ParseFenError),
    /// The FEN tag describes an illegal position.
    #[error("in the FEN tag: {0}")]
    Position(PositionError),
    /// A variant other than chess and Chess960.
    #[error("unsupported variant {0}")]
    UnsupportedVariant(Excerpt),
}

impl StartTags {
    /// Looks at a tag. Returns whether it was one of `FEN`, `SetUp` and `Variant`.
    #[inline]
    pub fn observe(&mut self, name: &[u8], value: RawTag<'_>, at: Location) -> bool {
        // Most tags are none of the three: those are told by their length and first letter,
        // and the rest is out of line, so that a reader's visitor can inline this.
        matches!(
            (name.len(), name.first()),
            (3, Some(b'F')) | (5, Some(b'S')) | (7, Some(b'V'))
        ) && self.observe_start_tag(name, value, at)
    }

    /// [`StartTags::observe`] for a name of the length and first letter of `FEN`, `SetUp` or
    /// `Variant`.
    #[inline(never)]
    fn observe_start_tag(&mut self, name: &[u8], value: RawTag<'_>, at: Location) -> bool {
        match name {
            b"FEN" => {
                self.fen = Some((Fen::from_ascii(&value.decode()), at));
                true
            }
            b"Variant" => {
                let value = value.decode();
                let key: Vec<u8> = value
                    .iter()
                    .filter(|b| !matches!(b, b' ' | b'-' | b'_'))
                    .map(u8::to_ascii_lowercase)
                    .collect();
                match &key[..] {
                    b"chess960" | b"960" | b"fischerandom" | b"fischerrandom" => {
                        self.chess960 = true;
                    }
                    b"" | b"standard" | b"chess" | b"normal" | b"fromposition" => {}
                    _ => self.unsupported = Some((Excerpt::new(&value), at)),
                }
                true
            }
            b"SetUp" => true,
            _ => false,
        }
    }

    /// Whether the game is Chess960, by its `Variant` tag.
    #[must_use]
    pub const fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The FEN tag, if there is one and it can be read.
    #[must_use]
    pub fn fen(&self) -> Option<&Fen> {
        self.fen.as_ref().and_then(|(fen, _)| fen.as_ref().ok())
    }

    /// The half-moves before the game's first move as its FEN numbers them (0 without one, 1
    /// for Black to move in move 1): where the movetext's move numbers start.
    #[must_use]
    pub fn first_ply(&self) -> u64 {
        self.fen().map_or(0, |fen| {
            let setup = &fen.0;
            // In u64: twice a fullmove number near `u32::MAX` does not fit a u32.
            (u64::from(setup.fullmoves.get()) - 1) * 2 + u64::from(setup.turn == Color::Black)
        })
    }

    /// The start position: the FEN's, or the standard one.
    ///
    /// # Errors
    ///
    /// [`StartError`] if the FEN cannot be read or is not a legal position, or if the variant
    /// is not chess.
    pub fn position(&self) -> Result<Position, StartError> {
        if let Some((variant, location)) = &self.unsupported {
            return Err(StartError {
                location: *location,
                kind: StartErrorKind::UnsupportedVariant(variant.clone()),
            });
        }
        let Some((fen, location)) = &self.fen else {
            return Ok(Position::standard());
        };
        let error = |kind| StartError {
            location: *location,
            kind,
        };
        let fen = (*fen).map_err(|e| error(StartErrorKind::Fen(e)))?;
        if self.chess960 {
            return fen
                .into_position(CastlingMode::Chess960)
                .map_err(|e| error(StartErrorKind::Position(e)));
        }
        fen.into_position_either()
            .map_err(|e| error(StartErrorKind::Position(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(tags: &[(&str, &str)]) -> Result<Position, StartError> {
        let mut start = StartTags::default();
        for (name, value) in tags {
            start.observe(
                name.as_bytes(),
                RawTag::new(value.as_bytes()),
                Location { line: 1, column: 1 },
            );
        }
        start.position()
    }

    #[test]
    fn standard_without_tags() {
        assert_eq!(start(&[]), Ok(Position::standard()));
        assert_eq!(start(&[("Variant", "Standard")]), Ok(Position::standard()));
    }

    #[test]
    fn chess960_by_tag_or_by_castling() {
        let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let tagged = start(&[("Variant", "chess 960"), ("FEN", fen)]).expect("960");
        assert_eq!(tagged.castling_mode(), CastlingMode::Chess960);
        let untagged = start(&[("FEN", fen)]).expect("960 by castling");
        assert_eq!(untagged.castling_mode(), CastlingMode::Chess960);
    }

    #[test]
    fn errors_name_the_problem() {
        let error = start(&[("FEN", "8/8/8/8 w")]).unwrap_err();
        assert!(matches!(error.kind, StartErrorKind::Fen(_)));
        let error = start(&[("FEN", "8/8/8/8/8/8/8/8 w - - 0 1")]).unwrap_err();
        assert!(matches!(error.kind, StartErrorKind::Position(_)));
        let error = start(&[("Variant", "Atomic")]).unwrap_err();
        assert_eq!(error.to_string(), "1:1: unsupported variant \"Atomic\"");
    }
}
