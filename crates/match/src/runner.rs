//! The IO edge: games between engine processes, and a match on worker threads.
//!
//! [`play_game`] starts both engines of a game (each game its own pair of processes, so an
//! engine that crashed is simply started again for the next game), handshakes, sets their
//! options, and plays: each `go` is built from the arbiter's clock, each `bestmove` checked and
//! handed to the [`Referee`] with the time the engine thought, measured on the caller's clock
//! ([`Stamp`], microseconds: this module reads no clock of its own). Every failure of an engine
//! is a [`Forfeit`] of the game, never an error of the match. The time charged for a move is
//! the time from writing `go` to reading `bestmove`, less [`MatchConfig::margin_ms`] (process
//! latency); the runner's own time between a `bestmove` and the next `go` is charged to no one
//! and reported per move ([`GameReport::overhead_us`]).
//!
//! [`run`] plays games on `concurrency` threads and hands each finished game to the caller,
//! which may stop the match (an SPRT decision): games in progress then finish and are handed
//! over too.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use caissa_arbiter::TimeControl;
use caissa_board::{ByColor, Color};
use caissa_uci::client::{Client, ClientError, EngineCommand, Stamp};
use caissa_uci::protocol::GuiCommand;

use crate::openings::Openings;
use crate::referee::{Forfeit, Limits, Referee, RefereeError, Settings, Termination};
use crate::schedule::{Schedule, Scheduled};

/// An engine of a match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// Its name in the PGN and the results.
    pub name: String,
    /// How to start it.
    pub command: EngineCommand,
    /// UCI options set after the handshake, in order (`None`: a button).
    pub options: Vec<(String, Option<String>)>,
    /// Its own search limits.
    pub limits: Limits,
    /// Its own time control (time odds), `None` for the match's ([`Settings::time_control`]);
    /// it follows the engine whichever colour it plays.
    pub time_control: Option<TimeControl>,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines.
    pub engines: Vec<EngineConfig>,
    /// The games.
    pub schedule: Schedule,
    /// The book.
    pub openings: Openings,
    /// How games are judged.
    pub settings: Settings,
    /// Milliseconds of each move not charged to the engine (pipe and scheduling latency).
    pub margin_ms: u64,
    /// How long to wait for an answer when no clock decides (handshake, `isready`, a search on
    /// limits alone, beyond its `movetime`).
    pub timeout_ms: u64,
    /// The PGN `Event` tag.
    pub event: String,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// Which game.
    pub scheduled: Scheduled,
    /// How it ended.
    pub termination: Termination,
    /// Its PGN.
    pub pgn: String,
    /// The runner's time per engine move, from reading one `bestmove` to writing the next
    /// `go`, in microseconds.
    pub overhead_us: Vec<u64>,
}

/// Starts one engine and gets it ready for a game.
fn start(
    engine: &EngineConfig,
    chess960: bool,
    stamp: &Stamp,
    timeout: Duration,
) -> Result<Client, ClientError> {
    let mut client = Client::spawn(&engine.command, Stamp::clone(stamp))?;
    client.handshake(timeout)?;
    for (name, value) in &engine.options {
        client.set_option(name, value.as_deref())?;
    }
    if chess960 {
        client.set_option("UCI_Chess960", Some("true"))?;
    }
    client.send(&GuiCommand::UciNewGame)?;
    client.sync(timeout)?;
    Ok(client)
}

/// The forfeit an engine's error means.
fn forfeit(error: &ClientError) -> Forfeit {
    match error {
        ClientError::Spawn(why) => Forfeit::Start(why.clone()),
        ClientError::Exited { .. } => Forfeit::Exited,
        ClientError::Timeout { .. } | ClientError::Unread { .. } => Forfeit::Hang,
        ClientError::Malformed { line, .. } => Forfeit::Malformed(line.clone()),
        ClientError::NoMove { .. } => Forfeit::Malformed("bestmove (none)".into()),
        ClientError::IllegalMove { best, .. } => Forfeit::IllegalMove(best.to_string()),
        _ => Forfeit::Garbage,
    }
}

