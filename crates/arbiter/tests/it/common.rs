//! What the test modules share: a small builder for event logs
//! (`Log::new(rules, control).fen(..).mv(t, W, "e4")`), the verdict's result, and a seeded
//! generator.

use caissa_arbiter::{
    ArbiterAction, ClaimKind, Event, EventKind, MoveText, PgnTimeControl, Presses, Rules, Start,
    TimeControl, Verdict, replay,
};
use caissa_board::{Color, Role, Square};
use caissa_game::{GameResult, Reason};
use caissa_notation::fen::Fen;

pub(crate) use caissa_board::Color::{Black as B, White as W};

/// A log under construction.
#[derive(Clone, Debug)]
pub(crate) struct Log {
    pub(crate) events: Vec<Event>,
}

pub(crate) fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

pub(crate) fn text(mv: &str) -> MoveText {
    mv.parse().expect("SAN or UCI")
}

pub(crate) fn control(pgn: &str) -> Option<TimeControl> {
    match TimeControl::from_pgn(pgn).expect("a time control") {
        PgnTimeControl::Control(tc) => Some(tc),
        _ => None,
    }
}

impl Log {
    /// A game under `rules` (a rules text) with `control` (PGN syntax, `-` for none), from the
    /// standard position, starting at 0 ms.
    pub(crate) fn new(rules: &str, time_control: &str) -> Log {
        let start = Start {
            time_control: control(time_control),
            rules: rules.parse::<Rules>().expect("rules"),
            ..Start::default()
        };
        Log {
            events: vec![Event::new(0, EventKind::Start(start))],
        }
    }

    fn start(&mut self) -> &mut Start {
        match &mut self.events[0].kind {
            EventKind::Start(start) => start,
            _ => unreachable!("the first event is the start"),
        }
    }

    pub(crate) fn fen(mut self, fen: &str) -> Log {
        self.start().fen = Some(fen.parse::<Fen>().expect("a FEN"));
        self
    }

    /// Black plays `time_control` (PGN syntax) instead of White's (time odds).
    pub(crate) fn black_control(mut self, time_control: &str) -> Log {
        self.start().black_time_control = control(time_control);
        self
    }

    pub(crate) fn separate_presses(mut self) -> Log {
        self.start().presses = Some(Presses::Separate);
        self
    }

    pub(crate) fn event(mut self, t_ms: u64, kind: EventKind) -> Log {
        self.events.push(Event::new(t_ms, kind));
        self
    }

    /// Moves in SAN or UCI, separated by spaces, each 1 s after the previous event, alternating
    /// from `by`.
    pub(crate) fn moves(mut self, mut by: Color, moves: &str) -> Log {
        for mv in moves.split_whitespace() {
            let t = self.events.last().map_or(0, |e| e.t_ms) + 1_000;
            self = self.mv(t, by, mv);
            by = !by;
        }
        self
    }

    pub(crate) fn mv(self, t: u64, by: Color, mv: &str) -> Log {
        self.event(
            t,
            EventKind::Move {
                by,
                mv: text(mv),
                two_hands: false,
            },
        )
    }

    pub(crate) fn two_hands(self, t: u64, by: Color, mv: &str) -> Log {
        self.event(
            t,
            EventKind::Move {
                by,
                mv: text(mv),
                two_hands: true,
            },
        )
    }

    pub(crate) fn press(self, t: u64, by: Color) -> Log {
        self.event(t, EventKind::Press { by })
    }

    pub(crate) fn touch(self, t: u64, by: Color, square: &str) -> Log {
        self.event(
            t,
            EventKind::Touch {
                by,
                square: sq(square),
            },
        )
    }

    pub(crate) fn adjust(self, t: u64, by: Color, square: &str) -> Log {
        self.event(
            t,
            EventKind::Adjust {
                by,
                square: sq(square),
            },
        )
    }

