//! Sorting more fixed-size records than memory should hold: runs of at most `capacity` records
//! are sorted in memory and written to spill files the caller opens, then merged.
//!
//! This crate opens no file: [`ExternalSort`] asks the caller's function for each spill file (a
//! [`Read`] + [`Write`] + [`Seek`], an anonymous temporary file in the CLI) and reads it back
//! from its start. Memory: `capacity` records while sorting, and one buffer per run while
//! merging. Runs are merged in tiers, [`FAN_IN`] of a tier into one of the next as they come,
//! so that the spill files open and the buffers of the last merge stay bounded (at most
//! `FAN_IN - 1` runs a tier, and `log_FAN_IN` of the runs tiers) whatever the input.

use core::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};

/// A record of a fixed number of bytes.
pub(crate) trait Record: Ord + Copy {
    /// Its size in bytes.
    const SIZE: usize;
    /// Writes its `SIZE` bytes.
    fn write(&self, out: &mut [u8]);
    /// Reads it from `SIZE` bytes that [`Record::write`] wrote.
    fn read(bytes: &[u8]) -> Self;
    /// Where it stands in order, roughly, if records tell it cheaply: one of [`BUCKETS`], a
    /// record of a lower bucket before any of a higher one. A run of such records is sorted a
    /// bucket at a time ([`sort_run`]); the others are sorted as they are.
    fn bucket(&self) -> Option<usize> {
        None
    }
}

impl Record for u64 {
    const SIZE: usize = 8;

    fn write(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.to_le_bytes());
    }

    fn read(bytes: &[u8]) -> u64 {
        let mut le = [0; 8];
        le.copy_from_slice(bytes);
        u64::from_le_bytes(le)
    }
}

impl Record for (u64, u64, u64) {
    const SIZE: usize = 24;

    fn write(&self, out: &mut [u8]) {
        self.0.write(&mut out[..8]);
        self.1.write(&mut out[8..16]);
        self.2.write(&mut out[16..]);
    }

    fn read(bytes: &[u8]) -> (u64, u64, u64) {
        (
            u64::read(&bytes[..8]),
            u64::read(&bytes[8..16]),
            u64::read(&bytes[16..]),
        )
    }
}

/// The runs of one tier merged into one of the next: each record is written about
/// `log_FAN_IN` of the runs times. (Every spill file held open, and all merged at once, a
/// small memory or a huge input ran out of open files.)
pub(crate) const FAN_IN: usize = 64;

/// Records pushed in any order, given back sorted.
pub(crate) struct ExternalSort<T, S, F> {
    capacity: usize,
    records: Vec<T>,
    /// The runs on disk with their tiers, the lower tiers last: each run of tier `t` holds the
    /// records of `FAN_IN^t` spills.
    runs: Vec<(u32, S)>,
    spill: F,
}

impl<T, S, F> ExternalSort<T, S, F>
where
    T: Record,
    S: Read + Write + Seek,
    F: FnMut() -> io::Result<S>,
{
    /// Holds at most `capacity` records (at least one) in memory; `spill` opens a file for
    /// each run past that.
    pub(crate) fn new(capacity: usize, spill: F) -> Self {
        ExternalSort {
            capacity: capacity.max(1),
            records: Vec::new(),
            runs: Vec::new(),
            spill,
        }
    }

    /// Adds a record; a full memory is sorted and written to a new spill file first.
    pub(crate) fn push(&mut self, record: T) -> io::Result<()> {
        if self.records.len() == self.capacity {
            self.spill_run()?;
        }
        self.records.push(record);
        Ok(())
    }

    fn spill_run(&mut self) -> io::Result<()> {
        sort_run(&mut self.records);
        let run = write_run(&mut self.spill, self.records.drain(..).map(Ok))?;
        self.runs.push((0, run));
        // A tier full: its runs merged into one of the next, which may fill that one.
        while let Some(&(tier, _)) = self.runs.last() {
            let full = self
                .runs
                .iter()
                .rev()
                .take_while(|(t, _)| *t == tier)
                .count();
            if full < FAN_IN {
                break;
            }
            let merged = self.runs.split_off(self.runs.len() - full);
            let sources = merged.into_iter().map(|(_, run)| run).collect();
            let run = write_run(&mut self.spill, Sorted::<T, S>::of(sources, Vec::new())?)?;
            self.runs.push((tier + 1, run));
        }
        Ok(())
    }

    /// The spill files written so far.
    #[cfg(test)]
    pub(crate) fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Every record pushed, in order, and the spill function back.
    pub(crate) fn sorted(mut self) -> io::Result<(Sorted<T, S>, F)> {
        sort_run(&mut self.records);
        let runs = self.runs.into_iter().map(|(_, run)| run).collect();
        Ok((Sorted::of(runs, self.records)?, self.spill))
    }
}

