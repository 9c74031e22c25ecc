//! `caissa pgn fmt`: every game read into a tree and written back (the [parent module](super)
//! says what it writes), with bounded memory and nothing changed silently.
//!
//! The games go through [`Fmt`], a visitor around [`GameTreeBuilder`] that also
//!
//! - reads the start tags, so that a game whose `FEN` (or `Variant`) gives no start position is
//!   reported, not written with move numbers of the standard start;
//! - stops a game past [`MAX_MOVES`] moves or [`MAX_TEXT`] bytes of tags and comments, reported
//!   at its place, so that memory is bounded whatever the input (a tree takes about 170 bytes a
//!   move);
//! - warns, with the place, of text that is not written as read: bytes that are not UTF-8
//!   (written as U+FFFD) and NUL bytes (written as they are). The place is the tag's, or the
//!   comment's own (its `{` or `;`);
//! - read leniently (`--lenient`), keeps what the reader read past ([`Tolerated`]), to be
//!   warned of, as `caissa pgn select` warns, if the game is written.

use core::ops::ControlFlow;
use std::io::Write;

use caissa::notation::pgn::{
    Flow, GameTree, GameTreeBuilder, GameTreeInProgress, Layout, Location, Nag, PgnError,
    PgnErrorKind, RawComment, RawTag, Reader, StartTags, TagBytes, TerminationMarker, Tolerated,
    VariationChoice, Visitor,
};
use caissa::notation::san::SanPlus;

use super::{FmtArgs, open, read_error, warn_each};
use crate::error::CliError;

/// The most moves of one game, in all lines, that `fmt` holds.
pub(super) const MAX_MOVES: usize = 250_000;

/// The most bytes of tag values and comments of one game that `fmt` holds.
pub(super) const MAX_TEXT: usize = 16 << 20;

/// Text that is not written as it was read.
#[derive(Debug, PartialEq, Eq)]
struct Warning {
    at: Location,
    message: &'static str,
}

/// The visitor of `caissa pgn fmt`: see the module docs.
#[derive(Debug, Default)]
struct Fmt {
    /// The warnings of the game being read.
    warnings: Vec<Warning>,
    /// What a lenient reader read past in the game being read, where.
    tolerated: Vec<(Location, Tolerated)>,
}

/// The tags of a game being read: for the tree, for the start position, and the text so far.
#[derive(Debug)]
struct FmtTags {
    tags: TagBytes,
    start: StartTags,
    text: usize,
}

/// The movetext of a game being read.
#[derive(Debug)]
struct FmtGame {
    tree: GameTreeInProgress,
    moves: usize,
    text: usize,
}

impl Fmt {
    /// Counts `bytes` of text, and notes what will not be written as read.
    fn text(&mut self, total: &mut usize, bytes: &[u8], at: Location, what: Text) -> Flow<Self> {
        *total += bytes.len();
        if *total > MAX_TEXT {
            return ControlFlow::Break(Err(PgnError {
                location: at,
                kind: PgnErrorKind::TooMuchText { limit: MAX_TEXT },
            }));
        }
        if core::str::from_utf8(bytes).is_err() {
            self.warnings.push(Warning {
                at,
                message: what.not_utf8(),
            });
        }
        if bytes.contains(&0) {
            self.warnings.push(Warning {
                at,
                message: what.nul(),
            });
        }
        ControlFlow::Continue(())
    }
}

/// Which text [`Fmt::text`] looks at.
#[derive(Clone, Copy)]
enum Text {
    Tag,
    Comment,
}

impl Text {
    const fn not_utf8(self) -> &'static str {
        match self {
            Text::Tag => "tag value is not UTF-8: written with U+FFFD for the bad bytes",
            Text::Comment => "comment is not UTF-8: written with U+FFFD for the bad bytes",
        }
    }

    const fn nul(self) -> &'static str {
        match self {
            Text::Tag => "tag value holds a NUL byte: written as it is",
            Text::Comment => "comment holds a NUL byte: written as it is",
        }
    }
}

impl Visitor for Fmt {
    type Tags = FmtTags;
    type Movetext = FmtGame;
    type Output = GameTree;
    type Error = PgnError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, FmtTags> {
        self.warnings.clear();
        self.tolerated.clear();
        let tags = GameTreeBuilder.begin_game(at)?;
        ControlFlow::Continue(FmtTags {
            tags,
            start: StartTags::default(),
            text: 0,
        })
    }

