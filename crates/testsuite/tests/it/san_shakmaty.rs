//! SAN differential test against shakmaty, over random positions.
//!
//! Seeded random games from the standard start and from random Chess960 starts (biased towards
//! castling, en passant and promotions). For every legal move of every sampled position:
//!
//! - our SAN with its suffix equals shakmaty's, character for character;
//! - `SanPlus::from_move_and_play_unchecked` writes the same and plays the move;
//! - the text parses back (lenient syntax) into the same `SanPlus`, which prints the same text;
//! - both the strict reader and the lenient `to_move` give back the move;
//! - the long-algebraic spelling (full origin), a capture without `x`, and castling written as
//!   a king move are read leniently as the same move, and refused by the strict reader with the
//!   right reason.
//!
//! `CAISSA_SAN_POSITIONS=<n>` and `CAISSA_SAN_SEED=<u64>` change the amount and the games.

use caissa_testsuite::{env_number, random};

use std::time::Instant;

use caissa_board::Role;
use caissa_movegen::{CastlingMode, Move, Position};
use caissa_notation::fen::{EnPassantMode, Fen};
use caissa_notation::san::{Leniency, San, SanPlus, StrictSanError, Suffix};
use caissa_notation::uci::UciMove;
use random::{Bias, RandomGame, Rng};
use shakmaty::Position as _;

/// Positions compared when `CAISSA_SAN_POSITIONS` is not set.
const DEFAULT_POSITIONS: usize = 100_000;
/// The seed of the game sequence when `CAISSA_SAN_SEED` is not set.
const DEFAULT_SEED: u64 = 0x5A11_0000_CA15_5A01;
/// The share of positions along a game that are compared.
const SAMPLE_PERCENT: u32 = 40;

#[derive(Debug, Default)]
struct Stats {
    positions: usize,
    chess960: usize,
    moves: usize,
    disambiguated: usize,
    both_hints: usize,
    castles: usize,
    promotions: usize,
    en_passant: usize,
    checks: usize,
    mates: usize,
}

#[test]
fn san_of_random_positions_agrees_with_shakmaty() {
    let positions = env_number("CAISSA_SAN_POSITIONS").map_or(DEFAULT_POSITIONS, |n| {
        usize::try_from(n).expect("CAISSA_SAN_POSITIONS fits in usize")
    });
    let seed = env_number("CAISSA_SAN_SEED").unwrap_or(DEFAULT_SEED);
    let started = Instant::now();
    let mut stats = Stats::default();
    let mut games = Rng::new(seed);
    let mut game = 0;
    while stats.positions < positions {
        let mut rng = Rng::new(games.next_u64());
        let start = rng.start_position();
        let bias = match rng.below(3) {
            0 => Bias::UNIFORM,
            1 => Bias {
                special: 50,
                pawn: 10,
                castle: 50,
                ..Bias::UNIFORM
            },
            _ => Bias {
                special: 90,
                pawn: 40,
                checkmate: 100,
                ..Bias::UNIFORM
            },
        };
        let max_plies = 20 + u32::try_from(rng.below(200)).expect("below 200");
        let mut sample = Rng::new(rng.next_u64());
        for (ply, pos) in RandomGame::new(Rng::new(rng.next_u64()), start, max_plies, bias) {
            if sample.percent(SAMPLE_PERCENT) && stats.positions < positions {
                let context = format!("game #{game}, ply {ply} (CAISSA_SAN_SEED={seed:#x})");
                check_position(&pos, &context, &mut stats);
            }
        }
        game += 1;
    }
    eprintln!(
        "san_shakmaty: {game} games, {:.1} s\n{stats:#?}",
        started.elapsed().as_secs_f64()
    );
    // The games must reach what the comparison is for (floors about half of what the default
    // seed reaches).
    let per_100k = |n: usize| n * positions / 100_000;
    for (what, count, floor) in [
        ("Chess960 positions", stats.chess960, per_100k(40_000)),
        ("disambiguated moves", stats.disambiguated, per_100k(35_000)),
        ("moves with file and rank", stats.both_hints, per_100k(3)),
        ("castling moves", stats.castles, per_100k(2_000)),
        ("promotions", stats.promotions, per_100k(6_000)),
        ("en passant captures", stats.en_passant, per_100k(500)),
        ("checks", stats.checks, per_100k(80_000)),
        ("mates", stats.mates, per_100k(900)),
    ] {
        assert!(
            count >= floor,
            "only {count} {what} (expected at least {floor})"
        );
    }
}

fn shakmaty_position(fen: &str, mode: CastlingMode) -> shakmaty::Chess {
    let mode = match mode {
        CastlingMode::Standard => shakmaty::CastlingMode::Standard,
        CastlingMode::Chess960 => shakmaty::CastlingMode::Chess960,
    };
    fen.parse::<shakmaty::fen::Fen>()
        .unwrap_or_else(|e| panic!("shakmaty cannot read {fen}: {e}"))
        .into_position(mode)
        .unwrap_or_else(|e| panic!("shakmaty refuses {fen}: {e}"))
}

/// A move's UCI text with castling as king takes rook, which both libraries can write.
fn key(m: Move) -> String {
    UciMove::from_move_in_mode(m, CastlingMode::Chess960).to_string()
}

