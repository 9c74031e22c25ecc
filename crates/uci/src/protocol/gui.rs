//! Commands from the GUI to the engine: `uci`, `debug`, `isready`, `setoption`, `register`,
//! `ucinewgame`, `position`, `go`, `stop`, `ponderhit`, `quit`.

use core::fmt;

use caissa_notation::fen::Fen;
use caissa_notation::uci::UciMove;

use super::tokens::{Cursor, ParseUciLineError, ParseUciLineErrorKind, Parsed};

/// A command from the GUI to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuiCommand {
    /// `uci`: switch to UCI mode, identify yourself and list your options.
    Uci,
    /// `debug on` / `debug off`.
    Debug(bool),
    /// `isready`: answer `readyok` when done with earlier commands.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name (may contain spaces).
        name: String,
        /// The value, absent for buttons.
        value: Option<String>,
    },
    /// `register later` or `register name <name> code <code>`.
    Register(Register),
    /// `ucinewgame`: the next position is from a new game.
    UciNewGame,
    /// `position (startpos | fen <fen>) [moves <move>...]`.
    Position(SetPosition),
    /// `go ...`: start searching.
    Go(Go),
    /// `stop`: stop searching and answer `bestmove`.
    Stop,
    /// `ponderhit`: the opponent played the expected move.
    PonderHit,
    /// `quit`.
    Quit,
}

/// The `register` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Register {
    /// `register later`.
    Later,
    /// `register name <name> code <code>` (either may be absent).
    Now {
        /// The registered name.
        name: Option<String>,
        /// The registration code.
        code: Option<String>,
    },
}

/// The `position` command: a start and moves from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetPosition {
    /// `startpos` (`None`) or `fen <fen>`.
    pub fen: Option<Fen>,
    /// The moves played from it (both castling conventions are written as given).
    pub moves: Vec<UciMove>,
}

/// The `go` command's parameters; all absent means search until `stop`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `searchmoves`: search only these moves.
    pub searchmoves: Vec<UciMove>,
    /// `ponder`: search in pondering mode.
    pub ponder: bool,
    /// `wtime`: White's time in milliseconds (GUIs sometimes send a negative one).
    pub wtime: Option<i64>,
    /// `btime`: Black's time in milliseconds.
    pub btime: Option<i64>,
    /// `winc`: White's increment per move in milliseconds.
    pub winc: Option<i64>,
    /// `binc`: Black's increment per move in milliseconds.
    pub binc: Option<i64>,
    /// `movestogo`: moves to the next time control.
    pub movestogo: Option<u32>,
    /// `depth`: search this many plies only.
    pub depth: Option<u32>,
    /// `nodes`: search this many nodes only.
    pub nodes: Option<u64>,
    /// `mate`: search for a mate in this many moves.
    pub mate: Option<u32>,
    /// `movetime`: search exactly this many milliseconds.
    pub movetime: Option<u64>,
    /// `infinite`: search until `stop`.
    pub infinite: bool,
}

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];

impl GuiCommand {
    /// Reads one line sent by a GUI. Tokens before the command and unknown tokens inside it are
    /// skipped and returned in [`Parsed::ignored`], as the protocol asks (`joho debug on` is
    /// `debug on`).
    ///
    /// # Errors
    ///
    /// [`ParseUciLineError`] with the token and byte of the problem.
    pub fn parse(line: &str) -> Result<Parsed<GuiCommand>, ParseUciLineError> {
        let mut c = Cursor::new(line);
        let command = c.command(|t| {
            Some(match t {
                "uci" => GuiCommand::Uci,
                "debug" => GuiCommand::Debug(true),
                "isready" => GuiCommand::IsReady,
                "setoption" => GuiCommand::SetOption {
                    name: String::new(),
                    value: None,
                },
                "register" => GuiCommand::Register(Register::Later),
                "ucinewgame" => GuiCommand::UciNewGame,
                "position" => GuiCommand::Position(SetPosition {
                    fen: None,
                    moves: Vec::new(),
                }),
                "go" => GuiCommand::Go(Go::default()),
                "stop" => GuiCommand::Stop,
                "ponderhit" => GuiCommand::PonderHit,
                "quit" => GuiCommand::Quit,
                _ => return None,
            })
        })?;
        let command = match command {
            GuiCommand::Debug(_) => match c.expect("`on` or `off`")? {
                "on" => GuiCommand::Debug(true),
                "off" => GuiCommand::Debug(false),
                _ => {
                    return Err(
                        c.error_in_last(0, ParseUciLineErrorKind::Expected("`on` or `off`"))
                    );
                }
            },
            GuiCommand::SetOption { .. } => parse_setoption(&mut c)?,
            GuiCommand::Register(_) => GuiCommand::Register(parse_register(&mut c)?),
            GuiCommand::Position(_) => GuiCommand::Position(parse_position(&mut c)?),
            GuiCommand::Go(_) => GuiCommand::Go(parse_go(&mut c)?),
            other => other,
        };
        c.ignore_rest();
        Ok(c.finish(command))
    }
}

fn parse_setoption(c: &mut Cursor<'_>) -> Result<GuiCommand, ParseUciLineError> {
    if c.expect("`name`")? != "name" {
        return Err(c.error_in_last(0, ParseUciLineErrorKind::Expected("`name`")));
    }
    let name = c.text_required(|t| t == "value", "the option name")?;
    let value = c
        .advance()
        .is_some()
        .then(|| c.text_until(|_| false).unwrap_or("").to_owned());
    Ok(GuiCommand::SetOption {
        name: name.to_owned(),
        value,
    })
}

