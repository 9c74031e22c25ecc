"""caissa.Arbiter fed with the sample event logs of crates/arbiter/tests/logs gives the
verdicts `caissa arbitrate` gives (the arbiter crate's snapshots), and caissa.TimeControl."""

import json
import pathlib

import pytest

import caissa

ARBITER = pathlib.Path(__file__).resolve().parents[2] / "arbiter" / "tests"
LOGS = sorted((ARBITER / "logs").glob("*.jsonl"))


def snapshot(name):
    text = (ARBITER / "it" / "snapshots" / f"it__json__{name}.snap").read_text()
    return json.loads(text.split("---", 2)[2])


def replay(path):
    """The log fed to an Arbiter, alternately as dicts and as JSON text; and, for each line
    number, the event index the verdict names instead."""
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip()]
    start = json.loads(numbered[0][1])
    assert start.pop("type") == "start"
    if "presses" not in start and any(json.loads(l).get("type") == "press" for _, l in numbered):
        start["presses"] = "separate"  # what `caissa arbitrate` finds out by itself
    arbiter = caissa.Arbiter(**start)
    made = []
    for i, (_, line) in enumerate(numbered[1:]):
        made += arbiter.feed(json.loads(line) if i % 2 else line)
    assert made == [d for d in arbiter.decisions if d["event"] > 0]
    return arbiter, {n: index for index, (n, _) in enumerate(numbered)}


def by_line(entries, events):
    out = []
    for entry in entries:
        entry = dict(entry)
        entry["event"] = events[entry.pop("line")]
        out.append(entry)
    return out


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_the_logs_give_caissa_arbitrates_verdicts(path):
    arbiter, events = replay(path)
    expected = snapshot(path.stem)
    for key in ["decisions", "penalties", "notes"]:
        expected[key] = by_line(expected[key], events)
    assert arbiter.verdict() == expected
    assert arbiter.decisions == expected["decisions"]
    assert arbiter.events == len(events)
    assert arbiter.board.fen() == caissa.Board(arbiter.board.fen()).fen()


def test_a_short_game_and_its_board():
    arbiter = caissa.Arbiter(rules="fide-blitz", time_control=caissa.TimeControl("180+2"),
                             white="Anna", black="Bert")
    for t, by, move in [(1000, "white", "f3"), (2000, "black", "e5"), (3000, "white", "g4")]:
        assert arbiter.feed({"type": "move", "by": by, "move": move, "t_ms": t}) == []
    assert arbiter.verdict()["result"] == "*"
    arbiter.feed('{"type": "move", "by": "black", "move": "Qh4", "t_ms": 4000}')
    verdict = arbiter.verdict()
    assert (verdict["result"], verdict["termination"], verdict["article"]) == ("0-1", "checkmate", "5.1.1")
    # Each side used 2 s; White got two increments, Black one (none after the mate).
    assert verdict["clock_ms"] == {"white": 182_000, "black": 180_000}
    assert '[White "Anna"]' in verdict["pgn"]
    assert arbiter.board.is_checkmate()


def test_errors_name_the_event_and_change_nothing():
    arbiter = caissa.Arbiter(time_control="60+0")
    arbiter.feed({"type": "move", "by": "white", "move": "e4", "t_ms": 5000})
    for bad in [
        {"type": "move", "by": "black", "move": "e5", "t_ms": 4000},  # time going backwards
        {"type": "start"},
        {"type": "teleport", "by": "black"},
        "not json",
    ]:
        with pytest.raises(caissa.ArbiterError) as info:
            arbiter.feed(bad)
        assert isinstance(info.value, ValueError)
        assert info.value.event == 2
    assert arbiter.events == 2
    with pytest.raises(caissa.ArbiterError) as info:
        caissa.Arbiter(fen="8/8/8/8/8/8/8/K7 w - - 0 1")
    assert info.value.event == 0
    with pytest.raises(caissa.ArbiterError):
        caissa.Arbiter(rules="chessboxing")


def test_time_control():
    tc = caissa.TimeControl("40/5400+30:1800+30")
    assert str(tc) == "40/5400+30:1800+30" and repr(tc) == "TimeControl('40/5400+30:1800+30')"
    assert tc.readable() == "90m/40+30m+30s"
    assert [p["moves"] for p in tc.periods] == [40, None]
    assert tc.periods[1]["base_ms"] == 1_800_000
    assert tc.periods[0]["bonus"] == {"fischer": 30_000}
    assert (tc.fide_speed(), tc.lichess_speed()) == ("classical", "classical")
    blitz = caissa.TimeControl("180+2")
    assert (blitz.fide_speed(), blitz.lichess_speed()) == ("blitz", "blitz")
    assert caissa.TimeControl("*60").hourglass
    for text, byte in [("180+", 4), ("x", 0)]:
        with pytest.raises(caissa.InvalidTimeControlError) as info:
            caissa.TimeControl(text)
        assert isinstance(info.value, ValueError)
        assert info.value.byte == byte, text
    for text in ["?", "-"]:
        with pytest.raises(caissa.InvalidTimeControlError):
            caissa.TimeControl(text)
