//! EPD: reading and writing operations, round trips, errors with their bytes, moves resolved
//! against the position, and every perft suite in `data/perft`.

use caissa_board::{Color, Square};
use caissa_movegen::{CastlingMode, Position};
use caissa_notation::epd::{self, Epd, Operand, Operation, ParseEpdErrorKind};
use caissa_notation::fen::{EnPassantMode, Fen, FenField, ParseFenErrorKind};
use caissa_notation::san::{ParseSanErrorKind, San, SanError, SanPlus};
use caissa_notation::uci::UciMove;
use caissa_testsuite::{parse_perft_suite, read_data};

const START_FIELDS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";

fn sans(texts: &[&str]) -> Vec<SanPlus> {
    texts.iter().map(|t| t.parse().unwrap()).collect()
}

/// Reads `text`, checks it against `operations`, and checks that writing gives `written` and
/// reading that back gives the same EPD.
fn check(text: &str, operations: &[Operation], written: &str) {
    let epd: Epd = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(epd.operations, operations, "{text}");
    let out = epd.to_string();
    assert_eq!(out, written, "{text}");
    let mut appended = String::new();
    epd.append_to(&mut appended);
    assert_eq!(appended, out);
    let again: Epd = out.parse().unwrap_or_else(|e| panic!("{out}: {e}"));
    assert_eq!(again, epd, "{text} -> {out}");
    assert_eq!(again.to_string(), out);
}

#[test]
fn typed_operations_read_and_write() {
    check(
        &format!("{START_FIELDS} bm e4 Nf3; am f3; id \"start\";"),
        &[
            Operation::BestMoves(sans(&["e4", "Nf3"])),
            Operation::AvoidMoves(sans(&["f3"])),
            Operation::Id("start".into()),
        ],
        &format!("{START_FIELDS} bm e4 Nf3; am f3; id \"start\";"),
    );
    check(
        &format!("{START_FIELDS}   hmvc 3;fmvn 12 ;acd 20; ce -35; c0 \"one\"; c9 \"nine\";"),
        &[
            Operation::HalfmoveClock(3),
            Operation::FullmoveNumber(12),
            Operation::AnalysisDepth(20),
            Operation::CentipawnEvaluation(-35),
            Operation::Comment {
                index: 0,
                text: "one".into(),
            },
            Operation::Comment {
                index: 9,
                text: "nine".into(),
            },
        ],
        &format!("{START_FIELDS} hmvc 3; fmvn 12; acd 20; ce -35; c0 \"one\"; c9 \"nine\";"),
    );
    check(
        &format!("{START_FIELDS} pv e4 e5 Nf3; ce +20"),
        &[
            Operation::PredictedVariation(sans(&["e4", "e5", "Nf3"])),
            Operation::CentipawnEvaluation(20),
        ],
        &format!("{START_FIELDS} pv e4 e5 Nf3; ce 20;"),
    );
}

