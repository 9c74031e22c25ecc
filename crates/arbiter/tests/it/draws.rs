//! Draws and resignation: offers (rules-spec 6.1, O1 to O5), repetition claims (6.2, R1 to R9),
//! fifty-move claims (6.3, F1 to F3), and the arbiter's side of section 3 (G4 to G6).

use crate::common::*;
use caissa_arbiter::{Ruling, Verdict};
use caissa_game::{GameResult, Reason};

fn last_ruling(verdict: &Verdict) -> (String, String) {
    let d = verdict.decisions.last().expect("a decision");
    (d.article.to_string(), d.ruling.to_string())
}

const KNIGHTS: &str = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8";

#[test]
fn o1_an_offer_is_declined_by_touching_a_piece() {
    let v = Log::new("fide-standard", "5400")
        .mv(1_000, W, "e4")
        .offer(1_000, W)
        .touch(2_000, B, "e7")
        .accept(3_000, B)
        .verdict();
    assert_eq!(v.outcome, None);
    let rulings: Vec<String> = v.decisions.iter().map(|d| d.ruling.to_string()).collect();
    assert_eq!(
        rulings,
        [
            "draw offered",
            "draw offer declined",
            "draw agreement refused: no draw offer is pending"
        ]
    );
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn o2_agreement_needs_a_move_by_each() {
    let log = Log::new("fide-standard", "5400")
        .mv(1_000, W, "e4")
        .offer(1_000, W)
        .accept(2_000, B);
    let v = log.clone().verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(last_ruling(&v).0, "5.2.3");
    // The offer stands: once Black has moved... a move declines it (9.1.2.1).
    let v = log.mv(3_000, B, "e5").accept(4_000, B).verdict();
    assert_eq!(v.outcome, None);
    // G6: no agreement before any move.
    let v = Log::new("fide-standard", "5400")
        .offer(500, W)
        .accept(600, B)
        .verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(last_ruling(&v).0, "5.2.3");
}

#[test]
fn o3_an_offer_cannot_be_withdrawn() {
    let v = Log::new("fide-standard", "5400")
        .moves(W, "e4 e5 Nf3")
        .offer(3_000, W)
        .withdraw(3_500, W)
        .accept(4_000, B)
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::Agreement, "5.2.3".into())
    );
    assert!(matches!(v.decisions[1].ruling, Ruling::OfferStands));
}

#[test]
fn o4_an_incorrect_claim_is_an_offer() {
    let v = Log::new("fide-standard", "5400")
        .moves(W, "e4 e5")
        .claim(3_000, W, threefold(None))
        .accept(4_000, B)
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::Agreement, "5.2.3".into())
    );
    assert_eq!(v.penalties.len(), 1);
    assert_eq!(v.penalties[0].article.as_str(), "9.5.3");
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn o5_no_offers_before_move_30_but_claims_stand() {
    let v = Log::new("fide-standard offers_from_move=30", "5400")
        .fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 20")
        .moves(W, KNIGHTS)
        .offer(9_000, W)
        .verdict();
    assert_eq!(last_ruling(&v).0, "9.1.1");
    let v = Log::new("fide-standard offers_from_move=30", "5400")
        .fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 20")
        .moves(W, KNIGHTS)
        .claim(9_000, W, threefold(None))
        .verdict();
    assert_eq!(
        result(&v),
        (
            GameResult::Draw,
            Reason::ThreefoldRepetition,
            "9.2.1.2".into()
        )
    );
}

#[test]
fn club_rule_no_new_offer_after_a_decline() {
    let log = Log::new("club", "900")
        .moves(W, "e4 e5")
        .offer(2_500, W)
        .decline(2_600, B)
        .mv(3_000, W, "Nf3")
        .offer(3_000, W);
    let v = log.clone().verdict();
    assert_eq!(last_ruling(&v).0, "11.5");
    // Once Black has offered (and White declined), White may offer again.
    let v = log
        .mv(4_000, B, "Nc6")
        .offer(4_000, B)
        .decline(4_500, W)
        .offer(4_600, W)
        .accept(4_700, B)
        .verdict();
    assert_eq!(result(&v).1, Reason::Agreement);
    // The Laws leave repeated offers to 11.5: FIDE rules allow them.
    let v = Log::new("fide-rapid", "900")
        .moves(W, "e4 e5")
        .offer(2_500, W)
        .decline(2_600, B)
        .offer(2_700, W)
        .accept(2_800, B)
        .verdict();
    assert_eq!(result(&v).1, Reason::Agreement);
}

