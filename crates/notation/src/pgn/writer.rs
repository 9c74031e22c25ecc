//! Writing a [`GameTree`] as PGN.

use core::ops::Range;

use caissa_board::Color;

use super::reader::looks_like_tag_line;
use super::tree::{GameTree, NodeId};
use super::types::TerminationMarker;

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
struct Tokens<'a> {
    out: &'a mut String,
    layout: Layout,
    /// Length of the current line; `None` right after a `;` comment, which forces a new line.
    column: Option<usize>,
}

impl Tokens<'_> {
    fn push(&mut self, token: &str) {
        self.push_parts(&[token], width_of(token), true);
    }

    /// [`Tokens::push`] for a token of ASCII only (moves, numbers, glyphs, parentheses), whose
    /// width is its length.
    fn push_ascii(&mut self, token: &str) {
        debug_assert!(token.is_ascii());
        self.push_parts(&[token], token.len(), true);
    }

    /// Appends one token made of `parts`, written one after the other, `width` characters in
    /// all; `breakable` says whether a new line may start before it. Pieces rather than one
    /// string, so that a token made of several (`{ `, a word, ` }`) is not first copied into a
    /// string of its own.
    fn push_parts(&mut self, parts: &[&str], width: usize, breakable: bool) {
        match self.column {
            None => {
                self.out.push('\n');
                self.column = Some(0);
            }
            Some(0) => {}
            Some(column) => {
                let fits = column + 1 + width <= EXPORT_WIDTH;
                if self.layout == Layout::Export && breakable && !fits {
                    self.out.push('\n');
                    self.column = Some(0);
                } else {
                    self.out.push(' ');
                    self.column = Some(column + 1);
                }
            }
        }
        for part in parts {
            self.out.push_str(part);
        }
        self.column = self.column.map(|c| c + width);
    }

    /// Appends a comment as `{ words }`, wrapped between words; or as `; text` followed by a
    /// line break when it contains `}` (export layout only).
    fn comment(&mut self, text: &str) {
        let width = width_of(text);
        if memchr::memchr(b'}', text.as_bytes()).is_some() {
            if self.layout == Layout::Export {
                self.push_parts(&["; ", text], 2 + width, true);
                self.column = None;
            } else {
                self.push(&format!("{{ {} }}", text.replace('}', ")")));
            }
            return;
        }
        // A comment that fits on the line breaks nowhere: one token.
        if let Some(column) = self.column
            && column + 1 + width + 4 <= EXPORT_WIDTH
        {
            self.push_parts(&["{ ", text, " }"], width + 4, true);
            return;
        }
        let mut words = comment_words(text).peekable();
        let mut first = true;
        while let Some(word) = words.next() {
            let next = words.peek().cloned();
            let open = if first { "{ " } else { "" };
            let close = if next.is_none() { " }" } else { "" };
            // A line starting with `%` would be an escape line, and one starting like a tag pair
            // would end the comment: keep such words on the current line.
            let with_next = &text[word.start..next.map_or(word.end, |next| next.end)];
            let word = &text[word];
            let breakable = !(word.starts_with('%') || looks_like_tag_line(with_next.as_bytes()));
            let width = open.len() + width_of(word) + close.len();
            self.push_parts(&[open, word, close], width, first || breakable);
            first = false;
        }
    }
}

/// The columns `text` takes: its characters, counted quickly when they are all ASCII, as they
/// nearly always are.
fn width_of(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().count()
    }
}

