//! The engine side: reading the GUI's commands as typed requests, with the game already set up.
//!
//! [`EngineLoop`] reads lines from the GUI (any `BufRead`, usually stdin) and gives one
//! [`Request`] per command. It applies `position ... moves ...` itself, each move checked for
//! legality against the position it is played in, so that the engine finds the game ready in
//! [`EngineLoop::game`]; it follows `setoption name UCI_Chess960` for the castling convention;
//! and it turns a `go` command's clock fields into a [`TimeBudget`] for the side to move. Lines
//! that do not read, and positions that are not legal, are requests too: an engine reports them
//! (`info string`) and goes on, as the protocol asks. Answers are [`EngineMessage`]s written
//! with `writeln!`.
//!
//! [`EngineMessage`]: crate::protocol::EngineMessage

use std::io::{self, BufRead};

use caissa_board::Color;
use caissa_game::{Game, PlayError};
use caissa_movegen::{CastlingMode, Position, PositionError};
use caissa_notation::uci::{UciError, UciMove};

use caissa_notation::lines::{LineRead, Overlong, read_line};

use crate::MAX_LINE_BYTES;
use crate::protocol::{Go, GuiCommand, ParseUciLineError, Register, SetPosition};

/// What the GUI asked for, with positions applied and clocks turned into a budget.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Request {
    /// `uci`: answer with `id`, `option`s and `uciok`.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption`. `UCI_Chess960` has already been applied to the castling convention.
    SetOption {
        /// The option's name.
        name: String,
        /// Its value (none for a button).
        value: Option<String>,
    },
    /// `register`.
    Register(Register),
    /// `ucinewgame`.
    NewGame,
    /// `position`: [`EngineLoop::game`] now holds the game.
    Position,
    /// `position` that could not be set up; the previous game is kept.
    IllegalPosition(SetPositionError),
    /// `go`, with the budget for the side to move when the GUI gave times.
    Go {
        /// The command.
        go: Go,
        /// How long to think, if `go` gave a clock or a move time.
        budget: Option<TimeBudget>,
    },
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`, or the end of the input.
    Quit,
    /// A line that is not a command.
    Invalid(ParseUciLineError),
    /// A line longer than [`crate::MAX_LINE_BYTES`], skipped.
    LineTooLong,
}

/// A `position` command that does not give a legal game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetPositionError {
    /// The FEN is not a legal position.
    #[error("the FEN is not a legal position: {0}")]
    Position(PositionError),
    /// A move that is not legal where it is played.
    #[error("move {index} ({mv}) is not legal: {reason}")]
    Move {
        /// Its index in the `moves` list, from 0.
        index: usize,
        /// The move.
        mv: UciMove,
        /// Why.
        reason: String,
    },
}

/// How long to think for one move, from the `go` command's clock: aim for `target_ms`, never
/// pass `limit_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeBudget {
    /// The time to aim for, in milliseconds.
    pub target_ms: u64,
    /// The time not to pass, in milliseconds (below the time left on the clock).
    pub limit_ms: u64,
}

impl TimeBudget {
    /// Moves assumed left when `go` gives no `movestogo`.
    pub const DEFAULT_MOVES_TO_GO: u64 = 30;

    /// Time kept in reserve against process and pipe latency, in milliseconds (at most a tenth
    /// of the time left).
    pub const RESERVE_MS: u64 = 30;

