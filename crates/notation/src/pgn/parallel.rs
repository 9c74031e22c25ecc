//! The [`ParallelReader`]: games read by several threads, results in input order.
//!
//! One thread cuts the input into chunks at game boundaries ([`chunks`](super::chunks)), as its
//! bytes arrive; worker threads each take the next chunk, read its games with their own
//! [`Reader`] and visitor, and hand back the results; the calling thread receives them, chunk
//! after chunk in input order.

use core::ops::ControlFlow;
use std::borrow::Cow;
use std::io::{self, Cursor, Read};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread::Scope;

use super::chunks::{BoundaryScan, chunks};
use super::reader::Reader;
use super::visitor::Visitor;

/// Reads PGN games on several threads, with the same results in the same order as one
/// [`Reader`] going through the input, whatever the number of threads.
///
/// The input is a byte slice ([`ParallelReader::read_slice`]), a stream
/// ([`ParallelReader::read`]) or several streams one after the other
/// ([`ParallelReader::read_all`]). It is cut into chunks of about
/// [`chunk_size`](ParallelReader::chunk_size) bytes at game boundaries (lines where a game
/// surely begins, see [`chunks`](super::chunks)); each worker thread reads the games of one
/// chunk at a time with its own visitor, made by the `new_visitor` function, and the calling
/// thread gets each game's result, through `each`, in input order.
///
/// # Guarantee
///
/// `each` is called with exactly the results that [`Reader::games`] gives for the same input
/// (a visitor from `new_visitor` for all its games, a reader as
/// [`lenient`](ParallelReader::lenient)), in the same order, with the same locations:
/// lines are the input's, not the chunk's. This holds whatever the number of threads and the
/// chunk size, as long as a visitor's results do not depend on the games it read before; the
/// visitors of this crate do not. When a stream fails, the games read before the failure come
/// first, then one error for it ([`PgnErrorKind::Io`](super::PgnErrorKind::Io)), where the
/// reader stood; its place may differ from a single reader's, which reads ahead by other
/// amounts.
///
/// # Memory and threads
///
/// A few chunks per thread are in flight at a time, whatever the input's size. A stream with
/// no boundary for [`stream_limit`](ParallelReader::stream_limit) bytes (games without tags,
/// say) is read on from there by one worker, as a stream, so memory stays bounded. Workers are
/// started as chunks come, up to the number of threads (at most [`MAX_THREADS`]); a thread that
/// the system refuses to start is done without, and if none can start, the cutting thread reads
/// the chunks itself. If `each` returns [`ControlFlow::Break`], reading stops soon after: the
/// chunks in flight are dropped.
///
/// ```
/// use core::ops::ControlFlow;
/// use caissa_notation::pgn::{ParallelReader, Replayer};
///
/// let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n[Event \"b\"]\n\n1. d4 Kd7 *\n".repeat(1000);
/// let (mut moves, mut errors) = (0, Vec::new());
/// let reader = ParallelReader::new().chunk_size(4096);
/// let done = reader.read_slice(pgn.as_bytes(), Replayer::new, |game| {
///     match game {
///         Ok(stats) => moves += stats.moves,
///         Err(error) => errors.push(error.location.line),
///     }
///     ControlFlow::<()>::Continue(())
/// });
/// assert!(done.is_continue());
/// assert_eq!((moves, errors.len()), (3 * 1000, 1000));
/// assert_eq!(errors[..3], [7, 14, 21]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelReader {
    threads: NonZeroUsize,
    chunk_size: usize,
    stream_limit: usize,
    lenient: bool,
}

/// The most worker threads a [`ParallelReader`] starts.
pub const MAX_THREADS: usize = 256;

/// Game results in a batch from a worker to the calling thread, for a chunk read as a stream.
const STREAM_BATCH: usize = 64;

impl Default for ParallelReader {
    fn default() -> ParallelReader {
        ParallelReader::new()
    }
}

impl ParallelReader {
    /// The chunk size of [`ParallelReader::new`]: 1 MiB.
    pub const DEFAULT_CHUNK_SIZE: usize = 1 << 20;

    /// The stream limit of [`ParallelReader::new`]: 64 MiB.
    pub const DEFAULT_STREAM_LIMIT: usize = 64 << 20;

