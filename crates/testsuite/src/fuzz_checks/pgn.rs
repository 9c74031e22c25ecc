//! Fuzz target `pgn`: any bytes read as a PGN file, by readers fed in different ways and by every
//! visitor, replayed, and written back; and cut short by a failing input, whose games before
//! the failure must be the whole input's first games.

use core::fmt;
use core::ops::ControlFlow;
use std::io::Read;

use caissa_notation::pgn::{
    DEFAULT_CAPACITY, Flow, GameTree, GameTreeBuilder, Layout, Location, MIN_CAPACITY, Nag,
    PgnError, PgnErrorKind, PgnReplayError, PgnReplayErrorKind, RawComment, RawTag, Reader,
    Recorder, Replay, ReplayStats, Replayer, SEVEN_TAG_ROSTER, Tags, TerminationMarker, Tolerated,
    VariationChoice, Visitor,
};
use caissa_notation::san::SanPlus;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Call {
    BeginGame(Location),
    Tag {
        name: Vec<u8>,
        value: Vec<u8>,
        at: Location,
    },
    BeginMovetext,
    San(SanPlus, Location),
    Nag(Nag),
    Comment {
        text: Vec<u8>,
        line_comment: bool,
        at: Location,
    },
    BeginVariation(VariationChoice, Location),
    EndVariation,
    TerminationMarker(TerminationMarker, Location),
    EndGame,
    EndMalformedGame(PgnError),
}

/// A PGN visitor that records every call. With `wander`, it also skips every second variation
/// and stops each game at its fourth move, so that the reader's skipping is exercised too.
#[derive(Debug, Default)]
struct Recording {
    calls: Vec<Call>,
    wander: bool,
    variations: usize,
}

impl Visitor for Recording {
    type Tags = ();
    type Movetext = usize;
    type Output = ();
    type Error = PgnError;

    fn begin_game(&mut self, at: Location) -> Flow<Self, ()> {
        self.calls.push(Call::BeginGame(at));
        ControlFlow::Continue(())
    }

    fn tag(&mut self, (): &mut (), name: &[u8], value: RawTag<'_>, at: Location) -> Flow<Self> {
        self.calls.push(Call::Tag {
            name: name.to_vec(),
            value: value.as_bytes().to_vec(),
            at,
        });
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> Flow<Self, usize> {
        self.calls.push(Call::BeginMovetext);
        ControlFlow::Continue(0)
    }

    fn san(&mut self, moves: &mut usize, san: SanPlus, at: Location) -> Flow<Self> {
        self.calls.push(Call::San(san, at));
        *moves += 1;
        if self.wander && *moves == 4 {
            ControlFlow::Break(Ok(()))
        } else {
            ControlFlow::Continue(())
        }
    }

    fn nag(&mut self, _: &mut usize, nag: Nag) -> Flow<Self> {
        self.calls.push(Call::Nag(nag));
        ControlFlow::Continue(())
    }

    fn comment(&mut self, _: &mut usize, comment: RawComment<'_>, at: Location) -> Flow<Self> {
        self.calls.push(Call::Comment {
            text: comment.as_bytes().to_vec(),
            line_comment: comment.is_line_comment(),
            at,
        });
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut usize, at: Location) -> Flow<Self, VariationChoice> {
        self.variations += 1;
        let choice = if self.wander && self.variations.is_multiple_of(2) {
            VariationChoice::Skip
        } else {
            VariationChoice::Enter
        };
        self.calls.push(Call::BeginVariation(choice, at));
        ControlFlow::Continue(choice)
    }

    fn end_variation(&mut self, _: &mut usize) -> Flow<Self> {
        self.calls.push(Call::EndVariation);
        ControlFlow::Continue(())
    }

    fn termination_marker(
        &mut self,
        _: &mut usize,
        marker: TerminationMarker,
        at: Location,
    ) -> Flow<Self> {
        self.calls.push(Call::TerminationMarker(marker, at));
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: usize) -> Result<(), PgnError> {
        self.calls.push(Call::EndGame);
        Ok(())
    }

    fn end_malformed_game(&mut self, _: usize, error: PgnError) -> PgnError {
        self.calls.push(Call::EndMalformedGame(error.clone()));
        error
    }
}

/// A [`Read`] that hands out its bytes 1 to 7 at a time (sizes taken from the bytes
/// themselves), so that a PGN reader over it refills its buffer in every state.
struct Trickle<'a> {
    data: &'a [u8],
    at: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let rest = &self.data[self.at..];
        let size = 1 + usize::from(rest.first().copied().unwrap_or(0) % 7);
        let n = size.min(rest.len()).min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.at += n;
        Ok(n)
    }
}

