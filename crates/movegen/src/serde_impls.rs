//! serde for the move generator's types (feature `serde`): each as its text form.
//!
//! - [`Position`] as its FEN (the en passant square only where a legal capture exists), with
//!   X-FEN castling in [`CastlingMode::Standard`] and Shredder-FEN castling (rook files) in
//!   [`CastlingMode::Chess960`]; reading a FEN whose castling names rook files gives a Chess960
//!   position, any other one as `str::parse` reads it. So the mode survives the round trip
//!   whenever a castling right is left (without one, it makes no difference to the moves).
//! - [`Fen`] and [`UciMove`] as their text.
//! - [`Move`] is written as its UCI text with castling as the king taking its rook (`e1h1`):
//!   the text a move has on its own. A `Move` is not read back on its own: castling and en
//!   passant captures look like other moves in UCI, and only the position tells them apart.
//!   Read a [`UciMove`] and resolve it with [`UciMove::to_move`] in its position.

use core::fmt;

use crate::{CastlingMode, Fen, Move, Position, UciMove};

impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&UciMove::from_move_in_mode(*self, CastlingMode::Chess960))
    }
}

impl serde::Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.castling_mode() {
            CastlingMode::Standard => serializer.collect_str(self),
            CastlingMode::Chess960 => {
                let fen = Fen::from_position(self, crate::EnPassantMode::Legal);
                serializer.collect_str(&fen.shredder())
            }
        }
    }
}

impl<'de> serde::Deserialize<'de> for Position {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Position, D::Error> {
        deserializer.deserialize_str(Text(|text: &str| {
            // Rook files in the castling field (Shredder-FEN, or X-FEN for inner rooks) mean
            // Chess960.
            let castling = text.split_whitespace().nth(2).unwrap_or("-");
            if castling
                .bytes()
                .any(|c| matches!(c.to_ascii_lowercase(), b'a'..=b'h'))
            {
                let setup = text
                    .parse::<caissa_board::Setup>()
                    .map_err(crate::ParsePositionError::from)?;
                Ok(Position::from_setup(setup, CastlingMode::Chess960)?)
            } else {
                text.parse::<Position>()
            }
        }))
    }
}

impl serde::Serialize for Fen {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Fen {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Fen, D::Error> {
        deserializer.deserialize_str(Text(|text: &str| text.parse::<Fen>()))
    }
}

impl serde::Serialize for UciMove {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for UciMove {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<UciMove, D::Error> {
        deserializer.deserialize_str(Text(|text: &str| text.parse::<UciMove>()))
    }
}

/// A visitor that reads a string with `read`.
struct Text<F>(F);

impl<'de, T, E: fmt::Display, F: FnOnce(&str) -> Result<T, E>> serde::de::Visitor<'de> for Text<F> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<Err: serde::de::Error>(self, text: &str) -> Result<T, Err> {
        (self.0)(text).map_err(Err::custom)
    }
}

#[cfg(test)]
mod tests {
    use crate::{
        CastlingMode, Dropped, EnPassantMode, Fen, Move, Position, Setup, Square, UciMove,
    };

    fn round_trip<T>(value: T, json: &str)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + core::fmt::Debug,
    {
        assert_eq!(serde_json::to_string(&value).unwrap(), json);
        assert_eq!(serde_json::from_str::<T>(json).unwrap(), value);
    }

    #[test]
    fn positions_as_fen_keep_their_castling_mode() {
        round_trip(
            Position::standard(),
            r#""rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1""#,
        );
        for number in [0, 518, 959] {
            let pos = Position::chess960(number).unwrap();
            let json = serde_json::to_string(&pos).unwrap();
            let back: Position = serde_json::from_str(&json).unwrap();
            assert_eq!(back, pos);
            assert_eq!(back.castling_mode(), CastlingMode::Chess960, "{json}");
        }
        // The en passant square is written only where a capture is legal.
        let pos: Position = "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1".parse().unwrap();
        round_trip(pos, r#""4k3/8/8/8/4P3/8/8/4K3 b - - 0 1""#);
        assert!(serde_json::from_str::<Position>(r#""8/8/8/8/8/8/8/8 w - - 0 1""#).is_err());
        round_trip(
            Fen(Setup::standard()),
            r#""rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1""#,
        );
    }

    #[test]
    fn moves_are_written_as_uci_and_read_back_in_their_position() {
        let pos: Position = "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1".parse().unwrap();
        for m in pos.legal_moves() {
            let json = serde_json::to_string(&m).unwrap();
            let uci: UciMove = serde_json::from_str(&json).unwrap();
            assert_eq!(uci.to_move(&pos), Ok(m), "{json}");
        }
        let castle = Move::castle(Square::E1, Square::H1);
        assert_eq!(serde_json::to_string(&castle).unwrap(), r#""e1h1""#);
        round_trip(UciMove::Null, r#""0000""#);
        round_trip("e7e8q".parse::<UciMove>().unwrap(), r#""e7e8q""#);
    }

    #[test]
    fn small_types_in_snake_case() {
        round_trip(CastlingMode::Chess960, r#""chess960""#);
        round_trip(EnPassantMode::PseudoLegal, r#""pseudo_legal""#);
        round_trip(
            Dropped::default(),
            r#"{"castling_rights":[[null,null],[null,null]],"ep_square":null}"#,
        );
    }
}
