//! A game as a tree, [`GameTree`]: tags, main line, variations, comments and glyphs.
//! [`GameTreeBuilder`] reads one, its tags as [`TagBytes`] until its movetext begins.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::ControlFlow;

use caissa_movegen::fen::{EnPassantMode, Fen};
use caissa_movegen::{CastlingMode, Move, Position};
use smallvec::SmallVec;

use super::error::{PgnError, PgnErrorKind};
use super::reader::is_plain_text;
use super::replay::{PgnReplayErrorKind, Replay};
use super::start::{StartError, StartTags};
use super::types::{
    Location, Nag, RawComment, RawTag, TerminationMarker, Tolerated, VariationChoice,
};
use super::visitor::{Flow, Visitor};
use crate::san::SanPlus;

/// The tag pairs of a game, in order. Names are case-sensitive; a name may appear twice.
///
/// The names and values are kept one after the other in one string: reading a game's tags
/// allocates once or twice for all of them, not twice for each.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Tags {
    /// Every tag's name and then its value, in order.
    text: String,
    /// Where each tag's name ends and then its value ends in `text`; the next tag begins there.
    ends: Vec<(usize, usize)>,
}

impl fmt::Debug for Tags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As a list of pairs, the way it reads.
        let pairs: Vec<(&str, &str)> = self.iter().collect();
        f.debug_tuple("Tags").field(&pairs).finish()
    }
}

impl Tags {
    /// No tags.
    #[must_use]
    pub const fn new() -> Tags {
        Tags {
            text: String::new(),
            ends: Vec::new(),
        }
    }

    /// Where tag `i`'s name and value lie in `text`.
    fn spans(&self, i: usize) -> (core::ops::Range<usize>, core::ops::Range<usize>) {
        let start = i.checked_sub(1).map_or(0, |before| self.ends[before].1);
        let (name_end, value_end) = self.ends[i];
        (start..name_end, name_end..value_end)
    }

    /// The index of the first tag named `name`: names compared as bytes, so that the tags
    /// that do not match are passed without slicing their text.
    fn position(&self, name: &str) -> Option<usize> {
        let text = self.text.as_bytes();
        let mut start = 0;
        for (i, &(name_end, value_end)) in self.ends.iter().enumerate() {
            if text.get(start..name_end) == Some(name.as_bytes()) {
                return Some(i);
            }
            start = value_end;
        }
        None
    }

    /// The value of the first tag named `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&str> {
        let (_, value) = self.spans(self.position(name)?);
        self.text.get(value)
    }

    /// Sets the tag named `name`, or adds it at the end. Of a name given twice, the first tag
    /// takes the value and the later ones go, so that every reader of the tags sees the value
    /// set (as [`Tags::get`] does, the first).
    pub fn insert(&mut self, name: &str, value: &str) {
        let Some(i) = self.position(name) else {
            self.push(name, value);
            return;
        };
        self.remove_later(i, name);
        let (_, old) = self.spans(i);
        let old_len = old.len();
        if self.text.get(old.clone()) == Some(value) {
            return;
        }
        self.text.replace_range(old, value);
        // The value's end and every later tag's ends move by the change in length.
        self.ends[i].1 = self.ends[i].1 - old_len + value.len();
        for (name_end, value_end) in &mut self.ends[i + 1..] {
            *name_end = *name_end - old_len + value.len();
            *value_end = *value_end - old_len + value.len();
        }
    }

    /// Removes the tags named `name` after the `i`th.
    fn remove_later(&mut self, i: usize, name: &str) {
        let mut j = i + 1;
        while j < self.ends.len() {
            if self.text.get(self.spans(j).0) == Some(name) {
                self.remove_at(j);
            } else {
                j += 1;
            }
        }
    }

    /// Adds a tag at the end, even if one with that name exists.
    pub fn push(&mut self, name: &str, value: &str) {
        self.text.push_str(name);
        let name_end = self.text.len();
        self.text.push_str(value);
        self.ends.push((name_end, self.text.len()));
    }

    /// Removes every tag, keeping the memory: tags read into it again allocate only when a
    /// game has more than any before.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// Removes every tag named `name`.
    pub fn remove(&mut self, name: &str) {
        while let Some(i) = self.position(name) {
            self.remove_at(i);
        }
    }

    /// Removes the `i`th tag.
    fn remove_at(&mut self, i: usize) {
        let (name_span, value_span) = self.spans(i);
        let removed = value_span.end - name_span.start;
        self.text.replace_range(name_span.start..value_span.end, "");
        self.ends.remove(i);
        for (name_end, value_end) in &mut self.ends[i..] {
            *name_end -= removed;
            *value_end -= removed;
        }
    }

    /// The tags in order, as `(name, value)`.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut start = 0;
        self.ends.iter().map(move |&(name_end, value_end)| {
            let (name, value) = self.text[start..value_end].split_at(name_end - start);
            start = value_end;
            (name, value)
        })
    }

    /// The bytes of all the names and values together.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// How many tags there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Sets the tags that give `start` as a game's start position, as the PGN standard has
    /// them: `SetUp "1"` and `FEN` when it is not the standard one (the move counters
    /// included), and `Variant "Chess960"` (with `SetUp` and `FEN` always) for Chess960
    /// castling. For the standard start in standard chess it removes them.
    ///
    /// ```
    /// use caissa_notation::Position;
    /// use caissa_notation::fen::Fen;
    /// use caissa_notation::pgn::Tags;
    ///
    /// let mut tags = Tags::new();
    /// // The standard position after 1. Nf3 Nf6 2. Ng1 Ng8: its move numbers are not the start's.
    /// let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3";
    /// tags.set_start(&fen.parse::<Fen>()?.into_position(Default::default())?);
    /// assert_eq!(tags.get("FEN"), Some(fen));
    /// tags.set_start(&Position::standard());
    /// assert!(tags.is_empty());
    /// let start = Position::chess960(518).expect("a Chess960 number");
    /// tags.set_start(&start);
    /// assert_eq!(tags.get("Variant"), Some("Chess960"));
    /// assert_eq!(tags.start().position(), Ok(start));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_start(&mut self, start: &Position) {
        let chess960 = start.castling_mode() == CastlingMode::Chess960;
        for name in ["Variant", "SetUp", "FEN"] {
            self.remove(name);
        }
        if chess960 {
            self.insert("Variant", "Chess960");
        }
        // `Position`'s equality leaves out the move counters, which the FEN keeps.
        let standard =
            *start == Position::standard() && start.halfmoves() == 0 && start.fullmoves() == 1;
        if chess960 || !standard {
            self.insert("SetUp", "1");
            self.insert(
                "FEN",
                &Fen::from_position(start, EnPassantMode::Legal).to_string(),
            );
        }
    }

    /// The start tags (`FEN`, `Variant`), collected for replaying.
    #[must_use]
    pub fn start(&self) -> StartTags {
        let mut start = StartTags::default();
        for (name, value) in self.iter() {
            start.observe(
                name.as_bytes(),
                RawTag::new(value.as_bytes()),
                Location::default(),
            );
        }
        start
    }
}

