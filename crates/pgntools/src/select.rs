//! Selecting and rewriting games, one at a time: what each worker of [`select`](crate::select())
//! does with each game.
//!
//! A game passes the [`Filter`] on its tags first; one that fails is skipped by the reader
//! without a move being replayed (the header-only fast path). A game that passes is replayed,
//! every move checked, and written in the [`Format`] asked for: in PGN, with each move
//! rewritten as canonical SAN from the position (`+` and `#` as they are on the board, long
//! algebraic or needlessly disambiguated input made short), the seven tag roster first, lines
//! under 80 columns, and what [`Strip`] says left out.

use core::ops::ControlFlow;

use caissa_movegen::UciMove;
use caissa_notation::pgn::{
    Flow, GameTreeBuilder, GameTreeInProgress, Layout, Location, Nag, PgnError, PgnReplayError,
    RawComment, RawTag, Replay, Tags, TerminationMarker, VariationChoice, Visitor,
};
use caissa_notation::san::SanPlus;

use crate::filter::Filter;

/// What to leave out of the games written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strip {
    /// Comments (`{...}`, `;...`).
    pub comments: bool,
    /// Annotation glyphs (`$1`, `!?`).
    pub nags: bool,
    /// Variations; they are then not replayed either.
    pub variations: bool,
    /// The commands in comments (`[%clk ...]`, `[%eval ...]`); a comment left empty goes.
    pub commands: bool,
}

/// How games are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// The PGN export format, moves rewritten as canonical SAN; each game followed by a blank
    /// line.
    #[default]
    Pgn,
    /// The main line's moves in UCI notation (`e2e4 e7e5 g1f3`, `0000` for a null move), one
    /// game per line.
    Uci,
}

/// What to select and how to write it.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The tag filter every selected game passes (the empty [`Filter::all`] passes all).
    pub filter: Filter,
    /// What to leave out.
    pub strip: Strip,
    /// Whether to set the `PlyCount` tag to the main line's length (PGN).
    pub ply_count: bool,
    /// How to write.
    pub format: Format,
}

/// What became of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Its tags fail the filter; its moves were not replayed.
    Unmatched,
    /// Selected, and written as this text.
    Matched(String),
    /// It cannot be read or replayed.
    Broken(Broken),
}

/// A game that cannot be read or replayed, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// The problem, its location relative to the input.
    pub error: PgnReplayError,
    /// The problem's byte offset in the input.
    pub offset: u64,
    /// The game's bytes, exactly as in the input (up to the next game's first byte).
    pub bytes: Vec<u8>,
}

/// One game of the input, in order, with what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// Where its first byte is in the input.
    pub offset: u64,
    /// Its line and column.
    pub location: Location,
    /// What became of it.
    pub verdict: Verdict,
}

/// The [`Visitor`] of a worker: the filter on the tags, then the replay and the tree.
#[derive(Debug)]
pub(crate) struct Selector<'a> {
    options: &'a Options,
    builder: GameTreeBuilder,
    /// Where the game being read starts.
    pub(crate) start: Location,
}

/// A selected game while it is read.
#[derive(Debug)]
pub(crate) struct InProgress {
    tree: GameTreeInProgress,
    replay: Replay,
    /// How many variations are open.
    depth: usize,
    /// The main line in UCI notation, for [`Format::Uci`].
    uci: String,
}

/// What a [`Selector`] makes of a well-formed game.
#[derive(Debug)]
pub(crate) enum Selected {
    Unmatched,
    Matched(String),
}

impl Selector<'_> {
    pub(crate) fn new(options: &Options) -> Selector<'_> {
        Selector {
            options,
            builder: GameTreeBuilder,
            start: Location::default(),
        }
    }
}

/// The tree builder's flow as the selector's: the builder never stops a game, and if it did,
/// its error would stop this one.
fn built<T>(flow: Flow<GameTreeBuilder, T>) -> Flow<Selector<'static>, T> {
    match flow {
        ControlFlow::Continue(value) => ControlFlow::Continue(value),
        ControlFlow::Break(result) => {
            ControlFlow::Break(result.map(|_| Selected::Unmatched).map_err(Into::into))
        }
    }
}

