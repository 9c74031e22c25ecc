//! [`Board`]: python-chess's `chess.Board` on a [`caissa::Game`], and [`Outcome`].
//!
//! The board is a game: its start position and the moves pushed since, so that repetitions,
//! claims and `pop` work as in python-chess. Every answer comes from the Rust crates: legality
//! from movegen, endings and claims from caissa-game (with its dead-position analysis),
//! notation from caissa-notation.

use caissa::game::Article;
use caissa::game::dead::{self, Winnability};
use caissa::movegen::attacks;
use caissa::movegen::{Dropped, PositionError, SetupProblem};
use caissa::notation::epd::Epd;
use caissa::notation::fen::{EnPassantMode, Fen};
use caissa::notation::san::{San, SanPlus, Suffix, append_lan};
use caissa::notation::uci::UciMove;
use caissa::{
    Bitboard, CastlingMode, CastlingSide, Color, Game, Position, Reason, Role, Setup, Square,
};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyList};

use crate::errors;
use crate::squares::SquareSet;
use crate::types::{
    Move, Piece, Reduced, Status, color_from_py, color_to_py, grid, py_index, role_from_py,
    role_to_py, square_from_py, unicode_symbol,
};

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
    /// An outcome: `termination` (caissa's name of the reason, see the class docs), `winner`
    /// (`True` for White, `False` for Black, `None` for a draw; another value by its truth, as
    /// python-chess's colours are) and the FIDE `article` (the reason's usual one if not
    /// given). Raises `ValueError` for a name or article caissa does not know.
    #[new]
    #[pyo3(signature = (termination, winner, article = None))]
    fn new(
        termination: &str,
        winner: Option<&Bound<'_, PyAny>>,
        article: Option<&str>,
    ) -> PyResult<Outcome> {
        let reason: caissa::Reason = termination
            .parse()
            .map_err(|e: caissa::game::ParseReasonError| PyValueError::new_err(e.to_string()))?;
        let result = match winner {
            None => caissa::GameResult::Draw,
            Some(winner) => caissa::GameResult::win(color_from_py(winner.is_truthy()?)),
        };
        let mut outcome = caissa::Outcome::new(result, reason);
        if let Some(article) = article {
            outcome.article = article.parse().map_err(|_| {
                PyValueError::new_err(format!("not an article caissa cites: {article:?}"))
            })?;
        }
        Ok(Outcome(outcome))
    }

    /// Pickled (and copied) as `Outcome(termination, winner, article)`.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> Reduced<'py, (&'static str, Option<bool>, String)> {
        let outcome = slf.get();
        let args = (outcome.termination(), outcome.winner(), outcome.article());
        (slf.get_type().into_any(), args)
    }

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
/// are read too; a text that is not FEN raises `InvalidFenError`, a `ValueError`);
/// ``Board(None)`` is an empty board, as in python-chess. A UCI move reads castling either way
/// in both kinds of chess (`e1g1` or `e1h1`).
///
/// Like python-chess's, a board may hold pieces and a state that make no legal position: an
/// empty board, a FEN without kings, pieces set one at a time, `turn` set with the other king
/// in check. Such a board is *unfinished*: what reads or changes its setup works (the pieces,
/// `fen()`, `status()`, `is_valid()`, the setters, `copy()`), and everything else (moves,
/// checks, endings, hashes) raises `IllegalPositionError` with the problems, where python-chess
/// answers as it can. Changes that make a legal position make the board a game again, with no
/// moves pushed. A change of pieces drops the castling rights and en passant square that no
/// longer fit, as python-chess's FEN leaves them out; a FEN and the setters keep them
/// (`castling_rights`, `ep_square`), so that `status()` says what is wrong, and the board plays
/// without them when they are all that is wrong (a stale `KQkq`), as python-chess does, until a
/// move pushed leaves them behind; the setters take only what a FEN can say (an
/// en passant square on the third or sixth rank, one castling rook a side), so that every
/// board pickles. `Board.from_epd` and `set_epd` read any setup too, but an operation whose
/// operands are moves needs a legal position.
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
    /// The game since the last null move pushed (or the start).
    game: Game,
    /// The games before each null move pushed, oldest first. A null move is no move of a game
    /// (it passes the turn), so the board goes on with a new game from the position after it:
    /// its fifty-move count and dead-position analysis go on from there, and repetitions are
    /// counted across null moves here, as python-chess counts them (`repetitions`).
    before_null: Vec<Game>,
    /// Changes that have not made a legal position (yet), or `None` (see [`Unfinished`]).
    unfinished: Option<Box<Unfinished>>,
}

/// A board whose pieces or state make no legal position, as python-chess's boards may be
/// (`Board.empty()`, a king taken off, `turn` set with the other king in check). Only what
/// reads or changes the setup works on it (the pieces, the FEN, `status()`, the setters);
/// the rest raises `IllegalPositionError` with the setup's problems, until changes make it
/// legal and the board a game again, with no moves pushed.
///
/// An unfinished board whose only problems are castling rights and an en passant square that
/// do not fit (a stale `KQkq`, common in FENs) is *playable*: it plays the position without them,
/// as python-chess plays with its cleaned castling rights, while `status()`, the FEN and the
/// setters see the setup as it was set; a move pushed makes it a game like any other.
#[derive(Clone, Debug)]
struct Unfinished {
    setup: Setup,
    mode: CastlingMode,
    error: PositionError,
    /// Whether the board's `game` is the setup's position without the castling rights and en
    /// passant square that do not fit, to play on.
    playable: bool,
}

/// The position after the null move in `pos`: `IllegalMoveError` in check, where the position
/// after it would not be legal, and where the game has ended (no legal move), where PGN has no
/// null move either (python-chess plays it in both).
pub(crate) fn pass(pos: &Position) -> PyResult<Position> {
    let refused = |why: &str| {
        errors::IllegalMoveError::new_err(format!(
            "a null move {why} in {}",
            Fen::from_position(pos, EnPassantMode::Legal)
        ))
    };
    if !pos.has_legal_moves() {
        return Err(refused("after the end of the game"));
    }
    pos.pass()
        .ok_or_else(|| refused("in check would leave an illegal position"))
}

/// A pickled board: its start's FEN, whether it is Chess960, and its moves in UCI.
type BoardState = (String, bool, Vec<String>);

/// The SAN texts python-chess reads as the null move.
const NULL_SANS: [&str; 4] = ["--", "Z0", "0000", "@@@@"];

impl Board {
    pub(crate) fn from_game(game: Game) -> Board {
        Board {
            game,
            before_null: Vec::new(),
            unfinished: None,
        }
    }

    /// The board of `fen` with no moves pushed, unfinished (see [`Unfinished`]) if it is not
    /// a legal position; `InvalidFenError` for text that is not FEN.
    pub(crate) fn from_fen(py: Python<'_>, fen: &str, chess960: bool) -> PyResult<Board> {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let parsed = Fen::from_ascii(fen.as_bytes()).map_err(|e| errors::fen_error(py, &e))?;
        let mut setup = parsed.into_setup();
        read_queenside_as_python_chess(&mut setup, fen);
        Ok(Board::from_setup(setup, mode, false))
    }

    /// A board of `setup` with no moves pushed: a game if it is a legal position in `mode`
    /// (castling rights and an en passant square that do not fit dropped when `lenient`),
    /// else an unfinished board that keeps it as it is.
    fn from_setup(mut setup: Setup, mode: CastlingMode, lenient: bool) -> Board {
        if lenient {
            Dropped::drop_from(&mut setup, mode);
        }
        match Position::from_setup(setup, mode) {
            Ok(pos) => Board::from_game(Game::new(pos)),
            Err(error) => {
                let mut dropped = setup;
                Dropped::drop_from(&mut dropped, mode);
                let playable = Position::from_setup(dropped, mode).ok();
                Board {
                    // Read only when playable (see `game`).
                    game: Game::new(playable.unwrap_or_else(Position::standard)),
                    before_null: Vec::new(),
                    unfinished: Some(Box::new(Unfinished {
                        setup,
                        mode,
                        error,
                        playable: playable.is_some(),
                    })),
                }
            }
        }
    }

    /// The setup on the board: the pieces, side to move, castling rights, en passant square
    /// and counters, whether or not they make a legal position.
    fn setup(&self) -> Setup {
        match &self.unfinished {
            Some(unfinished) => unfinished.setup,
            None => self.game.position().to_setup(),
        }
    }

    /// The FEN of the setup as it stands (Shredder-FEN castling, the en passant square as set),
    /// which `from_fen` reads back to the same setup: every setup a board holds is one a FEN
    /// can say, as the setters take only what a FEN can say.
    fn setup_fen(&self) -> String {
        Fen(self.setup()).shredder().to_string()
    }

    /// Sets the board to its setup with each FEN field `index` (0 for the placement, 5 for the
    /// fullmove number) of `changes` replaced by its text, validated as `Board(fen)` validates
    /// it: the FEN's own rules (`InvalidFenError`, the board unchanged), then the position's (an
    /// unfinished board if it is not legal). The move stack is cleared.
    fn set_fen_fields(&mut self, py: Python<'_>, changes: &[(usize, &str)]) -> PyResult<()> {
        let fen = self.setup_fen();
        let mut fields: Vec<&str> = fen.split(' ').collect();
        for &(index, field) in changes {
            if field.is_empty() || field.contains(char::is_whitespace) {
                return Err(PyValueError::new_err(format!("not a FEN field: {field:?}")));
            }
            fields[index] = field;
        }
        *self = Board::from_fen(py, &fields.join(" "), self.chess960())?;
        Ok(())
    }

    /// The pieces on the board, whether or not they make a legal position.
    fn placement(&self) -> &caissa::Board {
        match &self.unfinished {
            Some(unfinished) => &unfinished.setup.board,
            None => self.game.position().board(),
        }
    }

    /// The castling mode: Chess960's or the standard one.
    fn mode(&self) -> CastlingMode {
        match &self.unfinished {
            Some(unfinished) => unfinished.mode,
            None => self.game.position().castling_mode(),
        }
    }

    /// `IllegalPositionError` with the problems of an unfinished board.
    fn unfinished_error(unfinished: &Unfinished) -> PyErr {
        Python::attach(|py| errors::position_error(py, &unfinished.error))
    }

    /// The game since the last null move pushed (the whole game without one): the start
    /// position and the moves pushed since. `IllegalPositionError` on an unfinished board.
    pub(crate) fn game(&self) -> PyResult<&Game> {
        match &self.unfinished {
            Some(unfinished) if !unfinished.playable => Err(Board::unfinished_error(unfinished)),
            _ => Ok(&self.game),
        }
    }

    /// The position the board started from, before any move pushed (on a board that is not
    /// unfinished).
    fn root_position(&self) -> &Position {
        self.before_null.first().unwrap_or(&self.game).start()
    }

    /// Every game of the board, the current one last (see `before_null`); none on an
    /// unfinished board.
    pub(crate) fn games(&self) -> impl Iterator<Item = &Game> {
        let current = self.game().ok();
        self.before_null.iter().chain(current)
    }

    /// Passes the turn (the null move), giving it; `IllegalMoveError` where [`pass`] refuses.
    pub(crate) fn play_null(&mut self) -> PyResult<Move> {
        let passed = pass(self.position()?)?;
        // A move played leaves the setup's rights behind (see `Unfinished::playable`).
        self.unfinished = None;
        self.before_null
            .push(std::mem::replace(&mut self.game, Game::new(passed)));
        Ok(Move::NULL)
    }

    /// The position on the board; `IllegalPositionError` on an unfinished board.
    pub(crate) fn position(&self) -> PyResult<&Position> {
        Ok(self.game()?.position())
    }