/// Identifies a move of a [`GameTree`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(u32);

impl NodeId {
    /// The move's place in the order moves were added to its game, from 0: an index for
    /// tables kept beside a [`GameTree`] (as [`GameTree::replay_all`] gives).
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move of a [`GameTree`] with its annotations and its continuations. (Equality of nodes also
/// compares their places in the game; [`GameTree`]'s equality compares trees.)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// The move as written.
    pub san: SanPlus,
    /// Its glyphs, in order.
    pub nags: Vec<Nag>,
    /// Comments before the move; only a line's first move has them (`( {Or} 1. d4 )`).
    pub comments_before: Vec<String>,
    /// Comments after the move.
    pub comments: Vec<String>,
    parent: Option<NodeId>,
    /// Inline for the one continuation most moves have: a node is made for every move read,
    /// and this saves an allocation for each.
    children: SmallVec<[NodeId; 1]>,
    /// Whether [`GameTree::remove`] took the move out of the game (it, or a move before it).
    removed: bool,
}

impl Node {
    fn new(san: SanPlus, parent: Option<NodeId>) -> Node {
        Node {
            san,
            nags: Vec::new(),
            comments_before: Vec::new(),
            comments: Vec::new(),
            parent,
            children: SmallVec::new(),
            removed: false,
        }
    }

    /// The move this one follows, `None` for a first move.
    #[must_use]
    pub const fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// The moves that follow: the first is the main continuation, the others are variations.
    #[must_use]
    pub fn children(&self) -> &[NodeId] {
        &self.children
    }
}

/// A game: tags, moves as a tree, comments, glyphs and the result.
///
/// The moves live in one flat arena ([`GameTree::node`]), so that no operation on a game, not even
/// dropping it, recurses on the depth of its variations.
///
/// Comment text is kept with its whitespace normalized (each run of spaces, tabs and newlines
/// made one space, ends trimmed; empty comments dropped), so that writing a game and reading it
/// back gives the same game.
///
/// Two games are equal when they have the same tags, comments and termination marker, and the
/// same tree:
/// the same moves with the same annotations, children in the same order. The order in which
/// moves were added does not matter.
#[derive(Clone, Debug, Default)]
pub struct GameTree {
    /// The tag pairs.
    pub tags: Tags,
    /// Comments before the first move (all comments, if the game has no moves).
    pub comments: Vec<String>,
    /// The game termination marker, if the movetext has one.
    pub termination_marker: Option<TerminationMarker>,
    /// What a lenient reader ([`Reader::lenient`](super::Reader::lenient)) read past to make
    /// this game, with where it is written (empty otherwise): how the game was read, not part
    /// of it, so neither compared nor written.
    pub tolerated: Vec<(Location, Tolerated)>,
    nodes: Vec<Node>,
    roots: Vec<NodeId>,
    /// Moves of the arena that [`GameTree::remove`] took out of the game.
    removed: usize,
}

impl GameTree {
    /// A game without tags or moves.
    #[must_use]
    pub fn new() -> GameTree {
        GameTree::default()
    }

    /// The move `id`.
    ///
    /// # Panics
    ///
    /// If `id` belongs to another game.
    #[must_use]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0 as usize]
    }

    /// The move `id`, to annotate it.
    ///
    /// # Panics
    ///
    /// If `id` belongs to another game.
    pub fn node_mut(&mut self, id: NodeId) -> &mut Node {
        &mut self.nodes[id.0 as usize]
    }

    /// Every move, in the order they were added.
    pub(super) fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The first moves: the first is the main line's, the others start variations.
    #[must_use]
    pub fn roots(&self) -> &[NodeId] {
        &self.roots
    }

    /// The moves that follow `parent` (the first moves for `None`).
    #[must_use]
    pub fn children(&self, parent: Option<NodeId>) -> &[NodeId] {
        match parent {
            Some(id) => &self.node(id).children,
            None => &self.roots,
        }
    }

