//! Replaying games: every SAN checked against the position it is played in.
//!
//! [`Replayer`] is a [`Visitor`] that replays as it reads, the fastest way to check a file.
//! [`Recorder`] only records a game's moves and variations as a [`RecordedGame`], to be replayed
//! later or elsewhere (another thread): reading and replaying can then run in parallel. Both
//! replay with the same [`Replay`], so they agree on every game.

use core::ops::ControlFlow;

use caissa_board::Role;
use caissa_movegen::Position;

use super::error::PgnError;
use super::start::{StartError, StartErrorKind, StartTags};
use super::types::{Location, RawTag, VariationChoice};
use super::visitor::Visitor;
use crate::san::{San, SanError, SanPlus};

/// Variations nested deeper than this are read and checked for syntax but not replayed, so that
/// memory stays bounded however deep the nesting.
pub const MAX_REPLAY_DEPTH: usize = 256;

/// What replaying a game found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayStats {
    /// Moves replayed, in the main line and in variations.
    pub moves: u64,
    /// Moves of the main line.
    pub mainline_moves: u64,
    /// The position at the end of the main line.
    pub position: Position,
}

/// A move that cannot be replayed, or a start position that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct ReplayError {
    /// Where the move or the start tag is.
    pub location: Location,
    /// What is wrong.
    pub kind: ReplayErrorKind,
}

/// What is wrong with a move or with the start of a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayErrorKind {
    /// The start tags (`FEN`, `Variant`) give no position.
    #[error(transparent)]
    Start(StartErrorKind),
    /// The SAN does not fit the position: illegal or ambiguous.
    #[error("{error}")]
    San {
        /// The move as written.
        san: SanPlus,
        /// Why it does not fit.
        error: SanError,
    },
    /// A null move (`--`) while in check.
    #[error("null move while in check")]
    NullMoveInCheck,
}

impl From<StartError> for ReplayError {
    fn from(error: StartError) -> ReplayError {
        ReplayError {
            location: error.location,
            kind: ReplayErrorKind::Start(error.kind),
        }
    }
}

/// The replaying state of one game: the position of the current line, and what is needed to
/// come back from variations.
///
/// Call [`Replay::play`] for each move, [`Replay::begin_variation`] and
/// [`Replay::end_variation`] for each `(` and `)`, and [`Replay::finish`] at the end. A variation
/// replaces the move before it, so it starts from the position before that move.
///
/// A null move (`--`, [`San::Null`]) passes the turn; it is refused only in check.
#[derive(Clone, Debug)]
pub struct Replay {
    pos: Position,
    /// The position before the last move of the current line.
    before: Position,
    /// For each open variation: `(pos, before)` of the line it interrupts.
    stack: Vec<(Position, Position)>,
    /// How many open variations lie beyond [`MAX_REPLAY_DEPTH`].
    ignored: u64,
    moves: u64,
    mainline_moves: u64,
}

impl Replay {
    /// Starts replaying from `start`.
    #[must_use]
    pub fn new(start: Position) -> Replay {
        Replay {
            pos: start,
            before: start,
            stack: Vec::new(),
            ignored: 0,
            moves: 0,
            mainline_moves: 0,
        }
    }

    /// The position of the current line.
    #[must_use]
    pub const fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves replayed so far, in all lines.
    #[must_use]
    pub const fn moves(&self) -> u64 {
        self.moves
    }

    /// Plays a move of the current line.
    ///
    /// # Errors
    ///
    /// [`ReplayError`] at `at` when the SAN is illegal or ambiguous, or a null move in check.
    #[inline(always)]
    pub fn play(&mut self, san: SanPlus, at: Location) -> Result<(), ReplayError> {
        if self.ignored > 0 {
            return Ok(());
        }
        match san.san {
            San::Null => {
                let next = self.pos.pass().ok_or(ReplayError {
                    location: at,
                    kind: ReplayErrorKind::NullMoveInCheck,
                })?;
                self.before = self.pos;
                self.pos = next;
            }
            _ => {
                let m = san.san.to_move(&self.pos).map_err(|error| ReplayError {
                    location: at,
                    kind: ReplayErrorKind::San { san, error },
                })?;
                self.before = self.pos;
                match san.san {
                    // Castling written as a king move is the king's too.
                    San::Normal { role, .. } => self.pos.play_unchecked_by(m, role),
                    _ => self.pos.play_unchecked_by(m, Role::King),
                }
            }
        }
        self.moves += 1;
        self.mainline_moves += u64::from(self.stack.is_empty());
        Ok(())
    }

