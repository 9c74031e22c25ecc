//! Fuzz target `pgn_commands`: any bytes read as a comment's embedded commands (`[%clk ...]`,
//! `[%emt ...]`, `[%eval ...]`, `[%csl ...]`, `[%cal ...]` and the others).

use caissa_notation::pgn::RawComment;
use caissa_notation::pgn::commands::{Command, Commands};

/// Checks that reading the commands never panics and ends, that every error points at a `[`
/// of the comment, that each known command written back reads back the same, and that the
/// text without commands is trimmed, with single spaces.
pub fn check(data: &[u8]) {
    let commands: Vec<_> = RawComment::braced(data).commands().collect();
    // Every command takes at least `[%]`.
    assert!(
        commands.len() <= data.len() / 3,
        "{} commands in {} bytes",
        commands.len(),
        data.len()
    );
    for command in &commands {
        match command {
            Ok(command) => round_trip(command),
            Err(error) => {
                super::assert_offset_inside(error.byte, error, data);
                assert_eq!(data.get(error.byte), Some(&b'['), "{error}");
            }
        }
    }
    // (Whitespace as the commands reader counts it: ASCII, without the vertical tab.)
    let text = Commands::new(data).text_without_commands();
    let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace());
    assert_eq!(trimmed, text, "{text:?} is not trimmed");
    assert!(!text.contains("  "), "{text:?} has a run of spaces");
}

/// A known command, written, reads back as one command that is written the same (shapes are
/// compared by what they write, as they borrow the comment's bytes).
fn round_trip(command: &Command<'_>) {
    if matches!(command, Command::Other { .. }) {
        return;
    }
    let written = command.to_string();
    let again: Vec<_> = Commands::new(written.as_bytes()).collect();
    match again.as_slice() {
        [Ok(back)] => {
            assert_eq!(
                back.to_string(),
                written,
                "{command:?} reads back as {back:?}"
            );
            if matches!(
                command,
                Command::Clock(_) | Command::ElapsedMoveTime(_) | Command::Eval(_)
            ) {
                assert_eq!(back, command, "{written}");
            }
        }
        other => panic!("{command:?} is written {written:?}, which reads as {other:?}"),
    }
}