impl Visitor for Selector<'_> {
    type Tags = Tags;
    type Movetext = InProgress;
    type Output = Selected;
    type Error = PgnReplayError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, Tags> {
        self.start = at;
        ControlFlow::Continue(Tags::new())
    }

    fn tag(&mut self, tags: &mut Tags, name: &[u8], value: RawTag<'_>, at: Location) -> Flow<Self> {
        built(self.builder.tag(tags, name, value, at))
    }

    fn begin_movetext(&mut self, tags: Tags) -> Flow<Self, InProgress> {
        if !self.options.filter.matches(&tags) {
            return ControlFlow::Break(Ok(Selected::Unmatched));
        }
        let start = match tags.start().position() {
            Ok(start) => start,
            Err(error) => return ControlFlow::Break(Err(PgnError::from(error).into())),
        };
        let tree = built(self.builder.begin_movetext(tags))?;
        ControlFlow::Continue(InProgress {
            tree,
            replay: Replay::new(start),
            depth: 0,
            uci: String::new(),
        })
    }

    fn san(&mut self, game: &mut InProgress, san: SanPlus, at: Location) -> Flow<Self> {
        let before = *game.replay.position();
        let played = match game.replay.play(san, at) {
            Ok(played) => played,
            Err(error) => return ControlFlow::Break(Err(error)),
        };
        if self.options.format == Format::Uci && game.depth == 0 {
            if !game.uci.is_empty() {
                game.uci.push(' ');
            }
            match played {
                Some(m) => game
                    .uci
                    .push_str(&UciMove::from_move(&before, m).to_string()),
                None => game.uci.push_str("0000"),
            }
        }
        let canonical = played.map_or(san, |m| SanPlus::from_move(&before, m));
        built(self.builder.san(&mut game.tree, canonical, at))
    }

    fn nag(&mut self, game: &mut InProgress, nag: Nag) -> Flow<Self> {
        if self.options.strip.nags {
            return ControlFlow::Continue(());
        }
        built(self.builder.nag(&mut game.tree, nag))
    }

    fn comment(&mut self, game: &mut InProgress, comment: RawComment<'_>) -> Flow<Self> {
        let strip = self.options.strip;
        if strip.comments {
            return ControlFlow::Continue(());
        }
        if strip.commands {
            let text = comment.commands().text_without_commands();
            let kept = comment.with_bytes(text.as_bytes());
            return built(self.builder.comment(&mut game.tree, kept));
        }
        built(self.builder.comment(&mut game.tree, comment))
    }

    fn begin_variation(
        &mut self,
        game: &mut InProgress,
        at: Location,
    ) -> Flow<Self, VariationChoice> {
        if self.options.strip.variations {
            return ControlFlow::Continue(VariationChoice::Skip);
        }
        if let Err(error) = game.replay.begin_variation(at) {
            return ControlFlow::Break(Err(error));
        }
        game.depth += 1;
        built(self.builder.begin_variation(&mut game.tree, at))
    }

    fn end_variation(&mut self, game: &mut InProgress) -> Flow<Self> {
        game.replay.end_variation();
        game.depth -= 1;
        built(self.builder.end_variation(&mut game.tree))
    }

    fn termination_marker(
        &mut self,
        game: &mut InProgress,
        marker: TerminationMarker,
        at: Location,
    ) -> Flow<Self> {
        built(self.builder.termination_marker(&mut game.tree, marker, at))
    }

    fn end_game(&mut self, game: InProgress) -> Result<Selected, PgnReplayError> {
        let InProgress {
            tree, replay, uci, ..
        } = game;
        let mut tree = self.builder.end_game(tree)?;
        let mut text = String::new();
        match self.options.format {
            Format::Pgn => {
                if self.options.ply_count {
                    let plies = replay.finish().mainline_moves;
                    tree.tags.insert("PlyCount", &plies.to_string());
                }
                tree.write(&mut text, Layout::Export);
                text.push('\n');
            }
            Format::Uci => {
                text = uci;
                text.push('\n');
            }
        }
        Ok(Selected::Matched(text))
    }

    fn end_malformed_game(&mut self, game: InProgress, error: PgnError) -> PgnReplayError {
        PgnReplayError {
            replayed: game.replay.moves(),
            ..error.into()
        }
    }
}
