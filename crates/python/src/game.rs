//! `caissa.pgn.Game` and its nodes: a game as python-chess's tree of `GameNode`s, over
//! caissa-notation's `GameTree`.
//!
//! A [`Game`] and every [`ChildNode`] of it share one [`GameData`]: the tree (tags, moves as
//! SAN with their comments and glyphs, variations), the start position and the move each node
//! stands for, resolved once (when the game is read, or when a move is added). A node is the
//! shared data and a node id; Python objects for nodes are made when asked for, and two of
//! them for the same move of the same game are equal. Moves added from Python are checked
//! against their position (python-chess takes any move there).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use caissa::notation::fen::{EnPassantMode, Fen};
use caissa::notation::pgn::commands::{
    Command, Eval as RustEval, Score, ShapeColor, replace_command,
};
use caissa::notation::pgn::{
    EXPORT_WIDTH, GameTree, Layout, Nag, Node, NodeId, SEVEN_TAG_ROSTER, Tags, TerminationMarker,
    TreeReplayError, normalize_comment,
};
use caissa::notation::san::{San, SanPlus};
use caissa::{CastlingMode, Game as RustGame, Position};
use pyo3::exceptions::{PyIndexError, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PySet};

use crate::board::Board;
use crate::errors;
use crate::pgn::{Eval, clock_of, commands_of, commands_of_text, comment_of, emt_of, eval_of};
use crate::types::{Move, Reduced, square_from_py};

/// What a game and its nodes share.
#[derive(Debug)]
pub(crate) struct GameData {
    pub(crate) tree: GameTree,
    pub(crate) start: Position,
    /// The move of each node, by [`NodeId::index`] (`None` for a null move, `--`).
    moves: Vec<Option<caissa::Move>>,
    /// The last move added and the position after it: a game built move by move adds each
    /// after the last, which then needs no replay from the start.
    last_added: Option<(NodeId, Position)>,
}

impl GameData {
    /// A game read from PGN (or made from a board): its start from the tags, every line replayed.
    pub(crate) fn replayed(tree: GameTree) -> Result<GameData, TreeReplayError> {
        let start = tree.start_position()?;
        let moves = tree.replay_all(start)?;
        Ok(GameData {
            tree,
            start,
            moves,
            last_added: None,
        })
    }

    /// The ids of the moves from the first to `id`.
    fn path(&self, id: Option<NodeId>) -> Vec<NodeId> {
        let mut path: Vec<NodeId> =
            std::iter::successors(id, |&n| self.tree.node(n).parent()).collect();
        path.reverse();
        path
    }

    /// The position after `id` (the start for `None`).
    fn position_at(&self, id: Option<NodeId>) -> Position {
        if let Some((last, pos)) = self.last_added
            && Some(last) == id
        {
            return pos;
        }
        self.path(id)
            .into_iter()
            .fold(self.start, |pos, n| match self.moves[n.index()] {
                Some(m) => {
                    let mut next = pos;
                    next.play_unchecked(m);
                    next
                }
                // A null move was replayed, so it passes.
                None => pos.pass().unwrap_or(pos),
            })
    }

    /// A board after `id`, with the moves up to it pushed (null moves too).
    fn board_at(&self, id: Option<NodeId>) -> PyResult<Board> {
        let mut board = Board::from_game(RustGame::new(self.start));
        for n in self.path(id) {
            match self.moves[n.index()] {
                Some(m) => {
                    board.play(m);
                }
                None => {
                    board.play_null()?;
                }
            }
        }
        Ok(board)
    }

    /// The ids of the main line from the first move.
    pub(crate) fn main_ids(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.line_after(None)
    }

    /// The ids of the main continuation after `id`.
    fn line_after(&self, id: Option<NodeId>) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.tree.children(id).first().copied(), |&n| {
            self.tree.node(n).children().first().copied()
        })
    }

    /// The move `first` and the moves after it (the variations that follow it too with
    /// `variations`, never those beside it) as python-chess's exporters write them on one
    /// line: numbered from the position before `first`, without a result.
    fn line_text(&self, first: NodeId, variations: bool) -> String {
        let mut line = GameTree::new();
        line.tags
            .set_start(&self.position_at(self.tree.node(first).parent()));
        self.copy_moves(&mut line, first, variations);
        let text = python_chess_movetext(&mut line, Layout::Compact, TerminationMarker::Unknown);
        let text = text.trim_end();
        text.strip_suffix('*').unwrap_or(text).trim_end().to_owned()
    }

    /// Copies the move `first` and the moves after it (the variations that follow it too with
    /// `variations`) into `into`, as a line from its start, with their comments and glyphs.
    fn copy_moves(&self, into: &mut GameTree, first: NodeId, variations: bool) {
        let mut stack = vec![(first, None)];
        while let Some((from, parent)) = stack.pop() {
            let node = self.tree.node(from);
            let copy = into.add_move(parent, node.san);
            let copied = into.node_mut(copy);
            copied.nags = node.nags.clone();
            copied.comments = node.comments.clone();
            copied.comments_before = node.comments_before.clone();
            let next = if variations {
                node.children()
            } else {
                &node.children()[..node.children().len().min(1)]
            };
            stack.extend(next.iter().rev().map(|&c| (c, Some(copy))));
        }
    }

    /// The game as if it started after `id` (python-chess's `accept_subgame`): the game's
    /// tags but the start tags, then the start tags of the position after `id` as
    /// python-chess's `Game.setup` gives them (`FEN` and `SetUp` unless it is the standard
    /// start, counters included; `Variant` for Chess960), and the moves after `id`.
    fn subgame(&self, id: Option<NodeId>) -> GameTree {
        let mut sub = GameTree::new();
        sub.tags = self.subgame_tags(id);
        for &child in self.tree.children(id) {
            self.copy_moves(&mut sub, child, true);
        }
        sub
    }

    /// The tags of [`GameData::subgame`].
    fn subgame_tags(&self, id: Option<NodeId>) -> Tags {
        let start = self.position_at(id);
        let fen = Fen::from_position(&start, EnPassantMode::Legal).to_string();
        let mut start_tags = Vec::new();
        if fen != crate::board::starting_fen() {
            start_tags.extend([("FEN", fen.as_str()), ("SetUp", "1")]);
        }
        if start.castling_mode() == CastlingMode::Chess960 {
            start_tags.push(("Variant", "Chess960"));
        }
        let mut tags = Tags::new();
        for (name, value) in roster_first(&self.tree.tags) {
            if !start_tags.iter().any(|&(n, _)| n == name) {
                tags.push(name, value);
            }
        }
        for (name, value) in start_tags {
            tags.push(name, value);
        }
        tags
    }

    /// The Python move of node `id` (`Move.null()` for a null move).
    pub(crate) fn py_move(&self, id: NodeId) -> Move {
        self.moves[id.index()].map_or(Move::NULL, |m| Move::of(&self.start, m))
    }

    /// The half-moves before the start, as python-chess counts them from the FEN's move number.
    fn start_ply(&self) -> usize {
        let black = usize::from(self.start.turn() == caissa::Color::Black);
        2 * (self.start.fullmoves().max(1) as usize - 1) + black
    }

    /// Adds the legal move `m` of the position after `parent` as its last continuation (or
    /// the null move `--`, where the side to move is not in check).
    fn add(&mut self, parent: Option<NodeId>, m: &Move) -> PyResult<NodeId> {
        let pos = self.position_at(parent);
        if m.is_null() {
            let passed = crate::board::pass(&pos)?;
            let null = SanPlus {
                san: San::Null,
                suffix: None,
            };
            let id = self.tree.add_move(parent, null);
            self.moves.push(None);
            self.last_added = Some((id, passed));
            return Ok(id);
        }
        let legal = legal_move(&pos, m)?;
        Ok(self.add_legal(parent, &pos, legal))
    }

    /// Adds `legal`, a legal move of `pos` (the position after `parent`), as `parent`'s last
    /// continuation.
    fn add_legal(&mut self, parent: Option<NodeId>, pos: &Position, legal: caissa::Move) -> NodeId {
        let id = self.tree.add_move(parent, SanPlus::from_move(pos, legal));
        self.moves.push(Some(legal));
        let mut after = *pos;
        after.play_unchecked(legal);
        self.last_added = Some((id, after));
        id
    }

    /// The start from the tags after a change to them, which must give a position, and the one
    /// the moves were played from if there are any.
    fn restart(&mut self) -> Result<(), String> {
        let start = self.tree.start_position().map_err(|e| e.to_string())?;
        // Moves taken out of the game count too: their nodes may still be asked for boards.
        if !self.moves.is_empty() && start != self.start {
            return Err("the game has moves: its start position cannot change".to_owned());
        }
        self.start = start;
        Ok(())
    }
}

