//! Irregularities (Article 7 and Appendix A.5): the vectors I1 to I11 of rules-spec
//! section 5.3, with the rule sets that differ (club: the third illegal move loses; online:
//! illegal input is refused).

use crate::common::*;
use caissa_arbiter::{ArbiterAction, ClaimKind, Ruling, Verdict};
use caissa_game::{GameResult, Reason};

const ROOK_CHECK: &str = "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1";

fn rulings(verdict: &Verdict) -> Vec<String> {
    verdict
        .decisions
        .iter()
        .map(|d| format!("[{}] {}", d.article, d.ruling))
        .collect()
}

#[test]
fn i1_the_position_is_reinstated_and_the_king_must_move() {
    let log = Log::new("fide-standard", "5400")
        .fen(ROOK_CHECK)
        .mv(10_000, W, "Kf2");
    let v = log.verdict();
    assert_eq!(v.illegal_moves.white, 1);
    assert_eq!(
        v.clock_ms.map(|c| (c.white, c.black)),
        Some((5_390_000, 5_520_000))
    );
    assert!(pgn_moves(&v).is_empty());
    // The king was touched: it must move (7.5.1, 4.3.1): Kxd2 or Kf1.
    let mut arbiter = caissa_arbiter::Arbiter::new(
        match &log.events[0].kind {
            caissa_arbiter::EventKind::Start(start) => start,
            _ => unreachable!(),
        },
        0,
    )
    .unwrap();
    for event in &log.events[1..] {
        arbiter.handle(event).unwrap();
    }
    let obligation = arbiter.obligation().expect("the king must move");
    assert_eq!(obligation.article.as_str(), "4.3.1");
    assert_eq!(obligation.moves.len(), 2);
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn i2_the_second_illegal_move_loses() {
    let v = Log::new("fide-standard", "5400")
        .fen(ROOK_CHECK)
        .mv(10_000, W, "Kf2")
        .mv(20_000, W, "Kd1")
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::BlackWins, Reason::IllegalMoves, "7.5.5".into())
    );
    assert_eq!(v.illegal_moves.white, 2);
    assert_eq!(v.penalties.len(), 1);
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn i3_unless_the_opponent_cannot_mate() {
    let v = Log::new("fide-standard", "5400")
        .fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
        .mv(10_000, W, "Qb8")
        .mv(20_000, W, "Qh8")
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::IllegalMoves, "7.5.5".into())
    );
}

#[test]
fn i4_unclaimed_illegal_move_stands_without_supervision() {
    // The f1 bishop jumps over its pawn; Black replies without claiming.
    let v = Log::new("fide-rapid-unsupervised", "900+10")
        .mv(5_000, W, "Bc4")
        .mv(9_000, B, "e5")
        .mv(12_000, W, "Bxf7+")
        .verdict();
    assert_eq!(v.illegal_moves.white, 0);
    assert!(v.penalties.is_empty());
    assert_eq!(
        rulings(&v),
        ["[A.5.2] illegal move Bc4 not claimed before the reply: it stands"]
    );
    assert_eq!(v.outcome, None);
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn i5_first_illegal_move_claimed_in_blitz() {
    let v = Log::new("fide-blitz-unsupervised", "180+2")
        .mv(5_000, W, "Bc4")
        .claim(7_000, B, ClaimKind::IllegalMove)
        .mv(9_000, W, "e3")
        .verdict();
    assert_eq!((v.illegal_moves.white, v.outcome), (1, None));
    assert_eq!(pgn_moves(&v), ["e3"]);
    // White: 180 s − 9 s (the clock ran on from the start of the move) + 2 s. Black: 180 s
    // (the time since the illegal press given back) + 60 s.
    assert_eq!(
        v.clock_ms.map(|c| (c.white, c.black)),
        Some((173_000, 240_000))
    );
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn i6_a_pawn_left_on_the_last_rank_becomes_a_queen() {
    for written in ["a8", "a7a8"] {
        let v = Log::new("fide-standard", "5400")
            .fen("8/P7/8/8/8/k7/8/K7 w - - 0 1")
            .mv(10_000, W, written)
            .verdict();
        assert_eq!(v.illegal_moves.white, 1, "{written}");
        assert_eq!(pgn_moves(&v), ["a8=Q+"]);
        assert_eq!(v.penalties[0].ms, 120_000);
        assert_eq!(v.decisions[0].article.as_str(), "7.5.2");
    }
}

#[test]
fn i7_a_press_without_a_move_counts_as_illegal() {
    let v = Log::new("fide-rapid", "900")
        .separate_presses()
        .press(3_000, W)
        .mv(5_000, W, "e4")
        .press(6_000, W)
        .verdict();
    assert_eq!(v.illegal_moves.white, 1);
    assert_eq!(v.decisions[0].article.as_str(), "7.5.3");
    // The wrong press is undone: White's clock ran from the start to the real press.
    assert_eq!(
        v.clock_ms.map(|c| (c.white, c.black)),
        Some((894_000, 960_000))
    );
}

#[test]
fn i8_i9_colours_reversed() {
    let moves = random_moves(8, 24).join(" ");
    let v = Log::new("fide-standard", "5400")
        .moves(W, &moves[..])
        .verdict();
    assert_eq!(v.outcome, None);
    let early = Log::new("fide-standard", "5400").moves(W, &random_moves(8, 16).join(" "));
    let v = early
        .clone()
        .ruling(100_000, ArbiterAction::ColoursReversed)
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Cancelled, Reason::ArbiterDecision, "7.3".into())
    );
    let late = Log::new("fide-standard", "5400").moves(W, &moves);
    let v = late
        .ruling(100_000, ArbiterAction::ColoursReversed)
        .verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(v.decisions[0].article.as_str(), "7.3");
}

