//! Messages from the engine to the GUI: `id`, `uciok`, `readyok`, `bestmove`, `copyprotection`,
//! `registration`, `option` and `info`.

use core::fmt;

use caissa_notation::uci::UciMove;

use super::tokens::{Cursor, ParseUciLineError, ParseUciLineErrorKind, Parsed};

/// A message from the engine to the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineMessage {
    /// `id name <name>`.
    IdName(String),
    /// `id author <author>`.
    IdAuthor(String),
    /// `uciok`: the engine has sent its id and options.
    UciOk,
    /// `readyok`: the answer to `isready`.
    ReadyOk,
    /// `bestmove <move> [ponder <move>]`.
    BestMove {
        /// The move; `None` for `bestmove (none)`, which some engines send without a legal move.
        best: Option<UciMove>,
        /// The move the engine would like to ponder on.
        ponder: Option<UciMove>,
    },
    /// `copyprotection checking|ok|error`.
    CopyProtection(CheckStatus),
    /// `registration checking|ok|error`.
    Registration(CheckStatus),
    /// `option name <name> type <type> ...`: an option the engine offers.
    Option(UciOption),
    /// `info ...`: what the search found so far.
    Info(Box<Info>),
}

/// The state of a copy-protection or registration check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckStatus {
    /// `checking`.
    Checking,
    /// `ok`.
    Ok,
    /// `error`.
    Error,
}

/// An option an engine offers: its name and type, with the type's default and limits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UciOption {
    /// The name (may contain spaces; compared without regard to case by GUIs).
    pub name: String,
    /// The type, default and limits.
    pub kind: UciOptionKind,
}

/// The type of an option, with its default and limits.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum UciOptionKind {
    /// `type check default true|false`.
    Check {
        /// The default.
        default: bool,
    },
    /// `type spin default <n> min <n> max <n>`.
    Spin {
        /// The default.
        default: i64,
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
    },
    /// `type combo default <value> var <value>...`.
    Combo {
        /// The default.
        default: String,
        /// The values allowed.
        vars: Vec<String>,
    },
    /// `type button`: a command, set with no value.
    Button,
    /// `type string default <text>` (`<empty>` for the empty string, as engines write it).
    String {
        /// The default.
        default: String,
    },
}

/// An `info` line: every field is optional.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `depth`: search depth in plies.
    pub depth: Option<u32>,
    /// `seldepth`: selective search depth in plies.
    pub seldepth: Option<u32>,
    /// `time`: milliseconds searched.
    pub time: Option<u64>,
    /// `nodes`: nodes searched.
    pub nodes: Option<u64>,
    /// `multipv`: the number of this line in multi-PV mode.
    pub multipv: Option<u32>,
    /// `score`.
    pub score: Option<EngineScore>,
    /// `wdl`: win, draw and loss chances per mille, from the engine's side.
    pub wdl: Option<[u32; 3]>,
    /// `currmove`: the move being searched.
    pub currmove: Option<UciMove>,
    /// `currmovenumber`: its number, from 1.
    pub currmovenumber: Option<u32>,
    /// `hashfull`: hash table use, per mille.
    pub hashfull: Option<u32>,
    /// `nps`: nodes per second.
    pub nps: Option<u64>,
    /// `tbhits`: tablebase hits.
    pub tbhits: Option<u64>,
    /// `sbhits`: shredderbase hits.
    pub sbhits: Option<u64>,
    /// `cpuload`: CPU use, per mille.
    pub cpuload: Option<u32>,
    /// `pv`: the principal variation.
    pub pv: Vec<UciMove>,
    /// `refutation`: a move and the line that refutes it.
    pub refutation: Vec<UciMove>,
    /// `currline`: the line a CPU is searching.
    pub currline: Option<CurrLine>,
    /// `string`: free text, the rest of the line.
    pub string: Option<String>,
}

/// A score from the engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EngineScore {
    /// Centipawns or moves to mate.
    pub value: ScoreValue,
    /// Whether it is exact or a bound.
    pub bound: ScoreBound,
}

/// A score's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScoreValue {
    /// `cp`: centipawns.
    Centipawns(i32),
    /// `mate`: mate in this many moves (negative: the engine is getting mated).
    Mate(i32),
}

/// Whether a score is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ScoreBound {
    /// Exact.
    #[default]
    Exact,
    /// `lowerbound`: at least this.
    Lower,
    /// `upperbound`: at most this.
    Upper,
}

