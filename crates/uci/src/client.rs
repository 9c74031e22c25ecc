//! The GUI side: a client that drives an engine process.
//!
//! [`Client::spawn`] starts the engine with piped stdin and stdout; a reader thread reads its
//! lines (each at most [`crate::MAX_LINE_BYTES`], at most [`Client::QUEUE_LINES`] waiting),
//! stamps each with the caller's clock and hands them over a channel, so every wait has a
//! timeout. [`Client::handshake`] (`uci` ... `uciok`, with the engine's id and options),
//! [`Client::set_option`], [`Client::sync`] (`isready` ... `readyok`) and [`Client::search`]
//! (`position`, `go`, the `info` lines, `bestmove`) each fail with a typed [`ClientError`]: an
//! engine that exits, hangs or prints nonsense cannot hang or crash its caller. Lines that are
//! not messages are skipped, as the protocol asks, up to [`Client::MAX_SKIPPED_LINES`] per wait.
//! Each wait has one deadline and one count of lines skipped, however many messages come
//! before the one it waits for. On Unix, writes have a deadline too: an engine that stops
//! reading its input (the pipe to it full) is [`ClientError::Unread`] after
//! [`Client::WRITE_TIMEOUT`], never a caller blocked for good.
//!
//! An engine prints many `info` lines per search, and the client keeps only the last one with a
//! score of each `multipv` number ([`SearchResult::lines`]). So the reader thread hands over no
//! `info` line: it keeps the bytes of the last one whose words have `score` (before any `string`)
//! for each `multipv` number (at most 256 of them, 256 KiB in all), and hands those over with the
//! next other line, where they are parsed. A search costs the client a line parsed per `multipv`
//! line and one wake-up for its `info` lines, however many the engine prints. `info` lines are not
//! counted among the skipped lines, and when the last scored one does not read, the search has no
//! `info`.
//!
//! A search can also be followed as it goes ([`Client::start_search`], then
//! [`Client::next_search_event`] until its `bestmove`, [`Client::stop`] to end it early, or a
//! [`Stopper`] from another thread while this one waits): then the reader thread hands over
//! every `info` line as it comes.
//!
//! The client reads no clock: the caller gives it one ([`Stamp`]), used to stamp the lines, so
//! that a match runner can feed the arbiter's clock with the time a `bestmove` arrived.

use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use caissa_game::Game;
use caissa_movegen::{CastlingMode, Move, Position};
use caissa_notation::fen::{EnPassantMode, Fen};
use caissa_notation::uci::UciMove;

use caissa_notation::lines::{LineRead, Overlong, read_line};

use crate::MAX_LINE_BYTES;
use crate::protocol::{
    EngineMessage, Go, GuiCommand, Info, ParseUciLineError, SetPosition, UciOption,
};

/// The most `MultiPV` lines a search keeps.
const MAX_LINES: usize = 256;

/// The most bytes of scored `info` lines the reader thread keeps between two lines it hands
/// over (a search's 256 `MultiPV` lines with long PVs need about a tenth of it): with at most
/// [`Client::QUEUE_LINES`] lines waiting, an engine's output waiting costs at most about
/// 1,024 times (64 KiB + 256 KiB), whatever it prints.
const SCORED_BYTES: usize = 256 << 10;

/// The last scored `info` line of each `multipv` number since the last line handed over, each
/// buffer reused from one line of its number to the next, within [`MAX_LINES`] numbers and
/// [`SCORED_BYTES`] bytes (a line past them is dropped, and the one it would replace kept).
#[derive(Debug, Default)]
struct Scored {
    lines: Vec<(u32, Vec<u8>)>,
    bytes: usize,
}

impl Scored {
    fn keep(&mut self, number: u32, line: &[u8]) {
        if let Some((_, kept)) = self.lines.iter_mut().find(|(n, _)| *n == number) {
            let bytes = self.bytes - kept.len() + line.len();
            if bytes <= SCORED_BYTES {
                self.bytes = bytes;
                kept.clear();
                kept.extend_from_slice(line);
            }
        } else if self.lines.len() < MAX_LINES && self.bytes + line.len() <= SCORED_BYTES {
            self.bytes += line.len();
            self.lines.push((number, line.to_vec()));
        }
    }