#[test]
fn i10_i11_wrong_initial_position() {
    let ten_each = "a3 a6 b3 b6 c3 c6 d3 d6 e3 e6 f3 f6 g3 g6 h3 h6 a4 a5 h4 h5";
    let wrong = ArbiterAction::WrongSetup {
        misplaced: Some(sq("e1")),
    };
    let v = Log::new("fide-standard", "5400")
        .moves(W, ten_each)
        .ruling(100_000, wrong.clone())
        .verdict();
    assert_eq!(
        result(&v),
        (
            GameResult::Cancelled,
            Reason::ArbiterDecision,
            "7.2.1".into()
        )
    );
    let v = Log::new("fide-rapid-unsupervised", "900")
        .moves(W, ten_each)
        .ruling(100_000, wrong.clone())
        .verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(v.decisions[0].article.as_str(), "A.5.1.2");
    assert!(matches!(
        v.decisions[0].ruling,
        Ruling::WrongSetupContinue {
            castling_forbidden: true
        }
    ));
    // Before ten moves each, the game is cancelled without supervision too.
    let v = Log::new("fide-rapid-unsupervised", "900")
        .moves(W, "a3 a6")
        .ruling(100_000, wrong)
        .verdict();
    assert_eq!(result(&v).0, GameResult::Cancelled);
}

#[test]
fn club_rules_lose_at_the_third_illegal_move() {
    let log = Log::new("club", "900")
        .fen(ROOK_CHECK)
        .mv(1_000, W, "Kf2")
        .claim(2_000, B, ClaimKind::IllegalMove)
        .mv(3_000, W, "Kd1")
        .claim(4_000, B, ClaimKind::IllegalMove);
    let v = log.verdict();
    assert_eq!((v.illegal_moves.white, v.outcome), (2, None));
    let v = log
        .mv(5_000, W, "Ke2")
        .claim(6_000, B, ClaimKind::IllegalMove)
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::BlackWins, Reason::IllegalMoves, "7.5.5".into())
    );
    // A changed limit.
    let v = Log::new("club illegal_moves_to_lose=2", "900")
        .fen(ROOK_CHECK)
        .mv(1_000, W, "Kf2")
        .mv(3_000, W, "Kd1")
        .verdict();
    assert_eq!(result(&v).0, GameResult::BlackWins);
}

#[test]
fn servers_refuse_illegal_input() {
    let v = Log::new("online", "180+2")
        .mv(1_000, W, "Kf2")
        .mv(2_000, W, "e2e5")
        .mv(3_000, W, "e4")
        .verdict();
    assert_eq!(v.illegal_moves.white, 0);
    assert!(v.penalties.is_empty());
    assert_eq!(v.decisions.len(), 2);
    assert!(v.decisions.iter().all(|d| d.article.as_str() == "3.10.1"));
    assert_eq!(pgn_moves(&v), ["e4"]);
}

#[test]
fn two_hands_are_penalised_as_an_illegal_move() {
    let v = Log::new("fide-standard", "5400")
        .fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
        .two_hands(1_000, W, "exd5")
        .verdict();
    assert_eq!(v.illegal_moves.white, 1);
    assert_eq!(v.decisions[0].article.as_str(), "7.5.4");
    assert_eq!(pgn_moves(&v), ["exd5"]);
    // A quiet move with two hands is no offence.
    let v = Log::new("fide-standard", "5400")
        .two_hands(1_000, W, "e4")
        .verdict();
    assert_eq!(v.illegal_moves.white, 0);
}

#[test]
fn illegal_moves_with_separate_presses_are_completed_by_the_press() {
    // An illegal move corrected before the press is not penalised (7.5.1); Article 4 still
    // binds the piece: the king must move.
    let v = Log::new("fide-standard", "5400")
        .separate_presses()
        .fen(ROOK_CHECK)
        .mv(1_000, W, "Kf2")
        .mv(2_000, W, "Kf1")
        .press(2_500, W)
        .verdict();
    assert_eq!(v.illegal_moves.white, 0);
    assert_eq!(pgn_moves(&v), ["Kf1"]);
    let v = Log::new("fide-standard", "5400")
        .separate_presses()
        .fen(ROOK_CHECK)
        .mv(1_000, W, "Kf2")
        .press(2_000, W)
        .verdict();
    assert_eq!(v.illegal_moves.white, 1);
}

