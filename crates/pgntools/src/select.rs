//! Selecting and rewriting games, one at a time: what each worker of [`select`](crate::select())
//! does with each game.
//!
//! A game passes the [`Filter`] on its tags first; one that fails is skipped by the reader
//! without a move being replayed (the header-only fast path). A game that passes is replayed,
//! every move checked, then held to the [`GameFilter`] (how the main line ends on the board,
//! what it contains, its length, a position it reaches, its first moves), and written in the [`Format`] asked for: in PGN, with each move
//! rewritten as canonical SAN from the position (`+` and `#` as they are on the board, long
//! algebraic or needlessly disambiguated input made short), the seven tag roster first, lines
//! under 80 columns, and what [`Strip`] says left out.
//!
//! PGN, and a row's movetext, is written as the game is read, by a [`MovetextWriter`], and no
//! game tree is built; a game whose parts come in an order the writer cannot follow is handed
//! back unwritten, for the worker to read it again and write it from its tree, which gives the
//! same text. [`SelectOptions::fen_comments`] are written from the tree.

use core::ops::ControlFlow;

use caissa_board::{CastlingSide, Color, Role};
use caissa_game::Game as History;
use caissa_game::dead::{is_dead, lacks_mating_material};
use caissa_movegen::{Move, Position, UciMove};
use caissa_notation::fen::{EnPassantMode, Fen};
use caissa_notation::pgn::commands::{Command, Score};
use caissa_notation::pgn::{
    Flow, GameTree, GameTreeBuilder, GameTreeInProgress, Layout, Location, MovetextWriter, Nag,
    PgnError, PgnReplayError, RawComment, RawTag, Replay, StartTags, TagBytes, Tags,
    TerminationMarker, Tolerated, VariationChoice, Visitor,
};
use caissa_notation::san::{San, SanPlus, Suffix};

use crate::dedupe::{GameKey, KeyHasher, Same};
use crate::filter::Filter;
use crate::material::Material;
use crate::openings::{Opening, Openings};
use crate::pattern::Pattern;
use crate::table::{Columns, Row};

/// What to leave out of the games written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Strip {
    /// Comments (`{...}`, `;...`).
    pub comments: bool,
    /// Annotation glyphs (`$1`, `!?`).
    pub nags: bool,
    /// Variations; they are then not replayed either.
    pub variations: bool,
    /// The commands in comments (`[%clk ...]`, `[%eval ...]`); a comment left empty goes.
    pub commands: bool,
}

/// How games are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// The PGN export format, moves rewritten as canonical SAN; each game followed by a blank
    /// line.
    #[default]
    Pgn,
    /// The main line's moves in UCI notation (`e2e4 e7e5 g1f3`, `0000` for a null move), one
    /// game per line.
    Uci,
    /// The main line's moves in long algebraic notation (`e2-e4 e7-e5 Ng1-f3 Bf8xc5+`,
    /// `e7-e8=Q`, `O-O`, `--` for a null move), one game per line.
    Lan,
    /// The main line's moves in canonical SAN (`e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6`, `+` and `#`
    /// as the board has them, `--` for a null move), one game per line: the movetext without
    /// numbers, result, comments, glyphs or variations.
    San,
    /// The FEN of each position of the main line, the start included, one per line.
    Fen,
    /// The EPD (the four fields of FEN, no move counters) of each position of the main line,
    /// the start included, one per line.
    Epd,
    /// A [`Row`] of the Arrow table of [`table`](crate::table), with these per-ply columns:
    /// the games come as [`Selection::Row`].
    Row(Columns),
    /// Nothing written: the game's [`GameKey`], which says what makes it the same as another
    /// ([`dedupe`](crate::dedupe)), as [`Selection::Key`].
    Key(Same),
}

impl Format {
    /// Whether the main line is wanted in UCI notation.
    const fn wants_uci(self) -> bool {
        matches!(self, Format::Uci | Format::Row(Columns { uci: true, .. }))
    }

    /// Whether the whole game is written (comments, glyphs, variations): the other formats
    /// skip them entirely.
    const fn writes_tree(self) -> bool {
        matches!(self, Format::Pgn | Format::Row(_))
    }

    /// The per-ply columns wanted, for a row.
    const fn ply_columns(self) -> Columns {
        match self {
            Format::Row(columns) => columns,
            Format::Pgn
            | Format::Uci
            | Format::Lan
            | Format::San
            | Format::Fen
            | Format::Epd
            | Format::Key(_) => Columns {
                uci: false,
                clocks: false,
                evals: false,
            },
        }
    }
}

/// What to select and how to write it.
#[derive(Clone, Debug, Default)]
pub struct SelectOptions {
    /// The tag filter every selected game passes (the empty [`Filter::all`] passes all).
    pub filter: Filter,
    /// What to leave out.
    pub strip: Strip,
    /// Whether to set the `PlyCount` tag to the main line's length (PGN).
    pub ply_count: bool,
    /// How to write.
    pub format: Format,
    /// Whether to set the `ECO` and `Opening` tags from the deepest named position of the
    /// main line ([`Openings::builtin`]); a game that reaches none keeps its tags.
    pub openings: bool,
    /// Whether to add a comment with the FEN of the position after each move (PGN).
    pub fen_comments: bool,
    /// Whether to make the `Result` tag and the termination marker say what the board says
    /// ([`board_result`]): the game is over there, or else the marker is known and the tag
    /// says otherwise (the marker wins).
    pub fix_result: bool,
    /// Conditions on the main line.
    pub game: GameFilter,
    /// Whether to select the well-formed games that fail `filter` or `game` instead of those
    /// that pass both (as `grep -v` does). Only the games replayed can be found broken, and
    /// those change with it: the games that fail the tags are replayed then, and those that
    /// pass them, where `game` asks nothing, are not.
    pub invert: bool,
    /// Whether to read leniently ([`Reader::lenient`](caissa_notation::pgn::Reader::lenient)):
    /// `e.p.` after a move, the result `1/2`, glyphs above `$255`, text after the result on
    /// its lines and a `"` left unescaped in a tag value are read past and listed in
    /// [`InputGame::warnings`] instead of making the game broken.
    pub lenient: bool,
    /// A tag whose value each game selected in PGN or as a row hands over, as written, in
    /// [`InputGame::tag_value`] (for `pgn split --by`, which files games by it).
    pub tag_value: Option<String>,
}