    /// The FEN of the board, for messages: its setup's, whether or not it is legal.
    fn current_fen(&self) -> String {
        match &self.unfinished {
            Some(unfinished) => Fen(unfinished.setup).to_string(),
            None => Fen::from_position(self.game.position(), EnPassantMode::Legal).to_string(),
        }
    }

    /// Changes the pieces with `change`, keeps the rest of the setup, and starts a new game
    /// from the result if it is a legal position (castling rights and an en passant square
    /// that no longer fit dropped), else leaves the board unfinished (see [`Unfinished`]).
    fn edit(&mut self, change: impl FnOnce(&mut caissa::Board)) {
        let mut setup = self.setup();
        change(&mut setup.board);
        *self = Board::from_setup(setup, self.mode(), true);
    }

    /// Whether `move` is legal here and `test` holds for it.
    fn legal_move_is(
        &self,
        r#move: &Move,
        test: impl FnOnce(&Position, caissa::Move) -> bool,
    ) -> PyResult<bool> {
        let pos = self.position()?;
        Ok(r#move.uci_move().to_move(pos).is_ok_and(|m| test(pos, m)))
    }

    /// Whether `color` may still castle on `side`.
    fn castles_on(&self, color: bool, side: CastlingSide) -> bool {
        let color = color_from_py(color);
        self.usable_castling_rights()
            .iter()
            .any(|(c, s, _)| c == color && s == side)
    }

    /// The castling rights whose king and rook are in place (on an unfinished board, those of
    /// its setup that are; python-chess's `clean_castling_rights`).
    fn usable_castling_rights(&self) -> caissa::CastlingRights {
        match &self.unfinished {
            Some(unfinished) => shown_setup(unfinished, EnPassantMode::Always).castling_rights,
            None => self.game.position().castling_rights(),
        }
    }

    /// The setup as python-chess compares boards: the castling rights that can be used, an en
    /// passant square only where a capture is legal, and the counters.
    fn compared(&self) -> Setup {
        match &self.unfinished {
            Some(unfinished) => shown_setup(unfinished, EnPassantMode::Legal),
            None => {
                let pos = self.game.position();
                Setup {
                    ep_square: pos.legal_ep_square(),
                    ..pos.to_setup()
                }
            }
        }
    }

    /// The Python move of `m`, a legal move of the board, which is therefore not unfinished, or
    /// playable.
    fn py_move(&self, m: caissa::Move) -> Move {
        debug_assert!(
            self.unfinished.as_ref().is_none_or(|u| u.playable),
            "a legal move of an unfinished board"
        );
        Move::of(self.game.position(), m)
    }

    /// The board of the EPD line `epd` in castling mode `mode`, and its operations.
    fn read_epd<'py>(
        py: Python<'py>,
        epd: &str,
        mode: CastlingMode,
    ) -> PyResult<(Board, Bound<'py, PyDict>)> {
        let parsed =
            Epd::from_ascii(epd.trim().as_bytes()).map_err(|e| errors::epd_error(py, &e))?;
        let mut setup = parsed.setup();
        read_queenside_as_python_chess(&mut setup, epd);
        let board = Board::from_setup(setup, mode, false);
        let operations = crate::epd::operations(py, &parsed, || board.position())?;
        Ok((board, operations))
    }

    /// The pseudo-legal moves of the current position (see `generate_pseudo_legal_moves`).
    fn pseudo_legal(&self) -> PyResult<Vec<caissa::Move>> {
        let mut moves = Vec::new();
        self.position()?
            .for_each_pseudo_legal_move(|m| moves.push(m));
        Ok(moves)
    }

