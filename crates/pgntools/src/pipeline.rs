//! Running [`select`]: one thread cuts the input into chunks of whole games, workers select and
//! rewrite the games of a chunk each, and the caller receives every game in input order.
//!
//! Chunks go to the workers in turn (chunk `k` to worker `k mod n`), and results are taken from
//! them in the same turn, so the order needs no sorting and memory stays bounded: each worker
//! holds at most two chunks waiting and two results done, whatever the input's size.
//!
//! A worker reads again, from its first byte in the chunk, a game whose parts came in an order
//! that the selector cannot write as it reads ([`Selected::OutOfOrder`]), this time with a
//! selector that writes every game from its tree.
//!
//! An input of one chunk (a small file) is read on the calling thread, with no thread started.
//! [`select_skipping`] hands each chunk, before a worker gets it, the games the caller names by
//! where they start: a game whose start and end are both boundaries ([`is_boundary`]) is cut
//! out of the chunk unread, and any other is read to its end by the worker's selector without
//! being replayed or written, so that each ends exactly where it would; both are
//! [`Selected::Skipped`].

use core::ops::{ControlFlow, Range};
use std::io::{self, Read};
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::thread;

use caissa_notation::pgn::{DEFAULT_CAPACITY, Location, PgnReplayError, Reader, is_boundary};

use crate::select::{BrokenGame, InputGame, SelectOptions, Selected, Selection, Selector, Warning};
use crate::source::{Chunk, Chunks, LineCursor, within};

/// Chunks waiting for each worker, and results waiting for the caller.
const QUEUE: usize = 2;

/// Reads every game of `input` (plain, not compressed: see
/// [`input::decompress`](crate::input::decompress)), selects and rewrites it as `options`
/// say on `threads` workers (at least one), and calls `each` with every game in input order;
/// `each` may stop the run with [`ControlFlow::Break`].
///
/// # Errors
///
/// The input's first [`io::Error`]: every game before it has been given to `each`.
///
/// # Examples
///
/// ```
/// use core::ops::ControlFlow;
/// use caissa_pgntools::{SelectOptions, Selection, select};
///
/// let pgn = "[WhiteElo \"2500\"]\n\n1. e2e4 e5 *\n\n[WhiteElo \"1500\"]\n\n1. d4 *\n";
/// let options = SelectOptions { filter: "WhiteElo > 2000".parse()?, ..SelectOptions::default() };
/// let mut written = Vec::new();
/// select(pgn.as_bytes(), &options, 2, |game| {
///     if let Selection::Matched(text) = game.selection {
///         written.push(text);
///     }
///     ControlFlow::Continue(())
/// })?;
/// assert_eq!(written.len(), 1);
/// assert!(written[0].contains("\n1. e4 e5 *\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn select<R, F>(input: R, options: &SelectOptions, threads: usize, each: F) -> io::Result<()>
where
    R: Read + Send,
    F: FnMut(InputGame) -> ControlFlow<()>,
{
    select_skipping(input, options, threads, |_| Ok(Vec::new()), each)
}

