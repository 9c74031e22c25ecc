//! What a PGN data user does with caissa-notation alone: read every game of a PGN file (the
//! first argument, or a sample), replay each main line, and write the game back in the PGN
//! export format.
//!
//! `cargo run -p example-pgn-user -- games.pgn`

use caissa_notation::pgn::{GameTreeBuilder, Reader};

const SAMPLE: &str = r#"[Event "Casual"]
[White "Morphy"]
[Black "Duke of Brunswick and Count Isouard"]
[Result "1-0"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 {This is a weak move already.} 4. dxe5 Bxf3 5. Qxf3 dxe5
6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8
13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0

[Event "Broken"]

1. e4 e5 2. Ke3 Kf6 *
"#;

/// One line per game (its moves replayed, or the problem), then the games written back.
fn run(pgn: &[u8]) -> String {
    let mut report = String::new();
    let mut written = String::new();
    let mut reader = Reader::new(pgn);
    for (i, game) in reader.games(&mut GameTreeBuilder).enumerate() {
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                report += &format!("game {}: unreadable: {e}\n", i + 1);
                continue;
            }
        };
        let event = game.tags.get("Event").unwrap_or("?");
        match game.mainline_moves().collect::<Result<Vec<_>, _>>() {
            Ok(moves) => {
                let last = moves.last().map(|m| m.after);
                let mate = last.is_some_and(|pos| pos.is_checkmate());
                report += &format!(
                    "game {} ({event}): {} plies, mate: {mate}\n",
                    i + 1,
                    moves.len()
                );
                written += &game.to_string();
            }
            Err(e) => report += &format!("game {} ({event}): {e}\n", i + 1),
        }
    }
    report + "\n" + &written
}

fn main() -> std::io::Result<()> {
    let pgn = match std::env::args().nth(1) {
        Some(path) => std::fs::read(path)?,
        None => SAMPLE.as_bytes().to_vec(),
    };
    print!("{}", run(&pgn));
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_sample_is_replayed_and_written_back() {
        let out = super::run(super::SAMPLE.as_bytes());
        assert!(
            out.starts_with("game 1 (Casual): 33 plies, mate: true\n"),
            "{out}"
        );
        assert!(out.contains("game 2 (Broken): move 3"), "{out}");
        assert!(out.contains("17. Rd8# 1-0"), "{out}");
        // What is written reads back as the same game.
        let written = out.split_once("\n\n").unwrap().1;
        assert!(super::run(written.as_bytes()).starts_with("game 1 (Casual): 33 plies"));
    }
}