    /// How many moves the game has, in all lines.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len() - self.removed
    }

    /// Whether the game has no moves.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a move after `parent` (`None`: a first move), as the main continuation if it is the
    /// first, else as a variation.
    ///
    /// # Panics
    ///
    /// If `parent` belongs to another game, or the game already has 2³² moves.
    pub fn add_move(&mut self, parent: Option<NodeId>, san: SanPlus) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 moves"));
        let mut node = Node::new(san, parent);
        // A move after one taken out of the game is out of it too.
        if parent.is_some_and(|p| self.nodes[p.index()].removed) {
            node.removed = true;
            self.removed += 1;
        }
        self.nodes.push(node);
        match parent {
            Some(p) => self.nodes[p.0 as usize].children.push(id),
            None => self.roots.push(id),
        }
        id
    }

    /// The list `id` stands in (its parent's children, or the first moves) and its place there.
    fn siblings_mut(&mut self, id: NodeId) -> (&mut [NodeId], usize) {
        let list: &mut [NodeId] = match self.node(id).parent {
            Some(parent) => &mut self.nodes[parent.index()].children,
            None => &mut self.roots,
        };
        let at = list.iter().position(|&n| n == id).unwrap_or(list.len());
        (list, at)
    }

    /// Makes `id` its parent's main continuation (the first of the list), the others keeping
    /// their order. Nothing changes for a move that was removed.
    ///
    /// # Panics
    ///
    /// If `id` belongs to another game.
    ///
    /// ```
    /// use caissa_notation::pgn::{GameTreeBuilder, Reader};
    ///
    /// let pgn = b"1. e4 (1. d4) (1. c4) e5 *";
    /// let mut tree = Reader::new(&pgn[..]).read_game(&mut GameTreeBuilder).expect("a game")?;
    /// tree.promote_to_main(tree.roots()[2]);
    /// assert_eq!(tree.to_export_string().lines().last(), Some("1. c4 ( 1. e4 e5 ) ( 1. d4 ) *"));
    /// tree.demote(tree.roots()[0]);
    /// tree.remove(tree.roots()[2]);
    /// assert_eq!(tree.to_export_string().lines().last(), Some("1. e4 ( 1. c4 ) 1... e5 *"));
    /// assert_eq!(tree.len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn promote_to_main(&mut self, id: NodeId) {
        let (list, at) = self.siblings_mut(id);
        if at < list.len() {
            list[..=at].rotate_right(1);
        }
    }

    /// Moves `id` one place up in its parent's list (becoming the main continuation from the
    /// second place); nothing changes for the first or a removed move.
    ///
    /// # Panics
    ///
    /// If `id` belongs to another game.
    pub fn promote(&mut self, id: NodeId) {
        let (list, at) = self.siblings_mut(id);
        if at > 0 && at < list.len() {
            list.swap(at - 1, at);
        }
    }

    /// Moves `id` one place down in its parent's list; nothing changes for the last or a removed
    /// move.
    ///
    /// # Panics
    ///
    /// If `id` belongs to another game.
    pub fn demote(&mut self, id: NodeId) {
        let (list, at) = self.siblings_mut(id);
        if at + 1 < list.len() {
            list.swap(at, at + 1);
        }
    }

    /// Whether `id` is still in the game: every move from the first to it is listed by the
    /// move before it ([`GameTree::remove`] took none of them out).
    ///
    /// # Panics
    ///
    /// If `id` belongs to another game.
    #[must_use]
    pub fn is_in_game(&self, id: NodeId) -> bool {
        !self.node(id).removed
    }

    /// Takes `id` and the moves after it out of the game: its parent no longer lists it. Their
    /// ids stay valid (the arena keeps them, [`GameTree::node`] still reads them) but belong to
    /// no line; removing a move that is no longer in the game changes nothing.
    ///
    /// # Panics
    ///
    /// If `id` belongs to another game.
    pub fn remove(&mut self, id: NodeId) {
        if !self.is_in_game(id) {
            return;
        }
        let parent = self.node(id).parent;
        match parent {
            Some(p) => self.nodes[p.index()].children.retain(|n| *n != id),
            None => self.roots.retain(|n| *n != id),
        }
        let mut stack = vec![id];
        while let Some(next) = stack.pop() {
            self.removed += 1;
            let node = &mut self.nodes[next.index()];
            node.removed = true;
            stack.extend_from_slice(&node.children);
        }
    }

    /// The main line's moves.
    pub fn mainline(&self) -> impl Iterator<Item = &Node> {
        core::iter::successors(self.roots.first(), |&&id| self.node(id).children.first())
            .map(|&id| self.node(id))
    }

    /// The start position, from the `FEN` and `Variant` tags.
    ///
    /// # Errors
    ///
    /// [`StartError`] as [`StartTags::position`] gives it.
    pub fn start_position(&self) -> Result<Position, StartError> {
        self.tags.start().position()
    }

    /// The main line replayed from the start position: each move with the positions before and
    /// after it. The iterator ends after the last move, or after the first error.
    ///
    /// ```
    /// use caissa_board::Square;
    /// use caissa_movegen::Move;
    /// use caissa_notation::pgn::{GameTreeBuilder, Reader};
    ///
    /// let pgn = b"1. f3 e5 (1... e6) 2. g4 Qh4# 0-1";
    /// let tree = Reader::new(&pgn[..]).read_game(&mut GameTreeBuilder).expect("a game")?;
    /// let moves = tree.mainline_moves().collect::<Result<Vec<_>, _>>()?;
    /// assert_eq!(moves.len(), 4);
    /// assert_eq!(moves[3].played, Some(Move::normal(Square::D8, Square::H4)));
    /// assert!(moves[3].after.is_checkmate());
    /// assert_eq!(moves[3].before, moves[2].after);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mainline_moves(&self) -> MainlineMoves<'_> {
        match self.start_position() {
            Ok(start) => self.mainline_moves_from(start),
            Err(error) => MainlineMoves {
                failed: Some(error.into()),
                ..self.mainline_moves_from(Position::standard())
            },
        }
    }

    /// The main line replayed from `start`, which the caller has read from the tags.
    pub(super) fn mainline_moves_from(&self, start: Position) -> MainlineMoves<'_> {
        MainlineMoves {
            tree: self,
            next: self.roots.first().copied(),
            replay: Replay::new(start),
            failed: None,
        }
    }

    /// Every move of every line replayed from `start`, depth first (each move before its
    /// variations' moves): the move of each node, by [`NodeId::index`]; `None` for a null
    /// move (`--`), which passes the turn, and for moves [`GameTree::remove`] took out.
    ///
    /// # Errors
    ///
    /// [`TreeReplayError`] for the first move, in that order, that does not fit its position.
    ///
    /// ```
    /// use caissa_board::Square;
    /// use caissa_movegen::{Move, Position};
    /// use caissa_notation::pgn::{GameTreeBuilder, Reader};
    ///
    /// let pgn = b"1. e4 (1. d4 d5) e5 *";
    /// let tree = Reader::new(&pgn[..]).read_game(&mut GameTreeBuilder).expect("a game")?;
    /// let moves = tree.replay_all(Position::standard())?;
    /// let d5 = tree.node(tree.roots()[1]).children()[0];
    /// assert_eq!(moves[d5.index()], Some(Move::normal(Square::D7, Square::D5)));
    ///
    /// let bad = b"1. e4 (1. d4 Nf3) e5 *";
    /// let tree = Reader::new(&bad[..]).read_game(&mut GameTreeBuilder).expect("a game")?;
    /// assert_eq!(tree.replay_all(Position::standard()).unwrap_err().ply, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn replay_all(&self, start: Position) -> Result<Vec<Option<Move>>, TreeReplayError> {
        let mut moves = vec![None; self.nodes.len()];
        let mut stack: Vec<(NodeId, Position, usize)> =
            self.roots.iter().rev().map(|&id| (id, start, 0)).collect();
        while let Some((id, before, ply)) = stack.pop() {
            let node = self.node(id);
            let mut replay = Replay::new(before);
            moves[id.index()] = replay
                .play(node.san, Location::default())
                .map_err(|error| TreeReplayError {
                    ply,
                    kind: error.kind,
                })?;
            let after = *replay.position();
            stack.extend(
                node.children
                    .iter()
                    .rev()
                    .map(|&child| (child, after, ply + 1)),
            );
        }
        Ok(moves)
    }

    /// Writes the game in PGN export format (see [`GameTree::write`]).
    #[must_use]
    pub fn to_export_string(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, super::Layout::Export);
        out
    }
}