#[test]
fn the_claim_must_come_before_the_reply() {
    let v = Log::new("fide-rapid-unsupervised", "900")
        .mv(5_000, W, "Bc4")
        .mv(9_000, B, "e5")
        .claim(10_000, B, ClaimKind::IllegalMove)
        .verdict();
    assert_eq!(v.illegal_moves.white, 0);
    assert!(matches!(
        v.decisions.last().map(|d| &d.ruling),
        Some(Ruling::ClaimRefused { .. })
    ));
    // The arbiter may act in the same window (A.5.2).
    let v = Log::new("fide-rapid-unsupervised", "900")
        .mv(5_000, W, "Bc4")
        .ruling(6_000, ArbiterAction::IllegalMove { player: W })
        .verdict();
    assert_eq!(v.illegal_moves.white, 1);
    // An illegal move leaving the mover's king in check cannot stand: dealt with at once.
    let v = Log::new("fide-rapid-unsupervised", "900")
        .fen(ROOK_CHECK)
        .mv(1_000, W, "Kf2")
        .verdict();
    assert_eq!(v.illegal_moves.white, 1);
}

#[test]
fn an_illegal_move_corrected_before_the_press_binds_its_pieces() {
    // 1. e4 d5: the rook a1 "moves" to d5 and the player, before pressing, plays Nf3. The
    // rook has no legal move, but the pawn on d5 it would have taken can be taken (4.3.3).
    let corrected = |rules: &str, replacement: &str| {
        Log::new(rules, "5400")
            .separate_presses()
            .moves(W, "e4 d5")
            .mv(5_000, W, "a1d5")
            .mv(6_000, W, replacement)
    };
    let v = corrected("fide-standard", "Nf3").verdict();
    assert_eq!(
        rulings(&v).last().map(String::as_str),
        Some("[4.3.3] Nf3 breaks touch-move: must play one of exd5")
    );
    assert_eq!(v.illegal_moves.white, 0);
    // The compliant replacement is accepted, and no illegal move was completed.
    let v = corrected("fide-standard", "exd5").press(7_000, W).verdict();
    assert_eq!(pgn_moves(&v), ["e4", "d5", "exd5"]);
    assert_eq!(v.illegal_moves.white, 0);
    // Without supervision the replacement stands until the opponent claims the breach (4.8).
    let log = corrected("fide-rapid-unsupervised", "Nf3").press(7_000, W);
    assert_eq!(pgn_moves(&log.verdict()), ["e4", "d5", "Nf3"]);
    let v = log.claim(8_000, B, ClaimKind::TouchMove).verdict();
    assert_eq!(
        rulings(&v).last().map(String::as_str),
        Some("[4.3.3] Nf3 breaks touch-move: must play one of exd5")
    );
    // Nothing the illegal move touched can move or be taken: the choice is free (4.5).
    let v = Log::new("fide-standard", "5400")
        .separate_presses()
        .mv(1_000, W, "a1a5")
        .mv(2_000, W, "Nf3")
        .press(3_000, W)
        .verdict();
    assert_eq!(pgn_moves(&v), ["Nf3"]);
    assert!(v.decisions.is_empty());
}

#[test]
fn an_illegal_move_that_stands_ends_the_game_by_the_position_it_left() {
    // Ra8 jumps over the pawn on a2 and mates; Black, with no legal move, does not claim.
    const BACK_RANK: &str = "6k1/5ppp/8/8/8/8/P7/R5K1 w - - 0 1";
    let log = Log::new("fide-blitz-unsupervised", "300")
        .fen(BACK_RANK)
        .mv(2_000, W, "Ra8");
    let v = log.clone().mv(5_000, B, "Kf8").verdict();
    assert_eq!(
        result(&v),
        (GameResult::WhiteWins, Reason::Checkmate, "5.1.1".into())
    );
    // Black is not charged for failing to find a legal move.
    assert_eq!((v.illegal_moves.white, v.illegal_moves.black), (0, 0));
    assert!(v.penalties.is_empty());
    // A press without a move lets it stand just the same.
    let v = Log::new("fide-blitz-unsupervised", "300")
        .separate_presses()
        .fen(BACK_RANK)
        .mv(2_000, W, "Ra8")
        .press(3_000, W)
        .press(5_000, B)
        .verdict();
    assert_eq!(result(&v).1, Reason::Checkmate);
    assert_eq!(v.illegal_moves.black, 0);
    // Claimed, it is taken back and penalised: the game goes on.
    let v = log
        .clone()
        .claim(5_000, B, ClaimKind::IllegalMove)
        .verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(v.illegal_moves.white, 1);
    assert!(pgn_moves(&v).is_empty());
    // Until someone acts, the claim stays open: the game is not over.
    assert_eq!(log.verdict().outcome, None);
    // Supervised, the illegal move never stands.
    let v = Log::new("fide-blitz", "300")
        .fen(BACK_RANK)
        .mv(2_000, W, "Ra8")
        .verdict();
    assert_eq!((v.outcome, v.illegal_moves.white), (None, 1));
}
