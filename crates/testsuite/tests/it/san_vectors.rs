//! SAN vectors: every leniency read leniently and refused strictly, ambiguous and illegal moves,
//! syntax errors with their bytes, and snapshots of the SAN lists of a few positions.

use caissa_movegen::{CastlingMode, Move, Position};
use caissa_notation::fen::Fen;
use caissa_notation::san::{
    Leniency, ParseSanErrorKind, San, SanError, SanPlus, StrictSanError, Suffix,
};
use caissa_notation::uci::UciMove;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const IN_CHECK: &str = "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1";
const AFTER_E4_D5: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
const EN_PASSANT: &str = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
/// `e8=Q` gives check along the e8-h5 diagonal.
const PROMOTION: &str = "8/4P3/8/7k/8/8/8/4K3 w - - 0 1";
/// Knights on b1 and f3 both reach d2.
const TWO_KNIGHTS: &str = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
/// The f3 knight is pinned: only the b1 knight reaches d2.
const PINNED: &str = "4k3/8/8/8/4b3/5N2/8/1N5K w - - 0 1";
/// Rooks on a1 and a5 both reach a3.
const TWO_ROOKS: &str = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
/// Queens on a1, a3 and c1 all reach b2.
const THREE_QUEENS: &str = "8/7k/8/8/8/Q7/8/Q1Q3K1 w - - 0 1";
/// Scholar's mate: `Qxf7#`.
const MATE: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
/// Chess960: king f1, rook h1; `Kg1` is a plain king move, `O-O` checks along the f file.
const C960_F1: &str = "5k2/8/8/8/8/8/8/5K1R w H - 0 1";
/// Chess960: king g1 castles in place (only the rook moves).
const C960_IN_PLACE: &str = "6k1/8/8/8/8/8/8/6KR w H - 0 1";