/// Conditions on a game's main line, decided by replaying it; all must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameFilter {
    /// How the main line ends on the board.
    pub ending: Option<Ending>,
    /// What the main line must contain, every one of them.
    pub contains: Vec<Feature>,
    /// The fewest plies of the main line.
    pub min_plies: Option<u64>,
    /// The most plies of the main line.
    pub max_plies: Option<u64>,
    /// A position the main line reaches (its start included), compared as FIDE's "same
    /// position": pieces, side to move, castling and en passant rights.
    pub position: Option<Position>,
    /// The moves the main line starts with.
    pub moves: Vec<San>,
    /// A material signature a position of the main line (its start included) has.
    pub material: Option<Material>,
    /// A pattern a position of the main line (its start included) matches.
    pub pattern: Option<Pattern>,
}

/// How a main line ends, on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The side to move is checkmated.
    Checkmate,
    /// The side to move is stalemated.
    Stalemate,
    /// The last position stands for the third time or more (threefold or fivefold).
    Repetition,
    /// Fifty moves or more by each side without a capture or a pawn move.
    Fifty,
    /// Neither side has the material to checkmate (`lacks_mating_material` for both).
    Insufficient,
    /// Neither side can checkmate by any series of legal moves (the dead-position analysis).
    Dead,
}

/// Something a main line may contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// A promotion to a knight, bishop or rook.
    Underpromotion,
    /// Castling, either side.
    Castling,
    /// Castling kingside.
    KingsideCastling,
    /// Castling queenside.
    QueensideCastling,
    /// An en passant capture.
    EnPassant,
}

/// A name that is none of those a list allows: what was given, and what may be.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown `{given}`: expected one of {}", .expected.join(", "))]
pub struct ParseNameError {
    /// The name given.
    pub given: String,
    /// The names allowed.
    pub expected: &'static [&'static str],
}

/// The value of `names` whose name is `text`.
pub(crate) fn by_name<T: Copy>(
    text: &str,
    names: &'static [&'static str],
    values: &[T],
) -> Result<T, ParseNameError> {
    names
        .iter()
        .position(|name| *name == text.trim())
        .map(|i| values[i])
        .ok_or_else(|| ParseNameError {
            given: text.to_owned(),
            expected: names,
        })
}

impl Ending {
    /// Every ending, in the order of [`Ending::NAMES`].
    pub const ALL: [Ending; 6] = [
        Ending::Checkmate,
        Ending::Stalemate,
        Ending::Repetition,
        Ending::Fifty,
        Ending::Insufficient,
        Ending::Dead,
    ];

    /// The names read by [`Ending::from_str`](core::str::FromStr).
    pub const NAMES: &'static [&'static str] = &[
        "checkmate",
        "stalemate",
        "repetition",
        "fifty",
        "insufficient",
        "dead",
    ];
}

impl core::str::FromStr for Ending {
    type Err = ParseNameError;

    fn from_str(text: &str) -> Result<Ending, ParseNameError> {
        by_name(text, Ending::NAMES, &Ending::ALL)
    }
}

impl Feature {
    /// Every feature, in the order of [`Feature::NAMES`].
    pub const ALL: [Feature; 5] = [
        Feature::Underpromotion,
        Feature::Castling,
        Feature::KingsideCastling,
        Feature::QueensideCastling,
        Feature::EnPassant,
    ];

