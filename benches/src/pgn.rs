//! PGN workloads, caissa's and pgn-reader's (with shakmaty to replay), for the `pgn` bench and
//! the `pgn_profile` example: each reads every game of its input and counts games and moves.
//!
//! - *read + replay*: every SAN move, main line and variations, replayed to a position (caissa's
//!   [`Replayer`]; pgn-reader with shakmaty's `San::to_move` and `play_unchecked`, keeping the
//!   position before each move for the variations, as caissa's does);
//! - *read*: every game read and every SAN parsed, without a board;
//! - *SAN replay* ([`SanGames`]): only `San::to_move` and `play_unchecked` for each move of SAN
//!   read beforehand, main lines only.
//!
//! ```no_run
//! use caissa_benches::pgn;
//!
//! let sample = pgn::lichess_sample();
//! assert_eq!(pgn::caissa_replay(&sample[..]), pgn::peer_replay(&sample[..]));
//! ```

use std::io::Read;
use std::ops::ControlFlow;

use caissa::notation::fen::Fen;
use caissa::notation::pgn::{
    Flow, Location, PgnError, Reader, RecordedToken, Recorder, Replayer, VariationChoice, Visitor,
};
use caissa::{Position, San, SanPlus};
use shakmaty::Position as _;

/// The lichess sample of the repository's data (`data/pgn/lichess-2025-05-sample.pgn`, about
/// 1 MB, 438 games with clock comments).
///
/// # Panics
///
/// If the file cannot be read.
#[must_use]
pub fn lichess_sample() -> Vec<u8> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/pgn/lichess-2025-05-sample.pgn"
    );
    std::fs::read(path).expect("the lichess sample is readable")
}

/// caissa: reads and replays every game; (games, moves).
///
/// # Panics
///
/// On a read error, a malformed game or an illegal move.
pub fn caissa_replay(pgn: impl Read) -> (u64, u64) {
    let mut reader = Reader::new(pgn);
    let mut replayer = Replayer::new();
    let (mut games, mut moves) = (0, 0);
    while let Some(game) = reader.read_game(&mut replayer) {
        moves += game.expect("well-formed and legal").moves;
        games += 1;
    }
    (games, moves)
}

/// caissa: counts the moves of a game, main line and variations, without a board.
#[derive(Debug)]
struct CaissaCount;

impl Visitor for CaissaCount {
    type Tags = ();
    type Movetext = u64;
    type Output = u64;
    type Error = PgnError;

    fn begin_game(&mut self, _: Location) -> Flow<Self> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> Flow<Self, u64> {
        ControlFlow::Continue(0)
    }

    fn san(&mut self, moves: &mut u64, _: SanPlus, _: Location) -> Flow<Self> {
        *moves += 1;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut u64, _: Location) -> Flow<Self, VariationChoice> {
        ControlFlow::Continue(VariationChoice::Enter)
    }

    fn end_game(&mut self, moves: u64) -> Result<u64, PgnError> {
        Ok(moves)
    }
}

/// caissa: reads every game, parsing its SAN; (games, moves).
///
/// # Panics
///
/// On a read error or a malformed game.
pub fn caissa_read(pgn: impl Read) -> (u64, u64) {
    let mut reader = Reader::new(pgn);
    let (mut games, mut moves) = (0, 0);
    while let Some(n) = reader.read_game(&mut CaissaCount) {
        moves += n.expect("well-formed");
        games += 1;
    }
    (games, moves)
}

/// pgn-reader with shakmaty, written the way their docs suggest.
mod peer {
    use std::ops::ControlFlow;

    use pgn_reader::{RawTag, SanPlus, Skip, Visitor};
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    /// The position of the current line, the one before its last move, and for each open
    /// variation the same pair of the line it interrupts; the moves replayed.
    #[derive(Default)]
    pub(super) struct Line {
        pos: Chess,
        before: Chess,
        stack: Vec<(Chess, Chess)>,
        moves: u64,
    }

    /// Replays every move, main line and variations.
    pub(super) struct Replay;

    impl Visitor for Replay {
        type Tags = Option<Chess>;
        type Movetext = Line;
        type Output = u64;

        fn begin_tags(&mut self) -> ControlFlow<u64, Option<Chess>> {
            ControlFlow::Continue(None)
        }

        fn tag(
            &mut self,
            tags: &mut Option<Chess>,
            name: &[u8],
            value: RawTag<'_>,
        ) -> ControlFlow<u64> {
            if name == b"FEN" {
                let fen = Fen::from_ascii(value.as_bytes()).expect("a FEN");
                let pos = fen.into_position(CastlingMode::Standard).expect("legal");
                *tags = Some(pos);
            }
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<u64, Line> {
            let pos = tags.unwrap_or_default();
            ControlFlow::Continue(Line {
                before: pos.clone(),
                pos,
                ..Line::default()
            })
        }

        fn san(&mut self, line: &mut Line, san: SanPlus) -> ControlFlow<u64> {
            let m = san.san.to_move(&line.pos).expect("legal SAN");
            line.before.clone_from(&line.pos);
            line.pos.play_unchecked(m);
            line.moves += 1;
            ControlFlow::Continue(())
        }

        fn begin_variation(&mut self, line: &mut Line) -> ControlFlow<u64, Skip> {
            let before = line.before.clone();
            let pos = std::mem::replace(&mut line.pos, before);
            line.stack.push((pos, line.before.clone()));
            ControlFlow::Continue(Skip(false))
        }

        fn end_variation(&mut self, line: &mut Line) -> ControlFlow<u64> {
            if let Some((pos, before)) = line.stack.pop() {
                line.pos = pos;
                line.before = before;
            }
            ControlFlow::Continue(())
        }

        fn end_game(&mut self, line: Line) -> u64 {
            line.moves
        }
    }

