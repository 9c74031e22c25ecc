//! serde (feature `serde`): every event written with serde is exactly a line of the JSON-lines
//! log `caissa arbitrate` reads, and reads back as itself; a log written event by event replays
//! to the verdict of the events; time controls, rules, clocks and game results read back what
//! they write.

use caissa_arbiter::json::{EventLog, arbitrate, parse_event};
use caissa_arbiter::{
    ArbiterAction, Article, Bonus, ClaimKind, Clock, Color, Event, EventKind, Fen, GameResult,
    MoveText, Outcome, Period, PeriodTrigger, Presses, Profile, Reason, Role, Rules, Square, Start,
    TimeControl, Verdict, replay,
};

use crate::common::{Rng, random_moves};

const SQUARES: [&str; 6] = ["e2", "e4", "g1", "f3", "e7", "a8"];
const MOVES: [&str; 8] = ["e4", "Nf3", "exd5", "e8=Q", "O-O", "g1f3", "e7e8q", "e8"];
const CONTROLS: [&str; 6] = [
    "180+2",
    "40/5400+30:1800+30",
    "*60",
    "300d5",
    "300b5@3",
    "0.5",
];
const RULES: [&str; 3] = [
    "fide-blitz",
    "club illegal_moves_to_lose=2",
    "online penalty_ms=5",
];

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

fn random_event(rng: &mut Rng) -> Event {
    let by = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    let square: Square = pick(rng, &SQUARES).parse().unwrap();
    let mv: MoveText = pick(rng, &MOVES).parse().unwrap();
    let some = |rng: &mut Rng| rng.below(2) == 0;
    let kind = match rng.below(17) {
        0 => {
            let time_control = some(rng).then(|| {
                let mut control: TimeControl = pick(rng, &CONTROLS).parse().unwrap();
                if some(rng) {
                    control.trigger = PeriodTrigger::OnFlag;
                }
                control
            });
            // Time odds: Black's own control, on White's trigger (a line has one trigger).
            let black_time_control = time_control.as_ref().filter(|_| some(rng)).map(|white| {
                let mut control: TimeControl = pick(rng, &CONTROLS).parse().unwrap();
                control.trigger = white.trigger;
                control
            });
            EventKind::Start(Start {
                time_control,
                black_time_control,
                rules: pick(rng, &RULES).parse().unwrap(),
                fen: some(rng).then(|| "4k3/8/8/8/8/8/8/1N2KN2 w - - 3 9".parse::<Fen>().unwrap()),
                chess960: some(rng),
                presses: [None, Some(Presses::WithMove), Some(Presses::Separate)]
                    [rng.below(3) as usize],
                white: some(rng).then(|| "Ann \"A\" Ö".to_owned()),
                black: some(rng).then(String::new),
            })
        }
        1 => EventKind::Touch { by, square },
        2 => EventKind::Adjust { by, square },
        3 => EventKind::Release {
            by,
            from: some(rng).then_some(Square::H1),
            to: square,
        },
        4 => EventKind::Promote {
            by,
            role: *pick(rng, &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight]),
            square,
        },
        5 => EventKind::Move {
            by,
            mv,
            two_hands: some(rng),
        },
        6 => EventKind::Press { by },
        7 => EventKind::OfferDraw { by },
        8 => EventKind::AcceptDraw { by },
        9 => EventKind::DeclineDraw { by },
        10 => EventKind::WithdrawDraw { by },
        11 => EventKind::Claim {
            by,
            claim: match rng.below(5) {
                0 => ClaimKind::Threefold(some(rng).then_some(mv)),
                1 => ClaimKind::Fifty(some(rng).then_some(mv)),
                2 => ClaimKind::TouchMove,
                3 => ClaimKind::Flag,
                _ => ClaimKind::IllegalMove,
            },
        },
        12 => EventKind::Resign { by },
        13 => EventKind::Flag { by },
        _ => EventKind::Arbiter(match rng.below(6) {
            0 => ArbiterAction::AddTime {
                player: by,
                ms: rng.below(1 << 40),
            },
            1 => ArbiterAction::Warning { player: by },
            2 => ArbiterAction::IllegalMove { player: by },
            3 => ArbiterAction::ColoursReversed,
            4 => ArbiterAction::WrongSetup {
                misplaced: some(rng).then_some(square),
            },
            _ => ArbiterAction::Declare {
                result: *pick(
                    rng,
                    &[
                        GameResult::WhiteWins,
                        GameResult::BlackWins,
                        GameResult::Draw,
                        GameResult::BothLose,
                        GameResult::Cancelled,
                    ],
                ),
                article: some(rng).then_some(Article::constant("11.8")),
            },
        }),
    };
    Event::new(rng.below(1 << 40), kind)
}

