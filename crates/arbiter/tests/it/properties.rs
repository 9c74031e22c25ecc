//! Properties over seeded random event logs (no extra dependency: a xorshift generator).
//!
//! - Time accounting is exact for every kind of control and any order of events: each
//!   player's time is the base, plus the periods added, plus the bonuses earned, plus the
//!   penalties and time given, minus the time used (hourglass: plus the opponent's time used).
//! - Replaying a log is deterministic: the same log gives the same verdict and PGN.
//! - No log makes the arbiter panic, and its record is always PGN the notation crate reads
//!   (`CAISSA_ARBITER_LOGS=N` replays N random logs instead of 400).

use crate::common::*;
use caissa_arbiter::{ArbiterAction, ClaimKind, Event, EventKind, replay};
use caissa_board::{ByColor, Color, Role, Square};
use caissa_game::Game;
use caissa_notation::pgn::{GameTreeBuilder, Reader};
use caissa_notation::uci::UciMove;

/// How a control credits a completed move of `used` ms.
#[derive(Clone, Copy, Debug)]
enum Credit {
    None,
    Increment(u64),
    /// Simple or Bronstein delay: `min(used, d)` back.
    Delay(u64),
    Hourglass,
}

struct Control {
    pgn: &'static str,
    base: u64,
    credit: Credit,
    /// (moves completed, time added) for each later period.
    periods: &'static [(u32, u64)],
}

const CONTROLS: [Control; 7] = [
    Control {
        pgn: "300",
        base: 300_000,
        credit: Credit::None,
        periods: &[],
    },
    Control {
        pgn: "300+2",
        base: 300_000,
        credit: Credit::Increment(2_000),
        periods: &[],
    },
    Control {
        pgn: "300d2",
        base: 300_000,
        credit: Credit::Delay(2_000),
        periods: &[],
    },
    Control {
        pgn: "300b2",
        base: 300_000,
        credit: Credit::Delay(2_000),
        periods: &[],
    },
    Control {
        pgn: "3/60+1:2/30+1:300+1",
        base: 60_000,
        credit: Credit::Increment(1_000),
        periods: &[(3, 30_000), (5, 300_000)],
    },
    Control {
        pgn: "*300",
        base: 300_000,
        credit: Credit::Hourglass,
        periods: &[],
    },
    Control {
        pgn: "0.5+0.25",
        base: 500,
        credit: Credit::Increment(250),
        periods: &[],
    },
];

/// The expected clocks, kept alongside the log.
struct Model {
    remaining: ByColor<i64>,
    moves: ByColor<u32>,
    since: u64,
}

impl Model {
    fn complete(&mut self, control: &Control, by: Color, t: u64) {
        let used = t - self.since;
        self.since = t;
        self.moves[by] += 1;
        let used_i = used as i64;
        self.remaining[by] -= used_i;
        match control.credit {
            Credit::None => {}
            Credit::Increment(inc) => self.remaining[by] += inc as i64,
            Credit::Delay(d) => self.remaining[by] += used.min(d) as i64,
            Credit::Hourglass => self.remaining[!by] += used_i,
        }
        for &(after, add) in control.periods {
            if self.moves[by] == after {
                self.remaining[by] += add as i64;
            }
        }
    }
}

