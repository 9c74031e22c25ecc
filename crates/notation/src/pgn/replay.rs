//! Replaying games: every SAN checked against the position it is played in.
//!
//! [`Replayer`] is a [`Visitor`] that replays as it reads, the fastest way to check a file.
//! [`Recorder`] only records a game's moves and variations as a [`RecordedGame`], to be replayed
//! later or elsewhere (another thread): reading and replaying can then run in parallel. Both
//! replay with the same [`Replay`], so they agree on every game.

use core::ops::ControlFlow;

use caissa_board::Role;
use caissa_movegen::{Move, Position};

use super::error::{PgnError, PgnErrorKind};
use super::start::{StartError, StartTags};
use super::types::{Location, RawTag, VariationChoice};
use super::visitor::{Flow, Visitor};
use crate::san::{San, SanError, SanPlus};

/// Variations nested deeper than this are an error ([`PgnReplayErrorKind::TooDeep`]) for the
/// replay, so that its memory stays bounded however deep the nesting.
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

/// A game that cannot be read or replayed: where, how many moves were replayed before, and what
/// is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{location}: {kind}")]
pub struct PgnReplayError {
    /// Where the problem is: the move, the `(`, the start tag, or the reader's error.
    pub location: Location,
    /// The moves replayed before the problem, in all lines.
    pub replayed: u64,
    /// What is wrong.
    pub kind: PgnReplayErrorKind,
}

/// What is wrong with a game that cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PgnReplayErrorKind {
    /// The game cannot be read ([`PgnError`]), or its start tags give no position
    /// ([`PgnErrorKind::Start`]).
    #[error(transparent)]
    Pgn(PgnErrorKind),
    /// The SAN does not fit the position: illegal or ambiguous.
    #[error("{error}")]
    San {
        /// The move as written.
        san: SanPlus,
        /// Why it does not fit.
        error: SanError,
    },
    /// A move after the game ended on the board in checkmate or stalemate.
    #[error("move {san} after the game ended in {}", if *.checkmate { "checkmate" } else { "stalemate" })]
    AfterGameEnd {
        /// The move as written.
        san: SanPlus,
        /// Whether the game ended in checkmate (else in stalemate).
        checkmate: bool,
    },
    /// A null move (`--`) while in check.
    #[error("null move while in check")]
    NullMoveInCheck,
    /// A variation nested deeper than [`MAX_REPLAY_DEPTH`].
    #[error("variations nested deeper than {MAX_REPLAY_DEPTH}")]
    TooDeep,
}

