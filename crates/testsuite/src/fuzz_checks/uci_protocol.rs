//! The invariants of the `uci_protocol` fuzz target: UCI lines in both directions.

use caissa_uci::protocol::{EngineMessage, GuiCommand, ParseUciLineError, Parsed};

/// Reads `data` (as UTF-8, lossily) as a GUI command and as an engine message: no panic; an
/// error points inside the line (or at its end); ignored tokens are tokens of the line; what
/// reads is written and reads back as the same value, with nothing ignored.
pub fn check(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    check_direction(&line, GuiCommand::parse);
    check_direction(&line, EngineMessage::parse);
}

fn check_direction<T: core::fmt::Debug + core::fmt::Display + PartialEq>(
    line: &str,
    parse: fn(&str) -> Result<Parsed<T>, ParseUciLineError>,
) {
    let tokens = line.split_ascii_whitespace().count();
    match parse(line) {
        Err(e) => {
            assert!(e.byte <= line.len(), "{line:?}: {e} is past the end");
            assert!(e.token <= tokens, "{line:?}: {e} is past the last token");
        }
        Ok(parsed) => {
            for t in &parsed.ignored {
                assert_eq!(
                    line.get(t.byte..t.byte + t.text.len()),
                    Some(t.text.as_str()),
                    "{line:?}: ignored {t:?}"
                );
                assert!(t.token < tokens, "{line:?}: ignored {t:?}");
            }
            let written = parsed.message.to_string();
            let again = parse(&written)
                .unwrap_or_else(|e| panic!("{line:?} is written {written:?}, which fails: {e}"));
            assert_eq!(
                again.message, parsed.message,
                "{line:?} written {written:?}"
            );
            assert!(
                again.ignored.is_empty(),
                "{written:?} ignores {:?}",
                again.ignored
            );
        }
    }
}
