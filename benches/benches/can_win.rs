//! `can_win` against chasolver's `winnability` on real endgame positions: every position with
//! at most twelve men in the main lines of `data/pgn/lichess-2025-05-sample.pgn`, and each
//! game's last position, for both colours. Before timing, the verdicts are compared (they must
//! agree) and every mating line is replayed.
//!
//! ```text
//! cargo bench -p caissa-benches --bench can_win
//! ```

use std::collections::HashSet;
use std::hint::black_box;
use std::str::FromStr;
use std::time::Duration;

use caissa::Position;
use caissa::board::Color;
use caissa::game::dead::{Winnability, can_win};
use caissa::notation::fen::{EnPassantMode, Fen};
use caissa::notation::pgn::{Reader, RecordedToken, Recorder};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// The endgame positions of the sample, each once.
fn positions() -> Vec<Position> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/pgn/lichess-2025-05-sample.pgn"
    );
    let pgn = std::fs::read_to_string(path).expect("the lichess sample");
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    let mut reader = Reader::new(pgn.as_bytes());
    let mut recorder = Recorder::new();
    while let Some(game) = reader.read_game(&mut recorder) {
        let Ok(game) = game else { continue };
        let Ok(mut pos) = game.start.clone() else {
            continue;
        };
        let mut depth = 0;
        for token in &game.tokens {
            match token {
                RecordedToken::BeginVariation(_) => depth += 1,
                RecordedToken::EndVariation => depth -= 1,
                RecordedToken::Move(san, _) if depth == 0 => {
                    let Ok(m) = san.san.to_move(&pos) else { break };
                    pos.play_unchecked(m);
                    if pos.board().occupied().count() <= 12 && seen.insert(pos) {
                        out.push(pos);
                    }
                }
                RecordedToken::Move(..) => {}
            }
        }
        if seen.insert(pos) {
            out.push(pos);
        }
    }
    out
}

fn can_win_vs_chasolver(c: &mut Criterion) {
    let positions = positions();
    let boards: Vec<chess::Board> = positions
        .iter()
        .map(|pos| {
            let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
            chess::Board::from_str(&fen).expect("chess reads our FEN")
        })
        .collect();
    let colors = [
        (Color::White, chess::Color::White),
        (Color::Black, chess::Color::Black),
    ];
    for (pos, board) in positions.iter().zip(&boards) {
        for (ours, theirs) in colors {
            let verdict = can_win(pos, ours);
            if let Winnability::Winnable(line) = &verdict {
                let mut end = *pos;
                for &m in line {
                    end = end.play(m).expect("a legal mating line");
                }
                assert!(end.is_checkmate() && end.turn() != ours);
            }
            let expected = match chasolver::winnability(board, theirs) {
                Some(chasolver::Winnability::Winnable { .. }) => "winnable",
                Some(chasolver::Winnability::Unwinnable) => "unwinnable",
                None => "undetermined",
            };
            let got = match verdict {
                Winnability::Winnable(_) => "winnable",
                Winnability::Unwinnable => "unwinnable",
                Winnability::Unknown => "undetermined",
            };
            assert_eq!(got, expected, "{ours:?} in {}", board);
        }
    }
    let mut group = c.benchmark_group("can_win");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .throughput(Throughput::Elements(2 * positions.len() as u64));
    group.bench_function("caissa", |b| {
        b.iter(|| {
            for pos in &positions {
                for (color, _) in colors {
                    black_box(can_win(black_box(pos), color));
                }
            }
        });
    });
    group.bench_function("chasolver", |b| {
        b.iter(|| {
            for board in &boards {
                for (_, color) in colors {
                    black_box(chasolver::winnability(black_box(board), color));
                }
            }
        });
    });
    group.finish();
}

criterion_group!(benches, can_win_vs_chasolver);
criterion_main!(benches);