    /// The lines kept, by `multipv` number, as text; none are kept after.
    fn take(&mut self) -> Vec<String> {
        self.lines.sort_unstable_by_key(|&(n, _)| n);
        self.bytes = 0;
        self.lines
            .drain(..)
            .map(|(_, info)| String::from_utf8_lossy(&info).into_owned())
            .collect()
    }
}

/// A clock in microseconds from any fixed origin, never decreasing, given by the caller.
pub type Stamp = Arc<dyn Fn() -> u64 + Send + Sync>;

/// `duration` in microseconds, as a [`Stamp`] counts them (`u64::MAX` past it).
fn micros(duration: Duration) -> u64 {
    u64::try_from(duration.as_micros()).unwrap_or(u64::MAX)
}

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory (the caller's if `None`).
    pub dir: Option<PathBuf>,
}

/// What an engine says about itself in the handshake.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineId {
    /// `id name`.
    pub name: Option<String>,
    /// `id author`.
    pub author: Option<String>,
    /// The options it declared.
    pub options: Vec<UciOption>,
}

/// What a search gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move (`None` for `bestmove (none)`).
    pub best: Option<UciMove>,
    /// The move to ponder on.
    pub ponder: Option<UciMove>,
    /// The last `info` line with a score of the best line (`multipv` 1, or none given), if any.
    pub info: Option<Info>,
    /// The last `info` line with a score of each line of a `MultiPV` search, by its `multipv`
    /// number, the best first (those the engine gave no scored `info` for left out).
    pub lines: Vec<Info>,
    /// When `go` was written, by the caller's clock: taken just before the write, so that the
    /// engine's time never starts after its reply can arrive (`received_us >= sent_us`).
    pub sent_us: u64,
    /// When `bestmove` was read, by the caller's clock.
    pub received_us: u64,
}

/// An engine that did not do what the protocol says.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The engine could not be started.
    #[error("cannot start the engine: {0}")]
    Spawn(String),
    /// No answer in time.
    #[error("no {waiting_for} within {timeout_ms} ms")]
    Timeout {
        /// What was awaited (`uciok`, `readyok`, `bestmove`).
        waiting_for: &'static str,
        /// The timeout.
        timeout_ms: u64,
    },
    /// The engine closed its output or could not be written to: it exited or crashed.
    #[error("the engine exited (waiting for {waiting_for})")]
    Exited {
        /// What was awaited.
        waiting_for: &'static str,
    },
    /// A `bestmove` line that does not read.
    #[error("malformed bestmove line {line:?}: {error}")]
    Malformed {
        /// The line.
        line: String,
        /// Why.
        error: ParseUciLineError,
    },
    /// `bestmove` named a move that is not legal in the position.
    #[error("illegal move {best} in {fen}")]
    IllegalMove {
        /// The move.
        best: UciMove,
        /// The position, as FEN.
        fen: String,
    },
    /// `bestmove (none)` or `bestmove 0000` in a position with legal moves.
    #[error("no move in {fen}, which has legal moves")]
    NoMove {
        /// The position, as FEN.
        fen: String,
    },
    /// A search asked for in a position without a legal move (mate or stalemate): nothing is
    /// sent to the engine.
    #[error("no legal move to search in {fen}")]
    NoLegalMoves {
        /// The position, as FEN.
        fen: String,
    },
    /// The engine did not take the whole of a command within the write timeout
    /// ([`Client::set_write_timeout`]): its input pipe stayed full. Nothing more is written to
    /// it.
    #[error("the engine has not read its input for {timeout_ms} ms")]
    Unread {
        /// The timeout.
        timeout_ms: u64,
    },
    /// Too many lines that are not messages.
    #[error("{lines} lines of garbage (waiting for {waiting_for})")]
    Garbage {
        /// How many.
        lines: usize,
        /// What was awaited.
        waiting_for: &'static str,
    },
}

