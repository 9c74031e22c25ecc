//! PGN: a streaming reader, a game tree, a replayer and a writer.
//!
//! - [`Reader`] reads games from any [`Read`](std::io::Read) with one fixed buffer and calls a
//!   [`Visitor`] for each part of each game. It reports every malformed game with a line,
//!   a column and a reason ([`PgnError`]), skips it, and goes on with the next one.
//! - Ready-made visitors: [`GameTreeBuilder`] builds a [`GameTree`] (tags, main line,
//!   variations, comments, glyphs); [`Replayer`] replays every move against the position (main
//!   line and variations) and reports illegal or ambiguous SAN with its line and column
//!   ([`PgnReplayError`], one error type for reading and replaying); [`Recorder`] records moves
//!   to replay them elsewhere ([`RecordedGame::replay`]).
//! - [`GameTree::write`] writes the export format or a compact one-line form, through a
//!   [`MovetextWriter`], which a visitor can also feed as it reads, building no tree;
//!   [`GameTree::mainline_moves`] replays the main line, positions and moves;
//!   [`GameTree::to_game`] makes the main line a [`caissa_game::Game`], and
//!   [`GameTree::from_game`] writes a game as a tree.
//! - [`commands`] reads the `[%clk ...]`, `[%eval ...]`, `[%csl ...]`, `[%cal ...]` commands of
//!   a comment into typed values.
//! - [`StartTags`] reads the `[FEN]`, `[SetUp]` and `[Variant]` tags into a start position.
//! - [`ParallelReader`] reads on several threads, with each game's result handed back in input
//!   order, the same as one [`Reader`] gives; [`chunks`] cuts a byte slice at game boundaries
//!   into pieces that read alone as in place, and [`ranges`] cuts a seekable input (a file)
//!   into byte ranges at the same boundaries without reading it from its start, for machines
//!   that each read their own range ([`line_at`] gives a range's first line).
//!
//! ```
//! use caissa_notation::pgn::{GameTreeBuilder, Layout, Reader, Replayer};
//!
//! let pgn = "[Event \"Example\"]\n[Result \"1-0\"]\n\n\
//!            1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7# 1-0\n";
//!
//! // Check every move.
//! for game in Reader::new(pgn.as_bytes()).games(&mut Replayer::new()) {
//!     let stats = game?;
//!     assert_eq!(stats.moves, 7);
//!     assert!(stats.position.is_checkmate());
//! }
//!
//! // Or build the tree and write it back.
//! let tree = Reader::new(pgn.as_bytes()).read_game(&mut GameTreeBuilder).expect("a game")?;
//! let mut line = String::new();
//! tree.write(&mut line, Layout::Compact);
//! assert_eq!(
//!     line,
//!     "[Event \"Example\"] [Result \"1-0\"] 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 $4 4. Qxf7# 1-0"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Order of visitor calls
//!
//! For each game: [`Visitor::begin_game`]; [`Visitor::tag`] for each tag pair;
//! [`Visitor::begin_movetext`]; then, in the order written, [`Visitor::san`], [`Visitor::nag`],
//! [`Visitor::comment`], [`Visitor::begin_variation`] ... [`Visitor::end_variation`] (around
//! the calls for the variation's contents, unless the visitor skips it) and
//! [`Visitor::termination_marker`]; finally [`Visitor::end_game`] for a game that is
//! well-formed to its end, or [`Visitor::end_malformed_game`] for one whose movetext is not.
//! Any call but these two may end the game early with `ControlFlow::Break(result)`, a value or
//! an error. The [`Visitor`] docs say more.
//!
//! # Grammar, and how lenient the reader is
//!
//! A game is an optional tag section followed by movetext.
//!
//! - **Line ends** are LF, CRLF or a lone CR (as old Mac files have), in any mix. The reader
//!   makes each lone CR a LF as it reads it, so a comment that spans lines reaches the visitor
//!   with LF where the input had a lone CR; nothing else is changed.
//! - **Between games**, whitespace, blank lines and `%` escape lines (a `%` in the first column:
//!   the line is ignored, here and in movetext) are skipped, and a UTF-8 byte order mark at the
//!   start of the input.
//! - **Tags**: `[Name "value"]`, one or more per line, blanks allowed around the parts. Names are
//!   letters, digits and `_`. In values, `\"` and `\\` are escapes ([`RawTag::decode`]); a value
//!   may not span lines. A blank line ends the tags: a tag line after it starts the next game
//!   (the first one has no movetext).
//! - **Movetext** ends at a blank line, at a line whose first non-blank character is `[`, or at
//!   the end of the input; not inside a comment, except as below.
//! - **Tokens**: move numbers (`12.`, `12...`, `12` — not checked against the moves), SAN read by
//!   [`SanPlus::from_ascii`](crate::san::SanPlus::from_ascii) with its leniencies (`0-0`, `Pe4`,
//!   `Ng1f3`, `e8Q`, `--` for a null move, ...), glyphs `$0` to `$255` and the suffixes `!`, `?`,
//!   `!!`, `??`, `!?`, `?!` (also attached: `Nf3!?` is a move and a glyph), `{...}` comments
//!   (which may span lines), `;` comments to the end of the line, `(` and `)`, and the results
//!   `1-0`, `0-1`, `1/2-1/2`, `*`. Stray dots are ignored.
//! - A missing result is not an error. After the result only comments may follow.
//! - **Lenient reading** ([`Reader::lenient`], [`ParallelReader::lenient`]) also accepts what
//!   other readers do: `e.p.` after a move (`exd6 e.p.`, `exd6e.p.`), the result `1/2`,
//!   glyphs above `$255`, text after the result on its lines (`1-0 resigns`), and a `"` left
//!   unescaped in a tag value (as python-chess writes one); each is reported to
//!   [`Visitor::tolerated`] ([`Tolerated`]; [`Replayer`] lists them in
//!   [`ReplayStats::tolerated`]) where a strict reader refuses the game.
//!
//! # Errors and recovery
//!
//! The first problem of a game is returned as [`PgnError`] with its line and byte column:
//! a character or token that fits nowhere, a move that is not SAN, a malformed tag pair, an
//! unterminated comment, tag value or variation, an unmatched `)`, a glyph or variation before
//! any move of its line, a result inside a variation, or anything but comments after the
//! result. The reader then skips to the end of that game (the same rules as above) and the next
//! call reads the next game, so no game after a bad one is lost.
//!
//! A `{` comment that is never closed would otherwise swallow the rest of the file; so inside a
//! comment, a line that starts like a tag pair (`[Name "`) ends the game: the comment is
//! reported unterminated and the next game starts at that line.
//!
//! # Limits
//!
//! Memory is the buffer (64 KiB by default, [`Reader::with_capacity`]), whatever the input:
//! a tag pair or a comment longer than the buffer is an error for its game
//! ([`PgnErrorKind::TagTooLong`], [`PgnErrorKind::CommentTooLong`]), never cut; a token (move,
//! number, glyph, tag name) longer than 256 bytes is an error. `docs/LIMITS.md` lists every
//! limit. Nesting depth is a counter, not recursion. Every
//! byte is looked at a bounded number of times, so reading takes linear time on any input.
//! The visitors' memory is theirs: [`GameTreeBuilder`] and [`Recorder`] grow with the game,
//! [`Replayer`] replays variations to a depth of [`MAX_REPLAY_DEPTH`] and reports deeper ones
//! as an error.

