//! Touch-move (Article 4): the vectors T1 to T12 of rules-spec section 2.3, as event logs.

use crate::common::*;
use caissa_arbiter::{ClaimKind, Ruling};
use caissa_board::Role;
use caissa_game::{GameResult, Reason};

const KINGS_PAWNS: &str = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";

/// The moves allowed by the first touch-move ruling, and its article.
fn first_breach(verdict: &caissa_arbiter::Verdict) -> (Vec<String>, String) {
    verdict
        .decisions
        .iter()
        .find_map(|d| match &d.ruling {
            Ruling::TouchMove { allowed, .. } => Some((allowed.clone(), d.article.to_string())),
            _ => None,
        })
        .expect("a touch-move ruling")
}

#[test]
fn t1_touched_knight_must_move() {
    let verdict = Log::new("fide-standard", "300")
        .touch(1_000, W, "g1")
        .mv(2_000, W, "e4")
        .mv(3_000, W, "Nf3")
        .verdict();
    assert_eq!(
        first_breach(&verdict),
        (vec!["Nf3".into(), "Nh3".into()], "4.3.1".into())
    );
    assert_eq!(pgn_moves(&verdict), ["Nf3"]);
    insta::assert_snapshot!(verdict.to_string());
}

#[test]
fn t2_t3_nothing_movable_or_capturable_binds_nothing() {
    for square in ["a1", "e7"] {
        let verdict = Log::new("fide-standard", "300")
            .touch(1_000, W, square)
            .mv(2_000, W, "e4")
            .verdict();
        assert!(verdict.decisions.is_empty(), "{square}: {verdict}");
        assert_eq!(pgn_moves(&verdict), ["e4"]);
    }
}

#[test]
fn t4_own_then_opponent_piece_capture() {
    let verdict = Log::new("fide-standard", "300")
        .fen(KINGS_PAWNS)
        .touch(1_000, W, "e4")
        .touch(1_500, W, "d5")
        .mv(2_000, W, "e5")
        .mv(3_000, W, "exd5")
        .verdict();
    assert_eq!(
        first_breach(&verdict),
        (vec!["exd5".into()], "4.3.3".into())
    );
    assert_eq!(pgn_moves(&verdict), ["exd5"]);
    insta::assert_snapshot!(verdict.to_string());
}

#[test]
fn t5_king_cannot_capture_so_the_king_moves() {
    let verdict = Log::new("fide-standard", "300")
        .fen(KINGS_PAWNS)
        .touch(1_000, W, "e1")
        .touch(1_500, W, "d5")
        .mv(2_000, W, "e5")
        .mv(3_000, W, "Kd2")
        .verdict();
    let (allowed, article) = first_breach(&verdict);
    assert_eq!(article, "4.3.3");
    assert_eq!(allowed, ["Kd1", "Kf1", "Kd2", "Ke2", "Kf2"]);
    assert_eq!(pgn_moves(&verdict), ["Kd2"]);
}

#[test]
fn t6_king_then_rook_castles() {
    let verdict = Log::new("fide-standard", "300")
        .fen(CASTLING)
        .touch(1_000, W, "e1")
        .touch(1_200, W, "h1")
        .mv(2_000, W, "O-O-O")
        .mv(3_000, W, "O-O")
        .verdict();
    assert_eq!(first_breach(&verdict), (vec!["O-O".into()], "4.4.1".into()));
    assert_eq!(pgn_moves(&verdict), ["O-O"]);
}

#[test]
fn t7_rook_then_king_forbids_castling_with_that_rook() {
    let verdict = Log::new("fide-standard", "300")
        .fen(CASTLING)
        .touch(1_000, W, "h1")
        .touch(1_200, W, "e1")
        .mv(2_000, W, "O-O")
        .mv(3_000, W, "Rh2")
        .verdict();
    let (allowed, article) = first_breach(&verdict);
    assert_eq!(article, "4.4.2");
    assert!(allowed.iter().all(|m| m.starts_with('R')), "{allowed:?}");
    assert!(allowed.contains(&"Rxh8+".to_owned()) && allowed.contains(&"Rf1".to_owned()));
    assert_eq!(pgn_moves(&verdict), ["Rh2"]);
    insta::assert_snapshot!(verdict.to_string());
}

