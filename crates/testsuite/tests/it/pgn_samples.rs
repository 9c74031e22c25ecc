//! The sample PGN files: every game replays, counts match pgn-reader with shakmaty, writing and
//! reading back gives the same games, and the export is snapshotted.

use std::ops::ControlFlow;

use caissa_notation::pgn::{GameTree, GameTreeBuilder, Layout, Reader, Replayer};
use caissa_testsuite::read_data;

const SAMPLES: [&str; 3] = [
    "pgn/cm-pgn-test-list.pgn",
    "pgn/lichess-2025-05-sample.pgn",
    "pgn/mliebelt-sample-games.pgn",
];

/// Every game of `text`, built as a tree; panics on a malformed one.
fn games(text: &str) -> Vec<GameTree> {
    let mut reader = Reader::new(text.as_bytes());
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut GameTreeBuilder) {
        games.push(game.unwrap_or_else(|e| panic!("malformed game: {e}")));
    }
    games
}

/// Games and main-line moves, replayed by caissa.
fn replay_counts(text: &str) -> (u64, u64, u64) {
    let mut reader = Reader::new(text.as_bytes());
    let (mut games, mut mainline, mut all) = (0, 0, 0);
    while let Some(game) = reader.read_game(&mut Replayer::new()) {
        let stats = game.unwrap_or_else(|e| panic!("game {}: {e}", games + 1));
        games += 1;
        mainline += stats.mainline_moves;
        all += stats.moves;
    }
    (games, mainline, all)
}

/// Games and main-line moves, replayed by pgn-reader with shakmaty.
fn peer_counts(text: &str) -> (u64, u64) {
    use pgn_reader::{RawTag, SanPlus, Visitor};
    use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

    struct Peer;
    impl Visitor for Peer {
        type Tags = Option<Chess>;
        type Movetext = (Chess, u64);
        type Output = u64;

        fn begin_tags(&mut self) -> ControlFlow<u64, Option<Chess>> {
            ControlFlow::Continue(None)
        }
        fn tag(
            &mut self,
            tags: &mut Option<Chess>,
            name: &[u8],
            value: RawTag<'_>,
        ) -> ControlFlow<u64> {
            if name == b"FEN" {
                let fen = Fen::from_ascii(value.as_bytes()).expect("FEN");
                *tags = Some(
                    fen.into_position(CastlingMode::Standard)
                        .expect("legal FEN"),
                );
            }
            ControlFlow::Continue(())
        }
        fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<u64, (Chess, u64)> {
            ControlFlow::Continue((tags.unwrap_or_default(), 0))
        }
        fn san(&mut self, (pos, n): &mut (Chess, u64), san: SanPlus) -> ControlFlow<u64> {
            let m = san.san.to_move(pos).expect("legal SAN");
            pos.play_unchecked(m);
            *n += 1;
            ControlFlow::Continue(())
        }
        fn end_game(&mut self, (_, n): (Chess, u64)) -> u64 {
            n
        }
    }

    let mut reader = pgn_reader::Reader::new(text.as_bytes());
    let (mut games, mut moves) = (0, 0);
    while let Some(n) = reader.read_game(&mut Peer).expect("peer reads") {
        games += 1;
        moves += n;
    }
    (games, moves)
}

#[test]
fn pgn_samples_replay_and_match_the_peer() {
    for sample in SAMPLES {
        let text = read_data(sample);
        let (games, mainline, all) = replay_counts(&text);
        let (peer_games, peer_moves) = peer_counts(&text);
        assert_eq!((games, mainline), (peer_games, peer_moves), "{sample}");
        assert!(all >= mainline);
        assert!(games > 0 && mainline > 0, "{sample}");
        println!("{sample}: {games} games, {mainline} main-line moves, {all} moves");
    }
}

#[test]
fn pgn_samples_round_trip() {
    for sample in SAMPLES {
        let first = games(&read_data(sample));
        for layout in [Layout::Export, Layout::Compact] {
            let mut text = String::new();
            for game in &first {
                game.write(&mut text, layout);
                text.push('\n');
                if layout == Layout::Compact {
                    text.push('\n');
                }
            }
            let second = games(&text);
            assert_eq!(first.len(), second.len(), "{sample} {layout:?}");
            for (i, (a, b)) in first.iter().zip(&second).enumerate() {
                assert_eq!(a, b, "{sample} {layout:?} game {}", i + 1);
            }
        }
    }
}

#[test]
fn pgn_samples_export_lines_fit() {
    for sample in SAMPLES {
        for game in games(&read_data(sample)) {
            let text = game.to_export_string();
            for line in text.lines() {
                assert!(
                    line.chars().count() <= 80 || line.starts_with('['),
                    "{line}"
                );
            }
            let tags: Vec<&str> = text.lines().take(7).collect();
            let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
            for (line, name) in tags.iter().zip(roster) {
                assert!(line.starts_with(&format!("[{name} \"")), "{line}");
            }
        }
    }
}

fn export(games: &[GameTree]) -> String {
    games
        .iter()
        .map(GameTree::to_export_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn pgn_samples_export_snapshots() {
    insta::assert_snapshot!("pgn_export_cm", export(&games(&read_data(SAMPLES[0]))));
    insta::assert_snapshot!(
        "pgn_export_mliebelt",
        export(&games(&read_data(SAMPLES[2])))
    );
    let lichess = games(&read_data(SAMPLES[1]));
    insta::assert_snapshot!("pgn_export_lichess_first_games", export(&lichess[..3]));
}
