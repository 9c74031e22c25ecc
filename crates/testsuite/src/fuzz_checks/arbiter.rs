//! Fuzz target `arbiter`: an event log built from arbitrary bytes, applied one event at a time by
//! a [`caissa_arbiter::Arbiter`].

use std::sync::LazyLock;

use caissa_arbiter::{
    Arbiter, ArbiterAction, Bonus, ClaimKind, Clock, Event, EventKind, FlagPolicy, IllegalMoves,
    MAX_TIME_MS, MoveText, Period, PeriodTrigger, Presses, Profile, Rules, Ruling, Start,
    TimeControl, TouchMove, Verdict, replay,
};
use caissa_board::{Color, Role, Square};
use caissa_game::{GameResult, Outcome};
use caissa_movegen::{Move, Position};
use caissa_notation::fen::Fen;
use caissa_notation::pgn::{self, GameTreeBuilder, Reader, Replayer};
use caissa_notation::san::SanPlus;
use caissa_notation::uci::UciMove;

/// How many bytes the start of a game takes (see `start_from_bytes`).
pub const HEADER_BYTES: usize = 4;

/// How many bytes each event takes (see `event_from_bytes`).
pub const EVENT_BYTES: usize = 4;

/// How many events [`check`] reads at most.
pub const MAX_EVENTS: usize = 256;

/// The start positions a log may choose, with whether they are Chess960: the standard one,
/// kiwipete, promotions, Chess960, a mate in one, the fifty-move rule five plies away, a dead
/// position, and rooks that can repeat.
static STARTS: LazyLock<Vec<(Option<Fen>, bool)>> = LazyLock::new(|| {
    let fens = [
        ("", false),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            false,
        ),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false),
        (
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            true,
        ),
        ("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 95 80", false),
        ("4k3/8/8/8/8/8/8/2N1K3 w - - 0 1", false),
        ("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", false),
    ];
    fens.into_iter()
        .map(|(fen, chess960)| {
            let fen = (!fen.is_empty())
                .then(|| fen.parse::<Fen>().unwrap_or_else(|e| panic!("{fen}: {e}")));
            (fen, chess960)
        })
        .collect()
});

/// The time control a byte chooses: none, sudden death, each kind of bonus, an hourglass, two
/// periods by move count or on flag fall, or one second (flags fall fast).
fn time_control_from_byte(byte: u8) -> Option<TimeControl> {
    let two_periods = |trigger| {
        TimeControl::new(
            vec![
                Period::new(Some(2), 5_000, Bonus::Fischer(1_000)),
                Period::new(None, 3_000, Bonus::None),
            ],
            trigger,
        )
        .expect("a valid control")
    };
    Some(match byte % 10 {
        0 => return None,
        1 => TimeControl::simple(60_000, Bonus::None),
        2 => TimeControl::simple(180_000, Bonus::Fischer(2_000)),
        3 => TimeControl::simple(30_000, Bonus::SimpleDelay(5_000)),
        4 => TimeControl::simple(10_000, Bonus::Bronstein(3_000)),
        5 => TimeControl::hourglass(20_000),
        6 => two_periods(PeriodTrigger::OnMoveCount),
        7 => two_periods(PeriodTrigger::OnFlag),
        8 => TimeControl::simple(1_000, Bonus::Fischer(500)),
        _ => TimeControl::simple(MAX_TIME_MS, Bonus::Fischer(MAX_TIME_MS)),
    })
}