/// The engine's input, shared by its client and the client's [`Stopper`]s: each command is
/// written whole under the lock, within the input's timeout ([`Client::set_write_timeout`]).
#[derive(Clone)]
struct EngineInput(Arc<Mutex<Input>>);

/// What an [`EngineInput`] guards.
struct Input {
    /// Non-blocking on Unix, so that a write waits for the engine to read for no longer than
    /// `timeout` (elsewhere it blocks).
    pipe: ChildStdin,
    /// The command being written: formatted whole first, so that it goes in one `write` (and
    /// the engine wakes once) where the pipe has room.
    text: String,
    stamp: Stamp,
    timeout: Duration,
    /// Set when a write timed out: the engine reads nothing, and its input may hold part of a
    /// command, so nothing more is written.
    blocked: bool,
}

impl EngineInput {
    fn new(pipe: ChildStdin, stamp: Stamp) -> io::Result<EngineInput> {
        #[cfg(unix)]
        rustix::io::ioctl_fionbio(&pipe, true)?;
        Ok(EngineInput(Arc::new(Mutex::new(Input {
            pipe,
            text: String::new(),
            stamp,
            timeout: Client::WRITE_TIMEOUT,
            blocked: false,
        }))))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Input> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `line` and a newline.
    fn write(&self, line: std::fmt::Arguments<'_>) -> Result<(), ClientError> {
        use std::fmt::Write as _;
        let mut input = self.lock();
        let Input {
            pipe,
            text,
            stamp,
            timeout,
            blocked,
        } = &mut *input;
        let timeout_us = micros(*timeout);
        let unread = ClientError::Unread {
            timeout_ms: timeout_us / 1000,
        };
        if *blocked {
            return Err(unread);
        }
        text.clear();
        // Formatting into a string cannot fail.
        let _ = writeln!(text, "{line}");
        let start = stamp();
        let mut bytes = text.as_bytes();
        while !bytes.is_empty() {
            match pipe.write(bytes) {
                Ok(0) => break,
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    let left = timeout_us.saturating_sub(stamp().saturating_sub(start));
                    // (A wait that runs out ends it too, whatever the caller's clock says.)
                    if left == 0 || !wait_for_room(pipe, Duration::from_micros(left)) {
                        *blocked = true;
                        return Err(unread);
                    }
                }
                Err(_) => break,
            }
        }
        if bytes.is_empty() {
            Ok(())
        } else {
            Err(ClientError::Exited {
                waiting_for: "a reader of its input",
            })
        }
    }
}

/// Waits up to `timeout` for room in `pipe` (or for its reader to be gone, which the next
/// write finds); `false` when the time ran out first, or the wait failed.
#[cfg(unix)]
fn wait_for_room(pipe: &ChildStdin, timeout: Duration) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use rustix::io::Errno;
    // Where `poll` takes milliseconds in an `int` (macOS, the BSDs), a longer wait fails.
    let longest = Duration::from_millis(i32::MAX.unsigned_abs().into());
    let timeout = Timespec::try_from(timeout.min(longest)).ok();
    match poll(&mut [PollFd::new(pipe, PollFlags::OUT)], timeout.as_ref()) {
        Ok(ready) => ready > 0,
        // Interrupted: the write tries again.
        Err(Errno::INTR) => true,
        Err(_) => false,
    }
}

/// Blocking writes never return `WouldBlock`.
#[cfg(not(unix))]
fn wait_for_room(_: &ChildStdin, _: Duration) -> bool {
    true
}

/// Sends `stop` to a client's engine from any thread ([`Client::stopper`]).
#[derive(Clone)]
pub struct Stopper(EngineInput);

impl std::fmt::Debug for Stopper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stopper").finish_non_exhaustive()
    }
}

impl Stopper {
    /// `stop`: the search under way ends, and its `bestmove` follows.
    ///
    /// # Errors
    ///
    /// [`ClientError::Exited`] if the engine no longer reads its input,
    /// [`ClientError::Unread`] if it has stopped reading.
    pub fn stop(&self) -> Result<(), ClientError> {
        self.0.write(format_args!("{}", GuiCommand::Stop))
    }
}