    /// Starts a variation: an alternative to the last move of the current line.
    pub fn begin_variation(&mut self) {
        if self.ignored > 0 || self.stack.len() >= MAX_REPLAY_DEPTH {
            self.ignored += 1;
            return;
        }
        self.stack.push((self.pos, self.before));
        self.pos = self.before;
    }

    /// Ends the innermost variation and goes back to the line it interrupted.
    pub fn end_variation(&mut self) {
        if self.ignored > 0 {
            self.ignored -= 1;
        } else if let Some((pos, before)) = self.stack.pop() {
            self.pos = pos;
            self.before = before;
        }
    }

    /// What the replay found. Open variations are closed first.
    #[must_use]
    pub fn finish(mut self) -> ReplayStats {
        let pos = self.stack.first().map_or(self.pos, |&(pos, _)| pos);
        self.stack.clear();
        ReplayStats {
            moves: self.moves,
            mainline_moves: self.mainline_moves,
            position: pos,
        }
    }
}

/// A [`Visitor`] that replays each game as it is read, main line and variations, and gives its
/// [`ReplayStats`] or the first [`ReplayError`].
///
/// ```
/// use caissa_notation::pgn::{Reader, Replayer};
///
/// let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *\n\n1. e4 e5 2. Ke3 *\n";
/// let mut reader = Reader::new(&pgn[..]);
/// let stats = reader.read_game(&mut Replayer::new())?.expect("game")?.expect("legal");
/// assert_eq!((stats.moves, stats.mainline_moves), (6, 4));
/// let error = reader.read_game(&mut Replayer::new())?.expect("game")?.unwrap_err();
/// assert_eq!(error.to_string(), "3:13: illegal move Ke3: no legal move matches");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Replayer {
    variations: bool,
}

impl Replayer {
    /// A replayer of the main line and every variation.
    #[must_use]
    pub const fn new() -> Replayer {
        Replayer { variations: true }
    }

    /// A replayer of the main line only: variations are skipped, checked only for balanced
    /// parentheses and closed comments.
    #[must_use]
    pub const fn mainline_only() -> Replayer {
        Replayer { variations: false }
    }
}

impl Default for Replayer {
    fn default() -> Replayer {
        Replayer::new()
    }
}

impl Visitor for Replayer {
    type Tags = StartTags;
    type Movetext = Replay;
    type Output = Result<ReplayStats, ReplayError>;

    fn begin_game(&mut self, _at: Location) -> ControlFlow<Self::Output, StartTags> {
        ControlFlow::Continue(StartTags::default())
    }

    #[inline]
    fn tag(
        &mut self,
        tags: &mut StartTags,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> ControlFlow<Self::Output> {
        tags.observe(name, value, at);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: StartTags) -> ControlFlow<Self::Output, Replay> {
        match tags.position() {
            Ok(pos) => ControlFlow::Continue(Replay::new(pos)),
            Err(error) => ControlFlow::Break(Err(error.into())),
        }
    }

    #[inline(always)]
    fn san(
        &mut self,
        replay: &mut Replay,
        san: SanPlus,
        at: Location,
    ) -> ControlFlow<Self::Output> {
        match replay.play(san, at) {
            Ok(()) => ControlFlow::Continue(()),
            Err(error) => ControlFlow::Break(Err(error)),
        }
    }

    fn begin_variation(
        &mut self,
        replay: &mut Replay,
    ) -> ControlFlow<Self::Output, VariationChoice> {
        if !self.variations {
            return ControlFlow::Continue(VariationChoice::Skip);
        }
        replay.begin_variation();
        ControlFlow::Continue(VariationChoice::Enter)
    }

    fn end_variation(&mut self, replay: &mut Replay) -> ControlFlow<Self::Output> {
        replay.end_variation();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, replay: Replay) -> Self::Output {
        Ok(replay.finish())
    }
}

/// One step of a [`RecordedGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedToken {
    /// A move and where it is written.
    Move(SanPlus, Location),
    /// `(`.
    BeginVariation,
    /// `)`.
    EndVariation,
}