    pub(crate) fn release(self, t: u64, by: Color, from: &str, to: &str) -> Log {
        self.event(
            t,
            EventKind::Release {
                by,
                from: Some(sq(from)),
                to: sq(to),
            },
        )
    }

    pub(crate) fn promote(self, t: u64, by: Color, role: Role, square: &str) -> Log {
        self.event(
            t,
            EventKind::Promote {
                by,
                role,
                square: sq(square),
            },
        )
    }

    pub(crate) fn offer(self, t: u64, by: Color) -> Log {
        self.event(t, EventKind::OfferDraw { by })
    }

    pub(crate) fn accept(self, t: u64, by: Color) -> Log {
        self.event(t, EventKind::AcceptDraw { by })
    }

    pub(crate) fn decline(self, t: u64, by: Color) -> Log {
        self.event(t, EventKind::DeclineDraw { by })
    }

    pub(crate) fn withdraw(self, t: u64, by: Color) -> Log {
        self.event(t, EventKind::WithdrawDraw { by })
    }

    pub(crate) fn claim(self, t: u64, by: Color, claim: ClaimKind) -> Log {
        self.event(t, EventKind::Claim { by, claim })
    }

    pub(crate) fn resign(self, t: u64, by: Color) -> Log {
        self.event(t, EventKind::Resign { by })
    }

    pub(crate) fn flag(self, t: u64, by: Color) -> Log {
        self.event(t, EventKind::Flag { by })
    }

    pub(crate) fn ruling(self, t: u64, action: ArbiterAction) -> Log {
        self.event(t, EventKind::Arbiter(action))
    }

    /// The time of the last event.
    pub(crate) fn now(&self) -> u64 {
        self.events.last().map_or(0, |e| e.t_ms)
    }

    pub(crate) fn verdict(&self) -> Verdict {
        replay(&self.events).unwrap_or_else(|e| panic!("{e}"))
    }
}

/// The result of a finished game: result, reason and article.
pub(crate) fn result(verdict: &Verdict) -> (GameResult, Reason, String) {
    let o = verdict.outcome.expect("the game is over");
    (o.result, o.reason, o.article.to_string())
}

/// The claim kinds with a written move.
pub(crate) fn threefold(mv: Option<&str>) -> ClaimKind {
    ClaimKind::Threefold(mv.map(text))
}

pub(crate) fn fifty(mv: Option<&str>) -> ClaimKind {
    ClaimKind::Fifty(mv.map(text))
}

/// The main line's moves of a PGN, in SAN, read back with the notation crate's reader.
pub(crate) fn pgn_moves(verdict: &Verdict) -> Vec<String> {
    use caissa_notation::pgn::{GameTreeBuilder, Reader};
    let game = Reader::new(verdict.pgn.as_bytes())
        .read_game(&mut GameTreeBuilder)
        .expect("a game")
        .expect("well-formed");
    game.mainline().map(|node| node.san.to_string()).collect()
}

/// A small deterministic generator (xorshift64*), so tests need no extra dependency.
#[derive(Clone, Debug)]
pub(crate) struct Rng(u64);

impl Rng {
    pub(crate) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n > 0`).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `plies` random legal moves from the standard position, in UCI, after which the game has
/// not ended (the first seed from `seed` on that gives such a game).
pub(crate) fn random_moves(seed: u64, plies: usize) -> Vec<String> {
    use caissa_game::Game;
    use caissa_notation::uci::UciMove;
    for attempt in 0.. {
        let mut rng = Rng::new(seed + attempt);
        let mut game = Game::standard();
        let mut moves = Vec::new();
        while moves.len() < plies && game.outcome().is_none() {
            let legal = game.position().legal_moves();
            let m = legal[rng.below(legal.len() as u64) as usize];
            moves.push(UciMove::from_move(game.position(), m).to_string());
            game.play_unchecked(m);
        }
        if moves.len() == plies && game.outcome().is_none() {
            return moves;
        }
    }
    unreachable!()
}
