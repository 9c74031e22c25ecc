//! `caissa status`: where a game stands under the FIDE Laws after some moves from a position.
//!
//! Output on stdout, nine `key: value` lines in this order (stable, for scripts):
//!
//! | key | values | meaning |
//! |---|---|---|
//! | `check` | `yes`, `no` | the side to move is in check |
//! | `checkmate` | `yes`, `no` | the side to move is checkmated (5.1.1) |
//! | `stalemate` | `yes`, `no` | the side to move is stalemated (5.2.1) |
//! | `dead` | `yes`, `no` | neither side can checkmate (5.2.2), as far as the analysis proves |
//! | `white_can_win` | `yes`, `no`, `unknown` | White can still checkmate |
//! | `black_can_win` | `yes`, `no`, `unknown` | Black can still checkmate |
//! | `claimable` | `none`, `threefold`, `fifty`, `both` | draws the side to move may claim now (9.2, 9.3) |
//! | `outcome` | `*`, `1-0`, `0-1`, `1/2-1/2` | the automatic result, `*` while the game goes on |
//! | `reason` | `none`, `checkmate`, `stalemate`, `dead_position`, `seventy_five_moves`, `fivefold_repetition` | why the game ended |
//!
//! Moves are given in SAN (`Nf3`, `O-O`, `e8=Q`) or UCI (`g1f3`, `e1g1`), separated by
//! spaces; a move that is not legal, or one played after the game has ended, is an error (exit
//! status 2) naming the move's number and text.

use caissa::game::dead::{self, Winnability};
use caissa::game::{Game, Outcome};
use caissa::movegen::{CastlingMode, Move, Position};
use caissa::notation::san::{ParseSanError, SanError, SanPlus};
use caissa::notation::uci::{UciError, UciMove};
use clap::Args;

use crate::error::CliError;
use crate::position::{START_FEN, VariantArgs, read_position};

/// Arguments of `caissa status`.
#[derive(Debug, Args)]
pub(crate) struct StatusArgs {
    /// The start position, as FEN (default: the standard starting position).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Moves played from it, in SAN or UCI, separated by spaces ("e4 e5 Nf3" or "e2e4 e7e5").
    #[arg(long, default_value = "")]
    moves: String,
    #[command(flatten)]
    variant: VariantArgs,
}

