//! The game layer against the rule vectors of `docs/rules-spec.md`, sections 3 (completion of
//! the game) and 6 (drawn games), and a few more cases around them: FEN + moves (SAN as the
//! spec writes them, or UCI) → outcome, repetition count, claims on the board and claims with a
//! written move.
//!
//! The vectors the game layer does not own are the arbitration layer's: draw offers (6.1,
//! O1–O5), agreement before both players moved (G6), and the time penalties for incorrect
//! claims (R4, F3; here only "the claim is incorrect" is checked).

use caissa_game::dead::{Winnability, can_win};
use caissa_game::{Claims, Game, GameResult, Ground, PerpetualCheck};
use caissa_movegen::{CastlingMode, Move, Position};
use caissa_notation::fen::Fen;
use caissa_notation::san::SanPlus;
use caissa_notation::uci::UciMove;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// One vector: a start, moves (SAN or UCI), and what must hold afterwards.
struct Vector {
    id: &'static str,
    fen: &'static str,
    moves: &'static str,
    /// `Outcome`'s display (`1-0 (checkmate, 5.1.1)`), or `*` while the game goes on.
    outcome: &'static str,
    /// How many times the current position has stood.
    repetitions: usize,
    /// The claims on the board, as [`describe`] writes them.
    claims: &'static str,
    /// Written moves and the claims they support.
    intended: &'static [(&'static str, &'static str)],
}

