//! Perft written for each peer crate with its own fastest public API, the way its authors write
//! it: legal moves are counted without being played at depth 1 (bulk counting), and each child
//! position is a copy of its parent with one move played (copy-make).

/// Perft with [cozy-chess](https://crates.io/crates/cozy-chess): `generate_moves` hands over the
/// moves grouped by piece, and at depth 1 the sizes of the groups are summed.
#[must_use]
pub fn cozy_chess_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes = 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for m in moves {
                    let mut child = board.clone();
                    child.play_unchecked(m);
                    nodes += cozy_chess_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// Perft with [chess](https://crates.io/crates/chess) (jordanbray): `MoveGen::new_legal` is an
/// exact-size iterator, so depth 1 takes its length; `make_move_new` returns the child board.
#[must_use]
pub fn chess_perft(board: &chess::Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => chess::MoveGen::new_legal(board).len() as u64,
        _ => chess::MoveGen::new_legal(board)
            .map(|m| chess_perft(&board.make_move_new(m), depth - 1))
            .sum(),
    }
}

/// Perft with [shakmaty](https://crates.io/crates/shakmaty): `legal_moves` fills a fixed-capacity
/// list, whose length is the count at depth 1; children are clones with `play_unchecked`.
#[must_use]
pub fn shakmaty_perft(pos: &shakmaty::Chess, depth: u32) -> u64 {
    use shakmaty::Position as _;

    match depth {
        0 => 1,
        1 => pos.legal_moves().len() as u64,
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                shakmaty_perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Reads a FEN into a cozy-chess board.
///
/// # Errors
///
/// cozy-chess's own error, as text, when it rejects the FEN.
pub fn cozy_chess_board(fen: &str) -> Result<cozy_chess::Board, String> {
    fen.parse()
        .map_err(|e: cozy_chess::FenParseError| e.to_string())
}

/// Reads a FEN into a chess (jordanbray) board.
///
/// # Errors
///
/// The chess crate's own error, as text, when it rejects the FEN.
pub fn chess_board(fen: &str) -> Result<chess::Board, String> {
    fen.parse().map_err(|e: chess::Error| e.to_string())
}

/// Reads a FEN into a shakmaty position (standard castling).
///
/// # Errors
///
/// shakmaty's own error, as text, when the FEN does not parse or is not a legal position.
pub fn shakmaty_position(fen: &str) -> Result<shakmaty::Chess, String> {
    let fen = shakmaty::fen::Fen::from_ascii(fen.as_bytes()).map_err(|e| e.to_string())?;
    fen.into_position(shakmaty::CastlingMode::Standard)
        .map_err(|e| e.to_string())
}