    /// The names read by [`Feature::from_str`](core::str::FromStr).
    pub const NAMES: &'static [&'static str] = &[
        "underpromotion",
        "castling",
        "kingside-castling",
        "queenside-castling",
        "en-passant",
    ];

    fn of(m: Move) -> impl Iterator<Item = Feature> {
        let castling = m.castling_side().map(|side| match side {
            CastlingSide::KingSide => Feature::KingsideCastling,
            CastlingSide::QueenSide => Feature::QueensideCastling,
        });
        let under = m.promotion_role().filter(|&r| r != Role::Queen);
        [
            under.map(|_| Feature::Underpromotion),
            castling.map(|_| Feature::Castling),
            castling,
            m.is_en_passant().then_some(Feature::EnPassant),
        ]
        .into_iter()
        .flatten()
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl core::str::FromStr for Feature {
    type Err = ParseNameError;

    fn from_str(text: &str) -> Result<Feature, ParseNameError> {
        by_name(text, Feature::NAMES, &Feature::ALL)
    }
}

impl GameFilter {
    /// Whether the filter asks anything.
    fn is_empty(&self) -> bool {
        *self == GameFilter::default()
    }
}

/// What the main line has shown so far, for the [`GameFilter`].
#[derive(Debug)]
struct MainLine {
    plies: u64,
    /// [`Feature::bit`]s seen.
    features: u8,
    reached: bool,
    /// Whether the moves so far agree with [`GameFilter::moves`].
    prefix: bool,
    /// Whether a position so far has [`GameFilter::material`].
    material: bool,
    /// Whether a position so far matches [`GameFilter::pattern`].
    pattern: bool,
    /// The positions, for [`Ending::Repetition`]; `None` after a null move.
    history: Option<History>,
}

impl MainLine {
    fn new(filter: &GameFilter, start: &Position) -> MainLine {
        MainLine {
            plies: 0,
            features: 0,
            reached: filter.position.as_ref() == Some(start),
            prefix: true,
            material: filter.material.is_some_and(|m| m.matches(start.board())),
            pattern: filter.pattern.is_some_and(|p| p.matches(start)),
            history: (filter.ending == Some(Ending::Repetition)).then(|| History::new(*start)),
        }
    }

    fn play(
        &mut self,
        filter: &GameFilter,
        before: &Position,
        played: Option<Move>,
        after: &Position,
    ) {
        let wanted = usize::try_from(self.plies)
            .ok()
            .and_then(|i| filter.moves.get(i));
        self.plies += 1;
        if let Some(san) = wanted {
            self.prefix &= played.is_some_and(|m| san.to_move(before) == Ok(m));
        }
        self.reached |= filter.position.as_ref() == Some(after);
        self.material |= filter.material.is_some_and(|m| m.matches(after.board()));
        self.pattern |= filter.pattern.is_some_and(|p| p.matches(after));
        match played {
            Some(m) => {
                self.features |= Feature::of(m).fold(0, |bits, f| bits | f.bit());
                if let Some(history) = &mut self.history {
                    history.play_unchecked(m);
                }
            }
            None => self.history = None,
        }
    }

    fn passes(&self, filter: &GameFilter, end: &Position) -> bool {
        let ending = filter.ending.is_none_or(|ending| match ending {
            Ending::Checkmate => end.is_checkmate(),
            Ending::Stalemate => end.is_stalemate(),
            Ending::Repetition => self.history.as_ref().is_some_and(|h| h.repetitions() >= 3),
            Ending::Fifty => end.halfmoves() >= 100,
            Ending::Insufficient => Color::ALL
                .into_iter()
                .all(|color| lacks_mating_material(end.board(), color)),
            Ending::Dead => is_dead(end),
        });
        ending
            && filter.contains.iter().all(|f| self.features & f.bit() != 0)
            && filter.min_plies.is_none_or(|min| self.plies >= min)
            && filter.max_plies.is_none_or(|max| self.plies <= max)
            && (filter.position.is_none() || self.reached)
            && (filter.material.is_none() || self.material)
            && (filter.pattern.is_none() || self.pattern)
            && self.prefix
            && self.plies >= filter.moves.len() as u64
    }
}

/// What became of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Not selected: its tags fail the filter (its moves not replayed), or its main line the
    /// conditions on it; with [`SelectOptions::invert`], it passes both.
    Unmatched,
    /// Selected, and written as this text.
    Matched(String),
    /// Selected, as a row of the table ([`Format::Row`]).
    Row(Box<Row>),
    /// Selected, as its key ([`Format::Key`]).
    Key(GameKey),
    /// Skipped, as asked ([`select_skipping`](crate::select_skipping)): cut out unread, or read
    /// to its end, but neither replayed nor written.
    Skipped,
    /// It cannot be read or replayed.
    Broken(BrokenGame),
}

/// A game that cannot be read or replayed, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenGame {
    /// The problem, its location relative to the input.
    pub error: PgnReplayError,
    /// The problem's byte offset in the input.
    pub offset: u64,
    /// The game's bytes, exactly as in the input (up to the next game's first byte).
    pub bytes: Vec<u8>,
}

/// One game of the input, in order, with what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputGame {
    /// Where its first byte is in the input.
    pub offset: u64,
    /// Its line and column.
    pub location: Location,
    /// What became of it.
    pub selection: Selection,
    /// What to warn of in it, where, in order: what a lenient reading read past
    /// ([`SelectOptions::lenient`]) and text written otherwise than read.
    pub warnings: Vec<(Location, Warning)>,
    /// The value of [`SelectOptions::tag_value`]'s tag as the game is written; `None` without
    /// the tag, or for a game not written.
    pub tag_value: Option<String>,
}

/// What a game selected is warned of: it is written, but not quite as it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Warning {
    /// A spelling that a lenient reading read past ([`SelectOptions::lenient`]).
    Tolerated(Tolerated),
    /// A tag value with bytes that are not UTF-8, written with `U+FFFD` for them.
    TagNotUtf8,
    /// A comment with bytes that are not UTF-8, written with `U+FFFD` for them.
    CommentNotUtf8,
}

impl core::fmt::Display for Warning {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Warning::Tolerated(what) => what.fmt(f),
            Warning::TagNotUtf8 => {
                f.write_str("tag value is not UTF-8: written with U+FFFD for the bad bytes")
            }
            Warning::CommentNotUtf8 => {
                f.write_str("comment is not UTF-8: written with U+FFFD for the bad bytes")
            }
        }
    }
}