/// The start event read from the first [`HEADER_BYTES`] bytes (missing ones read as
/// zero): byte 0 the rules profile (`% 7`) and, in bit 3, separate presses; byte 1 the time
/// control (`time_control_from_byte` of its value `% 10`) and Black's own at time odds (of its
/// value `/ 10`; none, the same control, when that chooses none); byte 2 the start position (`STARTS`); byte 3
/// overrides rules: bits 0-1 illegal moves (1 arbiter, 2 on claim, 3 reject), bits 2-3
/// touch-move (1 enforced, 2 on claim, 3 off), bit 4 flags on observation, bit 5 immediate
/// flags, bit 6 the first-flag indicator and both automatic draws, bit 7 no penalty time.
#[must_use]
pub fn start_from_bytes(data: &[u8]) -> Start {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let mut rules = Rules::of(Profile::ALL[usize::from(byte(0)) % Profile::ALL.len()]);
    let overrides = byte(3);
    match overrides & 3 {
        1 => rules.illegal_moves = IllegalMoves::Arbiter,
        2 => rules.illegal_moves = IllegalMoves::OnClaim,
        3 => rules.illegal_moves = IllegalMoves::Reject,
        _ => {}
    }
    match (overrides >> 2) & 3 {
        1 => rules.touch_move = TouchMove::Enforced,
        2 => rules.touch_move = TouchMove::OnClaim,
        3 => rules.touch_move = TouchMove::Off,
        _ => {}
    }
    if overrides & 0x10 != 0 {
        rules.flag_policy = FlagPolicy::OnObservation;
    }
    if overrides & 0x20 != 0 {
        rules.flag_policy = FlagPolicy::Immediate;
    }
    if overrides & 0x40 != 0 {
        rules.first_flag_indicator = true;
        rules.auto_draw_fifty = true;
        rules.auto_draw_threefold = true;
    }
    if overrides & 0x80 != 0 {
        rules.penalty_ms = 0;
    }
    let (fen, chess960) = STARTS[usize::from(byte(2)) % STARTS.len()];
    let time_control = time_control_from_byte(byte(1));
    let black_time_control = time_control
        .as_ref()
        .and(time_control_from_byte(byte(1) / 10));
    Start {
        time_control,
        black_time_control,
        rules,
        fen,
        chess960,
        presses: Some(if byte(0) & 8 != 0 {
            Presses::Separate
        } else {
            Presses::WithMove
        }),
        white: None,
        black: None,
    }
}

/// The legal move of `pos` that `choice` picks, if there is one.
fn pick(pos: &Position, choice: u8) -> Option<Move> {
    let moves = pos.legal_moves();
    moves.get(usize::from(choice) % moves.len().max(1)).copied()
}

/// `m`, a legal move of `pos`, written in SAN or (`uci`) in UCI.
fn move_text(pos: &Position, m: Move, uci: bool) -> MoveText {
    if uci {
        MoveText::Uci(UciMove::from_move(pos, m))
    } else {
        MoveText::San(SanPlus::from_move(pos, m))
    }
}

/// The event four bytes `[op, a, b, dt]` stand for in `arbiter`'s game, at `t_ms`. `op % 32`
/// picks the kind; moves (a third of the kinds) are legal moves picked by `a`, written in SAN or
/// UCI as `b` says; the others take their square from `a`, their colour from `b` (the side to
/// move unless bit 0 is set) and their details from the rest of `b`.
#[must_use]
pub fn event_from_bytes(arbiter: &Arbiter, [op, a, b, _]: [u8; 4], t_ms: u64) -> Event {
    let pos = arbiter.game().position();
    let turn = pos.turn();
    let by = if b & 1 == 0 { turn } else { !turn };
    let square = Square::new_wrapping(u32::from(a));
    let other_square = Square::new_wrapping(u32::from(b >> 2));
    let legal = |choice: u8| pick(pos, choice).map(|m| move_text(pos, m, b & 2 != 0));
    let kind = match op % 32 {
        0..=9 => match legal(a) {
            Some(mv) => EventKind::Move {
                by,
                mv,
                two_hands: b & 0xf0 == 0xf0,
            },
            None => EventKind::Resign { by },
        },
        10 => EventKind::Move {
            by,
            mv: MoveText::Uci(UciMove::Normal {
                from: square,
                to: other_square,
                promotion: (b & 2 != 0).then(|| Role::ALL[usize::from(b >> 4) % 6]),
            }),
            two_hands: false,
        },
        11 | 12 => EventKind::Touch { by, square },
        13 => EventKind::Adjust { by, square },
        14 => EventKind::Release {
            by,
            from: (b & 2 != 0).then_some(other_square),
            to: square,
        },
        15 => EventKind::Promote {
            by,
            role: Role::ALL[usize::from(b >> 1) % 6],
            square,
        },
        16 | 17 => EventKind::Press { by },
        18 => EventKind::OfferDraw { by },
        19 => EventKind::AcceptDraw { by },
        20 => EventKind::DeclineDraw { by },
        21 => EventKind::WithdrawDraw { by },
        22 | 23 => EventKind::Claim {
            by,
            claim: match (b >> 1) % 7 {
                0 => ClaimKind::Threefold(None),
                1 => ClaimKind::Threefold(legal(a)),
                2 => ClaimKind::Fifty(None),
                3 => ClaimKind::Fifty(legal(a)),
                4 => ClaimKind::TouchMove,
                5 => ClaimKind::Flag,
                _ => ClaimKind::IllegalMove,
            },
        },
        24 => EventKind::Resign { by },
        25 | 26 => EventKind::Flag { by },
        27 => EventKind::Arbiter(ArbiterAction::AddTime {
            player: by,
            ms: u64::from(a) * 1_000,
        }),
        28 => EventKind::Arbiter(ArbiterAction::Warning { player: by }),
        29 => EventKind::Arbiter(ArbiterAction::IllegalMove { player: by }),
        30 => match (b >> 1) % 3 {
            0 => EventKind::Arbiter(ArbiterAction::ColoursReversed),
            1 => EventKind::Arbiter(ArbiterAction::WrongSetup { misplaced: None }),
            _ => EventKind::Arbiter(ArbiterAction::WrongSetup {
                misplaced: Some(square),
            }),
        },
        _ => EventKind::Arbiter(ArbiterAction::Declare {
            result: match a % 5 {
                0 => GameResult::WhiteWins,
                1 => GameResult::BlackWins,
                2 => GameResult::Draw,
                3 => GameResult::BothLose,
                _ => GameResult::Cancelled,
            },
            article: None,
        }),
    };
    Event::new(t_ms, kind)
}