/// The legal move of `pos` that `m` stands for; `IllegalMoveError` if none.
fn legal_move(pos: &Position, m: &Move) -> PyResult<caissa::Move> {
    m.uci_move().to_move(pos).map_err(|e| {
        errors::uci_error(
            &Fen::from_position(pos, EnPassantMode::Legal).to_string(),
            &e,
        )
    })
}

type Shared = Arc<Mutex<GameData>>;

fn lock(data: &Shared) -> MutexGuard<'_, GameData> {
    data.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A place in a game: the game itself (the start) or a move of it, as python-chess's
/// `chess.pgn.GameNode`, the base of `Game` and `ChildNode`. Nodes are views of the game: a
/// change made through one is seen through every other, and two nodes of the same move are
/// equal.
///
/// Differences from python-chess, on purpose: a move added must be legal where it is added
/// (`IllegalMoveError` otherwise); `comment` is the text without its `[%...]` commands, which
/// setting it keeps (read them with `clock()` and `eval()`).
///
/// >>> import caissa, caissa.pgn
/// >>> game = caissa.pgn.Game()
/// >>> node = game.add_variation(caissa.Move.from_uci("e2e4"))
/// >>> node = node.add_variation(caissa.Move.from_uci("e7e5"), comment="Open")
/// >>> side = node.parent.add_variation(caissa.Move.from_uci("c7c5"))
/// >>> node.parent.variations == [node, side], side.starts_variation(), side.san()
/// (True, True, 'c5')
/// >>> print(game.to_pgn().splitlines()[-1])
/// 1. e4 e5 { Open } ( 1... c5 ) *
#[pyclass(module = "caissa.pgn", subclass, frozen)]
pub(crate) struct GameNode {
    data: Shared,
    id: Option<NodeId>,
    /// The game object, for the nodes of its moves (`None` in the game itself).
    root: Option<Py<PgnGame>>,
}

impl GameNode {
    fn data(&self) -> MutexGuard<'_, GameData> {
        lock(&self.data)
    }

    /// The game object of `slf`.
    fn game_of(slf: &Bound<'_, GameNode>) -> Py<PgnGame> {
        let me = slf.get();
        match &me.root {
            Some(game) => game.clone_ref(slf.py()),
            None => slf
                .cast::<PgnGame>()
                .expect("a node without a root is its game")
                .clone()
                .unbind(),
        }
    }

    /// The node object of `id` in the game of `slf` (the game itself for `None`).
    fn node_object(slf: &Bound<'_, GameNode>, id: Option<NodeId>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let game = GameNode::game_of(slf);
        match id {
            None => Ok(game.into_any()),
            Some(id) => {
                let node = GameNode {
                    data: Arc::clone(&slf.get().data),
                    id: Some(id),
                    root: Some(game),
                };
                Ok(Py::new(py, PyClassInitializer::from(node).add_subclass(ChildNode))?.into_any())
            }
        }
    }

    /// The child of this node that `key` names: an index in `variations`, a move, or a node.
    fn child(&self, key: &Bound<'_, PyAny>) -> PyResult<NodeId> {
        // What the key names, found before the game is locked: reading an index may run
        // Python code (`__index__`), which could touch this game.
        enum Key {
            Node(Option<NodeId>),
            Move(Move),
            Index(isize),
        }
        let key = if let Ok(node) = key.cast::<GameNode>() {
            let node = node.get();
            Key::Node(
                Arc::ptr_eq(&node.data, &self.data)
                    .then_some(node.id)
                    .flatten(),
            )
        } else if let Ok(m) = key.extract::<PyRef<'_, Move>>() {
            Key::Move(*m)
        } else {
            Key::Index(key.extract()?)
        };
        let data = self.data();
        let children = data.tree.children(self.id);
        match key {
            Key::Node(id) => children
                .iter()
                .copied()
                .find(|&c| id == Some(c))
                .ok_or_else(|| PyKeyError::new_err("not a variation of this node")),
            Key::Move(m) => children
                .iter()
                .copied()
                .find(|&c| data.py_move(c) == m)
                .ok_or_else(|| PyKeyError::new_err(m.uci_move().to_string())),
            Key::Index(index) => crate::types::py_index(index, children.len())
                .map(|i| children[i])
                .ok_or_else(|| PyIndexError::new_err("variation index out of range")),
        }
    }

    /// The node of this move, `ValueError` for the game itself.
    fn move_id(&self, what: &str) -> PyResult<NodeId> {
        self.id
            .ok_or_else(|| PyValueError::new_err(format!("the game's start has no {what}")))
    }

    /// Applies `edit` to the tree and the child `key` names.
    fn edit_child(
        &self,
        key: &Bound<'_, PyAny>,
        edit: impl FnOnce(&mut GameTree, NodeId),
    ) -> PyResult<()> {
        let id = self.child(key)?;
        edit(&mut self.data().tree, id);
        Ok(())
    }

    /// Adds `m` after `slf` with its comments and glyphs, as the main continuation if `main`,
    /// else as the last; its node.
    fn add_child(
        slf: &Bound<'_, Self>,
        m: &Move,
        (comment, starting_comment): (&str, &str),
        nags: Option<&Bound<'_, PyAny>>,
        main: bool,
    ) -> PyResult<Py<PyAny>> {
        let nags = nags_from(nags)?;
        let id = {
            let mut data = slf.get().data();
            let id = data.add(slf.get().id, m)?;
            GameNode::annotate(&mut data, id, comment, starting_comment, nags);
            if main {
                data.tree.promote_to_main(id);
            }
            id
        };
        GameNode::node_object(slf, Some(id))
    }

    /// Replaces the first `[%name ...]` command of the move's comments with `command`, or
    /// adds it, or takes it out for `None`; the comments become one.
    fn set_command(&self, what: &str, name: &str, command: Option<Command<'_>>) -> PyResult<()> {
        let id = self.move_id(what)?;
        let mut data = self.data();
        let node = data.tree.node_mut(id);
        let text = replace_command(&node.comments.join(" "), name, command.as_ref());
        node.comments.clear();
        if !text.is_empty() {
            node.comments.push(text);
        }
        Ok(())
    }

    /// Sets the node `id`'s comment, glyphs and starting comment as python-chess's
    /// `add_variation` takes them.
    fn annotate(
        data: &mut GameData,
        id: NodeId,
        comment: &str,
        starting_comment: &str,
        nags: Vec<Nag>,
    ) {
        let node = data.tree.node_mut(id);
        set_comment(&mut node.comments, comment, "");
        set_comment(&mut node.comments_before, starting_comment, "");
        node.nags = nags;
    }
}

/// The longest time a clock command is given: a thousand years, in seconds.
const MAX_COMMAND_SECONDS: f64 = 1000.0 * 365.25 * 86_400.0;

/// `seconds` (`None` for none) as a duration, at least 0, to the millisecond; `ValueError`
/// for a time that is not a number or is longer than [`MAX_COMMAND_SECONDS`].
fn duration(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    seconds
        .map(|s| {
            if s.is_finite() && s <= MAX_COMMAND_SECONDS {
                Ok(Duration::from_millis((s.max(0.0) * 1000.0).round() as u64))
            } else {
                Err(PyValueError::new_err(format!("not a time: {s}")))
            }
        })
        .transpose()
}

/// python-chess's name of a highlight's or arrow's colour.
fn shape_color_name(color: ShapeColor) -> &'static str {
    match color {
        ShapeColor::Red => "red",
        ShapeColor::Yellow => "yellow",
        ShapeColor::Blue => "blue",
        _ => "green",
    }
}