/// The `currline` field: an optional CPU number and a line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CurrLine {
    /// The CPU searching it, from 1, if the engine says.
    pub cpu: Option<u32>,
    /// The moves.
    pub moves: Vec<UciMove>,
}

const OPTION_KEYWORDS: &[&str] = &["type", "default", "min", "max", "var"];

impl EngineMessage {
    /// Reads one line sent by an engine. Tokens before the message and unknown tokens inside it
    /// are skipped and returned in [`Parsed::ignored`].
    ///
    /// # Errors
    ///
    /// [`ParseUciLineError`] with the token and byte of the problem.
    pub fn parse(line: &str) -> Result<Parsed<EngineMessage>, ParseUciLineError> {
        let mut c = Cursor::new(line);
        let message = c.command(|t| {
            Some(match t {
                "id" => EngineMessage::IdName(String::new()),
                "uciok" => EngineMessage::UciOk,
                "readyok" => EngineMessage::ReadyOk,
                "bestmove" => EngineMessage::BestMove {
                    best: None,
                    ponder: None,
                },
                "copyprotection" => EngineMessage::CopyProtection(CheckStatus::Ok),
                "registration" => EngineMessage::Registration(CheckStatus::Ok),
                "option" => EngineMessage::Option(UciOption {
                    name: String::new(),
                    kind: UciOptionKind::Button,
                }),
                "info" => EngineMessage::Info(Box::default()),
                _ => return None,
            })
        })?;
        let message = match message {
            EngineMessage::IdName(_) => {
                let make = match c.expect("`name` or `author`")? {
                    "name" => EngineMessage::IdName,
                    "author" => EngineMessage::IdAuthor,
                    _ => {
                        return Err(c.error_in_last(
                            0,
                            ParseUciLineErrorKind::Expected("`name` or `author`"),
                        ));
                    }
                };
                make(c.text_until(|_| false).unwrap_or("").to_owned())
            }
            EngineMessage::BestMove { .. } => parse_bestmove(&mut c)?,
            EngineMessage::CopyProtection(_) => {
                EngineMessage::CopyProtection(parse_status(&mut c)?)
            }
            EngineMessage::Registration(_) => EngineMessage::Registration(parse_status(&mut c)?),
            EngineMessage::Option(_) => EngineMessage::Option(parse_option(&mut c)?),
            EngineMessage::Info(_) => EngineMessage::Info(Box::new(parse_info(&mut c)?)),
            other => other,
        };
        c.ignore_rest();
        Ok(c.finish(message))
    }
}

fn parse_move(c: &mut Cursor<'_>, what: &'static str) -> Result<UciMove, ParseUciLineError> {
    let token = c.expect(what)?;
    UciMove::from_ascii(token.as_bytes())
        .map_err(|e| c.error_in_last(e.byte, ParseUciLineErrorKind::InvalidMove(e)))
}

fn parse_bestmove(c: &mut Cursor<'_>) -> Result<EngineMessage, ParseUciLineError> {
    let best = if c.peek() == Some("(none)") {
        c.advance();
        None
    } else {
        Some(parse_move(c, "a move")?)
    };
    // Pondering is optional: a `ponder` with no move, `(none)` (some engines write it) or
    // anything else that is no move is ignored, and the best move stands.
    let ponder = match c.peek() {
        Some("ponder") => {
            c.advance();
            match c.peek().map(|token| UciMove::from_ascii(token.as_bytes())) {
                Some(Ok(m)) => {
                    c.advance();
                    Some(m)
                }
                Some(Err(_)) => {
                    c.ignore();
                    None
                }
                None => None,
            }
        }
        _ => None,
    };
    Ok(EngineMessage::BestMove { best, ponder })
}

fn parse_status(c: &mut Cursor<'_>) -> Result<CheckStatus, ParseUciLineError> {
    const WHAT: &str = "`checking`, `ok` or `error`";
    match c.expect(WHAT)? {
        "checking" => Ok(CheckStatus::Checking),
        "ok" => Ok(CheckStatus::Ok),
        "error" => Ok(CheckStatus::Error),
        _ => Err(c.error_in_last(0, ParseUciLineErrorKind::Expected(WHAT))),
    }
}

