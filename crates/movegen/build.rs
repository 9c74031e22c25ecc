//! Generates the sliding-piece attack tables into `$OUT_DIR/sliders.rs`.
//!
//! Each square gets a "fancy" magic: `((occupied & mask) * magic) >> shift` indexes its slice of
//! one shared table (rook and bishop entries together, 107,648 `u64`s). The magics are found by a
//! fixed-seed random search, so every build produces the same table. When the target has BMI2
//! (only with an opt-in `-C target-cpu` or `-C target-feature=+bmi2`), the same table is laid out
//! for PEXT indexing instead and no magics are needed.

use std::fmt::Write as _;
use std::path::PathBuf;

#[path = "src/geometry.rs"]
#[allow(dead_code)]
mod geometry;

use geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, relevant_occupancy, sliding_attacks};

struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn subsets(mask: u64) -> Vec<u64> {
    let mut all = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        all.push(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return all;
        }
    }
}

fn pext(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 1;
    while mask != 0 {
        if value & mask & mask.wrapping_neg() != 0 {
            result |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    result
}

/// Finds a magic for `square` and writes its attacks into `table` from `offset` on.
fn fill_square(
    square: u32,
    directions: &[(i32, i32); 4],
    use_pext: bool,
    rng: &mut Rng,
    table: &mut Vec<u64>,
) -> Entry {
    let mask = relevant_occupancy(square, directions);
    let bits = mask.count_ones();
    let offset = table.len();
    let occupancies = subsets(mask);
    let attacks: Vec<u64> = occupancies
        .iter()
        .map(|&occ| sliding_attacks(square, occ, directions))
        .collect();
    let size = 1usize << bits;
    table.resize(offset + size, 0);
    if use_pext {
        for (&occ, &att) in occupancies.iter().zip(&attacks) {
            table[offset + pext(occ, mask) as usize] = att;
        }
        return Entry {
            mask,
            magic: 0,
            shift: 0,
            offset,
        };
    }
    let shift = 64 - bits;
    let mut used = vec![u64::MAX; size];
    let mut epoch = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        attempt += 1;
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let fits = occupancies.iter().zip(&attacks).all(|(&occ, &att)| {
            let index = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[index] != attempt {
                epoch[index] = attempt;
                used[index] = att;
                true
            } else {
                used[index] == att
            }
        });
        if fits {
            for (&occ, &att) in occupancies.iter().zip(&attacks) {
                table[offset + (occ.wrapping_mul(magic) >> shift) as usize] = att;
            }
            return Entry {
                mask,
                magic,
                shift,
                offset,
            };
        }
    }
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/geometry.rs");
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let use_pext = features.split(',').any(|f| f == "bmi2");

    let mut rng = Rng(0x005e_ed0f_ca15_5a00);
    let mut table = Vec::new();
    let mut out = String::new();
    let mut entries = |name: &str, directions, out: &mut String, table: &mut Vec<u64>| {
        writeln!(out, "pub(crate) static {name}: [SliderEntry; 64] = [").unwrap();
        for square in 0..64 {
            let e = fill_square(square, directions, use_pext, &mut rng, table);
            writeln!(
                out,
                "    SliderEntry {{ mask: {:#018x}, magic: {:#018x}, shift: {}, offset: {} }},",
                e.mask, e.magic, e.shift, e.offset
            )
            .unwrap();
        }
        writeln!(out, "];").unwrap();
    };
    entries("ROOK_ENTRIES", &ROOK_DIRECTIONS, &mut out, &mut table);
    entries("BISHOP_ENTRIES", &BISHOP_DIRECTIONS, &mut out, &mut table);
    writeln!(
        out,
        "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [",
        table.len()
    )
    .unwrap();
    for chunk in table.chunks(8) {
        out.push_str("   ");
        for value in chunk {
            write!(out, " {value:#x},").unwrap();
        }
        out.push('\n');
    }
    writeln!(out, "];").unwrap();

    let path =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("sliders.rs");
    std::fs::write(path, out).expect("OUT_DIR is writable");
}
