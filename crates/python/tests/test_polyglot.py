"""caissa.polyglot against python-chess's chess.polyglot on a book made from the samples'
openings: the same entries, moves, main entries and random choices, and broken books refused."""

import pathlib
import random

import chess
import chess.pgn
import chess.polyglot
import pytest

import caissa
import caissa.polyglot

PGN = pathlib.Path(__file__).resolve().parents[3] / "data" / "pgn" / "lichess-2025-05-sample.pgn"


def polyglot_move(board, move):
    """The book's encoding of `move` in `board`: castling as the king onto its rook."""
    to = move.to_square
    if board.is_castling(move):
        to = chess.square(7 if board.is_kingside_castling(move) else 0,
                          chess.square_rank(move.from_square))
    promotion = {None: 0, chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 4}
    return promotion[move.promotion] << 12 | move.from_square << 6 | to


def opening_book(tmp_path):
    """A book of the first 14 plies of the first 60 games, random weights (some 0) and learn
    values; and the positions it covers."""
    rng = random.Random(7)
    entries = {}
    positions = []
    with open(PGN, encoding="utf-8") as f:
        for _ in range(60):
            game = chess.pgn.read_game(f)
            board = game.board()
            for move in list(game.mainline_moves())[:14]:
                key = chess.polyglot.zobrist_hash(board)
                entries.setdefault((key, polyglot_move(board, move)),
                                   (rng.randrange(0, 6), rng.randrange(0, 1 << 32)))
                positions.append(board.fen())
                board.push(move)
    # A move no position allows, under a key of the book: left out for boards, kept for keys.
    first_key = next(iter(entries))[0]
    entries[(first_key, chess.A3 << 6 | chess.H8)] = (9, 0)
    data = b"".join(
        key.to_bytes(8, "big") + raw.to_bytes(2, "big") + weight.to_bytes(2, "big")
        + learn.to_bytes(4, "big")
        for (key, raw), (weight, learn) in sorted(entries.items(), key=lambda kv: kv[0][0])
    )
    path = tmp_path / "book.bin"
    path.write_bytes(data)
    return path, positions


def rows(entries):
    return [(e.key, e.raw_move, e.weight, e.learn, e.move.uci()) for e in entries]


def test_the_same_entries_and_choices_as_python_chess(tmp_path):
    path, positions = opening_book(tmp_path)
    with caissa.polyglot.open_reader(path) as ours, chess.polyglot.open_reader(path) as peer:
        assert isinstance(ours, caissa.polyglot.MemoryMappedReader)
        assert len(ours) == len(peer)
        assert rows(ours) == rows(peer)
        assert rows([ours[-1]]) == rows([peer[-1]])
        for fen in positions:
            mine, theirs = caissa.Board(fen), chess.Board(fen)
            assert rows(ours.find_all(mine)) == rows(peer.find_all(theirs)), fen
            assert rows(ours.find_all(mine, minimum_weight=0)) == rows(
                peer.find_all(theirs, minimum_weight=0)), fen
            key = chess.polyglot.zobrist_hash(theirs)
            assert caissa.polyglot.zobrist_hash(mine) == key, fen
            assert rows(ours.find_all(key)) == rows(peer.find_all(key)), fen
            expected = peer.get(theirs)
            found = ours.get(mine)
            assert (found is None) == (expected is None), fen
            if expected is not None:
                assert rows([found]) == rows([expected]), fen
                excluded = [caissa.Move.from_uci(expected.move.uci())]
                assert rows(ours.find_all(mine, exclude_moves=excluded)) == rows(
                    peer.find_all(theirs, exclude_moves=[expected.move])), fen
                for seed in range(3):
                    assert rows([ours.weighted_choice(mine, random=random.Random(seed))]) == rows(
                        [peer.weighted_choice(theirs, random=random.Random(seed))]), fen
                    assert rows([ours.choice(mine, random=random.Random(seed))]) == rows(
                        [peer.choice(theirs, random=random.Random(seed))]), fen
        with pytest.raises(IndexError):
            ours.find(caissa.Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1"))


def test_broken_books_are_refused(tmp_path):
    short = tmp_path / "short.bin"
    short.write_bytes(bytes(17))
    with pytest.raises(ValueError, match="17 bytes"):
        caissa.polyglot.open_reader(short)
    unsorted = tmp_path / "unsorted.bin"
    unsorted.write_bytes((5).to_bytes(8, "big") + bytes(8) + (4).to_bytes(8, "big") + bytes(8))
    with pytest.raises(ValueError, match="entry 1 \\(byte 16\\)"):
        caissa.polyglot.open_reader(unsorted)
    with pytest.raises(OSError):
        caissa.polyglot.open_reader(tmp_path / "missing.bin")
    empty = tmp_path / "empty.bin"
    empty.write_bytes(b"")
    reader = caissa.polyglot.open_reader(empty)
    assert len(reader) == 0 and reader.get(caissa.Board()) is None
    reader.close()
    with pytest.raises(ValueError):
        len(reader)