    /// Counts the moves, main line and variations.
    pub(super) struct Count;

    impl Visitor for Count {
        type Tags = ();
        type Movetext = u64;
        type Output = u64;

        fn begin_tags(&mut self) -> ControlFlow<u64> {
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, (): ()) -> ControlFlow<u64, u64> {
            ControlFlow::Continue(0)
        }

        fn san(&mut self, moves: &mut u64, _: SanPlus) -> ControlFlow<u64> {
            *moves += 1;
            ControlFlow::Continue(())
        }

        fn begin_variation(&mut self, _: &mut u64) -> ControlFlow<u64, Skip> {
            ControlFlow::Continue(Skip(false))
        }

        fn end_game(&mut self, moves: u64) -> u64 {
            moves
        }
    }

    /// Reads every game of `pgn` with `visitor`; (games, moves).
    pub(super) fn run(
        pgn: impl std::io::Read,
        visitor: &mut impl Visitor<Output = u64>,
    ) -> (u64, u64) {
        let mut reader = pgn_reader::Reader::new(pgn);
        let (mut games, mut moves) = (0, 0);
        while let Some(n) = reader.read_game(visitor).expect("readable input") {
            moves += n;
            games += 1;
        }
        (games, moves)
    }
}

/// pgn-reader with shakmaty: reads and replays every game; (games, moves).
///
/// # Panics
///
/// On a read error or an illegal move.
pub fn peer_replay(pgn: impl Read) -> (u64, u64) {
    peer::run(pgn, &mut peer::Replay)
}

/// pgn-reader: reads every game, parsing its SAN; (games, moves).
///
/// # Panics
///
/// On a read error.
pub fn peer_read(pgn: impl Read) -> (u64, u64) {
    peer::run(pgn, &mut peer::Count)
}

/// The main lines of some games as SAN read beforehand, for both libraries: each game's start
/// and moves.
#[derive(Debug)]
pub struct SanGames {
    ours: Vec<(Position, Vec<San>)>,
    theirs: Vec<(shakmaty::Chess, Vec<shakmaty::san::San>)>,
}

impl SanGames {
    /// The main lines of every game of `pgn`.
    ///
    /// # Panics
    ///
    /// On a malformed game or one that shakmaty cannot set up.
    #[must_use]
    pub fn from_pgn(pgn: &[u8]) -> SanGames {
        let mut reader = Reader::new(pgn);
        let mut ours = Vec::new();
        while let Some(game) = reader.read_game(&mut Recorder::new()) {
            let game = game.expect("well-formed");
            let mut depth = 0_u32;
            let mut sans = Vec::new();
            for token in &game.tokens {
                match token {
                    RecordedToken::BeginVariation(_) => depth += 1,
                    RecordedToken::EndVariation => depth -= 1,
                    RecordedToken::Move(san, _) if depth == 0 => sans.push(san.san),
                    RecordedToken::Move(..) => {}
                }
            }
            ours.push((game.start.expect("a legal start"), sans));
        }
        let theirs = ours
            .iter()
            .map(|(start, sans)| {
                let fen = Fen::from_position(start, Default::default()).to_string();
                let fen: shakmaty::fen::Fen = fen.parse().expect("a FEN shakmaty reads");
                let pos = fen
                    .into_position(shakmaty::CastlingMode::Standard)
                    .expect("legal for shakmaty");
                let sans = sans
                    .iter()
                    .map(|san| san.to_string().parse().expect("SAN shakmaty reads"))
                    .collect();
                (pos, sans)
            })
            .collect();
        SanGames { ours, theirs }
    }

    /// The number of moves.
    #[must_use]
    pub fn moves(&self) -> u64 {
        self.ours.iter().map(|(_, sans)| sans.len() as u64).sum()
    }

    /// caissa: every move found from its SAN and played; the number played.
    ///
    /// # Panics
    ///
    /// On an illegal move.
    #[must_use]
    pub fn replay_caissa(&self) -> u64 {
        let mut played = 0;
        for (start, sans) in &self.ours {
            let mut pos = *start;
            for san in sans {
                pos.play_unchecked(san.to_move(&pos).expect("legal SAN"));
                played += 1;
            }
            std::hint::black_box(&pos);
        }
        played
    }

    /// shakmaty: every move found from its SAN and played; the number played.
    ///
    /// # Panics
    ///
    /// On an illegal move.
    #[must_use]
    pub fn replay_shakmaty(&self) -> u64 {
        let mut played = 0;
        for (start, sans) in &self.theirs {
            let mut pos = start.clone();
            for san in sans {
                let m = san.to_move(&pos).expect("legal SAN");
                pos.play_unchecked(m);
                played += 1;
            }
            std::hint::black_box(&pos);
        }
        played
    }
}
