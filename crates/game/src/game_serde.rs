//! serde for [`Game`] (feature `serde`): what a server stores of a game, its start position
//! and its moves, as `{"start": FEN, "chess960": false, "moves": ["e2e4", "e7e5", ...]}`
//! (X-FEN, UCI moves in the game's castling convention). Reading it replays the moves, so
//! every position, repetition and claim is there again; an illegal move, or one after the
//! game ended, is an error.

use caissa_movegen::{CastlingMode, Fen, UciMove};
use serde::{Deserialize, Serialize, de::Error as _};

use crate::game::Game;

/// A game as written.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameRecord {
    start: String,
    #[serde(default)]
    chess960: bool,
    moves: Vec<String>,
}

impl Serialize for Game {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let moves = self
            .positions()
            .zip(self.moves())
            .map(|(pos, &m)| UciMove::from_move(pos, m).to_string())
            .collect();
        GameRecord {
            start: Fen(self.start().to_setup()).to_string(),
            chess960: self.start().castling_mode() == CastlingMode::Chess960,
            moves,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Game {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Game, D::Error> {
        let record = GameRecord::deserialize(deserializer)?;
        let mode = if record.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        };
        let start = record
            .start
            .parse::<Fen>()
            .map_err(D::Error::custom)?
            .into_position(mode)
            .map_err(D::Error::custom)?;
        let mut game = Game::new(start);
        for (i, text) in record.moves.iter().enumerate() {
            let m = text
                .parse::<UciMove>()
                .map_err(D::Error::custom)?
                .to_move(game.position())
                .map_err(|e| D::Error::custom(format!("move {}, {text}: {e}", i + 1)))?;
            game.play(m)
                .map_err(|e| D::Error::custom(format!("move {}, {text}: {e}", i + 1)))?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use crate::Game;

    #[test]
    fn a_game_reads_back_as_its_start_and_moves() {
        let mut game = Game::chess960(518).expect("position 518");
        for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1"] {
            let m = uci
                .parse::<caissa_movegen::UciMove>()
                .unwrap()
                .to_move(game.position())
                .unwrap();
            game.play(m).unwrap();
        }
        let json = serde_json::to_string(&game).unwrap();
        assert!(
            json.ends_with(
                r#""chess960":true,"moves":["e2e4","e7e5","g1f3","b8c6","f1c4","g8f6","e1h1"]}"#
            ),
            "{json}"
        );
        let again: Game = serde_json::from_str(&json).unwrap();
        assert_eq!(again.start(), game.start());
        assert_eq!(again.moves(), game.moves());
        assert_eq!(again.position(), game.position());
        let standard = Game::standard();
        let json = serde_json::to_string(&standard).unwrap();
        assert_eq!(
            json,
            r#"{"start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","chess960":false,"moves":[]}"#
        );
        for bad in [
            json.replace("[]", r#"["e2e5"]"#),
            json.replace("[]", r#"["xyz"]"#),
            json.replace("8/8/8/8", "8/8/8"),
        ] {
            assert!(serde_json::from_str::<Game>(&bad).is_err(), "{bad}");
        }
    }
}
