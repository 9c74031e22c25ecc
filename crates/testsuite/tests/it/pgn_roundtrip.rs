//! Writing then reading gives the same game, for random game trees: legal moves from standard,
//! Chess960 and mid-game starts, nested variations, glyphs, comments with awkward characters,
//! escaped tag values. The written text also replays: every move of every line is legal.

use caissa_movegen::Position;
use caissa_notation::fen::{EnPassantMode, Fen};
use caissa_notation::pgn::{
    GameTree, GameTreeBuilder, Layout, Nag, NodeId, Reader, Replayer, TerminationMarker,
};
use caissa_notation::san::SanPlus;
use caissa_testsuite::random::Rng;

const WORDS: &[&str] = &[
    "good",
    "move",
    "%",
    "50%",
    "[%clk",
    "0:01:00]",
    "[Event",
    "\"x\"]",
    "é",
    "(",
    ")",
    ";",
    "\\",
    "\"quoted\"",
    "{",
    "1-0",
    "*",
    "$1",
    "!?",
    "e4",
    "[see",
    "line]",
];

fn comment(rng: &mut Rng, allow_brace: bool) -> String {
    let words: Vec<&str> = (0..1 + rng.below(12))
        .map(|_| rng.choose(WORDS).expect("words"))
        .collect();
    let mut text = words.join(" ");
    if allow_brace && rng.percent(10) {
        text.push_str(" }");
    }
    text
}

fn comments(rng: &mut Rng, percent: u32, allow_brace: bool) -> Vec<String> {
    let mut out = Vec::new();
    while rng.percent(percent) && out.len() < 3 {
        out.push(comment(rng, allow_brace));
    }
    out
}

/// A random legal game tree from `start`.
fn random_game(rng: &mut Rng, start: Position, allow_brace: bool) -> GameTree {
    let mut game = GameTree::new();
    game.comments = comments(rng, 20, allow_brace);
    // Lines to generate: (parent, position, plies, variation depth, first move of a variation).
    let mut lines = vec![(None, start, 1 + rng.below(40), 0, false)];
    while let Some((mut parent, mut pos, plies, depth, variation)) = lines.pop() {
        for ply in 0..plies {
            let moves = pos.legal_moves();
            let Some(m) = rng.choose(&moves) else { break };
            // Before playing, maybe an alternative to this move.
            if depth < 6 && rng.percent(12) {
                lines.push((parent, pos, 1 + rng.below(8), depth + 1, true));
            }
            let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
            let id = game.add_move(parent, san);
            let node = game.node_mut(id);
            if variation && ply == 0 {
                node.comments_before = comments(rng, 30, allow_brace);
            }
            while rng.percent(15) {
                node.nags.push(Nag(rng.below(256) as u8));
            }
            node.comments = comments(rng, 25, allow_brace);
            parent = Some(id);
        }
    }
    game
}

/// The tree in a canonical order (depth first, children in order), to compare games built in
/// different orders.
fn canonical(game: &GameTree) -> Vec<String> {
    let mut out = vec![format!(
        "{:?} {:?} {:?}",
        game.tags, game.comments, game.termination_marker
    )];
    let mut stack: Vec<(usize, NodeId)> = game.roots().iter().rev().map(|&id| (0, id)).collect();
    while let Some((depth, id)) = stack.pop() {
        let node = game.node(id);
        out.push(format!(
            "{depth} {} {:?} {:?} {:?}",
            node.san, node.nags, node.comments_before, node.comments
        ));
        stack.extend(
            node.children()
                .iter()
                .rev()
                .map(|&child| (depth + 1, child)),
        );
    }
    out
}

fn read(text: &str) -> GameTree {
    Reader::new(text.as_bytes())
        .read_game(&mut GameTreeBuilder)
        .expect("a game")
        .unwrap_or_else(|e| panic!("{e} in\n{text}"))
}

fn starts(rng: &mut Rng) -> (Position, Vec<(&'static str, String)>) {
    match rng.below(3) {
        0 => (Position::standard(), Vec::new()),
        1 => {
            let n = rng.below(960) as u32;
            let pos = Position::chess960(n).expect("0..960");
            let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            (pos, vec![("Variant", "Chess960".to_owned()), ("FEN", fen)])
        }
        _ => {
            // A position some random moves in, either side to move.
            let mut pos = Position::standard();
            let plies = rng.below(30);
            rng.walk(&mut pos, plies);
            let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
            (pos, vec![("SetUp", "1".to_owned()), ("FEN", fen)])
        }
    }
}

#[test]
fn pgn_roundtrip_random_games() {
    // What the games exercised, to be sure they did.
    let (mut variations, mut line_comments, mut black_starts) = (0, 0, 0);
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        let (start, start_tags) = starts(&mut rng);
        for layout in [Layout::Export, Layout::Compact] {
            // The compact form has no room for `;` comments, so `}` is changed there.
            let allow_brace = layout == Layout::Export;
            let mut game = random_game(&mut rng, start, allow_brace);
            for (name, value) in [
                ("Event", "Seed \"quoted\" \\ backslash"),
                ("Site", "?"),
                ("Date", "2025.01.01"),
                ("Round", "1"),
                ("White", "Ünïcödé"),
                ("Black", "B"),
                ("Result", "*"),
            ] {
                game.tags.insert(name, value);
            }
            for (name, value) in &start_tags {
                game.tags.insert(name, value);
            }
            game.termination_marker = Some(TerminationMarker::Unknown);

            let mut text = String::new();
            game.write(&mut text, layout);
            variations += text.matches(" ( ").count();
            line_comments += text.matches("\n; ").count() + text.matches(" ; ").count();
            if start.turn() == caissa_board::Color::Black && !game.is_empty() {
                assert!(
                    text.contains(&format!("{}... ", start.fullmoves())),
                    "{text}"
                );
                black_starts += 1;
            }
            let again = read(&text);
            assert_eq!(
                canonical(&again),
                canonical(&game),
                "seed {seed} {layout:?}:\n{text}"
            );
            // Game equality compares trees, whatever the order the moves were added in.
            assert!(again == game, "seed {seed}");
            let mut text_again = String::new();
            again.write(&mut text_again, layout);
            assert_eq!(text_again, text, "seed {seed}: writing is stable");
            if layout == Layout::Export {
                for line in text.lines() {
                    // Longer lines only for words that may not start a line.
                    let kept = line
                        .split(' ')
                        .any(|w| w.starts_with('%') || w.starts_with('['));
                    assert!(
                        line.chars().count() <= 80 || kept || line.starts_with('['),
                        "{line}"
                    );
                    assert!(!line.starts_with('%'), "an escape line: {line}");
                }
            }
            let stats = Reader::new(text.as_bytes())
                .read_game(&mut Replayer::new())
                .expect("a game")
                .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            assert_eq!(stats.moves, game.len() as u64, "seed {seed}");
        }
    }
    println!("{variations} variations, {line_comments} ; comments, {black_starts} Black starts");
    assert!(variations > 100 && line_comments > 10 && black_starts > 10);
}