const VECTORS: &[Vector] = &[
    // Section 3: completion of the game.
    Vector {
        id: "G1 checkmate",
        fen: "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1",
        moves: "Ra8#",
        outcome: "1-0 (checkmate, 5.1.1)",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "G2 stalemate",
        fen: "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        moves: "",
        outcome: "1/2-1/2 (stalemate, 5.2.1)",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "G3 dead position after Bxc2",
        fen: "8/8/8/4k3/8/8/2n5/1B2K3 w - - 0 1",
        moves: "Bxc2",
        outcome: "1/2-1/2 (dead_position, 5.2.2)",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "G3 before Bxc2",
        fen: "8/8/8/4k3/8/8/2n5/1B2K3 w - - 0 1",
        moves: "",
        outcome: "*",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "P2 promotion to a queen stalemates",
        fen: "8/6P1/8/8/8/8/2K5/k7 w - - 0 1",
        moves: "g8=Q",
        outcome: "1/2-1/2 (stalemate, 5.2.1)",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "P3 promotion to a rook goes on",
        fen: "8/6P1/8/8/8/8/2K5/k7 w - - 0 1",
        moves: "g8=R",
        outcome: "*",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    Vector {
        // Stalemate and dead at once: stalemate is named (every stalemate is dead; see
        // `Game::outcome`).
        id: "P4 promotion to a bishop stalemates a dead position",
        fen: "8/6P1/8/8/8/8/2K5/k7 w - - 0 1",
        moves: "g8=B",
        outcome: "1/2-1/2 (stalemate, 5.2.1)",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "P4 promotion to a knight makes K+N v K",
        fen: "8/6P1/8/8/8/8/2K5/k7 w - - 0 1",
        moves: "g8=N",
        outcome: "1/2-1/2 (dead_position, 5.2.2)",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    // Section 6.2: threefold repetition.
    Vector {
        id: "R1 the start a third time",
        fen: START,
        moves: "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
        outcome: "*",
        repetitions: 3,
        claims: "threefold_repetition 9.2.1.2 plies 0 4 8",
        intended: &[],
    },
    Vector {
        id: "R2 Black writes Ng8",
        fen: START,
        moves: "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1",
        outcome: "*",
        repetitions: 2,
        claims: "none",
        intended: &[
            ("Ng8", "threefold_repetition 9.2.1.1 Ng8 plies 0 4 8"),
            ("Nc6", "none"),
        ],
    },
    Vector {
        // Black played the move instead of claiming: now White has the move and the claim.
        id: "R3 Black plays Ng8 without claiming",
        fen: START,
        moves: "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
        outcome: "*",
        repetitions: 3,
        claims: "threefold_repetition 9.2.1.2 plies 0 4 8",
        intended: &[("Nf3", "threefold_repetition 9.2.1.1 Nf3 plies 1 5 9")],
    },
    Vector {
        id: "R4 the second occurrence is not enough",
        fen: START,
        moves: "Nf3 Nf6 Ng1 Ng8 Nf3",
        outcome: "*",
        repetitions: 2,
        claims: "none",
        intended: &[("Nf6", "none")],
    },
    Vector {
        id: "R5 castling rights make the first occurrence differ",
        fen: START,
        moves: "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8",
        outcome: "*",
        repetitions: 2,
        claims: "none",
        intended: &[("Ke2", "none")],
    },
    Vector {
        id: "R6 the position after 2...Ke7 a third time",
        fen: START,
        moves: "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7",
        outcome: "*",
        repetitions: 3,
        claims: "threefold_repetition 9.2.1.2 plies 4 8 12",
        intended: &[],
    },
    Vector {
        id: "R7 a legal en passant makes the first occurrence differ",
        fen: "7k/2p5/8/1P5r/8/8/8/K7 b - - 0 1",
        moves: "c7c5 a1a2 h8g8 a2a1 g8h8 a1a2 h8g8 a2a1 g8h8",
        outcome: "*",
        repetitions: 2,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "R8 a merely pseudo-legal en passant does not",
        fen: "7k/2p5/8/KP5r/8/8/8/8 b - - 0 1",
        moves: "c7c5 a5a6 h8g8 a6a5 g8h8 a5a6 h8g8 a6a5 g8h8",
        outcome: "*",
        repetitions: 3,
        claims: "threefold_repetition 9.2.1.2 plies 1 5 9",
        intended: &[],
    },
    Vector {
        id: "R9 only the written Kd8 makes a third occurrence",
        fen: "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1",
        moves: "a4 Kd8 Kd1 Ke8 Ke1 Kd8 Kd1 Ke8 Ke1",
        outcome: "*",
        repetitions: 2,
        claims: "none",
        intended: &[
            ("Kd8", "threefold_repetition 9.2.1.1 Kd8 plies 2 6 10"),
            ("Kf8", "none"),
        ],
    },
    // Section 6.3: fifty moves.
    Vector {
        id: "F1 White writes Ra2",
        fen: "8/8/8/8/8/4k3/8/R3K3 w - - 99 80",
        moves: "",
        outcome: "*",
        repetitions: 1,
        claims: "none",
        intended: &[("Ra2", "fifty_moves 9.3.1 Ra2 halfmoves 100")],
    },
    Vector {
        id: "F2 White plays Ra2: Black may claim",
        fen: "8/8/8/8/8/4k3/8/R3K3 w - - 99 80",
        moves: "Ra2",
        outcome: "*",
        repetitions: 1,
        claims: "fifty_moves 9.3.2 halfmoves 100",
        intended: &[("Kd3", "fifty_moves 9.3.1 Kd3 halfmoves 101")],
    },
    Vector {
        id: "F2 White's next turn: still valid",
        fen: "8/8/8/8/8/4k3/8/R3K3 w - - 99 80",
        moves: "Ra2 Kd3",
        outcome: "*",
        repetitions: 1,
        claims: "fifty_moves 9.3.2 halfmoves 101",
        intended: &[],
    },
    Vector {
        id: "F3 a written capture or pawn move does not complete fifty moves",
        fen: "n7/8/8/8/8/4k3/7P/R3K3 w - - 99 80",
        moves: "",
        outcome: "*",
        repetitions: 1,
        claims: "none",
        intended: &[
            ("Rxa8", "none"),
            ("h3", "none"),
            ("h4", "none"),
            ("Ra2", "fifty_moves 9.3.1 Ra2 halfmoves 100"),
        ],
    },
    // Section 6.4: automatic draws.
    Vector {
        id: "A1 the start a fifth time",
        fen: START,
        moves: "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
        outcome: "1/2-1/2 (fivefold_repetition, 9.6.1)",
        repetitions: 5,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "A1 one ply earlier",
        fen: START,
        moves: "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1",
        outcome: "*",
        repetitions: 4,
        claims: "threefold_repetition 9.2.1.2 plies 3 7 11 15",
        intended: &[("Ng8", "threefold_repetition 9.2.1.1 Ng8 plies 0 4 8 12 16")],
    },
    Vector {
        id: "A2 seventy-five moves",
        fen: "8/8/8/8/8/4k3/8/R3K3 w - - 149 100",
        moves: "Ra2",
        outcome: "1/2-1/2 (seventy_five_moves, 9.6.2)",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "A2 one ply earlier",
        fen: "8/8/8/8/8/4k3/8/R3K3 w - - 149 100",
        moves: "",
        outcome: "*",
        repetitions: 1,
        claims: "fifty_moves 9.3.2 halfmoves 149",
        intended: &[("Ra2", "fifty_moves 9.3.1 Ra2 halfmoves 150")],
    },
    Vector {
        id: "A3 mate on the 150th half-move stands",
        fen: "7k/8/6K1/8/8/8/8/R7 w - - 149 100",
        moves: "Ra8#",
        outcome: "1-0 (checkmate, 5.1.1)",
        repetitions: 1,
        claims: "none",
        intended: &[],
    },
    Vector {
        // Both automatic draws with the same move: the precedence names seventy-five moves.
        id: "seventy-five moves and fivefold repetition at once",
        fen: "8/8/8/8/8/4k3/8/R3K3 w - - 134 100",
        moves: "Ra2 Kd3 Ra1 Ke3 Ra2 Kd3 Ra1 Ke3 Ra2 Kd3 Ra1 Ke3 Ra2 Kd3 Ra1 Ke3",
        outcome: "1/2-1/2 (seventy_five_moves, 9.6.2)",
        repetitions: 5,
        claims: "none",
        intended: &[],
    },
    Vector {
        id: "Chess960 start #0, knights out and back twice",
        fen: "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        moves: "Nc3 Nc6 Nd1 Nd8 Nc3 Nc6 Nd1 Nd8",
        outcome: "*",
        repetitions: 3,
        claims: "threefold_repetition 9.2.1.2 plies 0 4 8",
        intended: &[],
    },
];

#[test]
fn rule_vectors() {
    for v in VECTORS {
        let game = game(v.fen, v.moves);
        let outcome = game
            .outcome()
            .map_or_else(|| "*".to_owned(), |o| o.to_string());
        assert_eq!(outcome, v.outcome, "{}: outcome", v.id);
        assert_eq!(game.repetitions(), v.repetitions, "{}: repetitions", v.id);
        assert_eq!(
            describe(&game.claims(), game.position()),
            v.claims,
            "{}: claims",
            v.id
        );
        for &(written, expected) in v.intended {
            let m = parse_move(game.position(), written);
            let claims = game.claims_with(m).expect("the game goes on");
            assert_eq!(
                describe(&claims, game.position()),
                expected,
                "{}: claims with {written}",
                v.id
            );
        }
        if v.outcome != "*" {
            let any = game.position().legal_moves().first().copied();
            if let Some(m) = any {
                assert!(
                    game.claims_with(m).is_err(),
                    "{}: claim after the end",
                    v.id
                );
            }
        }
    }
}

/// G4 and G5 (5.1.2): a resignation is a draw when the opponent could not have won.
#[test]
fn resignation_vectors() {
    let cases = [
        (
            "G4 White resigns",
            "8/8/8/4k3/8/8/8/4KQ2 w - - 0 1",
            "white",
            "1/2-1/2",
        ),
        (
            "G5 Black resigns",
            "8/8/8/4k3/8/8/8/4KQ2 w - - 0 1",
            "black",
            "1-0",
        ),
    ];
    for (id, fen, resigner, expected) in cases {
        let pos = position(fen);
        let resigner: caissa_board::Color = resigner.parse().expect("a colour");
        let result = match can_win(&pos, !resigner) {
            Winnability::Unwinnable => GameResult::Draw,
            Winnability::Winnable(_) | Winnability::Unknown => GameResult::win(!resigner),
        };
        assert_eq!(result.to_string(), expected, "{id}");
    }
}

#[test]
fn claims_after_the_end_are_refused() {
    let game = game("8/8/8/8/8/4k3/8/R3K3 w - - 149 100", "Ra2");
    let m = game.position().legal_moves()[0];
    let error = game.claims_with(m).expect_err("the game is over");
    assert_eq!(
        error.to_string(),
        "the game is over: 1/2-1/2 (seventy_five_moves, 9.6.2)"
    );
    let game = game_from_start("Nf3 Nf6");
    let illegal = Move::normal(caissa_board::Square::E2, caissa_board::Square::E5);
    assert!(matches!(
        game.claims_with(illegal),
        Err(caissa_game::ClaimError::IllegalMove(_))
    ));
}

#[test]
fn no_move_is_played_after_an_automatic_ending() {
    // Fool's mate, a dead position (a capture into king and knight against king), seventy-five
    // moves: `play` refuses every move and leaves the game as it was.
    for (fen, moves, outcome) in [
        (START, "f3 e5 g4 Qh4#", "0-1 (checkmate, 5.1.1)"),
        (
            "8/8/8/4k3/8/8/3q4/3NK3 w - - 0 1",
            "Kxd2",
            "1/2-1/2 (dead_position, 5.2.2)",
        ),
        (
            "8/8/8/8/8/4k3/8/R3K3 w - - 149 100",
            "Ra2",
            "1/2-1/2 (seventy_five_moves, 9.6.2)",
        ),
    ] {
        let mut game = game(fen, moves);
        let over = game.outcome().expect("over");
        assert_eq!(over.to_string(), outcome);
        let before = game.ply();
        let legal = game.position().legal_moves();
        for m in legal.iter().copied().chain([Move::normal(
            caissa_board::Square::A1,
            caissa_board::Square::H8,
        )]) {
            let error = game.play(m).expect_err("the game is over");
            assert_eq!(error, caissa_game::PlayError::GameOver(over), "{fen} {m:?}");
            assert_eq!(error.to_string(), format!("the game is over: {outcome}"));
        }
        assert_eq!(game.ply(), before);
    }
    // While the game goes on, an illegal move is refused as such.
    let mut game = game_from_start("e4");
    let illegal = Move::normal(caissa_board::Square::E2, caissa_board::Square::E4);
    assert!(matches!(
        game.play(illegal),
        Err(caissa_game::PlayError::IllegalMove(_))
    ));
}

#[test]
fn per_side_insufficient_material_is_the_servers_rule() {
    use caissa_board::Color;
    use caissa_game::dead::lacks_mating_material;
    // Which sides lack mating material, White then Black (rules-spec 10.2, 10.3).
    for (fen, white, black) in [
        ("8/8/8/4k3/8/8/8/4K3 w - - 0 1", true, true),
        ("8/8/8/4k3/8/8/8/1N2K3 w - - 0 1", true, true),
        ("8/8/1q6/4k3/8/8/8/1N2K3 w - - 0 1", true, false),
        ("8/8/1r6/4k3/8/8/8/1N2K3 w - - 0 1", false, false),
        ("8/8/1p6/4k3/8/8/8/1N2K3 w - - 0 1", false, false),
        ("8/8/8/4k3/8/8/8/1N2KN2 w - - 0 1", false, true),
        ("8/8/2b5/4k3/8/8/8/2B1K3 w - - 0 1", false, false),
        ("8/8/1b6/4k3/8/8/8/2B1K3 w - - 0 1", true, true),
        ("8/8/1b6/4k3/8/8/1p6/2B1K3 w - - 0 1", false, false),
        ("8/8/8/4k3/8/8/P7/4K3 w - - 0 1", false, true),
        // Material only: this blocked position is dead, yet both sides have mating material.
        (
            "8/2k5/8/1p1p1p1p/1P1P1P1P/4B3/2K5/8 w - - 0 1",
            false,
            false,
        ),
    ] {
        let pos = position(fen);
        for (color, lacks) in [(Color::White, white), (Color::Black, black)] {
            assert_eq!(
                lacks_mating_material(pos.board(), color),
                lacks,
                "{fen} {color:?}"
            );
            if lacks {
                assert_eq!(can_win(&pos, color), Winnability::Unwinnable, "{fen}");
            }
        }
    }
}

#[test]
fn claims_lead_to_draws_citing_their_article() {
    let repeated = game_from_start("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    let claim = repeated.claims().threefold.expect("threefold");
    assert_eq!(
        claim.outcome().to_string(),
        "1/2-1/2 (threefold_repetition, 9.2.1.2)"
    );
    let game = game("8/8/8/8/8/4k3/8/R3K3 w - - 99 80", "");
    let m = parse_move(game.position(), "Ra2");
    let claim = game.claims_with(m).expect("on").fifty_moves.expect("fifty");
    assert_eq!(claim.outcome().to_string(), "1/2-1/2 (fifty_moves, 9.3.1)");
}

/// A queen checks from e8 and e4 while the black king shuttles between h8 and h7.
#[test]
fn perpetual_check() {
    let fen = "7k/6p1/7p/8/8/8/8/4Q1K1 w - - 0 1";
    let cases: [(&str, Option<PerpetualCheck>); 6] = [
        ("", None),
        // One check, nothing repeated yet.
        ("Qe8+", None),
        // The last move (Black's) is no check.
        ("Qe8+ Kh7", None),
        ("Qe8+ Kh7 Qe4+ Kh8", None),
        // The third check brings back the position after the first.
        (
            "Qe8+ Kh7 Qe4+ Kh8 Qe8+",
            Some(PerpetualCheck {
                checker: caissa_board::Color::White,
                checks: 3,
                first_ply: 1,
                repetitions: 2,
            }),
        ),
        (
            "Qe8+ Kh7 Qe4+ Kh8 Qe8+ Kh7 Qe4+ Kh8 Qe8+",
            Some(PerpetualCheck {
                checker: caissa_board::Color::White,
                checks: 5,
                first_ply: 1,
                repetitions: 3,
            }),
        ),
    ];
    for (moves, expected) in cases {
        assert_eq!(game(fen, moves).perpetual_check(), expected, "{moves}");
    }
    // A quiet move before the checks starts the run afresh.
    let game = game(
        "7k/6p1/7p/8/8/8/8/4Q1K1 w - - 0 1",
        "Kf1 Kg8 Qe8+ Kh7 Qe4+ Kh8 Qe8+ Kh7 Qe4+",
    );
    let run = game.perpetual_check().expect("a perpetual");
    assert_eq!((run.first_ply, run.checks, run.repetitions), (3, 4, 2));
    // The repetition decides nothing by itself: only the third occurrence may be claimed.
    assert_eq!(game.repetitions(), 2);
    assert!(game.claims().is_empty());
}

#[test]
fn chess960_games_start_where_asked() {
    for number in [0, 518, 959] {
        let game = Game::chess960(number).expect("a Scharnagl number");
        assert_eq!(Some(*game.start()), Position::chess960(number));
        assert_eq!(game.start().castling_mode(), CastlingMode::Chess960);
    }
    assert!(Game::chess960(960).is_none());
    assert_eq!(*Game::standard().start(), Position::standard());
}

/// The claims as text: `none`, or for each claim its reason, article, written move and
/// grounds, joined by `; `.
fn describe(claims: &Claims, pos: &Position) -> String {
    if claims.is_empty() {
        return "none".to_owned();
    }
    let texts: Vec<String> = claims
        .iter()
        .map(|claim| {
            let mut text = format!("{} {}", claim.reason(), claim.article);
            if let Some(m) = claim.intended {
                text.push_str(&format!(" {}", SanPlus::from_move(pos, m)));
            }
            match &claim.ground {
                Ground::Repetition { plies } => {
                    text.push_str(" plies");
                    for ply in plies {
                        text.push_str(&format!(" {ply}"));
                    }
                }
                Ground::FiftyMoves { halfmoves } => {
                    text.push_str(&format!(" halfmoves {halfmoves}"));
                }
            }
            text
        })
        .collect();
    texts.join("; ")
}

fn position(fen: &str) -> Position {
    let fen: Fen = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mode = if fen
        .0
        .castling_rights
        .iter()
        .any(|(_, side, file)| file != side.standard_rook_file())
    {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    fen.into_position(mode).expect("a legal position")
}

fn game(fen: &str, moves: &str) -> Game {
    let mut game = Game::new(position(fen));
    for text in moves.split_whitespace() {
        let m = parse_move(game.position(), text);
        game.play(m).expect("a legal move");
    }
    game
}

fn game_from_start(moves: &str) -> Game {
    game(START, moves)
}

/// A move in SAN, or else in UCI.
fn parse_move(pos: &Position, text: &str) -> Move {
    let san = SanPlus::from_ascii(text.as_bytes()).map(|san| san.san.to_move(pos));
    match san {
        Ok(Ok(m)) => m,
        _ => {
            let uci: UciMove = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            uci.to_move(pos).unwrap_or_else(|e| panic!("{text}: {e}"))
        }
    }
}
