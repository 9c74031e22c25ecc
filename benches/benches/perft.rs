//! Perft of every workload in [`caissa_benches::WORKLOADS`], for caissa and its peers side by
//! side; criterion reports nodes per second.
//!
//! ```text
//! cargo bench -p caissa-benches
//! ```

use std::hint::black_box;
use std::time::Duration;

use caissa_benches::{Library, WORKLOADS};
use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};

fn perft(c: &mut Criterion) {
    for workload in &WORKLOADS {
        let mut group = c.benchmark_group(format!("perft/{}", workload.id));
        // One run takes 0.2 to 1.5 seconds: flat sampling, one or two runs per sample.
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(10))
            .throughput(Throughput::Elements(workload.nodes));
        for library in Library::ALL {
            let pos = library
                .setup(workload.fen)
                .unwrap_or_else(|e| panic!("{e}"));
            // Checked before the first sample, inside the closure so that benches left out by
            // a filter are not run at all.
            let mut checked = false;
            group.bench_function(library.name(), |b| {
                if !checked {
                    assert_eq!(
                        pos.perft(workload.depth),
                        workload.nodes,
                        "{library} miscounts {}",
                        workload.id
                    );
                    checked = true;
                }
                b.iter(|| black_box(&pos).perft(black_box(workload.depth)));
            });
        }
        group.finish();
    }
}

criterion_group!(benches, perft);
criterion_main!(benches);