    fn tag(
        &mut self,
        tags: &mut FmtTags,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> Flow<Self> {
        self.text(&mut tags.text, value.as_bytes(), at, Text::Tag)?;
        tags.start.observe(name, value, at);
        GameTreeBuilder.tag(&mut tags.tags, name, value, at)
    }

    fn begin_movetext(&mut self, tags: FmtTags) -> Flow<Self, FmtGame> {
        if let Err(error) = tags.start.position() {
            return ControlFlow::Break(Err(error.into()));
        }
        let tree = GameTreeBuilder.begin_movetext(tags.tags)?;
        ControlFlow::Continue(FmtGame {
            tree,
            moves: 0,
            text: tags.text,
        })
    }

    fn san(&mut self, game: &mut FmtGame, san: SanPlus, at: Location) -> Flow<Self> {
        game.moves += 1;
        if game.moves > MAX_MOVES {
            return ControlFlow::Break(Err(PgnError {
                location: at,
                kind: PgnErrorKind::TooManyMoves { limit: MAX_MOVES },
            }));
        }
        GameTreeBuilder.san(&mut game.tree, san, at)
    }

    fn nag(&mut self, game: &mut FmtGame, nag: Nag) -> Flow<Self> {
        GameTreeBuilder.nag(&mut game.tree, nag)
    }

    fn comment(&mut self, game: &mut FmtGame, comment: RawComment<'_>, at: Location) -> Flow<Self> {
        self.text(&mut game.text, comment.as_bytes(), at, Text::Comment)?;
        GameTreeBuilder.comment(&mut game.tree, comment, at)
    }

    fn tolerated(&mut self, _: &mut FmtGame, what: Tolerated, at: Location) -> Flow<Self> {
        self.tolerated.push((at, what));
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, game: &mut FmtGame, at: Location) -> Flow<Self, VariationChoice> {
        GameTreeBuilder.begin_variation(&mut game.tree, at)
    }

    fn end_variation(&mut self, game: &mut FmtGame) -> Flow<Self> {
        GameTreeBuilder.end_variation(&mut game.tree)
    }

    fn termination_marker(
        &mut self,
        game: &mut FmtGame,
        marker: TerminationMarker,
        at: Location,
    ) -> Flow<Self> {
        GameTreeBuilder.termination_marker(&mut game.tree, marker, at)
    }

    fn end_game(&mut self, game: FmtGame) -> Result<GameTree, PgnError> {
        GameTreeBuilder.end_game(game.tree)
    }
}

/// Writes every well-formed game of `args.file` to `out`, as `args` say; reports the others,
/// and the warnings, on stderr. Returns the number of games and of malformed ones.
pub(super) fn format(args: &FmtArgs, out: &mut dyn Write) -> Result<(u64, u64), CliError> {
    let (path, layout) = (args.file.as_path(), args.layout());
    let mut reader = Reader::new(open(path)?).lenient(args.lenient);
    let mut fmt = Fmt::default();
    let (mut games, mut bad) = (0, 0);
    let mut text = String::new();
    while let Some(game) = reader.read_game(&mut fmt) {
        for warning in fmt.warnings.drain(..) {
            let at = warning.at;
            eprintln!(
                "{}:{}:{}: warning: {}",
                path.display(),
                at.line,
                at.column,
                warning.message
            );
        }
        match game {
            Err(PgnError {
                kind: PgnErrorKind::Io(failure),
                ..
            }) => return Err(read_error(path)(failure.into())),
            Ok(game) => {
                warn_each(path, &fmt.tolerated);
                games += 1;
                text.clear();
                if games > bad + 1 && layout == Layout::Export {
                    text.push('\n');
                }
                game.write(&mut text, layout);
                if layout == Layout::Compact {
                    text.push('\n');
                }
                out.write_all(text.as_bytes())?;
            }
            Err(error) => {
                games += 1;
                bad += 1;
                eprintln!(
                    "{}:{}:{}: {}",
                    path.display(),
                    error.line(),
                    error.column(),
                    error.kind
                );
            }
        }
    }
    Ok((games, bad))
}

#[cfg(test)]
mod tests;