/// An input that gives `data` (all at once, or a few bytes at a time), then fails.
struct FailsAfter<'a> {
    data: &'a [u8],
    at: usize,
    trickle: bool,
}

impl Read for FailsAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let rest = &self.data[self.at..];
        let Some(&first) = rest.first() else {
            return Err(std::io::Error::other("the input failed"));
        };
        let size = if self.trickle {
            1 + usize::from(first % 7)
        } else {
            rest.len()
        };
        let n = size.min(rest.len()).min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.at += n;
        Ok(n)
    }
}

/// When the input fails part way (a third in, two thirds, at its end), the games the reader
/// gives before the failure are the input's first games as a reader of the whole input gives
/// them (each ends before the last byte read, so what follows could not change it), then the
/// failure, once, as an I/O error.
fn check_failure_keeps_the_games_before(
    data: &[u8],
    whole: &[Result<ReplayStats, PgnReplayError>],
) {
    for cut in [data.len() / 3, data.len() * 2 / 3, data.len()] {
        for trickle in [false, true] {
            let input = FailsAfter {
                data: &data[..cut],
                at: 0,
                trickle,
            };
            let mut reader = Reader::new(input);
            let mut replayer = Replayer::new();
            let mut before = Vec::new();
            let failure = loop {
                match reader.read_game(&mut replayer) {
                    Some(Err(error))
                        if matches!(error.kind, PgnReplayErrorKind::Pgn(PgnErrorKind::Io(_))) =>
                    {
                        break error;
                    }
                    Some(game) => before.push(game),
                    None => panic!("cut at {cut}: the input ended without its failure"),
                }
            };
            assert!(
                before.len() <= whole.len() && before[..] == whole[..before.len()],
                "cut at {cut} (trickled: {trickle}): the games before the failure ({failure}) \
                 differ from the whole input's"
            );
            assert!(reader.read_game(&mut replayer).is_none(), "cut at {cut}");
        }
    }
}

/// The byte length of each line of a PGN input, as the reader counts lines (ended by LF, CRLF
/// or a lone CR) and columns (a byte order mark at the start does not count).
fn line_lengths(data: &[u8]) -> Vec<usize> {
    let bom = if data.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let mut lengths = Vec::new();
    let mut start = 0;
    for (i, &b) in data.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && data.get(i + 1) != Some(&b'\n')) {
            lengths.push(i - start);
            start = i + 1;
        }
    }
    lengths.push(data.len() - start);
    lengths[0] -= bom;
    lengths
}

/// `at` is a place in the input whose lines are `lines` long: a line of it, and a column
/// inside that line or just after its end.
fn check_location(lines: &[usize], at: Location, what: &dyn fmt::Display) {
    let fits = usize::try_from(at.line)
        .ok()
        .and_then(|line| lines.get(line.checked_sub(1)?))
        .is_some_and(|&len| at.column >= 1 && at.column <= len as u64 + 1);
    assert!(
        fits,
        "{what}: {at} is outside the input (lines of {lines:?} bytes)"
    );
}

/// Reads every game of `reader` with `visitor`: no more games than bytes (every game takes at
/// least one), so reading ends.
fn read_games<R: Read, V: Visitor>(
    mut reader: Reader<R>,
    visitor: &mut V,
    len: usize,
) -> Vec<Result<V::Output, V::Error>> {
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(visitor) {
        games.push(game);
        assert!(games.len() <= len, "{} games in {len} bytes", games.len());
    }
    games
}

/// The calls a [`Recording`] gets from a reader over `data` (a slice, or a [`Trickle`] of it),
/// and what each game gave.
fn record(data: &[u8], trickle: bool, capacity: usize, wander: bool) -> (Vec<Call>, Vec<bool>) {
    let mut recording = Recording {
        wander,
        ..Recording::default()
    };
    let games = if trickle {
        let reader = Reader::with_capacity(Trickle { data, at: 0 }, capacity);
        read_games(reader, &mut recording, data.len())
    } else {
        read_games(
            Reader::with_capacity(data, capacity),
            &mut recording,
            data.len(),
        )
    };
    (recording.calls, games.iter().map(Result::is_ok).collect())
}