/// [`select`], but the games that `skip` names are skipped: neither replayed nor written,
/// each given to `each` as [`Selection::Skipped`] (or as broken, if the reader finds it so).
/// `skip` is called with each piece of the input in turn, as a range of byte offsets, and
/// gives the games starting in it to skip, each as the bytes from its start to the next
/// game's start (as an earlier reading of the same input found them; for the last game, the
/// input's length or more). A range that starts where no game starts, or outside the piece, is
/// ignored. (A second pass leaves out the duplicates the first found this way, see
/// [`DuplicateGames::starts_before`](crate::dedupe::DuplicateGames::starts_before).)
///
/// A game whose start and end are both boundaries ([`is_boundary`], a tag pair at every game
/// of usual files) is not even read; any other is read to its end, so that it ends where it
/// would, and the ranges' ends only matter for the first kind.
///
/// # Errors
///
/// The input's first [`io::Error`], or `skip`'s: every game before it has been given to
/// `each`.
///
/// # Examples
///
/// ```
/// use core::ops::ControlFlow;
/// use caissa_pgntools::{SelectOptions, Selection, select_skipping};
///
/// let pgn = "1. e4 *\n\n1. d4 *\n\n1. c4 *\n";
/// let mut read = Vec::new();
/// // The second game starts at byte 9, the third at 18.
/// let skip = |_| Ok(vec![9..18]);
/// select_skipping(pgn.as_bytes(), &SelectOptions::default(), 2, skip, |game| {
///     read.push(matches!(game.selection, Selection::Skipped));
///     ControlFlow::Continue(())
/// })?;
/// assert_eq!(read, [false, true, false]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn select_skipping<R, S, F>(
    input: R,
    options: &SelectOptions,
    threads: usize,
    mut skip: S,
    mut each: F,
) -> io::Result<()>
where
    R: Read + Send,
    S: FnMut(Range<u64>) -> io::Result<Vec<Range<u64>>> + Send,
    F: FnMut(InputGame) -> ControlFlow<()>,
{
    let threads = threads.max(1);
    // The workers give each chunk's buffer back to the cutting thread, for a later chunk.
    let (spare, spare_buffers) = channel();
    let mut chunks = Chunks::new(input).recycling(spare_buffers);
    // An input of one chunk (a small file) is read here, without starting a thread.
    let first = chunks.next().map(|chunk| with_skips(chunk, &mut skip));
    let second = match &first {
        Some(Ok(_)) => chunks.next().map(|chunk| with_skips(chunk, &mut skip)),
        _ => None,
    };
    if second.is_none() {
        if let Some(chunk) = first {
            for game in Worker::new(options).games(&chunk?) {
                if each(game).is_break() {
                    break;
                }
            }
        }
        return Ok(());
    }
    let chunks = first
        .into_iter()
        .chain(second)
        .chain(chunks.map(move |chunk| with_skips(chunk, &mut skip)));
    thread::scope(|scope| {
        let mut to_workers = Vec::with_capacity(threads);
        let mut from_workers = Vec::with_capacity(threads);
        for _ in 0..threads {
            let (chunk_tx, chunk_rx) = sync_channel::<io::Result<Chunk>>(QUEUE);
            let (done_tx, done_rx) = sync_channel::<io::Result<Vec<InputGame>>>(QUEUE);
            let spare = spare.clone();
            scope.spawn(move || work(options, &chunk_rx, &done_tx, &spare));
            to_workers.push(chunk_tx);
            from_workers.push(done_rx);
        }
        scope.spawn(move || cut(chunks, &to_workers));
        for worker in from_workers.iter().cycle() {
            // A worker that hangs up has no more chunks: the input is done.
            let Ok(games) = worker.recv() else {
                return Ok(());
            };
            for game in games? {
                if each(game).is_break() {
                    return Ok(());
                }
            }
        }
        Ok(())
    })
}

/// `chunk` with the games `skip` names in it: in order of their starts, each once, and
/// starting in the chunk, as the worker finds them.
fn with_skips<S>(chunk: io::Result<Chunk>, skip: &mut S) -> io::Result<Chunk>
where
    S: FnMut(Range<u64>) -> io::Result<Vec<Range<u64>>>,
{
    let mut chunk = chunk?;
    let bytes = chunk.offset..chunk.offset + chunk.bytes.len() as u64;
    chunk.skip = skip(bytes.clone())?;
    chunk.skip.retain(|game| bytes.contains(&game.start));
    chunk.skip.sort_unstable_by_key(|game| game.start);
    chunk.skip.dedup_by_key(|game| game.start);
    Ok(chunk)
}

/// The cutting thread: hands the chunks out in turn, and stops at the input's end, at its
/// error, or when a worker is gone.
fn cut(chunks: impl Iterator<Item = io::Result<Chunk>>, workers: &[SyncSender<io::Result<Chunk>>]) {
    for (chunk, worker) in chunks.zip(workers.iter().cycle()) {
        let failed = chunk.is_err();
        if worker.send(chunk).is_err() || failed {
            return;
        }
    }
}

/// A worker: selects the games of each chunk it is given, and gives the chunk's buffer back
/// to `spare`.
fn work(
    options: &SelectOptions,
    chunks: &Receiver<io::Result<Chunk>>,
    done: &SyncSender<io::Result<Vec<InputGame>>>,
    spare: &Sender<Vec<u8>>,
) {
    let mut worker = Worker::new(options);
    while let Ok(chunk) = chunks.recv() {
        let games = chunk.map(|chunk| {
            let games = worker.games(&chunk);
            // The cutting thread may be done: then the buffer is dropped here.
            let _ = spare.send(chunk.bytes);
            games
        });
        if done.send(games).is_err() {
            return;
        }
    }
}

/// Where `offset` (an offset in the input) is in `chunk`, or its end if past it.
fn chunk_offset(chunk: &Chunk, offset: u64) -> usize {
    usize::try_from(offset.saturating_sub(chunk.offset))
        .unwrap_or(usize::MAX)
        .min(chunk.bytes.len())
}

/// Where a piece of a chunk, read alone, starts in it: its offset, and its location as a
/// reader of the chunk reports it.
#[derive(Clone, Copy, Debug)]
struct Piece {
    start: usize,
    at: Location,
}

