//! [`Board`]: python-chess's `chess.Board` on a [`caissa::Game`], and [`Outcome`].
//!
//! The board is a game: its start position and the moves pushed since, so that repetitions,
//! claims and `pop` work as in python-chess. Every answer comes from the Rust crates: legality
//! from movegen, endings and claims from caissa-game (with its dead-position analysis),
//! notation from caissa-notation.

use caissa::game::dead::{self, Winnability};
use caissa::notation::fen::{EnPassantMode, Fen};
use caissa::notation::san::{San, SanPlus};
use caissa::notation::uci::UciMove;
use caissa::{CastlingMode, Color, Game, Position};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use crate::errors;
use crate::types::{Move, Piece, color_from_py, color_to_py, square_from_py};

/// The FEN of the standard starting position.
pub(crate) fn starting_fen() -> String {
    Fen::from_position(&Position::standard(), EnPassantMode::Legal).to_string()
}

/// How a game ended: python-chess's `chess.Outcome`, with the article of the FIDE Laws.
///
/// `termination` is caissa's name of the reason: `checkmate`, `stalemate`, `dead_position`
/// (where python-chess says insufficient material, and also for blocked positions that
/// caissa proves dead, 5.2.2),
/// `seventy_five_moves`, `fivefold_repetition`, and with `claim_draw=True`
/// `threefold_repetition` and `fifty_moves`.
///
/// >>> board = caissa.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
/// >>> o = board.outcome()
/// >>> (o.termination, o.winner, o.result(), o.article)
/// ('checkmate', True, '1-0', '5.1.1')
#[pyclass(module = "caissa", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Outcome(pub(crate) caissa::Outcome);

#[pymethods]
impl Outcome {
    /// Why the game ended (see the class docs).
    #[getter]
    fn termination(&self) -> &'static str {
        self.0.reason.name()
    }

    /// `True` if White won, `False` if Black won, `None` for a draw.
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.0.result.winner().map(color_to_py)
    }

    /// The article of the FIDE Laws of Chess (2023) that decides it, such as `'9.6.1'`.
    #[getter]
    fn article(&self) -> String {
        self.0.article.as_str().to_owned()
    }

    /// The result as PGN writes it: `'1-0'`, `'0-1'` or `'1/2-1/2'`.
    fn result(&self) -> &'static str {
        self.0.result.as_str()
    }

    fn __repr__(&self) -> String {
        format!(
            "Outcome(termination='{}', winner={}, article='{}')",
            self.termination(),
            match self.winner() {
                Some(true) => "True",
                Some(false) => "False",
                None => "None",
            },
            self.0.article.as_str()
        )
    }
}

/// A chess game in progress: a position and the moves that led to it, as python-chess's
/// `chess.Board`.
///
/// ``Board(fen=STARTING_FEN, *, chess960=False)`` reads a FEN (X-FEN and Shredder-FEN castling
/// are read too). Unlike python-chess, the position must be legal: an illegal one raises
/// `IllegalPositionError`, a text that is not FEN `InvalidFenError` (both `ValueError`s);
/// there is no empty board.
///
/// >>> board = caissa.Board()
/// >>> board.push_san("e4")
/// Move.from_uci('e2e4')
/// >>> board.fen()
/// 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1'
/// >>> len(board.legal_moves)
/// 20
#[pyclass(module = "caissa")]
#[derive(Clone, Debug)]
pub(crate) struct Board {
    game: Game,
}

impl Board {
    pub(crate) fn from_game(game: Game) -> Board {
        Board { game }
    }

    /// The position on the board.
    pub(crate) fn position(&self) -> &Position {
        self.game.position()
    }

    fn current_fen(&self) -> String {
        Fen::from_position(self.position(), EnPassantMode::Legal).to_string()
    }

    /// The Python move of a legal move of the current position.
    fn py_move(&self, m: caissa::Move) -> Move {
        Move::of(self.position(), m)
    }

    /// The legal move of the current position `m` stands for.
    fn rust_move(&self, m: &Move) -> PyResult<caissa::Move> {
        m.uci_move()
            .to_move(self.position())
            .map_err(|e| errors::uci_error(&self.current_fen(), &e))
    }

