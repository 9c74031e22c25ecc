//! Writing PGN. [`MovetextWriter`] owns the movetext's layout: it writes the parts of a
//! movetext as they come (moves numbered, comments and glyphs, variations, the result) and
//! wraps the lines. [`GameTree::write`] walks a tree in the order the export format has its
//! parts and hands them to one; a reader's visitor can hand them over as it reads them, and
//! build no tree ([`MovetextWriter`] says when that gives the same text). [`Tags::write`]
//! writes the tag pairs.

use core::ops::Range;

use smallvec::SmallVec;

use super::reader::{is_clock_text, looks_like_tag_line};
use super::tree::{GameTree, NodeId, Tags, normalize_words_into, plain_comment};
use super::types::{Nag, RawComment, TerminationMarker};
use crate::san::{SanPlus, Suffix};

/// The line width of the export format.
pub const EXPORT_WIDTH: usize = 80;

/// The names of the seven tag roster, in the order the export format writes them, with the
/// value written when a game lacks the tag (`Result` takes the movetext's result instead, if
/// there is one).
pub const SEVEN_TAG_ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// How [`GameTree::write`] lays a game out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// The PGN export format: the seven tag roster first and in order (with placeholder values
    /// for missing ones), then the other tags in their order, one per line; a blank line; the
    /// movetext in lines of at most 80 columns (a longer comment word gets a line of its own);
    /// a final newline.
    #[default]
    Export,
    /// The whole game on one line without a final newline: the tags as they are (no roster
    /// added), then the movetext. A comment containing `}` has it replaced by `)`, since the
    /// line leaves no room for a `;` comment.
    Compact,
}

/// Appends tokens with spaces between them, wrapping lines at [`EXPORT_WIDTH`] in the export
/// layout.
#[derive(Debug)]
struct Tokens {
    /// The text, UTF-8 throughout: only `str`s and ASCII comments (see [`plain_comment`]) are
    /// appended. Bytes rather than a `String`, so that a comment read as bytes is written
    /// without checking its UTF-8 a second time; the text is checked once, when given out.
    out: Vec<u8>,
    layout: Layout,
    /// Length of the current line; `None` right after a `;` comment, which forces a new line.
    column: Option<usize>,
}

impl Tokens {
    /// Appends a token of ASCII only (moves, numbers, glyphs, parentheses), whose width is its
    /// length.
    fn push_ascii(&mut self, token: &str) {
        debug_assert!(token.is_ascii());
        self.push_parts(&[token.as_bytes()], token.len(), true);
    }

    /// Appends one token made of `parts` (UTF-8 each), written one after the other, `width`
    /// characters in all; `breakable` says whether a new line may start before it. Pieces
    /// rather than one string, so that a token made of several (`{ `, a word, ` }`) is not
    /// first copied into a string of its own.
    fn push_parts(&mut self, parts: &[&[u8]], width: usize, breakable: bool) {
        self.separate(width, breakable);
        for part in parts {
            self.out.extend_from_slice(part);
        }
    }

    /// Appends a [`Token`] as [`Tokens::push_parts`] would, in one copy of a constant size
    /// (the separator, kept at the front of the token's buffer, then the token; the part past
    /// its end dropped), which needs no call.
    fn push_token(&mut self, token: &mut Token) {
        let separator = self.separator(token.len, true);
        let skip = usize::from(separator.is_none());
        token.bytes[0] = separator.unwrap_or(b' ');
        let end = self.out.len() + 1 - skip + token.len;
        self.out
            .extend_from_slice(&token.bytes[skip..skip + Token::COPIED]);
        self.out.truncate(end);
    }

    /// Appends a comment that breaks nowhere as `{ text }`, `width` characters in all
    /// ([`Tokens::push_parts`], with the braces copied as constants: this runs for most
    /// comments).
    fn push_braced(&mut self, text: &[u8], width: usize) {
        self.separate(width, true);
        self.out.reserve(text.len() + 4);
        self.out.extend_from_slice(b"{ ");
        self.out.extend_from_slice(text);
        self.out.extend_from_slice(b" }");
    }

    /// Appends a clock comment, its text padded as read (` [%clk 0:05:00] `, [`is_clock_text`]),
    /// as `{ [%clk 0:05:00] }`: [`Tokens::comment`] gives the same (a comment of one word never
    /// breaks), in one copy of a constant size.
    fn push_clock(&mut self, padded: &[u8; 16]) {
        self.separate(padded.len() + 2, true);
        let mut braced = [b'}'; 18];
        braced[0] = b'{';
        braced[1..17].copy_from_slice(padded);
        self.out.extend_from_slice(&braced);
    }