    /// A reader with one thread per core ([`std::thread::available_parallelism`], 1 if unknown),
    /// chunks of [`DEFAULT_CHUNK_SIZE`](ParallelReader::DEFAULT_CHUNK_SIZE) and a stream
    /// limit of [`DEFAULT_STREAM_LIMIT`](ParallelReader::DEFAULT_STREAM_LIMIT), reading
    /// strictly.
    #[must_use]
    pub fn new() -> ParallelReader {
        ParallelReader {
            threads: std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
            chunk_size: ParallelReader::DEFAULT_CHUNK_SIZE,
            stream_limit: ParallelReader::DEFAULT_STREAM_LIMIT,
            lenient: false,
        }
    }

    /// Reads with at most `threads` worker threads (and never more than [`MAX_THREADS`]).
    #[must_use]
    pub fn threads(self, threads: NonZeroUsize) -> ParallelReader {
        let most = NonZeroUsize::new(MAX_THREADS).unwrap_or(NonZeroUsize::MIN);
        ParallelReader {
            threads: threads.min(most),
            ..self
        }
    }

    /// The number of worker threads it reads with at most.
    #[must_use]
    pub const fn thread_count(&self) -> NonZeroUsize {
        self.threads
    }

    /// Cuts chunks of about `bytes` bytes (at least 1): each ends at the first boundary after
    /// that many bytes (in a stream, after a little less).
    #[must_use]
    pub fn chunk_size(self, bytes: usize) -> ParallelReader {
        ParallelReader {
            chunk_size: bytes.max(1),
            ..self
        }
    }

    /// Reads a stream on as one chunk once this many bytes (at least 1) have come without a
    /// boundary, with one worker, so that memory stays bounded.
    #[must_use]
    pub fn stream_limit(self, bytes: usize) -> ParallelReader {
        ParallelReader {
            stream_limit: bytes.max(1),
            ..self
        }
    }

    /// Reads leniently when `lenient` is true: every [`Reader`] it makes is
    /// [`Reader::lenient`], so it accepts `e.p.` after a move, the result `1/2`, glyphs above
    /// `$255`, text after the result on its lines and a `"` left unescaped in a tag value, each
    /// reported to [`Visitor::tolerated`], where it refuses the game otherwise.
    ///
    /// ```
    /// use core::ops::ControlFlow;
    /// use caissa_notation::pgn::{Location, ParallelReader, Replayer, Tolerated};
    ///
    /// let pgn = "1. e4 d5 2. e5 f5 3. exf6 e.p. 1/2\n";
    /// let mut found = Vec::new();
    /// let reader = ParallelReader::new().lenient(true);
    /// let _ = reader.read_slice(pgn.as_bytes(), Replayer::new, |game| {
    ///     found.push(game.map(|stats| stats.tolerated));
    ///     ControlFlow::<()>::Continue(())
    /// });
    /// let at = |column| Location { line: 1, column };
    /// let tolerated = vec![
    ///     (at(27), Tolerated::EnPassantSuffix),
    ///     (at(32), Tolerated::HalfPointResult),
    /// ];
    /// assert_eq!(found, [Ok(tolerated)]);
    /// ```
    #[must_use]
    pub fn lenient(self, lenient: bool) -> ParallelReader {
        ParallelReader { lenient, ..self }
    }