/// Lenient reading: the same games, written back the same, and the same list of what was read
/// past, whether the reader is fed the slice or a few bytes at a time, with the default or the
/// smallest buffer (the latter compared for inputs shorter than it); and never fewer games read
/// well than a strict reader read (`strict`, its games).
fn check_lenient(data: &[u8], strict: &[Result<GameTree, PgnError>]) {
    type Game = Result<(String, Vec<(Location, Tolerated)>), PgnError>;
    let read = |trickle: bool, capacity: usize| -> Vec<Game> {
        let games = if trickle {
            let reader = Reader::with_capacity(Trickle { data, at: 0 }, capacity).lenient(true);
            read_games(reader, &mut GameTreeBuilder, data.len())
        } else {
            let reader = Reader::with_capacity(data, capacity).lenient(true);
            read_games(reader, &mut GameTreeBuilder, data.len())
        };
        games
            .into_iter()
            .map(|game| game.map(|tree| (tree.to_string(), tree.tolerated)))
            .collect()
    };
    let by_slice = read(false, DEFAULT_CAPACITY);
    assert_eq!(
        by_slice,
        read(true, DEFAULT_CAPACITY),
        "lenient, fed a few bytes at a time"
    );
    if data.len() < MIN_CAPACITY {
        assert_eq!(
            by_slice,
            read(true, MIN_CAPACITY),
            "lenient, the smallest buffer"
        );
    }
    let lenient_well = by_slice.iter().filter(|g| g.is_ok()).count();
    let strict_well = strict.iter().filter(|g| g.is_ok()).count();
    assert!(
        lenient_well >= strict_well || by_slice.len() != strict.len(),
        "a lenient reader read fewer games well ({lenient_well}) than a strict one ({strict_well})"
    );
}

/// `other` (what `reader` recorded) is `expected` (what a reader over the slice recorded).
fn assert_same_calls(
    expected: &(Vec<Call>, Vec<bool>),
    other: &(Vec<Call>, Vec<bool>),
    reader: &str,
) {
    let differ = expected.0.iter().zip(&other.0).position(|(a, b)| a != b);
    let at = differ.unwrap_or_else(|| expected.0.len().min(other.0.len()));
    assert!(
        expected == other,
        "{reader} makes other calls from call {at}: {:?} instead of {:?} (games {:?} and {:?})",
        other.0.get(at),
        expected.0.get(at),
        other.1,
        expected.1
    );
}

/// The first problem of each game when reading and replaying are apart: a [`Recorder`]'s game
/// replayed, or for a malformed game what was recorded before the error replayed, then the
/// error.
fn check_with_recorder(data: &[u8]) -> Vec<Result<ReplayStats, String>> {
    let mut recorder = Recorder::new();
    let mut reader = Reader::new(data);
    let mut found = Vec::new();
    while let Some(game) = reader.read_game(&mut recorder) {
        found.push(match game {
            Ok(game) => game.replay().map_err(|e| e.to_string()),
            Err(error) => match recorder.take_malformed() {
                Some(game) => {
                    let start = game.start.clone();
                    let replayed = start
                        .map_err(|e| PgnError::from(e).into())
                        .and_then(|start| game.replay_into(&mut Replay::new(start)));
                    Err(replayed.err().map_or(error.to_string(), |e| e.to_string()))
                }
                None => Err(error.to_string()),
            },
        });
        assert!(found.len() <= data.len(), "more games than bytes");
    }
    found
}

