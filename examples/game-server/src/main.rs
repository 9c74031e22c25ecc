//! What a game server does with caissa-game, caissa-arbiter and caissa-notation: run a game
//! under a clock, take moves as players send them (SAN or UCI), rule on claims, and end the
//! game on time without an event; then write the record.
//!
//! `cargo run -p example-game-server`

use caissa_arbiter::{
    Arbiter, Bonus, ClaimKind, Color, Event, EventError, EventKind, Rules, Start, TimeControl,
};
use caissa_game::Game;
use caissa_notation::san::SanPlus;

/// A move event of `by` at `t_ms`.
fn play(by: Color, text: &str, t_ms: u64) -> Event {
    let mv = text.parse().expect("a move text");
    Event::new(
        t_ms,
        EventKind::Move {
            by,
            mv,
            two_hands: false,
        },
    )
}

/// Two games: a threefold repetition claimed in a blitz game, and a flag in an online game.
fn run() -> Result<String, EventError> {
    let mut out = String::new();
    let start = Start {
        time_control: Some(TimeControl::simple(180_000, Bonus::Fischer(2_000))),
        rules: Rules::fide_blitz(),
        white: Some("Ann".to_owned()),
        black: Some("Bob".to_owned()),
        ..Start::default()
    };
    let mut arbiter = Arbiter::new(&start, 0)?;
    let mut t = 0;
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for (i, text) in shuffle.iter().chain(&shuffle).enumerate() {
        t += 3_000;
        let by = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if i == 4 {
            // A claim before the position has occurred three times: refused, with time to
            // the opponent (9.5.3).
            let claim = EventKind::Claim {
                by,
                claim: ClaimKind::Threefold(None),
            };
            for decision in arbiter.handle(&Event::new(t, claim))? {
                out += &format!("ruling: {decision}\n");
            }
        }
        arbiter.handle(&play(by, text, t))?;
    }
    // The same position for the third time: the player to move claims (9.2.1.2).
    let game: &Game = arbiter.game();
    out += &format!("repetitions: {}\n", game.repetitions());
    let claim = EventKind::Claim {
        by: Color::White,
        claim: ClaimKind::Threefold(None),
    };
    arbiter.handle(&Event::new(t + 1_000, claim))?;
    let verdict = arbiter.verdict();
    let outcome = verdict.outcome.expect("a draw");
    out += &format!("game 1: {outcome}\n");
    let clock = verdict.clock_ms.expect("a clock");
    out += &format!(
        "clocks: white {} ms, black {} ms\n",
        clock.white, clock.black
    );
    let moves: Vec<String> = game_moves(&arbiter);
    out += &format!("moves: {}\n", moves.join(" "));

    // Online: the flag falls at its deadline; the server ticks instead of inventing an event.
    let online = Start {
        time_control: Some("60+0".parse().expect("a time control")),
        rules: Rules::online(),
        ..Start::default()
    };
    let mut arbiter = Arbiter::new(&online, 0)?;
    arbiter.handle(&play(Color::White, "e2e4", 5_000))?;
    let (player, at) = arbiter.next_flag().expect("a clock running");
    out += &format!("next flag: {} at {at} ms\n", player.name());
    arbiter.tick(at)?;
    out += &format!("game 2: {}\n", arbiter.outcome().expect("on time"));
    out += &arbiter.verdict().pgn;
    Ok(out)
}

/// The game's moves in SAN, as the record writes them.
fn game_moves(arbiter: &Arbiter) -> Vec<String> {
    let game = arbiter.game();
    game.positions()
        .zip(game.moves())
        .map(|(pos, &m)| SanPlus::from_move(pos, m).to_string())
        .collect()
}

fn main() -> Result<(), EventError> {
    print!("{}", run()?);
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_claim_draws_and_the_flag_falls() {
        let out = super::run().unwrap();
        assert!(out.contains("threefold claim"), "{out}");
        assert!(
            out.contains("game 1: 1/2-1/2 (threefold_repetition, 9.2.1.2)"),
            "{out}"
        );
        assert!(out.contains("next flag: black at 65000 ms"), "{out}");
        assert!(out.contains("game 2: 1-0 (time_forfeit, 6.9)"), "{out}");
        assert!(out.contains("1. e4"), "{out}");
    }
}
