//! The clock and flag fall at the arbiter's level: rules-spec section 4.4 (CV1 to CV6, FL1 to
//! FL7) and section 4.3 (both flags, observation policies). CV7 (speed classes) is a property of
//! the time control alone, tested with it.

use crate::common::*;
use caissa_arbiter::{ClaimKind, Ruling, Verdict};
use caissa_game::{GameResult, Reason};

fn clock(verdict: &Verdict) -> (u64, u64) {
    let c = verdict.clock_ms.expect("a clock");
    (c.white, c.black)
}

#[test]
fn cv1_cv2_sudden_death_and_increment() {
    let v = Log::new("fide-blitz", "300").mv(12_300, W, "e4").verdict();
    assert_eq!(clock(&v), (287_700, 300_000));
    let v = Log::new("fide-blitz", "180+2").mv(5_000, W, "e4").verdict();
    assert_eq!(clock(&v), (177_000, 180_000));
    // The black clock runs from White's press.
    let v = Log::new("fide-blitz", "180+2")
        .mv(5_000, W, "e4")
        .mv(8_000, B, "e5")
        .verdict();
    assert_eq!(clock(&v), (177_000, 179_000));
}

#[test]
fn cv2b_a_move_completed_as_the_flag_falls() {
    // Over the board the flag counts once observed: the move stands, then the arbiter sees it.
    let log = Log::new("fide-blitz", "4+2").mv(4_000, W, "e4");
    let v = log.verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(clock(&v).0, 0, "no increment after the flag");
    assert!(v.notes[0].text.contains("flag had fallen at 4000"), "{v}");
    let v = log.flag(5_000, W).verdict();
    assert_eq!(
        result(&v),
        (GameResult::BlackWins, Reason::TimeForfeit, "6.9".into())
    );
    // A server decides at the deadline: the move comes too late (FL6c).
    let v = Log::new("online", "4+2").mv(4_000, W, "e4").verdict();
    assert_eq!(
        result(&v),
        (GameResult::BlackWins, Reason::TimeForfeit, "6.9".into())
    );
    assert_eq!(v.ended_at_ms, Some(4_000));
    assert!(pgn_moves(&v).is_empty());
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn cv3_the_next_period_is_added_after_move_40() {
    let moves = random_moves(40, 80);
    let mut log = Log::new("fide-standard", "40/5400+30:1800+30");
    let mut t = 0;
    for (i, mv) in moves.iter().enumerate() {
        let white = i % 2 == 0;
        // White's 40 moves use 6,525 s in all: 45 s are left at the 40th press, before its
        // increment.
        t += match (white, i / 2) {
            (true, 39) => 168_000,
            (true, _) => 163_000,
            (false, _) => 1_000,
        };
        log = log.mv(t, if white { W } else { B }, mv);
        if white && i / 2 == 38 {
            let v = log.verdict();
            assert_eq!(clock(&v).0, 5_400_000 + 39 * 30_000 - 39 * 163_000);
        }
    }
    let v = log.verdict();
    assert_eq!(v.outcome, None, "{v}");
    assert_eq!(clock(&v).0, 45_000 + 30_000 + 1_800_000);
}

#[test]
fn cv3b_time_runs_out_before_move_40() {
    let moves = random_moves(38, 76);
    let mut log = Log::new("fide-standard", "40/5400+30:1800+30");
    let mut t = 0;
    for (i, mv) in moves.iter().enumerate() {
        t += if i % 2 == 0 { 150_000 } else { 1_000 };
        log = log.mv(t, if i % 2 == 0 { W } else { B }, mv);
    }
    // 39 white moves at 150 s: 5400 + 38 × 30 − 38 × 150 = 840 s left before move 39.
    let v = log.clone().flag(t + 839_999, W).verdict();
    assert_eq!(v.outcome, None);
    assert!(matches!(v.decisions[0].ruling, Ruling::FlagNotFallen));
    let v = log.flag(t + 840_000, W).verdict();
    assert_eq!(result(&v).0, GameResult::BlackWins);
}

#[test]
fn cv4_to_cv6b_delays() {
    for (control, used, left) in [
        ("60d5", 3_000, 60_000),
        ("60d5", 8_000, 57_000),
        ("60b5", 3_000, 60_000),
        ("60b5", 8_000, 57_000),
        ("2d5", 6_500, 500),
    ] {
        let v = Log::new("online", control).mv(used, W, "e4").verdict();
        assert_eq!((v.outcome, clock(&v).0), (None, left), "{control} {used}");
    }
    // CV5: with a simple delay the flag falls at 7 s; CV6b: Bronstein's at 2 s.
    for (control, deadline) in [("2d5", 7_000), ("2b5", 2_000)] {
        let v = Log::new("online", control).mv(deadline, W, "e4").verdict();
        assert_eq!(result(&v).0, GameResult::BlackWins, "{control}");
        assert_eq!(v.ended_at_ms, Some(deadline));
        let v = Log::new("online", control)
            .mv(deadline - 1, W, "e4")
            .verdict();
        assert_eq!(v.outcome, None, "{control}");
    }
}

#[test]
fn fl1_to_fl5_who_can_still_win() {
    let cases = [
        ("8/8/8/4k3/8/8/8/4KQ2 w - - 0 1", W, GameResult::Draw),
        ("8/8/8/4k3/8/8/8/4KQ2 b - - 0 1", B, GameResult::WhiteWins),
        (
            "8/8/8/4k3/4p3/8/8/1N2K3 b - - 0 1",
            B,
            GameResult::WhiteWins,
        ),
        ("8/8/1q6/4k3/8/8/8/1N2K3 b - - 0 1", B, GameResult::Draw),
        ("8/8/1q6/4k3/8/8/8/2B1K3 b - - 0 1", B, GameResult::Draw),
    ];
    for (fen, flagger, expected) in cases {
        for policy in ["on_observation", "immediate"] {
            let v = Log::new(&format!("fide-blitz flag_policy={policy}"), "10")
                .fen(fen)
                .flag(10_000, flagger)
                .verdict();
            assert_eq!(
                result(&v),
                (expected, Reason::TimeForfeit, "6.9".into()),
                "{fen} {policy}"
            );
        }
        // A.5.3: the opponent's claim; a draw if the claimant cannot checkmate.
        let v = Log::new("fide-blitz-unsupervised", "10")
            .fen(fen)
            .claim(12_000, !flagger, ClaimKind::Flag)
            .verdict();
        assert_eq!(result(&v).0, expected, "{fen} claimed");
    }
    let v = Log::new("fide-blitz", "10")
        .fen(cases[0].0)
        .flag(10_000, W)
        .verdict();
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn a_flag_that_has_not_fallen_is_not_a_flag() {
    let v = Log::new("fide-blitz", "10")
        .flag(9_999, W)
        .claim(9_999, B, ClaimKind::Flag)
        .verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(v.decisions.len(), 2);
    assert!(v.decisions.iter().all(|d| d.article.as_str() == "6.8"));
    let v = Log::new("fide-blitz", "-").flag(9_999, W).verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(v.clock_ms, None);
}

#[test]
fn fl6_checkmate_made_before_the_press_stands() {
    // Separate presses: the mate is made at 9 s, the press (after the flag) no longer matters.
    let fools_mate = |log: Log| {
        log.mv(1_000, W, "f3")
            .press(1_000, W)
            .mv(2_000, B, "e5")
            .press(2_000, B)
            .mv(3_000, W, "g4")
            .press(3_000, W)
    };
    let v = fools_mate(Log::new("online", "10").separate_presses())
        .mv(9_000, B, "Qh4#")
        .press(11_000, B)
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::BlackWins, Reason::Checkmate, "5.1.1".into())
    );
    assert_eq!(v.ended_at_ms, Some(9_000));
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn fl6b_fl6c_an_unobserved_flag_and_a_server_flag() {
    let log = |rules: &str| {
        Log::new(rules, "10")
            .mv(1_000, W, "f3")
            .mv(2_000, B, "e5")
            .mv(3_000, W, "g4")
            .mv(20_000, B, "Qh4#")
    };
    // FL6b: Black's flag fell at 12 s, unnoticed: the mate stands.
    let v = log("fide-blitz").verdict();
    assert_eq!(result(&v).1, Reason::Checkmate);
    // FL6c: a server's flag falls at 12 s: the move comes too late.
    let v = log("online").verdict();
    assert_eq!(
        result(&v),
        (GameResult::WhiteWins, Reason::TimeForfeit, "6.9".into())
    );
    assert_eq!(v.ended_at_ms, Some(12_000));
    assert_eq!(pgn_moves(&v), ["f3", "e5", "g4"]);
}

#[test]
fn fl7_a_flag_after_a_dead_position_is_irrelevant() {
    let v = Log::new("fide-blitz", "10")
        .fen("8/8/8/4k3/8/8/2n5/1B2K3 w - - 0 1")
        .mv(1_000, W, "Bxc2")
        .flag(30_000, B)
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::DeadPosition, "5.2.2".into())
    );
    assert_eq!(v.notes.len(), 1);
    assert_eq!(v.ended_at_ms, Some(1_000));
}

