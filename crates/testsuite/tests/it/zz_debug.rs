use caissa_pgntools::{Format, SelectOptions, Strip, select_skipping};
use core::ops::ControlFlow;
#[test]
fn dbg_crash() {
    let data = std::fs::read(std::env::var("CRASH").unwrap()).unwrap();
    let input = &data[1..];
    let options = SelectOptions {
        format: Format::Pgn,
        lenient: true,
        strip: Strip {
            comments: true,
            nags: true,
            variations: true,
            commands: true,
        },
        ..SelectOptions::default()
    };
    for skip in [vec![], vec![u64::MAX]] {
        let mut offsets = Vec::new();
        select_skipping(
            input,
            &options,
            1,
            |_| Ok(vec![]),
            |g| {
                offsets.push(g.offset);
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        let skip_all = if skip.is_empty() {
            vec![]
        } else {
            offsets.clone()
        };
        let mut games = Vec::new();
        select_skipping(
            input,
            &options,
            1,
            |_| Ok(skip_all.clone()),
            |g| {
                games.push((
                    g.offset,
                    g.location,
                    format!("{:?}", g.selection)
                        .chars()
                        .take(60)
                        .collect::<String>(),
                ));
                ControlFlow::Continue(())
            },
        )
        .unwrap();
        eprintln!("skip {:?}", skip_all);
        for g in games {
            eprintln!("  {:?}", g);
        }
    }
}
