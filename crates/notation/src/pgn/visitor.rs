//! The [`Visitor`] trait: what a [`Reader`](super::Reader) calls while it reads a game.

use core::ops::ControlFlow;

use super::error::PgnError;
use super::types::{
    Location, Nag, RawComment, RawTag, TerminationMarker, Tolerated, VariationChoice,
};
use crate::san::SanPlus;

/// What a [`Visitor`] call returns: go on (with `C`, the next phase's state, if any), or stop the
/// game with its result, a value or an error.
pub type Flow<V, C = ()> = ControlFlow<Result<<V as Visitor>::Output, <V as Visitor>::Error>, C>;

/// Receives the parts of each game from a [`Reader`](super::Reader).
///
/// # Order of calls
///
/// For each game the reader calls, in this order:
///
/// 1. [`begin_game`](Visitor::begin_game) once, which makes the game's [`Tags`](Visitor::Tags);
/// 2. [`tag`](Visitor::tag) for each tag pair, in the order written;
/// 3. [`begin_movetext`](Visitor::begin_movetext) once, which turns the `Tags` into the game's
///    [`Movetext`](Visitor::Movetext);
/// 4. in the order written: [`san`](Visitor::san), [`nag`](Visitor::nag),
///    [`comment`](Visitor::comment), [`begin_variation`](Visitor::begin_variation) with its
///    matching [`end_variation`](Visitor::end_variation) (calls between them belong to the
///    variation), and [`termination_marker`](Visitor::termination_marker) at most once, last
///    but for comments;
/// 5. [`end_game`](Visitor::end_game) once, which turns the `Movetext` into the game's result;
///    or, if the movetext is malformed, [`end_malformed_game`](Visitor::end_malformed_game),
///    which turns it and the reader's [`PgnError`] into the game's [`Error`](Visitor::Error).
///
/// The reader has checked the syntax up to each call: a `nag` or `begin_variation` always follows
/// a move of the same line, and every `begin_variation` that the visitor enters gets its
/// `end_variation`. But a call does not mean the game is well-formed to its end: if the reader
/// later finds an error, it hands the `Movetext` to `end_malformed_game` (or drops the `Tags`, for
/// an error in the tags, and converts the error with `From`) instead of calling `end_game`.
///
/// # Stopping early, and failing
///
/// Every call but `end_game` and `end_malformed_game` may return [`ControlFlow::Break`] with the
/// game's result: `Ok(output)` to stop early, `Err(error)` for a game the visitor finds wrong
/// (an illegal move, say). The reader then skips the rest of the game without looking at it
/// closely (it still finds the game's end, so the next game is read as usual) and returns that
/// result. Variations can be skipped one by one with [`VariationChoice::Skip`].
///
/// # Per-game state
///
/// The associated types carry a game's state from phase to phase, so the visitor itself needs no
/// fields reset between games: `begin_game` makes the `Tags`, `begin_movetext` consumes them to
/// make the `Movetext`, and `end_game` consumes that to make the result.
///
/// # Examples
///
/// A visitor that counts the moves of each game's main line and fails games without a `White`
/// tag:
///
/// ```
/// use core::ops::ControlFlow;
/// use caissa_notation::pgn::{Flow, Location, PgnError, RawTag, Reader, Visitor};
/// use caissa_notation::san::SanPlus;
///
/// struct MainLineMoves;
///
/// #[derive(Debug, PartialEq)]
/// enum Problem {
///     Pgn(PgnError),
///     NoWhite(Location),
/// }
///
/// impl From<PgnError> for Problem {
///     fn from(error: PgnError) -> Problem {
///         Problem::Pgn(error)
///     }
/// }
///
/// impl Visitor for MainLineMoves {
///     type Tags = (Location, bool);
///     type Movetext = u64;
///     type Output = u64;
///     type Error = Problem;
///
///     fn begin_game(&mut self, at: Location) -> Flow<Self, (Location, bool)> {
///         ControlFlow::Continue((at, false))
///     }
///
///     fn tag(&mut self, tags: &mut (Location, bool), name: &[u8], _: RawTag<'_>, _: Location)
///         -> Flow<Self> {
///         tags.1 |= name == b"White";
///         ControlFlow::Continue(())
///     }
///
///     fn begin_movetext(&mut self, (at, white): (Location, bool)) -> Flow<Self, u64> {
///         match white {
///             true => ControlFlow::Continue(0),
///             false => ControlFlow::Break(Err(Problem::NoWhite(at))),
///         }
///     }
///
///     fn san(&mut self, moves: &mut u64, _: SanPlus, _: Location) -> Flow<Self> {
///         *moves += 1;
///         ControlFlow::Continue(())
///     }
///
///     fn end_game(&mut self, moves: u64) -> Result<u64, Problem> {
///         Ok(moves)
///     }
/// }
///
/// let pgn = b"[White \"A\"]\n\n1. e4 e5 (1... c5) 2. Nf3 *\n\n1. d4 *\n\n[White \"B\"]\n\n1. e4 {";
/// let results: Vec<_> = Reader::new(&pgn[..]).games(&mut MainLineMoves).collect();
/// assert_eq!(results[0], Ok(3));
/// assert_eq!(results[1], Err(Problem::NoWhite(Location { line: 5, column: 1 })));
/// assert!(matches!(&results[2], Err(Problem::Pgn(e)) if e.line() == 9));
/// ```
pub trait Visitor {
    /// What the tag phase accumulates.
    type Tags;
    /// What the movetext phase accumulates.
    type Movetext;
    /// What a game produces.
    type Output;
    /// What a game that cannot be read, or that the visitor finds wrong, produces: the reader's
    /// [`PgnError`]s convert into it.
    type Error: From<PgnError>;

