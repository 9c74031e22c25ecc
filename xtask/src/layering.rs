//! The layering check of `cargo xtask ci`: which crate may depend on which.
//!
//! Library crates form layers ([`LAYERS`]) and depend only on strictly lower layers, so crates of
//! one layer never depend on each other. They have no peer chess crate ([`PEERS`]) among their
//! dependencies: peers serve differential tests and benches, as dev-dependencies. Tool crates
//! ([`TOOLS`], and every crate under `examples/`) depend on anything; no library depends on them.
//! Every crate under `crates/` must be in one of the lists, so the table stays current.
//! Dev-dependencies are free; normal, build and target-specific dependencies count.
//!
//! As in rust-analyzer's tidy, manifests are read line by line, not parsed as TOML. In exchange,
//! dependency tables keep to forms one line can be judged by, in every crate and every table:
//! one dependency per line (no `[dependencies.name]` tables, no multi-line values); internal
//! (`caissa…`) dependencies written `caissa-x.workspace = true` or `caissa-x = { workspace =
//! true, … }`, never with a path or version, which the workspace manifest alone holds; and no
//! renames (`package = "…"`), which would hide a dependency's name.

use std::fs;
use std::path::Path;

use crate::{Error, Result};

/// The library crates and their layers (planned crates included, so that they land checked).
const LAYERS: &[(&str, u8)] = &[
    ("caissa-board", 0),
    ("caissa-movegen", 1),
    ("caissa-game", 2),
    ("caissa-notation", 3),
    ("caissa-arbiter", 4),
    ("caissa-pgntools", 5),
    ("caissa-uci", 5),
    ("caissa-match", 6),
    ("caissa", 7),
    ("caissa-cli", 8),
    ("caissa-python", 8),
];

/// Crates outside the layers (besides those under `examples/`).
const TOOLS: &[&str] = &["caissa-testsuite", "caissa-benches", "xtask"];

/// Peer chess crates: dev-dependencies only in library crates.
const PEERS: &[&str] = &["shakmaty", "cozy-chess", "chess", "pgn-reader", "chasolver"];

fn layer_of(package: &str) -> Option<u8> {
    LAYERS.iter().find(|l| l.0 == package).map(|l| l.1)
}

/// Checks the manifests of `crates/*`, `examples/*`, `benches` and `xtask` under `root`; on
/// success, says how many were checked.
pub(crate) fn check_workspace(root: &Path) -> Result<String> {
    let mut manifests = vec![(root.join("benches"), true), (root.join("xtask"), true)];
    for (dir, tool) in [("crates", false), ("examples", true)] {
        let entries = fs::read_dir(root.join(dir)).into_iter().flatten().flatten();
        manifests.extend(entries.map(|entry| (entry.path(), tool)));
    }
    manifests.sort();
    let mut problems = Vec::new();
    let mut checked = 0;
    for (dir, tool) in manifests {
        let path = dir.join("Cargo.toml");
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        checked += 1;
        problems.extend(
            check_manifest(&text, tool)
                .iter()
                .map(|p| format!("{shown}: {p}")),
        );
    }
    match (checked, problems.is_empty()) {
        (0, _) => Err(Error::new(format!(
            "no crate manifests under {}",
            root.display()
        ))),
        (_, true) => Ok(format!("layering ok: {checked} manifests checked")),
        _ => Err(Error::new(format!(
            "the layering rules are broken (see xtask/src/layering.rs):\n  {}",
            problems.join("\n  ")
        ))),
    }
}

/// The rule violations of one manifest, each with its line; `tool` exempts it from the layers.
fn check_manifest(text: &str, tool: bool) -> Vec<String> {
    let mut problems = Vec::new();
    // The package name, and the dependencies that count for the layers, with their lines.
    let (mut name, mut counted) = (None, Vec::new());
    // Where the line is: in `[package]`; in a dependency table that counts or not (see `table_of`).
    let (mut in_package, mut dependencies) = (false, None);
    for (at, line) in (1..).zip(text.lines()) {
        let line = line.split('#').next().unwrap_or_default().trim();
        let key = line.split(['.', '=', ' ', '\t']).next().unwrap_or_default();
        let checked = if line.starts_with('[') {
            table_of(line).map(|table| (in_package, dependencies) = table)
        } else if in_package && key == "name" {
            name = line.split('"').nth(1).map(str::to_owned);
            Ok(())
        } else if let (Some(counts), false) = (dependencies, line.is_empty()) {
            dependency_form(line, key).map(|()| counted.extend(counts.then_some((key, at))))
        } else {
            Ok(())
        };
        problems.extend(checked.err().map(|e| format!("line {at}: `{line}`: {e}")));
    }
    let Some(name) = name else {
        problems.push("no `name = \"…\"` in `[package]`".to_owned());
        return problems;
    };
    if tool || TOOLS.contains(&name.as_str()) {
        return problems;
    }
    let Some(layer) = layer_of(&name) else {
        problems.push(format!(
            "crate `{name}` has no layer: add it to LAYERS or TOOLS"
        ));
        return problems;
    };
    for (dependency, at) in counted {
        let problem = match layer_of(dependency) {
            Some(below) if below < layer => continue,
            Some(other) => format!(
                "`{name}` (layer {layer}) depends on `{dependency}` (layer {other}): \
                 crates may only depend on lower layers"
            ),
            None if TOOLS.contains(&dependency) => {
                format!("`{name}` depends on the tool crate `{dependency}`")
            }
            None if dependency.starts_with("caissa") => {
                format!("`{name}` depends on `{dependency}`, which has no layer in LAYERS")
            }
            None if PEERS.contains(&dependency) => format!(
                "library crate `{name}` depends on the peer chess crate `{dependency}`: \
                 peers are dev-dependencies only"
            ),
            None => continue,
        };
        problems.push(format!("line {at}: {problem}"));
    }
    problems
}