#[test]
fn both_flags_fallen() {
    // Fifteen minutes each (rapid): White's flag falls at 900 s, unnoticed; White moves at
    // 905 s; Black's falls at 1805 s; the arbiter sees it at 1811 s.
    let log = |rules: &str, control: &str| {
        Log::new(rules, control)
            .mv(905_000, W, "e4")
            .mv(1_810_000, B, "e5")
            .flag(1_811_000, B)
    };
    let black_wins = (GameResult::BlackWins, Reason::TimeForfeit, "6.9".into());
    // The clock shows White's flag fell first: White loses (6.9).
    assert_eq!(result(&log("club", "900").verdict()), black_wins);
    // Without the indicator, a rapid game without increment: Guidelines III.3.1, a draw in
    // the last period...
    let v = log("club first_flag_indicator=false", "900").verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::TimeForfeit, "III.3.1".into())
    );
    insta::assert_snapshot!(v.to_string());
    // ... and play goes on before it (III.3.1.1).
    let v = log("club first_flag_indicator=false", "40/900:900").verdict();
    assert_eq!(v.outcome, None);
    assert!(matches!(v.decisions[0].ruling, Ruling::BothFlagsContinue));
    assert_eq!(v.decisions[0].article.as_str(), "III.3.1");
    // III.2.2: the guidelines never apply to blitz, nor with an increment or a delay: the
    // times of the log show which flag fell first, and it loses.
    for control in ["900+5", "900d5", "40/900:900+30"] {
        let v = log("club first_flag_indicator=false", control).verdict();
        assert_eq!(result(&v), black_wins, "{control}");
    }
    let v = Log::new("club first_flag_indicator=false", "10")
        .mv(12_000, W, "e4")
        .mv(25_000, B, "e5")
        .flag(26_000, B)
        .verdict();
    assert_eq!(result(&v), black_wins, "blitz");
}