/// A game's start and moves, recorded by [`Recorder`] without replaying them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedGame {
    /// Where the game's first byte is.
    pub location: Location,
    /// The start position, or why the tags give none.
    pub start: Result<Position, StartError>,
    /// Moves and variations, in order.
    pub tokens: Vec<RecordedToken>,
}

impl RecordedGame {
    /// Replays the recorded moves, exactly as [`Replayer`] would have.
    ///
    /// # Errors
    ///
    /// The first [`ReplayError`].
    pub fn replay(&self) -> Result<ReplayStats, ReplayError> {
        let mut replay = Replay::new(self.start.clone()?);
        self.replay_into(&mut replay)?;
        Ok(replay.finish())
    }

    /// Replays the recorded moves into `replay` (made from [`RecordedGame::start`]), which
    /// keeps what was replayed up to an error ([`Replay::moves`]).
    ///
    /// # Errors
    ///
    /// The first [`ReplayError`].
    pub fn replay_into(&self, replay: &mut Replay) -> Result<(), ReplayError> {
        for token in &self.tokens {
            match *token {
                RecordedToken::Move(san, at) => replay.play(san, at)?,
                RecordedToken::BeginVariation => replay.begin_variation(),
                RecordedToken::EndVariation => replay.end_variation(),
            }
        }
        Ok(())
    }
}

/// A [`Visitor`] that records each game as a [`RecordedGame`]: start position, moves and
/// variations, no comments. Its memory is proportional to the game's moves.
///
/// For a malformed game it keeps what it recorded before the error: [`Recorder::take_malformed`]
/// gives it back, so that replaying it can tell whether an illegal move comes before the error,
/// as [`Replayer`] would have reported.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    malformed: Option<RecordedGame>,
}

impl Recorder {
    /// A recorder.
    #[must_use]
    pub const fn new() -> Recorder {
        Recorder { malformed: None }
    }

    /// The moves recorded before the error, for the last game that
    /// [`Reader::read_game`](super::Reader::read_game) reported malformed (once).
    pub fn take_malformed(&mut self) -> Option<RecordedGame> {
        self.malformed.take()
    }
}

impl Visitor for Recorder {
    type Tags = (Location, StartTags);
    type Movetext = RecordedGame;
    type Output = RecordedGame;

    fn begin_game(&mut self, at: Location) -> ControlFlow<RecordedGame, Self::Tags> {
        self.malformed = None;
        ControlFlow::Continue((at, StartTags::default()))
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> ControlFlow<RecordedGame> {
        tags.1.observe(name, value, at);
        ControlFlow::Continue(())
    }

    fn begin_movetext(
        &mut self,
        (location, tags): Self::Tags,
    ) -> ControlFlow<RecordedGame, RecordedGame> {
        ControlFlow::Continue(RecordedGame {
            location,
            start: tags.position(),
            tokens: Vec::new(),
        })
    }

    fn san(
        &mut self,
        game: &mut RecordedGame,
        san: SanPlus,
        at: Location,
    ) -> ControlFlow<RecordedGame> {
        game.tokens.push(RecordedToken::Move(san, at));
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        game: &mut RecordedGame,
    ) -> ControlFlow<RecordedGame, VariationChoice> {
        game.tokens.push(RecordedToken::BeginVariation);
        ControlFlow::Continue(VariationChoice::Enter)
    }

    fn end_variation(&mut self, game: &mut RecordedGame) -> ControlFlow<RecordedGame> {
        game.tokens.push(RecordedToken::EndVariation);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: RecordedGame) -> RecordedGame {
        game
    }

    fn end_malformed_game(&mut self, game: RecordedGame, _error: &PgnError) {
        self.malformed = Some(game);
    }
}
