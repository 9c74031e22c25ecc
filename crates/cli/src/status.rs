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
//! spaces ([`caissa_cli::move_list`]); a move that is not legal, or one played after the game
//! has ended, is an error (exit status 2) naming the move's number and text.

use caissa::game::Game;
use caissa::game::dead::{self, Winnability};
use caissa::movegen::CastlingMode;
use caissa_cli::move_list::play_moves;
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
    play_moves(&mut game, moves)?;

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
