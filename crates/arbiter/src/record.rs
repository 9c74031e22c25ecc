//! The game's record: the moves that stand, each with the mover's clock after it, written as PGN
//! with the notation crate's writer.
//!
//! Tags: the seven tag roster (`Event`, `Site`, `Date` and `Round` as unknown, the players'
//! names if given), `Result`, `Termination`, `TimeControl` (the PGN form, `-` without a clock;
//! `WhiteTimeControl` and `BlackTimeControl` instead at time odds, see
//! [`crate::time_control::insert_pgn_tags`]),
//! and `SetUp`/`FEN` (plus `Variant "Chess960"`) for a game that does not start from the standard
//! position. Each move has a `[%clk h:mm:ss]` comment with the mover's time after it (with
//! decimals when the time is not whole seconds); a move that stood although illegal (A.5.2)
//! has a comment saying so. A cancelled game (7.2.1, 7.3) and a game both players lost (11.8)
//! have the result `*`, PGN having no token for them.

use std::time::Duration;

use caissa_board::ByColor;
use caissa_game::{GameResult, Outcome, Reason};
use caissa_movegen::Position;
use caissa_notation::pgn::{self, commands::Command};
use caissa_notation::san::SanPlus;

use crate::time_control::{self, TimeControl};

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    san: SanPlus,
    /// The mover's time after the move, once the move is completed.
    clock_ms: Option<u64>,
    /// A note for the reader.
    note: Option<&'static str>,
}

/// The moves that stand, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Record {
    entries: Vec<Entry>,
}

/// What the record is written with besides its moves.
pub(crate) struct Header<'a> {
    /// The start position, in Chess960 castling for a Chess960 game.
    pub(crate) start: &'a Position,
    pub(crate) time_controls: Option<&'a ByColor<TimeControl>>,
    pub(crate) names: [Option<&'a str>; 2],
    pub(crate) outcome: Option<Outcome>,
    /// The mover's time now, shown after the last move if its press has not come yet.
    pub(crate) unpressed_clock_ms: Option<u64>,
}

impl Record {
    /// Adds a move.
    pub(crate) fn push(&mut self, san: SanPlus, note: Option<&'static str>) {
        self.entries.push(Entry {
            san,
            clock_ms: None,
            note,
        });
    }

    /// The number of moves.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Keeps the first `len` moves (a move taken back under 7.5.1 or 4.8).
    pub(crate) fn truncate(&mut self, len: usize) {
        self.entries.truncate(len);
    }

    /// Sets the clock of the last move.
    pub(crate) fn set_clock(&mut self, ms: u64) {
        if let Some(last) = self.entries.last_mut() {
            last.clock_ms = Some(ms);
        }
    }

    /// Whether the last move's clock is still unknown (its press is pending).
    pub(crate) fn last_clock_missing(&self) -> bool {
        self.entries.last().is_some_and(|e| e.clock_ms.is_none())
    }

    /// The game as PGN (export format).
    pub(crate) fn to_pgn(&self, header: &Header<'_>) -> String {
        let mut game = pgn::GameTree::new();
        let [white, black] = header.names;
        game.tags.insert("White", white.unwrap_or("?"));
        game.tags.insert("Black", black.unwrap_or("?"));
        let marker = pgn::TerminationMarker::from_result(header.outcome.map(|o| o.result));
        game.tags.insert("Result", marker.as_str());
        game.termination_marker = Some(marker);
        game.tags.set_start(header.start);
        time_control::insert_pgn_tags(&mut game.tags, header.time_controls);
        game.tags.insert("Termination", termination(header.outcome));
        let mut parent = None;
        let last = self.entries.len().saturating_sub(1);
        for (i, entry) in self.entries.iter().enumerate() {
            let id = game.add_move(parent, entry.san);
            let clock_ms = match entry.clock_ms {
                None if i == last => header.unpressed_clock_ms,
                ms => ms,
            };
            let comment = match (clock_ms, entry.note) {
                (Some(ms), note) => {
                    let clk = Command::Clock(Duration::from_millis(ms)).to_string();
                    note.map_or_else(|| clk.clone(), |note| format!("{clk} {note}"))
                }
                (None, Some(note)) => note.to_owned(),
                (None, None) => String::new(),
            };
            if !comment.is_empty() {
                game.node_mut(id).comments.push(comment);
            }
            parent = Some(id);
        }
        game.to_export_string()
    }
}

/// The PGN `Termination` tag for an outcome (the standard's values).
fn termination(outcome: Option<Outcome>) -> &'static str {
    match outcome.map(|o| (o.result, o.reason)) {
        None => "unterminated",
        Some((GameResult::Cancelled, _)) => "abandoned",
        Some((_, Reason::TimeForfeit)) => "time forfeit",
        Some((_, Reason::IllegalMoves)) | Some((GameResult::BothLose, _)) => "rules infraction",
        Some((_, Reason::ArbiterDecision)) => "adjudication",
        Some(_) => "normal",
    }
}
