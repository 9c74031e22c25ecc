//! The layering check of `cargo xtask ci`: which crate may depend on which.
//!
//! The library crates form layers; a crate may depend only on crates of strictly lower layers:
//!
//! | layer | crates                              |
//! |-------|-------------------------------------|
//! | 0     | `caissa-board`                      |
//! | 1     | `caissa-movegen`                    |
//! | 2     | `caissa-notation`, `caissa-game`    |
//! | 3     | `caissa-arbiter`                    |
//! | 4     | `caissa` (the facade)               |
//! | 5     | `caissa-cli`                        |
//!
//! So `caissa-notation` and `caissa-game` must not depend on each other. Besides, no library crate
//! may have a peer chess crate (shakmaty, cozy-chess, chess, pgn-reader, chasolver) among its
//! dependencies: peers are for differential tests and benches, so dev-dependencies only.
//!
//! Only `[dependencies]`, `[build-dependencies]` and their `[target.<cfg>.…]` forms count;
//! dev-dependencies are free. The tool crates (`caissa-testsuite`, `caissa-benches`, `xtask`) may
//! depend on anything, and no library crate may depend on them. Every `crates/*/Cargo.toml` is
//! checked; a crate missing from the table above is an error, so the table stays current.
//!
//! The manifests are read by a small TOML reader that knows what a Cargo manifest needs: tables,
//! dotted keys, quoted keys, basic and literal strings (also multi-line), and inline tables and
//! arrays spread over several lines. It finds dependencies written as `name = …`,
//! `name.workspace = true`, `[dependencies.name]`, and renamed ones (`package = "…"`).

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::path::Path;

use crate::{Error, Result};

/// The library crates and their layers.
const LAYERS: &[(&str, u8)] = &[
    ("caissa-board", 0),
    ("caissa-movegen", 1),
    ("caissa-notation", 2),
    ("caissa-game", 2),
    ("caissa-arbiter", 3),
    ("caissa", 4),
    ("caissa-cli", 5),
];

/// Crates outside the layers: they may depend on anything, nothing may depend on them.
const TOOLS: &[&str] = &["caissa-testsuite", "caissa-benches", "xtask"];

/// Peer chess crates: dev-dependencies only (or dependencies of tool crates).
const PEERS: &[&str] = &["shakmaty", "cozy-chess", "chess", "pgn-reader", "chasolver"];

fn layer_of(package: &str) -> Option<u8> {
    LAYERS
        .iter()
        .find(|&&(name, _)| name == package)
        .map(|&(_, layer)| layer)
}

/// Checks every `crates/*/Cargo.toml` under `root`; on success, says what was checked.
pub(crate) fn check_workspace(root: &Path) -> Result<String> {
    let crates_dir = root.join("crates");
    let entries = fs::read_dir(&crates_dir)
        .map_err(|e| Error::new(format!("reading {}: {e}", crates_dir.display())))?;
    let mut dirs = Vec::new();
    for entry in entries {
        let entry =
            entry.map_err(|e| Error::new(format!("reading {}: {e}", crates_dir.display())))?;
        if entry.path().is_dir() {
            dirs.push(entry.path());
        }
    }
    dirs.sort();

    let mut problems = Vec::new();
    let mut checked = Vec::new();
    let mut skipped = Vec::new();
    for dir in dirs {
        let path = dir.join("Cargo.toml");
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        if !path.is_file() {
            skipped.push(shown);
            continue;
        }
        let text = fs::read_to_string(&path).map_err(|e| Error::new(format!("{shown}: {e}")))?;
        match check_manifest(&text) {
            Ok(manifest_problems) => {
                problems.extend(manifest_problems.iter().map(|p| format!("{shown}: {p}")));
            }
            Err(e) => problems.push(format!("{shown}: {e}")),
        }
        checked.push(shown);
    }

    if !problems.is_empty() {
        return Err(Error::new(format!(
            "the layering rules are broken (see xtask/src/layering.rs):\n  {}",
            problems.join("\n  ")
        )));
    }
    if checked.is_empty() {
        return Err(Error::new(format!(
            "no crates/*/Cargo.toml found under {}",
            root.display()
        )));
    }
    let mut report = format!("layering ok: {} manifests checked", checked.len());
    if !skipped.is_empty() {
        report.push_str(&format!(
            " (no Cargo.toml yet, skipped: {})",
            skipped.join(", ")
        ));
    }
    Ok(report)
}

/// Checks one manifest: the rule violations found, or why it could not be read.
fn check_manifest(text: &str) -> std::result::Result<Vec<String>, ParseError> {
    let manifest = parse_manifest(text)?;
    Ok(violations(&manifest))
}

