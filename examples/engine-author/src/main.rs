//! What an engine author does with caissa-movegen alone: read a FEN (given as the arguments,
//! or kiwipete), count the leaf nodes to depth 3, play UCI moves as a GUI sends them, and write
//! the FEN and the legal moves in UCI back.
//!
//! `cargo run -p example-engine-author -- "FEN" e2e4 ...`

use caissa_movegen::{CastlingMode, Fen, Move, Position, UciMove, perft};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The report for a FEN and UCI moves played from it.
fn run(fen: &str, moves: &[&str]) -> Result<String, Box<dyn std::error::Error>> {
    let mut pos: Position = fen.parse::<Fen>()?.into_position(CastlingMode::Standard)?;
    let mut out = format!("perft 3: {}\n", perft(&pos, 3));
    for text in moves {
        let m: Move = text.parse::<UciMove>()?.to_move(&pos)?;
        pos = pos.play(m)?;
    }
    let legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| UciMove::from_move(&pos, m).to_string())
        .collect();
    out += &format!("fen: {}\n", Fen::from_position(&pos, Default::default()));
    out += &format!("legal: {} {}\n", legal.len(), legal.join(" "));
    Ok(out)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (fen, moves) = match args.split_first() {
        Some((fen, moves)) => (fen.as_str(), moves.iter().map(String::as_str).collect()),
        None => (KIWIPETE, vec!["e1g1", "h3g2"]),
    };
    print!("{}", run(fen, &moves)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn kiwipete_castles_and_is_answered() {
        let out = super::run(super::KIWIPETE, &["e1g1", "h3g2"]).unwrap();
        assert!(out.starts_with("perft 3: 97862\n"), "{out}");
        assert!(
            out.contains("fen: r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q2/PPPBBPpP/R4RK1 w kq - 0 2"),
            "{out}"
        );
        assert!(out.contains(" g1g2 "), "{out}");
        assert!(super::run(super::KIWIPETE, &["e1e3"]).is_err());
    }
}