fn check_position(pos: &Position, context: &str, stats: &mut Stats) {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    let sh = shakmaty_position(&fen, pos.castling_mode());
    let mut theirs: Vec<(String, shakmaty::Move)> = sh
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_uci(shakmaty::CastlingMode::Chess960).to_string(), m))
        .collect();
    theirs.sort_by(|a, b| a.0.cmp(&b.0));
    let ours = pos.legal_moves();
    assert_eq!(ours.len(), theirs.len(), "move count of {fen} at {context}");
    for &m in &ours {
        let fail = |what: &str| -> ! { panic!("{what}: move {m:?} of {fen} at {context}") };
        let Ok(i) = theirs.binary_search_by(|(k, _)| k.as_str().cmp(&key(m))) else {
            fail("shakmaty does not have the move")
        };
        let expected = shakmaty::san::SanPlus::from_move(sh.clone(), theirs[i].1).to_string();
        let san_plus = SanPlus::from_move(pos, m);
        let text = san_plus.to_string();
        if text != expected {
            fail(&format!("we write {text}, shakmaty {expected}"));
        }
        let mut after = *pos;
        assert_eq!(
            SanPlus::from_move_and_play_unchecked(&mut after, m),
            san_plus,
            "from_move_and_play_unchecked: {m:?} of {fen}"
        );
        let mut played = *pos;
        played.play_unchecked(m);
        assert!(after == played, "from_move_and_play_unchecked plays {m:?}");
        let mut appended = String::from(">");
        san_plus.append_to(&mut appended);
        assert_eq!(appended, format!(">{text}"));

        let parsed = SanPlus::from_ascii(text.as_bytes())
            .unwrap_or_else(|e| fail(&format!("{text} does not parse: {e}")));
        assert_eq!(parsed, san_plus, "{text} parses into another SanPlus");
        assert_eq!(parsed.to_string(), text, "parse-print of {text}");
        assert_eq!(
            San::parse_strict(text.as_bytes(), pos),
            Ok(m),
            "strict {text} of {fen}"
        );
        assert_eq!(parsed.san.to_move(pos), Ok(m), "lenient {text} of {fen}");

        check_lenient_forms(pos, m, san_plus, &fen);
        count(m, san_plus, stats);
    }
    stats.positions += 1;
    stats.chess960 += usize::from(pos.castling_mode() == CastlingMode::Chess960);
}

/// Spellings of `m` only the lenient reader accepts.
fn check_lenient_forms(pos: &Position, m: Move, strict: SanPlus, fen: &str) {
    let from = m.from();
    let mut forms: Vec<(San, Option<Leniency>)> = Vec::new();
    match strict.san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            // Long algebraic: the whole origin.
            let long = San::Normal {
                role,
                file: Some(from.file()),
                rank: Some(from.rank()),
                capture,
                to,
                promotion,
            };
            let both = file.is_some() && rank.is_some();
            forms.push((long, (!both).then_some(Leniency::Disambiguation)));
            if role != Role::Pawn {
                // As UCI writes it: the origin and destination, no letter.
                let uci = San::Normal {
                    role: Role::Pawn,
                    file: Some(from.file()),
                    rank: Some(from.rank()),
                    capture: false,
                    to,
                    promotion,
                };
                forms.push((uci, Some(Leniency::MissingPieceLetter)));
            }
            if capture {
                let no_x = San::Normal {
                    role,
                    file,
                    rank,
                    capture: false,
                    to,
                    promotion,
                };
                forms.push((no_x, Some(Leniency::MissingCapture)));
            }
        }
        San::Castle(_) => {
            let mut plain_king_move = false;
            pos.for_each_legal_move_from(from.into(), |other| {
                plain_king_move |= !other.is_castle() && other.to() == m.king_to();
            });
            if !plain_king_move {
                let king_move = San::Normal {
                    role: Role::King,
                    file: None,
                    rank: None,
                    capture: false,
                    to: m.king_to(),
                    promotion: None,
                };
                forms.push((king_move, Some(Leniency::CastlingAsKingMove)));
                let uci = San::Normal {
                    role: Role::Pawn,
                    file: Some(from.file()),
                    rank: Some(from.rank()),
                    capture: false,
                    to: m.king_to(),
                    promotion: None,
                };
                forms.push((uci, Some(Leniency::CastlingAsKingMove)));
            }
        }
        San::Null => unreachable!("moves are not null moves"),
    }
    for (san, leniency) in forms {
        let text = SanPlus {
            san,
            suffix: strict.suffix,
        }
        .to_string();
        assert_eq!(
            SanPlus::from_ascii(text.as_bytes()).map(|s| s.san),
            Ok(san),
            "{text} of {fen}"
        );
        assert_eq!(san.to_move(pos), Ok(m), "lenient {text} for {m:?} of {fen}");
        let result = San::parse_strict(text.as_bytes(), pos);
        match leniency {
            None => assert_eq!(result, Ok(m), "strict {text} of {fen}"),
            Some(leniency) => match result {
                Err(StrictSanError::NotStrict {
                    reason, expected, ..
                }) if reason == leniency && expected == strict => {}
                other => panic!("strict {text} of {fen}: {other:?}, expected {leniency:?}"),
            },
        }
    }
}

fn count(m: Move, san_plus: SanPlus, stats: &mut Stats) {
    stats.moves += 1;
    if let San::Normal {
        role, file, rank, ..
    } = san_plus.san
        && role != Role::Pawn
    {
        stats.disambiguated += usize::from(file.is_some() || rank.is_some());
        stats.both_hints += usize::from(file.is_some() && rank.is_some());
    }
    stats.castles += usize::from(m.is_castle());
    stats.promotions += usize::from(m.promotion_role().is_some());
    stats.en_passant += usize::from(m.is_en_passant());
    stats.checks += usize::from(san_plus.suffix.is_some());
    stats.mates += usize::from(san_plus.suffix == Some(Suffix::Checkmate));
}