/// The rules of the module docs, applied to one crate.
fn violations(manifest: &Manifest) -> Vec<String> {
    let name = manifest.name.as_str();
    if TOOLS.contains(&name) {
        return Vec::new();
    }
    let Some(layer) = layer_of(name) else {
        return vec![format!(
            "crate `{name}` has no layer: add it to LAYERS (or TOOLS) in xtask/src/layering.rs"
        )];
    };
    let mut problems = Vec::new();
    for dep in manifest
        .dependencies
        .iter()
        .filter(|d| d.kind != DepKind::Dev)
    {
        let package = dep.package.as_str();
        let at = format!("line {}, {}", dep.line, dep.section);
        if let Some(dep_layer) = layer_of(package) {
            if dep_layer >= layer {
                let relation = if dep_layer == layer {
                    "the same layer"
                } else {
                    "a higher layer"
                };
                problems.push(format!(
                    "`{name}` (layer {layer}) depends on `{package}` (layer {dep_layer}), \
                     {relation}, at {at}: crates may only depend on lower layers"
                ));
            }
        } else if TOOLS.contains(&package) {
            problems.push(format!(
                "`{name}` depends on the tool crate `{package}` at {at}"
            ));
        } else if package.starts_with("caissa") {
            problems.push(format!(
                "`{name}` depends on `{package}` at {at}, which has no layer: add it to LAYERS \
                 in xtask/src/layering.rs"
            ));
        }
        if PEERS.contains(&package) {
            problems.push(format!(
                "library crate `{name}` depends on the peer chess crate `{package}` at {at}: \
                 peers are dev-dependencies only"
            ));
        }
    }
    problems
}

/// What the check needs from a manifest.
#[derive(Debug, PartialEq, Eq)]
struct Manifest {
    /// `package.name`.
    name: String,
    /// Every dependency of every section, in order.
    dependencies: Vec<Dependency>,
}

/// One dependency entry.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Dependency {
    /// The package depended on (after `package = "…"` renames).
    package: String,
    kind: DepKind,
    /// The section header as written, such as `[target.'cfg(unix)'.dependencies]`.
    section: String,
    /// The line, from 1, where the dependency is named.
    line: usize,
}

/// Which kind of dependency section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DepKind {
    Normal,
    Build,
    Dev,
}

impl DepKind {
    fn from_table_name(name: &str) -> Option<Self> {
        match name {
            "dependencies" => Some(Self::Normal),
            "build-dependencies" | "build_dependencies" => Some(Self::Build),
            "dev-dependencies" | "dev_dependencies" => Some(Self::Dev),
            _ => None,
        }
    }
}

/// A manifest the reader could not make sense of.
#[derive(Debug, PartialEq, Eq)]
struct ParseError {
    line: usize,
    message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

fn parse_error(line: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        line,
        message: message.into(),
    }
}

/// The table the reader is in.
#[derive(Debug)]
enum Section {
    Package,
    /// `[dependencies]` and the like: every key names a dependency.
    Dependencies {
        kind: DepKind,
        header: String,
    },
    /// `[dependencies.name]` and the like: the keys describe one dependency, at this index.
    Dependency(usize),
    Other,
}