/// The time between two events from their last byte: `dt * 250` ms, or ten minutes for 255
/// (so that flags can fall).
fn delay_from_byte(dt: u8) -> u64 {
    if dt == u8::MAX {
        600_000
    } else {
        u64::from(dt) * 250
    }
}

/// What an event may change, cheap enough to take after every event.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Snapshot {
    outcome: Option<Outcome>,
    moves: Vec<Move>,
    start: Position,
    clock: Option<Clock>,
}

impl Snapshot {
    fn of(arbiter: &Arbiter) -> Snapshot {
        Snapshot {
            outcome: arbiter.outcome(),
            moves: arbiter.game().moves().to_vec(),
            start: *arbiter.game().start(),
            clock: arbiter.clock().cloned(),
        }
    }
}

/// The verdict's PGN reads back as one well-formed game with the verdict's result; unless an
/// illegal move may stand (A.5.2), it replays, to the arbiter's position and, when the game was
/// never replaced by one from the position after an illegal move, through its moves.
fn check_verdict_pgn(arbiter: &Arbiter, verdict: &Verdict) {
    let text = &verdict.pgn;
    let games: Vec<_> = Reader::new(text.as_bytes())
        .games(&mut GameTreeBuilder)
        .collect();
    let [Ok(record)] = &games[..] else {
        panic!("the verdict's PGN\n{text}\nreads as {games:?}");
    };
    let marker = pgn::TerminationMarker::from_result(verdict.outcome.map(|o| o.result));
    assert_eq!(
        record.termination_marker,
        Some(marker),
        "the PGN's result:\n{text}"
    );
    assert_eq!(
        record.tags.get("Result"),
        Some(marker.as_str()),
        "the PGN's Result tag:\n{text}"
    );
    let record_start = record
        .start_position()
        .unwrap_or_else(|e| panic!("the PGN's start: {e}\n{text}"));
    let replayed = Reader::new(text.as_bytes())
        .read_game(&mut Replayer::new())
        .expect("one game");
    if let Err(error) = &replayed {
        assert!(
            !matches!(error.kind, pgn::PgnReplayErrorKind::Pgn(_)),
            "the verdict's PGN is malformed ({error}):\n{text}"
        );
    }
    let game = arbiter.game();
    match replayed {
        Ok(stats) => {
            // A.5.1.2 takes castling rights away, which a PGN cannot say.
            let castling_forbidden = verdict.decisions.iter().any(|d| {
                matches!(
                    d.ruling,
                    Ruling::WrongSetupContinue {
                        castling_forbidden: true
                    }
                )
            });
            let (pos, replayed) = (game.position(), stats.position);
            if castling_forbidden {
                assert_eq!(
                    (
                        replayed.board(),
                        replayed.turn(),
                        replayed.legal_ep_square()
                    ),
                    (pos.board(), pos.turn(), pos.legal_ep_square()),
                    "the PGN replays to another position:\n{text}"
                );
            } else {
                assert_eq!(
                    replayed, *pos,
                    "the PGN replays to another position:\n{text}"
                );
            }
            if record_start == *game.start() {
                assert_eq!(
                    stats.mainline_moves,
                    game.ply() as u64,
                    "the PGN has other moves than the game:\n{text}"
                );
            }
        }
        Err(error) => assert!(
            arbiter.rules().illegal_moves == IllegalMoves::OnClaim,
            "the PGN does not replay ({error}), and no illegal move may stand:\n{text}"
        ),
    }
}