/// The [`Visitor`] of a worker: the filter on the tags, then the replay, and the game written
/// as it is read, or from its tree.
#[derive(Debug)]
pub(crate) struct Selector<'a> {
    options: &'a SelectOptions,
    builder: GameTreeBuilder,
    /// Whether every game is written from its tree, which is built for it: for the games
    /// whose parts come in an order the writer cannot follow ([`Selected::OutOfOrder`]).
    trees: bool,
    /// The writer of PGN movetext, kept from game to game while no game holds it.
    movetext: MovetextWriter,
    /// Where the game being read starts.
    pub(crate) start: Location,
    /// What to warn of in it.
    pub(crate) warnings: Vec<(Location, Warning)>,
    /// Where each of its tags read into [`TagBytes`] is, to warn of one at its place.
    tag_places: Vec<Location>,
    /// The value of [`SelectOptions::tag_value`]'s tag in the game written last.
    pub(crate) tag_value: Option<String>,
    /// The tags of a game done with, emptied for the next game's: reading tags allocates only
    /// while games come with more of them.
    spare_tags: TagBytes,
    /// Where the games to skip start, the last first: each is read to its end, its tags and
    /// moves left aside, not replayed, and given as [`Selected::Skipped`].
    pub(crate) skip: Vec<Location>,
    /// Whether the game being read is one to skip.
    skimming: bool,
    /// The game's start position tags as read, with where they are, so that a start they do
    /// not give is reported at its tag.
    start_tags: StartTags,
    /// The only tags kept, when the games' tags are not written (the start position's, the
    /// filter's, [`SelectOptions::tag_value`]'s); `None`: every tag.
    kept_tags: Option<Vec<&'a str>>,
    /// Whether anything is done with comments: they are written, or give a row's clocks or
    /// evaluations. Told once, so that the formats that take none pass them at no cost.
    takes_comments: bool,
    /// Whether comments are written as they are read, their commands kept, and give no
    /// row's clocks or evaluations: then a game written as read hands each to its writer.
    comments_as_read: bool,
    /// The moves of the game keyed last ([`KeyHasher`]), emptied for the next game's.
    spare_moves: Vec<u8>,
    /// What is done with each move.
    move_work: MoveWork,
    /// What the game filter needs of the game's main line; `None` without one. Here, not in
    /// [`InProgress`], which is moved whole from call to call, so that a game moves fewer bytes.
    line: Option<MainLine>,
}

/// What a [`Selector`] does with each move, told once from its options.
#[derive(Clone, Copy, Debug)]
struct MoveWork {
    /// Whether the canonical SAN is wanted: the whole game is written, or LAN or SAN lines.
    canonical: bool,
    /// Whether the whole game is written ([`Format::writes_tree`]).
    tree: bool,
    /// How the main line is written a ply at a time ([`write_ply`]), if it is.
    line: Option<PlyText>,
    /// Whether the main line's clocks and evaluations are wanted ([`Columns`]).
    clocks: bool,
    evals: bool,
}

impl MoveWork {
    fn new(format: Format) -> MoveWork {
        let columns = format.ply_columns();
        MoveWork {
            canonical: format.writes_tree() || PlyText::of(format).is_some_and(PlyText::is_san),
            tree: format.writes_tree(),
            line: PlyText::of(format),
            clocks: columns.clocks,
            evals: columns.evals,
        }
    }
}

/// A selected game while it is read.
#[derive(Debug)]
pub(crate) struct InProgress {
    written: Written,
    replay: Replay,
    /// How many variations are open.
    depth: usize,
    /// The main line as the line formats write it: UCI ([`Format::wants_uci`]) or LAN moves,
    /// or FEN or EPD lines.
    text: String,
    /// The clock after each main-line ply, in milliseconds, for [`Columns::clocks`].
    clocks: Vec<Option<i32>>,
    /// The evaluation after each main-line ply, for [`Columns::evals`].
    evals: Vec<Option<Score>>,
    /// The main line's plies so far.
    plies: usize,
    /// The deepest named position of the main line so far, for [`SelectOptions::openings`].
    opening: Option<&'static Opening>,
    /// The game's key so far, for [`Format::Key`]; the tree is then left empty.
    key: Option<KeyHasher>,
    /// Whether the last move written gave check, and whether it mates is not known yet: the
    /// current line's next move says it does not, and where the line ends, the position says
    /// ([`InProgress::settle_check`]).
    unsettled_check: bool,
}

/// How a selected game is written while it is read.
#[derive(Debug)]
enum Written {
    /// Into its tree, written at the end: with [`SelectOptions::fen_comments`], which come
    /// before the move's glyphs, in a [`Selector::trees`], and (the tree then left empty) in
    /// the formats that do not write the whole game.
    Tree(GameTreeInProgress),
    /// The movetext as it is read; the tags and the termination marker are kept for the end.
    Movetext {
        tags: Tags,
        writer: MovetextWriter,
        marker: Option<TerminationMarker>,
    },
}

/// A selected game's text at its end, the tags and the termination marker taken out.
#[derive(Debug)]
enum Body {
    /// Its tree, to be written.
    Tree(GameTree),
    /// Its movetext, written but for the result.
    Movetext(MovetextWriter),
}

impl InProgress {
    /// Makes the `+` of the last move written a `#` if the position the current line
    /// reached is checkmate: at the line's end, where no next move says it is not.
    fn settle_check(&mut self) {
        if core::mem::take(&mut self.unsettled_check)
            && let Written::Movetext { writer, .. } = &mut self.written
            && self.replay.position().is_checkmate()
        {
            writer.checkmate();
        }
    }