impl From<PgnError> for PgnReplayError {
    /// The reader's error, with no move replayed before it.
    fn from(error: PgnError) -> PgnReplayError {
        PgnReplayError {
            location: error.location,
            replayed: 0,
            kind: PgnReplayErrorKind::Pgn(error.kind),
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
///
/// ```
/// use caissa_board::Square;
/// use caissa_movegen::{Move, Position};
/// use caissa_notation::pgn::{Location, Replay};
/// use caissa_notation::san::SanPlus;
///
/// let mut replay = Replay::new(Position::standard());
/// let at = Location::default();
/// let e4 = replay.play("e4".parse::<SanPlus>()?, at)?.expect("not a null move");
/// assert_eq!(e4, Move::normal(Square::E2, Square::E4));
/// replay.begin_variation(at)?;
/// replay.play("d4".parse()?, at)?;
/// replay.end_variation();
/// replay.play("e5".parse()?, at)?;
/// let stats = replay.finish();
/// assert_eq!((stats.moves, stats.mainline_moves), (3, 2));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Replay {
    pos: Position,
    /// The position before the last move of the current line.
    before: Position,
    /// For each open variation: `(pos, before)` of the line it interrupts.
    stack: Vec<(Position, Position)>,
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

    /// Plays a move of the current line: gives the move, or `None` for a null move (`--`),
    /// which passes the turn.
    ///
    /// # Errors
    ///
    /// [`PgnReplayError`] at `at` when the SAN is illegal or ambiguous, comes after checkmate or
    /// stalemate, or is a null move in check.
    #[inline(always)]
    pub fn play(&mut self, san: SanPlus, at: Location) -> Result<Option<Move>, PgnReplayError> {
        let played = match san.san {
            San::Null => {
                let next = self
                    .pos
                    .pass()
                    .ok_or_else(|| self.error(at, PgnReplayErrorKind::NullMoveInCheck))?;
                self.before = self.pos;
                self.pos = next;
                None
            }
            _ => {
                let m = match san.san.to_move(&self.pos) {
                    Ok(m) => m,
                    Err(error) => return Err(self.san_error(san, error, at)),
                };
                self.before = self.pos;
                match san.san {
                    // Castling written as a king move is the king's too.
                    San::Normal { role, .. } => self.pos.play_unchecked_by(m, role),
                    _ => self.pos.play_unchecked_by(m, Role::King),
                }
                Some(m)
            }
        };
        self.moves += 1;
        self.mainline_moves += u64::from(self.stack.is_empty());
        Ok(played)
    }

    fn error(&self, at: Location, kind: PgnReplayErrorKind) -> PgnReplayError {
        PgnReplayError {
            location: at,
            replayed: self.moves,
            kind,
        }
    }

    /// The error for a SAN that does not fit: the game is over if no move does.
    #[cold]
    fn san_error(&self, san: SanPlus, error: SanError, at: Location) -> PgnReplayError {
        let kind = if self.pos.has_legal_moves() {
            PgnReplayErrorKind::San { san, error }
        } else {
            PgnReplayErrorKind::AfterGameEnd {
                san,
                checkmate: self.pos.is_check(),
            }
        };
        self.error(at, kind)
    }

    /// Starts a variation, whose `(` is at `at`: an alternative to the last move of the current
    /// line.
    ///
    /// # Errors
    ///
    /// [`PgnReplayErrorKind::TooDeep`] past [`MAX_REPLAY_DEPTH`] open variations.
    pub fn begin_variation(&mut self, at: Location) -> Result<(), PgnReplayError> {
        if self.stack.len() >= MAX_REPLAY_DEPTH {
            return Err(self.error(at, PgnReplayErrorKind::TooDeep));
        }
        self.stack.push((self.pos, self.before));
        self.pos = self.before;
        Ok(())
    }

    /// Ends the innermost variation and goes back to the line it interrupted.
    pub fn end_variation(&mut self) {
        if let Some((pos, before)) = self.stack.pop() {
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
/// [`ReplayStats`] or the first problem, [`PgnReplayError`]: one error type for the text, the
/// start tags and the moves.
///
/// ```
/// use caissa_notation::pgn::{Reader, Replayer};
///
/// let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *\n\n1. e4 e5 2. Ke3 *\n\n1. e4 {\n";
/// let mut reader = Reader::new(&pgn[..]);
/// let stats = reader.read_game(&mut Replayer::new()).expect("a game")?;
/// assert_eq!((stats.moves, stats.mainline_moves), (6, 4));
/// let error = reader.read_game(&mut Replayer::new()).expect("a game").unwrap_err();
/// assert_eq!(error.to_string(), "3:13: illegal move Ke3: no legal move matches");
/// assert_eq!(error.replayed, 2);
/// let error = reader.read_game(&mut Replayer::new()).expect("a game").unwrap_err();
/// assert_eq!(error.to_string(), "5:7: unterminated comment");
/// assert_eq!(error.replayed, 1);
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
    type Output = ReplayStats;
    type Error = PgnReplayError;

    fn begin_game(&mut self, _at: Location) -> Flow<Self, StartTags> {
        ControlFlow::Continue(StartTags::default())
    }

    #[inline]
    fn tag(
        &mut self,
        tags: &mut StartTags,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> Flow<Self> {
        tags.observe(name, value, at);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: StartTags) -> Flow<Self, Replay> {
        match tags.position() {
            Ok(pos) => ControlFlow::Continue(Replay::new(pos)),
            Err(error) => ControlFlow::Break(Err(PgnError::from(error).into())),
        }
    }

    #[inline(always)]
    fn san(&mut self, replay: &mut Replay, san: SanPlus, at: Location) -> Flow<Self> {
        match replay.play(san, at) {
            Ok(_) => ControlFlow::Continue(()),
            Err(error) => ControlFlow::Break(Err(error)),
        }
    }

    fn begin_variation(
        &mut self,
        replay: &mut Replay,
        at: Location,
    ) -> Flow<Self, VariationChoice> {
        if !self.variations {
            return ControlFlow::Continue(VariationChoice::Skip);
        }
        match replay.begin_variation(at) {
            Ok(()) => ControlFlow::Continue(VariationChoice::Enter),
            Err(error) => ControlFlow::Break(Err(error)),
        }
    }

    fn end_variation(&mut self, replay: &mut Replay) -> Flow<Self> {
        replay.end_variation();
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, replay: Replay) -> Result<ReplayStats, PgnReplayError> {
        Ok(replay.finish())
    }

    fn end_malformed_game(&mut self, replay: Replay, error: PgnError) -> PgnReplayError {
        PgnReplayError {
            replayed: replay.moves(),
            ..error.into()
        }
    }
}

/// One step of a [`RecordedGame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedToken {
    /// A move and where it is written.
    Move(SanPlus, Location),
    /// `(`, and where it is.
    BeginVariation(Location),
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
    /// The first [`PgnReplayError`].
    pub fn replay(&self) -> Result<ReplayStats, PgnReplayError> {
        let start = self.start.clone().map_err(PgnError::from)?;
        let mut replay = Replay::new(start);
        self.replay_into(&mut replay)?;
        Ok(replay.finish())
    }

    /// Replays the recorded moves into `replay` (made from [`RecordedGame::start`]), which
    /// keeps what was replayed up to an error ([`Replay::moves`]).
    ///
    /// # Errors
    ///
    /// The first [`PgnReplayError`].
    pub fn replay_into(&self, replay: &mut Replay) -> Result<(), PgnReplayError> {
        for token in &self.tokens {
            match *token {
                RecordedToken::Move(san, at) => {
                    replay.play(san, at)?;
                }
                RecordedToken::BeginVariation(at) => replay.begin_variation(at)?,
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
    type Error = PgnError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, Self::Tags> {
        self.malformed = None;
        ControlFlow::Continue((at, StartTags::default()))
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> Flow<Self> {
        tags.1.observe(name, value, at);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (location, tags): Self::Tags) -> Flow<Self, RecordedGame> {
        ControlFlow::Continue(RecordedGame {
            location,
            start: tags.position(),
            tokens: Vec::new(),
        })
    }

    fn san(&mut self, game: &mut RecordedGame, san: SanPlus, at: Location) -> Flow<Self> {
        game.tokens.push(RecordedToken::Move(san, at));
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        game: &mut RecordedGame,
        at: Location,
    ) -> Flow<Self, VariationChoice> {
        game.tokens.push(RecordedToken::BeginVariation(at));
        ControlFlow::Continue(VariationChoice::Enter)
    }

    fn end_variation(&mut self, game: &mut RecordedGame) -> Flow<Self> {
        game.tokens.push(RecordedToken::EndVariation);
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: RecordedGame) -> Result<RecordedGame, PgnError> {
        Ok(game)
    }

    fn end_malformed_game(&mut self, game: RecordedGame, error: PgnError) -> PgnError {
        self.malformed = Some(game);
        error
    }
}