/// Move numbers near `u32::MAX` are written without overflow (fuzz crash
/// `writer-fullmove-overflow`).
#[test]
fn pgn_roundtrip_huge_fullmove_numbers() {
    for (turn, fullmoves, expected) in [
        ("w", "4000000000", "4000000000. Kd2 Kd7 *"),
        ("b", "4294967295", "4294967295... Kd7 4294967296. Kd2 *"),
    ] {
        let moves = if turn == "w" { "Kd2 Kd7" } else { "Kd7 Kd2" };
        let text = format!("[FEN \"4k3/8/8/8/8/8/8/4K3 {turn} - - 0 {fullmoves}\"]\n\n{moves} *\n");
        let game = read(&text);
        let mut written = String::new();
        game.write(&mut written, Layout::Compact);
        assert!(written.ends_with(expected), "{written}");
        assert!(read(&written) == game, "{written}");
    }
}

/// A carriage return in a tag value: read, it ends the line (a lone CR is a line end), so the
/// value is unterminated; set by hand, it is written as a space and read back as one, so a
/// `FEN` tag means the same before and after writing (fuzz crash
/// `fen-tag-with-cr-changes-meaning-when-written`).
#[test]
fn pgn_roundtrip_carriage_return_in_a_tag_value() {
    let fen = "r3r1k1/pp3p2/3p1npQ/1P1P3p/P2Pp1b1/6R1/3NBP1q/2K3R1 w\r- - 0 23";
    let text = format!("[FEN \"{fen}\"]g4");
    let error = Reader::new(text.as_bytes())
        .read_game(&mut GameTreeBuilder)
        .expect("a game")
        .expect_err("a CR ends the line");
    assert_eq!(
        error.to_string(),
        "1:6: malformed tag pair: unterminated tag value"
    );
    let mut game = read("g4 *");
    game.tags.insert("FEN", fen);
    assert!(game.tags.start().fen().is_some());
    for layout in [Layout::Export, Layout::Compact] {
        let mut written = String::new();
        game.write(&mut written, layout);
        let again = read(&written);
        assert_eq!(
            again.tags.get("FEN"),
            Some("r3r1k1/pp3p2/3p1npQ/1P1P3p/P2Pp1b1/6R1/3NBP1q/2K3R1 w - - 0 23")
        );
        assert_eq!(
            again.tags.start().fen(),
            game.tags.start().fen(),
            "{written}"
        );
    }
}

/// A `caissa_game::Game` written as a tree, as PGN, read back and made a game again is the same
/// game: start position, moves and outcome (checkmates and stalemates included, from standard,
/// Chess960 and mid-game starts).
#[test]
fn games_round_trip_through_pgn_trees() {
    use caissa_game::Game;
    use caissa_testsuite::random::{Bias, random_move};

    let mut ended = 0;
    let bias = Bias {
        checkmate: 60,
        stalemate: 30,
        ..Bias::UNIFORM
    };
    for seed in 0..300 {
        let mut rng = Rng::new(seed);
        let (start, _) = starts(&mut rng);
        let mut game = Game::new(start);
        for _ in 0..rng.below(120) {
            if game.outcome().is_some() {
                break;
            }
            let Some(m) = random_move(&mut rng, game.position(), bias) else {
                break;
            };
            game.play(m).expect("a legal move");
        }
        let tree = GameTree::from_game(&game);
        let text = tree.to_string();
        let read = Reader::new(text.as_bytes())
            .read_game(&mut GameTreeBuilder)
            .expect("a game")
            .expect("well-formed");
        assert_eq!(read, tree, "{text}");
        let again = Game::try_from(&read).expect("a game of the Laws");
        assert_eq!(again.start(), game.start(), "{text}");
        assert_eq!(again.moves(), game.moves(), "{text}");
        assert_eq!(again.outcome(), game.outcome(), "{text}");
        let marker = TerminationMarker::from_result(game.outcome().map(|o| o.result));
        assert_eq!(read.tags.get("Result"), Some(marker.as_str()));
        ended += usize::from(game.outcome().is_some());
    }
    assert!(ended > 30, "only {ended} games ended");

    // A null move is no move of a game.
    let tree = Reader::new(&b"1. e4 -- 2. d4 *"[..])
        .read_game(&mut GameTreeBuilder)
        .expect("a game")
        .expect("well-formed");
    assert_eq!(
        tree.to_game().map(|g| g.ply()),
        Err(caissa_notation::pgn::ToGameError::NullMove { ply: 1 })
    );
}