    /// Plays `m`, a legal move of the current position (from `rust_move` or a SAN reading).
    ///
    /// Like python-chess, the board goes on recording after an automatic ending (a dead
    /// position, fivefold repetition): `outcome()` says the game has ended.
    fn play(&mut self, m: caissa::Move) -> Move {
        let py_move = self.py_move(m);
        self.game.play_unchecked(m);
        py_move
    }

    fn parse_san_move(&self, py: Python<'_>, san: &str) -> PyResult<caissa::Move> {
        let parsed = SanPlus::from_ascii(san.as_bytes())
            .map_err(|e| errors::san_syntax_error(py, san, &e))?;
        let pos = self.position();
        parsed.san.to_move(pos).map_err(|e| {
            errors::san_error(py, &self.current_fen(), &e, |m| {
                UciMove::from_move(pos, m).to_string()
            })
        })
    }

    fn find_outcome(&self, claim_draw: bool) -> Option<caissa::Outcome> {
        self.game.outcome().or_else(|| {
            claim_draw
                .then(|| self.claimable_draw())
                .flatten()
                .map(|claim| claim.outcome())
        })
    }

    /// A draw the player to move may claim, about the board or with some legal move written
    /// down (threefold repetition first), as python-chess's `can_claim_draw` looks for.
    fn claimable_draw(&self) -> Option<caissa::game::Claim> {
        let claims = self.all_claims();
        let threefold = claims.iter().find_map(|c| c.threefold.clone());
        threefold.or_else(|| claims.into_iter().find_map(|c| c.fifty_moves))
    }

