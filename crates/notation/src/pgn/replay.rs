//! Replaying games: every SAN checked against the position it is played in.
//!
//! [`Replayer`] is a [`Visitor`] that replays as it reads, the fastest way to check a file.
//! [`Recorder`] only records a game's moves and variations as a [`RecordedGame`], to be replayed
//! later or elsewhere (another thread): reading and replaying can then run in parallel. Both
//! replay with the same [`Replay`], so they agree on every game.
//!
//! Read leniently ([`Reader::lenient`](super::Reader::lenient)), a game's [`ReplayStats`] also
//! list what the reader read past ([`ReplayStats::tolerated`]), so that a tool can warn; read
//! strictly, that list is empty, and costs nothing.

use core::ops::ControlFlow;

use caissa_board::{Color, Role};
use caissa_movegen::{Move, Position};

use super::error::{PgnError, PgnErrorKind};
use super::start::{StartError, StartTags};
use super::types::{Location, RawTag, TerminationMarker, Tolerated, VariationChoice};
use super::visitor::{Flow, Visitor};
use crate::san::{San, SanError, SanPlus};

/// Variations nested deeper than this are an error ([`PgnReplayErrorKind::TooDeep`]) for the
/// replay, so that its memory stays bounded however deep the nesting.
pub const MAX_REPLAY_DEPTH: usize = 256;

/// What replaying a game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayStats {
    /// Moves replayed, in the main line and in variations.
    pub moves: u64,
    /// Moves of the main line.
    pub mainline_moves: u64,
    /// The position at the end of the main line.
    pub position: Position,
    /// What a lenient reader ([`Reader::lenient`](super::Reader::lenient)) read past in the
    /// game, where, in reading order; empty (and not allocated) when it read strictly.
    pub tolerated: Vec<(Location, Tolerated)>,
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
    /// A move (or a null move) after the game ended on the board in checkmate or stalemate.
    #[error("{} after the game ended in {}", move_name(*.san), ending(*.checkmate))]
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
    /// A result the game claims (its termination marker or its `Result` tag, at the error's
    /// location) that the checkmate or stalemate at the end of its main line contradicts: a
    /// draw or the wrong winner after checkmate, a win after stalemate. (`*` claims nothing.)
    #[error("result {claimed} contradicts the {} on the board", ending(*.checkmate))]
    ResultContradictsBoard {
        /// The result claimed.
        claimed: TerminationMarker,
        /// Whether the board shows checkmate (else stalemate).
        checkmate: bool,
    },
}

/// A move for a message: a null move is named so, whichever way it is written (`--`, `Z0`).
fn move_name(san: SanPlus) -> String {
    match san.san {
        San::Null => "null move".to_owned(),
        _ => format!("move {san}"),
    }
}

const fn ending(checkmate: bool) -> &'static str {
    if checkmate { "checkmate" } else { "stalemate" }
}

/// The results a game claims, each with its place: its `Result` tag and its termination marker.
/// [`Replay::check_claims`] holds them against the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Claims {
    /// The `Result` tag, if it is one of `1-0`, `0-1`, `1/2-1/2`, `*`.
    pub tag: Option<(TerminationMarker, Location)>,
    /// The termination marker.
    pub marker: Option<(TerminationMarker, Location)>,
}

impl Claims {
    /// Takes note of a tag pair: returns whether it was the `Result` tag.
    #[inline]
    pub fn observe_tag(&mut self, name: &[u8], value: RawTag<'_>, at: Location) -> bool {
        // Told from most names by length and first letter, inline.
        if name.len() != 6 || name[0] != b'R' || name != b"Result" {
            return false;
        }
        self.tag = TerminationMarker::from_ascii(value.as_bytes()).map(|result| (result, at));
        true
    }
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

    /// The position before the current line's last move (the start, before any move): with
    /// [`Replay::position`], the two sides of the move just played, without a copy.
    #[must_use]
    pub const fn before(&self) -> &Position {
        &self.before
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
                if !self.pos.has_legal_moves() {
                    return Err(self.game_over(san, at));
                }
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
                    // No letter and the whole origin may be a piece's move (UCI's `g1f3`,
                    // castling as `e1g1`): the board says whose.
                    San::Normal {
                        role: Role::Pawn,
                        file: Some(_),
                        rank: Some(_),
                        ..
                    } => self.pos.play_unchecked(m),
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
        if self.pos.has_legal_moves() {
            self.error(at, PgnReplayErrorKind::San { san, error })
        } else {
            self.game_over(san, at)
        }
    }

    /// The error for a move where the side to move has none.
    #[cold]
    fn game_over(&self, san: SanPlus, at: Location) -> PgnReplayError {
        let checkmate = self.pos.is_check();
        self.error(at, PgnReplayErrorKind::AfterGameEnd { san, checkmate })
    }