fn parse_option(c: &mut Cursor<'_>) -> Result<UciOption, ParseUciLineError> {
    let is_keyword = |t: &str| OPTION_KEYWORDS.contains(&t);
    if c.expect("`name`")? != "name" {
        return Err(c.error_in_last(0, ParseUciLineErrorKind::Expected("`name`")));
    }
    let name = c
        .text_required(|t| t == "type", "the option name")?
        .to_owned();
    if c.advance().is_none() {
        return Err(c.error_here(ParseUciLineErrorKind::MissingValue("`type`")));
    }
    let type_at = c.error_here(ParseUciLineErrorKind::Expected(
        "`check`, `spin`, `combo`, `button` or `string`",
    ));
    let kind = c.expect("the option type")?;
    let mut default = None;
    let mut min = None;
    let mut max = None;
    let mut vars = Vec::new();
    while let Some(token) = c.peek() {
        if !is_keyword(token) || token == "type" {
            c.ignore();
            continue;
        }
        c.advance();
        let at = c.error_here(ParseUciLineErrorKind::InvalidNumber(token_name(token)));
        let value = c.text_until(is_keyword);
        match token {
            "default" => default = Some((value.unwrap_or(""), at)),
            "min" => min = Some((value.unwrap_or(""), at)),
            "max" => max = Some((value.unwrap_or(""), at)),
            _ => vars.push(value.unwrap_or("").to_owned()),
        }
    }
    let end = c.error_here(ParseUciLineErrorKind::Empty);
    let missing = |what| ParseUciLineError {
        kind: ParseUciLineErrorKind::MissingValue(what),
        ..end.clone()
    };
    let spin = |field: Option<(&str, ParseUciLineError)>, what| -> Result<i64, _> {
        let (text, at) = field.ok_or_else(|| missing(what))?;
        text.parse().map_err(|_| at)
    };
    let kind = match kind {
        "check" => {
            let (text, at) = default.ok_or_else(|| missing("`default`"))?;
            match text {
                "true" => UciOptionKind::Check { default: true },
                "false" => UciOptionKind::Check { default: false },
                _ => {
                    return Err(ParseUciLineError {
                        kind: ParseUciLineErrorKind::Expected("`true` or `false`"),
                        ..at
                    });
                }
            }
        }
        "spin" => UciOptionKind::Spin {
            default: spin(default, "`default`")?,
            min: spin(min, "`min`")?,
            max: spin(max, "`max`")?,
        },
        "combo" => UciOptionKind::Combo {
            default: default.map_or("", |d| d.0).to_owned(),
            vars,
        },
        "button" => UciOptionKind::Button,
        "string" => UciOptionKind::String {
            default: default.map_or("", |d| d.0).to_owned(),
        },
        _ => return Err(type_at),
    };
    Ok(UciOption { name, kind })
}

fn token_name(token: &str) -> &'static str {
    match token {
        "default" => "`default`",
        "min" => "`min`",
        _ => "`max`",
    }
}

const INFO_KEYWORDS: &[&str] = &[
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "wdl",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "sbhits",
    "cpuload",
    "string",
    "refutation",
    "currline",
];

fn parse_info(c: &mut Cursor<'_>) -> Result<Info, ParseUciLineError> {
    let mut info = Info::default();
    while let Some(token) = c.peek() {
        let Some(&keyword) = INFO_KEYWORDS.iter().find(|&&k| k == token) else {
            c.ignore();
            continue;
        };
        c.advance();
        match keyword {
            "depth" => info.depth = Some(c.number(keyword)?),
            "seldepth" => info.seldepth = Some(c.number(keyword)?),
            "time" => info.time = Some(c.number(keyword)?),
            "nodes" => info.nodes = Some(c.number(keyword)?),
            "multipv" => info.multipv = Some(c.number(keyword)?),
            "currmovenumber" => info.currmovenumber = Some(c.number(keyword)?),
            "hashfull" => info.hashfull = Some(c.number(keyword)?),
            "nps" => info.nps = Some(c.number(keyword)?),
            "tbhits" => info.tbhits = Some(c.number(keyword)?),
            "sbhits" => info.sbhits = Some(c.number(keyword)?),
            "cpuload" => info.cpuload = Some(c.number(keyword)?),
            "pv" => info.pv = c.moves(),
            "refutation" => info.refutation = c.moves(),
            "currmove" => info.currmove = Some(parse_move(c, "a move")?),
            "wdl" => {
                info.wdl = Some([c.number(keyword)?, c.number(keyword)?, c.number(keyword)?]);
            }
            "score" => info.score = Some(parse_score(c)?),
            "currline" => {
                let cpu = c.peek().and_then(|t| t.parse().ok());
                if cpu.is_some() {
                    c.advance();
                }
                let moves = c.moves();
                info.currline = Some(CurrLine { cpu, moves });
            }
            _ => {
                info.string = Some(c.text_until(|_| false).unwrap_or("").to_owned());
            }
        }
    }
    Ok(info)
}

