//! Fuzz target `pgn_select`: any bytes selected and rewritten by `caissa pgn select`'s library,
//! with games skipped unread as its `--dedupe` does, and read by one reader.
//!
//! The first byte chooses the format (PGN, UCI, a row), whether the reading is lenient and
//! whether comments, glyphs and variations are stripped; the rest is the input. Checked:
//!
//! - nothing panics, and the selector gives as many games as a reader of the input does, each
//!   broken game with the error (and its place) that the reader with the replayer of
//!   `caissa pgn check` gives (when variations are kept);
//! - skipping every other game that is not broken (by its bytes, from its start to the next
//!   game's), as dedupe skips its repeats, gives exactly those as skipped, where they were,
//!   and every other game as without skipping; skipping all of them leaves only the broken
//!   games as they were.

use core::ops::{ControlFlow, Range};

use caissa_notation::pgn::{Reader, Replayer};
use caissa_pgntools::{
    Format, InputGame, SelectOptions, Selection, Strip, select, select_skipping,
};

/// The games `select_skipping` gives, skipping the games of `skip`.
fn run(input: &[u8], options: &SelectOptions, skip: &[Range<u64>]) -> Vec<InputGame> {
    let mut games = Vec::new();
    let skip = |_| Ok(skip.to_vec());
    select_skipping(input, options, 1, skip, |game| {
        games.push(game);
        ControlFlow::Continue(())
    })
    .expect("input in memory does not fail");
    games
}

/// Checks the invariants of the module docs on `data`.
pub fn check(data: &[u8]) {
    let [choice, input @ ..] = data else {
        return;
    };
    let options = SelectOptions {
        format: match choice % 3 {
            0 => Format::Pgn,
            1 => Format::Uci,
            _ => Format::Row(Default::default()),
        },
        lenient: choice & 4 != 0,
        strip: if choice & 8 != 0 {
            Strip {
                comments: true,
                nags: true,
                variations: true,
                commands: true,
            }
        } else {
            Strip::default()
        },
        ..SelectOptions::default()
    };
    let mut all = Vec::new();
    select(input, &options, 1, |game| {
        all.push(game);
        ControlFlow::Continue(())
    })
    .expect("input in memory does not fail");
    let read: Vec<_> = Reader::new(input)
        .lenient(options.lenient)
        .games(&mut Replayer::new())
        .collect();
    assert_eq!(
        all.len(),
        read.len(),
        "the selector and a reader count other games"
    );
    // Every game is replayed (no filter): a broken one is reported as the reader and the
    // replayer of `caissa pgn check` report it, with the same place; unless its variations
    // are stripped, which the reader then skips rather than reads (a variation's first fault,
    // inside it, may then be found later, or not at all).
    let compared = if options.strip.variations {
        0
    } else {
        all.len()
    };
    for (i, (game, replayed)) in all.iter().zip(&read).take(compared).enumerate() {
        match (&game.selection, replayed) {
            (Selection::Broken(broken), Err(error)) => {
                assert_eq!(&broken.error, error, "game {i}: another error");
            }
            (Selection::Broken(broken), Ok(_)) => {
                panic!("game {i}: broken for the selector only: {}", broken.error);
            }
            (_, Err(error)) => panic!("game {i}: broken for the replayer only: {error}"),
            _ => {}
        }
    }

    // Only games read whole are skipped, as dedupe skips them (a broken game ends where its
    // error leaves it, which a reading that does not replay does not see).
    let ends = all.iter().skip(1).map(|game| game.offset).chain([u64::MAX]);
    let whole: Vec<Range<u64>> = all
        .iter()
        .zip(ends)
        .filter(|(game, _)| !matches!(game.selection, Selection::Broken(_)))
        .map(|(game, end)| game.offset..end)
        .collect();
    let skips =
        |games: &[Range<u64>], game: &InputGame| games.iter().any(|g| g.start == game.offset);
    let every_other: Vec<Range<u64>> = whole.iter().step_by(2).cloned().collect();
    let skipped = run(input, &options, &every_other);
    assert_eq!(skipped.len(), all.len(), "skipping changed the games");
    for (i, (game, before)) in skipped.iter().zip(&all).enumerate() {
        if skips(&every_other, before) {
            assert_eq!(game.selection, Selection::Skipped, "game {i} not skipped");
            assert!(game.warnings.is_empty(), "game {i} skipped but looked at");
            assert_eq!(
                (game.offset, game.location),
                (before.offset, before.location),
                "game {i} moved"
            );
        } else {
            assert_eq!(game, before, "game {i} changed by skipping its neighbours");
        }
    }
    let none = run(input, &options, &whole);
    assert_eq!(
        none.len(),
        all.len(),
        "skipping every game changed their count"
    );
    for (i, (game, before)) in none.iter().zip(&all).enumerate() {
        if skips(&whole, before) {
            assert_eq!(game.selection, Selection::Skipped, "game {i} not skipped");
            assert_eq!(game.location, before.location, "game {i} moved");
        } else {
            assert_eq!(
                game, before,
                "broken game {i} changed by skipping the others"
            );
        }
    }
}