#[test]
fn time_accounting_is_exact() {
    for (ci, control) in CONTROLS.iter().enumerate() {
        for seed in 0..40u64 {
            let mut rng = Rng::new(seed * 31 + ci as u64);
            let separate = rng.below(2) == 0;
            // The smallest control only survives very quick moves.
            let max_step = if control.base < 1_000 { 100 } else { 2_000 };
            let mut log = Log::new(
                "fide-standard illegal_moves_to_lose=none touch_move=off",
                control.pgn,
            );
            if separate {
                log = log.separate_presses();
            }
            let mut model = Model {
                remaining: ByColor::new_with(|_| control.base as i64),
                moves: ByColor::default(),
                since: 0,
            };
            let mut game = Game::standard();
            let mut t = 0u64;
            let plies = 10 + rng.below(30);
            for _ in 0..plies {
                let by = game.position().turn();
                // An illegal move binds the king (7.5.1): the mover may no longer claim (9.4).
                let mut touched = false;
                // Some events that change no clock, or give time, before the move.
                for _ in 0..rng.below(3) {
                    t += rng.below(max_step / 4);
                    match rng.below(5) {
                        0 => log = log.offer(t, by),
                        1 => log = log.touch(t, !by, "e4"),
                        2 => {
                            let ms = rng.below(5_000);
                            let player = if rng.below(2) == 0 { W } else { B };
                            model.remaining[player] += ms as i64;
                            log = log.ruling(t, ArbiterAction::AddTime { player, ms });
                        }
                        3 if game.claims().is_empty() => {
                            // An incorrect claim: two minutes to the claimant's opponent.
                            let claimant = if rng.below(2) == 0 { W } else { B };
                            if !(claimant == by && touched) {
                                model.remaining[!claimant] += 120_000;
                            }
                            log = log.claim(t, claimant, ClaimKind::Threefold(None));
                        }
                        _ => {
                            // An illegal move (the king two squares forward is never legal):
                            // penalised at once, the press undone.
                            let king = game.position().king(by);
                            let to = king.offset(0, if by == W { 2 } else { -2 });
                            let Some(to) = to else { continue };
                            model.remaining[!by] += 120_000;
                            touched = true;
                            let mv = UciMove::Normal {
                                from: king,
                                to,
                                promotion: None,
                            };
                            log = log.event(
                                t,
                                EventKind::Move {
                                    by,
                                    mv: caissa_arbiter::MoveText::Uci(mv),
                                    two_hands: false,
                                },
                            );
                            if separate {
                                log = log.press(t, by);
                            }
                        }
                    }
                }
                let legal = game.position().legal_moves();
                let m = legal[rng.below(legal.len() as u64) as usize];
                t += rng.below(max_step);
                log = log.mv(t, by, &UciMove::from_move(game.position(), m).to_string());
                if separate {
                    t += rng.below(max_step / 4);
                    log = log.press(t, by);
                }
                model.complete(control, by, t);
                game.play_unchecked(m);
                if game.outcome().is_some() {
                    break;
                }
            }
            let verdict = log.verdict();
            let clock = verdict.clock_ms.expect("a clock");
            if verdict.outcome.is_some() {
                // The random game ended by itself: the last move earned no press.
                continue;
            }
            assert_eq!(
                (clock.white as i64, clock.black as i64),
                (model.remaining.white, model.remaining.black),
                "{} seed {seed} separate {separate}\n{verdict}",
                control.pgn
            );
        }
    }
}

/// A random event of any kind, often nonsense.
fn random_event(rng: &mut Rng, game: &Game, t: u64) -> Event {
    let color = |rng: &mut Rng| if rng.below(2) == 0 { W } else { B };
    let square = |rng: &mut Rng| Square::new(rng.below(64) as u32).expect("a square");
    let by = if rng.below(4) == 0 {
        color(rng)
    } else {
        game.position().turn()
    };
    let mv = |rng: &mut Rng| {
        let legal = game.position().legal_moves();
        if !legal.is_empty() && rng.below(3) > 0 {
            let m = legal[rng.below(legal.len() as u64) as usize];
            caissa_arbiter::MoveText::Uci(UciMove::from_move(game.position(), m))
        } else {
            let promotion = [None, Some(Role::Queen), Some(Role::Knight)][rng.below(3) as usize];
            caissa_arbiter::MoveText::Uci(UciMove::Normal {
                from: square(rng),
                to: square(rng),
                promotion,
            })
        }
    };
    let kind = match rng.below(20) {
        0..=7 => EventKind::Move {
            by,
            mv: mv(rng),
            two_hands: rng.below(10) == 0,
        },
        8 => EventKind::Press { by },
        9 => EventKind::Touch {
            by,
            square: square(rng),
        },
        10 => EventKind::Release {
            by,
            from: None,
            to: square(rng),
        },
        11 => EventKind::Promote {
            by,
            role: Role::Knight,
            square: square(rng),
        },
        12 => EventKind::OfferDraw { by },
        13 => EventKind::AcceptDraw { by },
        14 => EventKind::DeclineDraw { by },
        15 => EventKind::Claim {
            by,
            claim: match rng.below(6) {
                0 => ClaimKind::Threefold(None),
                1 => ClaimKind::Fifty(Some(mv(rng))),
                2 => ClaimKind::TouchMove,
                3 => ClaimKind::Flag,
                4 => ClaimKind::IllegalMove,
                _ => ClaimKind::Threefold(Some(mv(rng))),
            },
        },
        16 => EventKind::Flag { by },
        17 => EventKind::Adjust {
            by,
            square: square(rng),
        },
        18 => EventKind::Arbiter(match rng.below(5) {
            0 => ArbiterAction::AddTime {
                player: by,
                ms: rng.below(10_000),
            },
            1 => ArbiterAction::IllegalMove { player: by },
            2 => ArbiterAction::Warning { player: by },
            3 => ArbiterAction::WrongSetup {
                misplaced: Some(square(rng)),
            },
            _ => ArbiterAction::ColoursReversed,
        }),
        _ => EventKind::Resign { by },
    };
    Event::new(t, kind)
}