#[test]
fn r1_to_r4_threefold_repetition() {
    // R1: White, having the move, claims the third occurrence on the board.
    let v = Log::new("fide-standard", "5400")
        .moves(W, KNIGHTS)
        .claim(9_000, W, threefold(None))
        .verdict();
    assert_eq!(
        result(&v),
        (
            GameResult::Draw,
            Reason::ThreefoldRepetition,
            "9.2.1.2".into()
        )
    );
    // R2: Black writes Ng8 and claims without playing it.
    let seven = "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1";
    let v = Log::new("fide-standard", "5400")
        .moves(W, seven)
        .claim(8_000, B, threefold(Some("Ng8")))
        .verdict();
    assert_eq!(
        result(&v),
        (
            GameResult::Draw,
            Reason::ThreefoldRepetition,
            "9.2.1.1".into()
        )
    );
    assert_eq!(pgn_moves(&v).len(), 7);
    insta::assert_snapshot!("r2", v.to_string());
    // R3: Black plays Ng8 first: too late for Black (9.5.3), White may claim.
    let v = Log::new("fide-standard", "5400")
        .moves(W, KNIGHTS)
        .claim(9_000, B, threefold(None))
        .claim(9_500, W, threefold(None))
        .verdict();
    assert_eq!(v.penalties[0].offender, B);
    assert_eq!(result(&v).1, Reason::ThreefoldRepetition);
    // R4: only the second occurrence: White gets two minutes, Black must play the written move.
    let v = Log::new("fide-standard", "5400")
        .moves(W, "Nf3 Nf6 Ng1 Ng8 Nf3")
        .claim(6_000, B, threefold(Some("Nf6")))
        .mv(7_000, B, "Nc6")
        .mv(8_000, B, "Nf6")
        .verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(
        v.clock_ms.map(|c| c.white),
        Some(5_400_000 - 3_000 + 120_000)
    );
    let rulings: Vec<(String, String)> = v
        .decisions
        .iter()
        .map(|d| (d.article.to_string(), d.ruling.to_string()))
        .collect();
    assert_eq!(
        rulings,
        [
            (
                "9.5.3".into(),
                "incorrect threefold claim: it stands as a draw offer; the written move Nf6 must be played".into()
            ),
            ("9.5.3".into(), "Nc6 breaks touch-move: must play one of Nf6".into()),
        ]
    );
    // The claim stands as Black's offer until White answers.
    assert_eq!(pgn_moves(&v).last().map(String::as_str), Some("Nf6"));
}

#[test]
fn r5_to_r9_what_counts_as_the_same_position() {
    let claim = |fen: Option<&str>, moves: &str, by, written: Option<&str>| {
        let mut log = Log::new("fide-standard", "5400");
        if let Some(fen) = fen {
            log = log.fen(fen);
        }
        let first = if fen.is_some_and(|f| f.contains(" b ")) {
            B
        } else {
            W
        };
        let log = log.moves(first, moves);
        let t = log.now() + 500;
        log.claim(t, by, threefold(written)).verdict().outcome
    };
    let r5 = "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8";
    assert_eq!(claim(None, r5, W, None), None, "R5: castling rights differ");
    let r6 = format!("{r5} Ke2 Ke7");
    assert!(claim(None, &r6, W, None).is_some(), "R6");
    let r7 = "c7c5 a1a2 h8g8 a2a1 g8h8 a1a2 h8g8 a2a1 g8h8";
    let fen7 = "7k/2p5/8/1P5r/8/8/8/K7 b - - 0 1";
    assert_eq!(
        claim(Some(fen7), r7, W, None),
        None,
        "R7: en passant was possible"
    );
    let r8 = "c7c5 a5a6 h8g8 a6a5 g8h8 a5a6 h8g8 a6a5 g8h8";
    let fen8 = "7k/2p5/8/KP5r/8/8/8/8 b - - 0 1";
    assert!(
        claim(Some(fen8), r8, W, None).is_some(),
        "R8: only pseudo-legal"
    );
    let r9 = "a4 Kd8 Kd1 Ke8 Ke1 Kd8 Kd1 Ke8 Ke1";
    let fen9 = "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1";
    assert_eq!(claim(Some(fen9), r9, B, None), None, "R9 on the board");
    assert!(
        claim(Some(fen9), r9, B, Some("Kd8")).is_some(),
        "R9 written"
    );
}

