//! The runner's checks before a game starts: nothing is spawned for a game that cannot be.

use std::sync::Arc;

use caissa_board::Color;
use caissa_match::openings::Openings;
use caissa_match::referee::{Limits, RefereeError, Settings};
use caissa_match::runner::{EngineConfig, MatchConfig, play_game};
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

/// Without clocks, an engine without a limit would get a bare `go`, a search without end.
#[test]
fn an_untimed_game_needs_each_engine_limited() {
    let depth = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let config = MatchConfig {
        engines: vec![
            engine("limited", depth),
            engine("unlimited", Limits::default()),
        ],
        schedule: Schedule::new(2, Format::RoundRobin, 2),
        openings: Openings::from_epd("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -")
            .unwrap(),
        settings: Settings::default(),
        margin_ms: 0,
        timeout_ms: 100,
        event: "test".into(),
    };
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