fn parse_manifest(text: &str) -> std::result::Result<Manifest, ParseError> {
    let mut name = None;
    let mut dependencies: Vec<Dependency> = Vec::new();
    let mut section = Section::Other;
    // In a `[dependencies]`-like table, the entry of each key (`foo.workspace` and
    // `foo.optional` are the same dependency).
    let mut entries: HashMap<String, usize> = HashMap::new();

    for (line, content) in logical_lines(text)? {
        let content = content.trim();
        if content.is_empty() {
            continue;
        }
        if content.starts_with("[[") {
            // An array of tables (`[[bin]]`, `[[bench]]`): nothing we need.
            section = Section::Other;
            continue;
        }
        if let Some(inner) = content.strip_prefix('[') {
            let inner = inner
                .strip_suffix(']')
                .ok_or_else(|| parse_error(line, "a table header must end with `]`"))?;
            let path = split_key(inner, line)?;
            entries.clear();
            section = match path.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                ["package"] => Section::Package,
                [table] | ["target", _, table] => match DepKind::from_table_name(table) {
                    Some(kind) => Section::Dependencies {
                        kind,
                        header: content.to_owned(),
                    },
                    None => Section::Other,
                },
                [table, dep] | ["target", _, table, dep] => match DepKind::from_table_name(table) {
                    Some(kind) => {
                        dependencies.push(Dependency {
                            package: dep.to_owned(),
                            kind,
                            section: content.to_owned(),
                            line,
                        });
                        Section::Dependency(dependencies.len() - 1)
                    }
                    None => Section::Other,
                },
                _ => Section::Other,
            };
            continue;
        }

        let (key, value) = split_once_outside_strings(content, '=')
            .ok_or_else(|| parse_error(line, "expected `key = value` or a `[table]` header"))?;
        let key = split_key(key, line)?;
        let value = value.trim();
        match &section {
            Section::Package => {
                if key == ["name"] {
                    name = Some(unquote(value, line)?);
                }
            }
            Section::Dependencies { kind, header } => {
                let index = *entries.entry(key[0].clone()).or_insert_with(|| {
                    dependencies.push(Dependency {
                        package: key[0].clone(),
                        kind: *kind,
                        section: header.clone(),
                        line,
                    });
                    dependencies.len() - 1
                });
                if key.len() == 1 {
                    if let Some(package) = inline_table_value(value, "package", line)? {
                        dependencies[index].package = package;
                    }
                } else if key.len() == 2 && key[1] == "package" {
                    dependencies[index].package = unquote(value, line)?;
                }
            }
            Section::Dependency(index) => {
                if key == ["package"] {
                    dependencies[*index].package = unquote(value, line)?;
                }
            }
            Section::Other => {}
        }
    }

    let name = name.ok_or_else(|| parse_error(1, "no `name` in a `[package]` table"))?;
    Ok(Manifest { name, dependencies })
}

/// The manifest as `(line, text)` pairs, one per TOML expression: comments are dropped, and a
/// value whose brackets or multi-line string go on over several lines is joined into one.
fn logical_lines(text: &str) -> std::result::Result<Vec<(usize, String)>, ParseError> {
    let mut lines = Vec::new();
    let mut current = String::new();
    let mut start_line = 1;
    let mut line = 1;
    let mut depth = 0_usize;
    let mut string: Option<Quote> = None;
    let mut in_comment = false;
    let mut chars = text.chars().peekable();

    while let Some(c) = chars.next() {
        if c == '\n' {
            if let Some(quote) = string {
                if !quote.multi_line {
                    return Err(parse_error(line, "unterminated string"));
                }
                current.push(c);
            } else if depth == 0 {
                lines.push((start_line, std::mem::take(&mut current)));
                start_line = line + 1;
            } else {
                current.push(' ');
            }
            in_comment = false;
            line += 1;
            continue;
        }
        if in_comment {
            continue;
        }
        if let Some(quote) = string {
            current.push(c);
            if c == '\\' && !quote.literal {
                if let Some(escaped) = chars.next() {
                    current.push(escaped);
                    if escaped == '\n' {
                        line += 1;
                    }
                }
            } else if c == quote.delimiter() {
                if !quote.multi_line {
                    string = None;
                } else if chars.peek() == Some(&c) {
                    current.push(chars.next().unwrap_or(c));
                    if chars.peek() == Some(&c) {
                        current.push(chars.next().unwrap_or(c));
                        string = None;
                    }
                }
            }
            continue;
        }
        match c {
            '#' => in_comment = true,
            '"' | '\'' => {
                current.push(c);
                let literal = c == '\'';
                let mut multi_line = false;
                if chars.peek() == Some(&c) {
                    current.push(chars.next().unwrap_or(c));
                    if chars.peek() == Some(&c) {
                        current.push(chars.next().unwrap_or(c));
                        multi_line = true;
                    } else {
                        // An empty string: `""`.
                        continue;
                    }
                }
                string = Some(Quote {
                    literal,
                    multi_line,
                });
            }
            '[' | '{' => {
                depth += 1;
                current.push(c);
            }
            ']' | '}' => {
                depth = depth
                    .checked_sub(1)
                    .ok_or_else(|| parse_error(line, format!("unmatched `{c}`")))?;
                current.push(c);
            }
            _ => current.push(c),
        }
    }
    if string.is_some() {
        return Err(parse_error(line, "unterminated string"));
    }
    if depth > 0 {
        return Err(parse_error(start_line, "unclosed `[` or `{`"));
    }
    lines.push((start_line, current));
    Ok(lines)
}

/// The string the scanner is in.
#[derive(Clone, Copy, Debug)]
struct Quote {
    /// `'…'`: no escapes.
    literal: bool,
    /// `"""…"""` or `'''…'''`.
    multi_line: bool,
}

impl Quote {
    fn delimiter(self) -> char {
        if self.literal { '\'' } else { '"' }
    }
}