    /// Reads the games of `input`, calling `each` with every game's result in input order.
    /// Returns the value `each` stopped with, if it did.
    pub fn read_slice<'a, V, F, B>(
        &self,
        input: &'a [u8],
        new_visitor: F,
        mut each: impl FnMut(Result<V::Output, V::Error>) -> ControlFlow<B>,
    ) -> ControlFlow<B>
    where
        V: Visitor<Output: Send, Error: Send>,
        F: Fn() -> V + Sync,
    {
        let size = self.chunk_size;
        let split = move |send: &mut SendChunk<'a, '_>| {
            for chunk in chunks(input, size) {
                let work = Work::Bytes(Cow::Borrowed(chunk.bytes()));
                if !send(0, chunk.first_line(), work) {
                    return;
                }
            }
        };
        self.run(split, &new_visitor, &mut |_, game| each(game))
    }

    /// Reads the games of the stream `input`, calling `each` with every game's result in input
    /// order. Returns the value `each` stopped with, if it did.
    ///
    /// The reader does its own buffering: do not wrap `input` in a `BufReader`.
    pub fn read<R, V, F, B>(
        &self,
        input: R,
        new_visitor: F,
        mut each: impl FnMut(Result<V::Output, V::Error>) -> ControlFlow<B>,
    ) -> ControlFlow<B>
    where
        R: Read + Send,
        V: Visitor<Output: Send, Error: Send>,
        F: Fn() -> V + Sync,
    {
        self.read_all([Ok(input)], new_visitor, |_, game| each(game))
    }

    /// Reads the games of each input in turn, calling `each` with the input's index (from 0)
    /// and every game's result, in input order; an input that is an error gives one result, that
    /// error at line 1, column 1. Returns the value `each` stopped with, if it did.
    ///
    /// Chunks of several inputs are read at the same time, so that many small inputs keep the
    /// threads busy too. The inputs are taken from `inputs` as the reading goes (a file can be
    /// opened when its turn comes), on another thread.
    pub fn read_all<'a, I, R, V, F, B>(
        &self,
        inputs: I,
        new_visitor: F,
        mut each: impl FnMut(usize, Result<V::Output, V::Error>) -> ControlFlow<B>,
    ) -> ControlFlow<B>
    where
        I: IntoIterator<Item = io::Result<R>, IntoIter: Send>,
        R: Read + Send + 'a,
        V: Visitor<Output: Send, Error: Send>,
        F: Fn() -> V + Sync,
    {
        let inputs = inputs.into_iter();
        let (size, limit) = (self.chunk_size, self.stream_limit);
        let split = move |send: &mut SendChunk<'a, '_>| {
            for (index, input) in inputs.enumerate() {
                let mut send = |line, work| send(index, line, work);
                let going = match input {
                    Ok(input) => split_stream(input, size, limit, &mut send),
                    Err(error) => send(1, Work::Stream(Box::new(Failed(Some(error))))),
                };
                if !going {
                    return;
                }
            }
        };
        self.run(split, &new_visitor, &mut each)
    }

    /// Runs `split` on a thread of its own, workers on the chunks it sends, and `each` on the
    /// results, in the order of the chunks.
    fn run<'a, V, B>(
        &self,
        split: impl FnOnce(&mut SendChunk<'a, '_>) + Send,
        new_visitor: &(impl Fn() -> V + Sync),
        each: &mut dyn FnMut(usize, Result<V::Output, V::Error>) -> ControlFlow<B>,
    ) -> ControlFlow<B>
    where
        V: Visitor<Output: Send, Error: Send>,
    {
        let (threads, lenient) = (self.threads.get(), self.lenient);
        let (job_sender, job_receiver) = mpsc::sync_channel::<Job<'a, V>>(threads);
        let jobs = Mutex::new(job_receiver);
        let (order_sender, order_receiver) = mpsc::sync_channel(2 * threads);
        let stopped = AtomicBool::new(false);
        let workers = Workers {
            jobs: &jobs,
            stopped: &stopped,
            new_visitor,
        };
        std::thread::scope(|scope| {
            let stopped = &stopped;
            // The senders go with the thread: when it ends, the workers and the delivery end.
            scope.spawn(move || {
                let mut started = 0;
                let mut send = |input, line, work| {
                    let (results, receiver) = mpsc::sync_channel(1);
                    if order_sender.send((input, receiver)).is_err() {
                        return false;
                    }
                    let job = Job {
                        line,
                        lenient,
                        work,
                        results,
                    };
                    if started < threads && workers.start(scope) {
                        started += 1;
                    }
                    if started == 0 {
                        // No worker could start: this thread reads the chunk itself.
                        job.run(&mut new_visitor(), stopped);
                        return true;
                    }
                    job_sender.send(job).is_ok()
                };
                split(&mut send);
            });
            let flow = deliver(order_receiver, each);
            if flow.is_break() {
                stopped.store(true, Ordering::Relaxed);
            }
            flow
        })
    }
}

/// A game's result.
type Game<V> = Result<<V as Visitor>::Output, <V as Visitor>::Error>;