#[test]
fn strings_keep_escapes_and_semicolons() {
    check(
        &format!(r#"{START_FIELDS} id "a \"quoted\" word; and \\ a backslash \n";"#),
        &[Operation::Id(
            r#"a "quoted" word; and \ a backslash \n"#.into(),
        )],
        &format!(r#"{START_FIELDS} id "a \"quoted\" word; and \\ a backslash \\n";"#),
    );
    check(
        &format!("{START_FIELDS} id WAC.001; c1 \"caf\u{e9}\";"),
        &[
            Operation::Id("WAC.001".into()),
            Operation::Comment {
                index: 1,
                text: "caf\u{e9}".into(),
            },
        ],
        &format!("{START_FIELDS} id \"WAC.001\"; c1 \"caf\u{e9}\";"),
    );
}

#[test]
fn unknown_opcodes_keep_their_operands() {
    check(
        &format!("{START_FIELDS} noop; dm 3; sv \"x y\" z 1.5; draw_accept; c10 \"c\";"),
        &[
            Operation::Other {
                opcode: "noop".into(),
                operands: vec![],
            },
            Operation::Other {
                opcode: "dm".into(),
                operands: vec![Operand::Word("3".into())],
            },
            Operation::Other {
                opcode: "sv".into(),
                operands: vec![
                    Operand::Quoted("x y".into()),
                    Operand::Word("z".into()),
                    Operand::Word("1.5".into()),
                ],
            },
            Operation::Other {
                opcode: "draw_accept".into(),
                operands: vec![],
            },
            Operation::Other {
                opcode: "c10".into(),
                operands: vec![Operand::Quoted("c".into())],
            },
        ],
        &format!("{START_FIELDS} noop; dm 3; sv \"x y\" z 1.5; draw_accept; c10 \"c\";"),
    );
}

#[test]
fn fields_and_counters() {
    let epd: Epd = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 ;D1 7".parse().unwrap();
    assert_eq!(epd.turn, Color::White);
    assert_eq!(epd.ep_square, Some(Square::D6));
    assert_eq!(epd.setup().halfmoves, 0);
    assert_eq!(epd.setup().fullmoves.get(), 1);
    let pos = epd.position(CastlingMode::Standard).unwrap();
    assert_eq!(pos.legal_moves().len(), 7);
    assert_eq!(epd.to_string(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 D1 7;");

    // FEN counters become hmvc and fmvn; hmvc/fmvn set the setup's counters.
    let epd: Epd = format!("{START_FIELDS} 5 40 id \"x\";").parse().unwrap();
    assert_eq!(
        epd.operations[..2],
        [Operation::HalfmoveClock(5), Operation::FullmoveNumber(40)]
    );
    assert_eq!(
        (epd.setup().halfmoves, epd.setup().fullmoves.get()),
        (5, 40)
    );
    let epd: Epd = format!("{START_FIELDS} fmvn 0; hmvc 9;").parse().unwrap();
    assert_eq!((epd.setup().halfmoves, epd.setup().fullmoves.get()), (9, 1));

    // Chess960 castling in Shredder-FEN comes back as X-FEN (both rooks are outermost).
    let epd: Epd = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - ;D1 21"
        .parse()
        .unwrap();
    assert_eq!(
        epd.to_string(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - D1 21;"
    );
    assert!(epd.position(CastlingMode::Chess960).is_ok());

    // From a position: the en passant square as the mode says, no operations.
    let mut pos = Position::standard();
    pos.play_unchecked(
        "e4".parse::<San>()
            .unwrap()
            .to_move(&Position::standard())
            .unwrap(),
    );
    let epd = Epd::from_position(&pos, EnPassantMode::Always);
    assert_eq!(
        epd.to_string(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"
    );
    assert_eq!(
        Epd::from_position(&pos, EnPassantMode::Legal).ep_square,
        None
    );
    assert_eq!(
        Fen::from(epd.setup()).to_string(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
}

#[test]
fn accessors_find_the_first_operation() {
    let epd: Epd =
        format!("{START_FIELDS} c2 \"b\"; id \"first\"; id \"second\"; c2 \"c\"; D2 400;")
            .parse()
            .unwrap();
    assert_eq!(epd.id(), Some("first"));
    assert_eq!(epd.comment(2), Some("b"));
    assert_eq!(epd.comment(3), None);
    assert_eq!(
        epd.operation("D2"),
        Some(&Operation::Perft {
            depth: 2,
            nodes: 400
        })
    );
    assert_eq!(epd.operation("c2").map(|op| op.opcode()), Some("c2".into()));
    assert_eq!(epd.operation("bm"), None);
    assert_eq!(epd.perft().collect::<Vec<_>>(), [(2, 400)]);
}

#[test]
fn moves_are_resolved_on_demand() {
    let uci = |pos: &Position, moves: Vec<caissa_movegen::Move>| -> Vec<String> {
        moves
            .into_iter()
            .map(|m| UciMove::from_move(pos, m).to_string())
            .collect()
    };
    let epd: Epd = format!("{START_FIELDS} bm e4 Nf3; am g4; pv e4 e5 Nf3 Nc6 Bb5 a6;")
        .parse()
        .unwrap();
    let pos = epd.position(CastlingMode::Standard).unwrap();
    assert_eq!(uci(&pos, epd.best_moves(&pos).unwrap()), ["e2e4", "g1f3"]);
    assert_eq!(uci(&pos, epd.avoid_moves(&pos).unwrap()), ["g2g4"]);
    let pv = epd.predicted_variation(&pos).unwrap();
    assert_eq!(pv.len(), 6);
    let mut after = pos;
    let mut texts = Vec::new();
    for m in pv {
        texts.push(SanPlus::from_move_and_play_unchecked(&mut after, m).to_string());
    }
    assert_eq!(texts, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);

    // Without the operation: no moves.
    let bare: Epd = START_FIELDS.parse().unwrap();
    assert_eq!(bare.best_moves(&pos), Ok(vec![]));

    // The first move that does not fit is reported with its index.
    let epd: Epd = format!("{START_FIELDS} bm e4 Nf6; pv e4 e4;")
        .parse()
        .unwrap();
    let error = epd.best_moves(&pos).unwrap_err();
    assert_eq!((error.opcode, error.index), ("bm", 1));
    assert!(matches!(error.error, SanError::Illegal { .. }));
    assert_eq!(
        error.to_string(),
        "EPD operation bm, move 1: illegal move Nf6: no legal move matches"
    );
    let error = epd.predicted_variation(&pos).unwrap_err();
    assert_eq!((error.opcode, error.index), ("pv", 1));
}

#[test]
fn errors_name_the_byte() {
    let fields = START_FIELDS.len();
    let fen_error = |field, kind| ParseEpdErrorKind::Fen { field, kind };
    let table: Vec<(String, usize, ParseEpdErrorKind)> = vec![
        (
            String::new(),
            0,
            ParseEpdErrorKind::MissingField(FenField::Placement),
        ),
        (
            "8/8/8/8/8/8/8/8 w".into(),
            17,
            ParseEpdErrorKind::MissingField(FenField::Castling),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -".into(),
            34,
            fen_error(FenField::Placement, ParseFenErrorKind::TooFewRanks),
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -".into(),
            44,
            fen_error(FenField::Turn, ParseFenErrorKind::UnexpectedChar('x')),
        ),
        (
            format!("{START_FIELDS} 0 1 2"),
            fields + 5,
            ParseEpdErrorKind::BadOpcode,
        ),
        (
            format!("{START_FIELDS} b-m e4;"),
            fields + 2,
            ParseEpdErrorKind::BadOpcode,
        ),
        (
            format!("{START_FIELDS} id \"open;"),
            fields + 4,
            ParseEpdErrorKind::UnterminatedString,
        ),
        (
            format!("{START_FIELDS} hmvc x;"),
            fields + 6,
            ParseEpdErrorKind::BadNumber,
        ),
        (
            format!("{START_FIELDS} ce 99999999999;"),
            fields + 4,
            ParseEpdErrorKind::BadNumber,
        ),
        (
            format!("{START_FIELDS} D3 -1;"),
            fields + 4,
            ParseEpdErrorKind::BadNumber,
        ),
        (
            format!("{START_FIELDS} hmvc \"3\";"),
            fields + 6,
            ParseEpdErrorKind::UnexpectedString,
        ),
        (
            format!("{START_FIELDS} bm \"e4\";"),
            fields + 4,
            ParseEpdErrorKind::UnexpectedString,
        ),
        (
            format!("{START_FIELDS} bm;"),
            fields + 3,
            ParseEpdErrorKind::MissingOperand,
        ),
        (
            format!("{START_FIELDS} id"),
            fields + 3,
            ParseEpdErrorKind::MissingOperand,
        ),
        (
            format!("{START_FIELDS} id \"a\" \"b\";"),
            fields + 8,
            ParseEpdErrorKind::ExtraOperand,
        ),
        (
            format!("{START_FIELDS} acd 1 2;"),
            fields + 7,
            ParseEpdErrorKind::ExtraOperand,
        ),
        (
            format!("{START_FIELDS} bm e4 Nz3;"),
            fields + 8,
            ParseEpdErrorKind::San(ParseSanErrorKind::ExpectedSquare),
        ),
    ];
    for (text, byte, kind) in table {
        let error = text.parse::<Epd>().unwrap_err();
        assert_eq!((error.byte, error.kind), (byte, kind), "{text:?}: {error}");
    }
    let error = Epd::from_ascii(b"8/8/8/8/8/8/8/8 w - - id \"\xff\";").unwrap_err();
    assert_eq!(
        (error.byte, error.kind),
        (26, ParseEpdErrorKind::InvalidUtf8)
    );
    assert_eq!(
        format!("{START_FIELDS} hmvc x;")
            .parse::<Epd>()
            .unwrap_err()
            .to_string(),
        format!(
            "invalid EPD: expected a number in range at byte {}",
            fields + 6
        )
    );
}

/// Every perft suite in `data/perft` reads line by line into the same positions, counts and ids
/// as the test suite's own perft-suite reader, and survives a write-read round trip.
#[test]
fn perft_suites_read_and_round_trip() {
    let files = [
        ("perft/standard.epd", CastlingMode::Standard),
        ("perft/random-d4.epd", CastlingMode::Standard),
        ("perft/random-d5.epd", CastlingMode::Standard),
        ("perft/chess960-starts-d5.epd", CastlingMode::Chess960),
        ("perft/chess960-random-d4.epd", CastlingMode::Chess960),
    ];
    let mut lines = 0;
    for (file, mode) in files {
        let text = read_data(file);
        let cases = parse_perft_suite(&text);
        let epds: Vec<(usize, Epd)> = epd::read_lines(&text)
            .map(|(line, result)| {
                (
                    line,
                    result.unwrap_or_else(|e| panic!("{file}:{line}: {e}")),
                )
            })
            .collect();
        assert_eq!(epds.len(), cases.len(), "{file}");
        for ((line, epd), case) in epds.iter().zip(&cases) {
            let at = format!("{file}:{line}");
            assert_eq!(*line, case.line, "{at}");
            let fen: Fen = case.fen.parse().unwrap();
            assert_eq!(epd.setup(), fen.into_setup(), "{at}");
            assert_eq!(epd.perft().collect::<Vec<_>>(), case.counts, "{at}");
            assert_eq!(epd.id(), case.id.as_deref(), "{at}");
            epd.position(mode).unwrap_or_else(|e| panic!("{at}: {e}"));
            let written = epd.to_string();
            let again: Epd = written
                .parse()
                .unwrap_or_else(|e| panic!("{at}: {written}: {e}"));
            assert_eq!(&again, epd, "{at}: {written}");
            assert_eq!(again.to_string(), written, "{at}");
            lines += 1;
        }
    }
    assert_eq!(lines, 8 - 1 + 4000 + 100 + 960 + 1000);
}
