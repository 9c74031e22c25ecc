//! The one module allowed `unsafe`: CPU instructions that a portable build cannot assume.
//!
//! A leaf: it uses nothing of this crate, so auditing it means reading it alone.
//!
//! - `count_leaves` (feature `std`): counting the leaves of a `Tree`, compiled a second time for CPUs with
//!   `POPCNT` and run that way when the CPU is found at run time to have the instruction. A
//!   portable x86-64 build cannot assume `POPCNT`, so `count_ones` becomes a dozen
//!   instructions, and bulk-counting perft spends much of its time there; perft is such a tree
//!   (measured gain: see docs/PERFORMANCE.md).
//! - [`pext`]: `PEXT` for slider lookups, only in builds that enable BMI2 at compile time (an
//!   opt-in, such as `-C target-cpu=native`); the build script then lays the attack table out
//!   for it.

#![allow(unsafe_code)]

/// A tree whose leaves at some depth are counted, such as the tree of legal moves.
#[cfg(feature = "std")]
pub(crate) trait Tree {
    /// A node of the tree (copied to make each child).
    type Node: Copy;
    /// What leads from a node to one of its children.
    type Edge;
    /// The number of edges from `node`, counted without visiting them (the leaves one level
    /// below it).
    fn count_edges(node: &Self::Node) -> u64;
    /// Calls `f` with each edge from `node`.
    fn for_each_edge(node: &Self::Node, f: impl FnMut(Self::Edge));
    /// Turns a copy of a node into its child along `edge`.
    fn follow(node: &mut Self::Node, edge: Self::Edge);
}

/// Counts the leaves `depth` levels below `node`. The same walk is compiled twice: for any
/// CPU, and for CPUs with `POPCNT`. Every closure is written here, inside the function being
/// compiled, so that it is compiled with that function's target features; `T`'s methods should
/// be `#[inline(always)]` for the same reason.
macro_rules! count_leaves {
    ($(#[$feature:meta])* $name:ident) => {
        $(#[$feature])*
        #[cfg(feature = "std")]
        fn $name<T: Tree>(node: &T::Node, depth: u32) -> u64 {
            match depth {
                0 => 1,
                1 => T::count_edges(node),
                // One level above the leaves, they are counted here: no call per move, where
                // most moves are played (callgrind, perft 5 from the start and 4 from
                // kiwipete: 635.6 M instructions through the general arm, 614.6 M with this
                // one, 618.3 M testing the depth inside the general arm's closure).
                2 => {
                    let mut leaves = 0;
                    T::for_each_edge(node, |edge| {
                        let mut child = *node;
                        T::follow(&mut child, edge);
                        leaves += T::count_edges(&child);
                    });
                    leaves
                }
                _ => {
                    let mut leaves = 0;
                    T::for_each_edge(node, |edge| {
                        let mut child = *node;
                        T::follow(&mut child, edge);
                        leaves += $name::<T>(&child, depth - 1);
                    });
                    leaves
                }
            }
        }
    };
}

count_leaves!(
    #[target_feature(enable = "popcnt")]
    count_leaves_popcnt
);
count_leaves!(count_leaves_portable);

/// The number of leaves `depth` levels below `node`, counted with `POPCNT` if the CPU has that
/// instruction (asked at every call; the standard library caches the answer).
#[cfg(feature = "std")]
pub(crate) fn count_leaves<T: Tree>(node: &T::Node, depth: u32) -> u64 {
    if std::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU executes POPCNT (checked just above), the only target feature
        // `count_leaves_popcnt` is compiled with; it is safe code in every other respect.
        unsafe { count_leaves_popcnt::<T>(node, depth) }
    } else {
        count_leaves_portable::<T>(node, depth)
    }
}

/// Parallel bit extract: the bits of `value` selected by `mask`, packed into the low bits.
#[cfg(target_feature = "bmi2")]
#[inline(always)]
pub(crate) fn pext(value: u64, mask: u64) -> u64 {
    // SAFETY: this function only exists when BMI2 is enabled for the whole build
    // (`cfg(target_feature = "bmi2")`), so every CPU the binary is built for has PEXT.
    unsafe { core::arch::x86_64::_pext_u64(value, mask) }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;

    /// Nodes are sets of items; an edge takes one item out.
    struct Subsets;

    impl Tree for Subsets {
        type Node = u64;
        type Edge = u32;
        fn count_edges(set: &u64) -> u64 {
            u64::from(set.count_ones())
        }
        fn for_each_edge(set: &u64, mut f: impl FnMut(u32)) {
            (0..64).filter(|i| set >> i & 1 == 1).for_each(&mut f);
        }
        fn follow(set: &mut u64, item: u32) {
            *set &= !(1 << item);
        }
    }

    #[test]
    fn both_builds_count_the_same_leaves() {
        // Ordered choices of 3 out of 6 items: 6 * 5 * 4.
        let set = 0b11_1111;
        assert_eq!(count_leaves_portable::<Subsets>(&set, 3), 120);
        assert_eq!(count_leaves::<Subsets>(&set, 3), 120);
        assert_eq!(count_leaves::<Subsets>(&set, 0), 1);
        // Each arm of the walk: the leaves, one level above them, and two.
        for (depth, leaves) in [(1, 6), (2, 30), (3, 120), (4, 360)] {
            assert_eq!(count_leaves_portable::<Subsets>(&set, depth), leaves);
            assert_eq!(count_leaves::<Subsets>(&set, depth), leaves);
        }
    }
}