/// A move of a [`GameTree`]'s main line, replayed ([`GameTree::mainline_moves`]).
#[derive(Clone, Copy, Debug)]
pub struct MainlineMove<'a> {
    /// The move as the tree holds it, with its annotations.
    pub node: &'a Node,
    /// The position before the move.
    pub before: Position,
    /// The move; `None` for a null move (`--`), which passes the turn.
    pub played: Option<Move>,
    /// The position after the move.
    pub after: Position,
}

/// A move of a [`GameTree`]'s main line that cannot be replayed, or a start position that
/// cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {}: {kind}", .ply + 1)]
pub struct TreeReplayError {
    /// Where: the number of moves before the problem on its line, from the start (0 for the
    /// start position).
    pub ply: usize,
    /// What is wrong.
    pub kind: PgnReplayErrorKind,
}

impl From<StartError> for TreeReplayError {
    /// Start tags that give no position: an error before the first move (ply 0).
    fn from(error: StartError) -> TreeReplayError {
        TreeReplayError {
            ply: 0,
            kind: PgnReplayErrorKind::Pgn(PgnErrorKind::Start(error.kind)),
        }
    }
}

/// The iterator of [`GameTree::mainline_moves`].
#[derive(Clone, Debug)]
pub struct MainlineMoves<'a> {
    tree: &'a GameTree,
    next: Option<NodeId>,
    replay: Replay,
    /// An error to give next, and then nothing.
    failed: Option<TreeReplayError>,
}

impl<'a> Iterator for MainlineMoves<'a> {
    type Item = Result<MainlineMove<'a>, TreeReplayError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(error) = self.failed.take() {
            self.next = None;
            return Some(Err(error));
        }
        let node = self.tree.node(self.next?);
        let before = *self.replay.position();
        let ply = self.replay.moves() as usize;
        match self.replay.play(node.san, Location::default()) {
            Ok(played) => {
                self.next = node.children.first().copied();
                Some(Ok(MainlineMove {
                    node,
                    before,
                    played,
                    after: *self.replay.position(),
                }))
            }
            Err(error) => {
                self.next = None;
                Some(Err(TreeReplayError {
                    ply,
                    kind: error.kind,
                }))
            }
        }
    }
}

impl GameTree {
    /// Visits the tree depth first, children in order, calling `f` with each move, and with
    /// `None` after the last child of each list (so that the shape is part of what `f` sees).
    /// No recursion.
    fn walk<'a>(&'a self, mut f: impl FnMut(Option<&'a Node>)) {
        let mut stack: Vec<&[NodeId]> = vec![&self.roots];
        while let Some(list) = stack.last_mut() {
            match list.split_first() {
                Some((&id, rest)) => {
                    *list = rest;
                    let node = self.node(id);
                    f(Some(node));
                    stack.push(&node.children);
                }
                None => {
                    f(None);
                    stack.pop();
                }
            }
        }
    }