#[test]
fn f1_to_f3_fifty_moves() {
    let fen = "8/8/8/8/8/4k3/8/R3K3 w - - 99 80";
    let v = Log::new("fide-standard", "5400")
        .fen(fen)
        .claim(1_000, W, fifty(Some("Ra2")))
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::FiftyMoves, "9.3.1".into())
    );
    // F2: White plays Ra2 without claiming: Black may claim, White may not.
    let played = Log::new("fide-standard", "5400")
        .fen(fen)
        .mv(1_000, W, "Ra2");
    let v = played.clone().claim(2_000, W, fifty(None)).verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(v.penalties[0].offender, W);
    let v = played.claim(2_000, B, fifty(None)).verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::FiftyMoves, "9.3.2".into())
    );
    // F3: a written capture does not complete fifty moves.
    let v = Log::new("fide-standard", "5400")
        .fen("8/8/8/8/8/p3k3/8/R3K3 w - - 99 80")
        .claim(1_000, W, fifty(Some("Rxa3")))
        .verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(v.penalties[0].ms, 120_000);
    assert_eq!(v.clock_ms.map(|c| c.black), Some(5_520_000));
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn servers_draw_at_fifty_moves_without_a_claim() {
    let v = Log::new("online", "180+2")
        .fen("8/8/8/8/8/4k3/8/R3K3 w - - 99 80")
        .mv(1_000, W, "Ra2")
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::FiftyMoves, "9.3.2".into())
    );
    let v = Log::new("fide-standard auto_draw_threefold=true", "5400")
        .moves(W, KNIGHTS)
        .verdict();
    assert_eq!(result(&v).1, Reason::ThreefoldRepetition);
    // FIDE: the fifth occurrence ends the game without a claim (9.6.1).
    let v = Log::new("fide-standard", "5400")
        .moves(W, &format!("{KNIGHTS} {KNIGHTS}"))
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::FivefoldRepetition, "9.6.1".into())
    );
}

#[test]
fn g4_g5_resignation() {
    let fen = "8/8/8/4k3/8/8/8/4KQ2 w - - 0 1";
    let v = Log::new("fide-standard", "5400")
        .fen(fen)
        .resign(1_000, W)
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::Resignation, "5.1.2".into())
    );
    let v = Log::new("fide-standard", "5400")
        .fen(fen)
        .resign(1_000, B)
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::WhiteWins, Reason::Resignation, "5.1.2".into())
    );
    insta::assert_snapshot!(v.to_string());
}

#[test]
fn arbiter_declarations_and_warnings() {
    use caissa_arbiter::ArbiterAction;
    use caissa_game::Article;
    let v = Log::new("fide-standard", "5400")
        .ruling(1_000, ArbiterAction::Warning { player: B })
        .ruling(
            2_000,
            ArbiterAction::Declare {
                result: GameResult::BothLose,
                article: Some(Article::constant("11.8")),
            },
        )
        .resign(3_000, W)
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::BothLose, Reason::ArbiterDecision, "11.8".into())
    );
    assert_eq!(v.decisions[0].article.as_str(), "12.9.1");
    assert_eq!(v.notes.len(), 1);
    assert!(v.pgn.contains("[Result \"*\"]"));
    assert!(v.pgn.contains("[Termination \"rules infraction\"]"));
}