/// Splits at the first `separator` outside strings and brackets.
fn split_once_outside_strings(text: &str, separator: char) -> Option<(&str, &str)> {
    let mut quote = None;
    let mut escaped = false;
    let mut depth = 0_usize;
    for (i, c) in text.char_indices() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '\'' => quote = Some(c),
                '[' | '{' => depth += 1,
                ']' | '}' => depth = depth.saturating_sub(1),
                _ if c == separator && depth == 0 => {
                    return Some((&text[..i], &text[i + c.len_utf8()..]));
                }
                _ => {}
            },
        }
    }
    None
}

/// A dotted key (`a."b.c".d`) as its unquoted parts.
fn split_key(key: &str, line: usize) -> std::result::Result<Vec<String>, ParseError> {
    let mut parts = Vec::new();
    let mut rest = key;
    loop {
        let (part, tail) = match split_once_outside_strings(rest, '.') {
            Some((part, tail)) => (part, Some(tail)),
            None => (rest, None),
        };
        let part = part.trim();
        if part.is_empty() {
            return Err(parse_error(line, format!("bad key `{}`", key.trim())));
        }
        parts.push(if part.starts_with(['"', '\'']) {
            unquote(part, line)?
        } else {
            part.to_owned()
        });
        match tail {
            Some(tail) => rest = tail,
            None => return Ok(parts),
        }
    }
}

/// The text of a one-line string value (`"x"` or `'x'`).
fn unquote(value: &str, line: usize) -> std::result::Result<String, ParseError> {
    let value = value.trim();
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|v| v.strip_suffix(quote))
        {
            return Ok(inner.to_owned());
        }
    }
    Err(parse_error(
        line,
        format!("expected a string, got `{value}`"),
    ))
}