    /// Takes the clock and the evaluation of a main-line comment, for the last ply's row values
    /// (a command that does not read is left out, as are those before the first move).
    fn note_commands(&mut self, comment: &RawComment<'_>) {
        if self.clocks.is_empty() && self.evals.is_empty() {
            return;
        }
        for command in comment.commands().flatten() {
            match command {
                Command::Clock(clock) => {
                    if let Some(last) = self.clocks.last_mut() {
                        *last = Some(i32::try_from(clock.as_millis()).unwrap_or(i32::MAX));
                    }
                }
                Command::Eval(eval) => {
                    if let Some(last) = self.evals.last_mut() {
                        *last = Some(eval.score);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The result a main line ending in `end` has under the Laws whatever the players wrote: a
/// win for the side that checkmated (5.1.1), a draw when the side to move is stalemated
/// (5.2.1), the position is dead (5.2.2, insufficient material included) or 75 moves passed
/// without a capture or a pawn move (9.6.2). `None` when the board does not end the game.
#[must_use]
pub fn board_result(end: &Position) -> Option<TerminationMarker> {
    if end.is_checkmate() {
        return Some(match end.turn() {
            Color::White => TerminationMarker::BlackWins,
            Color::Black => TerminationMarker::WhiteWins,
        });
    }
    (end.is_stalemate() || end.halfmoves() >= 150 || is_dead(end))
        .then_some(TerminationMarker::Draw)
}

/// [`SelectOptions::fix_result`] on a game with these tags and termination marker whose main
/// line ends in `end`.
fn fix_result(tags: &mut Tags, marker: &mut Option<TerminationMarker>, end: &Position) {
    let tag = tags.get("Result").and_then(|r| r.parse().ok());
    let fixed = board_result(end).or(match (*marker, tag) {
        (Some(marker), Some(tag)) if marker != TerminationMarker::Unknown && marker != tag => {
            Some(marker)
        }
        _ => None,
    });
    if let Some(result) = fixed {
        tags.insert("Result", result.as_str());
        *marker = Some(result);
    }
}

/// The main line's text as the line formats start it: the start position's line in
/// [`Format::Fen`] and [`Format::Epd`], with room for the moves of most games in UCI, LAN and
/// SAN (which then never make it grow); empty in the other formats.
fn line_start(format: Format, pos: &Position) -> String {
    match PlyText::of(format) {
        Some(PlyText::Position(format)) => {
            let mut text = String::with_capacity(MOVE_LINE_CAPACITY);
            push_position_line(&mut text, format, pos);
            text
        }
        Some(_) => String::with_capacity(MOVE_LINE_CAPACITY),
        None => String::new(),
    }
}

/// Appends the line of `pos` in [`Format::Fen`] or [`Format::Epd`] to `text`.
fn push_position_line(text: &mut String, format: Format, pos: &Position) {
    let setup = Fen::from_position(pos, EnPassantMode::Legal).into_setup();
    // Writing to a String cannot fail. An EPD line without operations is the FEN's first
    // four fields.
    let _ = match format {
        Format::Epd => setup.write_position_to(text),
        _ => setup.write_to(text),
    };
    text.push('\n');
}

/// The tags a selector keeps: all (`None`) when the games' tags are
/// written or make their keys, else those that decide what is written.
fn kept_tags(options: &SelectOptions) -> Option<Vec<&str>> {
    let written = options.format.writes_tree() || options.format == Format::Key(Same::MovesAndTags);
    (!written).then(|| {
        let mut kept = vec!["FEN", "SetUp", "Variant"];
        kept.extend(options.filter.tag_names());
        kept.extend(options.tag_value.as_deref());
        kept
    })
}

/// Whether a selector does anything with comments ([`Selector::takes_comments`]).
fn takes_comments(options: &SelectOptions) -> bool {
    let columns = options.format.ply_columns();
    (options.format.writes_tree() && !options.strip.comments) || columns.clocks || columns.evals
}

/// Whether a selector hands comments to the writer as read ([`Selector::comments_as_read`]).
fn comments_as_read(options: &SelectOptions) -> bool {
    let columns = options.format.ply_columns();
    options.format.writes_tree()
        && !options.strip.comments
        && !options.strip.commands
        && !columns.clocks
        && !columns.evals
}

/// The bytes reserved for a game's moves in UCI, LAN or SAN: about 150 plies.
const MOVE_LINE_CAPACITY: usize = 1024;

/// How a line format writes each main-line ply ([`write_ply`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PlyText {
    /// The move in UCI ([`Format::wants_uci`]).
    Uci,
    /// The move in LAN.
    Lan,
    /// The move in canonical SAN.
    San,
    /// The position reached, as [`Format::Fen`] or [`Format::Epd`] (this one) write it.
    Position(Format),
}

impl PlyText {
    /// How `format` writes each ply, if it writes the main line a ply at a time.
    fn of(format: Format) -> Option<PlyText> {
        match format {
            Format::Fen | Format::Epd => Some(PlyText::Position(format)),
            Format::Lan => Some(PlyText::Lan),
            Format::San => Some(PlyText::San),
            _ if format.wants_uci() => Some(PlyText::Uci),
            _ => None,
        }
    }

    /// Whether it writes the move's canonical SAN, or LAN with its `+` or `#`.
    const fn is_san(self) -> bool {
        matches!(self, PlyText::Lan | PlyText::San)
    }
}

/// Appends a main-line ply to `text` as `how` says: `before` is the position it is played
/// in, `played` the move (`None` for a null move), `canonical` its canonical SAN (wanted for
/// LAN and SAN), `after` the position it leads to.
fn write_ply(
    text: &mut String,
    how: PlyText,
    before: &Position,
    played: Option<Move>,
    canonical: Option<SanPlus>,
    after: &Position,
) {
    let word = |text: &mut String| {
        if !text.is_empty() {
            text.push(' ');
        }
    };
    match (how, played) {
        (PlyText::Position(format), _) => push_position_line(text, format, after),
        (PlyText::Lan, Some(m)) => {
            word(text);
            let suffix = canonical.and_then(|san| san.suffix);
            caissa_notation::san::append_lan(text, before, m, suffix);
        }
        (PlyText::San, Some(_)) => {
            word(text);
            if let Some(san) = canonical {
                san.append_to(text);
            }
        }
        (PlyText::Lan | PlyText::San, None) => {
            word(text);
            text.push_str("--");
        }
        (PlyText::Uci, Some(m)) => {
            word(text);
            UciMove::from_move(before, m).append_to(text);
        }
        (PlyText::Uci, None) => {
            word(text);
            text.push_str("0000");
        }
    }
}

/// What a [`Selector`] makes of a well-formed game.
#[derive(Debug)]
pub(crate) enum Selected {
    Unmatched,
    Matched(String),
    Row(Box<Row>),
    Key(GameKey),
    /// Read but not replayed nor written: the caller asked to skip it.
    Skipped,
    /// Selected, but not written: its parts came in an order that the movetext writer cannot
    /// follow ([`MovetextWriter`]), so it is to be read again by a [`Selector::trees`].
    OutOfOrder,
}

impl Selector<'_> {
    /// A selector that writes each game as it is read, where it can.
    pub(crate) fn new(options: &SelectOptions) -> Selector<'_> {
        Selector {
            options,
            builder: GameTreeBuilder,
            trees: false,
            movetext: MovetextWriter::new(Layout::Export, 0),
            start: Location::default(),
            warnings: Vec::new(),
            tag_places: Vec::new(),
            tag_value: None,
            spare_tags: TagBytes::new(),
            skip: Vec::new(),
            skimming: false,
            start_tags: StartTags::default(),
            kept_tags: kept_tags(options),
            takes_comments: takes_comments(options),
            comments_as_read: comments_as_read(options),
            spare_moves: Vec::new(),
            move_work: MoveWork::new(options.format),
            line: None,
        }
    }

    /// A selector that writes each game from its tree.
    pub(crate) fn trees(options: &SelectOptions) -> Selector<'_> {
        Selector {
            trees: true,
            ..Selector::new(options)
        }
    }

    /// [`Visitor::comment`] for a selector that [takes comments](Selector::takes_comments).
    fn take_comment(
        &mut self,
        game: &mut Option<InProgress>,
        comment: RawComment<'_>,
        at: Location,
    ) -> Flow<Self> {
        let Some(game) = game else {
            return ControlFlow::Continue(());
        };
        if game.depth == 0 {
            game.note_commands(&comment);
        }
        let strip = self.options.strip;
        if strip.comments || !self.options.format.writes_tree() {
            return ControlFlow::Continue(());
        }
        // The text without its commands, and a tree's comment, are made text before the writer
        // sees them: told here, on these rarer ways.
        let mut not_utf8 = (strip.commands || matches!(game.written, Written::Tree(_)))
            && core::str::from_utf8(comment.as_bytes()).is_err();
        let without_commands = strip
            .commands
            .then(|| comment.commands().text_without_commands());
        let comment = match &without_commands {
            Some(text) => comment.with_bytes(text.as_bytes()),
            None => comment,
        };
        let flow = match &mut game.written {
            Written::Movetext { writer, .. } => {
                not_utf8 |= writer.comment(comment);
                ControlFlow::Continue(())
            }
            Written::Tree(tree) => built(self.builder.comment(tree, comment, at)),
        };
        if not_utf8 {
            self.warnings.push((at, Warning::CommentNotUtf8));
        }
        flow
    }

    /// What `text` makes of `writer`'s movetext ended by `result`, or `None` if its
    /// parts came out of order; the writer is kept for the next game.
    fn finish_movetext<T>(
        &mut self,
        mut writer: MovetextWriter,
        result: TerminationMarker,
        text: impl FnOnce(&str) -> T,
    ) -> Option<T> {
        let written = writer.finish(result).map(text);
        self.movetext = writer;
        written
    }
}

/// The tree builder's flow as the selector's: the builder never stops a game, and if it did,
/// its error would stop this one.
fn built<T>(flow: Flow<GameTreeBuilder, T>) -> Flow<Selector<'static>, T> {
    match flow {
        ControlFlow::Continue(value) => ControlFlow::Continue(value),
        ControlFlow::Break(result) => {
            ControlFlow::Break(result.map(|_| Selected::Unmatched).map_err(Into::into))
        }
    }
}

impl Visitor for Selector<'_> {
    type Tags = TagBytes;
    /// `None` for a game skimmed (see [`Selector::skip`]).
    type Movetext = Option<InProgress>;
    type Output = Selected;
    type Error = PgnReplayError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, TagBytes> {
        self.start = at;
        self.warnings.clear();
        self.tag_places.clear();
        self.tag_value = None;
        // A place to skip passed with no game starting there names no game: dropped.
        while self.skip.last().is_some_and(|&skip| skip < at) {
            self.skip.pop();
        }
        // A game to skip is read to its end all the same, with nothing done of what it holds, so
        // that it ends exactly where it would end read: the reader's own skipping stops at
        // other places when what follows is not a game's start.
        self.skimming = self.skip.last() == Some(&at);
        if self.skimming {
            self.skip.pop();
        }
        self.start_tags = StartTags::default();
        let mut tags = core::mem::take(&mut self.spare_tags);
        tags.clear();
        ControlFlow::Continue(tags)
    }