    /// Starts a token `width` characters wide: a space before it, or a line break where the
    /// export layout's line would grow too long (if `breakable`) or where a `;` comment ended
    /// the line; the column then counts the token as written.
    fn separate(&mut self, width: usize, breakable: bool) {
        if let Some(separator) = self.separator(width, breakable) {
            self.out.push(separator);
        }
    }

    /// [`Tokens::separate`]'s separator, which the caller writes: none at the start of a line.
    #[inline]
    fn separator(&mut self, width: usize, breakable: bool) -> Option<u8> {
        let (column, separator) = match self.column {
            Some(0) => (0, None),
            Some(column)
                if column + 1 + width <= EXPORT_WIDTH
                    || !breakable
                    || self.layout == Layout::Compact =>
            {
                (column + 1, Some(b' '))
            }
            _ => (0, Some(b'\n')),
        };
        self.column = Some(column + width);
        separator
    }

    /// Appends a comment's text (UTF-8, its words separated by single spaces) as `{ words }`,
    /// wrapped between words; or as `; text` followed by a line break when it contains `}`
    /// (export layout only). `braceless` says that the text is known to hold no `}`.
    fn comment(&mut self, text: &[u8], braceless: bool) {
        // The compact layout breaks no line: any width that is not 0 keeps the spaces right.
        let width = match self.layout {
            Layout::Compact => text.len(),
            Layout::Export => width_of(text),
        };
        // Without a branch a byte: comments are short, and nearly all have no `}`.
        if !braceless && text.iter().fold(false, |brace, &b| brace | (b == b'}')) {
            if self.layout == Layout::Export {
                self.push_parts(&[b"; ", text], 2 + width, true);
                self.column = None;
            } else {
                let text: Vec<u8> = text
                    .iter()
                    .map(|&b| if b == b'}' { b')' } else { b })
                    .collect();
                self.push_braced(&text, width + 4);
            }
            return;
        }
        // A comment that fits on the line breaks nowhere: one token. So does every comment
        // of the compact layout, which never breaks a line, and a comment of one word (as a
        // lone `[%clk 0:03:00]`), which may only start a line.
        if self.layout == Layout::Compact
            || self
                .column
                .is_some_and(|column| column + 1 + width + 4 <= EXPORT_WIDTH)
            || is_one_word(text)
        {
            self.push_braced(text, width + 4);
            return;
        }
        let mut words = comment_words(text).peekable();
        let mut first = true;
        while let Some(word) = words.next() {
            let next = words.peek().cloned();
            let open: &[u8] = if first { b"{ " } else { b"" };
            let close: &[u8] = if next.is_none() { b" }" } else { b"" };
            // A line starting with `%` would be an escape line, and one starting like a tag pair
            // would end the comment: keep such words on the current line.
            let with_next = &text[word.start..next.map_or(word.end, |next| next.end)];
            let word = &text[word];
            let breakable = !(word.starts_with(b"%") || looks_like_tag_line(with_next));
            let width = open.len() + width_of(word) + close.len();
            self.push_parts(&[open, word, close], width, first || breakable);
            first = false;
        }
    }
}

/// The columns `text` (UTF-8) takes: its characters, counted quickly when they are all ASCII,
/// as they nearly always are.
fn width_of(text: &[u8]) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        // A character starts at every byte that does not continue one.
        text.iter().filter(|&&b| (b as i8) >= -0x40).count()
    }
}

/// Whether [`comment_words`] finds one word in `text`, told quickly for the usual shapes (no
/// space, or a single command): `false` may also mean that it could not tell.
fn is_one_word(text: &[u8]) -> bool {
    !text.contains(&b' ')
        || (text.starts_with(b"[%") && text.iter().position(|&b| b == b']') == Some(text.len() - 1))
}

/// Where the words of a comment are in `text`, whose words are separated by single spaces,
/// as the line breaks may fall: a comment command such as `[%clk 0:03:00]` is one word, since
/// lines never break inside it. An empty text is one empty word.
fn comment_words(text: &[u8]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start = Some(0);
    core::iter::from_fn(move || {
        let from = start?;
        let mut end = from;
        let mut in_command = false;
        for word in text[from..].split(|&b| b == b' ') {
            end += word.len();
            if word.starts_with(b"[%") {
                in_command = !word.contains(&b']');
            } else if in_command && word.contains(&b']') {
                in_command = false;
            }
            if !in_command {
                break;
            }
            end += 1;
        }
        let end = end.min(text.len());
        start = (end < text.len()).then_some(end + 1);
        Some(from..end)
    })
}