/// The game [`GameTree::write`] is expected to give back once read: the result written out, and in
/// the export layout the seven tag roster first (the first value of each, else its
/// placeholder) and no second tag of a roster name; in the compact layout comments with `}`
/// made `)`. Tag values lose their line breaks either way.
fn written_game(game: &GameTree, layout: Layout) -> GameTree {
    let mut expected = game.clone();
    let marker = game
        .termination_marker
        .or_else(|| game.tags.get("Result").and_then(|r| r.parse().ok()))
        .unwrap_or(TerminationMarker::Unknown);
    expected.termination_marker = Some(marker);
    let mut tags = Tags::new();
    if layout == Layout::Export {
        for (name, placeholder) in SEVEN_TAG_ROSTER {
            let value = match (game.tags.get(name), game.termination_marker) {
                (Some(value), _) => value,
                (None, Some(marker)) if name == "Result" => marker.as_str(),
                (None, _) => placeholder,
            };
            tags.push(name, value);
        }
    }
    for (name, value) in game.tags.iter() {
        if layout == Layout::Compact || !SEVEN_TAG_ROSTER.iter().any(|(n, _)| *n == name) {
            tags.push(name, value);
        }
    }
    expected.tags = Tags::new();
    for (name, value) in tags.iter() {
        expected.tags.push(name, &value.replace(['\n', '\r'], " "));
    }
    if layout == Layout::Compact {
        let braces = |comments: &mut Vec<String>| {
            for comment in comments {
                *comment = comment.replace('}', ")");
            }
        };
        braces(&mut expected.comments);
        let mut stack = expected.roots().to_vec();
        while let Some(id) = stack.pop() {
            let node = expected.node_mut(id);
            braces(&mut node.comments_before);
            braces(&mut node.comments);
            stack.extend_from_slice(node.children());
        }
    }
    expected
}

/// Writing `game` in both layouts and reading the text back gives one well-formed game, the
/// one [`written_game`] expects, and writing that gives the same text.
fn check_pgn_round_trip(game: &GameTree) {
    for layout in [Layout::Export, Layout::Compact] {
        let mut text = String::new();
        game.write(&mut text, layout);
        let games = read_games(
            Reader::new(text.as_bytes()),
            &mut GameTreeBuilder,
            text.len(),
        );
        let [Ok(read)] = &games[..] else {
            panic!("{layout:?}: caissa wrote\n{text}\nwhich reads as {games:?}");
        };
        assert_eq!(
            *read,
            written_game(game, layout),
            "{layout:?}: caissa wrote\n{text}\nwhich reads as another game"
        );
        let mut again = String::new();
        read.write(&mut again, layout);
        assert_eq!(again, text, "{layout:?}: written twice, the texts differ");
    }
}

/// `data` without the blanks (spaces and tabs) at the end of its lines, where the reader ends
/// them: at a LF, a CRLF or a lone CR, which are kept as they are.
fn without_trailing_blanks(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut line_start = 0;
    let strip = |out: &mut Vec<u8>, line_start: usize| {
        while out.len() > line_start && matches!(out.last(), Some(b' ' | b'\t')) {
            out.pop();
        }
    };
    for &b in data {
        if matches!(b, b'\n' | b'\r') {
            // The CR of a CRLF strips the line; its LF then finds nothing to strip. A line of
            // blanks between a lone CR and a LF is kept: without it they would be one CRLF.
            let after_lone_cr = line_start > 0 && out[line_start - 1] == b'\r';
            let only_blanks = out[line_start..].iter().all(|&c| matches!(c, b' ' | b'\t'));
            if !(b == b'\n' && after_lone_cr && only_blanks) {
                strip(&mut out, line_start);
            }
            out.push(b);
            line_start = out.len();
        } else {
            out.push(b);
        }
    }
    strip(&mut out, line_start);
    out
}

/// Blanks at the end of lines mean nothing: without them, `data` reads as the same games
/// (`built`), and malformed games fail in the same way on the same line.
fn check_pgn_trailing_blanks(data: &[u8], built: &[Result<GameTree, PgnError>]) {
    let stripped = without_trailing_blanks(data);
    if stripped == data {
        return;
    }
    let again = read_games(
        Reader::new(&stripped[..]),
        &mut GameTreeBuilder,
        stripped.len(),
    );
    assert_eq!(
        again.len(),
        built.len(),
        "without blanks at the ends of lines, the games are {again:?}, not {built:?}"
    );
    for (i, (game, same)) in built.iter().zip(&again).enumerate() {
        let fits = match (game, same) {
            (Ok(game), Ok(same)) => game == same,
            (Err(error), Err(same)) => {
                (&error.kind, error.location.line) == (&same.kind, same.location.line)
            }
            _ => false,
        };
        assert!(
            fits,
            "game {i}: without blanks at the ends of lines it reads as {same:?}, not {game:?}"
        );
    }
}