/// Replaces `comments` with `text` after `keep` (normalised; nothing for an empty result).
fn set_comment(comments: &mut Vec<String>, text: &str, keep: &str) {
    comments.clear();
    let joined = normalize_comment(format!("{keep} {text}").as_bytes());
    if !joined.is_empty() {
        comments.push(joined);
    }
}

/// Glyphs given as python-chess takes them (any iterable of ints, `None` for none), sorted
/// and without repeats, as a set of them is.
fn nags_from(nags: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Nag>> {
    let mut all = Vec::new();
    if let Some(nags) = nags {
        for nag in nags.try_iter()? {
            all.push(Nag(nag?.extract()?));
        }
    }
    all.sort_unstable();
    all.dedup();
    Ok(all)
}

#[pymethods]
impl GameNode {
    /// The node before this one: `None` for the game, the game for a first move.
    #[getter]
    fn parent(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let Some(id) = slf.get().id else {
            return Ok(None);
        };
        let parent = slf.get().data().tree.node(id).parent();
        GameNode::node_object(slf, parent).map(Some)
    }

    /// The move that leads here: `None` for the game, `Move.null()` for a null move (`--`).
    #[getter]
    fn r#move(&self) -> Option<Move> {
        self.id.map(|id| self.data().py_move(id))
    }

    /// The moves that follow, as nodes: the main continuation first, then the variations.
    #[getter]
    fn variations(slf: &Bound<'_, Self>) -> PyResult<Vec<Py<PyAny>>> {
        let children = slf.get().data().tree.children(slf.get().id).to_vec();
        children
            .into_iter()
            .map(|c| GameNode::node_object(slf, Some(c)))
            .collect()
    }

    /// The comment after the move (for the game: before the first move), without its `[%...]`
    /// commands (`''` for none), each run of whitespace in it read as one space (python-chess
    /// keeps line breaks and runs of spaces as written). Setting it replaces the text and
    /// keeps the commands.
    #[getter]
    fn comment(&self) -> String {
        let data = self.data();
        match self.id {
            Some(id) => comment_of(data.tree.node(id)),
            None => data.tree.comments.join(" "),
        }
    }

    #[setter]
    fn set_comment(&self, text: &str) {
        let mut data = self.data();
        match self.id {
            Some(id) => {
                let node = data.tree.node_mut(id);
                let keep = commands_of_text(node);
                set_comment(&mut node.comments, text, &keep);
            }
            None => set_comment(&mut data.tree.comments, text, ""),
        }
    }

    /// The comment after the move (for the game: before the first move) as written, its
    /// `[%...]` commands in it: what a visitor is handed (python-chess's `comment`).
    #[getter]
    fn _raw_comment(&self) -> String {
        let data = self.data();
        match self.id {
            Some(id) => data.tree.node(id).comments.join(" "),
            None => data.tree.comments.join(" "),
        }
    }

    /// The comment before the move, for a move that starts a variation (`''` for none; always
    /// for the game, which cannot have one).
    #[getter]
    fn starting_comment(&self) -> String {
        self.id.map_or_else(String::new, |id| {
            self.data().tree.node(id).comments_before.join(" ")
        })
    }

    #[setter]
    fn set_starting_comment(&self, text: &str) -> PyResult<()> {
        let id = self.move_id("starting comment")?;
        set_comment(&mut self.data().tree.node_mut(id).comments_before, text, "");
        Ok(())
    }

    /// The move's glyphs (NAGs) as a live set of ints (`caissa.pgn.NagSet`): `add`,
    /// `discard` and the other set methods change the move's glyphs, as python-chess's
    /// `node.nags.add(...)` does; setting a new set replaces them. Always empty for the game.
    #[getter]
    fn nags(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let class = slf.py().import("caissa.pgn")?.getattr("NagSet")?;
        Ok(class.call1((slf,))?.unbind())
    }

    /// The move's glyphs, as a set of ints (for `NagSet`).
    #[getter]
    fn _nags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PySet>> {
        let nags: Vec<u8> = self.id.map_or_else(Vec::new, |id| {
            self.data().tree.node(id).nags.iter().map(|n| n.0).collect()
        });
        PySet::new(py, nags)
    }

    #[setter]
    fn set_nags(&self, nags: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = self.move_id("glyphs")?;
        self.data().tree.node_mut(id).nags = nags_from(Some(nags))?;
        Ok(())
    }

    /// A board at this node, with the moves from the start pushed.
    fn board(&self) -> PyResult<Board> {
        self.data().board_at(self.id)
    }

    /// The half-moves to this node as python-chess counts them: from the start position's move
    /// number and side to move, plus the moves since.
    fn ply(&self) -> usize {
        let data = self.data();
        data.start_ply() + data.path(self.id).len()
    }

    /// The side to move at this node (`True` for White).
    fn turn(&self) -> bool {
        self.ply().is_multiple_of(2)
    }

    /// The game.
    fn root(slf: &Bound<'_, Self>) -> Py<PgnGame> {
        GameNode::game_of(slf)
    }

    /// The game (python-chess's other name for `root`).
    fn game(slf: &Bound<'_, Self>) -> Py<PgnGame> {
        GameNode::game_of(slf)
    }

    /// The tags of the game as if it started after this node (for `accept_subgame`).
    fn _subgame_tags(&self) -> Vec<(String, String)> {
        let tags = self.data().subgame_tags(self.id);
        tags.iter()
            .map(|(name, value)| (name.to_owned(), value.to_owned()))
            .collect()
    }

    /// Hands the game to `visitor` as if it started after this node (python-chess's
    /// `accept_subgame`): the game's tags with the start tags (`FEN`, `SetUp`) of this node's
    /// board, that board, the moves that follow with their variations, and the result. A
    /// `StringExporter` or `FileExporter` gets that game's text written in Rust.
    ///
    /// >>> import io
    /// >>> game = caissa.pgn.read_game(io.StringIO("1. e4 e5 2. Nf3 *"))
    /// >>> sub = game.next().accept_subgame(caissa.pgn.StringExporter(headers=False))
    /// >>> sub
    /// '1... e5 2. Nf3 *'
    fn accept_subgame(slf: &Bound<'_, Self>, visitor: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Some((flags, columns)) = exporter_options(visitor)? {
            let sub = slf.get().data().subgame(slf.get().id);
            let text = python_chess_text(&sub, flags, columns);
            return Ok(visitor.call_method1("_take", (text,))?.unbind());
        }
        let walk = slf.py().import("caissa.pgn")?.getattr("_accept_subgame")?;
        Ok(walk.call1((slf, visitor))?.unbind())
    }

    /// The last node of the main continuation from here (this node at the end of its line).
    fn end(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let last = slf.get().data().line_after(slf.get().id).last();
        GameNode::node_object(slf, last.or(slf.get().id))
    }

    /// Whether nothing follows this node.
    fn is_end(&self) -> bool {
        self.data().tree.children(self.id).is_empty()
    }

    /// Whether this move starts a variation: it is not its parent's main continuation.
    fn starts_variation(&self) -> bool {
        let data = self.data();
        self.id
            .is_some_and(|id| data.tree.children(data.tree.node(id).parent()).first() != Some(&id))
    }

    /// Whether this node is on the game's main line (the game is).
    fn is_mainline(&self) -> bool {
        let data = self.data();
        data.path(self.id)
            .iter()
            .all(|&id| data.tree.children(data.tree.node(id).parent()).first() == Some(&id))
    }

    /// Whether this node is its parent's main continuation (the game is).
    fn is_main_variation(&self) -> bool {
        !self.starts_variation()
    }

    fn __getitem__(slf: &Bound<'_, Self>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let id = slf.get().child(key)?;
        GameNode::node_object(slf, Some(id))
    }

    fn __contains__(&self, key: &Bound<'_, PyAny>) -> bool {
        self.child(key).is_ok()
    }

    /// The continuation `move` names: an index in `variations`, a move, or a node. Raises
    /// `KeyError` (`IndexError` for an index) if there is none.
    fn variation(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        GameNode::__getitem__(slf, r#move)
    }

    /// Whether `move` (an index, a move or a node) names a continuation of this node.
    fn has_variation(&self, r#move: &Bound<'_, PyAny>) -> bool {
        self.child(r#move).is_ok()
    }

    /// Makes the continuation `move` names the main one.
    fn promote_to_main(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.edit_child(r#move, GameTree::promote_to_main)
    }

    /// Moves the continuation `move` names one place up.
    fn promote(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.edit_child(r#move, GameTree::promote)
    }

    /// Moves the continuation `move` names one place down.
    fn demote(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.edit_child(r#move, GameTree::demote)
    }

    /// Removes the continuation `move` names, with the moves after it (they stay in memory,
    /// and their nodes usable, until the game goes).
    fn remove_variation(&self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        self.edit_child(r#move, GameTree::remove)
    }

    /// Adds `move` (legal here, else `IllegalMoveError`) as the last continuation of this
    /// node, with a comment after it, a comment before it and glyphs; returns its node.
    #[pyo3(signature = (r#move, *, comment = "", starting_comment = "", nags = None))]
    fn add_variation(
        slf: &Bound<'_, Self>,
        r#move: PyRef<'_, Move>,
        comment: &str,
        starting_comment: &str,
        nags: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        GameNode::add_child(slf, &r#move, (comment, starting_comment), nags, false)
    }

    /// Adds `move` (legal here) as the main continuation, the others after it.
    #[pyo3(signature = (r#move, *, comment = "", nags = None))]
    fn add_main_variation(
        slf: &Bound<'_, Self>,
        r#move: PyRef<'_, Move>,
        comment: &str,
        nags: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        GameNode::add_child(slf, &r#move, (comment, ""), nags, true)
    }

    /// Adds `moves` one after the other from this node, each as the last continuation of the
    /// one before; the starting comment goes before the first, the comment (after any it has)
    /// and glyphs after the last. Returns the last node. Nothing is added unless every move is
    /// legal where it comes.
    #[pyo3(signature = (moves, *, comment = "", starting_comment = "", nags = None))]
    fn add_line(
        slf: &Bound<'_, Self>,
        moves: Vec<PyRef<'_, Move>>,
        comment: &str,
        starting_comment: &str,
        nags: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let nags = nags_from(nags)?;
        let me = slf.get();
        let last = {
            let mut data = me.data();
            // Every move checked first, so that a bad one adds nothing.
            let mut pos = data.position_at(me.id);
            let mut line = Vec::with_capacity(moves.len());
            for m in &moves {
                let legal = legal_move(&pos, m)?;
                line.push((pos, legal));
                pos.play_unchecked(legal);
            }
            let mut at = me.id;
            for (i, (before, legal)) in line.iter().enumerate() {
                let id = data.add_legal(at, before, *legal);
                if i == 0 {
                    set_comment(
                        &mut data.tree.node_mut(id).comments_before,
                        starting_comment,
                        "",
                    );
                }
                at = Some(id);
            }
            // With no moves, the comment and glyphs go to this node (python-chess's too; the
            // game takes no glyphs).
            match at {
                Some(id) => {
                    let node = data.tree.node_mut(id);
                    let before = node.comments.join(" ");
                    set_comment(&mut node.comments, comment, &before);
                    node.nags.extend(nags);
                    node.nags.sort_unstable();
                    node.nags.dedup();
                }
                None => {
                    let before = data.tree.comments.join(" ");
                    set_comment(&mut data.tree.comments, comment, &before);
                }
            }
            at
        };
        GameNode::node_object(slf, last)
    }

    /// The main continuation's first node, or `None` at the end.
    fn next(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyAny>>> {
        let first = slf
            .get()
            .data()
            .tree
            .children(slf.get().id)
            .first()
            .copied();
        first
            .map(|id| GameNode::node_object(slf, Some(id)))
            .transpose()
    }

    /// The nodes of the main continuation after this one, in order, as a
    /// `caissa.pgn.Mainline` (a list; `str()` of it is python-chess's text of the line).
    fn mainline(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let ids: Vec<NodeId> = slf.get().data().line_after(slf.get().id).collect();
        let nodes = ids
            .into_iter()
            .map(|id| GameNode::node_object(slf, Some(id)))
            .collect::<PyResult<Vec<_>>>()?;
        let class = slf.py().import("caissa.pgn")?.getattr("Mainline")?;
        Ok(class.call1((slf, nodes))?.unbind())
    }

    /// The main continuation after this node as python-chess writes a `Mainline`: its moves
    /// on one line with their comments and glyphs, no variations (for `Mainline`).
    fn _mainline_text(&self) -> String {
        let data = self.data();
        let first = data.tree.children(self.id).first().copied();
        first.map_or_else(String::new, |first| data.line_text(first, false))
    }

    /// The moves of the main continuation after this node (`Move.null()` for a null move).
    fn mainline_moves(&self) -> Vec<Move> {
        let data = self.data();
        data.line_after(self.id)
            .map(|id| data.py_move(id))
            .collect()
    }

    /// The `[%clk ...]` after the move, in seconds, or `None` (always for the game).
    fn clock(&self) -> Option<f64> {
        self.id.and_then(|id| clock_of(self.data().tree.node(id)))
    }

    /// The `[%emt ...]` after the move (the time it took), in seconds, or `None` (always for
    /// the game).
    fn emt(&self) -> Option<f64> {
        self.id.and_then(|id| emt_of(self.data().tree.node(id)))
    }

    /// The `[%eval ...]` after the move as python-chess gives it, a `caissa.engine.PovScore`
    /// from the point of view of the side to move here, or `None` (always for the game). The
    /// game's `evals` has them all from White's point of view.
    fn eval(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let Some(eval) = self.id.and_then(|id| eval_of(self.data().tree.node(id))) else {
            return Ok(None);
        };
        let engine = py.import("caissa.engine")?;
        let turn = self.turn();
        // From the side to move's point of view; a mate in 0 is the side to move's, mated.
        let relative = match (eval.cp, eval.mate) {
            (_, Some(0)) => engine.getattr("Mate")?.call1((0,))?,
            (_, Some(mate)) => engine
                .getattr("Mate")?
                .call1((if turn { mate } else { -mate },))?,
            (cp, None) => {
                let cp = cp.unwrap_or(0);
                engine
                    .getattr("Cp")?
                    .call1((if turn { cp } else { -cp },))?
            }
        };
        Ok(Some(
            engine
                .getattr("PovScore")?
                .call1((relative, turn))?
                .unbind(),
        ))
    }

    /// The depth of the `[%eval ...]` after the move, or `None`.
    fn eval_depth(&self) -> Option<u32> {
        self.id
            .and_then(|id| eval_of(self.data().tree.node(id)))
            .and_then(|eval| eval.depth)
    }

    /// Sets the `[%clk ...]` after the move to `seconds` (at least 0, to the millisecond), or
    /// takes it out for `None`, the rest of the comment kept.
    #[pyo3(signature = (seconds))]
    fn set_clock(&self, seconds: Option<f64>) -> PyResult<()> {
        let command = duration(seconds)?.map(Command::Clock);
        self.set_command("clock", "clk", command)
    }

    /// Sets the `[%emt ...]` after the move to `seconds`, or takes it out for `None`.
    #[pyo3(signature = (seconds))]
    fn set_emt(&self, seconds: Option<f64>) -> PyResult<()> {
        let command = duration(seconds)?.map(Command::ElapsedMoveTime);
        self.set_command("move time", "emt", command)
    }

    /// Sets the `[%eval ...]` after the move to `score` (a `PovScore`, python-chess's or
    /// caissa's, or an `Eval`) with `depth`, or takes it out for `None` (and for a mate in 0,
    /// as python-chess does).
    #[pyo3(signature = (score, depth = None))]
    fn set_eval(&self, score: Option<&Bound<'_, PyAny>>, depth: Option<i64>) -> PyResult<()> {
        // A negative depth is 0, as python-chess writes it.
        let depth = depth.map(|d| u32::try_from(d.max(0)).unwrap_or(u32::MAX));
        let white = match score {
            None => None,
            Some(score) => match score.extract::<PyRef<'_, Eval>>() {
                Ok(eval) => Some((eval.cp, eval.mate)),
                Err(_) => {
                    let white = score.call_method0("white")?;
                    Some((
                        white.call_method0("score")?.extract()?,
                        white.call_method0("mate")?.extract()?,
                    ))
                }
            },
        };
        let score = match white {
            Some((Some(cp), _)) => Some(Score::Centipawns(cp)),
            Some((None, Some(mate))) if mate != 0 => Some(Score::Mate(mate)),
            _ => None,
        };
        let command = score.map(|score| Command::Eval(RustEval { score, depth }));
        self.set_command("evaluation", "eval", command)
    }

    /// The squares and arrows of the move's `[%csl ...]` and `[%cal ...]` commands, in the
    /// order written, as `caissa.svg.Arrow`s (a square as an arrow from it to itself) with
    /// python-chess's colour names (`"green"`, `"red"`, `"yellow"`, `"blue"`).
    fn arrows(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        let shapes: Vec<(u8, u8, &str)> = match self.id {
            None => Vec::new(),
            Some(id) => commands_of(self.data().tree.node(id))
                .flat_map(|command| match command {
                    Command::Highlights(shapes) | Command::Arrows(shapes) => shapes.collect(),
                    _ => Vec::new(),
                })
                .map(|s| (s.from as u8, s.to as u8, shape_color_name(s.color)))
                .collect(),
        };
        let arrow = py.import("caissa.svg")?.getattr("Arrow")?;
        shapes
            .into_iter()
            .map(|(tail, head, color)| {
                let options = PyDict::new(py);
                options.set_item("color", color)?;
                Ok(arrow.call((tail, head), Some(&options))?.unbind())
            })
            .collect()
    }

    /// Replaces the move's `[%csl ...]` and `[%cal ...]` commands with `arrows` (each an
    /// `Arrow`, or a `(tail, head)` pair, green), written first in the comment as python-chess
    /// writes them: squares (tail and head the same) in `%csl`, arrows in `%cal`.
    fn set_arrows(&self, arrows: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = self.move_id("arrows")?;
        let (mut squares, mut lines) = (Vec::new(), Vec::new());
        for arrow in arrows.try_iter()? {
            let arrow = arrow?;
            let (tail, head, color) = match arrow.extract::<(u8, u8)>() {
                Ok((tail, head)) => (tail, head, "green".to_owned()),
                Err(_) => (
                    arrow.getattr("tail")?.extract()?,
                    arrow.getattr("head")?.extract()?,
                    arrow.getattr("color")?.extract()?,
                ),
            };
            let letter = match color.as_str() {
                "red" => 'R',
                "yellow" => 'Y',
                "blue" => 'B',
                _ => 'G',
            };
            let (tail, head) = (square_from_py(tail)?, square_from_py(head)?);
            if tail == head {
                squares.push(format!("{letter}{tail}"));
            } else {
                lines.push(format!("{letter}{tail}{head}"));
            }
        }
        let mut data = self.data();
        let node = data.tree.node_mut(id);
        let mut text = node.comments.join(" ");
        for name in ["csl", "cal"] {
            loop {
                let next = replace_command(&text, name, None);
                if next == text {
                    break;
                }
                text = next;
            }
        }
        let mut prefix = String::new();
        if !squares.is_empty() {
            prefix += &format!("[%csl {}]", squares.join(","));
        }
        if !lines.is_empty() {
            prefix += &format!("[%cal {}]", lines.join(","));
        }
        set_comment(&mut node.comments, &text, &prefix);
        Ok(())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<GameNode>()
            .is_ok_and(|o| Arc::ptr_eq(&o.get().data, &self.data) && o.get().id == self.id)
    }

    fn __hash__(&self) -> isize {
        let game = Arc::as_ptr(&self.data) as isize;
        game ^ self.id.map_or(-1, |id| id.index() as isize)
    }
}

/// A move of a game with what was written around it: python-chess's `chess.pgn.ChildNode`.
/// See `GameNode` for what every node has.
///
/// >>> import io, caissa.pgn
/// >>> game = caissa.pgn.read_game(io.StringIO("1. e4 { [%clk 0:01:00] fine } e5 (1... c5 $1) *"))
/// >>> node = game.next()
/// >>> node.move.uci(), node.comment, node.clock(), node.next().san(), node.next().is_end()
/// ('e2e4', 'fine', 60.0, 'e5', True)
/// >>> side = node.variation(1)
/// >>> side.san(), side.nags, side.parent == node, side.is_mainline()
/// ('c5', {1}, True, False)
#[pyclass(module = "caissa.pgn", extends = GameNode, frozen)]
pub(crate) struct ChildNode;

#[pymethods]
impl ChildNode {
    /// Pickled (and copied) with its whole game, as python-chess's nodes are: the game, and
    /// the way from its start to this node (each step the index of a variation).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<Reduced<'py, (Py<PgnGame>, Vec<usize>)>> {
        let base = slf.as_super();
        let path = {
            let data = base.get().data();
            let mut path = Vec::new();
            let mut at = base.get().id;
            while let Some(id) = at {
                let parent = data.tree.node(id).parent();
                let children = data.tree.children(parent);
                let index = children.iter().position(|&c| c == id).ok_or_else(|| {
                    PyValueError::new_err("a node taken out of its game cannot be pickled")
                })?;
                path.push(index);
                at = parent;
            }
            path.reverse();
            path
        };
        let find = slf.py().import("caissa.pgn")?.getattr("_node_of")?;
        Ok((find, (GameNode::game_of(base), path)))
    }

    /// The move in SAN, as written in the file (or as caissa writes a move added).
    fn san(slf: PyRef<'_, Self>) -> String {
        let base = slf.as_super();
        let id = base.id.expect("a child node has a move");
        base.data().tree.node(id).san.to_string()
    }

    /// The move in UCI notation (`'0000'` for a null move).
    fn uci(slf: PyRef<'_, Self>) -> String {
        slf.as_super()
            .r#move()
            .map_or_else(|| "0000".to_owned(), |m| m.uci_move().to_string())
    }

    /// Hands this move and the moves after it (not those beside it) to `visitor`, a
    /// `caissa.pgn.BaseVisitor`, as python-chess's `ChildNode.accept`, and returns its result.
    fn accept(slf: PyRef<'_, Self>, visitor: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let walk = visitor.py().import("caissa.pgn")?.getattr("_accept_line")?;
        Ok(walk.call1((slf, visitor))?.unbind())
    }

    /// This move and the moves after it as python-chess's `str(node)` writes them: on one
    /// line, numbered from the position before the move, with the variations that follow it
    /// (not those beside it), without a result.
    ///
    /// >>> import io
    /// >>> game = caissa.pgn.read_game(io.StringIO("1. e4 e5 (1... c5 2. Nf3) 2. Nf3 *"))
    /// >>> str(game.next().next()), str(game.next())
    /// ('1... e5 2. Nf3', '1. e4 e5 ( 1... c5 2. Nf3 ) 2. Nf3')
    fn __str__(slf: PyRef<'_, Self>) -> String {
        let base = slf.as_super();
        let id = base.id.expect("a child node has a move");
        base.data().line_text(id, true)
    }

    fn __repr__(slf: PyRef<'_, Self>) -> String {
        let ply = slf.as_super().ply();
        format!(
            "<ChildNode {}{} {}>",
            ply.div_ceil(2),
            if ply % 2 == 1 { "." } else { "..." },
            ChildNode::san(slf)
        )
    }
}

/// A game: its tags (`headers`), its start, its moves as a tree of nodes with comments, glyphs
/// and variations: python-chess's `chess.pgn.Game`, a `GameNode` (see there for moves and
/// variations). Read from PGN by `read_games` or `read_game`, made from a board by
/// `from_board`, or built move by move from `Game()` (the seven tag roster with `?`, result
/// `*`) or `Game(headers)`.
///
/// Besides python-chess's names, the main line as lists: `moves`, `san`, `comments`,
/// `clocks`, `evals`.
///
/// >>> import io, caissa.pgn
/// >>> pgn = io.StringIO('[White "A"]\n\n1. e4 { [%clk 0:03:00] Good } e5 2. Qh5 *')
/// >>> game = next(caissa.pgn.read_games(pgn))
/// >>> (game.headers["White"], game.san, game.clocks, game.comments)
/// ('A', ['e4', 'e5', 'Qh5'], [180.0, None, None], ['Good', '', ''])
/// >>> game.end().board().fen()
/// 'rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2'
/// >>> game.headers["Black"] = "B"
/// >>> print(game.to_pgn().splitlines()[5])
/// [Black "B"]
#[pyclass(name = "Game", module = "caissa.pgn", extends = GameNode, frozen)]
pub(crate) struct PgnGame;

impl PgnGame {
    /// The Python object of a game.
    pub(crate) fn create(py: Python<'_>, data: GameData) -> PyResult<Py<PgnGame>> {
        Py::new(py, PgnGame::initializer(data))
    }

    fn initializer(data: GameData) -> PyClassInitializer<PgnGame> {
        PyClassInitializer::from(GameNode {
            data: Arc::new(Mutex::new(data)),
            id: None,
            root: None,
        })
        .add_subclass(PgnGame)
    }

    fn shared<'a>(slf: &'a PyRef<'_, Self>) -> MutexGuard<'a, GameData> {
        slf.as_super().data()
    }
}

/// The movetext of `tree` as python-chess's exporters write it: each move's comments made
/// one, its glyphs sorted, numbered from the start its tags give, ended by `result`.
fn python_chess_movetext(tree: &mut GameTree, layout: Layout, result: TerminationMarker) -> String {
    let join = |comments: &mut Vec<String>| {
        if comments.len() > 1 {
            let one = comments.join(" ");
            *comments = vec![one];
        }
    };
    join(&mut tree.comments);
    for id in moves_in(tree) {
        let node = tree.node_mut(id);
        join(&mut node.comments);
        join(&mut node.comments_before);
        node.nags.sort_unstable();
    }
    let mut out = String::new();
    let first_ply = tree.tags.start().first_ply();
    tree.write_movetext(&mut out, layout, first_ply, result);
    out
}

/// The game's comments and its first move's starting comments, as a pickle keeps them.
type FirstComments = (Vec<String>, Vec<String>);

/// `headers`, `comments` and `variations`, then `columns`: what an exporter writes.
type ExporterOptions = ((bool, bool, bool), Option<usize>);

/// The choices of `visitor` when it is one of `caissa.pgn`'s exporters (it has `_take`, which
/// takes the text written in Rust): `headers`, `comments`, `variations`, and `columns`.
fn exporter_options(visitor: &Bound<'_, PyAny>) -> PyResult<Option<ExporterOptions>> {
    if !visitor.hasattr("_take")? {
        return Ok(None);
    }
    let option = |name: &str| visitor.getattr(name)?.extract::<bool>();
    let flags = (
        option("headers")?,
        option("comments")?,
        option("variations")?,
    );
    let columns = visitor.getattr("columns")?;
    if columns.is_none() {
        return Ok(Some((flags, None)));
    }
    // As python-chess's exporters: below 1, every token on a line of its own; beyond any
    // line, one line.
    let columns = match columns.extract::<i64>() {
        Ok(n) => usize::try_from(n).unwrap_or(0),
        Err(_) if columns.is_instance_of::<pyo3::types::PyInt>() => usize::MAX,
        Err(e) => return Err(e),
    };
    Ok(Some((flags, Some(columns))))
}

/// Appends `movetext` (on one line, python-chess's tokens separated by single spaces) in
/// lines of at most `columns` characters as python-chess's exporters break it: each token
/// with its space after it, a new line started where a token would not fit (a longer token
/// gets a line of its own), each line without its trailing space. A comment (`{ ... }`, with
/// no `}` inside: python-chess takes them out) is one token, however many words it has.
fn wrap_as_python_chess(out: &mut String, movetext: &str, columns: usize) {
    let mut line = String::new();
    let mut line_chars = 0;
    let mut rest = movetext;
    while !rest.is_empty() {
        let end = if rest.starts_with('{') {
            rest.find('}').map_or(rest.len(), |close| close + 1)
        } else {
            rest.find(' ').unwrap_or(rest.len())
        };
        let token = &rest[..end];
        rest = rest[end..].strip_prefix(' ').unwrap_or(&rest[end..]);
        let width = token.chars().count() + 1;
        if columns.saturating_sub(line_chars) < width && !line.is_empty() {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
            line_chars = 0;
        }
        line.push_str(token);
        line.push(' ');
        line_chars += width;
    }
    out.push_str(line.trim_end());
}

/// The layout of python-chess's `columns`: 80 (the export format's width) or `None` (one
/// line); `ValueError` for another width.
fn layout_for(columns: Option<usize>) -> PyResult<Layout> {
    match columns {
        Some(EXPORT_WIDTH) => Ok(Layout::Export),
        None => Ok(Layout::Compact),
        Some(other) => Err(PyValueError::new_err(format!(
            "columns is {EXPORT_WIDTH} or None, not {other}"
        ))),
    }
}

/// Moves the start tags that `tags` has to its end, in python-chess's order: `FEN`, `SetUp`,
/// `Variant` (caissa's `Tags::set_start` adds them the other way round).
fn start_tags_last(tags: &mut Tags) {
    for name in ["FEN", "SetUp", "Variant"] {
        if let Some(value) = tags.get(name).map(str::to_owned) {
            tags.remove(name);
            tags.insert(name, &value);
        }
    }
}

/// The tag pairs the seven tag roster first (in its order, those there are), then the others
/// in their order: python-chess's order of headers.
fn roster_first(tags: &Tags) -> impl Iterator<Item = (&str, &str)> {
    let roster = SEVEN_TAG_ROSTER
        .iter()
        .filter_map(|&(name, _)| tags.get(name).map(|value| (name, value)));
    let in_roster = |name: &str| SEVEN_TAG_ROSTER.iter().any(|&(n, _)| n == name);
    roster.chain(tags.iter().filter(move |(name, _)| !in_roster(name)))
}

/// Every move of `tree` still in the game, depth first.
fn moves_in(tree: &GameTree) -> Vec<NodeId> {
    let mut all = Vec::with_capacity(tree.len());
    let mut stack: Vec<NodeId> = tree.roots().to_vec();
    while let Some(id) = stack.pop() {
        all.push(id);
        stack.extend_from_slice(tree.node(id).children());
    }
    all
}

/// A copy of `tree` without its comments and glyphs unless `comments`, without its variations
/// unless `variations`.
fn stripped(tree: &GameTree, comments: bool, variations: bool) -> GameTree {
    let mut out = tree.clone();
    if !variations {
        let parents = std::iter::once(None).chain(moves_in(tree).into_iter().map(Some));
        for parent in parents {
            for id in tree.children(parent).iter().skip(1) {
                out.remove(*id);
            }
        }
    }
    if !comments {
        out.comments.clear();
        for id in moves_in(&out) {
            let node = out.node_mut(id);
            node.comments.clear();
            node.comments_before.clear();
            node.nags.clear();
        }
    }
    out
}

/// Checks a tag pair as python-chess's headers do: a name of letters, digits and `_`, a value
/// without a line break.
fn check_tag(name: &str, value: &str) -> PyResult<()> {
    let symbol = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !symbol || value.contains(['\n', '\r']) {
        return Err(PyValueError::new_err(format!(
            "not a tag pair PGN can hold: {name:?} {value:?}"
        )));
    }
    Ok(())
}

/// Applies `change` to the tags of `data`, undoing it if the start position it gives is not
/// one the game can have.
fn change_tags(data: &mut GameData, change: impl FnOnce(&mut Tags)) -> PyResult<()> {
    let before = data.tree.tags.clone();
    change(&mut data.tree.tags);
    if let Err(e) = data.restart() {
        data.tree.tags = before;
        return Err(PyValueError::new_err(e));
    }
    if data.tree.tags.get("Result") != before.get("Result") {
        // The movetext ends with the `Result` tag's value from now on, as python-chess's.
        data.tree.termination_marker = None;
    }
    Ok(())
}

#[pymethods]
impl PgnGame {
    #[new]
    #[pyo3(signature = (headers = None))]
    fn new(headers: Option<Bound<'_, PyAny>>) -> PyResult<PyClassInitializer<PgnGame>> {
        let mut tree = GameTree::new();
        match headers {
            None => {
                for (name, value) in SEVEN_TAG_ROSTER {
                    tree.tags.push(name, value);
                }
            }
            Some(headers) => {
                let pairs = match headers.cast::<PyDict>() {
                    Ok(dict) => dict.items().into_any(),
                    Err(_) => match headers.call_method0("items") {
                        Ok(items) => items,
                        Err(_) => headers,
                    },
                };
                for pair in pairs.try_iter()? {
                    let (name, value): (String, String) = pair?.extract()?;
                    check_tag(&name, &value)?;
                    tree.tags.insert(&name, &value);
                }
            }
        }
        let data = GameData::replayed(tree)
            .map_err(|e| PyValueError::new_err(format!("the tags give no start: {e}")))?;
        Ok(PgnGame::initializer(data))
    }

    /// The time control of the `TimeControl` tag, read by `caissa.pgn.parse_time_control`
    /// (python-chess's `time_control`): `UNKNOWN` without the tag.
    ///
    /// >>> game = caissa.pgn.Game({"TimeControl": "300+3"})
    /// >>> tc = game.time_control()
    /// >>> tc.type.name, tc.parts[0].time, tc.parts[0].increment
    /// ('BLITZ', 300, 3.0)
    fn time_control(slf: PyRef<'_, Self>, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let tag = PgnGame::shared(&slf)
            .tree
            .tags
            .get("TimeControl")
            .unwrap_or_default()
            .to_owned();
        let parse = py.import("caissa.pgn")?.getattr("parse_time_control")?;
        Ok(parse.call1((tag,))?.unbind())
    }

    /// A visitor that builds games of this class (python-chess's `Game.builder()`).
    #[classmethod]
    fn builder(cls: &Bound<'_, pyo3::types::PyType>) -> PyResult<Py<PyAny>> {
        let builder = cls.py().import("caissa.pgn")?.getattr("GameBuilder")?;
        let kwargs = pyo3::types::PyDict::new(cls.py());
        kwargs.set_item("Game", cls)?;
        Ok(builder.call((), Some(&kwargs))?.unbind())
    }

    /// A game without tags (python-chess's `Game.without_tag_roster()`).
    #[staticmethod]
    fn without_tag_roster(py: Python<'_>) -> PyResult<Py<PgnGame>> {
        PgnGame::create(
            py,
            GameData::replayed(GameTree::new()).expect("no tags give the standard start"),
        )
    }

    /// The tag pairs as a live mapping (`caissa.pgn.Headers`): reading, setting and deleting
    /// tags changes the game. The seven tag roster comes first, in its order.
    #[getter]
    fn headers(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let class = py.import("caissa.pgn")?.getattr("Headers")?;
        Ok(class.call1((slf,))?.unbind())
    }

    /// The names of the tags, the roster first (for `Headers`).
    fn _tag_names(slf: PyRef<'_, Self>) -> Vec<String> {
        let data = PgnGame::shared(&slf);
        roster_first(&data.tree.tags)
            .map(|(name, _)| name.to_owned())
            .collect()
    }

    /// The value of tag `name`, or `None` (for `Headers`).
    fn _tag(slf: PyRef<'_, Self>, name: &str) -> Option<String> {
        PgnGame::shared(&slf).tree.tags.get(name).map(str::to_owned)
    }

    /// Sets tag `name` (for `Headers`): `ValueError` for a pair PGN cannot hold, or start tags
    /// (`FEN`, `SetUp`, `Variant`) that give no position or change the start of a game with
    /// moves.
    fn _set_tag(slf: PyRef<'_, Self>, name: &str, value: &str) -> PyResult<()> {
        check_tag(name, value)?;
        change_tags(&mut PgnGame::shared(&slf), |tags| tags.insert(name, value))
    }

    /// Always true, as python-chess's games are, whatever `len` (the main line's moves) says.
    fn __bool__(&self) -> bool {
        true
    }

    /// Removes tag `name`; whether it was there (for `Headers`).
    fn _remove_tag(slf: PyRef<'_, Self>, name: &str) -> PyResult<bool> {
        let mut data = PgnGame::shared(&slf);
        if data.tree.tags.get(name).is_none() {
            return Ok(false);
        }
        change_tags(&mut data, |tags| tags.remove(name))?;
        Ok(true)
    }

    /// Sets the start position to `board` (a `Board` or a FEN): the `FEN` and `SetUp` tags,
    /// removed for the standard start, and `Variant` for Chess960. `ValueError` once the game
    /// has moves.
    fn setup(slf: PyRef<'_, Self>, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<()> {
        // The board's position now, as python-chess takes its FEN.
        let pos = match board.extract::<PyRef<'_, Board>>() {
            Ok(board) => *board.position()?,
            Err(_) => *Board::from_fen(py, &board.extract::<String>()?, false)?.position()?,
        };
        let mut data = PgnGame::shared(&slf);
        if !data.tree.is_empty() {
            return Err(PyValueError::new_err(
                "the game has moves: its start position cannot change",
            ));
        }
        change_tags(&mut data, |tags| {
            tags.set_start(&pos);
            start_tags_last(tags);
        })
    }

    /// The main line's moves (`Move.null()` for a null move `--`).
    #[getter]
    fn moves(slf: PyRef<'_, Self>) -> Vec<Move> {
        let data = PgnGame::shared(&slf);
        data.main_ids().map(|id| data.py_move(id)).collect()
    }

    /// The main line's moves in SAN, as written in the file.
    #[getter]
    fn san(slf: PyRef<'_, Self>) -> Vec<String> {
        PgnGame::main_nodes(&slf, |n| n.san.to_string())
    }

    /// The comment after each main-line move, without its `[%...]` commands (`''` for none).
    #[getter]
    fn comments(slf: PyRef<'_, Self>) -> Vec<String> {
        PgnGame::main_nodes(&slf, comment_of)
    }

    /// The `[%clk ...]` after each main-line move, in seconds, or `None`.
    #[getter]
    fn clocks(slf: PyRef<'_, Self>) -> Vec<Option<f64>> {
        PgnGame::main_nodes(&slf, clock_of)
    }

    /// The `[%eval ...]` after each main-line move, or `None`.
    #[getter]
    fn evals(slf: PyRef<'_, Self>) -> Vec<Option<Eval>> {
        PgnGame::main_nodes(&slf, eval_of)
    }

    /// The comments before the first move (after the tags), as written.
    #[getter]
    fn game_comments(slf: PyRef<'_, Self>) -> Vec<String> {
        PgnGame::shared(&slf).tree.comments.clone()
    }

    /// The game termination marker written after the moves (`'1-0'`, `'0-1'`, `'1/2-1/2'`,
    /// `'*'`), or `None` when there is none.
    #[getter]
    fn termination_marker(slf: PyRef<'_, Self>) -> Option<&'static str> {
        PgnGame::shared(&slf)
            .tree
            .termination_marker
            .map(|t| t.as_str())
    }

    /// The game in PGN export format, with its variations, comments and glyphs: the seven
    /// tag roster first, lines of at most 80 columns, a final newline. `headers=False` gives
    /// the movetext alone, `comments=False` leaves out the comments (their `[%...]` commands
    /// too) and glyphs, `variations=False` the variations; `columns=None` writes the movetext
    /// on one line (80 is the only width otherwise).
    ///
    /// >>> import io
    /// >>> game = caissa.pgn.read_game(io.StringIO("1. e4 { Best } $1 e5 (1... c5) 2. Nf3 *"))
    /// >>> print(game.to_pgn(headers=False, comments=False, variations=False), end="")
    /// 1. e4 e5 2. Nf3 *
    /// >>> print(game.to_pgn(headers=False, columns=None), end="")
    /// 1. e4 $1 { Best } 1... e5 ( 1... c5 ) 2. Nf3 *
    #[pyo3(signature = (*, headers = true, comments = true, variations = true, columns = Some(EXPORT_WIDTH)))]
    fn to_pgn(
        slf: PyRef<'_, Self>,
        headers: bool,
        comments: bool,
        variations: bool,
        columns: Option<usize>,
    ) -> PyResult<String> {
        let layout = layout_for(columns)?;
        let data = PgnGame::shared(&slf);
        let tree = stripped(&data.tree, comments, variations);
        let mut out = String::new();
        if headers {
            tree.tags
                .write(&mut out, Layout::Export, tree.termination_marker);
        }
        let first_ply = tree.tags.start().first_ply();
        let result = tree.tags.movetext_result(tree.termination_marker);
        tree.write_movetext(&mut out, layout, first_ply, result);
        if layout == Layout::Compact {
            // The export format's final newline.
            out.push('\n');
        }
        Ok(out)
    }

    /// Pickled (and copied) as its PGN in caissa's export format, the names of its tags and
    /// the comments before its first move (the game's, and the first move's own, which PGN
    /// writes alike), read back by `caissa.pgn._game_from_pgn`.
    fn __reduce__<'py>(
        slf: PyRef<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Reduced<'py, (String, Vec<String>, FirstComments)>> {
        let (names, first) = {
            let data = PgnGame::shared(&slf);
            let names = data
                .tree
                .tags
                .iter()
                .map(|(name, _)| name.to_owned())
                .collect();
            let before_first = data
                .tree
                .children(None)
                .first()
                .map_or_else(Vec::new, |&id| data.tree.node(id).comments_before.clone());
            (names, (data.tree.comments.clone(), before_first))
        };
        let text = PgnGame::to_pgn(slf, true, true, true, Some(EXPORT_WIDTH))?;
        let read = py.import("caissa.pgn")?.getattr("_game_from_pgn")?;
        Ok((read, (text, names, first)))
    }

    /// Sets the comments before the first move (see `__reduce__`).
    fn _set_first_comments(slf: PyRef<'_, Self>, comments: FirstComments) {
        let mut data = PgnGame::shared(&slf);
        let (game, before_first) = comments;
        data.tree.comments = game;
        if let Some(&first) = data.tree.children(None).first() {
            data.tree.node_mut(first).comments_before = before_first;
        }
    }

    /// The game in PGN as python-chess's `str(game)` writes it: the tags it has (the seven
    /// tag roster first), a blank line, and the movetext on one line, each move's comments as
    /// one and its glyphs in order; no final newline.
    fn __str__(slf: PyRef<'_, Self>) -> String {
        PgnGame::python_chess_text(&slf, (true, true, true), None)
    }

    /// Hands the game to `visitor` and returns its result (python-chess's `game.accept`). A
    /// `caissa.pgn.StringExporter` or `FileExporter` gets the text written in Rust (with its
    /// `headers`, `comments`, `variations` and `columns`): the text, or the number of
    /// characters written to the file. Any other visitor (a `caissa.pgn.BaseVisitor`) has
    /// its methods called in python-chess's order, `begin_headers` too.
    fn accept(slf: PyRef<'_, Self>, visitor: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let Some((flags, columns)) = exporter_options(visitor)? else {
            let walk = visitor.py().import("caissa.pgn")?.getattr("_accept")?;
            return Ok(walk.call1((slf, visitor))?.unbind());
        };
        let text = PgnGame::python_chess_text(&slf, flags, columns);
        Ok(visitor.call_method1("_take", (text,))?.unbind())
    }

    /// The game of `board`: its start and the moves pushed, the seven tag roster with `?` for
    /// what a board does not know and the `Result` of its outcome, and the `FEN` and `SetUp`
    /// tags when it did not start from the standard position (python-chess's
    /// `Game.from_board`); then the tags of `headers` (a `dict`, in its order), each set where
    /// the roster has it or added after. A tag name other than letters, digits and `_`, or a
    /// value with a line break, raises `ValueError`.
    ///
    /// >>> board = caissa.Board()
    /// >>> for san in ["f3", "e5", "g4", "Qh4"]:
    /// ...     _ = board.push_san(san)
    /// >>> game = caissa.pgn.Game.from_board(board, headers={"White": "Ann", "Annotator": "B"})
    /// >>> game.headers["White"], game.headers["Annotator"]
    /// ('Ann', 'B')
    /// >>> print(game.to_pgn().splitlines()[-1])
    /// 1. f3 e5 2. g4 Qh4# 0-1
    #[staticmethod]
    #[pyo3(signature = (board, *, headers = None))]
    fn from_board(
        py: Python<'_>,
        board: PyRef<'_, Board>,
        headers: Option<Bound<'_, PyDict>>,
    ) -> PyResult<Py<PgnGame>> {
        // An unfinished board has no game.
        board.game()?;
        let mut games = board.games();
        let mut tree = GameTree::from_game(games.next().expect("a board has a game"));
        start_tags_last(&mut tree.tags);
        // The games after null moves, each behind its `--`.
        let mut parent = None;
        while let Some(&next) = tree.children(parent).first() {
            parent = Some(next);
        }
        for game in games {
            let null = SanPlus {
                san: San::Null,
                suffix: None,
            };
            parent = Some(tree.add_move(parent, null));
            for (pos, &m) in game.positions().zip(game.moves()) {
                parent = Some(tree.add_move(parent, SanPlus::from_move(pos, m)));
            }
        }
        // The board's result: a repetition counts across the null moves.
        let marker = TerminationMarker::from_result(board.find_outcome(false)?.map(|o| o.result));
        tree.tags.insert("Result", marker.as_str());
        tree.termination_marker = Some(marker);
        for (name, value) in headers.iter().flat_map(|dict| dict.iter()) {
            let (name, value): (String, String) = (name.extract()?, value.extract()?);
            check_tag(&name, &value)?;
            tree.tags.insert(&name, &value);
        }
        let data = GameData::replayed(tree)
            .map_err(|e| PyValueError::new_err(format!("the tags give another start: {e}")))?;
        PgnGame::create(py, data)
    }

    /// Always empty: a game that cannot be read raises `PgnParseError` instead (python-chess
    /// keeps such games with their errors here).
    #[getter]
    fn errors(&self) -> Vec<String> {
        Vec::new()
    }

    /// The number of main-line moves.
    fn __len__(slf: PyRef<'_, Self>) -> usize {
        PgnGame::shared(&slf).main_ids().count()
    }

    fn __repr__(slf: PyRef<'_, Self>) -> String {
        let data = PgnGame::shared(&slf);
        let tag = |name: &str| data.tree.tags.get(name).unwrap_or("?").to_owned();
        format!(
            "<Game {} - {}, {} moves>",
            tag("White"),
            tag("Black"),
            data.main_ids().count()
        )
    }
}

impl PgnGame {
    /// The game as python-chess's exporters write it, with or without (`headers`, `comments`,
    /// `variations`): the tags it has, the roster first, a blank line (no tags, no line); the
    /// movetext in lines of at most `columns` characters broken as python-chess breaks them
    /// ([`wrap_as_python_chess`]) or, for `columns` `None`, on one line, each move's
    /// comments made one and its glyphs sorted, ended by the `Result` tag's value; no final
    /// newline. (`to_pgn` writes caissa's export format, which always has the roster.)
    fn python_chess_text(
        slf: &PyRef<'_, Self>,
        flags: (bool, bool, bool),
        columns: Option<usize>,
    ) -> String {
        python_chess_text(&PgnGame::shared(slf).tree, flags, columns)
    }

    /// `f` of each main-line node.
    fn main_nodes<T>(slf: &PyRef<'_, Self>, f: impl Fn(&Node) -> T) -> Vec<T> {
        let data = PgnGame::shared(slf);
        data.main_ids().map(|id| f(data.tree.node(id))).collect()
    }
}

/// `tree` as python-chess's exporters write a game, with or without (`headers`, `comments`,
/// `variations`): see [`PgnGame::python_chess_text`].
fn python_chess_text(
    tree: &GameTree,
    (headers, comments, variations): (bool, bool, bool),
    columns: Option<usize>,
) -> String {
    let mut tree = stripped(tree, comments, variations);
    let mut out = String::new();
    if headers {
        let mut ordered = Tags::new();
        for (name, value) in roster_first(&tree.tags) {
            ordered.push(name, value);
        }
        ordered.write_lines(&mut out);
        if !ordered.is_empty() {
            out.push('\n');
        }
    }
    // python-chess ends the movetext with the `Result` tag's value.
    let result = tree
        .tags
        .get("Result")
        .and_then(|r| r.parse().ok())
        .unwrap_or(TerminationMarker::Unknown);
    let movetext = python_chess_movetext(&mut tree, Layout::Compact, result);
    match columns {
        Some(columns) => wrap_as_python_chess(&mut out, &movetext, columns),
        None => out.push_str(&movetext),
    }
    out.trim_end().to_owned()
}