    /// The claims about the board, then those with each legal move written down.
    fn all_claims(&self) -> Vec<caissa::game::Claims> {
        let mut all = vec![self.game.claims()];
        for m in self.position().legal_moves() {
            all.extend(self.game.claims_with(m).ok());
        }
        all
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (fen = None, *, chess960 = false))]
    pub(crate) fn new(py: Python<'_>, fen: Option<&str>, chess960: bool) -> PyResult<Board> {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let Some(text) = fen else {
            return Ok(Board::from_game(Game::new(Position::standard())));
        };
        let parsed = Fen::from_ascii(text.as_bytes()).map_err(|e| errors::fen_error(py, &e))?;
        let pos = parsed
            .into_position(mode)
            .map_err(|e| errors::position_error(py, &e))?;
        Ok(Board::from_game(Game::new(pos)))
    }

    /// The Chess960 starting position with Scharnagl number `scharnagl` (0 to 959; 518 is the
    /// standard position). Raises `ValueError` for a larger number.
    ///
    /// >>> caissa.Board.from_chess960(0).fen()
    /// 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1'
    #[staticmethod]
    fn from_chess960(scharnagl: u32) -> PyResult<Board> {
        Game::chess960(scharnagl)
            .map(Board::from_game)
            .ok_or_else(|| {
                PyValueError::new_err(format!("not a Chess960 number (0 to 959): {scharnagl}"))
            })
    }

    /// python-chess's name for [`Board::from_chess960`].
    #[staticmethod]
    fn from_chess960_pos(scharnagl: u32) -> PyResult<Board> {
        Board::from_chess960(scharnagl)
    }

    /// The FEN of the current position.
    ///
    /// `shredder=True` writes castling rights as rook files (`HAha`); `en_passant` says when
    /// the en passant square is written, as in python-chess: `'legal'` (the default: only when
    /// an en passant capture is legal), `'xfen'` (when a pawn stands ready to capture, legal or
    /// not), `'fen'` (after every double push).
    #[pyo3(signature = (*, shredder = false, en_passant = "legal"))]
    fn fen(&self, shredder: bool, en_passant: &str) -> PyResult<String> {
        let mode = match en_passant {
            "legal" => EnPassantMode::Legal,
            "xfen" => EnPassantMode::PseudoLegal,
            "fen" => EnPassantMode::Always,
            other => {
                return Err(PyValueError::new_err(format!(
                    "en_passant is 'legal', 'xfen' or 'fen', not {other:?}"
                )));
            }
        };
        let fen = Fen::from_position(self.position(), mode);
        Ok(if shredder {
            fen.shredder().to_string()
        } else {
            fen.to_string()
        })
    }

    /// The piece placement part of the FEN.
    fn board_fen(&self) -> String {
        self.position().board().to_string()
    }

    /// The FEN of the position the game started from.
    fn starting_fen(&self) -> String {
        Fen::from_position(self.game.start(), EnPassantMode::Legal).to_string()
    }

    /// `True` when White is to move.
    #[getter]
    fn turn(&self) -> bool {
        color_to_py(self.position().turn())
    }

    /// Whether castling is Chess960's (king takes rook in UCI).
    #[getter]
    fn chess960(&self) -> bool {
        self.position().castling_mode() == CastlingMode::Chess960
    }

    /// The fullmove number: 1 at the start, increased after each Black move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.position().fullmoves()
    }

    /// Half-moves since the last capture or pawn move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.position().halfmoves()
    }

    /// The moves pushed since the board was made, in order.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        let positions = self.game.positions();
        positions
            .zip(self.game.moves())
            .map(|(pos, &m)| Move::of(pos, m))
            .collect()
    }

    /// The number of half-moves played: python-chess's `ply()` counts from its start
    /// position's fullmove number; caissa's too.
    fn ply(&self) -> u32 {
        let start = self.game.start();
        let start_ply = 2 * (start.fullmoves() - 1) + u32::from(start.turn() == Color::Black);
        start_ply + u32::try_from(self.game.ply()).unwrap_or(u32::MAX)
    }

    /// The piece on `square`, or `None`.
    fn piece_at(&self, square: u8) -> PyResult<Option<Piece>> {
        Ok(self
            .position()
            .board()
            .piece_at(square_from_py(square)?)
            .map(Piece))
    }

    /// The square of `color`'s king.
    fn king(&self, color: bool) -> u8 {
        self.position().king(color_from_py(color)) as u8
    }

    /// The legal moves of the current position, as a list (python-chess gives a generator
    /// object that also supports `len`, `in` and iteration).
    #[getter]
    fn legal_moves(&self) -> Vec<Move> {
        let pos = self.position();
        pos.legal_moves()
            .into_iter()
            .map(|m| self.py_move(m))
            .collect()
    }

    /// Whether `move` is legal in the current position.
    fn is_legal(&self, r#move: &Move) -> bool {
        r#move.uci_move().to_move(self.position()).is_ok()
    }

    /// Plays `move`. Raises `IllegalMoveError` (a `ValueError`) if it is not legal here:
    /// unlike python-chess, which leaves that check to the caller, caissa checks every move.
    fn push(&mut self, r#move: &Move) -> PyResult<()> {
        let m = self.rust_move(r#move)?;
        self.play(m);
        Ok(())
    }

    /// Reads a move in UCI notation, plays it and returns it.
    ///
    /// Raises `InvalidMoveError` (with `byte`) when the text is not UCI, `IllegalMoveError`
    /// when no legal move matches.
    fn push_uci(&mut self, py: Python<'_>, uci: &str) -> PyResult<Move> {
        let m = self.parse_uci(py, uci)?;
        let m = self.rust_move(&m)?;
        Ok(self.play(m))
    }

    /// Reads a move in UCI notation and returns the legal move it stands for.
    fn parse_uci(&self, py: Python<'_>, uci: &str) -> PyResult<Move> {
        let m = Move::from_uci(py, uci)?;
        let legal = self.rust_move(&m)?;
        Ok(self.py_move(legal))
    }

    /// Reads a move in SAN (leniently, as python-chess does: `Nbd7` for `Nd7`, `0-0`, a wrong
    /// or missing `+`), plays it and returns it.
    ///
    /// Raises `InvalidMoveError` (with `byte`) when the text is not SAN, `IllegalMoveError`
    /// when no legal move matches, `AmbiguousMoveError` (with `candidates`) when several do.
    ///
    /// >>> board = caissa.Board()
    /// >>> board.push_san("Nf3")
    /// Move.from_uci('g1f3')
    fn push_san(&mut self, py: Python<'_>, san: &str) -> PyResult<Move> {
        let m = self.parse_san_move(py, san)?;
        Ok(self.play(m))
    }

    /// Reads a move in SAN and returns the legal move it stands for (see `push_san`).
    fn parse_san(&self, py: Python<'_>, san: &str) -> PyResult<Move> {
        Ok(self.py_move(self.parse_san_move(py, san)?))
    }

    /// The SAN of `move`, with `+` or `#`. Raises `IllegalMoveError` if it is not legal here.
    ///
    /// >>> caissa.Board().san(caissa.Move.from_uci("g1f3"))
    /// 'Nf3'
    fn san(&self, r#move: &Move) -> PyResult<String> {
        let m = self.rust_move(r#move)?;
        Ok(SanPlus::from_move(self.position(), m).to_string())
    }

    /// The SAN of `move` without `+` or `#`.
    fn san_and_push(&mut self, r#move: &Move) -> PyResult<String> {
        let m = self.rust_move(r#move)?;
        let san = SanPlus::from_move(self.position(), m).to_string();
        self.play(m);
        Ok(san)
    }

    /// The SAN of `move` without its check suffix.
    fn lan_free_san(&self, r#move: &Move) -> PyResult<String> {
        let m = self.rust_move(r#move)?;
        Ok(San::from_move(self.position(), m).to_string())
    }

    /// The UCI notation of `move` in this position's castling convention.
    fn uci(&self, r#move: &Move) -> PyResult<String> {
        let m = self.rust_move(r#move)?;
        Ok(UciMove::from_move(self.position(), m).to_string())
    }

    /// Takes back the last move and returns it; raises `IndexError` when no move was pushed.
    fn pop(&mut self) -> PyResult<Move> {
        if self.game.ply() == 0 {
            return Err(PyIndexError::new_err(
                "pop from a board with no moves pushed",
            ));
        }
        let last = self.peek()?;
        self.game.undo();
        Ok(last)
    }

    /// The last move pushed; raises `IndexError` when there is none.
    fn peek(&self) -> PyResult<Move> {
        let (Some(m), Some(previous)) = (
            self.game.last_move(),
            self.game
                .ply()
                .checked_sub(1)
                .and_then(|p| self.game.position_at(p)),
        ) else {
            return Err(PyIndexError::new_err("no move was pushed"));
        };
        Ok(Move::of(previous, m))
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.position().is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.position().is_checkmate()
    }

    /// Whether the side to move is stalemated.
    fn is_stalemate(&self) -> bool {
        self.position().is_stalemate()
    }

    /// Whether neither side has the material to checkmate, as python-chess counts it: a lone
    /// king, a king and a knight (against a king and queens at most), or kings and bishops all
    /// on one square colour.
    ///
    /// Blocked positions with mating material can be dead too: `is_dead_position` proves
    /// those, and `outcome()` ends the game on them.
    fn is_insufficient_material(&self) -> bool {
        let board = self.position().board();
        Color::ALL
            .into_iter()
            .all(|color| dead::lacks_mating_material(board, color))
    }

    /// Whether `color` lacks the material to checkmate (see `is_insufficient_material`).
    fn has_insufficient_material(&self, color: bool) -> bool {
        dead::lacks_mating_material(self.position().board(), color_from_py(color))
    }

    /// Whether the position is dead (FIDE 5.2.2): neither player can checkmate by any series
    /// of legal moves, as caissa's analysis proves, blocked pawn walls included. Not in
    /// python-chess. An analysis that cannot decide answers `False`.
    fn is_dead_position(&self) -> bool {
        dead::is_dead(self.position())
    }

    /// Whether `color` can still checkmate by some series of legal moves (caissa's analysis;
    /// `True` when it cannot decide).
    fn can_win(&self, color: bool) -> bool {
        dead::can_win(self.position(), color_from_py(color)) != Winnability::Unwinnable
    }

    /// Whether the position has stood five times (9.6.1: the game is drawn).
    fn is_fivefold_repetition(&self) -> bool {
        self.game.repetitions() >= 5
    }

    /// Whether seventy-five moves by each side passed without a capture or pawn move
    /// (9.6.2), unless the last of them mated.
    fn is_seventyfive_moves(&self) -> bool {
        self.position().halfmoves() >= 150 && !self.position().is_checkmate()
    }

    /// Whether the current position has stood at least `count` times.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: usize) -> bool {
        self.game.repetitions() >= count
    }

    /// How the game has ended, or `None`: checkmate, stalemate, a dead position,
    /// seventy-five moves, fivefold repetition; with `claim_draw=True` also a draw the player
    /// to move may claim (threefold repetition, fifty moves).
    #[pyo3(signature = (*, claim_draw = false))]
    fn outcome(&self, claim_draw: bool) -> Option<Outcome> {
        self.find_outcome(claim_draw).map(Outcome)
    }

    /// Whether the game has ended (see `outcome`).
    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(&self, claim_draw: bool) -> bool {
        self.find_outcome(claim_draw).is_some()
    }

    /// The result as PGN writes it, `'*'` while the game goes on (see `outcome`).
    #[pyo3(signature = (*, claim_draw = false))]
    fn result(&self, claim_draw: bool) -> &'static str {
        self.find_outcome(claim_draw)
            .map_or("*", |outcome| outcome.result.as_str())
    }

    /// Whether the player to move may claim a draw by threefold repetition (9.2): the
    /// position stands for the third time, or would after one of the legal moves.
    ///
    /// Once the game has ended (a dead position, fivefold repetition, ...) there is nothing to
    /// claim, so this is `False` where python-chess may say `True`.
    fn can_claim_threefold_repetition(&self) -> bool {
        self.all_claims().iter().any(|c| c.threefold.is_some())
    }

    /// Whether the player to move may claim a draw by the fifty-move rule (9.3): fifty moves
    /// by each side without a capture or pawn move, or one legal move from it.
    ///
    /// Following the Laws, a written move that would checkmate still supports the claim
    /// (python-chess refuses it); once the game has ended there is nothing to claim.
    fn can_claim_fifty_moves(&self) -> bool {
        self.all_claims().iter().any(|c| c.fifty_moves.is_some())
    }

    /// Whether the player to move may claim a draw (threefold repetition or fifty moves).
    fn can_claim_draw(&self) -> bool {
        self.claimable_draw().is_some()
    }

    /// caissa's Zobrist key of the position in FIDE's "same position" sense (the en passant
    /// file counts only when the capture is legal). Not the Polyglot key.
    fn zobrist_hash(&self) -> u64 {
        self.position().zobrist_hash()
    }

    /// The key of the position in Polyglot opening books: python-chess's
    /// `chess.polyglot.zobrist_hash(board)`. The en passant file counts when a pawn of the side
    /// to move stands beside the pawn that just moved two squares, legal capture or not, as the
    /// book format says.
    ///
    /// >>> hex(caissa.Board().polyglot_key())
    /// '0x463b96181691fc9c'
    fn polyglot_key(&self) -> u64 {
        self.position().polyglot_key()
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep (the GIL is released
    /// while counting).
    ///
    /// >>> caissa.Board().perft(3)
    /// 8902
    fn perft(&self, py: Python<'_>, depth: u32) -> u64 {
        let pos = *self.position();
        py.detach(move || caissa::perft(&pos, depth))
    }

    /// A copy of the board, with its move stack.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __eq__(&self, other: &Board) -> bool {
        self.position() == other.position()
            && self.position().halfmoves() == other.position().halfmoves()
            && self.position().fullmoves() == other.position().fullmoves()
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.current_fen())
    }

    /// The board as eight lines of piece letters, `.` for an empty square, White at the bottom.
    fn __str__(&self) -> String {
        let board = self.position().board();
        let mut out = String::with_capacity(128);
        for rank in caissa::Rank::ALL.iter().rev() {
            for file in caissa::File::ALL {
                if file != caissa::File::A {
                    out.push(' ');
                }
                let sq = caissa::Square::from_coords(file, *rank);
                out.push(board.piece_at(sq).map_or('.', |p| p.char()));
            }
            if *rank != caissa::Rank::First {
                out.push('\n');
            }
        }
        out
    }
}

/// Adds the classes and `STARTING_FEN` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<Outcome>()?;
    m.add("STARTING_FEN", starting_fen())?;
    Ok(())
}
