//! The `go` command's clock fields from the arbiter's [`Clock`]: times left, increments and moves
//! to the next time control.
//!
//! UCI knows only an increment per move, so a delay (simple or Bronstein) is sent as `winc` /
//! `binc`: either way the engine may spend that much per move without losing main time. A bonus
//! that starts at a later move is sent as zero until then. `movestogo` counts the moves left in
//! the current period when it has a quota (repeating last periods included).

use caissa_arbiter::{Clock, Color};

use crate::protocol::Go;

/// The `go` command for the player whose clock runs at `t_ms` (or White's, if none runs), with
/// both players' times as the clock shows them at `t_ms`.
#[must_use]
pub fn go_from_clock(clock: &Clock, t_ms: u64) -> Go {
    let to_move = clock.running().unwrap_or(Color::White);
    let time = |color| i64::try_from(clock.remaining(color, t_ms)).unwrap_or(i64::MAX);
    let inc = |color| i64::try_from(next_bonus(clock, color)).unwrap_or(i64::MAX);
    Go {
        wtime: Some(time(Color::White)),
        btime: Some(time(Color::Black)),
        winc: Some(inc(Color::White)),
        binc: Some(inc(Color::Black)),
        movestogo: moves_to_go(clock, to_move),
        ..Go::default()
    }
}

/// The period `color` plays its next move in, and the moves due by its end (`None` for a
/// rest-of-game period).
fn current_period(clock: &Clock, color: Color) -> (usize, Option<u32>) {
    let done = clock.moves(color);
    let mut due = 0u32;
    let mut index = 0;
    loop {
        let period = clock.control(color).period(index);
        match period.moves {
            None => return (index, None),
            Some(quota) => {
                due = due.saturating_add(quota);
                if due > done || due == u32::MAX {
                    return (index, Some(due));
                }
            }
        }
        index += 1;
    }
}

fn next_bonus(clock: &Clock, color: Color) -> u64 {
    let (index, _) = current_period(clock, color);
    let period = clock.control(color).period(index);
    if clock.moves(color) + 1 >= period.bonus_from_move {
        period.bonus.millis()
    } else {
        0
    }
}

fn moves_to_go(clock: &Clock, color: Color) -> Option<u32> {
    let (_, due) = current_period(clock, color);
    due.map(|due| due - clock.moves(color))
}

#[cfg(test)]
mod tests {
    use super::*;
    use caissa_arbiter::{PgnTimeControl, TimeControl};

    fn clock(pgn: &str) -> Clock {
        match TimeControl::from_pgn(pgn).unwrap() {
            PgnTimeControl::Control(tc) => Clock::new(tc),
            other => panic!("{other:?}"),
        }
    }

    fn fields(go: &Go) -> String {
        format!("{go}")
    }

    #[test]
    fn fischer_delay_and_periods() {
        let mut c = clock("10+0.1");
        c.start(Color::White, 0).unwrap();
        assert_eq!(
            fields(&go_from_clock(&c, 250)),
            "go wtime 9750 btime 10000 winc 100 binc 100"
        );
        let mut c = clock("300d5");
        c.start(Color::White, 0).unwrap();
        assert_eq!(
            fields(&go_from_clock(&c, 0)),
            "go wtime 300000 btime 300000 winc 5000 binc 5000"
        );
        // Two moves of a 2-move period, then a repeating 3-move period; bonus from move 3.
        let mut c = clock("2/60+1@3:3/30");
        c.start(Color::White, 0).unwrap();
        assert_eq!(
            fields(&go_from_clock(&c, 0)),
            "go wtime 60000 btime 60000 winc 0 binc 0 movestogo 2"
        );
        for t in [1_000, 2_000, 3_000, 4_000] {
            c.press(t).unwrap();
        }
        // White has made two moves: the second period (3 moves), no bonus there.
        assert_eq!(
            fields(&go_from_clock(&c, 4_000)),
            "go wtime 88000 btime 88000 winc 0 binc 0 movestogo 3"
        );
        assert_eq!(
            fields(&go_from_clock(&clock("40/5400+30:1800+30"), 0)),
            "go wtime 5400000 btime 5400000 winc 30000 binc 30000 movestogo 40"
        );
    }
}