/// The string value of `key` in an inline table (`{ package = "x", version = "1" }`), if the
/// value is an inline table that has it.
fn inline_table_value(
    value: &str,
    key: &str,
    line: usize,
) -> std::result::Result<Option<String>, ParseError> {
    let Some(mut rest) = value.strip_prefix('{').and_then(|v| v.strip_suffix('}')) else {
        return Ok(None);
    };
    loop {
        let (entry, tail) = match split_once_outside_strings(rest, ',') {
            Some((entry, tail)) => (entry, Some(tail)),
            None => (rest, None),
        };
        if let Some((entry_key, entry_value)) = split_once_outside_strings(entry, '=')
            && split_key(entry_key, line)? == [key]
        {
            return unquote(entry_value, line).map(Some);
        }
        match tail {
            Some(tail) => rest = tail,
            None => return Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks a manifest and asserts that the problems found mention `expected`, in order
    /// (nothing expected: the manifest passes).
    fn check(manifest: &str, expected: &[&str]) {
        let problems = check_manifest(manifest).expect("the manifest parses");
        assert_eq!(
            problems.len(),
            expected.len(),
            "problems: {problems:#?}\nexpected: {expected:#?}"
        );
        for (problem, expected) in problems.iter().zip(expected) {
            assert!(problem.contains(expected), "`{problem}` lacks `{expected}`");
        }
    }

    #[test]
    fn lower_layers_and_dev_peers_pass() {
        check(
            r#"
[package]
name = "caissa-notation" # layer 2
version.workspace = true
description = """
Multi-line: [not a table] and "quotes" # not a comment
"""

[features]
serde = [
    "dep:serde",
    "caissa-board/serde",
]

[dependencies]
caissa-board.workspace = true
caissa-board.optional = false
caissa-movegen = { workspace = true, features = ["serde"] }
thiserror = "2"

[dev-dependencies]
shakmaty.workspace = true
caissa = { path = "../caissa" }     # dev-dependency cycles are not this check's business
cozy-chess = "0.3"

[target.'cfg(unix)'.dependencies]
caissa-board = { path = "../board" }

[[bench]]
name = "x"
"#,
            &[],
        );
    }

    #[test]
    fn same_layer_is_refused() {
        check(
            "[package]\nname = \"caissa-notation\"\n[dependencies]\ncaissa-game.workspace = true\n",
            &[
                "`caissa-notation` (layer 2) depends on `caissa-game` (layer 2), the same layer, at line 4, [dependencies]",
            ],
        );
        check(
            "[package]\nname = 'caissa-game'\n[dependencies.caissa-notation]\nworkspace = true\n",
            &["the same layer, at line 3, [dependencies.caissa-notation]"],
        );
    }

    #[test]
    fn higher_layers_are_refused_in_every_non_dev_section() {
        check(
            r#"
[package]
name = "caissa-board"

[build-dependencies]
caissa-movegen = { path = "../movegen" }

[target."cfg(windows)".dependencies]
caissa-cli = "0.1"

[target.'cfg(unix)'.build-dependencies.caissa]
workspace = true
"#,
            &[
                "depends on `caissa-movegen` (layer 1), a higher layer, at line 6, [build-dependencies]",
                "`caissa-cli` (layer 5)",
                "`caissa` (layer 4), a higher layer, at line 11, [target.'cfg(unix)'.build-dependencies.caissa]",
            ],
        );
    }

    #[test]
    fn renamed_dependencies_are_followed() {
        check(
            r#"
[package]
name = "caissa-movegen"
[dependencies]
notation = { package = "caissa-notation", path = "../notation" }
fast.package = "shakmaty"
fast.version = "0.30"
[dependencies.board]
package = "caissa-board"
"#,
            &[
                "depends on `caissa-notation` (layer 2), a higher layer",
                "peer chess crate `shakmaty` at line 6",
            ],
        );
    }

    #[test]
    fn peers_are_dev_dependencies_only_in_library_crates() {
        check(
            "[package]\nname = \"caissa\"\n[dependencies]\ncaissa-board.workspace = true\n\
             pgn-reader = \"=0.29.0\"\n[build-dependencies]\nchess = \"3.2\"\n",
            &[
                "library crate `caissa` depends on the peer chess crate `pgn-reader` at line 5",
                "`chess` at line 7, [build-dependencies]",
            ],
        );
        // Tool crates may depend on peers and on every layer.
        check(
            "[package]\nname = \"caissa-testsuite\"\n[dependencies]\nshakmaty = \"0.30\"\n\
             caissa-cli.workspace = true\n",
            &[],
        );
    }

    #[test]
    fn unknown_and_tool_crates_are_refused() {
        check(
            "[package]\nname = \"caissa-engine\"\n",
            &["crate `caissa-engine` has no layer"],
        );
        check(
            "[package]\nname = \"caissa-cli\"\n[dependencies]\ncaissa-testsuite.workspace = true\n\
             caissa-uci.workspace = true\n",
            &[
                "depends on the tool crate `caissa-testsuite`",
                "depends on `caissa-uci` at line 5, [dependencies], which has no layer",
            ],
        );
    }

    #[test]
    fn unreadable_manifests_are_errors_with_a_line() {
        let cases = [
            ("[package]\nname = \"x\n", 2, "unterminated string"),
            (
                "[package]\nname = \"x\"\n[dependencies] x\n",
                3,
                "must end with `]`",
            ),
            ("[package]\nname = \"x\"\n[dependencies\n", 3, "unclosed"),
            ("[package]\nname = \"x\"\n}\n", 3, "unmatched `}`"),
            ("[package]\nname = \"x\"\nfoo = [1,\n", 3, "unclosed"),
            (
                "[package]\nname = \"x\"\njust words\n",
                3,
                "expected `key = value`",
            ),
            ("[package]\nname = 1\n", 2, "expected a string"),
            ("[dependencies]\n", 1, "no `name`"),
        ];
        for (text, line, message) in cases {
            let e = check_manifest(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(message), "{text:?}: {e}");
        }
    }

    #[test]
    fn workspace_check_reports_every_problem_with_its_file() {
        let root = std::env::temp_dir().join(format!("xtask-layering-{}", std::process::id()));
        let write = |dir: &str, text: &str| {
            let dir = root.join("crates").join(dir);
            fs::create_dir_all(&dir).unwrap();
            fs::write(dir.join("Cargo.toml"), text).unwrap();
        };
        write("board", "[package]\nname = \"caissa-board\"\n");
        write(
            "game",
            "[package]\nname = \"caissa-game\"\n[dependencies]\ncaissa-board = \"0.1\"\n",
        );
        fs::create_dir_all(root.join("crates/arbiter/src")).unwrap();
        let report = check_workspace(&root).unwrap();
        assert_eq!(
            report,
            "layering ok: 2 manifests checked (no Cargo.toml yet, skipped: crates/arbiter/Cargo.toml)"
        );

        write(
            "notation",
            "[package]\nname = \"caissa-notation\"\n[dependencies]\ncaissa-game = \"0.1\"\n",
        );
        write("movegen", "[package]\nname = \"caissa-movegen\n");
        let e = check_workspace(&root).unwrap_err().to_string();
        fs::remove_dir_all(&root).unwrap();
        assert!(
            e.contains("crates/movegen/Cargo.toml: line 2: unterminated string"),
            "{e}"
        );
        assert!(
            e.contains(
                "crates/notation/Cargo.toml: `caissa-notation` (layer 2) depends on `caissa-game`"
            ),
            "{e}"
        );
    }
}