    /// The budget for `turn` under `go`: `movetime` exactly (less the reserve); otherwise a
    /// share of the time left (`time / movestogo + 3/4 of the increment`), at most the time
    /// left less the reserve, with a limit of three targets. `None` when `go` gives neither
    /// (depth, nodes, mate or infinite searches).
    #[must_use]
    pub fn from_go(go: &Go, turn: Color) -> Option<TimeBudget> {
        if let Some(movetime) = go.movetime {
            let limit = movetime.saturating_sub(Self::RESERVE_MS.min(movetime / 10));
            return Some(TimeBudget {
                target_ms: limit,
                limit_ms: limit,
            });
        }
        let (time, inc) = match turn {
            Color::White => (go.wtime?, go.winc),
            Color::Black => (go.btime?, go.binc),
        };
        let time = u64::try_from(time).unwrap_or(0);
        let inc = inc.and_then(|i| u64::try_from(i).ok()).unwrap_or(0);
        let moves = go
            .movestogo
            .map_or(Self::DEFAULT_MOVES_TO_GO, |m| u64::from(m).max(1));
        let usable = time.saturating_sub(Self::RESERVE_MS.min(time / 10));
        let target = (time / moves)
            .saturating_add(inc.saturating_mul(3) / 4)
            .min(usable);
        Some(TimeBudget {
            target_ms: target,
            limit_ms: target.saturating_mul(3).min(usable),
        })
    }
}

/// Reads a GUI's commands as [`Request`]s and keeps the game they set up.
#[derive(Debug)]
pub struct EngineLoop<R> {
    input: R,
    /// The line being read, as bytes (invalid UTF-8 is replaced when it is parsed).
    line: Vec<u8>,
    game: Game,
    mode: CastlingMode,
}

impl<R: BufRead> EngineLoop<R> {
    /// A loop reading `input`, with the standard starting position.
    pub fn new(input: R) -> EngineLoop<R> {
        EngineLoop {
            input,
            line: Vec::new(),
            game: Game::standard(),
            mode: CastlingMode::Standard,
        }
    }

    /// The game the last legal `position` command set up.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The castling convention (`UCI_Chess960`).
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The UCI form of `m`, a legal move of the current position, in the current convention.
    pub fn uci(&self, m: caissa_movegen::Move) -> UciMove {
        UciMove::from_move_in_mode(m, self.mode)
    }

    /// The next request; [`Request::Quit`] at the end of the input.
    ///
    /// # Errors
    ///
    /// The input's read errors.
    pub fn next_request(&mut self) -> io::Result<Request> {
        let read = read_line(
            &mut self.input,
            &mut self.line,
            MAX_LINE_BYTES,
            Overlong::SkipRest,
        )?;
        match read {
            LineRead::Eof => return Ok(Request::Quit),
            LineRead::TooLong => return Ok(Request::LineTooLong),
            LineRead::Line => {}
        }
        let command = match GuiCommand::parse(&String::from_utf8_lossy(&self.line)) {
            Ok(parsed) => parsed.message,
            Err(e) => return Ok(Request::Invalid(e)),
        };
        Ok(self.apply(command))
    }

    /// What `command` asks for, applying it to the game and the convention.
    pub fn apply(&mut self, command: GuiCommand) -> Request {
        match command {
            GuiCommand::Uci => Request::Uci,
            GuiCommand::Debug(on) => Request::Debug(on),
            GuiCommand::IsReady => Request::IsReady,
            GuiCommand::SetOption { name, value } => {
                if name.eq_ignore_ascii_case("UCI_Chess960") {
                    self.mode = match value.as_deref() {
                        Some("true") => CastlingMode::Chess960,
                        _ => CastlingMode::Standard,
                    };
                }
                Request::SetOption { name, value }
            }
            GuiCommand::Register(r) => Request::Register(r),
            GuiCommand::UciNewGame => Request::NewGame,
            GuiCommand::Position(p) => match set_up(&p, self.mode) {
                Ok(game) => {
                    self.game = game;
                    Request::Position
                }
                Err(e) => Request::IllegalPosition(e),
            },
            GuiCommand::Go(go) => {
                let budget = TimeBudget::from_go(&go, self.game.position().turn());
                Request::Go { go, budget }
            }
            GuiCommand::Stop => Request::Stop,
            GuiCommand::PonderHit => Request::PonderHit,
            GuiCommand::Quit => Request::Quit,
        }
    }
}