/// A spill file that `spill` opens, of `records` in the order given.
fn write_run<T: Record, S: Write>(
    spill: &mut impl FnMut() -> io::Result<S>,
    records: impl Iterator<Item = io::Result<T>>,
) -> io::Result<S> {
    let mut file = BufWriter::new(spill()?);
    let mut bytes = vec![0; T::SIZE];
    for record in records {
        record?.write(&mut bytes);
        file.write_all(&bytes)?;
    }
    file.into_inner().map_err(io::IntoInnerError::into_error)
}

/// Where a run is read from.
/// The buckets of [`Record::bucket`].
pub(crate) const BUCKETS: usize = 1 << 12;

/// Sorts a run of records: by bucket first, where records have one ([`Record::bucket`]), in
/// place (American flag sort: each record swapped straight into its bucket's part of the run),
/// then each bucket alone. Records of random buckets (hashes, say) are so sorted with a few
/// comparisons each, where a sort of the whole run makes about `log2(len)`.
fn sort_run<T: Record>(records: &mut [T]) {
    if records.len() < 2 * BUCKETS || records[0].bucket().is_none() {
        records.sort_unstable();
        return;
    }
    let bucket = |record: &T| record.bucket().map_or(0, |b| b.min(BUCKETS - 1));
    let mut ends = vec![0usize; BUCKETS];
    for record in records.iter() {
        ends[bucket(record)] += 1;
    }
    // Each bucket's part of the run: `starts[b]..ends[b]`; `next[b]`, its first record not in
    // place yet.
    let mut total = 0;
    for end in &mut ends {
        total += *end;
        *end = total;
    }
    let starts: Vec<usize> = core::iter::once(0)
        .chain(ends[..BUCKETS - 1].iter().copied())
        .collect();
    let mut next = starts.clone();
    for b in 0..BUCKETS {
        while next[b] < ends[b] {
            let to = bucket(&records[next[b]]);
            if to == b {
                next[b] += 1;
            } else {
                records.swap(next[b], next[to]);
                next[to] += 1;
            }
        }
    }
    for (&start, &end) in starts.iter().zip(&ends) {
        records[start..end].sort_unstable();
    }
}

enum Source<T, S> {
    File(BufReader<S>),
    Memory(std::vec::IntoIter<T>),
}

/// The records of an [`ExternalSort`], in order: the runs merged.
pub(crate) struct Sorted<T, S> {
    /// The next record of each run that has one, with the run's index.
    heap: BinaryHeap<Reverse<(T, usize)>>,
    sources: Vec<Source<T, S>>,
    bytes: Vec<u8>,
}

impl<T: Record, S: Read + Seek> Sorted<T, S> {
    /// The records of `runs` (spill files, each read from its start) and of `memory` (sorted),
    /// merged.
    fn of(runs: Vec<S>, memory: Vec<T>) -> io::Result<Sorted<T, S>> {
        let mut sources = Vec::with_capacity(runs.len() + 1);
        for mut file in runs {
            file.seek(SeekFrom::Start(0))?;
            sources.push(Source::File(BufReader::new(file)));
        }
        sources.push(Source::Memory(memory.into_iter()));
        let mut sorted = Sorted {
            heap: BinaryHeap::with_capacity(sources.len()),
            sources,
            bytes: vec![0; T::SIZE],
        };
        for index in 0..sorted.sources.len() {
            sorted.refill(index)?;
        }
        Ok(sorted)
    }
}

impl<T: Record, S: Read> Sorted<T, S> {
    /// Puts run `index`'s next record, if any, on the heap.
    fn refill(&mut self, index: usize) -> io::Result<()> {
        let next = match &mut self.sources[index] {
            Source::Memory(records) => records.next(),
            Source::File(file) => {
                // A run holds whole records: the end can only fall between two.
                if io::BufRead::fill_buf(file)?.is_empty() {
                    None
                } else {
                    file.read_exact(&mut self.bytes)?;
                    Some(T::read(&self.bytes))
                }
            }
        };
        if let Some(record) = next {
            self.heap.push(Reverse((record, index)));
        }
        Ok(())
    }
}

impl<T: Record, S: Read> Iterator for Sorted<T, S> {
    type Item = io::Result<T>;

