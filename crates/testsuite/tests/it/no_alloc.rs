//! Move generation, make-move, legality tests, hashing and perft never touch the heap.
//!
//! A counting global allocator wraps the system allocator; the positions are parsed before
//! measuring, and the work under measurement must leave the count unchanged. Only allocations by
//! a thread that asked to be watched count: the test harness's own threads allocate whenever they
//! like (the main thread does, when it starts waiting for the test's result). This file holds a
//! single test all the same.

// The allocator below is the one place a test needs `unsafe`: `GlobalAlloc` is an unsafe trait.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use caissa_board::Square;
use caissa_movegen::{CastlingMode, Move, Position, perft};
use caissa_notation::fen::Fen;

/// Heap allocations (including reallocations) by watched threads.
static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations count. Constant-initialised and without a destructor,
    /// so reading it from inside the allocator never allocates.
    static WATCHED: Cell<bool> = const { Cell::new(false) };
}

/// Counts an allocation if the current thread is watched.
fn count() {
    if WATCHED.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
    }
}

/// The system allocator, counting allocations.
struct Counting;

// SAFETY: every method forwards its arguments unchanged to `System`, which implements
// `GlobalAlloc` correctly; counting is a side effect that touches no memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, which we pass on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` and `layout` come from this allocator, that is from `System`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` and `layout` come from this allocator, that is from `System`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The start, kiwipete, a Chess960 position with castling rights, and a position with a legal
/// en passant capture; each with its mode and perft 4 (from `data/perft/`).
const POSITIONS: [(&str, CastlingMode, u64); 4] = [
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        CastlingMode::Standard,
        197_281,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        CastlingMode::Standard,
        4_085_603,
    ),
    (
        "rn1knbbr/ppp1pppp/3p4/8/5q2/N5PP/PPPPP3/R1QKNBBR w KQkq - 0 1",
        CastlingMode::Chess960,
        1_044_028,
    ),
    (
        "4q1k1/6rn/4p2P/1pP1Ppn1/1p2Q2P/P7/R2K1b2/B7 w - b6 0 1",
        CastlingMode::Standard,
        1_290_175,
    ),
];

/// The work that must not allocate: every query and every way of making a move, on every legal
/// move and on a few illegal ones. Returns perft 4.
fn exercise(pos: &Position) -> u64 {
    black_box(pos.zobrist_hash());
    let moves = pos.legal_moves();
    let mut listed = 0;
    pos.for_each_legal_move(|m| {
        listed += 1;
        black_box(m);
    });
    assert_eq!(listed, moves.len());
    assert_eq!(pos.count_legal_moves(), moves.len() as u64);
    for &m in &moves {
        assert!(pos.is_legal(m));
        let mut child = *pos;
        child.play_unchecked(m);
        let checked = pos.play(m).expect("a listed move is legal");
        assert_eq!(checked.zobrist_hash(), child.zobrist_hash());
    }
    for bogus in [
        Move::normal(Square::A1, Square::H8),
        Move::castle(Square::E1, Square::H1),
        Move::en_passant(Square::E5, Square::D6),
    ] {
        if !moves.contains(&bogus) {
            assert!(!pos.is_legal(bogus));
            assert!(pos.play(bogus).is_err());
        }
    }
    perft(pos, 4)
}

#[test]
fn move_generation_make_move_and_perft_do_not_allocate() {
    let positions: Vec<(Position, u64)> = POSITIONS
        .iter()
        .map(|&(fen, mode, nodes)| {
            let pos = fen
                .parse::<Fen>()
                .unwrap_or_else(|e| panic!("{fen}: {e}"))
                .into_position(mode)
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            (pos, nodes)
        })
        .collect();
    WATCHED.with(|watched| watched.set(true));
    // The counter sees allocations at all.
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    drop(black_box(Vec::<u64>::with_capacity(4)));
    assert_eq!(
        ALLOCATIONS.load(Ordering::SeqCst) - before,
        1,
        "the allocator does not count"
    );
    for (i, (pos, nodes)) in positions.iter().enumerate() {
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        let perft_4 = exercise(pos);
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        // Compare outside the measured span, so a failing message may allocate.
        assert_eq!(perft_4, *nodes, "{}: perft 4", POSITIONS[i].0);
        assert_eq!(after - before, 0, "{}: heap allocations", POSITIONS[i].0);
    }
}