/// How the cutting thread hands over a chunk: the input's index, the chunk's first line and
/// its bytes. Returns whether to go on.
type SendChunk<'a, 'b> = dyn FnMut(usize, u64, Work<'a>) -> bool + 'b;

/// A chunk's bytes.
enum Work<'a> {
    /// In memory.
    Bytes(Cow<'a, [u8]>),
    /// To be read as a stream.
    Stream(Box<dyn Read + Send + 'a>),
}

/// A chunk for a worker, how to read it, and where its results go.
struct Job<'a, V: Visitor> {
    line: u64,
    lenient: bool,
    work: Work<'a>,
    results: mpsc::SyncSender<Vec<Game<V>>>,
}

impl<V: Visitor> Job<'_, V> {
    /// Reads the chunk's games with `visitor` and sends their results, unless reading has
    /// stopped.
    fn run(self, visitor: &mut V, stopped: &AtomicBool) {
        if stopped.load(Ordering::Relaxed) {
            return;
        }
        match self.work {
            Work::Bytes(bytes) => {
                let mut reader = Reader::new(&bytes[..])
                    .starting_at_line(self.line)
                    .lenient(self.lenient);
                let games = reader.games(visitor).collect();
                // The receiver is gone only if reading has stopped.
                let _ = self.results.send(games);
            }
            Work::Stream(input) => {
                let mut reader = Reader::new(input)
                    .starting_at_line(self.line)
                    .lenient(self.lenient);
                let mut batch = Vec::with_capacity(STREAM_BATCH);
                while let Some(game) = reader.read_game(visitor) {
                    batch.push(game);
                    if batch.len() == STREAM_BATCH {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(STREAM_BATCH));
                        if self.results.send(full).is_err() {
                            return;
                        }
                    }
                }
                let _ = self.results.send(batch);
            }
        }
    }
}

/// What a worker thread needs.
struct Workers<'s, 'a, F, V: Visitor> {
    jobs: &'s Mutex<mpsc::Receiver<Job<'a, V>>>,
    stopped: &'s AtomicBool,
    new_visitor: &'s F,
}

impl<F, V: Visitor> Clone for Workers<'_, '_, F, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F, V: Visitor> Copy for Workers<'_, '_, F, V> {}

impl<'s, 'a: 's, F, V> Workers<'s, 'a, F, V>
where
    F: Fn() -> V + Sync,
    V: Visitor<Output: Send, Error: Send>,
{
    /// Starts a worker thread; returns whether it started.
    fn start<'e>(self, scope: &'s Scope<'s, 'e>) -> bool {
        let worker = move || {
            let mut visitor = (self.new_visitor)();
            loop {
                // A poisoned lock means another worker panicked: stop too.
                let Ok(jobs) = self.jobs.lock() else { break };
                let Ok(job) = jobs.recv() else { break };
                drop(jobs);
                job.run(&mut visitor, self.stopped);
            }
        };
        std::thread::Builder::new()
            .spawn_scoped(scope, worker)
            .is_ok()
    }
}