mod chunks;
pub mod commands;
mod convert;
mod error;
mod parallel;
mod ranges;
mod reader;
mod replay;
mod start;
mod tree;
mod types;
mod visitor;
mod writer;

pub use chunks::{BoundaryScan, Chunk, Chunks, chunks, is_boundary, line_ends_in};
pub use convert::ToGameError;
pub use error::{Excerpt, IoFailure, PgnError, PgnErrorKind};
pub use parallel::{MAX_THREADS, ParallelReader};
pub use ranges::{MAX_SEEK_WINDOW, Ranges, boundary_at_or_after, line_at, ranges};
pub use reader::{DEFAULT_CAPACITY, Games, MIN_CAPACITY, Reader};
pub use replay::{
    Claims, MAX_REPLAY_DEPTH, PgnReplayError, PgnReplayErrorKind, RecordedGame, RecordedToken,
    Recorder, Replay, ReplayStats, Replayer,
};
pub use start::{StartError, StartErrorKind, StartTags};
pub use tree::{
    GameTree, GameTreeBuilder, GameTreeInProgress, MainlineMove, MainlineMoves, Node, NodeId,
    TagBytes, Tags, TreeReplayError, normalize_comment,
};
pub use types::{
    Location, Nag, ParseTerminationMarkerError, RawComment, RawTag, TerminationMarker, Tolerated,
    VariationChoice,
};
pub use visitor::{Flow, Visitor};
pub use writer::{EXPORT_WIDTH, Layout, MovetextWriter, SEVEN_TAG_ROSTER};
