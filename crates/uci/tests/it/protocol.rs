//! The UCI messages: every command and field read, written back, read again; errors and where.

use std::fmt::Write as _;

use caissa_uci::protocol::{EngineMessage, GuiCommand, ParseUciLineError, Parsed};

/// For each line: what it reads as (`Debug`), how it is written, the ignored tokens; or the
/// error. Every written form must read back as the same value.
fn report<T: std::fmt::Debug + std::fmt::Display + PartialEq>(
    lines: &[&str],
    parse: fn(&str) -> Result<Parsed<T>, ParseUciLineError>,
) -> String {
    let mut out = String::new();
    for line in lines {
        writeln!(out, "> {line}").unwrap();
        match parse(line) {
            Ok(parsed) => {
                let written = parsed.message.to_string();
                let again = parse(&written).unwrap_or_else(|e| panic!("{written}: {e}"));
                assert_eq!(again.message, parsed.message, "{written}");
                assert!(again.ignored.is_empty(), "{written}: {:?}", again.ignored);
                // A FEN's Debug draws the board: the written form says enough.
                let debug = format!("{:?}", parsed.message);
                if !debug.contains('\n') {
                    writeln!(out, "  {debug}").unwrap();
                }
                writeln!(out, "  = {written}").unwrap();
                for t in &parsed.ignored {
                    writeln!(
                        out,
                        "  ignored {:?} (token {}, byte {})",
                        t.text, t.token, t.byte
                    )
                    .unwrap();
                }
            }
            Err(e) => writeln!(out, "  error: {e}").unwrap(),
        }
    }
    out
}

#[test]
fn gui_commands() {
    let lines = [
        "uci",
        "debug on",
        "debug off",
        "isready",
        "setoption name Hash value 64",
        "setoption name Clear  Hash",
        "setoption name Syzygy Path value /tb/one path:/tb/two",
        "setoption name UCI_Chess960 value true",
        "register later",
        "register name Stefan MK code 4359874324",
        "ucinewgame",
        "position startpos",
        "position startpos moves e2e4 e7e5 g1f3",
        "position fen 8/8/8/8/8/8/6k1/4K2R w K - 0 1 moves e1g1",
        "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g1h1",
        "position fen 4k3/8/8/8/8/8/8/4K3 w - -",
        "go",
        "go infinite",
        "go wtime 300000 btime 295000 winc 2000 binc 2000 movestogo 20",
        "go wtime -20 btime 100",
        "go depth 12 nodes 100000 mate 3 movetime 1000",
        "go ponder wtime 1000 btime 1000",
        "go searchmoves e2e4 d2d4 depth 5",
        "stop",
        "ponderhit",
        "quit",
        "joho debug on",
        "go depth 5 turbo nodes 10",
        "isready now",
    ];
    insta::assert_snapshot!(report(&lines, GuiCommand::parse));
}

#[test]
fn gui_errors() {
    let lines = [
        "",
        "   ",
        "hello world",
        "debug",
        "debug maybe",
        "setoption",
        "setoption Hash",
        "setoption name",
        "setoption name value 3",
        "register",
        "register name",
        "position",
        "position middle",
        "position fen",
        "position fen 8/8/9/8/8/8/8/8 w - - 0 1",
        "position startpos e2e4",
        "position startpos moves e2e4 e7e9",
        "position startpos moves e2e4 nonsense",
        "go depth",
        "go depth twelve",
        "go nodes -5",
        "go movetime 99999999999999999999999",
    ];
    insta::assert_snapshot!(report(&lines, GuiCommand::parse));
}

#[test]
fn engine_messages() {
    let lines = [
        "id name Stockfish 16.1",
        "id author the Stockfish developers (see AUTHORS file)",
        "uciok",
        "readyok",
        "bestmove e2e4",
        "bestmove e7e8q ponder d1d8",
        "bestmove (none)",
        "bestmove 0000",
        "bestmove g1f3 ponder (none)",
        "bestmove e2e4 ponder",
        "bestmove e2e4 ponder xyz",
        "copyprotection checking",
        "copyprotection ok",
        "registration error",
        "option name Hash type spin default 16 min 1 max 33554432",
        "option name Clear Hash type button",
        "option name Ponder type check default false",
        "option name Style type combo default Normal var Solid var Normal var Risky",
        "option name Debug Log File type string default <empty>",
        "option name NalimovPath type string default c:\\my tables",
        "option name Skill Level type spin default 20 min 0 max 20",
        "info depth 1 seldepth 1 multipv 1 score cp 29 nodes 20 nps 20000 hashfull 0 tbhits 0 time 1 pv e2e4",
        "info depth 20 score mate -3 wdl 0 0 1000 pv e1e2 e8e7",
        "info score cp 13 lowerbound",
        "info score upperbound cp -7",
        "info currmove e2e4 currmovenumber 1",
        "info cpuload 950 sbhits 3",
        "info refutation d1h5 g6h5",
        "info currline 1 e2e4 e7e5",
        "info currline d2d4",
        "info string NNUE evaluation using nn-1111.nnue   enabled",
        "info depth 3 string pv e2e4 is kept as text",
        "info depth 2 bogus 17 nodes 40",
        "info",
    ];
    insta::assert_snapshot!(report(&lines, EngineMessage::parse));
}

#[test]
fn engine_errors() {
    let lines = [
        "",
        "Stockfish 16 by the Stockfish developers",
        "id",
        "id nickname x",
        "bestmove",
        "bestmove e2",
        "copyprotection maybe",
        "option",
        "option name Hash",
        "option name Hash type",
        "option name Hash type spinner",
        "option name Hash type spin default 16 min 1",
        "option name Hash type spin default x min 1 max 2",
        "option name Ponder type check default yes",
        "option name Ponder type check",
        "info depth",
        "info depth -1",
        "info score",
        "info score cp",
        "info score cp 1.5",
        "info wdl 1 2",
        "info currmove e9e4",
    ];
    insta::assert_snapshot!(report(&lines, EngineMessage::parse));
}

#[test]
fn a_trailing_carriage_return_is_whitespace() {
    let parsed = GuiCommand::parse("isready\r").unwrap();
    assert_eq!(parsed.message, GuiCommand::IsReady);
    assert!(parsed.ignored.is_empty());
}