/// Writes a movetext as its parts come: moves with their numbers, glyphs, comments,
/// variations, and last the result ([`MovetextWriter::finish`]), laid out as [`Layout`] says.
///
/// Move numbers are written before every White move, and before a Black move that starts a
/// line or follows a comment or a variation (`3... Nf6`). Glyphs are written as `$n`. A
/// variation is written from its first move: one without moves leaves nothing, nor do the
/// comments at its start.
///
/// Parts handed over in the order a reader reads them give the text that [`GameTree::write`]
/// gives for the tree [`GameTreeBuilder`](super::GameTreeBuilder) builds of them, but for
/// three shapes, which the tree writes in another order: a comment or a glyph after a
/// variation (the tree keeps it with the move before the variation, and writes it first), a
/// glyph after a comment (the tree writes a move's glyphs before its comments), and a
/// variation on the first move of a variation (in the tree one more alternative to that move,
/// written after the variation that holds it). At such a part the writer stops, and
/// [`MovetextWriter::finish`] gives `None`: the game is then written from its tree.
///
/// ```
/// use caissa_notation::pgn::{Layout, MovetextWriter, Nag, RawComment, TerminationMarker};
///
/// let mut writer = MovetextWriter::new(Layout::Compact, 0);
/// for san in ["e4", "e5", "Nf3"] {
///     writer.san(san.parse()?);
/// }
/// writer.nag(Nag(1));
/// writer.comment(RawComment::braced(b" the  knight "));
/// writer.begin_variation();
/// writer.san("f4".parse()?);
/// writer.end_variation();
/// writer.san("Nc6".parse()?);
/// let text = writer.finish(TerminationMarker::Unknown);
/// assert_eq!(text, Some("1. e4 e5 2. Nf3 $1 { the knight } ( 2. f4 ) 2... Nc6 *"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct MovetextWriter {
    tokens: Tokens,
    /// The innermost line: the innermost open variation, else the main line.
    line: Line,
    /// The lines that the open variations interrupt, the main line first.
    interrupted: SmallVec<[Line; 4]>,
    /// The comments read at the start of the innermost variation, before its first move,
    /// one after the other; `pending_ends` says where each ends.
    pending: Vec<u8>,
    pending_ends: Vec<usize>,
    /// A comment's text, normalized.
    comment: String,
    /// A move with its number, or a glyph: kept, so that its buffer is not cleared each time.
    token: Token,
    /// Whether the parts so far came in the order they are written.
    in_order: bool,
    /// Where the `+` of the last move written is in the text, if it gave check
    /// ([`MovetextWriter::checkmate`]).
    last_check: Option<usize>,
}

/// A line of moves as [`MovetextWriter`] writes it.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// Half-moves from the start of the game's numbering to the line's next move.
    ply: u64,
    /// The line's moves so far, counted to two: none, the first, or more.
    moves: u8,
    /// What was written since the line's last move.
    since: Since,
}

/// What follows a move, in the order the tree writes it: glyphs, comments, variations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Since {
    /// Nothing, or glyphs.
    Move,
    /// A comment.
    Comment,
    /// A variation with moves.
    Variation,
}

impl Line {
    const fn first(ply: u64) -> Line {
        Line {
            ply,
            moves: 0,
            since: Since::Move,
        }
    }

    /// Whether the line's next move is numbered even if it is Black's: it is the line's
    /// first, or it follows a comment or a variation.
    fn numbered(self) -> bool {
        self.moves == 0 || self.since > Since::Move
    }
}

impl MovetextWriter {
    /// A writer of a movetext whose first move is `first_ply` half-moves from the start of
    /// the numbering: 0 for White's first move ([`StartTags::first_ply`] reads it from the
    /// `FEN` tag).
    ///
    /// [`StartTags::first_ply`]: super::StartTags::first_ply
    #[must_use]
    pub fn new(layout: Layout, first_ply: u64) -> MovetextWriter {
        MovetextWriter::after(Vec::new(), layout, Some(0), first_ply)
    }

    /// A writer that appends to `out`, whose last line is `column` long.
    fn after(
        out: Vec<u8>,
        layout: Layout,
        column: Option<usize>,
        first_ply: u64,
    ) -> MovetextWriter {
        MovetextWriter {
            tokens: Tokens {
                out,
                layout,
                column,
            },
            line: Line::first(first_ply),
            interrupted: SmallVec::new(),
            pending: Vec::new(),
            pending_ends: Vec::new(),
            comment: String::new(),
            token: Token::default(),
            in_order: true,
            last_check: None,
        }
    }