fn position(fen: &str) -> Position {
    let mode = if fen.starts_with("5k2") || fen.starts_with("6k1") {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(mode)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// UCI with castling as king takes rook, as in Chess960.
fn uci(m: Move) -> String {
    UciMove::from_move_in_mode(m, CastlingMode::Chess960).to_string()
}

#[test]
fn strict_spellings_are_accepted_in_both_modes() {
    let table = [
        (START, "e4", "e2e4"),
        (START, "Nf3", "g1f3"),
        (CASTLING, "O-O", "e1h1"),
        (CASTLING, "O-O-O", "e1a1"),
        (CASTLING, "Rxa8+", "a1a8"),
        (AFTER_E4_D5, "exd5", "e4d5"),
        (EN_PASSANT, "exf6", "e5f6"),
        (PROMOTION, "e8=Q+", "e7e8q"),
        (PROMOTION, "e8=R", "e7e8r"),
        (PROMOTION, "e8=N", "e7e8n"),
        (TWO_KNIGHTS, "Nbd2", "b1d2"),
        (TWO_KNIGHTS, "Nfd2", "f3d2"),
        (PINNED, "Nd2", "b1d2"),
        (TWO_ROOKS, "R1a3", "a1a3"),
        (TWO_ROOKS, "R5a3", "a5a3"),
        (THREE_QUEENS, "Qa1b2", "a1b2"),
        (THREE_QUEENS, "Q3b2", "a3b2"),
        (THREE_QUEENS, "Qcb2", "c1b2"),
        (MATE, "Qxf7#", "h5f7"),
        (C960_F1, "Kg1", "f1g1"),
        (C960_F1, "O-O+", "f1h1"),
        (C960_IN_PLACE, "O-O", "g1h1"),
    ];
    for (fen, text, expected) in table {
        let pos = position(fen);
        let strict = San::parse_strict(text.as_bytes(), &pos)
            .unwrap_or_else(|e| panic!("strict {text} in {fen}: {e}"));
        assert_eq!(uci(strict), expected, "strict {text} in {fen}");
        let lenient = SanPlus::from_ascii(text.as_bytes())
            .unwrap()
            .san
            .to_move(&pos)
            .unwrap();
        assert_eq!(lenient, strict, "lenient {text} in {fen}");
        assert_eq!(SanPlus::from_move(&pos, strict).to_string(), text);
        assert_eq!(resolved(text, &pos).to_string(), text, "{fen}");
    }
}

/// The SAN that a replay writes for `text` ([`SanPlus::from_resolved`]), checked against the
/// SAN of the move it stands for ([`SanPlus::from_move`]).
fn resolved(text: &str, pos: &Position) -> SanPlus {
    let written = SanPlus::from_ascii(text.as_bytes()).unwrap().san;
    let m = written.to_move(pos).unwrap();
    let after = pos.play(m).unwrap();
    let san = SanPlus::from_resolved(written, pos, m, &after);
    assert_eq!(san, SanPlus::from_move(pos, m), "{text} resolved");
    san
}

#[test]
fn lenient_spellings_are_read_and_refused_strictly() {
    use Leniency::{
        AnnotationGlyph, CastlingAsKingMove, Disambiguation, Hyphen, LowercasePromotion,
        MissingCapture, MissingPromotionSign, PawnLetter, SpuriousCapture, ZeroCastling,
    };
    let suffix = |written, expected| Leniency::Suffix { written, expected };
    let table = [
        (CASTLING, "0-0", "e1h1", ZeroCastling, 0),
        (CASTLING, "0-0-0", "e1a1", ZeroCastling, 0),
        (CASTLING, "Kg1", "e1h1", CastlingAsKingMove, 0),
        (CASTLING, "Ke1g1", "e1h1", CastlingAsKingMove, 0),
        (CASTLING, "Kxh1", "e1h1", CastlingAsKingMove, 0),
        (CASTLING, "Kc1", "e1a1", CastlingAsKingMove, 0),
        (CASTLING, "O-O!", "e1h1", AnnotationGlyph, 3),
        (
            CASTLING,
            "O-O+",
            "e1h1",
            suffix(Some(Suffix::Check), None),
            3,
        ),
        (
            CASTLING,
            "Rxa8",
            "a1a8",
            suffix(None, Some(Suffix::Check)),
            4,
        ),
        (START, "Pe4", "e2e4", PawnLetter, 0),
        (START, "Pe2e4", "e2e4", PawnLetter, 0),
        (START, "e2e4", "e2e4", Disambiguation, 0),
        (START, "e2-e4", "e2e4", Disambiguation, 0),
        (START, "Ng1f3", "g1f3", Disambiguation, 1),
        (START, "Ng1-f3", "g1f3", Disambiguation, 1),
        (START, "N-f3", "g1f3", Hyphen, 1),
        (START, "Nf3!?", "g1f3", AnnotationGlyph, 3),
        (START, "Nf3??", "g1f3", AnnotationGlyph, 3),
        (START, "Nf3+", "g1f3", suffix(Some(Suffix::Check), None), 3),
        (
            START,
            "Nf3#!",
            "g1f3",
            suffix(Some(Suffix::Checkmate), None),
            3,
        ),
        (START, "Nxf3", "g1f3", SpuriousCapture, 1),
        (START, "exe4", "e2e4", Disambiguation, 0),
        (START, "Nxf3!", "g1f3", SpuriousCapture, 1),
        (AFTER_E4_D5, "ed5", "e4d5", MissingCapture, 1),
        (AFTER_E4_D5, "e4d5", "e4d5", Disambiguation, 1),
        (AFTER_E4_D5, "e4xd5", "e4d5", Disambiguation, 1),
        (AFTER_E4_D5, "Pexd5", "e4d5", PawnLetter, 0),
        (AFTER_E4_D5, "exd5!", "e4d5", AnnotationGlyph, 4),
        (EN_PASSANT, "ef6", "e5f6", MissingCapture, 1),
        (EN_PASSANT, "e5f6", "e5f6", Disambiguation, 1),
        (PROMOTION, "e8Q+", "e7e8q", MissingPromotionSign, 2),
        (PROMOTION, "e8q+", "e7e8q", MissingPromotionSign, 2),
        (PROMOTION, "e8=q+", "e7e8q", LowercasePromotion, 3),
        (
            PROMOTION,
            "e8=Q",
            "e7e8q",
            suffix(None, Some(Suffix::Check)),
            4,
        ),
        (
            PROMOTION,
            "e8=Q#",
            "e7e8q",
            suffix(Some(Suffix::Checkmate), Some(Suffix::Check)),
            4,
        ),
        (PROMOTION, "e7e8=Q+", "e7e8q", Disambiguation, 0),
        (TWO_KNIGHTS, "N1d2", "b1d2", Disambiguation, 1),
        (TWO_KNIGHTS, "Nb1d2", "b1d2", Disambiguation, 2),
        (TWO_KNIGHTS, "N3d2", "f3d2", Disambiguation, 1),
        (PINNED, "Nbd2", "b1d2", Disambiguation, 1),
        (PINNED, "Nb1d2", "b1d2", Disambiguation, 1),
        (TWO_ROOKS, "Ra1a3", "a1a3", Disambiguation, 1),
        (THREE_QUEENS, "Qa3b2", "a3b2", Disambiguation, 1),
        (THREE_QUEENS, "Qc1b2", "c1b2", Disambiguation, 2),
        (
            MATE,
            "Qxf7+",
            "h5f7",
            suffix(Some(Suffix::Check), Some(Suffix::Checkmate)),
            4,
        ),
        (
            MATE,
            "Qxf7",
            "h5f7",
            suffix(None, Some(Suffix::Checkmate)),
            4,
        ),
        (MATE, "Qf7#", "h5f7", MissingCapture, 1),
        (MATE, "Qh5xf7#", "h5f7", Disambiguation, 1),
        (
            MATE,
            "Qxf7!!",
            "h5f7",
            suffix(None, Some(Suffix::Checkmate)),
            4,
        ),
        (C960_F1, "Kh1", "f1h1", CastlingAsKingMove, 0),
        (C960_F1, "Kxh1+", "f1h1", CastlingAsKingMove, 0),
        (C960_F1, "0-0+", "f1h1", ZeroCastling, 0),
        (C960_F1, "O-O", "f1h1", suffix(None, Some(Suffix::Check)), 3),
        (C960_IN_PLACE, "Kh1", "g1h1", CastlingAsKingMove, 0),
        (CASTLING, "Keg1", "e1h1", CastlingAsKingMove, 0),
        (CASTLING, "K1c1", "e1a1", CastlingAsKingMove, 0),
        (C960_F1, "Kf1xh1", "f1h1", CastlingAsKingMove, 0),
    ];
    for (fen, text, expected, leniency, byte) in table {
        let pos = position(fen);
        let m = SanPlus::from_ascii(text.as_bytes())
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .san
            .to_move(&pos)
            .unwrap_or_else(|e| panic!("lenient {text} in {fen}: {e}"));
        assert_eq!(uci(m), expected, "lenient {text} in {fen}");
        let strict = SanPlus::from_move(&pos, m);
        assert_eq!(resolved(text, &pos), strict, "{fen}");
        assert_eq!(
            San::parse_strict(text.as_bytes(), &pos),
            Err(StrictSanError::NotStrict {
                byte,
                reason: leniency,
                expected: strict,
            }),
            "strict {text} in {fen}"
        );
    }
}

#[test]
fn strict_errors_say_why_and_where() {
    let pos = position(AFTER_E4_D5);
    let error = San::parse_strict(b"ed5", &pos).unwrap_err();
    assert_eq!(
        error.to_string(),
        "not strict SAN at byte 1: a capture is written with x; the move is written exd5"
    );
    let pos = position(MATE);
    assert_eq!(
        San::parse_strict(b"Qxf7+", &pos).unwrap_err().to_string(),
        "not strict SAN at byte 4: the move checkmates: end it with #; the move is written Qxf7#"
    );
    let pos = position(START);
    assert_eq!(
        San::parse_strict(b"Nf3 ", &pos).unwrap_err().to_string(),
        "invalid SAN: unexpected text after the move at byte 3"
    );
    assert_eq!(
        San::parse_strict(b"Nf6", &pos).unwrap_err().to_string(),
        "illegal move Nf6: no legal move matches"
    );
    assert_eq!(
        San::parse_strict(b"0-0", &pos),
        Err(StrictSanError::Meaning(SanError::Illegal {
            san: San::Castle(caissa_board::CastlingSide::KingSide)
        }))
    );
}

#[test]
fn ambiguous_moves_name_their_candidates() {
    let table: [(&str, &str, &[&str]); 7] = [
        (TWO_KNIGHTS, "Nd2", &["b1d2", "f3d2"]),
        (TWO_KNIGHTS, "Nxd2", &["b1d2", "f3d2"]),
        (TWO_ROOKS, "Ra3", &["a1a3", "a5a3"]),
        (TWO_ROOKS, "Raa3", &["a1a3", "a5a3"]),
        (THREE_QUEENS, "Qb2", &["a1b2", "a3b2", "c1b2"]),
        (THREE_QUEENS, "Qab2", &["a1b2", "a3b2"]),
        (THREE_QUEENS, "Q1b2", &["a1b2", "c1b2"]),
    ];
    for (fen, text, expected) in table {
        let pos = position(fen);
        let san: San = text.parse().unwrap();
        let Err(SanError::Ambiguous {
            san: reported,
            candidates,
        }) = san.to_move(&pos)
        else {
            panic!("{text} in {fen} should be ambiguous");
        };
        assert_eq!(reported, san);
        let mut found: Vec<String> = candidates.as_slice().iter().map(|&m| uci(m)).collect();
        found.sort();
        assert_eq!(found, expected, "{text} in {fen}");
        assert!(matches!(
            San::parse_strict(text.as_bytes(), &pos),
            Err(StrictSanError::Meaning(SanError::Ambiguous { .. }))
        ));
    }
    let pos = position(TWO_KNIGHTS);
    assert_eq!(
        "Nd2"
            .parse::<San>()
            .unwrap()
            .to_move(&pos)
            .unwrap_err()
            .to_string(),
        "ambiguous move Nd2: it could be b1d2, f3d2"
    );
}

#[test]
fn illegal_moves_are_not_ambiguous() {
    let table = [
        (START, "Ne5"),
        (START, "e5"),
        (START, "exd3"),
        (START, "O-O"),
        (START, "O-O-O"),
        (START, "Ke2"),
        (START, "Qd1"),
        (START, "Kg1"),
        (START, "Bb2"),
        (PINNED, "Nfd2"),
        (PINNED, "Nf3d2"),
        (TWO_KNIGHTS, "Nbd3"),
        (TWO_KNIGHTS, "Ncd2"),
        (TWO_KNIGHTS, "N2d2"),
        (IN_CHECK, "O-O"),
        (IN_CHECK, "Kg1"),
        // Castling as a king move names the king's square, if any.
        (CASTLING, "Kd1g1"),
        (CASTLING, "Kfg1"),
        (CASTLING, "K2g1"),
        (CASTLING, "Kf1xh1"),
        (C960_F1, "Ke1h1"),
        (IN_CHECK, "Kf2"),
        (IN_CHECK, "Ra2"),
        (PROMOTION, "exd8=Q"),
        (START, "e8=Q+!"),
        (PROMOTION, "Ke1"),
        (EN_PASSANT, "dxe6"),
    ];
    for (fen, text) in table {
        let pos = position(fen);
        let san = SanPlus::from_ascii(text.as_bytes()).unwrap().san;
        let illegal = SanError::Illegal { san };
        assert_eq!(san.to_move(&pos), Err(illegal), "{text} in {fen}");
        assert_eq!(
            San::parse_strict(text.as_bytes(), &pos),
            Err(StrictSanError::Meaning(illegal)),
            "strict {text} in {fen}"
        );
    }
}

#[test]
fn null_moves_are_read_but_not_played() {
    let pos = position(START);
    for text in ["--", "Z0", "--+", "Z0!"] {
        let san: San = text.parse().unwrap();
        assert_eq!(san, San::Null);
        assert_eq!(san.to_string(), "--");
        assert_eq!(san.to_move(&pos), Err(SanError::Null));
        assert_eq!(
            San::parse_strict(text.as_bytes(), &pos),
            Err(StrictSanError::Meaning(SanError::Null))
        );
    }
}

#[test]
fn syntax_errors_name_the_byte() {
    use ParseSanErrorKind::*;
    let table = [
        ("", 0, Empty),
        ("Nf", 2, ExpectedSquare),
        ("Nz3", 1, ExpectedSquare),
        ("N", 1, ExpectedSquare),
        ("Nbx", 3, ExpectedSquare),
        ("Nb1x", 4, ExpectedSquare),
        ("exd", 2, ExpectedSquare),
        ("e", 1, ExpectedSquare),
        ("N1-", 3, ExpectedSquare),
        ("xd5", 0, ExpectedMove),
        ("nf3", 0, ExpectedMove),
        ("-", 0, ExpectedMove),
        ("Z", 0, ExpectedMove),
        ("\u{e9}4", 0, ExpectedMove),
        ("+", 0, ExpectedMove),
        ("Pxd5", 1, PawnCaptureWithoutFile),
        // Written without the `P`, a rank-only pawn move would not read back (fuzz crash
        // `pawn-rank-disambiguation-P4e4`).
        ("P4e4", 1, PawnRankWithoutFile),
        ("P3-e4", 1, PawnRankWithoutFile),
        ("P7e8=Q", 1, PawnRankWithoutFile),
        ("e8", 2, MissingPromotion),
        ("exd1", 4, MissingPromotion),
        ("e7=Q", 2, UnexpectedPromotion),
        ("e6Q", 2, UnexpectedPromotion),
        ("Nf3=Q", 3, UnexpectedPromotion),
        ("Ke8=Q", 3, UnexpectedPromotion),
        ("e8=K", 3, ExpectedPromotion),
        ("e8=P", 3, ExpectedPromotion),
        ("e8=", 3, ExpectedPromotion),
        ("O", 1, BadCastling),
        ("O-", 2, BadCastling),
        ("O-0", 2, BadCastling),
        ("0-O", 2, BadCastling),
        ("O-O-", 4, BadCastling),
        ("O-O-0", 4, BadCastling),
        ("O-O-O-O", 5, TrailingText),
        ("Nf3 ", 3, TrailingText),
        (" Nf3", 0, ExpectedMove),
        ("Nf3!!!", 3, TrailingText),
        ("Nf3+#", 4, TrailingText),
        ("Nf3++", 4, TrailingText),
        ("Nf3!+", 3, TrailingText),
        ("e4e5e6", 4, TrailingText),
        ("e8=QQ", 4, TrailingText),
        ("---", 2, TrailingText),
    ];
    for (text, byte, kind) in table {
        assert_eq!(
            SanPlus::from_ascii(text.as_bytes()).map_err(|e| (e.byte, e.kind)),
            Err((byte, kind)),
            "{text:?}"
        );
        assert_eq!(
            San::from_ascii(text.as_bytes()).map_err(|e| (e.byte, e.kind)),
            Err((byte, kind)),
            "{text:?}"
        );
    }
    assert_eq!(
        "Nz3".parse::<San>().unwrap_err().to_string(),
        "invalid SAN: expected a square such as e4 at byte 1"
    );
}

#[test]
fn parse_print_parse_round_trips() {
    let texts = [
        "e4", "Nf3", "Nbd7", "R1a3", "Qh4xe1", "exd5", "e8=Q", "exd1=N#", "O-O", "O-O-O+", "--",
        "Kxh1", "Pe4", "0-0-0", "Ng1-f3", "e8q", "e8=r", "Nf3!?", "ed5", "Z0", "Bxc4?!", "Qa1b2#",
    ];
    for text in texts {
        let parsed: SanPlus = text.parse().unwrap();
        let printed = parsed.to_string();
        assert_eq!(
            printed.parse::<SanPlus>(),
            Ok(parsed),
            "{text} -> {printed}"
        );
        let mut out = String::new();
        parsed.san.append_to(&mut out);
        assert_eq!(out.parse::<San>(), Ok(parsed.san), "{text}");
        assert_eq!(
            text.parse::<San>(),
            Ok(parsed.san),
            "San drops the suffix of {text}"
        );
    }
    assert_eq!("Nf3#".parse::<SanPlus>().unwrap().to_string(), "Nf3#");
    assert_eq!("0-0+!".parse::<SanPlus>().unwrap().to_string(), "O-O+");
    assert_eq!("Pe2-e4".parse::<SanPlus>().unwrap().to_string(), "e2e4");
    assert_eq!(Suffix::Checkmate.to_string(), "#");
}

/// The legal moves of `fen` with their SAN, sorted by SAN, for a snapshot.
fn san_list(fen: &str, mode: CastlingMode) -> String {
    let pos = fen.parse::<Fen>().unwrap().into_position(mode).unwrap();
    let mut lines: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let uci = UciMove::from_move(&pos, m);
            format!("{:<8} {uci}", SanPlus::from_move(&pos, m).to_string())
        })
        .collect();
    lines.sort();
    format!("{fen}\n{} legal moves\n{}\n", lines.len(), lines.join("\n"))
}

#[test]
fn san_lists_snapshot() {
    let positions = [
        ("san_start", START, CastlingMode::Standard),
        (
            "san_kiwipete",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "san_promotions",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            CastlingMode::Standard,
        ),
        ("san_three_queens", THREE_QUEENS, CastlingMode::Standard),
        (
            "san_chess960_castling",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            CastlingMode::Chess960,
        ),
    ];
    for (name, fen, mode) in positions {
        insta::assert_snapshot!(name, san_list(fen, mode));
    }
}