    /// An iterator over the Python moves of the `which` moves of `kind`, from a square of the
    /// first mask to a square of the second (python-chess's `from_mask` and `to_mask`, where
    /// castling goes to its rook's square, as caissa's moves have it).
    fn generated<'py>(
        &self,
        py: Python<'py>,
        which: Generated,
        kind: Kind,
        (from_mask, to_mask): (u64, u64),
    ) -> PyResult<Bound<'py, PyIterator>> {
        let pos = self.position()?;
        let moves = match which {
            Generated::Legal => pos.legal_moves().as_slice().to_vec(),
            Generated::PseudoLegal => self.pseudo_legal()?,
        };
        let picked: Vec<Move> = moves
            .into_iter()
            .filter(|&m| {
                Bitboard(from_mask).contains(m.from()) && Bitboard(to_mask).contains(m.to())
            })
            .filter(|&m| match kind {
                Kind::All => true,
                Kind::Captures => pos.is_capture(m),
                Kind::EnPassant => m.is_en_passant(),
                Kind::Castling => m.is_castle(),
            })
            .map(|m| Move::of(pos, m))
            .collect();
        PyList::new(py, picked)?.try_iter()
    }

    /// The legal move of the current position `m` stands for.
    fn rust_move(&self, m: &Move) -> PyResult<caissa::Move> {
        m.uci_move()
            .to_move(self.position()?)
            .map_err(|e| errors::uci_error(&self.current_fen(), &e))
    }

    /// Plays `m`, a legal move of the current position (from `rust_move` or a SAN reading).
    ///
    /// Like python-chess, the board goes on recording after an automatic ending (a dead
    /// position, fivefold repetition): `outcome()` says the game has ended.
    pub(crate) fn play(&mut self, m: caissa::Move) -> Move {
        let py_move = self.py_move(m);
        // A move played leaves the setup's rights behind (see `Unfinished::playable`), as
        // python-chess's push cleans them.
        self.unfinished = None;
        self.game.play_unchecked(m);
        py_move
    }

    fn parse_san_move(&self, py: Python<'_>, san: &str) -> PyResult<caissa::Move> {
        let parsed = SanPlus::from_ascii(san.as_bytes())
            .map_err(|e| errors::san_syntax_error(py, san, &e))?;
        let pos = self.position()?;
        parsed.san.to_move(pos).map_err(|e| {
            errors::san_error(py, &self.current_fen(), &e, |m| {
                UciMove::from_move(pos, m).to_string()
            })
        })
    }

    /// The flags of `status()`.
    fn status_flags(&self) -> u32 {
        let setup = self.setup();
        let board = &setup.board;
        let mut flags = 0;
        let mut flag = |holds: bool, status: Status| {
            if holds {
                flags |= status.bit();
            }
        };
        flag(board.occupied().is_empty(), Status::Empty);
        let no_king = |color| (board.kings() & board.by_color(color)).is_empty();
        flag(no_king(Color::White), Status::NoWhiteKing);
        flag(no_king(Color::Black), Status::NoBlackKing);
        flag(board.kings().count() > 2, Status::TooManyKings);
        for (color, pawns, pieces) in [
            (
                Color::White,
                Status::TooManyWhitePawns,
                Status::TooManyWhitePieces,
            ),
            (
                Color::Black,
                Status::TooManyBlackPawns,
                Status::TooManyBlackPieces,
            ),
        ] {
            let men = board.by_color(color);
            flag((men & board.pawns()).count() > 8, pawns);
            flag(men.count() > 16, pieces);
        }
        flag(
            (board.pawns() & Bitboard::BACK_RANKS).any(),
            Status::PawnsOnBackrank,
        );
        flag(self.was_into_check(), Status::OppositeCheck);
        // More than two checkers: no move gives so many checks, caissa's impossible check too.
        let too_many_checkers = checkers(&setup).count() > 2;
        flag(too_many_checkers, Status::TooManyCheckers);
        flag(too_many_checkers, Status::ImpossibleCheck);
        if let Some(unfinished) = &self.unfinished {
            for problem in unfinished.error.problems() {
                match problem {
                    SetupProblem::InvalidEnPassant(_) => flag(true, Status::InvalidEpSquare),
                    // python-chess judges castling by the king on the highest square.
                    SetupProblem::InvalidCastlingRight { color, .. } => flag(
                        (board.kings() & board.by_color(*color)).count() <= 1,
                        Status::BadCastlingRights,
                    ),
                    SetupProblem::ImpossibleCheck => flag(true, Status::ImpossibleCheck),
                    _ => {}
                }
            }
        }
        flags
    }

    pub(crate) fn find_outcome(&self, claim_draw: bool) -> PyResult<Option<caissa::Outcome>> {
        let game = self.game()?;
        if let Some(outcome) = game.outcome() {
            return Ok(Some(outcome));
        }
        if self.fivefold_across_nulls(game) {
            return Ok(Some(caissa::Outcome::draw(Reason::FivefoldRepetition)));
        }
        Ok(claim_draw.then(|| self.claimable_draw(game)).flatten())
    }

    /// A draw the player to move may claim (the board being `game`), about the board or with
    /// some legal move written down: fifty moves first, then threefold repetition, as
    /// python-chess's `outcome(claim_draw=True)` looks for them.
    fn claimable_draw(&self, game: &Game) -> Option<caissa::Outcome> {
        if self.fivefold_across_nulls(game) {
            return None;
        }
        let claims = Board::all_claims(game);
        let fifty = claims.iter().find_map(|c| c.fifty_moves.clone());
        fifty
            .map(|claim| claim.outcome())
            .or_else(|| {
                claims
                    .into_iter()
                    .find_map(|c| c.threefold)
                    .map(|claim| claim.outcome())
            })
            .or_else(|| {
                self.threefold_across_nulls(game)
                    .map(|article| caissa::Outcome {
                        article,
                        ..caissa::Outcome::draw(Reason::ThreefoldRepetition)
                    })
            })
    }

    /// How many times the position on the board has stood, counted across the null moves
    /// pushed as python-chess counts (each game between null moves counts only its own, see
    /// `before_null`).
    fn repetitions(&self) -> PyResult<usize> {
        Ok(self.repetitions_in(self.game()?))
    }

    /// [`Board::repetitions`], the board's game since the last null move being `game`.
    fn repetitions_in(&self, game: &Game) -> usize {
        game.repetitions() + self.before_null_occurrences(game.position())
    }

    /// Whether the game has ended by a fivefold repetition counted across null moves (which
    /// `game`, the board's game since the last one, does not see). Without a null move, no
    /// work: `game.outcome()` has judged the repetitions (this is on `is_game_over`'s path).
    fn fivefold_across_nulls(&self, game: &Game) -> bool {
        !self.before_null.is_empty() && self.repetitions_in(game) >= 5
    }

    /// How many times `pos` stood in the games before the null moves pushed.
    fn before_null_occurrences(&self, pos: &Position) -> usize {
        self.before_null
            .iter()
            .flat_map(Game::positions)
            .filter(|&earlier| earlier == pos)
            .count()
    }

    /// The article of a threefold repetition that can be claimed (the board being `game`) only
    /// by counting across null moves, as python-chess does: the position stands for the third
    /// time (9.2.1.2), or would after a legal move (9.2.1.1).
    fn threefold_across_nulls(&self, game: &Game) -> Option<Article> {
        if self.before_null.is_empty()
            || game.outcome().is_some()
            || self.fivefold_across_nulls(game)
        {
            return None;
        }
        let stood = |pos: &Position| {
            game.positions().filter(|&p| p == pos).count() + self.before_null_occurrences(pos)
        };
        if self.repetitions_in(game) >= 3 {
            return Some(Article::THREEFOLD_ON_BOARD);
        }
        let pos = game.position();
        pos.legal_moves()
            .into_iter()
            .any(|m| pos.play(m).is_ok_and(|next| stood(&next) >= 2))
            .then_some(Article::THREEFOLD_INTENDED)
    }

    /// The claims about the board of `game`, then those with each legal move written down.
    fn all_claims(game: &Game) -> Vec<caissa::game::Claims> {
        let mut all = vec![game.claims()];
        for m in game.position().legal_moves() {
            all.extend(game.claims_with(m).ok());
        }
        all
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(
        signature = (fen = Some(starting_fen()), *, chess960 = false),
        text_signature = "(fen=STARTING_FEN, *, chess960=False)"
    )]
    fn py_new(py: Python<'_>, fen: Option<String>, chess960: bool) -> PyResult<Board> {
        match fen {
            Some(fen) => Board::from_fen(py, &fen, chess960),
            None => Ok(Board::empty(chess960)),
        }
    }

    /// A board with no pieces, White to move (python-chess's `Board.empty()`): an unfinished
    /// board (see the class docs) until pieces make a legal position.
    ///
    /// >>> board = caissa.Board.empty()
    /// >>> board.set_piece_at(caissa.E1, caissa.Piece.from_symbol("K"))
    /// >>> board.set_piece_at(caissa.E8, caissa.Piece.from_symbol("k"))
    /// >>> board.fen(), board.is_valid(), len(board.legal_moves)
    /// ('4k3/8/8/8/8/8/8/4K3 w - - 0 1', True, 5)
    #[staticmethod]
    #[pyo3(signature = (*, chess960 = false))]
    fn empty(chess960: bool) -> Board {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        Board::from_setup(Setup::empty(), mode, false)
    }

    /// Takes every piece off the board and sets White to move, no castling rights, no en
    /// passant square, the counters to their start (python-chess's `clear`): an unfinished
    /// board until pieces make a legal position.
    fn clear(&mut self) {
        *self = Board::from_setup(Setup::empty(), self.mode(), false);
    }

    /// Takes every piece off the board and keeps the side to move and the counters
    /// (python-chess's `clear_board`); see `set_piece_at`.
    fn clear_board(&mut self) {
        self.edit(|board| *board = caissa::Board::empty());
    }

    /// The Chess960 starting position with Scharnagl number `scharnagl` (0 to 959; 518 is the
    /// standard position). Raises `ValueError` for a larger number.
    ///
    /// >>> caissa.Board.from_chess960(0).fen()
    /// 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1'
    #[staticmethod]
    fn from_chess960(scharnagl: &Bound<'_, PyAny>) -> PyResult<Board> {
        scharnagl
            .extract::<u32>()
            .ok()
            .and_then(Game::chess960)
            .map(Board::from_game)
            .ok_or_else(|| {
                PyValueError::new_err(format!("not a Chess960 number (0 to 959): {scharnagl}"))
            })
    }

    /// python-chess's name for [`Board::from_chess960`].
    #[staticmethod]
    fn from_chess960_pos(scharnagl: &Bound<'_, PyAny>) -> PyResult<Board> {
        Board::from_chess960(scharnagl)
    }

    /// The FEN of the current position.
    ///
    /// `shredder=True` writes castling rights as rook files (`HAha`); `en_passant` says when
    /// the en passant square is written, as in python-chess: `'legal'` (the default: only when
    /// an en passant capture is legal), `'xfen'` (when a pawn stands ready to capture, legal or
    /// not), `'fen'` (after every double push).
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None))]
    fn fen(&self, shredder: bool, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        // Promoted pieces matter only to variants (crazyhouse): python-chess's `promoted` is taken
        // and changes nothing here, as in its standard FEN.
        let _ = promoted;
        let mode = en_passant_mode(en_passant)?;
        let fen = match &self.unfinished {
            Some(unfinished) => Fen(shown_setup(unfinished, mode)),
            None => Fen::from_position(self.game.position(), mode),
        };
        Ok(if shredder {
            fen.shredder().to_string()
        } else {
            fen.to_string()
        })
    }

    /// The piece placement part of the FEN.
    #[pyo3(signature = (*, promoted = None))]
    fn board_fen(&self, promoted: Option<bool>) -> String {
        // python-chess's `promoted` marks promoted pieces (for crazyhouse); caissa has none.
        let _ = promoted;
        self.placement().to_string()
    }

    /// The standard start's FEN, as python-chess's class attribute (`root().fen()` gives the
    /// FEN a board's game started from).
    #[classattr]
    fn starting_fen() -> String {
        starting_fen()
    }

    /// `True` when White is to move.
    #[getter]
    fn turn(&self) -> bool {
        color_to_py(self.setup().turn)
    }

    /// Sets the side to move (by its truth: `True` for White), keeping the pieces and the
    /// castling rights, dropping the en passant square (python-chess keeps it, and its
    /// `status()` flags it) and clearing the move stack (python-chess keeps its stack); the
    /// side already to move changes nothing. An unfinished board (see the class docs) if the
    /// side not to move is in check.
    #[setter]
    fn set_turn(&mut self, py: Python<'_>, turn: &Bound<'_, PyAny>) -> PyResult<()> {
        let turn = color_from_py(turn.is_truthy()?);
        if turn == self.setup().turn {
            return Ok(());
        }
        self.set_fen_fields(py, &[(1, &turn.char().to_string()), (3, "-")])
    }

    /// Whether castling is Chess960's (king takes rook in UCI).
    #[getter]
    fn chess960(&self) -> bool {
        self.mode() == CastlingMode::Chess960
    }

    /// Makes castling Chess960's or the standard one (by the value's truth), clearing the move
    /// stack; an unfinished board (see the class docs) if a castling right does not fit the
    /// standard game.
    #[setter]
    fn set_chess960(&mut self, py: Python<'_>, chess960: &Bound<'_, PyAny>) -> PyResult<()> {
        *self = Board::from_fen(py, &self.setup_fen(), chess960.is_truthy()?)?;
        Ok(())
    }

    /// The fullmove number: 1 at the start, increased after each Black move.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.setup().fullmoves.get()
    }

    /// Sets the fullmove number (at least 1, where python-chess takes 0 too), clearing the
    /// move stack.
    #[setter]
    fn set_fullmove_number(&mut self, py: Python<'_>, number: u32) -> PyResult<()> {
        if number == 0 {
            return Err(PyValueError::new_err("the fullmove number starts at 1"));
        }
        self.set_fen_fields(py, &[(5, &number.to_string())])
    }

    /// Half-moves since the last capture or pawn move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.setup().halfmoves
    }

    /// Sets the half-moves since the last capture or pawn move, clearing the move stack.
    #[setter]
    fn set_halfmove_clock(&mut self, py: Python<'_>, halfmoves: u32) -> PyResult<()> {
        self.set_fen_fields(py, &[(4, &halfmoves.to_string())])
    }

    /// The moves pushed since the board was made, in order (null moves too).
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        let mut stack = Vec::new();
        for (i, game) in self.games().enumerate() {
            if i > 0 {
                stack.push(Move::NULL);
            }
            let moves = game.positions().zip(game.moves());
            stack.extend(moves.map(|(pos, &m)| Move::of(pos, m)));
        }
        stack
    }

    /// The number of half-moves played: python-chess's `ply()` counts from its start
    /// position's fullmove number; caissa's too.
    fn ply(&self) -> u32 {
        let start = match &self.unfinished {
            Some(unfinished) => unfinished.setup,
            None => self.root_position().to_setup(),
        };
        let start_ply = 2 * (start.fullmoves.get() - 1) + u32::from(start.turn == Color::Black);
        let plies: usize = self.games().map(Game::ply).sum::<usize>() + self.before_null.len();
        start_ply + u32::try_from(plies).unwrap_or(u32::MAX)
    }

    /// The piece on `square`, or `None`.
    fn piece_at(&self, square: u8) -> PyResult<Option<Piece>> {
        Ok(self
            .placement()
            .piece_at(square_from_py(square)?)
            .map(Piece))
    }

    /// The square of `color`'s king, or `None` (on an unfinished board, see the class docs);
    /// of several, the one on the highest square, as python-chess takes it.
    fn king(&self, color: bool) -> Option<u8> {
        let board = self.placement();
        (board.kings() & board.by_color(color_from_py(color)))
            .last()
            .map(|sq| sq as u8)
    }

    /// The type of the piece on `square` (1 for a pawn to 6 for a king), or `None`.
    fn piece_type_at(&self, square: u8) -> PyResult<Option<u8>> {
        let sq = square_from_py(square)?;
        Ok(self.placement().role_at(sq).map(role_to_py))
    }

    /// The colour of the piece on `square` (`True` for White), or `None`.
    fn color_at(&self, square: u8) -> PyResult<Option<bool>> {
        let sq = square_from_py(square)?;
        Ok(self.placement().color_at(sq).map(color_to_py))
    }

    /// The pieces on the board, as a dict from square to `Piece`.
    #[pyo3(signature = (*, mask = u64::MAX))]
    fn piece_map(&self, mask: u64) -> std::collections::HashMap<u8, Piece> {
        self.placement()
            .pieces()
            .filter(|&(sq, _)| Bitboard(mask).contains(sq))
            .map(|(sq, piece)| (sq as u8, Piece(piece)))
            .collect()
    }

    /// The squares of `piece_type`'s pieces of `color`.
    fn pieces(&self, piece_type: u8, color: bool) -> PyResult<SquareSet> {
        let piece = role_from_py(piece_type)?.of(color_from_py(color));
        Ok(SquareSet(self.placement().by_piece(piece)))
    }

    /// The occupied squares, as a bit mask (`a1` the lowest bit).
    #[getter]
    fn occupied(&self) -> u64 {
        self.placement().occupied().0
    }

    /// The squares of each colour's pieces as bit masks, indexed by colour: `[black, white]`.
    #[getter]
    fn occupied_co(&self) -> [u64; 2] {
        let board = self.placement();
        [Color::Black, Color::White].map(|color| board.by_color(color).0)
    }

    /// The squares of the pawns of both colours, as a bit mask.
    #[getter]
    fn pawns(&self) -> u64 {
        self.placement().pawns().0
    }

    /// The squares of the knights of both colours, as a bit mask.
    #[getter]
    fn knights(&self) -> u64 {
        self.placement().knights().0
    }

    /// The squares of the bishops of both colours, as a bit mask.
    #[getter]
    fn bishops(&self) -> u64 {
        self.placement().bishops().0
    }

    /// The squares of the rooks of both colours, as a bit mask.
    #[getter]
    fn rooks(&self) -> u64 {
        self.placement().rooks().0
    }

    /// The squares of the queens of both colours, as a bit mask.
    #[getter]
    fn queens(&self) -> u64 {
        self.placement().queens().0
    }

    /// The squares of the kings of both colours, as a bit mask.
    #[getter]
    fn kings(&self) -> u64 {
        self.placement().kings().0
    }

    /// The pieces giving check to the side to move.
    fn checkers(&self) -> PyResult<SquareSet> {
        Ok(SquareSet(self.position()?.checkers()))
    }

    /// The pieces of `color` that attack `square`, as the board stands (an unfinished one
    /// too), the sliders blocked by `occupied` (a bit mask) if given.
    #[pyo3(signature = (color, square, occupied = None))]
    fn attackers(&self, color: bool, square: u8, occupied: Option<u64>) -> PyResult<SquareSet> {
        let board = self.placement();
        let sq = square_from_py(square)?;
        let occupied = occupied.map_or_else(|| board.occupied(), Bitboard);
        Ok(SquareSet(attacks::attackers(
            board,
            sq,
            color_from_py(color),
            occupied,
        )))
    }

    /// `attackers` as a bit mask.
    #[pyo3(signature = (color, square, occupied = None))]
    fn attackers_mask(&self, color: bool, square: u8, occupied: Option<u64>) -> PyResult<u64> {
        Ok(self.attackers(color, square, occupied)?.0.0)
    }

    /// `attacks` as a bit mask.
    fn attacks_mask(&self, square: u8) -> PyResult<u64> {
        Ok(self.attacks(square)?.0.0)
    }

    /// `pin` as a bit mask.
    fn pin_mask(&self, color: bool, square: u8) -> PyResult<u64> {
        Ok(self.pin(color, square)?.0.0)
    }

    /// `checkers` as a bit mask.
    fn checkers_mask(&self) -> PyResult<u64> {
        Ok(self.position()?.checkers().0)
    }

    /// `pieces` as a bit mask.
    fn pieces_mask(&self, piece_type: u8, color: bool) -> PyResult<u64> {
        Ok(self.pieces(piece_type, color)?.0.0)
    }

    /// Whether a piece of `color` attacks `square`.
    #[pyo3(signature = (color, square, occupied = None))]
    fn is_attacked_by(&self, color: bool, square: u8, occupied: Option<u64>) -> PyResult<bool> {
        Ok(self.attackers(color, square, occupied)?.0.any())
    }

    /// The squares the piece on `square` attacks (none for an empty square).
    fn attacks(&self, square: u8) -> PyResult<SquareSet> {
        let sq = square_from_py(square)?;
        let board = self.placement();
        Ok(SquareSet(
            board.piece_at(sq).map_or(Bitboard::EMPTY, |piece| {
                attacks::piece(piece, sq, board.occupied())
            }),
        ))
    }

    /// The line through `color`'s king along which the piece on `square` is pinned to it (the
    /// whole line, from edge to edge), or every square when it is not pinned, as in
    /// python-chess.
    fn pin(&self, color: bool, square: u8) -> PyResult<SquareSet> {
        let sq = square_from_py(square)?;
        let line = self.position()?.pin_line(color_from_py(color), sq);
        Ok(SquareSet(line.unwrap_or(Bitboard::FULL)))
    }

    /// Whether the piece on `square` is pinned to `color`'s king.
    fn is_pinned(&self, color: bool, square: u8) -> PyResult<bool> {
        let sq = square_from_py(square)?;
        Ok(self
            .position()?
            .pin_line(color_from_py(color), sq)
            .is_some())
    }

    /// The square a pawn just passed over with a double push, whether or not an en passant
    /// capture is possible (as python-chess's `ep_square`), or `None`.
    #[getter]
    fn ep_square(&self) -> Option<u8> {
        self.setup().ep_square.map(|sq| sq as u8)
    }

    /// Sets the en passant square (`None` for none; on the third or sixth rank, as a FEN
    /// writes it, where python-chess takes any square), keeping the pieces and clearing the
    /// move stack; an unfinished board (see the class docs) if no double push can have
    /// passed over it.
    #[setter]
    fn set_ep_square(&mut self, py: Python<'_>, square: Option<i64>) -> PyResult<()> {
        let name = match square {
            None => "-",
            Some(square) => u8::try_from(square)
                .ok()
                .and_then(|sq| Square::new(u32::from(sq)))
                .ok_or_else(|| PyValueError::new_err(format!("not a square: {square}")))?
                .name(),
        };
        self.set_fen_fields(py, &[(3, name)])
    }

    /// Whether a legal move captures en passant.
    fn has_legal_en_passant(&self) -> PyResult<bool> {
        Ok(self.position()?.legal_ep_square().is_some())
    }

    /// The rooks that may castle, as a bit mask of their squares (python-chess's
    /// `castling_rights`: `BB_A1 | BB_H1 | BB_A8 | BB_H8` at the start).
    #[getter]
    fn castling_rights(&self) -> u64 {
        castling_rooks(&self.setup().castling_rights, None).0
    }

    /// Sets the castling rights to those of the rooks in `rooks`, a bit mask of squares on
    /// the back ranks (as python-chess's `castling_rights`), keeping the pieces and clearing
    /// the move stack; an unfinished board (see the class docs) for a right whose king or rook
    /// is not in place. A rook castles on the side of its king where it stands (of the e-file
    /// without a king on the back rank), as a Shredder-FEN letter says. Raises `ValueError` for
    /// a square off the back ranks and for two rooks on one side, which no FEN can say
    /// (python-chess takes any mask).
    #[setter]
    fn set_castling_rights(&mut self, py: Python<'_>, rooks: u64) -> PyResult<()> {
        let mut letters = String::new();
        for rook in Bitboard(rooks) {
            let letter = rook.file().char();
            match rook.rank() {
                caissa::Rank::First => letters.push(letter.to_ascii_uppercase()),
                caissa::Rank::Eighth => letters.push(letter),
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "a castling rook stands on a back rank, not on {rook}"
                    )));
                }
            }
        }
        if letters.is_empty() {
            letters.push('-');
        }
        self.set_fen_fields(py, &[(2, &letters)])
    }

    /// The castling rights as python-chess's `clean_castling_rights` gives them: a caissa
    /// board keeps only rights it can use, so the same mask as `castling_rights`.
    fn clean_castling_rights(&self) -> u64 {
        castling_rooks(&self.usable_castling_rights(), None).0
    }

    /// Whether some castling right is one only Chess960 has: a king off the e-file or a rook
    /// off the a- and h-files.
    fn has_chess960_castling_rights(&self) -> PyResult<bool> {
        let pos = self.position()?;
        Ok(pos.castling_rights().iter().any(|(color, _, file)| {
            let king_file = pos.king(color).file();
            king_file != caissa::File::E || !matches!(file, caissa::File::A | caissa::File::H)
        }))
    }

    /// The castling field of the FEN (`KQkq`, or the rooks' files where those letters would
    /// not say which rook: X-FEN), `'-'` for none.
    fn castling_xfen(&self) -> PyResult<String> {
        Ok(fen_field(&self.fen(false, "legal", None)?, 2))
    }

    /// The castling field of the Shredder-FEN: the rooks' files (`HAha`), `'-'` for none.
    fn castling_shredder_fen(&self) -> PyResult<String> {
        Ok(fen_field(&self.fen(true, "legal", None)?, 2))
    }

    /// Whether `color` may still castle on either side.
    fn has_castling_rights(&self, color: bool) -> bool {
        castling_rooks(&self.usable_castling_rights(), Some(color_from_py(color))).any()
    }

    /// Whether `color` may still castle with the rook on the king's side (towards the h-file).
    fn has_kingside_castling_rights(&self, color: bool) -> bool {
        self.castles_on(color, CastlingSide::KingSide)
    }

    /// Whether `color` may still castle with the rook on the queen's side (towards the a-file).
    fn has_queenside_castling_rights(&self, color: bool) -> bool {
        self.castles_on(color, CastlingSide::QueenSide)
    }

    /// Whether `move` takes a piece (en passant too). `False` for a move that is not legal
    /// here: python-chess also answers for other moves, judging their squares; caissa answers
    /// about legal moves, as all its move predicates do.
    fn is_capture(&self, r#move: &Move) -> PyResult<bool> {
        self.legal_move_is(r#move, |pos, m| pos.is_capture(m))
    }

    /// Whether `move` takes en passant (`False` for a move that is not legal here).
    fn is_en_passant(&self, r#move: &Move) -> PyResult<bool> {
        self.legal_move_is(r#move, |_, m| m.is_en_passant())
    }

    /// Whether `move` castles (`False` for a move that is not legal here).
    fn is_castling(&self, r#move: &Move) -> PyResult<bool> {
        self.legal_move_is(r#move, |_, m| m.is_castle())
    }

    /// Whether `move` castles on the king's side (`False` for a move that is not legal here).
    fn is_kingside_castling(&self, r#move: &Move) -> PyResult<bool> {
        self.legal_move_is(r#move, |_, m| {
            m.castling_side() == Some(CastlingSide::KingSide)
        })
    }

    /// Whether `move` castles on the queen's side (`False` for a move that is not legal here).
    fn is_queenside_castling(&self, r#move: &Move) -> PyResult<bool> {
        self.legal_move_is(r#move, |_, m| {
            m.castling_side() == Some(CastlingSide::QueenSide)
        })
    }

    /// Whether `move` moves a pawn or captures, and so resets the fifty-move count (`False`
    /// for a move that is not legal here).
    fn is_zeroing(&self, r#move: &Move) -> PyResult<bool> {
        self.legal_move_is(r#move, |pos, m| pos.is_zeroing(m))
    }

    /// Whether `move` gives check (`False` for a move that is not legal here).
    fn gives_check(&self, r#move: &Move) -> PyResult<bool> {
        self.legal_move_is(r#move, |pos, m| pos.gives_check(m))
    }

    /// The legal moves, one at a time (python-chess's generator); only those from a square of
    /// `from_mask` to a square of `to_mask` (bit masks, all squares by default; castling goes
    /// to its rook's square there, as in python-chess).
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_legal_moves<'py>(
        &self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(py, Generated::Legal, Kind::All, (from_mask, to_mask))
    }

    /// The legal moves that capture, one at a time (masks as `generate_legal_moves`).
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_legal_captures<'py>(
        &self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(py, Generated::Legal, Kind::Captures, (from_mask, to_mask))
    }

    /// The legal en passant captures (masks as `generate_legal_moves`).
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_legal_ep<'py>(
        &self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(py, Generated::Legal, Kind::EnPassant, (from_mask, to_mask))
    }

    /// The legal castling moves (masks as `generate_legal_moves`, where castling goes from
    /// the king's square to its rook's, as in python-chess).
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_castling_moves<'py>(
        &self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(py, Generated::Legal, Kind::Castling, (from_mask, to_mask))
    }

    /// The pseudo-legal moves, as python-chess has them (`pseudo_legal_moves`): every move by
    /// the way the men move, whether or not it leaves the mover's king in check; castling
    /// only where it is legal. With masks as `generate_legal_moves`.
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_pseudo_legal_moves<'py>(
        &self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(py, Generated::PseudoLegal, Kind::All, (from_mask, to_mask))
    }

    /// The pseudo-legal moves that capture (masks as `generate_legal_moves`).
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_pseudo_legal_captures<'py>(
        &self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(
            py,
            Generated::PseudoLegal,
            Kind::Captures,
            (from_mask, to_mask),
        )
    }

    /// The pseudo-legal en passant captures (masks as `generate_legal_moves`).
    #[pyo3(signature = (from_mask = u64::MAX, to_mask = u64::MAX))]
    fn generate_pseudo_legal_ep<'py>(
        &self,
        py: Python<'py>,
        from_mask: u64,
        to_mask: u64,
    ) -> PyResult<Bound<'py, PyIterator>> {
        self.generated(
            py,
            Generated::PseudoLegal,
            Kind::EnPassant,
            (from_mask, to_mask),
        )
    }

    /// The pseudo-legal moves (see `generate_pseudo_legal_moves`) as python-chess's
    /// `pseudo_legal_moves`: iterated, `len`, `in`, `bool`, `count()`, indexed.
    ///
    /// >>> board = caissa.Board("3rk3/8/8/8/8/8/3N4/3K4 w - - 0 1")
    /// >>> board.pseudo_legal_moves.count(), board.legal_moves.count()
    /// (10, 4)
    /// >>> board.is_pseudo_legal(caissa.Move.from_uci("d2b3")), board.is_into_check(caissa.Move.from_uci("d2b3"))
    /// (True, True)
    #[getter]
    fn pseudo_legal_moves(&self, py: Python<'_>) -> PyResult<Py<PseudoLegalMoves>> {
        let moves = self
            .pseudo_legal()?
            .into_iter()
            .map(|m| self.py_move(m))
            .collect();
        Py::new(
            py,
            PyClassInitializer::from(LegalMoves {
                moves,
                pos: *self.position()?,
            })
            .add_subclass(PseudoLegalMoves),
        )
    }

    /// Whether `move` is pseudo-legal here (see `pseudo_legal_moves`).
    fn is_pseudo_legal(&self, r#move: &Move) -> PyResult<bool> {
        // A legal castling move may be written either way (`e1g1`, `e1h1`), as `is_legal` reads it.
        Ok(self.is_legal(r#move)?
            || self
                .pseudo_legal()?
                .into_iter()
                .any(|m| self.py_move(m) == *r#move))
    }

    /// Whether the pseudo-legal `move` leaves the mover's king in check (`False` for a legal
    /// move and for a move that is not pseudo-legal).
    fn is_into_check(&self, r#move: &Move) -> PyResult<bool> {
        Ok(self.is_pseudo_legal(r#move)? && !self.is_legal(r#move)?)
    }

    /// Whether the side not to move is in check (python-chess's `was_into_check`): only ever
    /// on an unfinished board (see the class docs), where `status()` has
    /// `STATUS_OPPOSITE_CHECK`.
    fn was_into_check(&self) -> bool {
        let setup = self.setup();
        checkers(&Setup {
            turn: !setup.turn,
            ..setup
        })
        .any()
    }

    /// Whether a pawn of the side to move stands ready to take en passant, legally or not.
    fn has_pseudo_legal_en_passant(&self) -> bool {
        match &self.unfinished {
            Some(unfinished) => shown_setup(unfinished, EnPassantMode::PseudoLegal)
                .ep_square
                .is_some(),
            None => self.game.position().pseudo_legal_ep_square().is_some(),
        }
    }

    /// The legal move from `from_square` to `to_square`, as python-chess's `find_move`: a
    /// pawn reaching the last rank promotes to a queen unless `promotion` says otherwise, and
    /// a king's two-square step castles. Raises `IllegalMoveError` (a `ValueError`) when there
    /// is none.
    #[pyo3(signature = (from_square, to_square, promotion = None))]
    fn find_move(&self, from_square: u8, to_square: u8, promotion: Option<u8>) -> PyResult<Move> {
        let from = square_from_py(from_square)?;
        let to = square_from_py(to_square)?;
        let board = self.placement();
        let promotion = match promotion {
            Some(piece_type) => Some(role_from_py(piece_type)?),
            None if board.pawns().contains(from) && Bitboard::BACK_RANKS.contains(to) => {
                Some(Role::Queen)
            }
            None => None,
        };
        let wanted = Move {
            from,
            to,
            promotion,
        };
        let m = self.rust_move(&wanted)?;
        Ok(self.py_move(m))
    }

    /// The moves of `variation`, played one after another from this position, in SAN with move
    /// numbers (`1. e4 e5 2. Nf3`, `1... e5` when Black moves first). The board is unchanged.
    /// Raises `IllegalMoveError` (a `ValueError`) at the first move that is not legal.
    fn variation_san(&self, variation: Vec<PyRef<'_, Move>>) -> PyResult<String> {
        let mut pos = *self.position()?;
        let mut out = String::new();
        for (i, wanted) in variation.iter().enumerate() {
            let m = wanted.uci_move().to_move(&pos).map_err(|e| {
                errors::uci_error(
                    &Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
                    &e,
                )
            })?;
            if i > 0 {
                out.push(' ');
            }
            if pos.turn() == Color::White {
                out.push_str(&format!("{}. ", pos.fullmoves()));
            } else if i == 0 {
                // python-chess writes no space after the dots.
                out.push_str(&format!("{}...", pos.fullmoves()));
            }
            out.push_str(&SanPlus::from_move(&pos, m).to_string());
            pos.play_unchecked(m);
        }
        Ok(out)
    }

    /// The EPD of the position: the FEN's first four fields (`shredder` and `en_passant` as
    /// for `fen`), then `operations` as python-chess writes them (`board.epd(bm=move,
    /// id="x")`): `None` the opcode alone, a `Move` in SAN, an `int` or `float` as a number,
    /// `bm` and `am` lists of moves in SAN sorted, a `pv` list played one after the other, a
    /// `str` quoted (one with a line break or tab raises `ValueError`: an EPD line cannot
    /// hold it). `promoted` is python-chess's and ignored: caissa has no promoted pieces. An
    /// unfinished board (see the class docs) writes its setup and the operations, but a move
    /// raises `IllegalPositionError`.
    ///
    /// >>> board = caissa.Board()
    /// >>> board.epd(bm=caissa.Move.from_uci("e2e4"), id="start", acd=20)
    /// 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id "start"; acd 20;'
    #[pyo3(signature = (*, shredder = false, en_passant = "legal", promoted = None, **operations))]
    fn epd(
        &self,
        shredder: bool,
        en_passant: &str,
        promoted: Option<bool>,
        operations: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let fen = self.fen(shredder, en_passant, promoted)?;
        crate::epd::write(&fen, || self.position(), operations)
    }

    /// Sets the board to the position of the EPD line `epd`, with no moves played, and
    /// returns its operations as python-chess's `set_epd` does: a dict of each opcode and its
    /// operand (`None`, a `str`, an `int` or `float`, a `Move`, or a list of `Move`s for
    /// `bm`, `am` and `pv`); `hmvc` and `fmvn` set the counters. A setup that is no legal
    /// position makes an unfinished board (see the class docs), whose operations read unless
    /// one is a move. Raises `InvalidFenError` (with `byte`) for text that is not EPD,
    /// `IllegalPositionError` for a move operand on a setup that is no legal position (where
    /// python-chess reads moves that ignore its problems), or `ValueError` for a move operand
    /// that is not legal; the board is unchanged then.
    ///
    /// >>> board = caissa.Board()
    /// >>> ops = board.set_epd('4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id "pawn"; ce 120;')
    /// >>> [m.uci() for m in ops["bm"]], ops["id"], ops["ce"], board.fen()
    /// (['e2e4'], 'pawn', 120, '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1')
    fn set_epd<'py>(&mut self, py: Python<'py>, epd: &str) -> PyResult<Bound<'py, PyDict>> {
        let (board, operations) = Board::read_epd(py, epd, self.mode())?;
        *self = board;
        Ok(operations)
    }

    /// The board of the EPD line `epd` and its operations (python-chess's `Board.from_epd`;
    /// see `set_epd`).
    #[staticmethod]
    #[pyo3(signature = (epd, *, chess960 = false))]
    fn from_epd<'py>(
        py: Python<'py>,
        epd: &str,
        chess960: bool,
    ) -> PyResult<(Board, Bound<'py, PyDict>)> {
        let mode = if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        Board::read_epd(py, epd, mode)
    }

    /// Sets the board to the position of `fen`, with no moves played (as python-chess's
    /// `set_fen`): unfinished (see the class docs) if it is not a legal position. Raises
    /// `InvalidFenError` and leaves the board as it was for text that is not FEN.
    fn set_fen(&mut self, py: Python<'_>, fen: &str) -> PyResult<()> {
        *self = Board::from_fen(py, fen, self.chess960())?;
        Ok(())
    }

    /// Sets the board to the standard starting position, with no moves played (a Chess960
    /// board stays one).
    fn reset(&mut self, py: Python<'_>) -> PyResult<()> {
        *self = Board::from_fen(py, &starting_fen(), self.chess960())?;
        Ok(())
    }

    /// Sets the castling rights to those of the FEN castling field `castling_fen` (`KQkq`,
    /// X-FEN or Shredder-FEN letters, `-` for none), keeping the rest of the position and
    /// clearing the move stack (python-chess's `set_castling_fen`). Raises `InvalidFenError`
    /// for text that is not a castling field, the board unchanged; rights the position cannot
    /// have are kept for `status()` and ignored in play, as python-chess does (see the class
    /// docs).
    ///
    /// >>> board = caissa.Board()
    /// >>> board.set_castling_fen("Kq")
    /// >>> board.fen()
    /// 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kq - 0 1'
    fn set_castling_fen(&mut self, py: Python<'_>, castling_fen: &str) -> PyResult<()> {
        // An empty field takes every right away, as `-` does (python-chess's too).
        let castling_fen = if castling_fen.is_empty() {
            "-"
        } else {
            castling_fen
        };
        self.set_fen_fields(py, &[(2, castling_fen)])
    }

    /// Mirrors the board in place (see `mirror`), clearing the move stack.
    fn apply_mirror(&mut self) {
        *self = self.mirror();
    }

    /// The board with `f`, a function from a bitboard (an `int`) to a bitboard, applied to
    /// each kind of man, to the castling rooks' squares and to the en passant square, without
    /// its move stack (python-chess's `transform`): `board.transform(caissa.flip_vertical)`.
    /// Raises `ValueError` when `f` gives something else than a 64-bit mask or puts two men on
    /// one square; what is not a legal position makes an unfinished board (see the class
    /// docs). Castling rights whose king and rook no longer stand ready are dropped, as
    /// python-chess's FEN drops them.
    ///
    /// >>> caissa.Board().transform(caissa.flip_horizontal).board_fen()
    /// 'rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR'
    fn transform(&self, f: &Bound<'_, PyAny>) -> PyResult<Board> {
        let map = |bits: Bitboard| -> PyResult<Bitboard> {
            let image = f.call1((bits.0,))?;
            image.extract().map(Bitboard).map_err(|_| {
                PyValueError::new_err(format!("the transform gave {image}, not a 64-bit mask"))
            })
        };
        let mut setup = self.setup();
        let mut placement = caissa::Board::empty();
        for (color, role) in Color::ALL
            .into_iter()
            .flat_map(|c| Role::ALL.map(|r| (c, r)))
        {
            let piece = caissa::Piece { color, role };
            for sq in map(setup.board.by_piece(piece))? {
                if placement.piece_at(sq).is_some() {
                    return Err(PyValueError::new_err(format!(
                        "the transform puts two men on {sq}"
                    )));
                }
                placement.set_piece_at(sq, piece);
            }
        }
        let rooks = castling_rooks(&setup.castling_rights, None);
        let mut rights = caissa::CastlingRights::NONE;
        for rook in map(rooks)? {
            for color in Color::ALL {
                let back = caissa::Rank::back_rank(color);
                let king = placement.king_of(color).filter(|k| k.rank() == back);
                if rook.rank() == back
                    && let Some(king) = king
                    && let Some(side) = CastlingSide::from_files(king.file(), rook.file())
                {
                    rights.set(color, side, Some(rook.file()));
                }
            }
        }
        setup.board = placement;
        setup.castling_rights = rights;
        setup.ep_square = match setup.ep_square {
            Some(sq) => map(Bitboard::from_square(sq))?.last(),
            None => None,
        };
        Ok(Board::from_setup(setup, self.mode(), true))
    }

    /// Transforms the board in place (see `transform`), clearing the move stack.
    fn apply_transform(&mut self, f: &Bound<'_, PyAny>) -> PyResult<()> {
        *self = self.transform(f)?;
        Ok(())
    }

    /// Sets the board to the Chess960 starting position with Scharnagl number `scharnagl` (0
    /// to 959), a Chess960 board from then on, with no moves played (python-chess's
    /// `set_chess960_pos`). Raises `ValueError` for a larger number.
    fn set_chess960_pos(&mut self, scharnagl: &Bound<'_, PyAny>) -> PyResult<()> {
        *self = Board::from_chess960(scharnagl)?;
        Ok(())
    }

    /// `move` as XBoard writes it (python-chess's `xboard`): its UCI notation, but castling as
    /// `O-O` or `O-O-O` on a Chess960 board (or with `chess960=True`). Raises
    /// `IllegalMoveError` for a move that is not legal here.
    ///
    /// >>> board = caissa.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1", chess960=True)
    /// >>> board.xboard(caissa.Move.from_uci("e1h1")), board.xboard(caissa.Move.from_uci("e1e2"))
    /// ('O-O', 'e1e2')
    #[pyo3(signature = (r#move, chess960 = None))]
    fn xboard(&self, r#move: &Move, chess960: Option<bool>) -> PyResult<String> {
        if r#move.is_null() {
            return Ok(r#move.xboard());
        }
        let m = self.rust_move(r#move)?;
        let chess960 =
            chess960.unwrap_or(self.position()?.castling_mode() == CastlingMode::Chess960);
        Ok(match m.castling_side() {
            Some(side) if chess960 => side.san().to_owned(),
            // The move as given, as python-chess writes it (`e1h1` stays `e1h1`).
            _ => r#move.xboard(),
        })
    }

    /// Reads a move as XBoard sends it (SAN or coordinates, `O-O`), as `parse_san` does
    /// (python-chess's `parse_xboard`). Coordinates read castling either way, as `parse_uci`
    /// does: the king's two-square step (`e1g1`) is castling on a Chess960 board too, where
    /// python-chess takes only the king taking its rook.
    fn parse_xboard(&self, py: Python<'_>, xboard: &str) -> PyResult<Move> {
        self.parse_san(py, xboard)
    }

    /// Reads a move as XBoard sends it (see `parse_xboard`) and plays it.
    fn push_xboard(&mut self, py: Python<'_>, san: &str) -> PyResult<Move> {
        self.push_san(py, san)
    }

    /// `"chess"`: python-chess's variant name for UCI, standard chess (and Chess960).
    #[classattr]
    fn uci_variant() -> &'static str {
        "chess"
    }

    /// `"normal"`: python-chess's variant name for XBoard.
    #[classattr]
    fn xboard_variant() -> &'static str {
        "normal"
    }

    /// The names python-chess gives standard chess in PGN's `Variant` tag.
    #[classattr]
    fn aliases() -> [&'static str; 6] {
        [
            "Standard",
            "Chess",
            "Classical",
            "Normal",
            "Illegal",
            "From Position",
        ]
    }

    /// `True`: each side has one king (python-chess's variant flag).
    #[classattr]
    fn one_king() -> bool {
        true
    }

    /// `False`: kings may not stand next to each other (python-chess's variant flag).
    #[classattr]
    fn connected_kings() -> bool {
        false
    }

    /// `False`: captures are not compulsory (python-chess's variant flag).
    #[classattr]
    fn captures_compulsory() -> bool {
        false
    }

    /// Always `False`: standard chess has no variant win (python-chess's variant hook).
    fn is_variant_win(&self) -> bool {
        false
    }

    /// Always `False`: standard chess has no variant loss.
    fn is_variant_loss(&self) -> bool {
        false
    }

    /// Always `False`: standard chess has no variant draw.
    fn is_variant_draw(&self) -> bool {
        false
    }

    /// The board mirrored top to bottom with the colours exchanged and the other side to move,
    /// without its move stack (as python-chess's `mirror`); an unfinished board mirrors into
    /// one.
    fn mirror(&self) -> Board {
        Board::from_setup(self.setup().flip_colors(), self.mode(), false)
    }

    /// A board of the position the game started from, without the moves pushed since.
    fn root(&self) -> Board {
        match self.unfinished {
            Some(_) => self.clone(),
            None => Board::from_game(Game::new(*self.root_position())),
        }
    }

    /// Whether `move` can never be taken back in the sense of repetitions: it moves a pawn,
    /// captures, loses a castling right, or forgoes an en passant capture that is legal now
    /// (`False` for a move that is not legal here).
    fn is_irreversible(&self, r#move: &Move) -> PyResult<bool> {
        self.legal_move_is(r#move, |pos, m| {
            let mut next = *pos;
            next.play_unchecked(m);
            pos.is_zeroing(m)
                || next.castling_rights() != pos.castling_rights()
                || pos.legal_ep_square().is_some()
        })
    }

    /// Always `False`: caissa plays standard chess and Chess960, whose games end only by the
    /// Laws (see `outcome`).
    fn is_variant_end(&self) -> bool {
        false
    }

    /// The Scharnagl number (0 to 959) of the current position when it is a Chess960 starting
    /// position (White to move unless `ignore_turn`, every castling right unless
    /// `ignore_castling`, no en passant square, and unless `ignore_counters` the counters at
    /// their start), else `None`, as python-chess's.
    #[pyo3(signature = (*, ignore_turn = false, ignore_castling = false, ignore_counters = true))]
    fn chess960_pos(
        &self,
        ignore_turn: bool,
        ignore_castling: bool,
        ignore_counters: bool,
    ) -> Option<u32> {
        let setup = self.setup();
        let counters = ignore_counters || (setup.halfmoves == 0 && setup.fullmoves.get() == 1);
        if setup.ep_square.is_some() || !counters {
            return None;
        }
        (0..960).find(|&n| {
            Setup::chess960(n).is_some_and(|start| {
                start.board == setup.board
                    && (ignore_turn || start.turn == setup.turn)
                    && (ignore_castling || start.castling_rights == setup.castling_rights)
            })
        })
    }

    /// The board as eight lines of Unicode chess symbols, White at the bottom, as
    /// python-chess's `unicode` (`invert_color` swaps the symbols of the two colours;
    /// `empty_square` stands on the empty squares).
    #[pyo3(signature = (*, invert_color = false, borders = false, empty_square = "\u{2b58}", orientation = true))]
    fn unicode(
        &self,
        invert_color: bool,
        borders: bool,
        empty_square: &str,
        orientation: bool,
    ) -> String {
        let board = self.placement();
        let symbol = |sq: Square| {
            board.piece_at(sq).map_or_else(
                || empty_square.to_owned(),
                |piece| unicode_symbol(piece, invert_color).to_string(),
            )
        };
        if !borders && orientation {
            return grid(symbol);
        }
        // python-chess's layout: Black at the bottom for `orientation=False`, and with
        // `borders` a line between the ranks and the coordinates round the squares.
        let ranks: Vec<caissa::Rank> = if orientation {
            caissa::Rank::ALL.iter().rev().copied().collect()
        } else {
            caissa::Rank::ALL.to_vec()
        };
        let files: Vec<caissa::File> = if orientation {
            caissa::File::ALL.to_vec()
        } else {
            caissa::File::ALL.iter().rev().copied().collect()
        };
        let rule = format!("  {}\n", "-".repeat(17));
        let mut out = String::new();
        for (row, &rank) in ranks.iter().enumerate() {
            if borders {
                out.push_str(&rule);
                out.push(rank.char());
                out.push(' ');
            }
            for (i, &file) in files.iter().enumerate() {
                if borders {
                    out.push('|');
                } else if i > 0 {
                    out.push(' ');
                }
                out.push_str(&symbol(Square::from_coords(file, rank)));
            }
            if borders {
                out.push('|');
            }
            if borders || row < 7 {
                out.push('\n');
            }
        }
        if borders {
            out.push_str(&rule);
            let letters: Vec<String> = files.iter().map(|f| f.char().to_string()).collect();
            out.push_str(&format!("   {}", letters.join(" ")));
        }
        out
    }

    /// Puts `piece` on `square` (or empties it for `None`), as python-chess's `set_piece_at`.
    /// The move stack is cleared (the moves pushed before led to another position), and
    /// castling rights and an en passant square that no longer fit are dropped, as
    /// python-chess's FEN leaves them out (for good: python-chess gives a right back when a rook
    /// returns to its square). Pieces that make no legal position leave the board unfinished
    /// (see the class docs) until later changes make one.
    /// (`promoted` matters only to variants, as in `fen`.)
    #[pyo3(signature = (square, piece, promoted = false))]
    fn set_piece_at(
        &mut self,
        square: u8,
        piece: Option<PyRef<'_, Piece>>,
        promoted: bool,
    ) -> PyResult<()> {
        let _ = promoted;
        let sq = square_from_py(square)?;
        let piece = piece.map(|piece| piece.0);
        self.edit(|board| match piece {
            Some(piece) => board.set_piece_at(sq, piece),
            None => {
                board.remove_piece_at(sq);
            }
        });
        Ok(())
    }

    /// Takes the piece off `square` and returns it (`None` for an empty square); see
    /// `set_piece_at`.
    fn remove_piece_at(&mut self, square: u8) -> PyResult<Option<Piece>> {
        let sq = square_from_py(square)?;
        let removed = self.placement().piece_at(sq);
        self.edit(|board| {
            board.remove_piece_at(sq);
        });
        Ok(removed.map(Piece))
    }

    /// Sets the pieces to those of the placement part of a FEN; see `set_piece_at`. Raises
    /// `InvalidFenError` for text that is not a placement.
    fn set_board_fen(&mut self, py: Python<'_>, fen: &str) -> PyResult<()> {
        // The placement, read as the first field of a whole FEN: the errors' offsets are the
        // placement's own.
        let text = format!("{fen} w - - 0 1");
        let placement = Setup::from_ascii(text.as_bytes())
            .map_err(|e| errors::fen_error(py, &e))?
            .board;
        self.edit(|board| *board = placement);
        Ok(())
    }

    /// Sets the pieces to those of `pieces`, a dict from square to `Piece`; see
    /// `set_piece_at`.
    fn set_piece_map(
        &mut self,
        pieces: std::collections::HashMap<u8, PyRef<'_, Piece>>,
    ) -> PyResult<()> {
        let mut placement = caissa::Board::empty();
        for (square, piece) in pieces {
            placement.set_piece_at(square_from_py(square)?, piece.0);
        }
        self.edit(|board| *board = placement);
        Ok(())
    }

    /// Forgets the moves pushed, keeping the position (python-chess's `clear_stack`): it
    /// becomes the start of the game, so repetitions count from here. An unfinished board
    /// has no moves to forget.
    fn clear_stack(&mut self) {
        if self.unfinished.is_none() {
            *self = Board::from_game(Game::new(*self.game.position()));
        }
    }

    /// Sets the pieces to the standard starting placement, keeping the side to move (python-chess's
    /// `reset_board`); see `set_piece_at`.
    fn reset_board(&mut self) {
        self.edit(|board| *board = caissa::Board::standard());
    }

    /// The FEN with castling rights as rook files (`HAha`): `fen(shredder=True, ...)`.
    #[pyo3(signature = (*, en_passant = "legal", promoted = None))]
    fn shredder_fen(&self, en_passant: &str, promoted: Option<bool>) -> PyResult<String> {
        self.fen(true, en_passant, promoted)
    }

    /// Whether fifty moves by each side have passed without a capture or pawn move and the side
    /// to move has a move to make (python-chess's `is_fifty_moves`): the ground of a claim
    /// (9.3), which `can_claim_fifty_moves` checks with the written moves too.
    fn is_fifty_moves(&self) -> PyResult<bool> {
        let pos = self.position()?;
        Ok(pos.halfmoves() >= 100 && pos.has_legal_moves())
    }

    /// Whether `status()` finds nothing wrong: python-chess's `is_valid`.
    fn is_valid(&self) -> bool {
        self.status_flags() == 0 && self.unfinished.is_none()
    }

    /// What is wrong with the board, as a `caissa.Status` (python-chess's `chess.Status`, its
    /// `STATUS_*` flags; `Status.VALID`, 0, for nothing): on any board more than eight pawns or
    /// sixteen pieces of a colour (which caissa plays on), and the problems of an unfinished
    /// board (see the class docs), each flag as python-chess defines it but
    /// `IMPOSSIBLE_CHECK`, which is caissa's: checks that no legal move gives, such as two
    /// knights' (python-chess flags two sliders on one line only), judged where each side has
    /// one king. Castling rights and en passant squares that do not fit are dropped when pieces
    /// change, so they are flagged only when set so (`castling_rights`, `ep_square`, a FEN).
    fn status<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("caissa")?
            .getattr("Status")?
            .call1((self.status_flags(),))
    }

    /// The legal moves of the current position, as python-chess's `LegalMoveGenerator` is used:
    /// iterated, `len`, `in`, `bool`, `count()`, and indexed (`list(board.legal_moves)` for a
    /// list).
    #[getter]
    fn legal_moves(&self) -> PyResult<LegalMoves> {
        let pos = self.position()?;
        Ok(LegalMoves {
            moves: pos
                .legal_moves()
                .into_iter()
                .map(|m| self.py_move(m))
                .collect(),
            pos: *pos,
        })
    }

    /// Whether `move` is legal in the current position.
    fn is_legal(&self, r#move: &Move) -> PyResult<bool> {
        Ok(r#move.uci_move().to_move(self.position()?).is_ok())
    }

    /// Plays `move`. Raises `IllegalMoveError` (a `ValueError`) if it is not legal here:
    /// unlike python-chess, which leaves that check to the caller, caissa checks every move.
    /// `Move.null()` passes the turn where the side to move is not in check (in check,
    /// python-chess plays it and leaves an illegal board); repetitions (the fivefold ending
    /// and the threefold claim too) count across null moves, as python-chess counts them.
    fn push(&mut self, r#move: &Move) -> PyResult<()> {
        if r#move.is_null() {
            return self.play_null().map(drop);
        }
        let m = self.rust_move(r#move)?;
        self.play(m);
        Ok(())
    }

    /// Reads a move in UCI notation, plays it and returns it.
    ///
    /// Raises `InvalidMoveError` (with `byte`) when the text is not UCI, `IllegalMoveError`
    /// when no legal move matches.
    fn push_uci(&mut self, py: Python<'_>, uci: &str) -> PyResult<Move> {
        let m = Move::from_uci(py, uci)?;
        if m.is_null() {
            return self.play_null();
        }
        let m = self.rust_move(&m)?;
        Ok(self.play(m))
    }

    /// Reads a move in UCI notation and returns the legal move it stands for.
    fn parse_uci(&self, py: Python<'_>, uci: &str) -> PyResult<Move> {
        let m = Move::from_uci(py, uci)?;
        if m.is_null() {
            return Ok(m);
        }
        let legal = self.rust_move(&m)?;
        Ok(self.py_move(legal))
    }

    /// Reads a move in SAN (leniently, as python-chess does: `Nbd7` for `Nd7`, `0-0`, a wrong
    /// or missing `+`; and more leniently in places: a pawn's `P`, a move's `!?` glyph, or the
    /// king's step onto its castling square read as castling are taken, where python-chess
    /// raises), plays it and returns it.
    ///
    /// Raises `InvalidMoveError` (with `byte`) when the text is not SAN, `IllegalMoveError`
    /// when no legal move matches, `AmbiguousMoveError` (with `candidates`) when several do.
    ///
    /// >>> board = caissa.Board()
    /// >>> board.push_san("Nf3")
    /// Move.from_uci('g1f3')
    fn push_san(&mut self, py: Python<'_>, san: &str) -> PyResult<Move> {
        if NULL_SANS.contains(&san) {
            return self.play_null();
        }
        let m = self.parse_san_move(py, san)?;
        Ok(self.play(m))
    }

    /// Reads a move in SAN and returns the legal move it stands for (see `push_san`); `--`,
    /// `Z0`, `0000` and `@@@@` are the null move.
    fn parse_san(&self, py: Python<'_>, san: &str) -> PyResult<Move> {
        if NULL_SANS.contains(&san) {
            return Ok(Move::NULL);
        }
        Ok(self.py_move(self.parse_san_move(py, san)?))
    }

    /// The SAN of `move`, with `+` or `#` (`--` for the null move). Raises `IllegalMoveError`
    /// if it is not legal here.
    ///
    /// >>> caissa.Board().san(caissa.Move.from_uci("g1f3"))
    /// 'Nf3'
    fn san(&self, r#move: &Move) -> PyResult<String> {
        if r#move.is_null() {
            return Ok(NULL_SANS[0].to_owned());
        }
        let m = self.rust_move(r#move)?;
        Ok(SanPlus::from_move(self.position()?, m).to_string())
    }

    /// The SAN of `move` (see `san`), then plays it.
    fn san_and_push(&mut self, r#move: &Move) -> PyResult<String> {
        let san = self.san(r#move)?;
        self.push(r#move)?;
        Ok(san)
    }

    /// The SAN of `move` without its check suffix.
    fn lan_free_san(&self, r#move: &Move) -> PyResult<String> {
        if r#move.is_null() {
            return Ok(NULL_SANS[0].to_owned());
        }
        let m = self.rust_move(r#move)?;
        Ok(San::from_move(self.position()?, m).to_string())
    }

    /// `move` in long algebraic notation, as python-chess writes it: `Ng1-f3`, `e4xd5`,
    /// `e7-e8=Q+`, `O-O`, `--`.
    fn lan(&self, r#move: &Move) -> PyResult<String> {
        if r#move.is_null() {
            return Ok(NULL_SANS[0].to_owned());
        }
        let m = self.rust_move(r#move)?;
        let pos = self.position()?;
        let mut after = *pos;
        after.play_unchecked(m);
        let mut out = String::new();
        append_lan(&mut out, pos, m, Suffix::from_position(&after));
        Ok(out)
    }

    /// The UCI notation of `move` in this position's castling convention (`0000` for the null
    /// move).
    #[pyo3(signature = (r#move, *, chess960 = None))]
    fn uci(&self, r#move: &Move, chess960: Option<bool>) -> PyResult<String> {
        if r#move.is_null() {
            return Ok(r#move.uci());
        }
        let m = self.rust_move(r#move)?;
        let mode = match chess960 {
            None => self.position()?.castling_mode(),
            Some(true) => CastlingMode::Chess960,
            Some(false) => CastlingMode::Standard,
        };
        Ok(UciMove::from_move_in_mode(m, mode).to_string())
    }

    /// Takes back the last move and returns it; raises `IndexError` when no move was pushed.
    fn pop(&mut self) -> PyResult<Move> {
        let last = self.peek()?;
        if self.game.undo().is_none() {
            self.game = self.before_null.pop().expect("a null move to take back");
        }
        Ok(last)
    }

    /// The last move pushed; raises `IndexError` when there is none.
    fn peek(&self) -> PyResult<Move> {
        let game = &self.game;
        match (game.last_move(), game.ply().checked_sub(1)) {
            (Some(m), Some(ply)) => Ok(Move::of(
                game.position_at(ply).expect("a position for each ply"),
                m,
            )),
            _ if !self.before_null.is_empty() => Ok(Move::NULL),
            _ => Err(PyIndexError::new_err("no move was pushed")),
        }
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> PyResult<bool> {
        Ok(self.position()?.is_check())
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> PyResult<bool> {
        Ok(self.position()?.is_checkmate())
    }

    /// Whether the side to move is stalemated.
    fn is_stalemate(&self) -> PyResult<bool> {
        Ok(self.position()?.is_stalemate())
    }

    /// Whether neither side has the material to checkmate, as python-chess counts it: a lone
    /// king, a king and a knight (against a king and queens at most), or kings and bishops all
    /// on one square colour.
    ///
    /// Blocked positions with mating material can be dead too: `is_dead_position` proves
    /// those, and `outcome()` ends the game on them.
    fn is_insufficient_material(&self) -> bool {
        let board = self.placement();
        Color::ALL
            .into_iter()
            .all(|color| dead::lacks_mating_material(board, color))
    }

    /// Whether `color` lacks the material to checkmate (see `is_insufficient_material`).
    fn has_insufficient_material(&self, color: bool) -> bool {
        dead::lacks_mating_material(self.placement(), color_from_py(color))
    }

    /// Whether the position is dead (FIDE 5.2.2): neither player can checkmate by any series
    /// of legal moves, as caissa's analysis proves, blocked pawn walls included. Not in
    /// python-chess. An analysis that cannot decide answers `False`.
    fn is_dead_position(&self) -> PyResult<bool> {
        Ok(dead::is_dead(self.position()?))
    }

    /// Whether `color` can still checkmate by some series of legal moves (caissa's analysis;
    /// `True` when it cannot decide).
    fn can_win(&self, color: bool) -> PyResult<bool> {
        Ok(dead::can_win(self.position()?, color_from_py(color)) != Winnability::Unwinnable)
    }

    /// Whether the position has stood five times (9.6.1: the game is drawn).
    fn is_fivefold_repetition(&self) -> PyResult<bool> {
        Ok(self.repetitions()? >= 5)
    }

    /// Whether seventy-five moves by each side passed without a capture or pawn move
    /// (9.6.2), unless the last of them mated.
    fn is_seventyfive_moves(&self) -> PyResult<bool> {
        Ok(self.position()?.halfmoves() >= 150 && !self.position()?.is_checkmate())
    }

    /// Whether the current position has stood at least `count` times.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: usize) -> PyResult<bool> {
        Ok(self.repetitions()? >= count)
    }

    /// How the game has ended, or `None`: checkmate, stalemate, a dead position,
    /// seventy-five moves, fivefold repetition; with `claim_draw=True` also a draw the player
    /// to move may claim (threefold repetition, fifty moves).
    #[pyo3(signature = (*, claim_draw = false))]
    fn outcome(&self, claim_draw: bool) -> PyResult<Option<Outcome>> {
        Ok(self.find_outcome(claim_draw)?.map(Outcome))
    }

    /// Whether the game has ended (see `outcome`).
    #[pyo3(signature = (*, claim_draw = false))]
    fn is_game_over(&self, claim_draw: bool) -> PyResult<bool> {
        Ok(self.find_outcome(claim_draw)?.is_some())
    }

    /// The result as PGN writes it, `'*'` while the game goes on (see `outcome`).
    #[pyo3(signature = (*, claim_draw = false))]
    fn result(&self, claim_draw: bool) -> PyResult<&'static str> {
        Ok(self
            .find_outcome(claim_draw)?
            .map_or("*", |outcome| outcome.result.as_str()))
    }

    /// Whether the player to move may claim a draw by threefold repetition (9.2): the
    /// position stands for the third time, or would after one of the legal moves.
    ///
    /// Once the game has ended (a dead position, fivefold repetition, ...) there is nothing to
    /// claim, so this is `False` where python-chess may say `True`.
    fn can_claim_threefold_repetition(&self) -> PyResult<bool> {
        let game = self.game()?;
        Ok(!self.fivefold_across_nulls(game)
            && (Board::all_claims(game)
                .iter()
                .any(|c| c.threefold.is_some())
                || self.threefold_across_nulls(game).is_some()))
    }

    /// Whether the player to move may claim a draw by the fifty-move rule (9.3): fifty moves
    /// by each side without a capture or pawn move, or one legal move from it.
    ///
    /// Following the Laws, a written move that would checkmate still supports the claim
    /// (python-chess refuses it); once the game has ended there is nothing to claim.
    fn can_claim_fifty_moves(&self) -> PyResult<bool> {
        let game = self.game()?;
        Ok(!self.fivefold_across_nulls(game)
            && Board::all_claims(game)
                .iter()
                .any(|c| c.fifty_moves.is_some()))
    }

    /// Whether the player to move may claim a draw (threefold repetition or fifty moves).
    fn can_claim_draw(&self) -> PyResult<bool> {
        Ok(self.claimable_draw(self.game()?).is_some())
    }

    /// caissa's Zobrist key of the position in FIDE's "same position" sense (the en passant
    /// file counts only when the capture is legal). Not the Polyglot key.
    fn zobrist_hash(&self) -> PyResult<u64> {
        Ok(self.position()?.zobrist_hash())
    }

    /// The key of the position in Polyglot opening books: python-chess's
    /// `chess.polyglot.zobrist_hash(board)`. The en passant file counts when a pawn of the side
    /// to move stands beside the pawn that just moved two squares, legal capture or not, as the
    /// book format says.
    ///
    /// >>> hex(caissa.Board().polyglot_key())
    /// '0x463b96181691fc9c'
    fn polyglot_key(&self) -> PyResult<u64> {
        Ok(self.position()?.polyglot_key())
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep (the GIL is released
    /// while counting).
    ///
    /// >>> caissa.Board().perft(3)
    /// 8902
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        let pos = *self.position()?;
        Ok(py.detach(move || caissa::perft(&pos, depth)))
    }

    /// A copy of the board: with its whole move stack (`stack=True`), none (`False`: the
    /// current position becomes the start), or its last `stack` moves (an `int`), as
    /// python-chess's `copy(stack=...)`. Repetitions count only in the moves kept.
    #[pyo3(signature = (*, stack = Some(StackCopy::All(true))))]
    fn copy(&self, stack: Option<StackCopy>) -> Board {
        if self.unfinished.is_some() {
            // No moves to copy.
            return self.clone();
        }
        // The moves pushed, null moves as `None`, each with the position before it.
        let mut pushed: Vec<(&Position, Option<caissa::Move>)> = Vec::new();
        for (i, game) in self.games().enumerate() {
            if i > 0 {
                let passed = self.before_null[i - 1].position();
                pushed.push((passed, None));
            }
            pushed.extend(game.positions().zip(game.moves().iter().map(|&m| Some(m))));
        }
        let kept = match stack.unwrap_or(StackCopy::All(false)) {
            StackCopy::All(true) => return self.clone(),
            StackCopy::All(false) => 0,
            StackCopy::Last(n) => match usize::try_from(n) {
                Ok(n) => n.min(pushed.len()),
                Err(_) => pushed.len().saturating_sub(n.unsigned_abs() as usize),
            },
        };
        let first = pushed.len() - kept;
        let start = pushed
            .get(first)
            .map_or(*self.game.position(), |&(pos, _)| *pos);
        let mut board = Board::from_game(Game::new(start));
        for &(_, m) in &pushed[first..] {
            match m {
                Some(m) => {
                    board.play(m);
                }
                None => {
                    board.play_null().expect("a null move pushed before");
                }
            }
        }
        board
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// Pickled as the start position (a FEN), whether it is Chess960, and the moves pushed in
    /// UCI (null moves too), which `__setstate__` plays again.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyAny>, (), BoardState) {
        let board = slf.borrow();
        // Every en passant square, as python-chess keeps a pseudo-legal one.
        let root = match &board.unfinished {
            Some(unfinished) => Fen(unfinished.setup).shredder().to_string(),
            None => Fen::from_position(board.root_position(), EnPassantMode::Always)
                .shredder()
                .to_string(),
        };
        let moves = board.move_stack().iter().map(Move::uci).collect();
        (
            slf.get_type().into_any(),
            (),
            (root, board.chess960(), moves),
        )
    }

    /// The board of a pickled state (see `__reduce__`).
    fn __setstate__(&mut self, py: Python<'_>, state: BoardState) -> PyResult<()> {
        let (root, chess960, moves) = state;
        let mut board = Board::from_fen(py, &root, chess960)?;
        for uci in moves {
            board.push_uci(py, &uci)?;
        }
        *self = board;
        Ok(())
    }

    fn __eq__(&self, other: &Board) -> bool {
        self.compared() == other.compared()
    }

    fn __repr__(&self) -> String {
        if self.chess960() {
            format!("Board('{}', chess960=True)", self.current_fen())
        } else {
            format!("Board('{}')", self.current_fen())
        }
    }

    /// The board as an SVG image (`caissa.svg.board`), which Jupyter shows.
    fn _repr_svg_(slf: Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        py.import("caissa.svg")?
            .getattr("board")?
            .call1((slf,))?
            .extract()
    }

    /// The board as eight lines of piece letters, `.` for an empty square, White at the bottom.
    fn __str__(&self) -> String {
        let board = self.placement();
        grid(|sq| board.piece_at(sq).map_or('.', |p| p.char()).to_string())
    }
}

/// The squares of the rooks that may still castle, of `color` or of both colours.
fn castling_rooks(rights: &caissa::CastlingRights, color: Option<Color>) -> Bitboard {
    rights
        .iter()
        .filter(|&(c, _, _)| color.is_none_or(|color| color == c))
        .fold(Bitboard::EMPTY, |rooks, (c, _, file)| {
            rooks.with(Square::from_coords(
                file,
                caissa::Rank::First.relative_to(c),
            ))
        })
}

/// The setup of an unfinished board as its FEN shows it, as python-chess's does: the castling
/// rights whose king and rook are in place; the en passant square as set for `'fen'`, else
/// only where it is empty, on the rank a double push of the other side passes over, and a
/// pawn of the side to move stands ready to take there (for `'legal'` without leaving its
/// king in check), whether or not a pawn stands where the double push would have ended.
fn shown_setup(unfinished: &Unfinished, mode: EnPassantMode) -> Setup {
    let mut shown = unfinished.setup;
    Dropped::drop_from(&mut shown, unfinished.mode);
    let passed = caissa::Rank::Sixth.relative_to(shown.turn);
    shown.ep_square = match mode {
        EnPassantMode::Always => unfinished.setup.ep_square,
        _ => unfinished.setup.ep_square.filter(|&ep| {
            ep.rank() == passed
                && !shown.board.occupied().contains(ep)
                && ep_takers(&shown, ep, mode == EnPassantMode::Legal).any()
        }),
    };
    shown
}

/// The pawns of the side to move in `setup` that can take en passant on `ep`, a square a
/// double push passed over; with `legal`, only those whose capture leaves their king (of
/// several, the one on the highest square, as python-chess takes it) out of check.
fn ep_takers(setup: &Setup, ep: Square, legal: bool) -> Bitboard {
    let board = &setup.board;
    let us = setup.turn;
    let ready = attacks::pawn(!us, ep) & board.pawns() & board.by_color(us);
    let king = (board.kings() & board.by_color(us)).last();
    let (true, Some(king), Some(taken)) = (legal, king, ep.offset(0, us.fold(-1, 1))) else {
        return ready;
    };
    ready
        .into_iter()
        .filter(|&from| {
            let mut after = *board;
            after.remove_piece_at(from);
            after.remove_piece_at(taken);
            after.set_piece_at(ep, Role::Pawn.of(us));
            attacks::attackers(&after, king, !us, after.occupied()).is_empty()
        })
        .fold(Bitboard::EMPTY, Bitboard::with)
}

/// The men of the side not to move that attack the king of the side to move in `setup` (none
/// without a king; of several, the one on the highest square, which python-chess's `status()`
/// takes for the king).
fn checkers(setup: &Setup) -> Bitboard {
    let board = &setup.board;
    let Some(king) = (board.kings() & board.by_color(setup.turn)).last() else {
        return Bitboard::EMPTY;
    };
    attacks::attackers(board, king, !setup.turn, board.occupied())
}

/// Which moves a generator of `Board` goes through.
#[derive(Clone, Copy)]
enum Generated {
    Legal,
    PseudoLegal,
}

/// Which of them it gives.
#[derive(Clone, Copy)]
enum Kind {
    All,
    Captures,
    EnPassant,
    Castling,
}

/// Reads the castling field of `text` (a FEN or EPD line, already read into `setup`) as
/// python-chess does where the two differ: a `Q` or `q` whose side has a king but no rook on
/// its back rank gives no right in python-chess, where caissa's FEN gives the a-file
/// corner's (as python-chess does for `K` and `k`), so that right is taken away again. Such
/// a board, a stale letter left in a FEN, is then as valid as python-chess's.
fn read_queenside_as_python_chess(setup: &mut Setup, text: &str) {
    let Some(field) = text.split_ascii_whitespace().nth(2) else {
        return;
    };
    for (color, queenside) in [(Color::White, 'Q'), (Color::Black, 'q')] {
        let board = &setup.board;
        let ours = board.by_color(color);
        let rookless = (board.rooks() & ours & Bitboard::back_rank(color)).is_empty();
        if field.contains(queenside)
            && (board.kings() & ours).any()
            && rookless
            && setup.castling_rights.rook(color, CastlingSide::QueenSide) == Some(caissa::File::A)
        {
            setup
                .castling_rights
                .set(color, CastlingSide::QueenSide, None);
        }
    }
}

/// python-chess's `en_passant` argument: `'legal'`, `'xfen'` or `'fen'`.
fn en_passant_mode(en_passant: &str) -> PyResult<EnPassantMode> {
    match en_passant {
        "legal" => Ok(EnPassantMode::Legal),
        "xfen" => Ok(EnPassantMode::PseudoLegal),
        "fen" => Ok(EnPassantMode::Always),
        other => Err(PyValueError::new_err(format!(
            "en_passant is 'legal', 'xfen' or 'fen', not {other:?}"
        ))),
    }
}

/// Field `index` (from 0) of a FEN.
fn fen_field(fen: &str, index: usize) -> String {
    fen.split(' ').nth(index).unwrap_or("-").to_owned()
}

/// What `Board.copy` keeps of the move stack: all or none (`bool`), or the last moves (`int`).
#[derive(FromPyObject)]
enum StackCopy {
    All(bool),
    /// A negative number keeps all but that many of the first moves, as python-chess's
    /// slice `[-stack:]` does.
    Last(i64),
}

/// The legal moves of a position (`Board.legal_moves`), as python-chess's
/// `LegalMoveGenerator` is used.
///
/// >>> moves = caissa.Board().legal_moves
/// >>> len(moves), moves.count(), caissa.Move.from_uci("e2e4") in moves, bool(moves)
/// (20, 20, True, True)
#[pyclass(module = "caissa", frozen, sequence, subclass)]
pub(crate) struct LegalMoves {
    moves: Vec<Move>,
    /// The position, for `in`: a castling move may be written as the king's two-square step or
    /// as the king taking its rook (`e1g1`, `e1h1`), as for `Board.is_legal`.
    pos: Position,
}

/// The pseudo-legal moves of a position (`Board.pseudo_legal_moves`), as python-chess's
/// `PseudoLegalMoveGenerator` is used; the same methods as `LegalMoves`.
#[pyclass(module = "caissa", frozen, extends = LegalMoves)]
pub(crate) struct PseudoLegalMoves;

#[pymethods]
impl LegalMoves {
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.moves.iter().copied())?.try_iter()
    }

    fn __len__(&self) -> usize {
        self.moves.len()
    }

    /// The number of legal moves (python-chess's `count()`).
    fn count(&self) -> usize {
        self.moves.len()
    }

    fn __bool__(&self) -> bool {
        !self.moves.is_empty()
    }

    fn __contains__(&self, r#move: &Bound<'_, PyAny>) -> bool {
        r#move.cast::<Move>().is_ok_and(|m| {
            let m = m.get();
            self.moves.contains(m) || m.uci_move().to_move(&self.pos).is_ok()
        })
    }

    fn __getitem__(&self, index: isize) -> PyResult<Move> {
        py_index(index, self.moves.len())
            .map(|i| self.moves[i])
            .ok_or_else(|| PyIndexError::new_err("legal move index out of range"))
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let moves: Vec<String> = slf
            .get()
            .moves
            .iter()
            .map(|m| m.uci_move().to_string())
            .collect();
        Ok(format!(
            "<{} ({})>",
            slf.get_type().name()?,
            moves.join(", ")
        ))
    }
}

/// Adds the classes, `STARTING_FEN` and `STARTING_BOARD_FEN` to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Board>()?;
    m.add_class::<LegalMoves>()?;
    m.add_class::<PseudoLegalMoves>()?;
    m.add_class::<Outcome>()?;
    m.add("STARTING_FEN", starting_fen())?;
    m.add(
        "STARTING_BOARD_FEN",
        Position::standard().board().to_string(),
    )?;
    Ok(())
}