    /// Holds the results a game claims against the end of its main line (the current line, or
    /// the one that open variations interrupt): after checkmate only the mating side's win fits,
    /// after stalemate only a draw; `*` fits anything. The termination marker is checked first.
    ///
    /// # Errors
    ///
    /// [`PgnReplayErrorKind::ResultContradictsBoard`] at the claim that does not fit.
    pub fn check_claims(&self, claims: &Claims) -> Result<(), PgnReplayError> {
        let pos = self.stack.first().map_or(&self.pos, |(pos, _)| pos);
        let claimed = [claims.marker, claims.tag];
        // In check, the game can only have ended in checkmate, else only in stalemate: the
        // result that fits that ending needs no look at the moves.
        let checkmate = pos.is_check();
        let fits = match (checkmate, pos.turn()) {
            (false, _) => TerminationMarker::Draw,
            (true, Color::White) => TerminationMarker::BlackWins,
            (true, Color::Black) => TerminationMarker::WhiteWins,
        };
        match claimed
            .into_iter()
            .flatten()
            .find(|&(result, _)| result != fits && result != TerminationMarker::Unknown)
        {
            Some((claimed, at)) if !pos.has_legal_moves() => Err(self.error(
                at,
                PgnReplayErrorKind::ResultContradictsBoard { claimed, checkmate },
            )),
            _ => Ok(()),
        }
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

    /// What the replay found. Open variations are closed first. A replay sees moves, not
    /// their text: [`ReplayStats::tolerated`] is empty ([`Replayer`] and
    /// [`RecordedGame::replay`] fill it in).
    #[must_use]
    pub fn finish(mut self) -> ReplayStats {
        let pos = self.stack.first().map_or(self.pos, |&(pos, _)| pos);
        self.stack.clear();
        ReplayStats {
            moves: self.moves,
            mainline_moves: self.mainline_moves,
            position: pos,
            tolerated: Vec::new(),
        }
    }
}

/// A [`Visitor`] that replays each game as it is read, main line and variations, and gives its
/// [`ReplayStats`] or the first problem, [`PgnReplayError`]: one error type for the text, the
/// start tags and the moves. What a lenient reader read past goes into
/// [`ReplayStats::tolerated`].
///
/// ```
/// use caissa_notation::pgn::{Location, Reader, Replayer, Tolerated};
///
/// let pgn = b"1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *\n\n1. e4 e5 2. Ke3 *\n\n1. e4 {\n";
/// let mut reader = Reader::new(&pgn[..]);
/// let stats = reader.read_game(&mut Replayer::new()).expect("a game")?;
/// assert_eq!((stats.moves, stats.mainline_moves), (6, 4));
/// assert!(stats.tolerated.is_empty());
/// let error = reader.read_game(&mut Replayer::new()).expect("a game").unwrap_err();
/// assert_eq!(error.to_string(), "3:13: illegal move Ke3: no legal move matches");
/// assert_eq!(error.replayed, 2);
/// let error = reader.read_game(&mut Replayer::new()).expect("a game").unwrap_err();
/// assert_eq!(error.to_string(), "5:7: unterminated comment");
/// assert_eq!(error.replayed, 1);
///
/// // Read leniently, `e.p.` after a move is stepped over, and listed with its place.
/// let pgn = b"1. e4 d5 2. e5 f5 3. exf6 e.p. *\n";
/// let strict = Reader::new(&pgn[..]).read_game(&mut Replayer::new()).expect("a game");
/// assert_eq!(strict.unwrap_err().location, Location { line: 1, column: 27 });
/// let mut reader = Reader::new(&pgn[..]).lenient(true);
/// let stats = reader.read_game(&mut Replayer::new()).expect("a game")?;
/// assert_eq!(stats.moves, 5);
/// let at = Location { line: 1, column: 27 };
/// assert_eq!(stats.tolerated, [(at, Tolerated::EnPassantSuffix)]);
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
    type Tags = (StartTags, Claims);
    /// The replay, the claims and what was tolerated so far.
    type Movetext = (Replay, Claims, Vec<(Location, Tolerated)>);
    type Output = ReplayStats;
    type Error = PgnReplayError;

    fn begin_game(&mut self, _at: Location) -> Flow<Self, Self::Tags> {
        ControlFlow::Continue(Default::default())
    }