/// Where the words of a comment are in `text`, whose words are separated by single spaces,
/// as the line breaks may fall: a comment command such as `[%clk 0:03:00]` is one word, since
/// lines never break inside it. An empty text is one empty word.
fn comment_words(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut start = Some(0);
    core::iter::from_fn(move || {
        let from = start?;
        let mut end = from;
        let mut in_command = false;
        for word in text[from..].split(' ') {
            end += word.len();
            if word.starts_with("[%") {
                in_command = !word.contains(']');
            } else if in_command && word.contains(']') {
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

/// One pending step of the writer's walk over the tree.
enum Step {
    /// Write this move (ply: half-moves since the start of the game's numbering), then its
    /// alternatives if it is a main continuation, then its own continuation.
    Move {
        id: NodeId,
        ply: u64,
        force_number: bool,
    },
    Open,
    Close,
}

/// Appends `n` in decimal, without the formatting machinery (this runs once a move).
fn push_number(out: &mut String, n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut n = n;
    loop {
        at -= 1;
        // A digit: `n % 10` is below 10.
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

fn write_tag(out: &mut String, layout: Layout, name: &str, value: &str) {
    if layout == Layout::Compact && !out.is_empty() {
        out.push(' ');
    }
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    if !value.contains(['\\', '"', '\n', '\r']) {
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

impl GameTree {
    /// Appends the game as PGN to `out`, laid out as `layout` says.
    ///
    /// Move numbers are written before every White move, and before a Black move that starts a
    /// line or follows a comment or a variation (`3... Nf6`). Glyphs are written as `$n`. The
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
        if layout == Layout::Export {
            for (name, default) in SEVEN_TAG_ROSTER {
                let value = match (self.tags.get(name), name, self.termination_marker) {
                    (Some(value), _, _) => value,
                    (None, "Result", Some(marker)) => marker.as_str(),
                    (None, _, _) => default,
                };
                write_tag(out, layout, name, value);
            }
            for (name, value) in self.tags.iter() {
                if !SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == name) {
                    write_tag(out, layout, name, value);
                }
            }
            out.push('\n');
        } else {
            let mut tags = String::new();
            for (name, value) in self.tags.iter() {
                write_tag(&mut tags, layout, name, value);
            }
            out.push_str(&tags);
        }
        let column = if layout == Layout::Compact && out.len() > tags_start {
            Some(1)
        } else {
            Some(0)
        };
        let mut tokens = Tokens {
            out,
            layout,
            column,
        };
        self.write_movetext(&mut tokens);
        if layout == Layout::Export {
            tokens.out.push('\n');
        }
    }

    /// About how many bytes [`GameTree::write`] writes: the tags and comments as they are, a
    /// few bytes a move and a glyph. Reserved first, so that the text grows once.
    fn written_size(&self) -> usize {
        let comments =
            |comments: &[String]| -> usize { comments.iter().map(|c| c.len() + 5).sum() };
        let tags: usize = self.tags.iter().map(|(n, v)| n.len() + v.len() + 6).sum();
        let moves: usize = self
            .nodes()
            .iter()
            .map(|node| {
                12 + 5 * node.nags.len()
                    + comments(&node.comments)
                    + comments(&node.comments_before)
            })
            .sum();
        // Room for the roster's placeholders, the blank line and the result.
        tags + comments(&self.comments) + moves + 128
    }

    fn write_movetext(&self, tokens: &mut Tokens<'_>) {
        let start_ply = self.tags.start().fen().map_or(0, |fen| {
            let setup = &fen.0;
            // In u64: twice a fullmove number near `u32::MAX` does not fit a u32.
            (u64::from(setup.fullmoves.get()) - 1) * 2 + u64::from(setup.turn == Color::Black)
        });
        for comment in &self.comments {
            tokens.comment(comment);
        }
        let mut stack: Vec<Step> = Vec::new();
        if let Some(&first) = self.roots().first() {
            stack.push(Step::Move {
                id: first,
                ply: start_ply,
                force_number: true,
            });
        }
        let mut token = String::new();
        while let Some(step) = stack.pop() {
            let (id, ply, mut force_number) = match step {
                Step::Open => {
                    tokens.push_ascii("(");
                    continue;
                }
                Step::Close => {
                    tokens.push_ascii(")");
                    continue;
                }
                Step::Move {
                    id,
                    ply,
                    force_number,
                } => (id, ply, force_number),
            };
            let node = self.node(id);
            for comment in &node.comments_before {
                tokens.comment(comment);
                force_number = true;
            }
            // The move number and the move form one token, so that no line break parts them.
            let white = ply % 2 == 0;
            token.clear();
            if white || force_number {
                push_number(&mut token, ply / 2 + 1);
                token.push_str(if white { ". " } else { "... " });
            }
            node.san.append_to(&mut token);
            tokens.push_ascii(&token);
            for nag in &node.nags {
                token.clear();
                token.push('$');
                push_number(&mut token, nag.0.into());
                tokens.push_ascii(&token);
            }
            for comment in &node.comments {
                tokens.comment(comment);
            }
            let siblings = self.children(node.parent());
            let alternatives = if siblings.first() == Some(&id) {
                &siblings[1..]
            } else {
                &[]
            };
            if let Some(&next) = node.children().first() {
                stack.push(Step::Move {
                    id: next,
                    ply: ply + 1,
                    force_number: !node.comments.is_empty() || !alternatives.is_empty(),
                });
            }
            for &alternative in alternatives.iter().rev() {
                stack.push(Step::Close);
                stack.push(Step::Move {
                    id: alternative,
                    ply,
                    force_number: true,
                });
                stack.push(Step::Open);
            }
        }
        let marker = self
            .termination_marker
            .or_else(|| self.tags.get("Result").and_then(|r| r.parse().ok()))
            .unwrap_or(TerminationMarker::Unknown);
        tokens.push_ascii(marker.as_str());
    }
}