/// What a header line opens: whether it is `[package]`, and whether a dependency table that
/// counts (`Some(true)`) or holds dev-dependencies (`Some(false)`).
fn table_of(header: &str) -> std::result::Result<(bool, Option<bool>), &'static str> {
    let Some(table) = header.strip_prefix('[').and_then(|h| h.strip_suffix(']')) else {
        return Err("a table header ends with `]`");
    };
    let table = table.trim_matches(['[', ']', ' ']);
    let dependencies = table.ends_with("dependencies");
    if !dependencies && table.contains("dependencies.") {
        return Err("write the dependency as one line of its dependency table");
    }
    Ok((
        table == "package",
        dependencies.then_some(!table.ends_with("dev-dependencies")),
    ))
}

/// Whether a dependency line, whose key starts with `name`, keeps to the forms of the module docs.
fn dependency_form(line: &str, name: &str) -> std::result::Result<(), &'static str> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if name.is_empty() || !name.chars().all(word) {
        return Err("write one dependency per line, `name = …`");
    }
    let line: String = line.split_whitespace().collect();
    let has = |keys: &[&str]| keys.iter().any(|key| line.contains(key));
    if has(&["{package=", ",package=", ".package="]) {
        return Err("renamed dependencies are not allowed");
    }
    let inline = line.starts_with(&format!("{name}={{"))
        && has(&["{workspace=true", ",workspace=true"])
        && !has(&["path=", "version=", "git="]);
    if name.starts_with("caissa") && !inline && line != format!("{name}.workspace=true") {
        return Err("write it `caissa-x.workspace = true` or `caissa-x = { workspace = true, … }`");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that the problems of a library manifest mention `expected`, in order.
    fn check(manifest: &str, expected: &[&str]) {
        let problems = check_manifest(manifest, false);
        assert_eq!(problems.len(), expected.len(), "{problems:#?}");
        for (problem, expected) in problems.iter().zip(expected) {
            assert!(problem.contains(expected), "`{problem}` lacks `{expected}`");
        }
    }

    #[test]
    fn lower_layers_and_dev_peers_pass() {
        let manifest = r#"
[package]
name = "caissa-notation" # layer 3
[features]
serde = [
    "dep:serde",
]
[dependencies]
caissa-board.workspace = true   # a comment
caissa-game = { workspace = true, features = ["serde"] }
thiserror = "2"
[dev-dependencies]
shakmaty.workspace = true
caissa.workspace = true   # dev-dependency cycles are not this check's business
[target.'cfg(unix)'.dependencies]
caissa-movegen.workspace = true
[[bench]]
name = "x"
"#;
        check(manifest, &[]);
    }

    #[test]
    fn same_and_higher_layers_are_refused_in_every_counted_table() {
        let manifest = "[package]\nname = \"caissa-uci\"\n[dependencies]\n\
            caissa-pgntools.workspace = true\n[build-dependencies]\ncaissa-match.workspace = true\n\
            [target.\"cfg(windows)\".dependencies]\ncaissa-cli = { workspace = true }\n";
        check(
            manifest,
            &[
                "line 4: `caissa-uci` (layer 5) depends on `caissa-pgntools` (layer 5)",
                "line 6: `caissa-uci` (layer 5) depends on `caissa-match` (layer 6)",
                "line 8: `caissa-uci` (layer 5) depends on `caissa-cli` (layer 8)",
            ],
        );
    }

    #[test]
    fn internal_dependencies_come_from_the_workspace() {
        let manifest = r#"[package]
name = "caissa"
[dependencies]
caissa-board = { path = "../board" }
caissa-game = "0.1"
caissa-movegen = { workspace = true, path = "../movegen" }
caissa-notation.features = ["serde"]
[dev-dependencies]
caissa-arbiter = { version = "0.1", workspace = true }
"#;
        let first =
            "line 4: `caissa-board = { path = \"../board\" }`: write it `caissa-x.workspace";
        check(manifest, &[first, "line 5", "line 6", "line 7", "line 9"]);
    }

    #[test]
    fn lines_the_check_cannot_judge_are_refused() {
        let manifest = r#"[package]
name = "caissa-game"
[dependencies.caissa-notation]
workspace = true
[dependencies]
board = { package = "caissa-board", workspace = true }
smallvec = { version = "1", features = [
    "union",
] }
[dev-dependencies] trailing
"#;
        check(
            manifest,
            &[
                "line 3: `[dependencies.caissa-notation]`: write the dependency as one line",
                "line 6: `board = { package = \"caissa-board\", workspace = true }`: renamed",
                "line 8: `\"union\",`: write one dependency per line",
                "line 9: `] }`: write one dependency per line",
                "line 10: `[dev-dependencies] trailing`: a table header ends with `]`",
            ],
        );
    }

    #[test]
    fn peers_are_dev_dependencies_only_in_library_crates() {
        let manifest = "[package]\nname = \"caissa\"\n[dependencies]\npgn-reader = \"=0.29.0\"\n\
            [build-dependencies]\nchess = \"3.2\"\n[dev-dependencies]\nshakmaty = \"0.30\"\n";
        check(
            manifest,
            &[
                "line 4: library crate `caissa` depends on the peer chess crate `pgn-reader`",
                "line 6: library crate `caissa` depends on the peer chess crate `chess`",
            ],
        );
    }

    #[test]
    fn tool_crates_are_free_but_keep_the_forms() {
        let testsuite = "[package]\nname = \"caissa-testsuite\"\n[dependencies]\n\
            shakmaty = \"0.30\"\ncaissa-cli.workspace = true\n";
        check(testsuite, &[]);
        let example = "[package]\nname = \"book\"\n[dependencies]\nshakmaty = \"0.30\"\n\
            caissa = { path = \"../../crates/caissa\" }\n";
        let problems = check_manifest(example, true);
        assert!(problems.len() == 1 && problems[0].starts_with("line 5: `caissa = {"));
    }

    #[test]
    fn every_crate_has_a_layer_and_tools_stay_out_of_libraries() {
        check(
            "[package]\nname = \"caissa-engine\"\n",
            &["crate `caissa-engine` has no layer"],
        );
        check("[dependencies]\n", &["no `name = \"…\"` in `[package]`"]);
        let manifest = "[package]\nname = \"caissa-cli\"\n[dependencies]\n\
            caissa-testsuite.workspace = true\ncaissa-engine.workspace = true\n";
        check(
            manifest,
            &[
                "line 4: `caissa-cli` depends on the tool crate `caissa-testsuite`",
                "line 5: `caissa-cli` depends on `caissa-engine`, which has no layer",
            ],
        );
    }

    #[test]
    fn workspace_check_reports_every_problem_with_its_file() {
        let root = std::env::temp_dir().join(format!("xtask-layering-{}", std::process::id()));
        let write = |dir: &str, text: &str| {
            fs::create_dir_all(root.join(dir)).unwrap();
            fs::write(root.join(dir).join("Cargo.toml"), text).unwrap();
        };
        write("crates/board", "[package]\nname = \"caissa-board\"\n");
        write(
            "examples/book",
            "[package]\nname = \"book\"\n[dependencies]\nshakmaty = \"1\"\n",
        );
        write("xtask", "[package]\nname = \"xtask\"\n");
        fs::create_dir_all(root.join("crates/arbiter/src")).unwrap();
        assert_eq!(
            check_workspace(&root).unwrap(),
            "layering ok: 3 manifests checked"
        );

        let game =
            "[package]\nname = \"caissa-game\"\n[dependencies]\ncaissa-notation.workspace = true\n";
        write("crates/game", game);
        write(
            "benches",
            "[package]\nname = \"caissa-benches\"\n[dependencies]\ncaissa = \"1\"\n",
        );
        let e = check_workspace(&root).unwrap_err().to_string();
        fs::remove_dir_all(&root).unwrap();
        assert!(
            e.contains("\n  benches/Cargo.toml: line 4: `caissa = \"1\"`: write it"),
            "{e}"
        );
        assert!(
            e.contains("\n  crates/game/Cargo.toml: line 4: `caissa-game` (layer 2)"),
            "{e}"
        );
    }
}