/// What is wrong with a move of `--moves`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum MoveProblem {
    /// Not SAN (nor UCI).
    #[error(transparent)]
    Syntax(#[from] ParseSanError),
    /// SAN that fits no legal move, or several.
    #[error(transparent)]
    San(#[from] SanError),
    /// UCI that is not a legal move.
    #[error(transparent)]
    Uci(#[from] UciError),
    /// The game had already ended.
    #[error("the game is already over: {0}")]
    GameOver(Outcome),
}

/// Runs `caissa status`.
///
/// # Errors
///
/// [`CliError::Fen`] for a bad `--fen`, [`CliError::Move`] for a bad move, [`CliError::Write`]
/// for a failing stdout.
pub(crate) fn run(args: &StatusArgs) -> Result<(), CliError> {
    let text = status(&args.fen, &args.moves, args.variant.mode())?;
    crate::print(&text)
}

/// The status lines for `moves` played from `fen`.
fn status(fen: &str, moves: &str, mode: CastlingMode) -> Result<String, CliError> {
    let start = read_position(fen, mode)?;
    let mut game = Game::new(start);
    for (i, text) in moves.split_whitespace().enumerate() {
        let problem = |problem: MoveProblem| CliError::Move {
            number: i + 1,
            text: text.to_owned(),
            problem,
        };
        if let Some(outcome) = game.outcome() {
            return Err(problem(MoveProblem::GameOver(outcome)));
        }
        let m = parse_move(game.position(), text).map_err(problem)?;
        game.play_unchecked(m);
    }

    let pos = game.position();
    let outcome = game.outcome();
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let can_win = |color| match dead::can_win(pos, color) {
        Winnability::Winnable(_) => "yes",
        Winnability::Unwinnable => "no",
        Winnability::Unknown => "unknown",
    };
    let lines = [
        ("check", yes_no(pos.is_check())),
        ("checkmate", yes_no(pos.is_checkmate())),
        ("stalemate", yes_no(pos.is_stalemate())),
        ("dead", yes_no(dead::is_dead(pos))),
        ("white_can_win", can_win(caissa::Color::White)),
        ("black_can_win", can_win(caissa::Color::Black)),
        ("claimable", game.claims().summary()),
        ("outcome", outcome.map_or("*", |o| o.result.as_str())),
        ("reason", outcome.map_or("none", |o| o.reason.name())),
    ];
    Ok(lines
        .iter()
        .map(|(key, value)| format!("{key}: {value}\n"))
        .collect())
}

/// A legal move of `pos` given in UCI (when the text has UCI's shape) or SAN.
fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveProblem> {
    if let Ok(uci) = UciMove::from_ascii(text.as_bytes()) {
        return Ok(uci.to_move(pos)?);
    }
    Ok(SanPlus::from_ascii(text.as_bytes())?.san.to_move(pos)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `expected` holds the nine values in order, separated by spaces; `?` stands for `yes`
    /// or `unknown` (a deeper analysis may turn `unknown` into `yes`, never into `no`), `_` for
    /// any value.
    fn check(fen: &str, moves: &str, expected: &str) {
        let text = status(fen, moves, CastlingMode::Standard).unwrap_or_else(|e| panic!("{e}"));
        let values: Vec<&str> = text
            .lines()
            .map(|line| line.split_once(": ").expect("key: value").1)
            .collect();
        let expected: Vec<&str> = expected.split(' ').collect();
        assert_eq!(values.len(), expected.len(), "{fen} {moves}: {text}");
        for (value, wanted) in values.iter().zip(expected) {
            let fits = match wanted {
                "?" => matches!(*value, "yes" | "unknown"),
                "_" => true,
                _ => *value == wanted,
            };
            assert!(fits, "{fen} {moves}: {value} for {wanted} in\n{text}");
        }
    }

    #[test]
    fn prints_the_nine_keys_in_order() {
        let text = status(START_FEN, "", CastlingMode::Standard).expect("the start");
        let keys: Vec<&str> = text
            .lines()
            .map(|line| line.split_once(": ").expect("key: value").0)
            .collect();
        assert_eq!(
            keys,
            [
                "check",
                "checkmate",
                "stalemate",
                "dead",
                "white_can_win",
                "black_can_win",
                "claimable",
                "outcome",
                "reason"
            ]
        );
    }

    #[test]
    fn statuses() {
        // Values in order: check checkmate stalemate dead white_can_win black_can_win claimable
        // outcome reason.
        check(START_FEN, "", "no no no no ? ? none * none");
        check(
            START_FEN,
            "f3 e5 g4 Qh4#",
            "yes yes no no _ _ none 0-1 checkmate",
        );
        check(
            "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "",
            "no no yes _ _ no none 1/2-1/2 stalemate",
        );
        check(
            "8/8/8/4k3/8/8/2n5/1B2K3 w - - 0 1",
            "b1c2",
            "no no no yes no no none 1/2-1/2 dead_position",
        );
        check(
            START_FEN,
            "Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
            "no no no no ? ? threefold * none",
        );
        check(
            "8/8/8/8/8/4k3/8/R3K3 w - - 99 80",
            "Ra2",
            "no no no no ? no fifty * none",
        );
        check(
            "8/8/8/8/8/4k3/8/R3K3 w - - 97 80",
            "Ra2 Kd3 Ra1 Ke3 Ra2 Kd3 Ra1 Ke3",
            "no no no no ? no both * none",
        );
        check(
            "8/8/8/8/8/4k3/8/R3K3 w - - 149 100",
            "Ra2",
            "no no no no ? no none 1/2-1/2 seventy_five_moves",
        );
        check(
            START_FEN,
            "g1f3 g8f6 f3g1 f6g8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8",
            "no no no no ? ? none 1/2-1/2 fivefold_repetition",
        );
    }

    #[test]
    fn bad_moves_are_named() {
        let error = |moves| {
            status(START_FEN, moves, CastlingMode::Standard)
                .expect_err(moves)
                .to_string()
        };
        assert_eq!(
            error("e4 e5 Nf9"),
            format!(
                "move 3 (Nf9): {}",
                SanPlus::from_ascii(b"Nf9").expect_err("not SAN")
            )
        );
        assert!(error("e4 e4").starts_with("move 2 (e4): illegal move"));
        assert!(error("e2e5").starts_with("move 1 (e2e5): illegal UCI move"));
        assert_eq!(
            error("f3 e5 g4 Qh4# Nf3"),
            "move 5 (Nf3): the game is already over: 0-1 (checkmate, 5.1.1)"
        );
    }
}
