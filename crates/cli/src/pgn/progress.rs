//! The progress line of the long PGN runs (`select`, `split`, `stats`) on stderr: the bytes of
//! input read and their rate, the games and theirs. Hidden when stderr is not a terminal, so
//! that scripts see only the summary line.

use std::io::{IsTerminal, Read};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

/// How often the games count is written into the line, in games.
const GAMES_STEP: u64 = 4096;

/// The progress line of one run, over all its files.
#[derive(Debug)]
pub(super) struct Progress {
    bar: ProgressBar,
    games: u64,
}

impl Progress {
    /// A line on stderr if it is a terminal, else one that draws nothing.
    pub(super) fn new() -> Progress {
        let bar = if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} {spinner} {bytes} read ({bytes_per_sec}) {msg}",
                )
                .expect("the template is valid"),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        } else {
            ProgressBar::hidden()
        };
        Progress { bar, games: 0 }
    }

    /// `input`, counting the bytes read from it into the line.
    pub(super) fn reader<R: Read>(&self, input: R) -> impl Read + use<R> {
        self.bar.wrap_read(input)
    }

    /// Counts a game.
    pub(super) fn game(&mut self) {
        self.games += 1;
        if self.games.is_multiple_of(GAMES_STEP) {
            let seconds = self.bar.elapsed().as_secs_f64().max(1e-3);
            let rate = self.games as f64 / seconds;
            self.bar
                .set_message(format!("{} games ({rate:.0}/s)", self.games));
        }
    }

    /// Takes the line off the terminal.
    pub(super) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
