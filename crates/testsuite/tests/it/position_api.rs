//! The `Position` API on hand-picked positions: legality checks, playing, checks and pins,
//! en passant semantics of equality and hashing, setups.

use caissa_board::{Bitboard, CastlingSide, Color, Role, Square};
use caissa_movegen::{CastlingMode, IllegalMoveError, Move, Position};
use caissa_notation::fen::{EnPassantMode, Fen};

fn pos(fen: &str) -> Position {
    fen.parse::<Fen>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn pos960(fen: &str) -> Position {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

fn fen(pos: &Position) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

#[test]
fn play_checks_legality_and_updates_everything() {
    let start = Position::standard();
    let e4 = Move::normal(Square::E2, Square::E4);
    assert!(start.is_legal(e4));
    let after = start.play(e4).unwrap();
    assert_eq!(
        fen(&after),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(after.ep_square(), Some(Square::E3));
    assert_eq!(after.legal_ep_square(), None);
    let bad = Move::normal(Square::E2, Square::E5);
    assert!(!start.is_legal(bad));
    assert_eq!(start.play(bad), Err(IllegalMoveError { mv: bad }));
    // A move from the opponent's square, or from an empty square, is not legal either.
    assert!(!start.is_legal(Move::normal(Square::E7, Square::E5)));
    assert!(!start.is_legal(Move::normal(Square::E4, Square::E5)));
    // A king's two-square step is not castling: castling is king-takes-rook.
    let open = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 10");
    assert!(!open.is_legal(Move::normal(Square::E1, Square::G1)));
    let castle = Move::castle(Square::E1, Square::H1);
    assert!(open.is_legal(castle));
    let castled = open.play(castle).unwrap();
    assert_eq!(fen(&castled), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 4 10");
    let counters = castled.play(Move::castle(Square::E8, Square::A8)).unwrap();
    assert_eq!(fen(&counters), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 5 11");
}

#[test]
fn captures_promotions_and_rights() {
    let p = pos("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 7 30");
    let promo = Move::promotion(Square::B7, Square::A8, Role::Knight);
    let after = p.play(promo).unwrap();
    assert_eq!(fen(&after), "N3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 30");
    assert_eq!(p.captured_role(promo), Some(Role::Rook));
    assert!(p.is_zeroing(promo));
    // Moving a rook off its square removes that right only.
    let rook_move = p.play(Move::normal(Square::H1, Square::H5)).unwrap();
    assert_eq!(
        rook_move
            .castling_rights()
            .rook(Color::White, CastlingSide::KingSide),
        None
    );
    assert!(
        rook_move
            .castling_rights()
            .has(Color::White, CastlingSide::QueenSide)
    );
    assert_eq!(rook_move.halfmoves(), 8);
}

#[test]
fn checks_and_pins() {
    // Black king e8 in check from the e-file rook; the d7 bishop is pinned by the a4 queen.
    let p = pos("4k3/3b4/8/8/Q7/8/8/4RK2 b - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.checkers(), Bitboard::from(Square::E1));
    assert_eq!(p.pinned(), Bitboard::from(Square::D7));
    // The pinned bishop cannot block on e6 (off its pin line).
    assert!(!p.is_legal(Move::normal(Square::D7, Square::E6)));
    assert!(p.legal_moves().iter().all(|m| m.from() == Square::E8));
    let mate = pos("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert!(mate.is_checkmate() && !mate.is_stalemate());
    let stalemate = pos("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(stalemate.is_stalemate() && !stalemate.is_check());
    assert_eq!(stalemate.count_legal_moves(), 0);
}

#[test]
fn en_passant_counts_only_when_legal() {
    // White king h5, white pawn e5, black pawn d5 (just pushed), black rook a5: taking en
    // passant would empty the rank between rook and king, so the capture is illegal.
    let pinned = pos("8/8/8/r2pP2K/8/8/8/7k w - d6 0 2");
    assert_eq!(pinned.ep_square(), Some(Square::D6));
    assert_eq!(pinned.legal_ep_square(), None);
    assert!(!pinned.is_legal(Move::en_passant(Square::E5, Square::D6)));
    let same_without_ep = pos("8/8/8/r2pP2K/8/8/8/7k w - - 0 2");
    assert_eq!(pinned, same_without_ep);
    assert_eq!(pinned.zobrist_hash(), same_without_ep.zobrist_hash());

    let free = pos("8/8/8/3pP2K/8/8/8/7k w - d6 0 2");
    assert_eq!(free.legal_ep_square(), Some(Square::D6));
    let free_without_ep = pos("8/8/8/3pP2K/8/8/8/7k w - - 0 2");
    assert_ne!(free, free_without_ep);
    assert_ne!(free.zobrist_hash(), free_without_ep.zobrist_hash());
    let taken = free.play(Move::en_passant(Square::E5, Square::D6)).unwrap();
    assert_eq!(fen(&taken), "8/8/3P4/7K/8/8/8/7k b - - 0 2");
    // FEN writing modes.
    assert_eq!(
        Fen::from_position(&pinned, EnPassantMode::PseudoLegal).to_string(),
        "8/8/8/r2pP2K/8/8/8/7k w - d6 0 2"
    );
    let no_capturer = pos("8/8/8/3p3K/8/8/8/7k w - d6 0 2");
    assert_eq!(no_capturer.pseudo_legal_ep_square(), None);
    assert_eq!(
        Fen::from_position(&no_capturer, EnPassantMode::Always).to_string(),
        "8/8/8/3p3K/8/8/8/7k w - d6 0 2"
    );
}

#[test]
fn counters_do_not_affect_equality() {
    let a = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    let b = pos("4k3/8/8/8/8/8/8/4K3 w - - 40 90");
    assert_eq!(a, b);
    assert_eq!(a.zobrist_hash(), b.zobrist_hash());
    let c = pos("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_ne!(a, c);
}

#[test]
fn incremental_keys_match_fresh_ones() {
    let mut p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    // Walk down the first legal move a few dozen times, checking each position.
    for _ in 0..40 {
        let Some(&m) = p.legal_moves().first() else {
            break;
        };
        p.play_unchecked(m);
        let fresh = pos(&Fen::from_position(&p, EnPassantMode::Always).to_string());
        assert_eq!(p.zobrist_hash(), fresh.zobrist_hash(), "{}", fen(&p));
        assert_eq!(p, fresh);
    }
}

#[test]
fn pass_and_setup_round_trip() {
    let start = Position::standard();
    let passed = start.pass().unwrap();
    assert_eq!(passed.turn(), Color::Black);
    assert_eq!(passed.pass().unwrap().fullmoves(), 2);
    let in_check = pos("4k3/8/8/8/8/8/8/4RK2 b - - 0 1");
    assert!(in_check.pass().is_none());
    let setup = start.to_setup();
    assert_eq!(
        Position::from_setup(setup, CastlingMode::Standard),
        Ok(start)
    );
}

#[test]
fn chess960_castling_edge_cases() {
    // King b1 and rook a1: queen-side castling moves the king to c1 and the rook to d1.
    let p = pos960("1k6/8/8/8/8/8/8/RK6 w A - 0 1");
    let castle = Move::castle(Square::B1, Square::A1);
    assert!(p.is_legal(castle));
    assert_eq!(
        fen(&p.play(castle).unwrap()),
        "1k6/8/8/8/8/8/8/2KR4 b - - 1 1"
    );
    // The castling rook shields the king: queen a1, rook b1, king c1. After O-O-O the king
    // stays on c1 and the rook goes to d1, exposing the king to the queen: illegal.
    let shielded = pos960("4k3/8/8/8/8/8/8/qRK5 w B - 0 1");
    assert!(!shielded.is_legal(Move::castle(Square::C1, Square::B1)));
    // King and rook swap places: king f1, rook g1, king-side castling ends with king g1, rook f1.
    let swap = pos960("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    let castle = Move::castle(Square::F1, Square::G1);
    assert!(swap.is_legal(castle));
    assert_eq!(
        fen(&swap.play(castle).unwrap()),
        "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    );
    // A piece between king and rook blocks castling even when the king does not cross it.
    let blocked = pos960("4k3/8/8/8/8/8/8/RNK5 w A - 0 1");
    assert!(!blocked.is_legal(Move::castle(Square::C1, Square::A1)));
}

#[test]
fn moves_between_squares_are_the_filtered_legal_moves() {
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/8/8/3pP2K/8/8/8/7k w - d6 0 2",
        "4k3/3b4/8/8/Q7/8/8/4RK2 b - - 0 1",
    ];
    for fen in fens {
        let p = pos(fen);
        let all = p.legal_moves();
        for from in Bitboard::FULL {
            for to in [
                Bitboard::FULL,
                Bitboard::from_rank(caissa_board::Rank::Fourth),
            ]
            .into_iter()
            .chain(Square::ALL.into_iter().map(Bitboard::from))
            {
                let mut got = Vec::new();
                p.for_each_legal_move_between(from.into(), to, |m| got.push(m));
                let expected: Vec<Move> = all
                    .iter()
                    .copied()
                    .filter(|m| m.from() == from && to.contains(m.to()))
                    .collect();
                got.sort();
                let mut expected = expected;
                expected.sort();
                assert_eq!(got, expected, "{fen}: {from} to {to:?}");
            }
        }
    }
}

/// `play_unchecked_by` with the moving piece's role is `play_unchecked`: every field the same
/// (compared through `Debug`, which shows them all), for every legal move along random games,
/// standard and Chess960.
#[test]
fn play_unchecked_by_is_play_unchecked() {
    let mut rng = caissa_testsuite::random::Rng::new(0x005e_edb1);
    let mut moves_checked = 0;
    for _ in 0..40 {
        let mut pos = rng.start_position();
        for _ in 0..80 {
            let moves = pos.legal_moves();
            for &m in &moves {
                let (mut by_lookup, mut by_role) = (pos, pos);
                by_lookup.play_unchecked(m);
                by_role.play_unchecked_by(m, pos.moving_role(m));
                assert_eq!(format!("{by_lookup:?}"), format!("{by_role:?}"), "{m:?}");
                moves_checked += 1;
            }
            let Some(m) = rng.choose(&moves) else { break };
            pos.play_unchecked(m);
        }
    }
    assert!(moves_checked > 10_000, "{moves_checked} moves");
}

/// `castling_move` is the generator's castling move on that side, or `None` when it has none: on
/// every position up to two plies from each position of the standard and Chess960 perft suites.
#[test]
fn castling_move_is_the_generated_castling_move() {
    let suites = [
        ("perft/standard.epd", CastlingMode::Standard),
        ("perft/chess960-random-d4.epd", CastlingMode::Chess960),
    ];
    let (mut positions, mut castles) = (0, 0);
    for (suite, mode) in suites {
        for case in caissa_testsuite::parse_perft_suite(&caissa_testsuite::read_data(suite)) {
            let root = case
                .fen
                .parse::<Fen>()
                .unwrap()
                .into_position(mode)
                .unwrap();
            let mut frontier = vec![root];
            for _ in 0..2 {
                frontier = frontier
                    .iter()
                    .flat_map(|p| p.legal_moves().into_iter().map(|m| p.play(m).unwrap()))
                    .collect();
            }
            for p in frontier.iter().chain([&root]) {
                for side in CastlingSide::ALL {
                    let generated = p
                        .legal_moves()
                        .into_iter()
                        .find(|m| m.castling_side() == Some(side));
                    assert_eq!(p.castling_move(side), generated, "{}", fen(p));
                    castles += usize::from(generated.is_some());
                }
                positions += 1;
            }
        }
    }
    assert!(
        castles > 1000,
        "{castles} castling moves in {positions} positions"
    );
}

/// `moves_to` gives exactly the generator's legal moves of that role from those squares onto
/// that square with that promotion (castling aside), in the generator's order: for every role,
/// destination and promotion, from anywhere, from each file, each rank and each square holding
/// such a piece, on the standard perft suite and one ply from it, and on biased random games.
#[test]
fn moves_to_is_the_generators_answer() {
    use caissa_board::{File, Rank};
    use caissa_movegen::MovesTo;
    use caissa_testsuite::random::{Bias, RandomGame, Rng};

    let mut positions = Vec::new();
    for case in
        caissa_testsuite::parse_perft_suite(&caissa_testsuite::read_data("perft/standard.epd"))
    {
        let root = pos(&case.fen);
        positions.extend(
            root.legal_moves()
                .into_iter()
                .map(|m| root.play(m).unwrap()),
        );
        positions.push(root);
    }
    let mut rng = Rng::new(0x0A11_70DE_5710_0001);
    let bias = Bias {
        special: 60,
        pawn: 30,
        checkmate: 100,
        ..Bias::UNIFORM
    };
    for _ in 0..60 {
        let start = rng.start_position();
        let game = RandomGame::new(Rng::new(rng.next_u64()), start, 160, bias);
        positions.extend(game.map(|(_, p)| p));
    }

    let (mut queries, mut ones, mut ambiguous, mut en_passant, mut promotions) = (0, 0, 0, 0, 0);
    for p in &positions {
        let mut legal_to = vec![Vec::new(); 64];
        p.for_each_legal_move(|m| {
            if !m.is_castle() {
                legal_to[m.to().index()].push((m, p.moving_role(m)));
            }
        });
        let ours = p.board().by_color(p.turn());
        for role in Role::ALL {
            let pieces = p.board().by_role(role) & ours;
            let mut masks = vec![Bitboard::FULL];
            masks.extend(
                File::ALL
                    .map(Bitboard::from_file)
                    .into_iter()
                    .chain(Rank::ALL.map(Bitboard::from_rank))
                    .filter(|mask| mask.intersects(pieces)),
            );
            masks.extend(pieces.into_iter().map(Bitboard::from_square));
            for to in Square::ALL {
                let promotions_to_try: &[Option<Role>] =
                    if role == Role::Pawn && Bitboard::BACK_RANKS.contains(to) {
                        &[
                            None,
                            Some(Role::Knight),
                            Some(Role::Bishop),
                            Some(Role::Rook),
                            Some(Role::Queen),
                            Some(Role::King),
                        ]
                    } else {
                        &[None, Some(Role::Queen)]
                    };
                for &from in &masks {
                    for &promotion in promotions_to_try {
                        let expected: Vec<Move> = legal_to[to.index()]
                            .iter()
                            .filter(|&&(m, moving)| {
                                moving == role
                                    && from.contains(m.from())
                                    && m.promotion_role() == promotion
                            })
                            .map(|&(m, _)| m)
                            .collect();
                        let found = p.moves_to(role, from, to, promotion);
                        let found_moves = match found {
                            MovesTo::None => vec![],
                            MovesTo::One(m) => vec![m],
                            MovesTo::Ambiguous(candidates) => {
                                assert!(candidates.as_slice().len() >= 2, "{found:?}");
                                candidates.as_slice().to_vec()
                            }
                        };
                        assert_eq!(
                            found_moves,
                            expected,
                            "{role:?} from {from:?} to {to} ={promotion:?} in {}",
                            fen(p)
                        );
                        queries += 1;
                        ones += usize::from(matches!(found, MovesTo::One(_)));
                        ambiguous += usize::from(matches!(found, MovesTo::Ambiguous(_)));
                        en_passant += usize::from(expected.iter().any(|m| m.is_en_passant()));
                        promotions += usize::from(promotion.is_some() && !expected.is_empty());
                    }
                }
            }
        }
    }
    eprintln!(
        "moves_to: {} positions, {queries} queries, {ones} one, {ambiguous} ambiguous, \
         {en_passant} en passant, {promotions} promotions",
        positions.len()
    );
    assert!(
        ones > 100_000 && ambiguous > 1_000 && en_passant > 100 && promotions > 1_000,
        "too few cases of a kind"
    );
}