/// What the reader thread hands over.
enum Received {
    /// A line that is not an `info` line, when it was read, and the last `info` line with a
    /// score of each `multipv` number read since the line handed over before, by number.
    Line {
        line: String,
        at: u64,
        scored_info: Vec<String>,
    },
    TooLong,
    End,
}

/// What a search followed with [`Client::next_search_event`] gives next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// An `info` line, as the engine sent it.
    Info(Box<Info>),
    /// The end of the search: the move (`None` for `bestmove (none)`) and the move to ponder on.
    BestMove {
        /// The move.
        best: Option<UciMove>,
        /// The move to ponder on.
        ponder: Option<UciMove>,
    },
}

/// A message, when its line was read, and the scored `info` lines read before it (the last of
/// each `multipv` number, by number).
struct Message {
    message: EngineMessage,
    at: u64,
    scored_info: Vec<Info>,
}

/// One wait of a [`Client`] for a message: its deadline and the lines skipped so far.
struct Wait {
    start_us: u64,
    timeout_us: u64,
    waiting_for: &'static str,
    skipped: usize,
}

/// A running engine process.
pub struct Client {
    child: Child,
    /// Shared with the [`Stopper`]s.
    stdin: EngineInput,
    lines: Receiver<Received>,
    stamp: Stamp,
    closed: bool,
    /// Whether the reader thread hands over every `info` line (a search followed as it goes)
    /// rather than keeping the last scored one.
    stream_info: Arc<AtomicBool>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("pid", &self.child.id())
            .field("closed", &self.closed)
            .finish_non_exhaustive()
    }
}

impl Client {
    /// Lines the reader thread holds before it waits for the client to take them.
    pub const QUEUE_LINES: usize = 1024;

    /// Lines that are not messages skipped per wait before the engine is said to print garbage.
    pub const MAX_SKIPPED_LINES: usize = 1000;
    /// The most `option` lines a handshake keeps; more count as lines skipped. (Stockfish
    /// has about 20, the engines with the most a few hundred.)
    pub const MAX_OPTIONS: usize = 1000;

