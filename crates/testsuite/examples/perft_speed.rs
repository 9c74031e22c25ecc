//! Times bulk-counting perft on the start position and kiwipete, for profiling the move
//! generator: `cargo run --release -p caissa-testsuite --example perft_speed [start-depth kiwi-depth]`.

use std::time::Instant;

use caissa_movegen::{CastlingMode, Position, perft};
use caissa_notation::fen::Fen;

fn main() {
    let mut args = std::env::args()
        .skip(1)
        .map(|a| a.parse::<u32>().expect("a depth"));
    let start_depth = args.next().unwrap_or(6);
    let kiwi_depth = args.next().unwrap_or(5);
    let kiwipete: Fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
        .parse()
        .expect("valid FEN");
    let kiwipete = kiwipete
        .into_position(CastlingMode::Standard)
        .expect("legal");
    for (name, pos, depth) in [
        ("start", Position::standard(), start_depth),
        ("kiwipete", kiwipete, kiwi_depth),
    ] {
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..3 {
            let t = Instant::now();
            nodes = perft(&pos, depth);
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{name} d{depth}: {nodes} nodes, {best:.3} s, {:.1} Mnps",
            nodes as f64 / best / 1e6
        );
    }
}