#[test]
fn every_event_is_a_line_of_the_log_and_reads_back() {
    let mut rng = Rng::new(12);
    for _ in 0..5_000 {
        let event = random_event(&mut rng);
        let line = serde_json::to_string(&event).expect("an event line");
        assert!(!line.contains('\n'), "{line}");
        // The log's reader reads the line as the event...
        assert_eq!(parse_event(&line, 0).as_ref(), Ok(&event), "{line}");
        // ... and so does serde.
        assert_eq!(
            serde_json::from_str::<Event>(&line).ok(),
            Some(event),
            "{line}"
        );
    }
    let king = Event::new(
        0,
        EventKind::Promote {
            by: Color::White,
            role: Role::King,
            square: Square::E8,
        },
    );
    assert!(serde_json::to_string(&king).is_err());
}

#[test]
fn a_log_written_event_by_event_replays_to_the_same_verdict() {
    for seed in 0..20 {
        let moves = random_moves(seed, 30);
        let mut rng = Rng::new(seed);
        let start = Start {
            time_control: Some("180+2".parse().unwrap()),
            rules: Rules::of(*pick(&mut rng, &Profile::ALL)),
            presses: Some(Presses::WithMove),
            ..Start::default()
        };
        let mut events = vec![Event::new(0, EventKind::Start(start))];
        let mut t = 0;
        for (i, uci) in moves.iter().enumerate() {
            t += 1 + rng.below(9_000);
            let by = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            if rng.below(4) == 0 {
                events.push(Event::new(t, EventKind::OfferDraw { by }));
            }
            let mv = uci.parse().unwrap();
            events.push(Event::new(
                t,
                EventKind::Move {
                    by,
                    mv,
                    two_hands: false,
                },
            ));
        }
        events.push(Event::new(t + 1, EventKind::Resign { by: Color::White }));
        let log: String = events
            .iter()
            .map(|e| serde_json::to_string(e).unwrap() + "\n")
            .collect();
        let read: Vec<Event> = EventLog::new(log.as_bytes())
            .map(|item| item.map(|(_, e)| e))
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(read, events);
        assert_eq!(
            arbitrate(&log).map(|(v, _)| v),
            Ok(replay(&events).unwrap())
        );
    }
}

#[test]
fn what_servers_store_reads_back() {
    for text in CONTROLS {
        let control: TimeControl = text.parse().unwrap();
        let json = serde_json::to_string(&control).unwrap();
        assert_eq!(
            serde_json::from_str::<TimeControl>(&json).ok(),
            Some(control),
            "{json}"
        );
    }
    let json = serde_json::to_string(&"180+2".parse::<TimeControl>().unwrap()).unwrap();
    assert_eq!(
        json,
        r#"{"periods":[{"moves":null,"base_ms":180000,"bonus":{"fischer":2000},"bonus_from_move":1}],"trigger":"on_move_count","hourglass":false}"#
    );
    for bad in [
        r#"{"periods":[],"trigger":"on_move_count","hourglass":false}"#,
        r#"{"periods":[{"moves":0,"base_ms":1,"bonus":"none","bonus_from_move":1}],"trigger":"on_flag","hourglass":false}"#,
        r#"{"periods":[{"moves":null,"base_ms":1,"bonus":{"fischer":1},"bonus_from_move":1}],"trigger":"on_flag","hourglass":true}"#,
        r#"{"periods":[{"moves":null,"base_ms":18446744073709551615,"bonus":"none","bonus_from_move":1}],"trigger":"on_flag","hourglass":false}"#,
    ] {
        assert!(serde_json::from_str::<TimeControl>(bad).is_err(), "{bad}");
    }
    for text in RULES {
        let rules: Rules = text.parse().unwrap();
        let json = serde_json::to_string(&rules).unwrap();
        assert_eq!(json, format!("\"{text}\""));
        assert_eq!(serde_json::from_str::<Rules>(&json).ok(), Some(rules));
    }
    let mut clock = Clock::new(
        TimeControl::new(
            vec![
                Period::new(Some(2), 60_000, Bonus::Bronstein(2_000)),
                Period::new(None, 30_000, Bonus::None),
            ],
            PeriodTrigger::OnMoveCount,
        )
        .unwrap(),
    );
    clock.start(Color::White, 1_000).unwrap();
    clock.press(4_000).unwrap();
    clock.press(9_000).unwrap();
    clock.stop(9_500).unwrap();
    clock.start(Color::White, 9_700).unwrap();
    let json = serde_json::to_string(&clock).unwrap();
    assert_eq!(
        serde_json::from_str::<Clock>(&json).ok(),
        Some(clock.clone()),
        "{json}"
    );
    let running_later = json.replace("\"last_t\":9700", "\"last_t\":9000");
    assert!(
        serde_json::from_str::<Clock>(&running_later).is_err(),
        "{running_later}"
    );
    // A move count no game reaches is refused (counting its periods never ended).
    let mut huge: serde_json::Value = serde_json::from_str(&json).unwrap();
    huge["moves"]["white"] = u32::MAX.into();
    let huge = huge.to_string();
    let error = serde_json::from_str::<Clock>(&huge).unwrap_err();
    assert!(error.to_string().contains("moves"), "{error}");
    let outcome = Outcome::new(GameResult::BlackWins, Reason::TimeForfeit);
    let json = serde_json::to_string(&outcome).unwrap();
    assert_eq!(
        json,
        r#"{"result":"0-1","reason":"time_forfeit","article":"6.9"}"#
    );
    assert_eq!(serde_json::from_str::<Outcome>(&json).ok(), Some(outcome));
}