    /// Whether the innermost line is a variation.
    fn in_variation(&self) -> bool {
        !self.interrupted.is_empty()
    }

    /// Writes a move of the innermost line (the variation's `(` first, and the comments at
    /// its start, if it is the variation's first).
    pub fn san(&mut self, san: SanPlus) {
        if !self.in_order {
            return;
        }
        let line = self.line;
        if line.moves == 0 && self.in_variation() {
            self.tokens.push_ascii("(");
            let mut start = 0;
            for &end in &self.pending_ends {
                self.tokens.comment(&self.pending[start..end], false);
                start = end;
            }
            self.pending.clear();
            self.pending_ends.clear();
        }
        // The move number and the move form one token, so that no line break parts them.
        let white = line.ply.is_multiple_of(2);
        let token = &mut self.token;
        token.len = 0;
        if white || line.numbered() {
            token.push_number(line.ply / 2 + 1);
            token.push(if white { b". " } else { b"... " });
        }
        san.bytes_to(|b| token.push_byte(b));
        self.tokens.push_token(token);
        self.last_check = (san.suffix == Some(Suffix::Check)).then(|| self.tokens.out.len() - 1);
        self.line = Line {
            ply: line.ply + 1,
            moves: line.moves.saturating_add(1).min(2),
            since: Since::Move,
        };
    }

    /// Makes the `+` of the last move written a `#`, for a caller that wrote it before
    /// knowing whether the check mates: a mate test costs a look for a legal move, which the
    /// line's next move, if there is one, makes needless. The same width, so the lines stay as
    /// they are.
    pub fn checkmate(&mut self) {
        if let Some(at) = self.last_check.take() {
            self.tokens.out[at] = b'#';
        }
    }

    /// Writes a glyph of the innermost line's last move.
    pub fn nag(&mut self, nag: Nag) {
        if !self.follows(Since::Move) {
            return;
        }
        let token = &mut self.token;
        token.len = 0;
        token.push(b"$");
        token.push_number(nag.0.into());
        self.tokens.push_token(token);
    }

    /// Whether a part that the tree writes after a move and `since` can be written now: the
    /// innermost line has a move, and nothing written since it comes later in the tree.
    /// Otherwise the writer stops.
    fn follows(&mut self, since: Since) -> bool {
        let line = self.line;
        let fits = line.moves > 0 && line.since <= since;
        self.in_order &= fits;
        self.in_order
    }

    /// Writes a comment, its whitespace normalized as [`GameTree`] keeps it; one left empty
    /// is dropped. A comment before the first move of a variation waits for that move.
    ///
    /// Returns whether the comment has bytes that are not UTF-8, written as `U+FFFD`, so that a
    /// caller can warn: told only for a comment that is not plain ASCII, at no cost to the rest.
    pub fn comment(&mut self, comment: RawComment<'_>) -> bool {
        // The commonest comment by far, lichess's clock, is told by its shape and copied whole.
        if let Ok(padded) = <&[u8; 16]>::try_from(comment.as_bytes())
            && is_clock_text(padded)
        {
            if self.comment_goes_now(&padded[1..15], false) {
                self.tokens.push_clock(padded);
            }
            return false;
        }
        // A plain comment is written from where it was read.
        if let Some(plain) = plain_comment(comment.as_bytes()) {
            if !plain.is_empty() {
                self.comment_text(plain, false, true);
            }
            return false;
        }
        let mut text = core::mem::take(&mut self.comment);
        text.clear();
        normalize_words_into(comment.as_bytes(), &mut text);
        if !text.is_empty() {
            self.comment_text(text.as_bytes(), false, false);
        }
        self.comment = text;
        core::str::from_utf8(comment.as_bytes()).is_err()
    }

    /// Writes a comment's normalized text: as read after the last move (`before_move` false),
    /// or kept before the next move (true; a tree's [`Node::comments_before`]). `braceless`
    /// says that the text is known to hold no `}`.
    ///
    /// [`Node::comments_before`]: super::Node::comments_before
    fn comment_text(&mut self, text: &[u8], before_move: bool, braceless: bool) {
        if self.comment_goes_now(text, before_move) {
            self.tokens.comment(text, braceless);
        }
    }