    /// The moves and list ends of [`GameTree::walk`], as a vector.
    fn shape(&self) -> Vec<Option<&Node>> {
        let mut shape = Vec::with_capacity(2 * self.nodes.len() + 1);
        self.walk(|node| shape.push(node));
        shape
    }
}

/// Compares the annotations of two nodes, not their place in the arena.
fn same_node(a: &Node, b: &Node) -> bool {
    a.san == b.san
        && a.nags == b.nags
        && a.comments_before == b.comments_before
        && a.comments == b.comments
}

impl PartialEq for GameTree {
    fn eq(&self, other: &GameTree) -> bool {
        self.tags == other.tags
            && self.comments == other.comments
            && self.termination_marker == other.termination_marker
            && self.len() == other.len()
            && self
                .shape()
                .iter()
                .zip(other.shape())
                .all(|pair| match pair {
                    (Some(a), Some(b)) => same_node(a, b),
                    (None, None) => true,
                    _ => false,
                })
    }
}

impl Eq for GameTree {}

impl Hash for GameTree {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.tags.hash(state);
        self.comments.hash(state);
        self.termination_marker.hash(state);
        self.walk(|node| match node {
            Some(node) => {
                1u8.hash(state);
                node.san.hash(state);
                node.nags.hash(state);
                node.comments_before.hash(state);
                node.comments.hash(state);
            }
            None => 0u8.hash(state),
        });
    }
}

impl fmt::Display for GameTree {
    /// The PGN export format.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_export_string())
    }
}

/// Tag pairs as a reader hands them over ([`Visitor::tag`]), before they are [`Tags`]: the
/// names and decoded values one after the other as bytes, checked as UTF-8 all at once when
/// they become [`Tags`] ([`TagBytes::into_tags`]). (A check of a few bytes costs about ten
/// instructions a byte, and one of a game's tags a fraction of one.) The tags of
/// [`GameTreeBuilder`].
///
/// ```
/// use caissa_notation::pgn::{RawTag, TagBytes};
///
/// let mut read = TagBytes::new();
/// read.push(b"White", RawTag::new(b"Caf\xc3\xa9 \\\"Le R\xc3\xa9gence\\\""));
/// read.push(b"Black", RawTag::new(b"Caf\xc3"));
/// let tags = read.into_tags();
/// assert_eq!(tags.get("White"), Some("Caf\u{e9} \"Le R\u{e9}gence\""));
/// assert_eq!(tags.get("Black"), Some("Caf\u{fffd}"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagBytes {
    /// Every tag's name and then its decoded value, in order.
    text: Vec<u8>,
    /// Where each tag's name ends and then its value ends in `text`; the next tag begins there.
    ends: Vec<(usize, usize)>,
}