/// PGN: reading any bytes never panics and ends, with no more games than bytes; every location
/// the reader reports (errors, games, tags, moves) is inside the input. A reader fed 1 to 7
/// bytes per `read` makes the same visitor calls as one over the slice (also with the smallest
/// buffer, when the input is shorter than it), including when the visitor skips variations and
/// stops games early. Every visitor sees the same number of games, and blanks at the ends of lines
/// change nothing (see `check_pgn_trailing_blanks`). The replayers agree: the
/// [`Replayer`] and a [`Recorder`] whose games are replayed afterwards find the same first
/// problem of each game; a game that replays does so main line only too, and its tree (from
/// [`GameTreeBuilder`]) replays to the same position. Every well-formed game written in both
/// layouts reads back as the same game (see `check_pgn_round_trip`).
///
/// # Panics
///
/// When one of those invariants is broken.
pub fn check(data: &[u8]) {
    let lines = line_lengths(data);
    let (calls, games_ok) = record(data, false, DEFAULT_CAPACITY, false);
    for call in &calls {
        match call {
            Call::BeginGame(at) | Call::Tag { at, .. } | Call::San(_, at) => {
                check_location(&lines, *at, &format_args!("{call:?}"));
            }
            Call::EndMalformedGame(error) => check_location(&lines, error.location, error),
            _ => {}
        }
    }
    for wander in [false, true] {
        let by_slice = record(data, false, DEFAULT_CAPACITY, wander);
        let trickled = record(data, true, DEFAULT_CAPACITY, wander);
        assert_same_calls(&by_slice, &trickled, "a reader fed a few bytes at a time");
        let small = record(data, true, MIN_CAPACITY, wander);
        // Shorter than the buffer, so that the reader sees the end of the input before the buffer
        // is full.
        if data.len() < MIN_CAPACITY {
            assert_same_calls(&by_slice, &small, "a reader with the smallest buffer");
        }
    }

    let built = read_games(Reader::new(data), &mut GameTreeBuilder, data.len());
    check_lenient(data, &built);
    check_pgn_trailing_blanks(data, &built);
    let replayed = read_games(Reader::new(data), &mut Replayer::new(), data.len());
    check_failure_keeps_the_games_before(data, &replayed);
    let mainline = read_games(
        Reader::new(data),
        &mut Replayer::mainline_only(),
        data.len(),
    );
    let checked = check_with_recorder(data);
    let counts = [built.len(), replayed.len(), mainline.len(), checked.len()];
    assert!(
        counts.iter().all(|&n| n == games_ok.len()),
        "visitors see different numbers of games: {counts:?} and {}",
        games_ok.len()
    );
    for (i, game) in built.iter().enumerate() {
        match game {
            Ok(game) => check_pgn_round_trip(game),
            Err(error) => {
                check_location(&lines, error.location, error);
                assert!(
                    !games_ok[i],
                    "game {i}: {error}, but the recording saw it end"
                );
            }
        }
    }
    for (i, replay) in replayed.iter().enumerate() {
        let problem = match replay {
            Ok(stats) => Ok(stats.clone()),
            Err(error) => {
                check_location(&lines, error.location, error);
                Err(error.to_string())
            }
        };
        assert_eq!(
            problem, checked[i],
            "game {i}: replayer and recorder disagree"
        );
        let Ok(stats) = problem else {
            continue;
        };
        match &mainline[i] {
            Ok(main) => {
                assert_eq!(
                    (main.moves, main.mainline_moves, main.position),
                    (stats.mainline_moves, stats.mainline_moves, stats.position),
                    "game {i}: the main line alone replays otherwise"
                );
            }
            other => panic!("game {i} replays, but not its main line alone: {other:?}"),
        }
        let game = built[i]
            .as_ref()
            .unwrap_or_else(|e| panic!("game {i} replays, but does not read: {e}"));
        let start = game
            .start_position()
            .unwrap_or_else(|e| panic!("game {i} replays, but has no start: {e}"));
        let mut replay = Replay::new(start);
        for node in game.mainline() {
            replay
                .play(node.san, Location::default())
                .unwrap_or_else(|e| panic!("game {i}: its tree does not replay: {e}"));
        }
        let tree = replay.finish();
        assert_eq!(
            (tree.mainline_moves, tree.position),
            (stats.mainline_moves, stats.position),
            "game {i}: its tree replays otherwise"
        );
    }
}