    /// Whether a comment of this normalized text, placed as [`MovetextWriter::comment_text`]
    /// says, is to be written now. Not if the parts come out of order, nor at the start of a
    /// variation, where the text is kept to be written before the variation's first move.
    fn comment_goes_now(&mut self, text: &[u8], before_move: bool) -> bool {
        if !self.in_order {
            return false;
        }
        let moves = self.line.moves;
        if moves == 0 && self.in_variation() {
            self.pending.extend_from_slice(text);
            self.pending_ends.push(self.pending.len());
            return false;
        }
        if moves > 0 && !before_move && !self.follows(Since::Comment) {
            return false;
        }
        // Before the main line's first move, or after a move: the next one is numbered.
        self.line.since = self.line.since.max(Since::Comment);
        true
    }

    /// Opens a variation: an alternative to the innermost line's last move.
    pub fn begin_variation(&mut self) {
        if !self.in_order {
            return;
        }
        let Line { moves, ply, .. } = self.line;
        // On a variation's first move, the tree holds the new one beside it.
        self.in_order = moves > 1 || (moves == 1 && !self.in_variation());
        if self.in_order {
            let variation = Line::first(ply.saturating_sub(1));
            self.interrupted
                .push(core::mem::replace(&mut self.line, variation));
        }
    }

    /// Closes the innermost variation.
    pub fn end_variation(&mut self) {
        if !self.in_order {
            return;
        }
        let Some(interrupted) = self.interrupted.pop() else {
            self.in_order = false;
            return;
        };
        let ended = core::mem::replace(&mut self.line, interrupted);
        self.pending.clear();
        self.pending_ends.clear();
        if ended.moves > 0 {
            self.tokens.push_ascii(")");
            self.line.since = Since::Variation;
        }
    }

    /// Writes the result that ends the movetext (and, in the export layout, a line end) and
    /// gives the text; `None` if the parts did not come in the order they are written.
    pub fn finish(&mut self, result: TerminationMarker) -> Option<&str> {
        if !self.in_order {
            return None;
        }
        self.end(result);
        // Only text and ASCII were written: the check cannot fail.
        core::str::from_utf8(&self.tokens.out).ok()
    }

    /// [`MovetextWriter::finish`], whatever the order.
    fn end(&mut self, result: TerminationMarker) {
        self.tokens.push_ascii(result.as_str());
        if self.tokens.layout == Layout::Export {
            self.tokens.out.push(b'\n');
        }
    }

    /// Starts another movetext, as [`MovetextWriter::new`] does, keeping the memory of the last
    /// one: a writer restarted for each game allocates only while games grow longer.
    pub fn restart(&mut self, layout: Layout, first_ply: u64) {
        self.tokens.out.clear();
        self.tokens.layout = layout;
        self.tokens.column = Some(0);
        self.line = Line::first(first_ply);
        self.interrupted.clear();
        self.pending.clear();
        self.pending_ends.clear();
        self.in_order = true;
        self.last_check = None;
    }
}

/// A token of ASCII built on the stack, without the formatting machinery (this runs once a
/// move): a move with its number (`12... Nxe5+`: at most 20 digits, `... ` and 9 bytes of SAN)
/// or a glyph (`$255`). Its width is its length. The buffer's first byte is left for the
/// separator that [`Tokens::push_token`] writes before it.
#[derive(Debug)]
struct Token {
    bytes: [u8; 64],
    /// The token's length, from `bytes[1]`.
    len: usize,
}

impl Default for Token {
    fn default() -> Token {
        Token {
            bytes: [0; 64],
            len: 0,
        }
    }
}

impl Token {
    /// The bytes [`Tokens::push_token`] copies, separator first: more than the longest
    /// token's, fewer than the buffer's less the separator's place.
    const COPIED: usize = 48;

    /// Appends `b`. At most 33 bytes come after the separator's place: the index never wraps,
    /// and the mask spares a bounds check.
    #[inline]
    fn push_byte(&mut self, b: u8) {
        self.bytes[(1 + self.len) % 64] = b;
        self.len += 1;
    }

    /// Appends `bytes`.
    #[inline]
    fn push(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.push_byte(b);
        }
    }

    /// Appends `n` in decimal.
    fn push_number(&mut self, n: u64) {
        let digit = |d: u64| b'0' + (d % 10) as u8;
        // Nearly every move number has one or two digits.
        if n < 10 {
            self.push_byte(digit(n));
        } else if n < 100 {
            self.push_byte(digit(n / 10));
            self.push_byte(digit(n));
        } else {
            let mut digits = [0u8; 20];
            let mut at = digits.len();
            let mut n = n;
            loop {
                at -= 1;
                digits[at] = digit(n);
                n /= 10;
                if n == 0 {
                    break;
                }
            }
            self.push(&digits[at..]);
        }
    }

    #[cfg(test)]
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[1..1 + self.len]
    }
}