#[test]
fn penalties_and_added_time_show_on_the_clock() {
    use caissa_arbiter::ArbiterAction;
    let v = Log::new("fide-rapid", "600")
        .mv(10_000, W, "e4")
        .ruling(
            11_000,
            ArbiterAction::AddTime {
                player: W,
                ms: 5_000,
            },
        )
        .claim(12_000, B, threefold(None))
        .verdict();
    // White: 600 − 10 + 5 (ruling) + 60 (Black's incorrect claim).
    assert_eq!(clock(&v), (655_000, 598_000));
    assert_eq!(v.penalties.len(), 1);
    assert_eq!(v.penalties[0].article.as_str(), "9.5.3");
}

#[test]
fn an_unpressed_last_move_shows_the_running_clock() {
    let v = Log::new("fide-rapid", "900")
        .separate_presses()
        .mv(4_000, W, "e4")
        .offer(5_000, W)
        .verdict();
    // Still White's clock: 900 s − 5 s; the offer came at the proper time (9.1.2.1).
    assert!(v.pgn.contains("1. e4 { [%clk 0:14:55] } *"), "{}", v.pgn);
    assert!(matches!(
        v.decisions[0].ruling,
        Ruling::DrawOffered { proper_time: true }
    ));
}

#[test]
fn time_odds_each_player_on_its_own_control() {
    // White 10+0.1 against Black 5+0.05: each side's time and increment are its own.
    let log = Log::new("online", "10+0.1")
        .black_control("5+0.05")
        .mv(1_000, W, "e4")
        .mv(3_000, B, "e5");
    let v = log.verdict();
    assert_eq!(clock(&v), (9_100, 3_050));
    for tag in [
        "[WhiteTimeControl \"10+0.1\"]",
        "[BlackTimeControl \"5+0.05\"]",
    ] {
        assert!(v.pgn.contains(tag), "{}", v.pgn);
    }
    assert!(!v.pgn.contains("[TimeControl "), "{}", v.pgn);
    // Black's flag falls on its own control: 3.05 s after its clock starts at 4 s.
    let log = log.mv(4_000, W, "Nf3");
    let v = log.clone().mv(7_049, B, "Nc6").verdict();
    assert_eq!((v.outcome, clock(&v).1), (None, 51));
    let v = log.mv(7_050, B, "Nc6").verdict();
    assert_eq!(
        result(&v),
        (GameResult::WhiteWins, Reason::TimeForfeit, "6.9".into())
    );
    assert_eq!(v.ended_at_ms, Some(7_050));
    // The same control given twice is no odds: one TimeControl tag.
    let v = Log::new("online", "60").black_control("60").verdict();
    assert!(v.pgn.contains("[TimeControl \"60\"]"), "{}", v.pgn);
    assert!(!v.pgn.contains("WhiteTimeControl"), "{}", v.pgn);
}