impl TagBytes {
    /// No tags.
    #[must_use]
    pub const fn new() -> TagBytes {
        TagBytes {
            text: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// No tags, in the memory of `tags`: tags read into it again allocate only when a game has
    /// more than any before.
    #[must_use]
    pub fn reusing(tags: Tags) -> TagBytes {
        let Tags { text, mut ends } = tags;
        let mut text = text.into_bytes();
        text.clear();
        ends.clear();
        TagBytes { text, ends }
    }

    /// Adds a tag as read: its name, and its value decoded ([`RawTag::decode`]).
    pub fn push(&mut self, name: &[u8], value: RawTag<'_>) {
        self.text.extend_from_slice(name);
        let name_end = self.text.len();
        self.text.extend_from_slice(&value.decode());
        self.ends.push((name_end, self.text.len()));
    }

    /// Removes every tag, keeping the memory.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// The tags, each name and value with its bytes that are not UTF-8 as `U+FFFD`. The text is
    /// checked whole, and only when it is not UTF-8 throughout, or a character spans a name and
    /// a value, each name and value alone.
    #[must_use]
    pub fn into_tags(self) -> Tags {
        self.into_tags_reporting(|_| {})
    }

    /// [`TagBytes::into_tags`], telling `not_utf8` the index of each tag, in order, whose name
    /// or value has bytes that are not UTF-8 (made `U+FFFD`): what that check finds anyway, so
    /// that a tool can warn at no further cost.
    #[must_use]
    pub fn into_tags_reporting(self, mut not_utf8: impl FnMut(usize)) -> Tags {
        let TagBytes { text, ends } = self;
        let text = match String::from_utf8(text) {
            Ok(text)
                if ends.iter().all(|&(name_end, value_end)| {
                    text.is_char_boundary(name_end) && text.is_char_boundary(value_end)
                }) =>
            {
                return Tags { text, ends };
            }
            Ok(text) => text.into_bytes(),
            Err(error) => error.into_bytes(),
        };
        let mut tags = Tags {
            text: String::with_capacity(text.len()),
            ends: Vec::with_capacity(ends.len()),
        };
        let mut start = 0;
        for (i, (name_end, value_end)) in ends.into_iter().enumerate() {
            let name_is_utf8 = push_utf8_lossy(&mut tags.text, &text[start..name_end]);
            let name_written = tags.text.len();
            let value_is_utf8 = push_utf8_lossy(&mut tags.text, &text[name_end..value_end]);
            if !(name_is_utf8 && value_is_utf8) {
                not_utf8(i);
            }
            tags.ends.push((name_written, tags.text.len()));
            start = value_end;
        }
        tags
    }
}

/// A [`Visitor`] that builds a [`GameTree`] for each game read.
///
/// ```
/// use caissa_notation::pgn::{GameTreeBuilder, Reader};
///
/// let pgn = b"[Event \"Casual\"]\n\n1. e4 $1 {Best by test} (1. d4) 1... e5 *";
/// let game = Reader::new(&pgn[..]).read_game(&mut GameTreeBuilder).expect("a game")?;
/// assert_eq!(game.tags.get("Event"), Some("Casual"));
/// let e4 = game.node(game.roots()[0]);
/// assert_eq!(e4.comments, ["Best by test"]);
/// assert_eq!(game.node(game.roots()[1]).san.to_string(), "d4");
/// assert_eq!(game.mainline().map(|n| n.san.to_string()).collect::<Vec<_>>(), ["e4", "e5"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct GameTreeBuilder;

/// The per-game state of [`GameTreeBuilder`].
#[derive(Debug)]
pub struct GameTreeInProgress {
    tree: GameTree,
    /// The last move of the current line.
    current: Option<NodeId>,
    /// Whether the current line has a move yet.
    line_started: bool,
    /// For each open variation, the `current` of the line it interrupts.
    stack: Vec<Option<NodeId>>,
    /// Comments waiting for the first move of a variation.
    pending: Vec<String>,
}

impl GameTreeInProgress {
    /// A tree with these tags and no move yet, to build as [`GameTreeBuilder`] does: for a
    /// visitor that has made the tags [`Tags`] already.
    #[must_use]
    pub fn new(tags: Tags) -> GameTreeInProgress {
        GameTreeInProgress {
            tree: GameTree {
                tags,
                ..GameTree::default()
            },
            current: None,
            line_started: false,
            stack: Vec::new(),
            pending: Vec::new(),
        }
    }
}

/// Appends `bytes` to `out`, bytes that are not UTF-8 as `U+FFFD`: checked as UTF-8 first,
/// which nearly all text is, and copied whole. Returns whether they were UTF-8.
fn push_utf8_lossy(out: &mut String, bytes: &[u8]) -> bool {
    match core::str::from_utf8(bytes) {
        Ok(text) => {
            out.push_str(text);
            true
        }
        Err(_) => {
            out.push_str(&String::from_utf8_lossy(bytes));
            false
        }
    }
}

/// A comment's text as [`normalize_comment`] gives it, without a copy, when that is the text
/// itself with its ends trimmed: ASCII with single spaces inside and no `}`, as most comments
/// (`{ [%clk 0:03:00] }`) are. Bytes, known to be ASCII, so that a writer need not check them
/// as UTF-8.
pub(crate) fn plain_comment(text: &[u8]) -> Option<&[u8]> {
    let inside = text.trim_ascii();
    is_plain_text(inside).then_some(inside)
}

/// A comment's text with whitespace runs made single spaces and the ends trimmed, as a
/// [`GameTree`] keeps it (invalid UTF-8 replaced).
///
/// ```
/// use caissa_notation::pgn::normalize_comment;
///
/// assert_eq!(normalize_comment(b"  a\n good\tmove "), "a good move");
/// ```
#[must_use]
pub fn normalize_comment(text: &[u8]) -> String {
    match plain_comment(text).map(core::str::from_utf8) {
        Some(Ok(plain)) => plain.to_owned(),
        _ => {
            let mut out = String::new();
            normalize_words_into(text, &mut out);
            out
        }
    }
}

/// [`normalize_comment`] for a comment that is not plain ([`plain_comment`]), appended to
/// `out` (a writer that normalizes into one buffer allocates once, not once a comment): its
/// words, bytes that are not UTF-8 as `U+FFFD`, one space between each two.
pub(crate) fn normalize_words_into(text: &[u8], out: &mut String) {
    out.reserve(text.len());
    let start = out.len();
    for word in String::from_utf8_lossy(text).split_whitespace() {
        if out.len() > start {
            out.push(' ');
        }
        out.push_str(word);
    }
}

impl Visitor for GameTreeBuilder {
    type Tags = TagBytes;
    type Movetext = GameTreeInProgress;
    type Output = GameTree;
    type Error = PgnError;

    fn begin_game(&mut self, _at: Location) -> Flow<Self, TagBytes> {
        ControlFlow::Continue(TagBytes::new())
    }

    fn tag(
        &mut self,
        tags: &mut TagBytes,
        name: &[u8],
        value: RawTag<'_>,
        _at: Location,
    ) -> Flow<Self> {
        tags.push(name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: TagBytes) -> Flow<Self, GameTreeInProgress> {
        ControlFlow::Continue(GameTreeInProgress::new(tags.into_tags()))
    }

    fn san(&mut self, state: &mut GameTreeInProgress, san: SanPlus, _at: Location) -> Flow<Self> {
        let id = state.tree.add_move(state.current, san);
        state.tree.node_mut(id).comments_before = core::mem::take(&mut state.pending);
        state.current = Some(id);
        state.line_started = true;
        ControlFlow::Continue(())
    }

    fn nag(&mut self, state: &mut GameTreeInProgress, nag: Nag) -> Flow<Self> {
        if let Some(id) = state.current {
            state.tree.node_mut(id).nags.push(nag);
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        state: &mut GameTreeInProgress,
        comment: RawComment<'_>,
        _: Location,
    ) -> Flow<Self> {
        let text = normalize_comment(comment.as_bytes());
        if text.is_empty() {
            return ControlFlow::Continue(());
        }
        match state.current {
            Some(id) if state.line_started => state.tree.node_mut(id).comments.push(text),
            _ if state.stack.is_empty() => state.tree.comments.push(text),
            _ => state.pending.push(text),
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        state: &mut GameTreeInProgress,
        _at: Location,
    ) -> Flow<Self, VariationChoice> {
        state.stack.push(state.current);
        state.current = state.current.and_then(|id| state.tree.node(id).parent);
        state.line_started = false;
        ControlFlow::Continue(VariationChoice::Enter)
    }

    fn end_variation(&mut self, state: &mut GameTreeInProgress) -> Flow<Self> {
        state.pending.clear();
        state.current = state.stack.pop().flatten();
        state.line_started = true;
        ControlFlow::Continue(())
    }

    fn termination_marker(
        &mut self,
        state: &mut GameTreeInProgress,
        marker: TerminationMarker,
        _at: Location,
    ) -> Flow<Self> {
        state.tree.termination_marker = Some(marker);
        ControlFlow::Continue(())
    }

    fn tolerated(
        &mut self,
        state: &mut GameTreeInProgress,
        what: Tolerated,
        at: Location,
    ) -> Flow<Self> {
        state.tree.tolerated.push((at, what));
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, state: GameTreeInProgress) -> Result<GameTree, PgnError> {
        Ok(state.tree)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::hash_map::DefaultHasher;

    use caissa_board::Square;

    use super::*;

    fn hash(game: &GameTree) -> u64 {
        let mut hasher = DefaultHasher::new();
        game.hash(&mut hasher);
        hasher.finish()
    }

    /// The tags in one string read as the list of pairs they stand for, through every change.
    #[test]
    fn tags_read_as_their_pairs_after_every_change() {
        let mut tags = Tags::new();
        let mut pairs: Vec<(String, String)> = Vec::new();
        let check = |tags: &Tags, pairs: &[(String, String)]| {
            let read: Vec<(String, String)> = tags
                .iter()
                .map(|(n, v)| (n.to_owned(), v.to_owned()))
                .collect();
            assert_eq!(read, pairs);
            assert_eq!(tags.len(), pairs.len());
        };
        for (name, value) in [
            ("Event", "x"),
            ("Site", ""),
            ("White", "Ann"),
            ("Site", "b"),
        ] {
            tags.push(name, value);
            pairs.push((name.to_owned(), value.to_owned()));
            check(&tags, &pairs);
        }
        // Longer, shorter and empty values, first, middle and last; a new name at the end.
        for (name, value) in [
            ("Site", "a longer site"),
            ("Event", ""),
            ("White", "A"),
            ("Date", "?"),
        ] {
            tags.insert(name, value);
            // The first of the name takes the value, the later ones go (the second `Site`).
            match pairs.iter().position(|(n, _)| n == name) {
                Some(i) => {
                    pairs[i].1 = value.to_owned();
                    let mut k = 0;
                    pairs.retain(|(n, _)| {
                        k += 1;
                        k - 1 <= i || n != name
                    });
                }
                None => pairs.push((name.to_owned(), value.to_owned())),
            }
            check(&tags, &pairs);
        }
        assert_eq!(tags.get("Site"), Some("a longer site"));
        assert_eq!(tags.iter().filter(|(name, _)| *name == "Site").count(), 1);
        for name in ["Site", "Event", "Nothing"] {
            tags.remove(name);
            pairs.retain(|(n, _)| n != name);
            check(&tags, &pairs);
        }
        let mut again = Tags::new();
        again.push("White", "A");
        again.push("Date", "?");
        assert_eq!(tags, again);
        assert_eq!(
            format!("{again:?}"),
            r#"Tags([("White", "A"), ("Date", "?")])"#
        );
    }

    /// Tags read as bytes and checked whole are the tags of each name and value made text
    /// alone: invalid bytes, a character cut between a name and its value or between two tags,
    /// escapes, and memory reused from tags with more.
    #[test]
    fn tags_checked_whole_are_their_names_and_values_checked_alone() {
        let pairs: [(&[u8], &[u8]); 6] = [
            (b"Event", b"Rated \\\"Blitz\\\" game"),
            (b"White", "Caf\u{e9} \u{265a}".as_bytes()),
            (b"Black\xc3", b"\xa9t\xe9"),
            (b"Round\xe2\x99", b"\x9a"),
            (b"", b"\xff"),
            (b"Site", b"line\r\nend"),
        ];
        let mut read = TagBytes::new();
        let mut alone = Tags::new();
        for (i, &(name, value)) in pairs.iter().enumerate() {
            let value = RawTag::new(value);
            let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
            let (name_text, value_text) = (text(name), text(&value.decode()));
            // The pair alone, then after the others.
            let mut one = TagBytes::new();
            one.push(name, value);
            assert_eq!(
                one.into_tags().iter().next(),
                Some((&*name_text, &*value_text))
            );
            read.push(name, value);
            alone.push(&name_text, &value_text);
            assert_eq!(read.clone().into_tags(), alone, "{i}");
        }
        let mut reused = TagBytes::reusing(alone);
        assert_eq!(reused, TagBytes::new());
        reused.push(b"Event", RawTag::new(b"x"));
        assert_eq!(reused.into_tags().get("Event"), Some("x"));
    }

    fn read(pgn: &str) -> GameTree {
        super::super::Reader::new(pgn.as_bytes())
            .read_game(&mut GameTreeBuilder)
            .expect("a game")
            .expect("a well-formed game")
    }

    /// A lenient reader's tree lists what it read past, which is no part of the game: the
    /// tree equals and writes as the one read from the strict spelling.
    #[test]
    fn a_lenient_tree_lists_what_was_read_past() {
        use crate::pgn::Tolerated;
        let lenient =
            super::super::Reader::new(&b"1. e4 d5 2. exd5 e5 3. dxe6 e.p. 1-0 resigns"[..])
                .lenient(true)
                .read_game(&mut GameTreeBuilder)
                .expect("a game")
                .expect("read leniently");
        let at = |column| Location { line: 1, column };
        assert_eq!(
            lenient.tolerated,
            [
                (at(29), Tolerated::EnPassantSuffix),
                (at(38), Tolerated::AfterResult)
            ]
        );
        let strict = read("1. e4 d5 2. exd5 e5 3. dxe6 1-0");
        assert!(strict.tolerated.is_empty());
        assert_eq!(lenient, strict);
        assert_eq!(lenient.to_string(), strict.to_string());
    }

    /// Reordering and removing variations gives the game written that way, equal and with the
    /// same hash, and removed moves count no more.
    #[test]
    fn edited_trees_equal_the_games_written_so() {
        let mut tree = read("1. e4 (1. d4 d5 (1... Nf6 2. c4)) (1. c4) e5 2. Nf3 *");
        assert_eq!(tree.len(), 8);
        let d4 = tree.roots()[1];
        let nf6 = tree.node(d4).children()[1];
        tree.promote_to_main(nf6);
        tree.promote(tree.roots()[2]);
        let expected = read("1. e4 (1. c4) (1. d4 Nf6 (1... d5) 2. c4) e5 2. Nf3 *");
        assert_eq!(tree, expected);
        assert_eq!(hash(&tree), hash(&expected));
        tree.remove(d4);
        tree.remove(d4);
        // A move inside the line taken out is out already, and so is one added after it.
        assert!(!tree.is_in_game(nf6) && tree.is_in_game(tree.roots()[0]));
        tree.remove(nf6);
        let after = tree.add_move(Some(nf6), "c4".parse().expect("SAN"));
        assert!(!tree.is_in_game(after));
        let e4 = tree.roots()[0];
        tree.demote(e4);
        tree.demote(e4);
        let expected = read("1. c4 (1. e4 e5 2. Nf3) *");
        assert_eq!(tree.len(), 4);
        assert_eq!(tree, expected);
        assert_eq!(hash(&tree), hash(&expected));
        assert_ne!(tree, read("1. c4 (1. e4 e5) *"));
        // A removed move is still read, and editing it changes nothing in the game.
        assert_eq!(tree.node(nf6).san.to_string(), "Nf6");
        tree.promote_to_main(nf6);
        assert_eq!(tree, expected);
    }

    /// Every line is replayed, and a move that does not fit is found in a variation too.
    #[test]
    fn every_line_is_replayed() {
        let tree = read("1. e4 (1. d4 -- 2. c4) e5 (1... c5 2. Nf3) 2. Nf3 *");
        let moves = tree.replay_all(Position::standard()).expect("legal lines");
        assert_eq!(moves.len(), tree.len());
        let main: Vec<Option<Move>> = tree
            .mainline_moves()
            .map(|step| step.expect("a legal main line").played)
            .collect();
        let mut id = tree.roots()[0];
        for played in main {
            assert_eq!(moves[id.index()], played);
            id = tree.node(id).children().first().copied().unwrap_or(id);
        }
        let c5 = tree.node(tree.roots()[0]).children()[1];
        let nf3 = tree.node(c5).children()[0];
        assert_eq!(
            moves[nf3.index()],
            Some(Move::normal(Square::G1, Square::F3))
        );
        let null = tree.node(tree.roots()[1]).children()[0];
        assert_eq!(moves[null.index()], None);
        assert!(moves.iter().filter(|m| m.is_some()).count() == 7);
        let error = read("1. e4 e5 (1... c5 2. Nf3 Nf3) 2. Nf3 *")
            .replay_all(Position::standard())
            .expect_err("a knight that is not there");
        assert_eq!(error.ply, 3);
    }

    #[test]
    fn comments_are_normalised_with_or_without_the_shortcut() {
        for (raw, normal) in [
            (&b"[%clk 0:03:00]"[..], "[%clk 0:03:00]"),
            (b"", ""),
            (b" a", "a"),
            (b"a ", "a"),
            (b"a  b", "a b"),
            (b"a\nb\tc\r\n d", "a b c d"),
            ("caf\u{e9}  au lait".as_bytes(), "caf\u{e9} au lait"),
            ("a\u{a0}b".as_bytes(), "a b"),
            (b"bad \xff byte", "bad \u{fffd} byte"),
        ] {
            assert_eq!(normalize_comment(raw), normal, "{raw:?}");
        }
    }

    #[test]
    fn equality_compares_trees_not_insertion_order() {
        let san = |text: &str| text.parse::<SanPlus>().expect("SAN");
        // 1. e4 (1. d4 d5) e5, built in two orders.
        let mut a = GameTree::new();
        let e4 = a.add_move(None, san("e4"));
        let d4 = a.add_move(None, san("d4"));
        a.add_move(Some(e4), san("e5"));
        a.add_move(Some(d4), san("d5"));
        let mut b = GameTree::new();
        let e4 = b.add_move(None, san("e4"));
        b.add_move(Some(e4), san("e5"));
        let d4 = b.add_move(None, san("d4"));
        b.add_move(Some(d4), san("d5"));
        assert_eq!(a, b);
        assert_eq!(hash(&a), hash(&b));
        // The same moves in another shape differ: d5 after e5 instead of after d4.
        let mut c = GameTree::new();
        let e4 = c.add_move(None, san("e4"));
        c.add_move(None, san("d4"));
        let e5 = c.add_move(Some(e4), san("e5"));
        c.add_move(Some(e5), san("d5"));
        assert_ne!(a, c);
        b.node_mut(e4).nags.push(Nag(1));
        assert_ne!(a, b);
    }
}
