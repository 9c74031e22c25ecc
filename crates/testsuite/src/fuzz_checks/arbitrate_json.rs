//! Fuzz target `arbitrate_json`: the JSON-lines front end of `caissa arbitrate`, on arbitrary
//! bytes. The log is replayed from memory and from a reader with a tiny buffer (so that lines
//! are cut at every place), and both must agree; every line is also given to the text parsers
//! an event's fields go through: time controls (PGN and readable forms), rules and moves.

use std::io::BufReader;

use caissa_arbiter::json::{self, EventLog, JsonLineError, LineErrorKind};
use caissa_arbiter::{MoveText, PgnTimeControl, Rules, TimeControl};

/// Runs the log through both readers and checks that they agree and that errors name a line
/// of the log; then checks the field parsers' round trips on each line.
pub fn check(data: &[u8]) {
    let lines = data.split(|&b| b == b'\n').count();
    let in_pieces = || BufReader::with_capacity(7, data);
    let streamed = json::arbitrate_reader(in_pieces(), || json::detect_presses(in_pieces()));
    match core::str::from_utf8(data) {
        Ok(text) => {
            let whole = json::arbitrate(text);
            assert_eq!(whole, streamed, "the two readers disagree");
            for line in text.lines() {
                check_fields(line);
            }
        }
        Err(_) => {
            if let Err(JsonLineError { kind, .. }) = &streamed {
                assert!(
                    !matches!(kind, LineErrorKind::Io(_)),
                    "a slice cannot fail to read"
                );
            }
        }
    }
    match streamed {
        Ok((verdict, event_lines)) => {
            let value = json::verdict_to_json(&verdict, Some(&event_lines));
            assert!(value.is_object());
            for decision in &verdict.decisions {
                let line = event_lines.line(decision.event).expect("a decision's line");
                assert!((1..=lines).contains(&line), "line {line} of {lines}");
            }
        }
        Err(e) => assert!(
            (1..=lines.max(1)).contains(&e.line),
            "{e}: of {lines} lines"
        ),
    }
    // The events read one by one are the log's non-blank lines, in order.
    let mut previous = 0;
    for (line, _) in EventLog::new(data).map_while(Result::ok) {
        assert!(
            line > previous && line <= lines,
            "line {line} after {previous}"
        );
        previous = line;
    }
}

/// The text forms an event's fields use read back what they write.
fn check_fields(text: &str) {
    if let Ok(PgnTimeControl::Control(control)) = TimeControl::from_pgn(text) {
        let written = control.to_pgn();
        assert_eq!(
            TimeControl::from_pgn(&written),
            Ok(PgnTimeControl::Control(control.clone())),
            "{text:?} written as {written:?}"
        );
    }
    if let Ok(control) = text.parse::<TimeControl>() {
        let written = control.to_string();
        assert_eq!(
            written.parse(),
            Ok(control),
            "{text:?} written as {written:?}"
        );
    }
    if let Ok(rules) = text.parse::<Rules>() {
        let written = rules.to_string();
        assert_eq!(
            written.parse::<Rules>(),
            Ok(rules),
            "{text:?} written as {written:?}"
        );
    }
    if let Ok(mv) = text.parse::<MoveText>() {
        let written = mv.to_string();
        assert_eq!(
            written.parse::<MoveText>(),
            Ok(mv),
            "{text:?} written as {written:?}"
        );
    }
}