/// Calls `each` with the results of each chunk, in the order the chunks were sent.
fn deliver<T, B>(
    order: mpsc::Receiver<(usize, mpsc::Receiver<Vec<T>>)>,
    each: &mut dyn FnMut(usize, T) -> ControlFlow<B>,
) -> ControlFlow<B> {
    for (input, results) in order {
        for batch in results {
            for game in batch {
                each(input, game)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Cuts a stream into chunks at boundaries, calling `send` with the first line and bytes of
/// each. Returns `false` if `send` did (reading has stopped).
///
/// Reads up to the chunk size, then a step (a 64th of it) at a time until a boundary comes; a
/// chunk may end a step before its size. If the stream fails, the bytes read before the
/// failure go to a reader as a stream that then fails the same way.
fn split_stream<'a>(
    mut input: impl Read + Send + 'a,
    size: usize,
    limit: usize,
    send: &mut dyn FnMut(u64, Work<'a>) -> bool,
) -> bool {
    let step = (size / 64).max(1);
    let from = size.saturating_sub(step).max(1);
    // Room for a chunk and a step, up to the limit (and no more than the default limit: a
    // larger chunk grows as it is read).
    let room = size
        .saturating_add(step)
        .min(limit)
        .min(ParallelReader::DEFAULT_STREAM_LIMIT);
    let buffer = || Vec::with_capacity(room);
    let mut pending = buffer();
    let mut line = 1;
    let mut scan = BoundaryScan::new(true);
    loop {
        let want = match size.checked_sub(pending.len()) {
            Some(short @ 1..) => short,
            _ => step,
        };
        let eof = match (&mut input).take(want as u64).read_to_end(&mut pending) {
            Ok(n) => n < want,
            Err(error) => {
                let rest = Cursor::new(pending).chain(Failed(Some(error)));
                return send(line, Work::Stream(Box::new(rest)));
            }
        };
        while let Some(cut) = scan.next(&pending, from, eof) {
            let mut rest = buffer();
            rest.extend_from_slice(&pending[cut..]);
            pending.truncate(cut);
            let chunk = std::mem::replace(&mut pending, rest);
            if !send(line, Work::Bytes(Cow::Owned(chunk))) {
                return false;
            }
            line += scan.newlines();
            scan = BoundaryScan::new(false);
        }
        if eof {
            return pending.is_empty() || send(line, Work::Bytes(Cow::Owned(pending)));
        }
        if pending.len() >= limit {
            let rest = Cursor::new(pending).chain(input);
            return send(line, Work::Stream(Box::new(rest)));
        }
    }
}

/// A stream that fails with its error, then ends.
struct Failed(Option<io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::super::replay::{PgnReplayError, ReplayStats, Replayer};
    use super::super::types::{Location, Tolerated};
    use super::*;

    /// The results of `reader` for `input`, as a slice and as a stream.
    fn read_both(
        reader: ParallelReader,
        input: &[u8],
    ) -> [Vec<Result<ReplayStats, PgnReplayError>>; 2] {
        let (mut slice, mut stream) = (Vec::new(), Vec::new());
        let flow = reader.read_slice(input, Replayer::new, |game| {
            slice.push(game);
            ControlFlow::<()>::Continue(())
        });
        assert!(flow.is_continue());
        let flow = reader.read(input, Replayer::new, |game| {
            stream.push(game);
            ControlFlow::<()>::Continue(())
        });
        assert!(flow.is_continue());
        [slice, stream]
    }

    #[test]
    fn lenient_reading_lists_what_it_read_past_at_its_place() {
        let game = "[Event \"ep\"]\n\n1. e4 d5 2. e5 f5 3. exf6 e.p. $300 Nf6 1/2 { late } 0-1 x\n\n\
                    [Event \"plain\"]\n\n1. d4 d5 *\n\n";
        let input = game.repeat(20);
        let at = |line, column| Location { line, column };
        // Every cut: one chunk, small chunks read in memory, chunks read as streams (the stream
        // limit passed at once).
        for (chunk, limit) in [(usize::MAX, usize::MAX), (64, usize::MAX), (16, 1)] {
            for threads in [1, 2] {
                let reader = ParallelReader::new()
                    .threads(NonZeroUsize::new(threads).expect("a thread"))
                    .chunk_size(chunk)
                    .stream_limit(limit);
                let how = format!("chunk {chunk}, limit {limit}, {threads} threads");
                for games in read_both(reader.lenient(true), input.as_bytes()) {
                    assert_eq!(games.len(), 40, "{how}");
                    for (i, game) in games.iter().enumerate() {
                        let stats = game.as_ref().unwrap_or_else(|e| panic!("{how}: {e}"));
                        let line = 3 + 8 * (i as u64 / 2);
                        let tolerated = match i % 2 {
                            0 => vec![
                                (at(line, 27), Tolerated::EnPassantSuffix),
                                (at(line, 32), Tolerated::NagOutOfRange(300)),
                                (at(line, 41), Tolerated::HalfPointResult),
                                (at(line, 54), Tolerated::AfterResult),
                            ],
                            _ => Vec::new(),
                        };
                        assert_eq!(stats.tolerated, tolerated, "{how}: game {i}");
                    }
                }
                // Strictly, each `e.p.` is an error; the plain games list nothing.
                let errors: Vec<_> = (0..40)
                    .map(|i| (i % 2 == 0).then(|| at(3 + 8 * (i / 2), 27)))
                    .collect();
                for games in read_both(reader, input.as_bytes()) {
                    let found: Vec<_> = games
                        .iter()
                        .map(|game| match game {
                            Ok(stats) => {
                                assert!(stats.tolerated.is_empty(), "{how}");
                                None
                            }
                            Err(error) => Some(error.location),
                        })
                        .collect();
                    assert_eq!(found, errors, "{how}");
                }
            }
        }
    }
}