    /// Called first for each game; `at` is where its first byte is.
    fn begin_game(&mut self, at: Location) -> Flow<Self, Self::Tags>;

    /// Called for each tag pair, like `[White "Deep Blue"]`; `at` is where its `[` is.
    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> Flow<Self> {
        let _ = (tags, name, value, at);
        ControlFlow::Continue(())
    }

    /// Called after the tags, before the movetext.
    fn begin_movetext(&mut self, tags: Self::Tags) -> Flow<Self, Self::Movetext>;

    /// Called for each move, like `Nf3+`; `at` is where it is written.
    fn san(&mut self, movetext: &mut Self::Movetext, san: SanPlus, at: Location) -> Flow<Self> {
        let _ = (movetext, san, at);
        ControlFlow::Continue(())
    }

    /// Called for each annotation glyph, like `$14` or `!?`, after the move it annotates.
    fn nag(&mut self, movetext: &mut Self::Movetext, nag: Nag) -> Flow<Self> {
        let _ = (movetext, nag);
        ControlFlow::Continue(())
    }

    /// Called for each comment, `{...}` or `;...`; `at` is where it starts (its `{` or `;`).
    fn comment(
        &mut self,
        movetext: &mut Self::Movetext,
        comment: RawComment<'_>,
        at: Location,
    ) -> Flow<Self> {
        let _ = (movetext, comment, at);
        ControlFlow::Continue(())
    }

    /// Called when a lenient reader ([`Reader::lenient`](super::Reader::lenient)) reads past
    /// what a strict one refuses (see [`Tolerated`]); `at` is where it is written.
    fn tolerated(
        &mut self,
        movetext: &mut Self::Movetext,
        what: Tolerated,
        at: Location,
    ) -> Flow<Self> {
        let _ = (movetext, what, at);
        ControlFlow::Continue(())
    }

    /// Called for each `(`; `at` is where it is. The default skips the variation.
    fn begin_variation(
        &mut self,
        movetext: &mut Self::Movetext,
        at: Location,
    ) -> Flow<Self, VariationChoice> {
        let _ = (movetext, at);
        ControlFlow::Continue(VariationChoice::Skip)
    }

    /// Called for each `)` that closes a variation the visitor entered.
    fn end_variation(&mut self, movetext: &mut Self::Movetext) -> Flow<Self> {
        let _ = movetext;
        ControlFlow::Continue(())
    }

    /// Called for the game termination marker, like `1-0` or `*`; `at` is where it is.
    fn termination_marker(
        &mut self,
        movetext: &mut Self::Movetext,
        marker: TerminationMarker,
        at: Location,
    ) -> Flow<Self> {
        let _ = (movetext, marker, at);
        ControlFlow::Continue(())
    }

    /// Called last for a well-formed game.
    ///
    /// # Errors
    ///
    /// What the visitor finds wrong with the game as a whole.
    fn end_game(&mut self, movetext: Self::Movetext) -> Result<Self::Output, Self::Error>;

    /// Called instead of [`end_game`](Visitor::end_game) when the movetext turns out to be
    /// malformed, with the state so far and the reader's error: gives the game's error. The
    /// default drops the state and converts the error; a visitor may add what it knows (the
    /// moves before the error, say). Not called for errors in the tags.
    fn end_malformed_game(&mut self, movetext: Self::Movetext, error: PgnError) -> Self::Error {
        drop(movetext);
        error.into()
    }
}