/// Plays game `scheduled` of `config`.
///
/// # Errors
///
/// [`RefereeError`] when the game cannot start (its opening, the time control, an engine
/// with neither a time control nor a limit): no engine is to blame then.
pub fn play_game(
    config: &MatchConfig,
    scheduled: Scheduled,
    stamp: &Stamp,
) -> Result<GameReport, RefereeError> {
    let engines = [
        &config.engines[scheduled.white],
        &config.engines[scheduled.black],
    ];
    let names = [engines[0].name.as_str(), engines[1].name.as_str()];
    let opening = config.openings.get(scheduled.opening);
    let round = scheduled.number + 1;
    let report = |referee: &Referee, overhead_us| GameReport {
        scheduled,
        termination: referee.ending().cloned().unwrap_or(Termination::Forfeit {
            loser: Color::White,
            reason: Forfeit::Hang,
        }),
        pgn: referee.pgn(&config.event, round, names),
        overhead_us,
    };
    let own = ByColor {
        white: engines[0].time_control.as_ref(),
        black: engines[1].time_control.as_ref(),
    };
    let mut referee = Referee::with_time_odds(&opening, &config.settings, names, own)?;
    // Without clocks, an engine's limits end its searches: a bare `go` would not.
    if referee.time_left_ms().is_none()
        && let Some(color) = [Color::White, Color::Black]
            .into_iter()
            .zip(engines)
            .find_map(|(color, e)| (e.limits == Limits::default()).then_some(color))
    {
        return Err(RefereeError::Unlimited(color));
    }
    let timeout = Duration::from_millis(config.timeout_ms);
    let mut clients = Vec::with_capacity(2);
    for (color, engine) in [Color::White, Color::Black].into_iter().zip(engines) {
        match start(engine, opening.chess960, stamp, timeout) {
            Ok(client) => clients.push(client),
            Err(error) => {
                referee.forfeit(color, Forfeit::Start(error.to_string()));
                return Ok(report(&referee, Vec::new()));
            }
        }
    }
    let mut overhead_us = Vec::new();
    let mut last_received = None;
    while referee.ending().is_none() {
        let turn = referee.turn();
        let side = usize::from(turn == Color::Black);
        let limits = &engines[side].limits;
        let go = referee.go(limits);
        let wait_ms = match referee.time_left_ms() {
            Some(left) => left.saturating_add(config.margin_ms).saturating_add(1),
            None => limits
                .movetime
                .unwrap_or(0)
                .saturating_add(config.timeout_ms),
        };
        let asked = stamp();
        let result = clients[side].play(
            referee.game(),
            referee.castling_mode(),
            &go,
            Duration::from_millis(wait_ms),
        );
        match result {
            Ok((m, search)) => {
                if let Some(received) = last_received {
                    overhead_us.push(search.sent_us.saturating_sub(received));
                }
                last_received = Some(search.received_us);
                let thought_ms = (search.received_us.saturating_sub(search.sent_us) + 500) / 1000;
                let charged = thought_ms.saturating_sub(config.margin_ms);
                referee.play(m, charged, search.info.as_ref());
            }
            Err(ClientError::Timeout { .. }) => {
                let waited_ms = stamp().saturating_sub(asked) / 1000;
                let charged = waited_ms.max(wait_ms).saturating_sub(config.margin_ms);
                referee.time_out(charged);
            }
            Err(error) => {
                referee.forfeit(turn, forfeit(&error));
            }
        }
    }
    for client in clients {
        client.quit(Duration::from_millis(200));
    }
    Ok(report(&referee, overhead_us))
}

/// Plays the games `games` of `config` on `concurrency` threads, and hands each finished game
/// (or the error of one that could not start) to `on_game` on the calling thread, in the order
/// they finish; `on_game` returns `false` to stop the match (the games in progress finish and
/// are handed over too). The games are taken from `games` one at a time as threads come free,
/// so a schedule of any length costs no memory of its own.
pub fn run(
    config: &MatchConfig,
    games: impl Iterator<Item = Scheduled> + Send,
    concurrency: usize,
    stamp: &Stamp,
    mut on_game: impl FnMut(Result<GameReport, RefereeError>) -> bool,
) {
    let next = Mutex::new(games);
    let stop = AtomicBool::new(false);
    let (sender, reports) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let Some(game) = next.lock().ok().and_then(|mut games| games.next()) else {
                        return;
                    };
                    if sender.send(play_game(config, game, stamp)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        for report in reports {
            if !on_game(report) {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
}