#[test]
fn t8_illegal_castling_intended_means_another_king_move() {
    let verdict = Log::new("fide-standard", "300")
        .fen("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1")
        .touch(1_000, W, "e1")
        .touch(1_200, W, "h1")
        .mv(2_000, W, "Rh2")
        .mv(3_000, W, "O-O-O")
        .verdict();
    let (mut allowed, article) = first_breach(&verdict);
    allowed.sort();
    assert_eq!(article, "4.4.3");
    assert_eq!(allowed, ["Kd1", "Kd2", "Ke2", "O-O-O"]);
    assert_eq!(pgn_moves(&verdict), ["O-O-O"]);
}

#[test]
fn t9_a_released_piece_has_moved() {
    let verdict = Log::new("fide-standard", "300")
        .fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
        .touch(1_000, W, "a1")
        .release(1_500, W, "a1", "a5")
        .mv(2_000, W, "Ra7")
        .mv(3_000, W, "Ra5")
        .verdict();
    assert_eq!(first_breach(&verdict), (vec!["Ra5".into()], "4.7".into()));
    assert_eq!(pgn_moves(&verdict), ["Ra5"]);
    // Putting the piece back on its own square binds nothing more than the touch.
    let verdict = Log::new("fide-standard", "300")
        .fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
        .release(1_500, W, "a1", "a1")
        .mv(3_000, W, "Ra2")
        .verdict();
    assert!(verdict.decisions.is_empty(), "{verdict}");
}

#[test]
fn t10_the_right_to_claim_a_breach_ends_with_a_touch() {
    // Club rules: a breach stands unless claimed.
    let breach = Log::new("club", "300")
        .touch(1_000, W, "g1")
        .mv(2_000, W, "e4");
    let late = breach
        .clone()
        .touch(3_000, B, "e7")
        .claim(3_500, B, ClaimKind::TouchMove)
        .mv(4_000, B, "e5")
        .verdict();
    assert_eq!(pgn_moves(&late), ["e4", "e5"]);
    let refused = &late.decisions[0];
    assert_eq!(refused.article.as_str(), "4.8");
    assert!(matches!(refused.ruling, Ruling::ClaimRefused { .. }));

    let in_time = breach
        .claim(3_000, B, ClaimKind::TouchMove)
        .mv(4_000, W, "d4")
        .mv(5_000, W, "Nh3")
        .verdict();
    assert_eq!(pgn_moves(&in_time), ["Nh3"]);
    insta::assert_snapshot!(in_time.to_string());
}

#[test]
fn t11_the_promotion_piece_is_chosen_on_the_square() {
    let verdict = Log::new("fide-standard", "300")
        .fen("7k/4P3/8/8/8/8/8/K7 w - - 0 1")
        .touch(1_000, W, "e7")
        .promote(1_500, W, Role::Knight, "e8")
        .mv(2_000, W, "e8=Q+")
        .mv(3_000, W, "e8=N")
        .verdict();
    assert_eq!(
        first_breach(&verdict),
        (vec!["e8=N".into()], "4.4.4".into())
    );
    assert_eq!(pgn_moves(&verdict), ["e8=N"]);
}

#[test]
fn t12_a_touch_forfeits_the_claim_on_that_move() {
    let repeated = Log::new("fide-standard", "300").moves(W, "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    let t = repeated.now();
    let verdict = repeated
        .clone()
        .touch(t + 500, W, "g1")
        .claim(t + 1_000, W, threefold(None))
        .verdict();
    assert_eq!(verdict.outcome, None);
    let refused = verdict.decisions.last().expect("a decision");
    assert_eq!(refused.article.as_str(), "9.4");
    assert!(verdict.penalties.is_empty());
    // Without the touch, the claim is correct (R1).
    let verdict = repeated.claim(t + 1_000, W, threefold(None)).verdict();
    let outcome = verdict.outcome.expect("a draw");
    assert_eq!(
        (outcome.result, outcome.reason),
        (GameResult::Draw, Reason::ThreefoldRepetition)
    );
}

#[test]
fn touch_move_is_off_online_and_adjusting_binds_nothing() {
    let verdict = Log::new("online", "300")
        .touch(1_000, W, "g1")
        .mv(2_000, W, "e4")
        .verdict();
    assert!(verdict.decisions.is_empty());
    let verdict = Log::new("fide-standard", "300")
        .adjust(1_000, W, "g1")
        .mv(2_000, W, "e4")
        .adjust(2_500, W, "d2")
        .verdict();
    assert_eq!(verdict.decisions.len(), 1, "{verdict}");
    assert_eq!(verdict.decisions[0].article.as_str(), "4.2.1");
    assert_eq!(pgn_moves(&verdict), ["e4"]);
}