/// Events without effect (here: after the end of the game) make the verdict no larger than
/// its cap of notes, and are counted past it.
#[test]
fn notes_are_bounded() {
    let mut log = String::from(
        "{\"type\": \"start\", \"rules\": \"fide-standard\"}\n\
         {\"t_ms\": 10, \"type\": \"resign\", \"by\": \"white\"}\n",
    );
    for i in 0..25_000 {
        log.push_str(&format!(
            "{{\"t_ms\": {}, \"type\": \"resign\", \"by\": \"black\"}}\n",
            20 + i
        ));
    }
    let (verdict, _) = arbitrate(&log).unwrap();
    assert_eq!(verdict.notes.len(), 10_001);
    let last = verdict.notes.last().unwrap();
    assert!(
        last.text.starts_with("15000 more notes left out"),
        "{}",
        last.text
    );
}

#[test]
fn the_verdict_serialises() {
    let log = "{\"type\": \"start\", \"rules\": \"fide-standard\", \"time_control\": \"300\"}\n\
               {\"t_ms\": 10, \"type\": \"move\", \"by\": \"white\", \"move\": \"e5\"}\n";
    let (verdict, _) = arbitrate(log).unwrap();
    let json = serde_json::to_value(&verdict).unwrap();
    assert_eq!(json["decisions"][0]["ruling"]["illegal_move"]["mv"], "e5");
    assert_eq!(json["penalties"][0]["offender"], "white");
    assert_eq!(json["clock_ms"]["black"], 420_000);
}

#[test]
fn verdicts_read_back_as_themselves() {
    // Logs of random events after a start: most are refused or noted, so the verdicts hold
    // rulings of every kind, penalties and notes.
    let mut rng = Rng::new(7);
    let mut kinds = std::collections::BTreeSet::new();
    for _ in 0..400 {
        let mut events = vec![Event::new(
            0,
            EventKind::Start(Start {
                time_control: Some("180+2".parse().unwrap()),
                rules: pick(&mut rng, &RULES).parse().unwrap(),
                ..Start::default()
            }),
        )];
        let mut t = 0;
        for _ in 0..rng.below(40) {
            let mut event = random_event(&mut rng);
            if matches!(event.kind, EventKind::Start(_)) {
                continue;
            }
            t += rng.below(20_000);
            event.t_ms = t;
            events.push(event);
        }
        let Ok(verdict) = replay(&events) else {
            continue;
        };
        for decision in &verdict.decisions {
            let json = serde_json::to_value(&decision.ruling).unwrap();
            kinds.insert(match json {
                serde_json::Value::Object(map) => map.keys().next().unwrap().clone(),
                other => other.to_string(),
            });
        }
        let json = serde_json::to_string(&verdict).unwrap();
        assert_eq!(
            serde_json::from_str::<Verdict>(&json).ok().as_ref(),
            Some(&verdict),
            "{json}"
        );
    }
    assert!(kinds.len() >= 8, "too few kinds of ruling: {kinds:?}");
}