#[test]
fn replays_are_deterministic_and_records_are_pgn() {
    let profiles = [
        "fide-standard",
        "fide-rapid",
        "fide-rapid-unsupervised",
        "fide-blitz",
        "fide-blitz-unsupervised",
        "online",
        "club",
        "club first_flag_indicator=false",
    ];
    let controls = ["30", "10+1", "5d2", "5b2", "2/5:3/5:10", "*20", "-"];
    // CAISSA_ARBITER_LOGS=N replays more logs (deeper runs).
    let logs = std::env::var("CAISSA_ARBITER_LOGS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(400u64);
    let mut finished = 0;
    for seed in 0..logs {
        let mut rng = Rng::new(seed);
        let profile = profiles[rng.below(profiles.len() as u64) as usize];
        let control = controls[rng.below(controls.len() as u64) as usize];
        let mut log = Log::new(profile, control);
        if rng.below(3) == 0 {
            log = log.separate_presses();
        }
        // The arbiter's game, followed as the log grows, to make plausible moves.
        let mut arbiter = arbiter_for(&log);
        let mut t = 0;
        for _ in 0..rng.below(120) {
            t += rng.below(1_500);
            let event = random_event(&mut rng, arbiter.game(), t);
            let _ = arbiter.handle(&event);
            log.events.push(event);
        }
        let first = replay(&log.events);
        let second = replay(&log.events);
        assert_eq!(first, second, "seed {seed}");
        let verdict = first.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        finished += usize::from(verdict.outcome.is_some());
        let game = Reader::new(verdict.pgn.as_bytes())
            .read_game(&mut GameTreeBuilder)
            .expect("a game")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{}", verdict.pgn));
        // PGN has no token for 0-0 (both lose): the record says `*`.
        let result = verdict.outcome.map_or("*", |o| o.result.as_str());
        let expected = if result == "0-0" { "*" } else { result };
        assert_eq!(game.tags.get("Result"), Some(expected));
        if let Some(outcome) = verdict.outcome {
            assert!(verdict.ended_at_ms.is_some());
            assert_eq!(
                verdict
                    .decisions
                    .iter()
                    .filter(|d| matches!(d.ruling, caissa_arbiter::Ruling::GameOver(_)))
                    .count(),
                1
            );
            assert!(
                verdict
                    .decisions
                    .iter()
                    .any(|d| d.article == outcome.article)
            );
        }
    }
    assert!(finished > 50, "only {finished} games ended");
}

/// An arbiter for the start of `log`.
fn arbiter_for(log: &Log) -> caissa_arbiter::Arbiter {
    match &log.events[0].kind {
        EventKind::Start(start) => caissa_arbiter::Arbiter::new(start, 0).expect("a start"),
        _ => unreachable!("the first event is the start"),
    }
}

#[test]
fn every_prefix_of_a_log_replays() {
    // Logs cut anywhere are still logs: the arbiter never needs the rest.
    let mut rng = Rng::new(7);
    let mut log = Log::new("fide-blitz", "180+2").separate_presses();
    let mut arbiter = arbiter_for(&log);
    let mut t = 0;
    for _ in 0..200 {
        t += rng.below(2_000);
        let event = random_event(&mut rng, arbiter.game(), t);
        let _ = arbiter.handle(&event);
        log.events.push(event);
    }
    for len in 1..=log.events.len() {
        replay(&log.events[..len]).unwrap_or_else(|e| panic!("{len}: {e}"));
    }
}
