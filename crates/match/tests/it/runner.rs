//! The runner's checks before a game starts: nothing is spawned for a game that cannot be.

use std::sync::Arc;

use caissa_board::Color;
use caissa_match::openings::Openings;
use caissa_match::referee::{Limits, RefereeError, Settings};
use caissa_match::runner::{EngineConfig, MatchConfig, play_game, run};
use caissa_match::schedule::{Format, Schedule};
use caissa_uci::client::{EngineCommand, Stamp};

fn engine(name: &str, limits: Limits) -> EngineConfig {
    EngineConfig {
        name: name.into(),
        // Never started: the game is refused first.
        command: EngineCommand {
            program: "/nonexistent/engine".into(),
            ..EngineCommand::default()
        },
        limits,
        ..EngineConfig::default()
    }
}

/// A search limit of depth 1.
const DEPTH_1: Limits = Limits {
    nodes: None,
    depth: Some(1),
    movetime: None,
};

/// A match of two `engines` without clocks, `games` games from the standard start.
fn untimed(engines: Vec<EngineConfig>, games: u64) -> MatchConfig {
    MatchConfig {
        engines,
        schedule: Schedule::new(2, Format::RoundRobin, games),
        openings: Openings::from_epd("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
            .unwrap(),
        settings: Settings::default(),
        margin_ms: 0,
        timeout_ms: 100,
        event: "test".into(),
    }
}

/// Without clocks, an engine without a limit would get a bare `go`, a search without end.
#[test]
fn an_untimed_game_needs_each_engine_limited() {
    let config = untimed(
        vec![
            engine("limited", DEPTH_1),
            engine("unlimited", Limits::default()),
        ],
        2,
    );
    assert_eq!(config.settings.time_control, None);
    let stamp: Stamp = Arc::new(|| 0);
    let games: Vec<_> = config.schedule.iter().collect();
    let unlimited_color = |g: &caissa_match::schedule::Scheduled| {
        if g.white == 1 {
            Color::White
        } else {
            Color::Black
        }
    };
    for game in games {
        let error = play_game(&config, game, &stamp).unwrap_err();
        assert_eq!(error, RefereeError::Unlimited(unlimited_color(&game)));
        let text = error.to_string();
        assert!(
            text.contains("neither a time control nor a limit"),
            "{text}"
        );
    }
}

/// A schedule of any length costs no memory of its own: its games are taken one at a time as
/// threads come free (here each ends at once, its engines not starting), and the match stops
/// when asked, after the games under way.
#[test]
fn a_schedule_of_any_length_is_played_game_by_game() {
    let config = untimed(vec![engine("a", DEPTH_1), engine("b", DEPTH_1)], u64::MAX);
    assert_eq!(config.schedule.len(), u64::MAX);
    let stamp: Stamp = Arc::new(|| 0);
    let mut seen = 0;
    run(&config, config.schedule.iter(), 2, &stamp, |report| {
        assert!(report.is_ok(), "{report:?}");
        seen += 1;
        seen < 3
    });
    // The games finished before the stop reached the threads are handed over too: how many
    // depends on the threads' timing, a handful here (each game ends at once).
    assert!((3..1_000_000).contains(&seen), "{seen}");
}