    /// Starts `command` (stderr is discarded).
    ///
    /// # Errors
    ///
    /// [`ClientError::Spawn`] if the program cannot be started.
    pub fn spawn(command: &EngineCommand, stamp: Stamp) -> Result<Client, ClientError> {
        let mut process = Command::new(&command.program);
        process
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &command.dir {
            process.current_dir(dir);
        }
        let spawn_error =
            |e: io::Error| ClientError::Spawn(format!("{}: {e}", command.program.display()));
        let mut child = process.spawn().map_err(spawn_error)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(ClientError::Spawn("no pipes to the engine".into()));
        };
        let (sender, lines) = sync_channel(Self::QUEUE_LINES);
        let reader_stamp = Arc::clone(&stamp);
        let stream_info = Arc::new(AtomicBool::new(false));
        let reader_stream = Arc::clone(&stream_info);
        // The thread is not joined: it ends at the end of the engine's output, or at its next
        // line once the client is gone (a process the engine started may hold the pipe open).
        let reader = std::thread::Builder::new()
            .name("uci-reader".into())
            .spawn(move || {
                read_lines(
                    BufReader::new(stdout),
                    &sender,
                    &*reader_stamp,
                    &reader_stream,
                );
            });
        if let Err(e) = reader {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(e));
        }
        let stdin = match EngineInput::new(stdin, Arc::clone(&stamp)) {
            Ok(stdin) => stdin,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(spawn_error(e));
            }
        };
        Ok(Client {
            child,
            stdin,
            lines,
            stamp,
            closed: false,
            stream_info,
        })
    }

    /// How long a command waits, by default, for an engine that reads none of its input
    /// (the pipe to it full) before [`ClientError::Unread`]. A pipe holds 64 KiB on Linux, so
    /// a write waits only for an engine that has stopped reading.
    pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

    /// Sets how long a command waits for an engine that reads none of its input (see
    /// [`Client::WRITE_TIMEOUT`]); the [`Stopper`]s wait as long. (Where the platform is not
    /// Unix, writes block.)
    pub fn set_write_timeout(&mut self, timeout: Duration) {
        self.stdin.lock().timeout = timeout;
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Writes one command.
    ///
    /// # Errors
    ///
    /// [`ClientError::Exited`] if the engine no longer reads, [`ClientError::Unread`] if it
    /// has stopped reading.
    pub fn send(&mut self, command: &GuiCommand) -> Result<(), ClientError> {
        self.stdin.write(format_args!("{command}"))
    }

    /// A handle that sends `stop` to the engine from any thread, while this client waits for
    /// the search ([`Client::next_search_event`]) in another.
    #[must_use]
    pub fn stopper(&self) -> Stopper {
        Stopper(self.stdin.clone())
    }

    /// A wait of `timeout` for `waiting_for`, from now: what [`Client::next_message`] counts
    /// against, however many messages come before the one waited for.
    fn wait(&self, timeout: Duration, waiting_for: &'static str) -> Wait {
        Wait {
            start_us: (self.stamp)(),
            timeout_us: micros(timeout),
            waiting_for,
            skipped: 0,
        }
    }

    /// The next message within `wait`, skipping lines that are not messages.
    fn next_message(&mut self, wait: &mut Wait) -> Result<Message, ClientError> {
        let waiting_for = wait.waiting_for;
        loop {
            let waited = (self.stamp)().saturating_sub(wait.start_us);
            let left = Duration::from_micros(wait.timeout_us.saturating_sub(waited));
            let received = match self.lines.recv_timeout(left) {
                Ok(received) => received,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(ClientError::Timeout {
                        waiting_for,
                        timeout_ms: wait.timeout_us / 1000,
                    });
                }
                Err(RecvTimeoutError::Disconnected) => Received::End,
            };
            match received {
                Received::End => {
                    self.closed = true;
                    return Err(ClientError::Exited { waiting_for });
                }
                Received::TooLong => wait.skipped += 1,
                Received::Line {
                    line,
                    at,
                    scored_info,
                } => match EngineMessage::parse(&line) {
                    Ok(parsed) => {
                        let scored_info = scored_info
                            .iter()
                            .filter_map(|info| match EngineMessage::parse(info).ok()?.message {
                                EngineMessage::Info(info) => Some(*info),
                                _ => None,
                            })
                            .collect();
                        return Ok(Message {
                            message: parsed.message,
                            at,
                            scored_info,
                        });
                    }
                    // A line led by `bestmove` that does not read forfeits; one that only
                    // mentions it (`log: no bestmove yet`) is skipped like any other.
                    Err(error)
                        if waiting_for == "bestmove"
                            && line.split_ascii_whitespace().next() == Some("bestmove") =>
                    {
                        return Err(ClientError::Malformed { line, error });
                    }
                    Err(_) => wait.skipped += 1,
                },
            }
            if wait.skipped > Self::MAX_SKIPPED_LINES {
                return Err(ClientError::Garbage {
                    lines: wait.skipped,
                    waiting_for,
                });
            }
        }
    }

    /// `uci`, then the engine's `id` and `option` lines up to `uciok`.
    ///
    /// # Errors
    ///
    /// A [`ClientError`] if `uciok` does not come within `timeout`.
    pub fn handshake(&mut self, timeout: Duration) -> Result<EngineId, ClientError> {
        self.send(&GuiCommand::Uci)?;
        let mut id = EngineId::default();
        let mut wait = self.wait(timeout, "uciok");
        loop {
            match self.next_message(&mut wait)?.message {
                EngineMessage::UciOk => return Ok(id),
                EngineMessage::IdName(name) => id.name = Some(name),
                EngineMessage::IdAuthor(author) => id.author = Some(author),
                // Past the most options an engine has, the rest count as lines skipped.
                EngineMessage::Option(_) if id.options.len() >= Self::MAX_OPTIONS => {
                    wait.skipped += 1;
                }
                EngineMessage::Option(option) => id.options.push(option),
                _ => {}
            }
        }
    }

    /// `setoption name <name> value <value>`.
    ///
    /// # Errors
    ///
    /// [`ClientError::Exited`] if the engine no longer reads, [`ClientError::Unread`] if it
    /// has stopped reading.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), ClientError> {
        self.send(&GuiCommand::SetOption {
            name: name.to_owned(),
            value: value.map(str::to_owned),
        })
    }

    /// `isready`, and waits for `readyok` (other messages are dropped).
    ///
    /// # Errors
    ///
    /// A [`ClientError`] if `readyok` does not come within `timeout`.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send(&GuiCommand::IsReady)?;
        let mut wait = self.wait(timeout, "readyok");
        while self.next_message(&mut wait)?.message != EngineMessage::ReadyOk {}
        Ok(())
    }

    /// `position`, `go`, and waits up to `timeout` for `bestmove`, keeping the last scored `info`.
    ///
    /// # Errors
    ///
    /// A [`ClientError`] if no well-formed `bestmove` comes within `timeout`.
    pub fn search(
        &mut self,
        position: &SetPosition,
        go: &Go,
        timeout: Duration,
    ) -> Result<SearchResult, ClientError> {
        // Stamped before the write: a reply stamped by the reader thread can never precede it.
        let sent_us = (self.stamp)();
        // Both lines in one flush: one system call, and the engine wakes once.
        self.stdin.write(format_args!("{position}\n{go}"))?;
        // The last scored `info` of each `multipv` number, by number.
        let mut lines: Vec<Option<Info>> = Vec::new();
        let mut keep = |scored: Info| {
            let index = scored.multipv.map_or(0, |n| n.saturating_sub(1) as usize);
            // MultiPV lines are a few hundred at most: a larger number is no line of a search.
            if index < MAX_LINES {
                if lines.len() <= index {
                    lines.resize(index + 1, None);
                }
                lines[index] = Some(scored);
            }
        };
        let mut wait = self.wait(timeout, "bestmove");
        loop {
            let next = self.next_message(&mut wait)?;
            for scored in next.scored_info.into_iter().filter(|i| i.score.is_some()) {
                keep(scored);
            }
            match next.message {
                EngineMessage::BestMove { best, ponder } => {
                    return Ok(SearchResult {
                        best,
                        ponder,
                        info: lines.first().cloned().flatten(),
                        lines: lines.into_iter().flatten().collect(),
                        sent_us,
                        received_us: next.at,
                    });
                }
                // An `info` line the reader thread handed over (one not led by `info`).
                EngineMessage::Info(i) if i.score.is_some() => keep(*i),
                _ => {}
            }
        }
    }

    /// `position` and `go`, without waiting: the search is then followed with
    /// [`Client::next_search_event`], which gives each of its `info` lines as the engine sends
    /// it, until its `bestmove` (a `go infinite` search ends only after [`Client::stop`]). Follow
    /// it to its `bestmove` before any other command.
    ///
    /// # Errors
    ///
    /// [`ClientError::Exited`] if the engine no longer reads its input,
    /// [`ClientError::Unread`] if it has stopped reading.
    pub fn start_search(&mut self, position: &SetPosition, go: &Go) -> Result<(), ClientError> {
        self.stream_info.store(true, Ordering::Release);
        self.stdin.write(format_args!("{position}\n{go}"))
    }

    /// The next `info` line of a search begun with [`Client::start_search`], or its
    /// `bestmove`, waiting up to `timeout` for it. Lines that are not messages, and messages
    /// that belong to no search, are skipped.
    ///
    /// # Errors
    ///
    /// A [`ClientError`] if nothing comes within `timeout`, or the engine exits or prints a
    /// `bestmove` that does not read.
    pub fn next_search_event(&mut self, timeout: Duration) -> Result<SearchEvent, ClientError> {
        let mut wait = self.wait(timeout, "bestmove");
        loop {
            // (`info` lines kept before the reader thread began handing them over belong to no
            // search of this one's: every search ends with its `bestmove`.)
            match self.next_message(&mut wait)?.message {
                EngineMessage::Info(info) => return Ok(SearchEvent::Info(info)),
                EngineMessage::BestMove { best, ponder } => {
                    self.stream_info.store(false, Ordering::Release);
                    return Ok(SearchEvent::BestMove { best, ponder });
                }
                _ => {}
            }
        }
    }

    /// `stop`: the search ends, and its `bestmove` follows.
    ///
    /// # Errors
    ///
    /// [`ClientError::Exited`] if the engine no longer reads its input,
    /// [`ClientError::Unread`] if it has stopped reading.
    pub fn stop(&mut self) -> Result<(), ClientError> {
        self.send(&GuiCommand::Stop)
    }

    /// [`Client::search`] in the current position of `game` (sent as its start and moves, castling
    /// written in `mode`), and the move checked: a legal move of the position, or an error.
    ///
    /// # Errors
    ///
    /// Those of [`Client::search`], [`ClientError::IllegalMove`] and [`ClientError::NoMove`];
    /// [`ClientError::NoLegalMoves`] at once in a position without a legal move.
    pub fn play(
        &mut self,
        game: &Game,
        mode: CastlingMode,
        go: &Go,
        timeout: Duration,
    ) -> Result<(Move, SearchResult), ClientError> {
        let fen = || Fen::from_position(game.position(), EnPassantMode::Legal).to_string();
        if !game.position().has_legal_moves() {
            return Err(ClientError::NoLegalMoves { fen: fen() });
        }
        let position = position_of(game, mode);
        let result = self.search(&position, go, timeout)?;
        match result.best {
            Some(best) => match best.to_move(game.position()) {
                Ok(m) => Ok((m, result)),
                Err(_) if best == UciMove::Null => Err(ClientError::NoMove { fen: fen() }),
                Err(_) => Err(ClientError::IllegalMove { best, fen: fen() }),
            },
            None => Err(ClientError::NoMove { fen: fen() }),
        }
    }

    /// `quit`, then waits up to `timeout` for the process to end, and kills it if it has not
    /// (an engine that no longer reads its input may first hold `quit` for the write timeout).
    pub fn quit(mut self, timeout: Duration) {
        let _ = self.send(&GuiCommand::Quit);
        let start = (self.stamp)();
        let timeout_us = micros(timeout);
        while !self.closed && (self.stamp)().saturating_sub(start) < timeout_us {
            match self.lines.recv_timeout(Duration::from_millis(10)) {
                Ok(Received::End) | Err(RecvTimeoutError::Disconnected) => self.closed = true,
                _ => {}
            }
        }
    }
}