fn parse_score(c: &mut Cursor<'_>) -> Result<EngineScore, ParseUciLineError> {
    let mut value = None;
    let mut bound = ScoreBound::Exact;
    loop {
        match c.peek() {
            Some("cp") => {
                c.advance();
                value = Some(ScoreValue::Centipawns(c.number("cp")?));
            }
            Some("mate") => {
                c.advance();
                value = Some(ScoreValue::Mate(c.number("mate")?));
            }
            Some("lowerbound") => {
                c.advance();
                bound = ScoreBound::Lower;
            }
            Some("upperbound") => {
                c.advance();
                bound = ScoreBound::Upper;
            }
            _ => break,
        }
    }
    let value =
        value.ok_or_else(|| c.error_here(ParseUciLineErrorKind::Expected("`cp` or `mate`")))?;
    Ok(EngineScore { value, bound })
}

impl fmt::Display for CheckStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CheckStatus::Checking => "checking",
            CheckStatus::Ok => "ok",
            CheckStatus::Error => "error",
        })
    }
}

impl fmt::Display for UciOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            UciOptionKind::Check { default } => write!(f, "check default {default}"),
            UciOptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            UciOptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            UciOptionKind::Button => f.write_str("button"),
            UciOptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

impl fmt::Display for EngineScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.value {
            ScoreValue::Centipawns(cp) => write!(f, "score cp {cp}")?,
            ScoreValue::Mate(n) => write!(f, "score mate {n}")?,
        }
        match self.bound {
            ScoreBound::Exact => Ok(()),
            ScoreBound::Lower => f.write_str(" lowerbound"),
            ScoreBound::Upper => f.write_str(" upperbound"),
        }
    }
}

impl fmt::Display for Info {
    /// Writes the fields in the protocol's order, `string` last (it takes the rest of the line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (keyword, value) in numbers {
            if let Some(v) = value {
                write!(f, " {keyword} {v}")?;
            }
        }
        if let Some(score) = &self.score {
            write!(f, " {score}")?;
        }
        if let Some([w, d, l]) = self.wdl {
            write!(f, " wdl {w} {d} {l}")?;
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("tbhits", self.tbhits),
            ("sbhits", self.sbhits),
            ("cpuload", self.cpuload.map(u64::from)),
            ("time", self.time),
        ];
        for (keyword, value) in numbers {
            if let Some(v) = value {
                write!(f, " {keyword} {v}")?;
            }
        }
        if let Some(m) = self.currmove {
            write!(f, " currmove {m}")?;
        }
        if let Some(n) = self.currmovenumber {
            write!(f, " currmovenumber {n}")?;
        }
        let lines = [("pv", &self.pv), ("refutation", &self.refutation)];
        for (keyword, moves) in lines {
            if !moves.is_empty() {
                f.write_str(" ")?;
                f.write_str(keyword)?;
                moves.iter().try_for_each(|m| write!(f, " {m}"))?;
            }
        }
        if let Some(line) = &self.currline {
            f.write_str(" currline")?;
            if let Some(cpu) = line.cpu {
                write!(f, " {cpu}")?;
            }
            line.moves.iter().try_for_each(|m| write!(f, " {m}"))?;
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

impl fmt::Display for EngineMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineMessage::IdName(name) => write!(f, "id name {name}"),
            EngineMessage::IdAuthor(author) => write!(f, "id author {author}"),
            EngineMessage::UciOk => f.write_str("uciok"),
            EngineMessage::ReadyOk => f.write_str("readyok"),
            EngineMessage::BestMove { best, ponder } => {
                match best {
                    Some(m) => write!(f, "bestmove {m}")?,
                    None => f.write_str("bestmove (none)")?,
                }
                match ponder {
                    Some(m) => write!(f, " ponder {m}"),
                    None => Ok(()),
                }
            }
            EngineMessage::CopyProtection(s) => write!(f, "copyprotection {s}"),
            EngineMessage::Registration(s) => write!(f, "registration {s}"),
            EngineMessage::Option(option) => option.fmt(f),
            EngineMessage::Info(info) => info.fmt(f),
        }
    }
}