    fn tolerated(
        &mut self,
        _: &mut Option<InProgress>,
        what: Tolerated,
        at: Location,
    ) -> Flow<Self> {
        // A game skipped is not looked at, whether it is cut out unread or read to its end.
        if !self.skimming {
            self.warnings.push((at, Warning::Tolerated(what)));
        }
        ControlFlow::Continue(())
    }

    fn tag(
        &mut self,
        tags: &mut TagBytes,
        name: &[u8],
        value: RawTag<'_>,
        at: Location,
    ) -> Flow<Self> {
        if self.skimming {
            return ControlFlow::Continue(());
        }
        self.start_tags.observe(name, value, at);
        if let Some(kept) = &self.kept_tags
            && !kept.iter().any(|kept| kept.as_bytes() == name)
        {
            return ControlFlow::Continue(());
        }
        self.tag_places.push(at);
        tags.push(name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: TagBytes) -> Flow<Self, Option<InProgress>> {
        if self.skimming {
            self.spare_tags = tags;
            return ControlFlow::Continue(None);
        }
        let read_past = self.warnings.len();
        let tags = tags.into_tags_reporting(|i| {
            self.warnings
                .push((self.tag_places[i], Warning::TagNotUtf8));
        });
        if self.warnings.len() > read_past {
            // In the places' order, among what a lenient reading read past in the tags.
            self.warnings.sort_by_key(|&(at, _)| at);
        }
        let game = &self.options.game;
        // The tags alone decide a game that fails them, and one that passes them when the
        // main line has no condition to meet.
        let tags_pass = self.options.filter.matches(&tags);
        if tags_pass == self.options.invert && (!tags_pass || game.is_empty()) {
            self.spare_tags = TagBytes::reusing(tags);
            return ControlFlow::Break(Ok(Selected::Unmatched));
        }
        let start_tags = core::mem::take(&mut self.start_tags);
        let start = match start_tags.position() {
            Ok(start) => start,
            Err(error) => return ControlFlow::Break(Err(PgnError::from(error).into())),
        };
        let format = self.options.format;
        let key = match format {
            Format::Key(same) => Some(KeyHasher::new(
                same,
                &start,
                &tags,
                core::mem::take(&mut self.spare_moves),
            )),
            _ => None,
        };
        let layout = match format {
            Format::Pgn => Some(Layout::Export),
            Format::Row(_) => Some(Layout::Compact),
            _ => None,
        };
        let written = if let Some(layout) = layout
            && !self.trees
            && !self.options.fen_comments
        {
            let mut writer = core::mem::replace(&mut self.movetext, MovetextWriter::new(layout, 0));
            writer.restart(layout, start_tags.first_ply());
            Written::Movetext {
                tags,
                writer,
                marker: None,
            }
        } else {
            Written::Tree(GameTreeInProgress::new(tags))
        };
        self.line = (tags_pass && !game.is_empty()).then(|| MainLine::new(game, &start));
        ControlFlow::Continue(Some(InProgress {
            written,
            replay: Replay::new(start),
            depth: 0,
            text: line_start(format, &start),
            clocks: Vec::new(),
            evals: Vec::new(),
            plies: 0,
            opening: None,
            key,
            unsettled_check: false,
        }))
    }

    fn san(&mut self, game: &mut Option<InProgress>, san: SanPlus, at: Location) -> Flow<Self> {
        let Some(game) = game else {
            return ControlFlow::Continue(());
        };
        let played = match game.replay.play(san, at) {
            Ok(played) => played,
            Err(error) => return ControlFlow::Break(Err(error)),
        };
        let (before, after) = (game.replay.before(), game.replay.position());
        if let (Some(line), 0) = (&mut self.line, game.depth) {
            line.play(&self.options.game, before, played, after);
        }
        if let Some(key) = &mut game.key {
            if game.depth == 0 {
                key.play(played);
            }
            return ControlFlow::Continue(());
        }
        let work = self.move_work;
        // The canonical SAN (its `+` and `#` found on the board) for the whole game and LAN
        // only. A movetext writer is told of a mate later ([`InProgress::settle_check`]): the
        // line's next move, if any, says there is none, and the mate test is spared.
        let canonical = work.canonical.then(|| {
            played.map_or(san, |m| SanPlus {
                san: San::from_resolved(san.san, before, m),
                suffix: if matches!(game.written, Written::Movetext { .. }) {
                    after.is_check().then_some(Suffix::Check)
                } else {
                    Suffix::from_position(after)
                },
            })
        });
        if game.depth == 0 {
            if work.clocks {
                game.clocks.push(None);
            }
            if work.evals {
                game.evals.push(None);
            }
            if let Some(how) = work.line {
                write_ply(&mut game.text, how, before, played, canonical, after);
            }
            if self.options.openings {
                let openings = Openings::builtin();
                if game.plies < openings.max_plies() {
                    game.opening = openings.get(after).or(game.opening);
                }
            }
            game.plies += 1;
        }
        let Some(canonical) = canonical.filter(|_| work.tree) else {
            return ControlFlow::Continue(());
        };
        let tree = match &mut game.written {
            Written::Movetext { writer, .. } => {
                writer.san(canonical);
                game.unsettled_check = canonical.suffix.is_some();
                return ControlFlow::Continue(());
            }
            Written::Tree(tree) => tree,
        };
        let fen = self
            .options
            .fen_comments
            .then(|| Fen::from_position(after, EnPassantMode::Legal).to_string());
        built(self.builder.san(tree, canonical, at))?;
        match fen {
            Some(fen) => built(
                self.builder
                    .comment(tree, RawComment::braced(fen.as_bytes()), at),
            ),
            None => ControlFlow::Continue(()),
        }
    }

    fn nag(&mut self, game: &mut Option<InProgress>, nag: Nag) -> Flow<Self> {
        let Some(game) = game else {
            return ControlFlow::Continue(());
        };
        if self.options.strip.nags || !self.options.format.writes_tree() {
            return ControlFlow::Continue(());
        }
        match &mut game.written {
            Written::Movetext { writer, .. } => {
                writer.nag(nag);
                ControlFlow::Continue(())
            }
            Written::Tree(tree) => built(self.builder.nag(tree, nag)),
        }
    }

    #[inline]
    fn comment(
        &mut self,
        game: &mut Option<InProgress>,
        comment: RawComment<'_>,
        at: Location,
    ) -> Flow<Self> {
        if !self.takes_comments {
            return ControlFlow::Continue(());
        }
        // The usual way, a comment written as it is, in line.
        if self.comments_as_read
            && let Some(InProgress {
                written: Written::Movetext { writer, .. },
                ..
            }) = game
        {
            if writer.comment(comment) {
                self.warnings.push((at, Warning::CommentNotUtf8));
            }
            return ControlFlow::Continue(());
        }
        self.take_comment(game, comment, at)
    }

    fn begin_variation(
        &mut self,
        game: &mut Option<InProgress>,
        at: Location,
    ) -> Flow<Self, VariationChoice> {
        if self.options.strip.variations {
            return ControlFlow::Continue(VariationChoice::Skip);
        }
        // A skimmed game's variations are read as the game's would be.
        let Some(game) = game else {
            return ControlFlow::Continue(VariationChoice::Enter);
        };
        game.settle_check();
        if let Err(error) = game.replay.begin_variation(at) {
            return ControlFlow::Break(Err(error));
        }
        game.depth += 1;
        if !self.options.format.writes_tree() {
            return ControlFlow::Continue(VariationChoice::Enter);
        }
        match &mut game.written {
            Written::Movetext { writer, .. } => {
                writer.begin_variation();
                ControlFlow::Continue(VariationChoice::Enter)
            }
            Written::Tree(tree) => built(self.builder.begin_variation(tree, at)),
        }
    }

    fn end_variation(&mut self, game: &mut Option<InProgress>) -> Flow<Self> {
        let Some(game) = game else {
            return ControlFlow::Continue(());
        };
        game.settle_check();
        game.replay.end_variation();
        game.depth -= 1;
        if !self.options.format.writes_tree() {
            return ControlFlow::Continue(());
        }
        match &mut game.written {
            Written::Movetext { writer, .. } => {
                writer.end_variation();
                ControlFlow::Continue(())
            }
            Written::Tree(tree) => built(self.builder.end_variation(tree)),
        }
    }

    fn termination_marker(
        &mut self,
        game: &mut Option<InProgress>,
        marker: TerminationMarker,
        at: Location,
    ) -> Flow<Self> {
        let Some(game) = game else {
            return ControlFlow::Continue(());
        };
        if !self.options.format.writes_tree() {
            return ControlFlow::Continue(());
        }
        match &mut game.written {
            Written::Movetext { marker: kept, .. } => {
                *kept = Some(marker);
                ControlFlow::Continue(())
            }
            Written::Tree(tree) => built(self.builder.termination_marker(tree, marker, at)),
        }
    }

    fn end_game(&mut self, game: Option<InProgress>) -> Result<Selected, PgnReplayError> {
        let Some(mut game) = game else {
            return Ok(Selected::Skipped);
        };
        game.settle_check();
        let InProgress {
            written,
            replay,
            text: line_text,
            clocks,
            evals,
            opening,
            key,
            ..
        } = game;
        let end = replay.finish();
        if let Some(line) = self.line.take()
            && line.passes(&self.options.game, &end.position) == self.options.invert
        {
            return Ok(Selected::Unmatched);
        }
        if let Some(key) = key {
            let (key, moves) = key.finish();
            self.spare_moves = moves;
            return Ok(Selected::Key(key));
        }
        let (mut tags, mut marker, written) = match written {
            Written::Tree(tree) => {
                let mut tree = self.builder.end_game(tree)?;
                let tags = core::mem::take(&mut tree.tags);
                (tags, tree.termination_marker, Body::Tree(tree))
            }
            Written::Movetext {
                tags,
                writer,
                marker,
            } => (tags, marker, Body::Movetext(writer)),
        };
        if self.options.fix_result {
            fix_result(&mut tags, &mut marker, &end.position);
        }
        if let Some(opening) = opening {
            tags.insert("ECO", opening.eco);
            tags.insert("Opening", opening.name);
        }
        if let Some(name) = &self.options.tag_value {
            self.tag_value = tags.get(name).map(str::to_owned);
        }
        let selected = match self.options.format {
            Format::Pgn => {
                if self.options.ply_count {
                    tags.insert("PlyCount", &end.mainline_moves.to_string());
                }
                let text = match written {
                    Body::Tree(mut tree) => {
                        tree.tags = core::mem::take(&mut tags);
                        tree.termination_marker = marker;
                        let mut text = String::new();
                        tree.write(&mut text, Layout::Export);
                        Some(text)
                    }
                    Body::Movetext(writer) => {
                        let result = tags.movetext_result(marker);
                        self.finish_movetext(writer, result, |movetext| {
                            let mut text =
                                String::with_capacity(tags.written_size() + movetext.len() + 1);
                            tags.write(&mut text, Layout::Export, marker);
                            text.push_str(movetext);
                            text
                        })
                    }
                };
                text.map_or(Selected::OutOfOrder, |text| Selected::Matched(text + "\n"))
            }
            Format::Uci | Format::Lan | Format::San => Selected::Matched(line_text + "\n"),
            Format::Fen | Format::Epd | Format::Key(_) => Selected::Matched(line_text),
            Format::Row(_) => {
                let result = tags.movetext_result(marker);
                let row = match written {
                    // Its tags were taken out: the moves are numbered from theirs.
                    Body::Tree(tree) => {
                        let mut text = String::new();
                        let first_ply = tags.start().first_ply();
                        tree.write_movetext(&mut text, Layout::Compact, first_ply, result);
                        Some(Row::new(tags.iter(), &text))
                    }
                    Body::Movetext(writer) => {
                        self.finish_movetext(writer, result, |text| Row::new(tags.iter(), text))
                    }
                };
                row.map_or(Selected::OutOfOrder, |row| {
                    Selected::Row(Box::new(row.with_plies(line_text, clocks, evals)))
                })
            }
        };
        self.spare_tags = TagBytes::reusing(tags);
        Ok(selected)
    }

    fn end_malformed_game(&mut self, game: Option<InProgress>, error: PgnError) -> PgnReplayError {
        let Some(game) = game else {
            return error.into();
        };
        PgnReplayError {
            replayed: game.replay.moves(),
            ..error.into()
        }
    }
}