fn write_tag(out: &mut String, layout: Layout, name: &str, value: &str) {
    if layout == Layout::Compact && !out.is_empty() {
        out.push(' ');
    }
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    // Without a branch a byte: values are short, and nearly none needs escaping.
    if !value.bytes().fold(false, |escape, b| {
        escape | matches!(b, b'\\' | b'"' | b'\n' | b'\r')
    }) {
        out.push_str(value);
    } else {
        write_escaped(out, value);
    }
    out.push_str("\"]");
    if layout == Layout::Export {
        out.push('\n');
    }
}

/// Appends a tag value with `\\` and `"` escaped and line ends as spaces.
fn write_escaped(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
}

impl Tags {
    /// Appends the tag pairs as `layout` lays them out: in the export layout the seven tag
    /// roster first, in order, with placeholder values for missing ones (`Result`: `result`,
    /// the movetext's, if there is one), then the others in their order, one per line, then a
    /// blank line; in the compact one, all in their order on one line.
    pub fn write(&self, out: &mut String, layout: Layout, result: Option<TerminationMarker>) {
        if layout == Layout::Export {
            // The roster's values (the first tag of each name), found in one pass.
            let mut roster: [Option<&str>; 7] = [None; 7];
            for (name, value) in self.iter() {
                if let Some(i) = SEVEN_TAG_ROSTER.iter().position(|&(n, _)| n == name) {
                    roster[i].get_or_insert(value);
                }
            }
            for ((name, default), value) in SEVEN_TAG_ROSTER.into_iter().zip(roster) {
                let value = match (value, name, result) {
                    (Some(value), _, _) => value,
                    (None, "Result", Some(marker)) => marker.as_str(),
                    (None, _, _) => default,
                };
                write_tag(out, layout, name, value);
            }
            for (name, value) in self.iter() {
                if !SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == name) {
                    write_tag(out, layout, name, value);
                }
            }
            out.push('\n');
        } else {
            let mut tags = String::new();
            for (name, value) in self.iter() {
                write_tag(&mut tags, layout, name, value);
            }
            out.push_str(&tags);
        }
    }

    /// Appends each tag pair in its order on a line of its own, as the export format writes
    /// one (escapes and all), with no placeholder for a missing roster tag and no blank line
    /// after: for a caller that decides which tags a text shows.
    ///
    /// ```
    /// use caissa_notation::pgn::Tags;
    ///
    /// let mut tags = Tags::new();
    /// tags.push("White", "Ann \"A\"");
    /// tags.push("Annotator", "B");
    /// let mut out = String::new();
    /// tags.write_lines(&mut out);
    /// assert_eq!(out, "[White \"Ann \\\"A\\\"\"]\n[Annotator \"B\"]\n");
    /// ```
    pub fn write_lines(&self, out: &mut String) {
        for (name, value) in self.iter() {
            write_tag(out, Layout::Export, name, value);
        }
    }

    /// About how many bytes [`Tags::write`] writes, and a movetext's result after them: the
    /// names and values as they are, and room for the roster's placeholders.
    #[must_use]
    pub fn written_size(&self) -> usize {
        // Each name and value as they are, and `[`, ` "`, `"]` and a line end around them.
        self.text_len() + 6 * self.len() + 128
    }

    /// The result a movetext ends with: `marker`, the movetext's, else the `Result` tag's,
    /// else `*`.
    #[must_use]
    pub fn movetext_result(&self, marker: Option<TerminationMarker>) -> TerminationMarker {
        marker
            .or_else(|| self.get("Result").and_then(|r| r.parse().ok()))
            .unwrap_or(TerminationMarker::Unknown)
    }
}

/// One pending step of the walk over a tree.
enum Step {
    /// Hand over this move, then its alternatives if it is a main continuation, then its own
    /// continuation.
    Move(NodeId),
    Open,
    Close,
}