fn parse_register(c: &mut Cursor<'_>) -> Result<Register, ParseUciLineError> {
    let mut name = None;
    let mut code = None;
    loop {
        match c.peek() {
            Some("later") if name.is_none() && code.is_none() => {
                c.advance();
                return Ok(Register::Later);
            }
            Some(field @ ("name" | "code")) => {
                c.advance();
                let text = c.text_required(|t| t == "name" || t == "code", "a value")?;
                let slot = if field == "name" {
                    &mut name
                } else {
                    &mut code
                };
                *slot = Some(text.to_owned());
            }
            Some(_) if name.is_some() || code.is_some() => c.ignore(),
            _ => {
                return Err(
                    c.error_here(ParseUciLineErrorKind::Expected("`later`, `name` or `code`"))
                );
            }
        }
        if c.peek().is_none() {
            return Ok(Register::Now { name, code });
        }
    }
}

fn parse_position(c: &mut Cursor<'_>) -> Result<SetPosition, ParseUciLineError> {
    let fen = match c.expect("`startpos` or `fen`")? {
        "startpos" => None,
        "fen" => {
            let here = c.error_here(ParseUciLineErrorKind::Empty);
            let text = c.text_required(|t| t == "moves", "a FEN")?;
            let fen = Fen::from_ascii(text.as_bytes()).map_err(|e| ParseUciLineError {
                token: here.token,
                byte: here.byte + e.byte,
                kind: ParseUciLineErrorKind::InvalidFen(e),
            })?;
            Some(fen)
        }
        _ => {
            return Err(c.error_in_last(0, ParseUciLineErrorKind::Expected("`startpos` or `fen`")));
        }
    };
    let mut moves = Vec::new();
    match c.peek() {
        Some("moves") => {
            c.advance();
            while let Some(token) = c.advance() {
                let m = UciMove::from_ascii(token.as_bytes())
                    .map_err(|e| c.error_in_last(e.byte, ParseUciLineErrorKind::InvalidMove(e)))?;
                moves.push(m);
            }
        }
        Some(_) => return Err(c.error_here(ParseUciLineErrorKind::Expected("`moves`"))),
        None => {}
    }
    Ok(SetPosition { fen, moves })
}

fn parse_go(c: &mut Cursor<'_>) -> Result<Go, ParseUciLineError> {
    let mut go = Go::default();
    while let Some(token) = c.peek() {
        if !GO_KEYWORDS.contains(&token) {
            c.ignore();
            continue;
        }
        c.advance();
        match token {
            "searchmoves" => go.searchmoves = c.moves(),
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "wtime" => go.wtime = Some(c.number("wtime")?),
            "btime" => go.btime = Some(c.number("btime")?),
            "winc" => go.winc = Some(c.number("winc")?),
            "binc" => go.binc = Some(c.number("binc")?),
            "movestogo" => go.movestogo = Some(c.number("movestogo")?),
            "depth" => go.depth = Some(c.number("depth")?),
            "nodes" => go.nodes = Some(c.number("nodes")?),
            "mate" => go.mate = Some(c.number("mate")?),
            _ => go.movetime = Some(c.number("movetime")?),
        }
    }
    Ok(go)
}

fn write_moves(f: &mut fmt::Formatter<'_>, keyword: &str, moves: &[UciMove]) -> fmt::Result {
    if !moves.is_empty() {
        f.write_str(keyword)?;
        for m in moves {
            write!(f, " {m}")?;
        }
    }
    Ok(())
}

impl fmt::Display for Go {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        let numbers = [
            ("wtime", self.wtime),
            ("btime", self.btime),
            ("winc", self.winc),
            ("binc", self.binc),
        ];
        for (keyword, value) in numbers {
            if let Some(v) = value {
                write!(f, " {keyword} {v}")?;
            }
        }
        let unsigned = [
            ("movestogo", self.movestogo.map(u64::from)),
            ("depth", self.depth.map(u64::from)),
            ("nodes", self.nodes),
            ("mate", self.mate.map(u64::from)),
            ("movetime", self.movetime),
        ];
        for (keyword, value) in unsigned {
            if let Some(v) = value {
                write!(f, " {keyword} {v}")?;
            }
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        // Last: the moves end where the next keyword starts.
        write_moves(f, " searchmoves", &self.searchmoves)
    }
}

impl fmt::Display for SetPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.fen {
            None => f.write_str("position startpos")?,
            Some(fen) => write!(f, "position fen {fen}")?,
        }
        write_moves(f, " moves", &self.moves)
    }
}

impl fmt::Display for GuiCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiCommand::Uci => f.write_str("uci"),
            GuiCommand::Debug(on) => f.write_str(if *on { "debug on" } else { "debug off" }),
            GuiCommand::IsReady => f.write_str("isready"),
            GuiCommand::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(value) => write!(f, " value {value}"),
                    None => Ok(()),
                }
            }
            GuiCommand::Register(Register::Later) => f.write_str("register later"),
            GuiCommand::Register(Register::Now { name, code }) => {
                f.write_str("register")?;
                if let Some(name) = name {
                    write!(f, " name {name}")?;
                }
                if let Some(code) = code {
                    write!(f, " code {code}")?;
                }
                Ok(())
            }
            GuiCommand::UciNewGame => f.write_str("ucinewgame"),
            GuiCommand::Position(p) => p.fmt(f),
            GuiCommand::Go(go) => go.fmt(f),
            GuiCommand::Stop => f.write_str("stop"),
            GuiCommand::PonderHit => f.write_str("ponderhit"),
            GuiCommand::Quit => f.write_str("quit"),
        }
    }
}