/// Arbiter: an event log built from arbitrary bytes (`start_from_bytes`, then
/// `event_from_bytes` for every four bytes, at times that never decrease) is applied event by
/// event without a panic, and then:
///
/// - an event the arbiter refuses changes nothing;
/// - once the game has ended, its outcome, moves and clock never change again, and neither does
///   its verdict but for notes;
/// - a fallen flag reads zero on the clock;
/// - [`replay`] of the log gives the same verdict as the events one by one;
/// - the verdict's PGN reads back with the same result and replays to the same position (see
///   `check_verdict_pgn`).
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    let start = start_from_bytes(data);
    let Ok(mut arbiter) = Arbiter::new(&start, 0) else {
        return;
    };
    let mut log = vec![Event::new(0, EventKind::Start(start))];
    let mut t_ms = 0;
    let mut ended: Option<(Snapshot, Verdict)> = None;
    let events = data.get(HEADER_BYTES..).unwrap_or_default();
    for bytes in events.chunks_exact(EVENT_BYTES).take(MAX_EVENTS) {
        let bytes: [u8; EVENT_BYTES] = bytes.try_into().expect("chunks of four");
        t_ms += delay_from_byte(bytes[3]);
        let event = event_from_bytes(&arbiter, bytes, t_ms);
        let before = Snapshot::of(&arbiter);
        if let Err(error) = arbiter.handle(&event) {
            assert_eq!(
                Snapshot::of(&arbiter),
                before,
                "{event:?} refused ({error}) changed the game"
            );
            continue;
        }
        let after = Snapshot::of(&arbiter);
        if let Some((snapshot, _)) = &ended {
            assert_eq!(&after, snapshot, "{event:?} changed a game that had ended");
        } else if after.outcome.is_some() {
            ended = Some((after.clone(), arbiter.verdict()));
        }
        if let Some(clock) = &after.clock {
            for color in Color::ALL {
                if clock.has_flag_fallen(color, t_ms) {
                    assert_eq!(
                        clock.remaining(color, t_ms),
                        0,
                        "{color:?}'s flag fell, but the clock shows time"
                    );
                }
            }
        }
        log.push(event);
    }
    let verdict = arbiter.verdict();
    assert_eq!(verdict.outcome, arbiter.outcome(), "the verdict's outcome");
    assert_eq!(
        verdict.ended_at_ms.is_some(),
        verdict.outcome.is_some(),
        "the verdict's end time"
    );
    assert_eq!(
        verdict.clock_ms.is_some(),
        arbiter.clock().is_some(),
        "the verdict's clock"
    );
    if let Some((_, at_end)) = &ended {
        let mut without_notes = verdict.clone();
        without_notes.notes.truncate(at_end.notes.len());
        assert_eq!(
            &without_notes, at_end,
            "the verdict changed after the end of the game"
        );
    }
    for (event, t) in verdict
        .decisions
        .iter()
        .map(|d| (d.event, d.t_ms))
        .chain(verdict.penalties.iter().map(|p| (p.event, p.t_ms)))
        .chain(verdict.notes.iter().map(|n| (n.event, n.t_ms)))
    {
        assert!(
            event < log.len() && t <= t_ms,
            "a decision, penalty or note at event {event}, {t} ms"
        );
    }
    assert_eq!(
        replay(&log),
        Ok(verdict.clone()),
        "replaying the log gives another verdict"
    );
    check_verdict_pgn(&arbiter, &verdict);
}