    fn next(&mut self) -> Option<io::Result<T>> {
        let Reverse((record, index)) = self.heap.pop()?;
        Some(self.refill(index).map(|()| record))
    }
}

#[cfg(test)]
mod tests {
    use std::io::Cursor;

    use super::*;

    /// `sort`, given `values`, gives them back in order.
    fn assert_sorts<F>(sort: ExternalSort<u64, Cursor<Vec<u8>>, F>, mut values: Vec<u64>)
    where
        F: FnMut() -> io::Result<Cursor<Vec<u8>>>,
    {
        let sorted: Vec<u64> = sort
            .sorted()
            .expect("in memory")
            .0
            .map(Result::unwrap)
            .collect();
        values.sort_unstable();
        assert_eq!(sorted, values);
    }

    #[test]
    fn runs_on_disk_merge_into_one_order() {
        let mut sort = ExternalSort::new(7, || Ok(Cursor::new(Vec::new())));
        // A permutation of 0..1000 with repeats: i * 389 mod 1000, each twice.
        let values: Vec<u64> = (0..2000).map(|i| (i * 389) % 1000).collect();
        for &value in &values {
            sort.push(value).expect("in memory");
        }
        // 285 spills: four runs of 64 merged, and 29 more.
        assert_eq!(sort.runs(), 4 + 29);
        assert_sorts(sort, values);
    }

    /// However many spills, the runs kept are fewer than `FAN_IN` a tier, and merge into one
    /// order.
    #[test]
    fn the_runs_kept_stay_few() {
        let mut sort = ExternalSort::new(1, || Ok(Cursor::new(Vec::new())));
        let values: Vec<u64> = (0..70_000).map(|i| (i * 7919) % 70_000).collect();
        let mut most = 0;
        for &value in &values {
            sort.push(value).expect("in memory");
            most = most.max(sort.runs());
        }
        // 69,999 spills: 17 runs of 4,096, 5 of 64 and 47 alone.
        assert_eq!(sort.runs(), 17 + 5 + 47);
        assert!(most < 3 * FAN_IN, "{most}");
        assert_sorts(sort, values);
    }

    /// A record that tells its bucket: its value's first bits, as a hash's.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    struct Hashed(u64, u64);

    impl Record for Hashed {
        const SIZE: usize = 16;

        fn write(&self, out: &mut [u8]) {
            self.0.write(&mut out[..8]);
            self.1.write(&mut out[8..]);
        }

        fn read(bytes: &[u8]) -> Hashed {
            Hashed(u64::read(&bytes[..8]), u64::read(&bytes[8..]))
        }

        fn bucket(&self) -> Option<usize> {
            Some((self.0 >> 52) as usize)
        }
    }

    /// Runs sorted a bucket at a time come out as a whole sort orders them: keys spread or
    /// crowded into a few buckets, repeated, with ties broken by the rest of the record.
    #[test]
    fn runs_sorted_by_bucket_are_in_order() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut random = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            state
        };
        for (len, spread) in [
            (0_usize, 64),
            (100, 64),
            (20_000, 64),
            (50_000, 2),
            (50_000, 64),
        ] {
            let mut records: Vec<Hashed> = (0..len as u64)
                .map(|i| Hashed(random() >> (64 - spread), i % 7))
                .collect();
            // Repeats of earlier keys.
            for i in 0..len / 3 {
                let earlier = records[(i * 13) % len.max(1)].0;
                records.push(Hashed(earlier, i as u64 % 5));
            }
            let mut expected = records.clone();
            expected.sort_unstable();
            sort_run(&mut records);
            assert_eq!(records, expected, "{len} {spread}");
        }
    }

    #[test]
    fn without_a_spill_nothing_is_opened() {
        let mut sort = ExternalSort::new(10, || -> io::Result<Cursor<Vec<u8>>> {
            Err(io::Error::other("no spill expected"))
        });
        for value in [3_u64, 1, 2] {
            sort.push(value).expect("fits");
        }
        let sorted: Vec<u64> = sort.sorted().expect("fits").0.map(Result::unwrap).collect();
        assert_eq!(sorted, [1, 2, 3]);
    }

    #[test]
    fn a_spill_that_cannot_open_is_an_error() {
        let mut sort = ExternalSort::new(1, || -> io::Result<Cursor<Vec<u8>>> {
            Err(io::Error::other("disk full"))
        });
        sort.push(1_u64).expect("fits");
        assert_eq!(sort.push(2).unwrap_err().to_string(), "disk full");
    }
}