#[test]
fn a_claim_with_a_written_move_is_correct_if_the_board_qualifies() {
    // 9.3.2: a hundred half-moves on the board; the written pawn move would reset the count.
    let fen = "8/8/8/8/8/4k3/P7/R3K3 w - - 100 80";
    let v = Log::new("fide-standard", "5400")
        .fen(fen)
        .claim(1_000, W, fifty(Some("a3")))
        .verdict();
    assert_eq!(
        result(&v),
        (GameResult::Draw, Reason::FiftyMoves, "9.3.2".into())
    );
    // Even an illegal written move does not spoil a claim the board grounds.
    let v = Log::new("fide-standard", "5400")
        .fen(fen)
        .claim(1_000, W, fifty(Some("a5")))
        .verdict();
    assert_eq!(result(&v).1, Reason::FiftyMoves);
    // 9.2.1.2: the third occurrence stands on the board; a different move is written.
    let v = Log::new("fide-standard", "5400")
        .moves(W, KNIGHTS)
        .claim(9_000, W, threefold(Some("e4")))
        .verdict();
    assert_eq!(
        result(&v),
        (
            GameResult::Draw,
            Reason::ThreefoldRepetition,
            "9.2.1.2".into()
        )
    );
    // When the written move grounds the claim, its article is cited (9.3.1).
    let v = Log::new("fide-standard", "5400")
        .fen("8/8/8/8/8/4k3/P7/R3K3 w - - 99 80")
        .claim(1_000, W, fifty(Some("Rb1")))
        .verdict();
    assert_eq!(result(&v).2, "9.3.1");
    // Neither grounds it: penalised, and the written move must be played (9.5.3).
    let v = Log::new("fide-standard", "5400")
        .fen("8/8/8/8/8/4k3/P7/R3K3 w - - 98 80")
        .claim(1_000, W, fifty(Some("Rb1")))
        .verdict();
    assert_eq!(v.outcome, None);
    assert_eq!(v.penalties.len(), 1);
    assert_eq!(
        last_ruling(&v),
        (
            "9.5.3".into(),
            "incorrect fifty claim: it stands as a draw offer; the written move Rb1 must be played"
                .into()
        )
    );
    let v = Log::new("fide-standard", "5400")
        .moves(W, "Nf3 Nf6 Ng1 Ng8")
        .claim(5_000, W, threefold(Some("e4")))
        .verdict();
    assert_eq!((v.outcome, v.penalties.len()), (None, 1));
}

#[test]
fn repeated_offers_are_noted_under_the_fide_rules() {
    let offers = |rules: &str| {
        Log::new(rules, "900")
            .moves(W, "e4 e5")
            .offer(2_500, W)
            .decline(2_600, B)
            .offer(2_700, W)
            .verdict()
    };
    let v = offers("fide-rapid");
    assert!(matches!(
        v.decisions.last().map(|d| &d.ruling),
        Some(Ruling::DrawOffered { .. })
    ));
    let notes: Vec<&str> = v.notes.iter().map(|n| n.text.as_str()).collect();
    assert_eq!(
        notes,
        ["white offers again after a declined offer: repeated offers may annoy (11.5)"]
    );
    // The club rule still refuses it.
    let v = offers("club");
    assert_eq!(last_ruling(&v).0, "11.5");
    assert!(v.notes.is_empty());
    // An offer after the opponent's is no repetition.
    let v = Log::new("fide-rapid", "900")
        .moves(W, "e4 e5")
        .offer(2_500, W)
        .decline(2_600, B)
        .mv(3_000, W, "Nf3")
        .offer(3_500, B)
        .decline(3_600, W)
        .mv(4_000, B, "Nc6")
        .offer(4_500, W)
        .verdict();
    assert!(v.notes.is_empty(), "{:?}", v.notes);
}