/// What a worker keeps from one chunk to the next: its selectors, and the buffer of the
/// readers of its pieces, made (and zeroed) once, not for each piece.
struct Worker<'a> {
    options: &'a SelectOptions,
    selector: Selector<'a>,
    /// The selector of the games read again, written from their trees.
    trees: Selector<'a>,
    buffer: Box<[u8]>,
}

impl Worker<'_> {
    fn new(options: &SelectOptions) -> Worker<'_> {
        Worker {
            options,
            selector: Selector::new(options),
            trees: Selector::trees(options),
            buffer: Box::default(),
        }
    }

    /// What becomes of each game of a chunk.
    ///
    /// A game to skip whose start and end (the next game's start) are both boundaries
    /// ([`is_boundary`]) is cut out of the chunk unread: the pieces before and after it read
    /// alone as they read in place. Any other is read to its end without being replayed
    /// ([`Selected::Skipped`]).
    fn games(&mut self, chunk: &Chunk) -> Vec<InputGame> {
        let bytes = &chunk.bytes[..];
        let begins_input = chunk.offset == 0;
        let mut games = Vec::new();
        // Finds the lines of the pieces' starts, in order.
        let mut lines = LineCursor::new(bytes);
        let mut piece = Piece {
            start: 0,
            at: Location { line: 1, column: 1 },
        };
        // The games to skip in the piece that cannot be cut out, by their offset in it.
        let mut skims = Vec::new();
        for range in &chunk.skip {
            let start = chunk_offset(chunk, range.start);
            let end = chunk_offset(chunk, range.end);
            if start < piece.start {
                continue;
            }
            // The piece's start is a boundary already: the chunk's, or the end of a game cut out.
            if end <= start
                || (start > piece.start && !is_boundary(bytes, start, begins_input))
                || !is_boundary(bytes, end, begins_input)
            {
                skims.push(start - piece.start);
                continue;
            }
            let before = &bytes[piece.start..start];
            self.read_piece(chunk, before, piece, &skims, &mut games);
            skims.clear();
            games.push(InputGame {
                offset: chunk.offset + start as u64,
                location: chunk.input_location(lines.line_start_at(bytes, start)),
                selection: Selection::Skipped,
                warnings: Vec::new(),
                tag_value: None,
            });
            piece = Piece {
                start: end,
                at: lines.line_start_at(bytes, end),
            };
        }
        let rest = &bytes[piece.start..];
        self.read_piece(chunk, rest, piece, &skims, &mut games);
        games
    }

    /// Reads the games of `bytes`, the `piece` of `chunk`, into `games` with the selector (and
    /// the tree writer, for the games read again); the games that start at `skims` (offsets
    /// in the piece) are read to their end, not replayed.
    fn read_piece(
        &mut self,
        chunk: &Chunk,
        bytes: &[u8],
        piece: Piece,
        skims: &[usize],
        games: &mut Vec<InputGame>,
    ) {
        if bytes.is_empty() {
            return;
        }
        let Worker {
            options,
            selector,
            trees,
            buffer,
        } = self;
        // The places to skip as the reader of the piece sees them (found in order), the last
        // first.
        let mut cursor = LineCursor::new(bytes);
        selector.skip.clear();
        for &offset in skims {
            selector.skip.push(cursor.location_of(bytes, offset));
        }
        selector.skip.reverse();
        let input_location = |at: Location| chunk.input_location(within(piece.at, at));
        // A buffer larger than the piece never fills up, as the default one does not for a
        // smaller piece: a piece of a game or two needs no more than itself (a buffer is zeroed
        // when made).
        let capacity = (bytes.len() + 1).min(DEFAULT_CAPACITY);
        if buffer.len() < capacity {
            *buffer = vec![0; capacity].into_boxed_slice();
        }
        let mut reader =
            Reader::with_buffer(bytes, core::mem::take(buffer)).lenient(options.lenient);
        let mut read = Vec::new();
        while let Some(mut result) = reader.read_game(selector) {
            let start = usize::try_from(reader.game_offset()).unwrap_or(usize::MAX);
            let mut tag_value = selector.tag_value.take();
            if let Ok(Selected::OutOfOrder) = result {
                // Read again from its first byte and written from its tree. The same bytes give
                // the same game; were they to give none, the game would count as not selected.
                result = Reader::new(&bytes[start..])
                    .lenient(options.lenient)
                    .read_game(trees)
                    .unwrap_or(Ok(Selected::Unmatched));
                tag_value = trees.tag_value.take();
            }
            read.push(ReadGame {
                start,
                at: selector.start,
                warnings: std::mem::take(&mut selector.warnings),
                tag_value,
                result,
            });
        }
        *buffer = reader.into_buffer();
        let ends: Vec<usize> = read
            .iter()
            .skip(1)
            .map(|game| game.start)
            .chain([bytes.len()])
            .collect();
        let offset = chunk.offset + piece.start as u64;
        games.extend(read.into_iter().zip(ends).map(|(game, end)| {
            let selection = match game.result {
                Ok(Selected::Unmatched | Selected::OutOfOrder) => Selection::Unmatched,
                Ok(Selected::Matched(text)) => Selection::Matched(text),
                Ok(Selected::Row(row)) => Selection::Row(row),
                Ok(Selected::Key(key)) => Selection::Key(key),
                Ok(Selected::Skipped) => Selection::Skipped,
                Err(mut error) => {
                    let at =
                        LineCursor::at(bytes, game.start, game.at).offset_of(bytes, error.location);
                    error.location = input_location(error.location);
                    Selection::Broken(BrokenGame {
                        error,
                        offset: offset + at as u64,
                        bytes: bytes[game.start..end].to_vec(),
                    })
                }
            };
            InputGame {
                offset: offset + game.start as u64,
                location: input_location(game.at),
                selection,
                warnings: game
                    .warnings
                    .into_iter()
                    .map(|(at, what)| (input_location(at), what))
                    .collect(),
                tag_value: game.tag_value,
            }
        }));
    }
}

