//! The one module allowed `unsafe`: CPU-specific instructions.
//!
//! - Perft compiled for CPUs with `POPCNT`, chosen at run time. A portable x86-64 build cannot
//!   assume `POPCNT`, so `count_ones` becomes a dozen instructions, and bulk-counting perft
//!   spends much of its time there. This module compiles the same perft with
//!   `#[target_feature(enable = "popcnt")]`, and [`perft`](crate::perft) calls it after
//!   `is_x86_feature_detected!` says the CPU has the instruction. Measured gain: see
//!   docs/PERFORMANCE.md.
//! - `PEXT` for slider lookups, only in builds that enable BMI2 at compile time (an opt-in, such
//!   as `-C target-cpu=native`); the build script then lays the attack table out for it.

#![allow(unsafe_code)]

use crate::perft::perft_body;
use crate::position::Position;

#[target_feature(enable = "popcnt")]
fn perft_featured(pos: &Position, depth: u32) -> u64 {
    perft_body!(perft_featured, pos, depth)
}

/// Perft with hardware popcount.
///
/// # Panics
///
/// Never; but it must only be called once the CPU is known to support `POPCNT`.
pub(crate) fn perft_popcnt(pos: &Position, depth: u32) -> u64 {
    debug_assert!(std::is_x86_feature_detected!("popcnt"));
    // SAFETY: the only caller, `crate::perft`, checks `is_x86_feature_detected!("popcnt")`
    // first, so the CPU executes the POPCNT instructions this function is compiled with.
    unsafe { perft_featured(pos, depth) }
}

/// Parallel bit extract: the bits of `value` selected by `mask`, packed into the low bits.
#[cfg(target_feature = "bmi2")]
#[inline(always)]
pub(crate) fn pext(value: u64, mask: u64) -> u64 {
    // SAFETY: this function only exists when BMI2 is enabled for the whole build
    // (`cfg(target_feature = "bmi2")`), so every CPU the binary is built for has PEXT.
    unsafe { core::arch::x86_64::_pext_u64(value, mask) }
}