/// The game a `position` command describes, every move checked.
///
/// # Errors
///
/// [`SetPositionError`] for an illegal FEN or the first illegal move.
pub fn set_up(p: &SetPosition, mode: CastlingMode) -> Result<Game, SetPositionError> {
    let start = match &p.fen {
        None => Position::from_setup(caissa_board::Setup::standard(), mode),
        Some(fen) => Position::from_setup(fen.0, mode),
    }
    .map_err(SetPositionError::Position)?;
    let mut game = Game::new(start);
    for (index, &mv) in p.moves.iter().enumerate() {
        let bad = |reason: String| SetPositionError::Move { index, mv, reason };
        let m = mv
            .to_move(game.position())
            .map_err(|e: UciError| bad(e.to_string()))?;
        game.play(m).map_err(|e: PlayError| bad(e.to_string()))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> Go {
        match GuiCommand::parse(line).unwrap().message {
            GuiCommand::Go(go) => go,
            other => panic!("{other:?}"),
        }
    }

    fn budget(line: &str, turn: Color) -> Option<(u64, u64)> {
        TimeBudget::from_go(&go(line), turn).map(|b| (b.target_ms, b.limit_ms))
    }

    #[test]
    fn budgets() {
        use Color::{Black, White};
        assert_eq!(budget("go movetime 1000", White), Some((970, 970)));
        assert_eq!(budget("go movetime 100", White), Some((90, 90)));
        assert_eq!(budget("go depth 5", White), None);
        assert_eq!(budget("go infinite", White), None);
        // 60 s / 30 + 3/4 of 1 s, limit three targets.
        let both = "go wtime 60000 btime 30000 winc 1000 binc 1000";
        assert_eq!(budget(both, White), Some((2750, 8250)));
        assert_eq!(budget(both, Black), Some((1750, 5250)));
        assert_eq!(
            budget("go wtime 1000 btime 1 movestogo 1", White),
            Some((970, 970))
        );
        // Out of time: nothing to spend; a negative clock counts as zero.
        assert_eq!(budget("go wtime -5 btime 1", White), Some((0, 0)));
        assert_eq!(budget("go wtime 5 btime 1 winc 100", White), Some((5, 5)));
        assert_eq!(
            budget("go wtime 5 btime 1 movestogo 0", White),
            Some((5, 5))
        );
        // An increment past what any clock holds is no overflow: the time left bounds it.
        assert_eq!(
            budget("go wtime 1000 btime 1 winc 9223372036854775807", White),
            Some((970, 970))
        );
    }

    #[test]
    fn positions_are_checked_move_by_move() {
        let mut engine = EngineLoop::new(
            &b"position startpos moves e2e4 e7e5 e1e2\nposition startpos moves e2e5\n\
               setoption name UCI_Chess960 value true\n\
               position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1h1\ngo\n"[..],
        );
        assert_eq!(engine.next_request().unwrap(), Request::Position);
        assert_eq!(engine.game().ply(), 3);
        let Request::IllegalPosition(e) = engine.next_request().unwrap() else {
            panic!("e2e5 is illegal")
        };
        assert_eq!(
            e.to_string(),
            "move 0 (e2e5) is not legal: illegal UCI move e2e5"
        );
        assert_eq!(engine.game().ply(), 3, "the previous game stays");
        assert!(matches!(
            engine.next_request().unwrap(),
            Request::SetOption { .. }
        ));
        assert_eq!(engine.castling_mode(), CastlingMode::Chess960);
        assert_eq!(engine.next_request().unwrap(), Request::Position);
        let castled = engine.game().last_move().unwrap();
        assert_eq!(engine.uci(castled).to_string(), "e1h1");
        assert!(matches!(
            engine.next_request().unwrap(),
            Request::Go { budget: None, .. }
        ));
        assert_eq!(engine.next_request().unwrap(), Request::Quit);
    }
}