    #[inline(always)]
    fn tag(
        &mut self,
        (start, claims): &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> Flow<Self> {
        if !start.observe(name, value, at) {
            claims.observe_tag(name, value, at);
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (start, claims): Self::Tags) -> Flow<Self, Self::Movetext> {
        match start.position() {
            Ok(pos) => ControlFlow::Continue((Replay::new(pos), claims, Vec::new())),
            Err(error) => ControlFlow::Break(Err(PgnError::from(error).into())),
        }
    }

    #[inline(always)]
    fn san(&mut self, (replay, ..): &mut Self::Movetext, san: SanPlus, at: Location) -> Flow<Self> {
        match replay.play(san, at) {
            Ok(_) => ControlFlow::Continue(()),
            Err(error) => ControlFlow::Break(Err(error)),
        }
    }

    fn tolerated(
        &mut self,
        (.., tolerated): &mut Self::Movetext,
        what: Tolerated,
        at: Location,
    ) -> Flow<Self> {
        tolerated.push((at, what));
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        (replay, ..): &mut Self::Movetext,
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

    fn end_variation(&mut self, (replay, ..): &mut Self::Movetext) -> Flow<Self> {
        replay.end_variation();
        ControlFlow::Continue(())
    }

    fn termination_marker(
        &mut self,
        (_, claims, _): &mut Self::Movetext,
        marker: TerminationMarker,
        at: Location,
    ) -> Flow<Self> {
        claims.marker = Some((marker, at));
        ControlFlow::Continue(())
    }

    fn end_game(
        &mut self,
        (replay, claims, tolerated): Self::Movetext,
    ) -> Result<ReplayStats, PgnReplayError> {
        replay.check_claims(&claims)?;
        Ok(ReplayStats {
            tolerated,
            ..replay.finish()
        })
    }

    fn end_malformed_game(
        &mut self,
        (replay, ..): Self::Movetext,
        error: PgnError,
    ) -> PgnReplayError {
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
    /// The results the game claims, to hold against the board at the end.
    pub claims: Claims,
    /// What a lenient reader read past, where, in reading order (see
    /// [`ReplayStats::tolerated`]).
    pub tolerated: Vec<(Location, Tolerated)>,
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
        replay.check_claims(&self.claims)?;
        Ok(ReplayStats {
            tolerated: self.tolerated.clone(),
            ..replay.finish()
        })
    }

    /// Replays the recorded moves into `replay` (made from [`RecordedGame::start`]), which
    /// keeps what was replayed up to an error ([`Replay::moves`]). The claims are not checked
    /// ([`Replay::check_claims`] does that).
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

/// A [`Visitor`] that records each game as a [`RecordedGame`]: start position, moves,
/// variations and what a lenient reader read past, no comments. Its memory is proportional to
/// the game's moves.
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
    type Tags = (Location, StartTags, Claims);
    type Movetext = RecordedGame;
    type Output = RecordedGame;
    type Error = PgnError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, Self::Tags> {
        self.malformed = None;
        ControlFlow::Continue((at, StartTags::default(), Claims::default()))
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> Flow<Self> {
        if !tags.1.observe(name, value, at) {
            tags.2.observe_tag(name, value, at);
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (location, tags, claims): Self::Tags) -> Flow<Self, RecordedGame> {
        ControlFlow::Continue(RecordedGame {
            location,
            start: tags.position(),
            tokens: Vec::new(),
            claims,
            tolerated: Vec::new(),
        })
    }

    fn san(&mut self, game: &mut RecordedGame, san: SanPlus, at: Location) -> Flow<Self> {
        game.tokens.push(RecordedToken::Move(san, at));
        ControlFlow::Continue(())
    }

    fn tolerated(&mut self, game: &mut RecordedGame, what: Tolerated, at: Location) -> Flow<Self> {
        game.tolerated.push((at, what));
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

    fn termination_marker(
        &mut self,
        game: &mut RecordedGame,
        marker: TerminationMarker,
        at: Location,
    ) -> Flow<Self> {
        game.claims.marker = Some((marker, at));
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

#[cfg(test)]
mod tests {
    use super::super::Reader;
    use super::*;

    /// What the replayer and the recorder (its games replayed) find in each game of `pgn`.
    fn replay_both(pgn: &str) -> Vec<Result<u64, String>> {
        let replayed: Vec<_> = Reader::new(pgn.as_bytes())
            .games(&mut Replayer::new())
            .map(|game| game.map(|stats| stats.moves).map_err(|e| e.to_string()))
            .collect();
        let recorded: Vec<_> = Reader::new(pgn.as_bytes())
            .games(&mut Recorder::new())
            .map(|game| {
                let game = game.map_err(PgnReplayError::from)?;
                game.replay().map(|stats| stats.moves)
            })
            .map(|game| game.map_err(|e| e.to_string()))
            .collect();
        assert_eq!(replayed, recorded, "{pgn}");
        replayed
    }

    #[test]
    fn what_a_lenient_reader_read_past_is_listed_by_both() {
        let pgn = "1. e4 d5 2. e5 f5 3. exf6 e.p. $300 (3. Nf3 $256) Nf6 1/2 resigns\n\n1. d4 e.p. Ke3 *\n";
        let read = |lenient| {
            let replayed: Vec<_> = Reader::new(pgn.as_bytes())
                .lenient(lenient)
                .games(&mut Replayer::new())
                .collect();
            let recorded: Vec<_> = Reader::new(pgn.as_bytes())
                .lenient(lenient)
                .games(&mut Recorder::new())
                .map(|game| game.map_err(PgnReplayError::from)?.replay())
                .collect();
            // Errors as text: the recorder's do not count the moves replayed before.
            let text = |games: &[Result<ReplayStats, PgnReplayError>]| -> Vec<_> {
                games
                    .iter()
                    .map(|game| game.clone().map_err(|e| e.to_string()))
                    .collect()
            };
            assert_eq!(text(&replayed), text(&recorded));
            replayed
        };
        let at = |line, column| Location { line, column };
        let games = read(true);
        let stats = games[0].as_ref().expect("replays");
        assert_eq!(stats.moves, 7);
        assert_eq!(
            stats.tolerated,
            [
                (at(1, 27), Tolerated::EnPassantSuffix),
                (at(1, 32), Tolerated::NagOutOfRange(300)),
                (at(1, 45), Tolerated::NagOutOfRange(256)),
                (at(1, 55), Tolerated::HalfPointResult),
                (at(1, 59), Tolerated::AfterResult),
            ]
        );
        // A later illegal move makes the game an error.
        let error = games[1].as_ref().expect_err("an illegal move");
        assert_eq!(error.location, at(3, 12));
        // Strictly, the first item is an error, and a game without one lists nothing.
        let games = read(false);
        assert_eq!(games[0].as_ref().map_err(|e| e.location), Err(at(1, 27)));
        assert!(games[1].is_err());
        let plain = Reader::new(&b"1. e4 *\n"[..]).read_game(&mut Replayer::new());
        let plain = plain.expect("a game").expect("replays");
        assert!(plain.tolerated.is_empty() && plain.tolerated.capacity() == 0);
    }

    const STALEMATE: &str = "[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n";

    #[test]
    fn uci_moves_of_pieces_move_the_pieces() {
        let play = |moves: &str| {
            let mut replay = Replay::new(Position::standard());
            for word in moves.split_whitespace() {
                let san = SanPlus::from_ascii(word.as_bytes()).expect("reads");
                replay.play(san, Location::default()).expect("legal");
            }
            *replay.position()
        };
        let uci = play("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 f3e5 c6e5 d2d4 e5c4");
        let san = play("e4 e5 Nf3 Nc6 Bc4 Nf6 O-O Bc5 Nxe5 Nxe5 d4 Nxc4");
        assert_eq!(uci, san);
        assert_eq!(uci.board(), san.board());
    }

    #[test]
    fn a_null_move_after_the_end_is_named_as_such() {
        let games = replay_both(&format!(
            "1. f3 e5 2. g4 Qh4# Z0 *\n\n{STALEMATE}1... -- *\n\n1. e4 f5 2. Qh5+ Z0 *\n\n\
             1. e4 Z0 2. d4 -- *\n"
        ));
        assert_eq!(
            games,
            [
                Err("1:21: null move after the game ended in checkmate".to_owned()),
                Err("4:6: null move after the game ended in stalemate".to_owned()),
                Err("6:18: null move while in check".to_owned()),
                Ok(4),
            ]
        );
        assert_eq!(
            SanError::Null.to_string(),
            "a null move is not a legal move"
        );
    }

    #[test]
    fn results_that_contradict_the_board_are_reported() {
        let mate = "1. f3 e5 2. g4 Qh4#";
        let games = replay_both(&format!(
            "{mate} 1-0\n\n{mate} 1/2-1/2\n\n[Result \"1-0\"]\n\n{mate} *\n\n\
             [Result \"1/2-1/2\"]\n\n{mate} 0-1\n\n{mate} 0-1\n\n[Result \"0-1\"]\n\n{mate}\n\n\
             {mate} *\n\n{STALEMATE}1... 1-0\n\n{STALEMATE}[Result \"1/2-1/2\"]\n1... 1/2-1/2\n\n\
             [Result \"1-0\"]\n1. e4 e5 0-1\n"
        ));
        assert_eq!(
            games,
            [
                Err("1:21: result 1-0 contradicts the checkmate on the board".to_owned()),
                Err("3:21: result 1/2-1/2 contradicts the checkmate on the board".to_owned()),
                Err("5:1: result 1-0 contradicts the checkmate on the board".to_owned()),
                Err("9:1: result 1/2-1/2 contradicts the checkmate on the board".to_owned()),
                Ok(4),
                Ok(4),
                Ok(4),
                Err("22:6: result 1-0 contradicts the stalemate on the board".to_owned()),
                Ok(0),
                // No checkmate or stalemate on the board: nothing to contradict.
                Ok(2),
            ]
        );
    }
}
