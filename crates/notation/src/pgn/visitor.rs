//! The [`Visitor`] trait: what a [`Reader`](super::Reader) calls while it reads a game.

use core::ops::ControlFlow;

use super::error::PgnError;
use super::types::{Location, Nag, Outcome, RawComment, RawTag, VariationChoice};
use crate::san::SanPlus;

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
///    variation), and [`outcome`](Visitor::outcome) at most once, last but for comments;
/// 5. [`end_game`](Visitor::end_game) once, which turns the `Movetext` into the
///    [`Output`](Visitor::Output); or, if the movetext is malformed,
///    [`end_malformed_game`](Visitor::end_malformed_game), and the reader returns the error.
///
/// The reader has checked the syntax up to each call: a `nag` or `begin_variation` always follows
/// a move of the same line, and every `begin_variation` that the visitor enters gets its
/// `end_variation`. But a call does not mean the game is well-formed to its end: if the reader
/// later finds an error, it hands the `Movetext` to `end_malformed_game` (or drops the `Tags`, for
/// an error in the tags) instead of calling `end_game`, and returns the error.
///
/// # Stopping early
///
/// Every call but `end_game` may return [`ControlFlow::Break`] with the game's output: the reader
/// then skips the rest of the game without looking at it closely (it still finds the game's end,
/// so the next game is read as usual) and returns that output. Variations can be skipped one by
/// one with [`VariationChoice::Skip`].
///
/// # Per-game state
///
/// The associated types carry a game's state from phase to phase, so the visitor itself needs no
/// fields reset between games: `begin_game` makes the `Tags`, `begin_movetext` consumes them to
/// make the `Movetext`, and `end_game` consumes that to make the `Output`.
pub trait Visitor {
    /// What the tag phase accumulates.
    type Tags;
    /// What the movetext phase accumulates.
    type Movetext;
    /// What a game produces.
    type Output;

    /// Called first for each game; `at` is where its first byte is.
    fn begin_game(&mut self, at: Location) -> ControlFlow<Self::Output, Self::Tags>;

    /// Called for each tag pair, like `[White "Deep Blue"]`; `at` is where its `[` is.
    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> ControlFlow<Self::Output> {
        let _ = (tags, name, value, at);
        ControlFlow::Continue(())
    }

    /// Called after the tags, before the movetext.
    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext>;

    /// Called for each move, like `Nf3+`; `at` is where it is written.
    fn san(
        &mut self,
        movetext: &mut Self::Movetext,
        san: SanPlus,
        at: Location,
    ) -> ControlFlow<Self::Output> {
        let _ = (movetext, san, at);
        ControlFlow::Continue(())
    }

    /// Called for each annotation glyph, like `$14` or `!?`, after the move it annotates.
    fn nag(&mut self, movetext: &mut Self::Movetext, nag: Nag) -> ControlFlow<Self::Output> {
        let _ = (movetext, nag);
        ControlFlow::Continue(())
    }

    /// Called for each comment, `{...}` or `;...`.
    fn comment(
        &mut self,
        movetext: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let _ = (movetext, comment);
        ControlFlow::Continue(())
    }

    /// Called for each `(`. The default skips the variation.
    fn begin_variation(
        &mut self,
        movetext: &mut Self::Movetext,
    ) -> ControlFlow<Self::Output, VariationChoice> {
        let _ = movetext;
        ControlFlow::Continue(VariationChoice::Skip)
    }

    /// Called for each `)` that closes a variation the visitor entered.
    fn end_variation(&mut self, movetext: &mut Self::Movetext) -> ControlFlow<Self::Output> {
        let _ = movetext;
        ControlFlow::Continue(())
    }

    /// Called for the game termination marker, like `1-0` or `*`.
    fn outcome(
        &mut self,
        movetext: &mut Self::Movetext,
        outcome: Outcome,
    ) -> ControlFlow<Self::Output> {
        let _ = (movetext, outcome);
        ControlFlow::Continue(())
    }

    /// Called last for a well-formed game.
    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output;

    /// Called instead of [`end_game`](Visitor::end_game) when the movetext turns out to be
    /// malformed, with the state so far and the error that [`Reader::read_game`] is about to
    /// return. The default drops the state; a visitor may keep what it needs (the moves before
    /// the error, say). Not called for errors in the tags.
    ///
    /// [`Reader::read_game`]: super::Reader::read_game
    fn end_malformed_game(&mut self, movetext: Self::Movetext, error: &PgnError) {
        let _ = (movetext, error);
    }
}