/// A game of a piece as the selector left it, before its end in the piece is known.
struct ReadGame {
    /// Its first byte's offset in the piece.
    start: usize,
    /// Its location in the piece.
    at: Location,
    warnings: Vec<(Location, Warning)>,
    tag_value: Option<String>,
    result: Result<Selected, PgnReplayError>,
}

#[cfg(test)]
mod tests {
    use caissa_notation::pgn::Location;

    use super::*;
    use crate::select::{Format, Strip};

    fn run(input: &[u8], options: &SelectOptions, threads: usize) -> Vec<InputGame> {
        let mut games = Vec::new();
        select(input, options, threads, |game| {
            games.push(game);
            ControlFlow::Continue(())
        })
        .expect("in memory");
        games
    }

    /// The text of each game as `selector` writes it, `None` for one not written.
    fn texts(
        input: &[u8],
        options: &SelectOptions,
        selector: &mut Selector<'_>,
    ) -> Vec<Option<String>> {
        Reader::new(input)
            .lenient(options.lenient)
            .games(selector)
            .map(|result| match result {
                Ok(Selected::Matched(text)) => Some(text),
                Ok(Selected::Row(row)) => Some(row.movetext().to_owned()),
                _ => None,
            })
            .collect()
    }

    /// Games whose parts come in every order the readers allow: comments before, between and
    /// after the moves, glyphs, variations (nested, empty, with comments at their start and
    /// after them), null moves, commands, `;` comments, comments too long for a line, a
    /// start position with Black to move, a game without moves, broken games, and lichess's
    /// clock comments (copied whole) beside others like them.
    const SHAPES: &[u8] = b"[Event \"shapes\"]\n[Result \"1-0\"]\n\n\
        {Before} {the moves} 1. e4 $1 $14 {after e4} (1. d4 {queen} d5 (1... Nf6 2. c4) 2. c4) \
        (1. c4) 1... e5 2. Nf3 -- 3. Bc4 {[%clk 0:03:00] [%eval 0.17]} Nc6 \
        ({start} 3... Nf6 $2 {a  spaced\n  comment}) ( ) (3... Be7 4. d4 (4. d3) ) \
        4. O-O ; a line comment } with a brace\n\
        Nf6 {a comment so long that it cannot fit on the line where it starts and wraps at \
        words [%cal Ge2e4,Gd2d4] [%csl Rf7] and more words to fill one more line of eighty \
        columns} 5. d3 {caf\xc3\xa9 cr\xc3\xa8me} 1-0 {after the result}\n\n\
        [Event \"after a variation\"]\n\n1. e4 (1. d4) {late} e5 (1... c5) $1 2. Nf3 *\n\n\
        [Event \"first move\"]\n\n1. e4 (1. d4 (1. c4 c5) d5) e5 *\n\n\
        [Event \"glyph after a comment\"]\n\n1. e4 {c} $1 e5 *\n\n\
        [Event \"from a position\"]\n[FEN \"r3k3/8/8/8/8/8/8/4K3 b q - 0 30\"]\n\n\
        30... O-O-O 31. Kf2 (31. Ke2 Rd2+) Rd2+ 32. Ke3 *\n\n\
        [Event \"no moves\"]\n\n{only a comment} 0-1\n\n\
        [Event \"illegal\"]\n\n1. e4 e5 2. Ke3 *\n\n\
        [Event \"unterminated\"]\n\n1. e4 (1. d4 *\n\n\
        [Event \"checkmate\"]\n[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
        [Event \"checks and mates in lines\"]\n\n1. f3 e5 2. g4 Qh4+ (2... Qf6 3. Nc3 Qh4+) \
        (2... Bc5 3. e3 Qh4#) 0-1\n\n\
        [Event \"lenient\"]\n\n1. e4 d5 2. e5 f5 3. exf6 e.p. $300 1/2\n\n\
        [Event \"clocks\"]\n\n1. e4 { [%clk 0:05:00] } ( { [%clk 0:04:59] } 1. d4 ) 1... e5 \
        ; [%clk 0:05:00] \n2. Nf3 {[%clk 0:05:00]}{ [%clk 0:04:58] } { [%clk 0:4:5] } *\n";

    /// Every game the selector writes as it reads is the text of its tree, byte for byte, on
    /// the samples and on [`SHAPES`], whatever is stripped or added; the pipeline gives the
    /// tree's text for every game, those read again included.
    #[test]
    fn games_written_as_read_are_their_trees_text() {
        let samples = [
            "lichess-2025-05-sample",
            "mliebelt-sample-games",
            "cm-pgn-test-list",
        ];
        let mut inputs: Vec<Vec<u8>> = samples
            .iter()
            .map(|name| {
                std::fs::read(format!(
                    "{}/../../data/pgn/{name}.pgn",
                    env!("CARGO_MANIFEST_DIR")
                ))
                .expect("a sample")
            })
            .collect();
        inputs.push(SHAPES.to_vec());
        // Lone CRs (old Mac files) and CRLFs: each game read again starts where it is.
        let with_line_ends =
            |end: &[u8]| SHAPES.split(|&b| b == b'\n').collect::<Vec<_>>().join(end);
        inputs.push(with_line_ends(b"\r"));
        inputs.push(with_line_ends(b"\r\n"));
        // Nothing, all three, then comments, glyphs, variations and commands alone.
        let strips = [
            (false, false, false, false),
            (true, true, true, false),
            (true, false, false, false),
            (false, true, false, false),
            (false, false, true, false),
            (false, false, false, true),
        ]
        .map(|(comments, nags, variations, commands)| Strip {
            comments,
            nags,
            variations,
            commands,
        });
        let (mut streamed, mut reread) = (0, 0);
        let mut shapes_reread = Vec::new();
        // PGN, and rows, whose movetext is written on one line.
        let formats = [Format::Pgn, Format::Row(crate::table::Columns::default())];
        for (input, format) in inputs.iter().flat_map(|i| formats.map(|f| (i, f))) {
            for (i, &strip) in strips.iter().enumerate() {
                let options = SelectOptions {
                    strip,
                    lenient: i % 2 == 0,
                    openings: i == 1,
                    fix_result: i == 2,
                    ply_count: i == 3,
                    format,
                    ..SelectOptions::default()
                };
                let trees = texts(input, &options, &mut Selector::trees(&options));
                let mut selector = Selector::new(&options);
                let mut as_read = Reader::new(&input[..]).lenient(options.lenient);
                for (n, tree) in trees.iter().enumerate() {
                    match as_read.read_game(&mut selector) {
                        Some(Ok(Selected::OutOfOrder)) => {
                            reread += 1;
                            if input[..] == *SHAPES
                                && strip == Strip::default()
                                && format == Format::Pgn
                            {
                                shapes_reread.push(n);
                            }
                        }
                        Some(Ok(Selected::Matched(text))) => {
                            streamed += 1;
                            assert_eq!(Some(&text), tree.as_ref(), "game {n}, {options:?}");
                        }
                        Some(Ok(Selected::Row(row))) => {
                            streamed += 1;
                            let text = row.movetext();
                            assert_eq!(Some(text), tree.as_deref(), "game {n}, {options:?}");
                        }
                        other => assert!(tree.is_none(), "game {n}: {other:?}, {options:?}"),
                    }
                }
                let piped: Vec<Option<String>> = run(input, &options, 2)
                    .into_iter()
                    .map(|game| match game.selection {
                        Selection::Matched(text) => Some(text),
                        Selection::Row(row) => Some(row.movetext().to_owned()),
                        _ => None,
                    })
                    .collect();
                assert_eq!(piped, trees, "{options:?}");
            }
        }
        // Most games are written as read; the out-of-order shapes are read again.
        assert!(streamed > 10 * reread, "{streamed} and {reread}");
        assert_eq!(shapes_reread, [1, 2, 3]);
    }

    #[test]
    fn results_come_in_input_order_whatever_the_threads() {
        let sample = std::fs::read(format!(
            "{}/../../data/pgn/lichess-2025-05-sample.pgn",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("the sample");
        let input = sample.repeat(4);
        let options = SelectOptions {
            format: Format::Uci,
            ..SelectOptions::default()
        };
        let one = run(&input, &options, 1);
        assert_eq!(one.len(), 4 * 438);
        assert_eq!(run(&input, &options, 3), one);
        assert!(one.windows(2).all(|w| w[0].offset < w[1].offset));
        assert_eq!(
            one[438].location,
            Location {
                line: one[0].location.line + sample.iter().filter(|&&b| b == b'\n').count() as u64,
                column: 1
            }
        );
    }

    /// Inverted, a selection takes exactly the well-formed games it left out, whether the
    /// tags, the main line or both decide; a broken game is taken by neither.
    #[test]
    fn an_inverted_selection_takes_the_games_left_out() {
        use crate::select::{Ending, GameFilter};
        let sample = std::fs::read(format!(
            "{}/../../data/pgn/lichess-2025-05-sample.pgn",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("the sample");
        let mut input = b"[Event \"broken\"]\n\n1. e4 e4 *\n\n".to_vec();
        input.extend(&sample);
        let ending = GameFilter {
            ending: Some(Ending::Checkmate),
            ..GameFilter::default()
        };
        let plies = GameFilter {
            min_plies: Some(60),
            ..GameFilter::default()
        };
        let elo: crate::filter::Filter = "WhiteElo >= 2000".parse().expect("a filter");
        let cases = [
            (elo.clone(), GameFilter::default()),
            (crate::filter::Filter::default(), ending),
            (elo, plies),
        ];
        for (filter, game) in cases {
            let options = SelectOptions {
                filter,
                game,
                format: Format::Uci,
                ..SelectOptions::default()
            };
            let inverted = SelectOptions {
                invert: true,
                ..options.clone()
            };
            let (plain, flipped) = (run(&input, &options, 2), run(&input, &inverted, 2));
            assert_eq!(plain.len(), 439);
            assert_eq!(flipped.len(), 439);
            let taken = |game: &InputGame| matches!(game.selection, Selection::Matched(_));
            let mut counts = [0; 2];
            let broken = |game: &InputGame| matches!(game.selection, Selection::Broken(_));
            for (a, b) in plain.iter().zip(&flipped) {
                // A game whose tags leave it out is not replayed, so not found broken.
                if broken(a) || broken(b) {
                    assert!(!taken(a) && !taken(b), "{options:?} at {}", a.location);
                    continue;
                }
                assert_ne!(taken(a), taken(b), "{options:?} at {}", a.location);
                counts[usize::from(taken(a))] += 1;
            }
            assert!(broken(&plain[0]) || broken(&flipped[0]), "{options:?}");
            // Each side takes some games: the inversion is no accident of an empty answer.
            assert!(counts[0] > 0 && counts[1] > 0, "{options:?}: {counts:?}");
            assert_eq!(counts[0] + counts[1], 438);
        }
    }

    /// The bytes of each game: from its start to the next game's (the last's, to `u64::MAX`).
    fn spans(games: &[InputGame]) -> Vec<Range<u64>> {
        let ends = games
            .iter()
            .skip(1)
            .map(|game| game.offset)
            .chain([u64::MAX]);
        games
            .iter()
            .zip(ends)
            .map(|(game, end)| game.offset..end)
            .collect()
    }

    /// A start position the tags do not give is reported at its tag, in the first chunk and
    /// in a later one, whether the game before it was skipped or not.
    #[test]
    fn a_bad_start_is_reported_at_its_tag() {
        let sample = std::fs::read(format!(
            "{}/../../data/pgn/lichess-2025-05-sample.pgn",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("the sample");
        let bad = b"[Event \"bad\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n\n";
        let mut input = bad.to_vec();
        input.extend(sample.repeat(3));
        input.extend(bad);
        let lines_before = |end: usize| input[..end].iter().filter(|&&b| b == b'\n').count() as u64;
        let fen_lines = [2, lines_before(input.len() - bad.len()) + 2];
        let all = run(&input, &SelectOptions::default(), 2);
        let before_last = spans(&all)[all.len() - 2].clone();
        for skip in [vec![], vec![before_last]] {
            let mut games = Vec::new();
            select_skipping(
                &input[..],
                &SelectOptions::default(),
                2,
                |_| Ok(skip.clone()),
                |game| {
                    games.push(game);
                    ControlFlow::Continue(())
                },
            )
            .expect("in memory");
            let errors: Vec<Location> = games
                .iter()
                .filter_map(|game| match &game.selection {
                    Selection::Broken(broken) => Some(broken.error.location),
                    _ => None,
                })
                .collect();
            let expected: Vec<Location> = fen_lines
                .iter()
                .map(|&line| Location { line, column: 1 })
                .collect();
            assert_eq!(errors, expected);
        }
    }

    /// The games named are skipped, each where it starts, in every chunk (the input is several
    /// chunks long), whatever the threads, alone or several in a row, the last game too; every
    /// other game is what `select` makes of it. A range that starts where no game starts
    /// skips nothing.
    #[test]
    fn the_games_named_are_skipped_and_no_other() {
        let mut input = Vec::new();
        for name in [
            "lichess-2025-05-sample.pgn",
            "mliebelt-sample-games.pgn",
            "cm-pgn-test-list.pgn",
        ] {
            let path = format!("{}/../../data/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
            input.extend(std::fs::read(path).expect("the samples"));
        }
        let input = input.repeat(3);
        let options = SelectOptions::default();
        let all = run(&input, &options, 2);
        assert!(input.len() > 2 * crate::source::CHUNK_BYTES);
        // Every third game and each seventh's next (so some in a row), the last, and a place
        // inside a game.
        let spans = spans(&all);
        let chosen = |i: usize| i.is_multiple_of(3) || i % 7 == 1 || i == all.len() - 1;
        let asked_games: Vec<Range<u64>> = (0..all.len())
            .filter(|&i| chosen(i) && !matches!(all[i].selection, Selection::Broken(_)))
            .map(|i| spans[i].clone())
            .collect();
        let named: Vec<u64> = asked_games.iter().map(|game| game.start).collect();
        let mut asked = asked_games.clone();
        asked.push(all[1].offset + 1..all[2].offset);
        asked.sort_unstable_by_key(|game| game.start);
        for threads in [1, 3] {
            let mut ranges = Vec::new();
            let mut games = Vec::new();
            let skip = |bytes: Range<u64>| {
                ranges.push(bytes.clone());
                Ok(asked
                    .iter()
                    .filter(|game| bytes.contains(&game.start))
                    .cloned()
                    .collect())
            };
            select_skipping(&input[..], &options, threads, skip, |game| {
                games.push(game);
                ControlFlow::Continue(())
            })
            .expect("in memory");
            assert!(ranges.len() > 2, "{} pieces", ranges.len());
            assert_eq!(games.len(), all.len());
            for (game, whole) in games.iter().zip(&all) {
                if named.contains(&game.offset) {
                    assert_eq!(game.selection, Selection::Skipped);
                    assert_eq!((game.offset, game.location), (whole.offset, whole.location));
                } else {
                    assert_eq!(game, whole);
                }
            }
        }
    }

    /// A format that writes no tags keeps only those that decide what is written: the start
    /// position's (`FEN`, `Variant`) and the filter's. A Chess960 game from a FEN that looks
    /// like the standard one castles as the king taking its rook in UCI (`e1h1`, not `e1g1`),
    /// and the filter still reads its tag.
    #[test]
    fn formats_without_tags_read_the_tags_that_matter() {
        let game = |elo: u32| {
            format!(
                "[Event \"x\"]\n[Variant \"Chess960\"]\n[WhiteElo \"{elo}\"]\n\
                 [FEN \"r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1\"]\n[Site \"y\"]\n\n\
                 1. O-O O-O *\n\n"
            )
        };
        let input = game(2100) + &game(1900);
        let options = SelectOptions {
            filter: "WhiteElo >= 2000".parse().expect("a filter"),
            format: Format::Uci,
            ..SelectOptions::default()
        };
        let selections: Vec<Selection> = run(input.as_bytes(), &options, 1)
            .into_iter()
            .map(|game| game.selection)
            .collect();
        assert_eq!(
            selections,
            [
                Selection::Matched("e1h1 e8h8\n".to_owned()),
                Selection::Unmatched
            ]
        );
    }

    #[test]
    fn the_tag_asked_for_comes_with_each_game_written() {
        let input = b"[ECO \"A00\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[White \"x\"]\n\n1. d4 *\n\n1. e4 e5 2. Ke3 *\n";
        let mut options = SelectOptions {
            tag_value: Some("ECO".to_owned()),
            ..SelectOptions::default()
        };
        let values = |options: &SelectOptions| -> Vec<Option<String>> {
            run(input, options, 2)
                .into_iter()
                .map(|g| g.tag_value)
                .collect()
        };
        assert_eq!(values(&options), [Some("A00".to_owned()), None, None]);
        // As the game is written: --openings sets ECO.
        options.openings = true;
        let written = values(&options);
        assert_eq!(written[1], Some("A40".to_owned()));
        assert_ne!(written[0], Some("A00".to_owned()));
        assert_eq!(written[2], None);
    }

    #[test]
    fn a_broken_game_keeps_its_bytes_and_says_where() {
        let input = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n1. d4 *\n";
        let games = run(input, &SelectOptions::default(), 2);
        assert_eq!(games.len(), 3);
        let Selection::Broken(broken) = &games[1].selection else {
            panic!("{:?}", games[1]);
        };
        assert_eq!(broken.bytes, b"[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n");
        assert_eq!(
            broken.error.location,
            Location {
                line: 7,
                column: 13
            }
        );
        assert_eq!(&input[broken.offset as usize..][..3], b"Ke3");
        assert_eq!(games[1].offset, 22);
    }

    #[test]
    fn long_algebraic_by_hand() {
        let input = b"1. e4 d5 2. exd5 c5 3. dxc6 Qd6 4. cxb7 Kd8 5. bxa8=N Bd7 6. d4 Nc6 \
            7. Nf3 Kc8 8. Bd3 e5 9. O-O -- 10. Qe1 *\n\n\
            [FEN \"r3k3/8/8/8/8/8/8/4K3 b q - 0 1\"]\n\n1... O-O-O 2. Kf2 Rd2+ *\n";
        let options = SelectOptions {
            format: Format::Lan,
            ..SelectOptions::default()
        };
        let lines: Vec<String> = run(input, &options, 1)
            .into_iter()
            .map(|game| match game.selection {
                Selection::Matched(text) => text,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            lines,
            [
                "e2-e4 d7-d5 e4xd5 c7-c5 d5xc6 Qd8-d6 c6xb7 Ke8-d8 b7xa8=N Bc8-d7 d2-d4 \
                 Nb8-c6 Ng1-f3 Kd8-c8 Bf1-d3 e7-e5 O-O -- Qd1-e1\n",
                "O-O-O Ke1-f2 Rd8-d2+\n"
            ]
        );
    }

    #[test]
    fn results_fixed_from_the_board_by_hand() {
        let input = b"[Result \"1-0\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n\n\
            [Result \"0-1\"]\n[FEN \"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\"]\n\n*\n\n\
            [Result \"1-0\"]\n\n1. e4 e5 0-1\n\n\
            [Result \"1-0\"]\n\n1. e4 e5 *\n";
        let options = SelectOptions {
            fix_result: true,
            format: Format::Row(crate::table::Columns::default()),
            ..SelectOptions::default()
        };
        let results: Vec<(String, String)> = run(input, &options, 1)
            .into_iter()
            .map(|game| match game.selection {
                Selection::Row(row) => (
                    row.tag("Result").unwrap_or_default().to_owned(),
                    row.movetext().to_owned(),
                ),
                other => panic!("{other:?}"),
            })
            .collect();
        let result = |r: &str, m: &str| (r.to_owned(), m.to_owned());
        assert_eq!(
            results,
            [
                result("0-1", "1. f3 e5 2. g4 Qh4# 0-1"),
                result("1/2-1/2", "1/2-1/2"),
                result("0-1", "1. e4 e5 0-1"),
                result("1-0", "1. e4 e5 *"),
            ]
        );
    }

    /// A row's movetext is numbered from the game's FEN, as its PGN is.
    #[test]
    fn rows_number_moves_from_the_fen() {
        let input = b"[FEN \"r3k3/8/8/8/8/8/8/4K3 b q - 0 30\"]\n\n\
            30... O-O-O 31. Kf2 (31. Ke2 Rd2+) Rd2+ 32. Ke3 *\n";
        let options = SelectOptions {
            format: Format::Row(crate::table::Columns::default()),
            ..SelectOptions::default()
        };
        let movetexts: Vec<String> = run(input, &options, 1)
            .into_iter()
            .map(|game| match game.selection {
                Selection::Row(row) => row.movetext().to_owned(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            movetexts,
            ["30... O-O-O 31. Kf2 ( 31. Ke2 Rd2+ ) 31... Rd2+ 32. Ke3 *"]
        );
    }

    #[test]
    fn stopping_early_stops() {
        let input = b"1. e4 *\n\n".repeat(100_000);
        let mut seen = 0;
        select(&input[..], &SelectOptions::default(), 2, |_| {
            seen += 1;
            if seen == 10 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .expect("in memory");
        assert_eq!(seen, 10);
    }
}