impl Drop for Client {
    /// Kills the engine if it still runs, and reaps it.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The `position` command for the current position of `game`: `startpos` or its starting FEN,
/// and its moves with castling written in `mode`.
#[must_use]
pub fn position_of(game: &Game, mode: CastlingMode) -> SetPosition {
    let fen = (*game.start() != Position::standard())
        .then(|| Fen::from_position(game.start(), EnPassantMode::Legal));
    SetPosition {
        fen,
        moves: game
            .moves()
            .iter()
            .map(|&m| UciMove::from_move_in_mode(m, mode))
            .collect(),
    }
}

/// What the reader thread does with an `info` line: keep it if it has a score, else drop it.
/// `None` for a line that is not led by the word `info`.
fn info_line(line: &[u8]) -> Option<bool> {
    let mut words = line
        .split(u8::is_ascii_whitespace)
        .filter(|word| !word.is_empty());
    if words.next()? != b"info" {
        return None;
    }
    // `string` takes the rest of the line: a `score` after it is text.
    Some(
        words
            .take_while(|&word| word != b"string")
            .any(|word| word == b"score"),
    )
}

/// The `multipv` number of an `info` line (1 when it has none).
fn multipv_of(line: &[u8]) -> u32 {
    let mut words = line
        .split(u8::is_ascii_whitespace)
        .filter(|word| !word.is_empty())
        .take_while(|&word| word != b"string");
    while let Some(word) = words.next() {
        if word == b"multipv" {
            return words
                .next()
                .and_then(|n| core::str::from_utf8(n).ok()?.parse().ok())
                .unwrap_or(1);
        }
    }
    1
}

/// The reader thread: lines until the end of the engine's output or a dropped client.
fn read_lines(
    mut input: BufReader<std::process::ChildStdout>,
    sender: &SyncSender<Received>,
    stamp: &(dyn Fn() -> u64 + Send + Sync),
    stream_info: &AtomicBool,
) {
    let mut line = Vec::new();
    let mut scored = Scored::default();
    loop {
        let read = read_line(&mut input, &mut line, MAX_LINE_BYTES, Overlong::SkipRest);
        let streaming = || stream_info.load(Ordering::Acquire);
        let received = match read {
            Ok(LineRead::Line) => match info_line(&line) {
                Some(_) if streaming() => Received::Line {
                    at: stamp(),
                    line: String::from_utf8_lossy(&line).into_owned(),
                    scored_info: Vec::new(),
                },
                Some(true) => {
                    scored.keep(multipv_of(&line), &line);
                    continue;
                }
                Some(false) => continue,
                None => Received::Line {
                    // Stamped first: the time the line came.
                    at: stamp(),
                    line: String::from_utf8_lossy(&line).into_owned(),
                    scored_info: scored.take(),
                },
            },
            Ok(LineRead::TooLong) => Received::TooLong,
            Ok(LineRead::Eof) | Err(_) => {
                let _ = sender.send(Received::End);
                return;
            }
        };
        if sender.send(received).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_LINES, SCORED_BYTES, Scored, info_line, multipv_of};

    /// The scored lines kept between two lines handed over stay within their byte budget and
    /// their count, the last of each number winning while it fits.
    #[test]
    fn scored_lines_are_bounded() {
        let mut scored = Scored::default();
        scored.keep(2, b"info multipv 2 score cp 1");
        scored.keep(1, b"info score cp 5");
        scored.keep(1, b"info score cp 7");
        assert_eq!(
            scored.take(),
            ["info score cp 7", "info multipv 2 score cp 1"]
        );
        assert!(scored.take().is_empty());
        let long = vec![b'x'; 64 << 10];
        for n in 0..1_000 {
            scored.keep(n, &long);
            scored.keep(n, &long);
        }
        assert_eq!(scored.lines.len(), SCORED_BYTES / long.len());
        assert!(scored.bytes <= SCORED_BYTES);
        // A line too long to replace the one of its number leaves it.
        scored.keep(0, &vec![b'y'; (64 << 10) + 1]);
        assert_eq!(scored.take()[0].as_bytes()[0], b'x');
        for n in 0..1_000 {
            scored.keep(n, b"info score cp 1");
        }
        assert_eq!(scored.take().len(), MAX_LINES);
    }

    #[test]
    fn multipv_numbers_are_read_before_any_string() {
        assert_eq!(multipv_of(b"info depth 9 multipv 3 score cp 12 pv e2e4"), 3);
        assert_eq!(multipv_of(b"info depth 9 score cp 12 pv e2e4"), 1);
        assert_eq!(multipv_of(b"info string multipv 4 score cp 1"), 1);
        assert_eq!(multipv_of(b"info multipv x score cp 1"), 1);
    }

    #[test]
    fn info_lines_are_told_by_their_words() {
        for (line, kept) in [
            ("info depth 3 score cp 20 pv e2e4", Some(true)),
            ("info\tscore\tmate 2", Some(true)),
            ("  info nodes 10 score lowerbound cp 3", Some(true)),
            ("info depth 3 nodes 100", Some(false)),
            ("info string score cp 20", Some(false)),
            ("info", Some(false)),
            ("information score", None),
            ("bestmove e2e4", None),
            ("", None),
        ] {
            assert_eq!(info_line(line.as_bytes()), kept, "{line:?}");
        }
    }
}