impl GameTree {
    /// Appends the game as PGN to `out`, laid out as `layout` says: the tags
    /// ([`Tags::write`]), then the movetext as [`MovetextWriter`] writes it, each move followed
    /// by its glyphs, its comments, and, for a main continuation, its alternatives. The
    /// termination marker is the movetext's result, else the `Result` tag's, else `*`.
    ///
    /// ```
    /// use caissa_notation::pgn::{GameTreeBuilder, Layout, Reader};
    ///
    /// let pgn = b"1.e4 e5 {Open game} 2.Nf3 (2.f4!? exf4) Nc6 1-0";
    /// let game = Reader::new(&pgn[..]).read_game(&mut GameTreeBuilder).expect("a game")?;
    /// let mut line = String::new();
    /// game.write(&mut line, Layout::Compact);
    /// assert_eq!(line, "1. e4 e5 { Open game } 2. Nf3 ( 2. f4 $5 exf4 ) 2... Nc6 1-0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write(&self, out: &mut String, layout: Layout) {
        out.reserve(self.written_size());
        let tags_start = out.len();
        self.tags.write(out, layout, self.termination_marker);
        let column = if layout == Layout::Compact && out.len() > tags_start {
            Some(1)
        } else {
            Some(0)
        };
        let first_ply = self.tags.start().first_ply();
        let result = self.tags.movetext_result(self.termination_marker);
        self.write_movetext_after(out, layout, column, first_ply, result);
    }

    /// Appends the movetext alone, without the tags, to `out` (at the start of a line), laid out
    /// as [`GameTree::write`] lays it out, its moves numbered from `first_ply` (as
    /// [`MovetextWriter::new`] says) and ended by `result`: for a caller that keeps the tags
    /// apart, and so gives the numbering that their `FEN` tag would.
    ///
    /// ```
    /// use caissa_notation::pgn::{GameTreeBuilder, Layout, Reader, TerminationMarker};
    ///
    /// let pgn = b"[FEN \"r3k3/8/8/8/8/8/8/4K3 b q - 0 30\"]\n\n30... O-O-O 31. Kf2 *";
    /// let game = Reader::new(&pgn[..]).read_game(&mut GameTreeBuilder).expect("a game")?;
    /// let first_ply = game.tags.start().first_ply();
    /// let mut line = String::new();
    /// game.write_movetext(&mut line, Layout::Compact, first_ply, TerminationMarker::Unknown);
    /// assert_eq!(line, "30... O-O-O 31. Kf2 *");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_movetext(
        &self,
        out: &mut String,
        layout: Layout,
        first_ply: u64,
        result: TerminationMarker,
    ) {
        self.write_movetext_after(out, layout, Some(0), first_ply, result);
    }

    /// The movetext of [`GameTree::write`] and [`GameTree::write_movetext`], appended at
    /// `column`.
    fn write_movetext_after(
        &self,
        out: &mut String,
        layout: Layout,
        column: Option<usize>,
        first_ply: u64,
        result: TerminationMarker,
    ) {
        // Written apart and checked alone, so that appending to a long text does not check
        // the text again each time.
        let mut writer = MovetextWriter::after(Vec::new(), layout, column, first_ply);
        self.hand_movetext(&mut writer);
        writer.end(result);
        // Only text was written: the lossy conversion never replaces anything.
        out.push_str(&String::from_utf8_lossy(&writer.tokens.out));
    }

    /// About how many bytes [`GameTree::write`] writes: the tags and comments as they are, a
    /// few bytes a move and a glyph. Reserved first, so that the text grows once.
    fn written_size(&self) -> usize {
        let comments =
            |comments: &[String]| -> usize { comments.iter().map(|c| c.len() + 5).sum() };
        let tags = self.tags.written_size();
        let moves: usize = self
            .nodes()
            .iter()
            .map(|node| {
                12 + 5 * node.nags.len()
                    + comments(&node.comments)
                    + comments(&node.comments_before)
            })
            .sum();
        tags + comments(&self.comments) + moves
    }

    /// Hands the movetext's parts to `writer` in the order they are written. No recursion.
    fn hand_movetext(&self, writer: &mut MovetextWriter) {
        for comment in &self.comments {
            writer.comment_text(comment.as_bytes(), true, false);
        }
        let mut stack: Vec<Step> = Vec::new();
        if let Some(&first) = self.roots().first() {
            stack.push(Step::Move(first));
        }
        while let Some(step) = stack.pop() {
            let id = match step {
                Step::Open => {
                    writer.begin_variation();
                    continue;
                }
                Step::Close => {
                    writer.end_variation();
                    continue;
                }
                Step::Move(id) => id,
            };
            let node = self.node(id);
            for comment in &node.comments_before {
                writer.comment_text(comment.as_bytes(), true, false);
            }
            writer.san(node.san);
            for &nag in &node.nags {
                writer.nag(nag);
            }
            for comment in &node.comments {
                writer.comment_text(comment.as_bytes(), false, false);
            }
            let siblings = self.children(node.parent());
            let alternatives = if siblings.first() == Some(&id) {
                &siblings[1..]
            } else {
                &[]
            };
            if let Some(&next) = node.children().first() {
                stack.push(Step::Move(next));
            }
            for &alternative in alternatives.iter().rev() {
                stack.push(Step::Close);
                stack.push(Step::Move(alternative));
                stack.push(Step::Open);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_numbered_in_decimal() {
        for n in [0, 1, 9, 10, 42, 99, 100, 101, 999, 1_000, 65_535, u64::MAX] {
            let mut token = Token::default();
            token.push(b"x");
            token.push_number(n);
            token.push(b"... ");
            let san = "Qh4xe1#".parse::<SanPlus>().expect("a SAN");
            san.bytes_to(|b| token.push_byte(b));
            assert_eq!(token.as_bytes(), format!("x{n}... Qh4xe1#").as_bytes());
        }
    }

    /// A clock comment copied whole is written as the same text handed over trimmed, which
    /// takes the general way: at every column up to the line's end and past it, after a
    /// comment with a character of two bytes, and at the start of a variation.
    #[test]
    fn clock_comments_copied_whole_are_written_as_the_general_way_writes_them() {
        let san = |text: &str| text.parse::<SanPlus>().expect("a SAN");
        let write = |layout: Layout, before: &[u8], clock: &[u8]| {
            let mut writer = MovetextWriter::new(layout, 0);
            writer.san(san("e4"));
            writer.comment(RawComment::braced(before));
            writer.comment(RawComment::braced(clock));
            writer.begin_variation();
            writer.comment(RawComment::line(clock));
            writer.san(san("d4"));
            writer.comment(RawComment::braced(clock));
            writer.end_variation();
            writer.san(san("e5"));
            writer.comment(RawComment::braced(clock));
            let text = writer.finish(TerminationMarker::Unknown).map(str::to_owned);
            text.expect("in order")
        };
        for layout in [Layout::Export, Layout::Compact] {
            for width in 1..=80 {
                for filler in ["x", "é"] {
                    let before = filler.repeat(width);
                    let copied = write(layout, before.as_bytes(), b" [%clk 0:05:00] ");
                    let general = write(layout, before.as_bytes(), b"[%clk 0:05:00]");
                    assert_eq!(copied, general, "{layout:?}, {width}");
                }
            }
        }
        assert_eq!(
            write(Layout::Export, &[b'x'; 60], b" [%clk 1:02:03] "),
            format!(
                "1. e4 {{ {} }}\n{{ [%clk 1:02:03] }} ( {{ [%clk 1:02:03] }} 1. d4 \
                 {{ [%clk 1:02:03] }} ) 1... e5\n{{ [%clk 1:02:03] }} *\n",
                "x".repeat(60)
            )
        );
    }

    #[test]
    fn a_game_is_appended_after_what_the_text_holds() {
        use crate::pgn::{GameTreeBuilder, Reader};
        let pgn = "[Event \"x\"]\n\n1. e4 { é } e5 (1... c5 { ½ }) *\n";
        let game = Reader::new(pgn.as_bytes())
            .read_game(&mut GameTreeBuilder)
            .expect("a game")
            .expect("read");
        for layout in [Layout::Export, Layout::Compact] {
            let mut alone = String::new();
            game.write(&mut alone, layout);
            let mut after = String::from("already ½\n");
            game.write(&mut after, layout);
            assert_eq!(after, format!("already ½\n{alone}"));
            assert!(
                alone.contains("{ é }") && alone.contains("{ ½ }"),
                "{alone}"
            );
        }
    }

    #[test]
    fn one_word_is_told_as_the_word_splitting_tells_it() {
        for text in [
            "",
            "word",
            "[%clk 0:03:00]",
            "[%eval 0.17] [%clk 0:03:00]",
            "[%clk 0:03:00] after",
            "[%a]b c",
            "[%cal Ra1a8,Rh1h8]",
            "two words",
            "[% unterminated",
            "[%x]]",
        ] {
            let words = comment_words(text.as_bytes()).count();
            if is_one_word(text.as_bytes()) {
                assert_eq!(words, 1, "{text:?}");
            }
        }
        assert!(is_one_word(b"[%clk 0:03:00]"));
        assert!(!is_one_word(b"[%eval 0.17] [%clk 0:03:00]"));
    }

    #[test]
    fn widths_count_characters() {
        assert_eq!(width_of(b"Nf3"), 3);
        assert_eq!(width_of("Élan vital".as_bytes()), 10);
        assert_eq!(width_of("½ – ♔".as_bytes()), 5);
    }
}
