//! Between a PGN [`GameTree`] and a [`caissa_game::Game`]: the tree's main line replayed into a
//! game ([`GameTree::to_game`]), and a game written as a tree ([`GameTree::from_game`], the
//! `to_pgn` of other libraries).

use caissa_game::Game;

use super::tree::{GameTree, TreeReplayError};
use super::types::TerminationMarker;
use super::writer::SEVEN_TAG_ROSTER;
use crate::san::SanPlus;

/// Why a [`GameTree`]'s main line is not a [`Game`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ToGameError {
    /// The start position cannot be set up, or a move cannot be replayed.
    #[error(transparent)]
    Replay(#[from] TreeReplayError),
    /// A null move (`--`): it passes the turn, which no game under the Laws does.
    #[error("move {}: a null move is not a move of a game", .ply + 1)]
    NullMove {
        /// The number of main-line moves before it.
        ply: usize,
    },
}

impl GameTree {
    /// The main line as a [`Game`]: the start position from the `FEN` and `Variant` tags and
    /// every main-line move, as written. Variations, comments and tags are left out; the game
    /// knows its result from the position ([`Game::outcome`]), not from the `Result` tag.
    ///
    /// Moves written after the game ended automatically (a fivefold repetition, seventy-five
    /// moves, a dead position) are kept, as an arbiter replays a game as it was played;
    /// [`Game::outcome`] still gives the ending.
    ///
    /// ```
    /// use caissa_game::{GameResult, Reason};
    /// use caissa_notation::pgn::{GameTree, GameTreeBuilder, Reader};
    ///
    /// let pgn = b"1. f3 e5 2. g4 Qh4# 0-1";
    /// let tree = Reader::new(&pgn[..]).read_game(&mut GameTreeBuilder).expect("a game")?;
    /// let game = tree.to_game()?;
    /// assert_eq!(game.ply(), 4);
    /// let outcome = game.outcome().expect("checkmate");
    /// assert_eq!((outcome.result, outcome.reason), (GameResult::BlackWins, Reason::Checkmate));
    ///
    /// // And back: the seven tags, the moves and the result.
    /// let again = GameTree::from_game(&game);
    /// assert_eq!(again.tags.get("Result"), Some("0-1"));
    /// assert_eq!(again.to_game()?.moves(), game.moves());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ToGameError::Replay`] if the start tags give no position or a main-line move does not
    /// fit its position, [`ToGameError::NullMove`] for a null move.
    pub fn to_game(&self) -> Result<Game, ToGameError> {
        let start = self.start_position().map_err(TreeReplayError::from)?;
        let mut game = Game::new(start);
        for replayed in self.mainline_moves_from(start) {
            play(&mut game, replayed?.played)?;
        }
        Ok(game)
    }

    /// The game as a tree: the seven tag roster (`?` for what a [`Game`] does not know, the
    /// `Result` from [`Game::outcome`]), the start tags when the start is not the standard one
    /// ([`Tags::set_start`](super::Tags::set_start)), the moves in SAN and the termination
    /// marker. [`GameTree::to_export_string`] (or `to_string`) then gives the PGN.
    ///
    /// ```
    /// use caissa_game::Game;
    /// use caissa_notation::pgn::GameTree;
    /// use caissa_notation::{Move, Square};
    ///
    /// let mut game = Game::standard();
    /// game.play(Move::normal(Square::E2, Square::E4))?;
    /// let pgn = GameTree::from_game(&game).to_string();
    /// assert!(pgn.starts_with("[Event \"?\"]\n"));
    /// assert!(pgn.ends_with("\n1. e4 *\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[doc(alias = "to_pgn")]
    #[must_use]
    pub fn from_game(game: &Game) -> GameTree {
        let mut tree = GameTree::new();
        let marker = TerminationMarker::from_result(game.outcome().map(|o| o.result));
        for (name, unknown) in SEVEN_TAG_ROSTER {
            let value = if name == "Result" {
                marker.as_str()
            } else {
                unknown
            };
            tree.tags.insert(name, value);
        }
        tree.tags.set_start(game.start());
        let mut parent = None;
        for (ply, &m) in game.moves().iter().enumerate() {
            let before = game.position_at(ply).expect("a position before every move");
            parent = Some(tree.add_move(parent, SanPlus::from_move(before, m)));
        }
        tree.termination_marker = Some(marker);
        tree
    }
}

impl From<&Game> for GameTree {
    /// [`GameTree::from_game`].
    fn from(game: &Game) -> GameTree {
        GameTree::from_game(game)
    }
}

impl TryFrom<&GameTree> for Game {
    type Error = ToGameError;

    /// [`GameTree::to_game`].
    fn try_from(tree: &GameTree) -> Result<Game, ToGameError> {
        tree.to_game()
    }
}

fn play(game: &mut Game, played: Option<caissa_movegen::Move>) -> Result<(), ToGameError> {
    let ply = game.ply();
    let m = played.ok_or(ToGameError::NullMove { ply })?;
    // The replay checked the move against the position.
    game.play_unchecked(m);
    Ok(())
}
