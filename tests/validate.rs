//! `sow validate` and `sow show`, driven through the binary on records with known
//! problems (records/flawed/: one record per diagnostic code, with its expected report).

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

mod expect;

fn sow() -> Command {
    let mut cmd = Command::cargo_bin("sow").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd.env_remove("NO_COLOR");
    cmd
}

/// The JSON objects `sow validate --format json` prints for the arguments.
fn json_lines(args: &[&str]) -> (Vec<Value>, i32) {
    let out = sow()
        .arg("validate")
        .args(["--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (lines, out.status.code().unwrap())
}

/// The JSON objects `sow validate --format json -` prints for `text` on standard input.
fn json_lines_of_stdin(text: &str) -> Vec<Value> {
    let out = sow()
        .args(["validate", "--format", "json", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn diagnostics(lines: &[Value]) -> Vec<&Value> {
    lines.iter().filter(|v| v["kind"] == "diagnostic").collect()
}

/// (file, code, severity, ply, line, column): what each flawed record must report first.
type Expected = (
    &'static str,
    &'static str,
    &'static str,
    Option<u64>,
    u64,
    u64,
);

const FLAWED: &[Expected] = &[
    ("after-end", "after-end", "error", Some(13), 8, 13),
    ("bad-board", "bad-board", "error", None, 2, 9),
    ("bonus", "bonus", "error", Some(1), 10, 6),
    ("capture-mark", "capture-mark", "error", Some(3), 6, 16),
    ("command", "command", "error", Some(1), 6, 9),
    ("duplicate-tag", "duplicate-tag", "error", None, 3, 1),
    ("end-mismatch", "end-mismatch", "error", Some(1), 6, 4),
    ("endless-sowing", "endless-sowing", "error", Some(1), 8, 4),
    ("foul", "foul", "warning", Some(1), 8, 4),
    ("illegal-move", "illegal-move", "error", Some(5), 6, 28),
    ("missing-result", "missing-result", "error", None, 6, 12),
    ("move-number", "move-number", "warning", Some(3), 6, 13),
    ("ply-form", "ply-form", "error", Some(1), 7, 4),
    (
        "result-mismatch",
        "result-mismatch",
        "error",
        Some(12),
        8,
        10,
    ),
    (
        "result-not-over",
        "result-not-over",
        "warning",
        Some(8),
        7,
        49,
    ),
    ("setup", "setup", "error", None, 4, 12),
    ("setup-total", "setup-total", "warning", None, 4, 12),
    (
        "stones-mismatch",
        "stones-mismatch",
        "error",
        Some(2),
        6,
        32,
    ),
    ("syntax", "syntax", "error", Some(2), 6, 8),
    ("unknown-game", "unknown-game", "error", None, 1, 8),
    ("unknown-option", "unknown-option", "error", None, 2, 9),
    (
        "unterminated-comment",
        "unterminated-comment",
        "error",
        Some(2),
        6,
        8,
    ),
];

#[test]
fn every_flawed_record_reports_its_code_ply_line_and_column_in_json() {
    for &(name, code, severity, ply, line, column) in FLAWED {
        let path = format!("records/flawed/{name}.pmn");
        let (lines, status) = json_lines(&[&path]);
        let ds = diagnostics(&lines);
        assert_eq!(ds.len(), 1, "{name}: {ds:?}");
        let d = ds[0];
        assert_eq!(d["file"], path.as_str(), "{name}");
        assert_eq!(d["game"], 1, "{name}");
        assert_eq!(d["code"], code, "{name}");
        assert_eq!(d["severity"], severity, "{name}");
        assert_eq!(d["ply"].as_u64(), ply, "{name}");
        assert_eq!(d["line"], line, "{name}");
        assert_eq!(d["column"], column, "{name}");
        assert!(!d["message"].as_str().unwrap().is_empty(), "{name}");
        let game = lines.iter().find(|v| v["kind"] == "game").unwrap();
        assert_eq!(game["valid"], severity == "warning", "{name}");
        let expected_status = if severity == "error" { 1 } else { 0 };
        assert_eq!(status, expected_status, "{name}");
    }
}

#[test]
fn every_flawed_record_gives_its_expected_human_report() {
    for &(name, code, _, _, line, column) in FLAWED {
        let path = format!("records/flawed/{name}.pmn");
        let out = sow().args(["validate", &path]).output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        expect::check_file(&format!("records/flawed/{name}.expected"), &text);
        assert!(text.contains(&format!("[{code}]")), "{name}");
        if ![
            "bad-board",
            "unknown-game",
            "unknown-option",
            "setup",
            "duplicate-tag",
        ]
        .contains(&name)
        {
            assert!(
                text.contains(&format!("--> {path}:{line}:{column}")),
                "{name}: {text}"
            );
        }
        // Not a terminal: no colour codes.
        assert!(!text.contains('\u{1b}'), "{name}");
    }
}

#[test]
fn an_illegal_ply_lists_the_legal_plies_and_the_position() {
    let (lines, _) = json_lines(&["records/flawed/illegal-move.pmn"]);
    let d = diagnostics(&lines)[0];
    let legal: Vec<&str> = d["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(legal, ["a10", "b4x"]);
    assert_eq!(
        d["position"],
        "0,0,1,1,1,1,1,1,1,1,1,1/0,0,1,1,1,1,1,1,1,0,1,1/1,1,0,1,1,1,1,1,1,1,0,0/1,1,1,1,1,1,1,1,1,1,0,0 S"
    );
}

#[test]
fn a_folder_is_walked_and_summarised() {
    let out = sow().args(["validate", "records/flawed"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap();
    let warnings_only = FLAWED.iter().filter(|f| f.2 == "warning").count();
    assert_eq!(
        last,
        format!(
            "{} games, {warnings_only} valid, {} with errors, {warnings_only} warnings",
            FLAWED.len(),
            FLAWED.len() - warnings_only
        )
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn output_order_does_not_depend_on_threads() {
    let one = sow()
        .args(["validate", "-j", "1", "--format", "json", "records/flawed"])
        .output()
        .unwrap();
    let two = sow()
        .args(["validate", "-j", "2", "--format", "json", "records/flawed"])
        .output()
        .unwrap();
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn the_next_game_is_read_after_a_broken_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.pmn");
    fs::write(
        &path,
        "[Game \"BaoLaKimasai\"]\n\n1. b2x {unclosed c11x *\n\n[Game \"BaoLaKimasai\"]\n\n1. b2x c11x *\n",
    )
    .unwrap();
    let (lines, status) = json_lines(&[path.to_str().unwrap()]);
    let games: Vec<&Value> = lines.iter().filter(|v| v["kind"] == "game").collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["valid"], false);
    assert_eq!(games[1]["valid"], true);
    assert_eq!(games[1]["game"], 2);
    assert_eq!(status, 1);
}

#[test]
fn inputs_are_never_modified() {
    let before: Vec<Vec<u8>> = FLAWED
        .iter()
        .map(|f| {
            fs::read(format!(
                "{}/records/flawed/{}.pmn",
                env!("CARGO_MANIFEST_DIR"),
                f.0
            ))
            .unwrap()
        })
        .collect();
    sow()
        .args(["validate", "--suggest", "records/flawed"])
        .output()
        .unwrap();
    for (f, bytes) in FLAWED.iter().zip(before) {
        let now = fs::read(format!(
            "{}/records/flawed/{}.pmn",
            env!("CARGO_MANIFEST_DIR"),
            f.0
        ))
        .unwrap();
        assert_eq!(now, bytes, "{}", f.0);
    }
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let text = shipped("records/flawed/illegal-move.pmn");
    let out = sow()
        .args(["validate", "--format", "json", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"file\":\"<stdin>\""), "{text}");
    assert!(text.contains("\"code\":\"illegal-move\""), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_missing_path_is_an_io_failure() {
    let out = sow()
        .args(["validate", "no/such/file.pmn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_usage_error_exits_with_two() {
    let out = sow()
        .args(["validate", "--format", "xml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn hidden_entries_are_skipped_and_reported_and_symlink_loops_survived() {
    let dir = tempfile::tempdir().unwrap();
    let good = "[Game \"BaoLaKimasai\"]\n\n1. b2x c11x *\n";
    fs::write(dir.path().join("good.pmn"), good).unwrap();
    fs::create_dir(dir.path().join(".hidden")).unwrap();
    fs::write(
        dir.path().join(".hidden/bad.pmn"),
        "[Game \"Oware\"]\n\n*\n",
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path(), dir.path().join("loop")).unwrap();
    let (lines, status) = json_lines(&[dir.path().to_str().unwrap()]);
    let games: Vec<&Value> = lines.iter().filter(|v| v["kind"] == "game").collect();
    assert_eq!(games.len(), 1, "{lines:?}");
    let skipped = diagnostics(&lines)
        .iter()
        .filter(|d| d["code"] == "skipped")
        .count();
    assert_eq!(skipped, 1, "{lines:?}");
    // Each warning printed is counted in the summary.
    let warnings = diagnostics(&lines)
        .iter()
        .filter(|d| d["severity"] == "warning")
        .count();
    assert_eq!(lines.last().unwrap()["warnings"], warnings, "{lines:?}");
    #[cfg(unix)]
    assert!(
        diagnostics(&lines)
            .iter()
            .any(|d| d["message"].as_str().unwrap().contains("loop")),
        "{lines:?}"
    );
    // A symlink loop is reported as an input problem.
    assert_eq!(status, if cfg!(unix) { 2 } else { 0 });
}

#[test]
fn rules_can_be_overridden() {
    let (_, status) = json_lines(&["records/flawed/bonus.pmn"]);
    assert_eq!(status, 1);
    let (lines, status) = json_lines(&["--rules", "bonus=1", "records/flawed/bonus.pmn"]);
    assert_eq!(status, 0, "{lines:?}");
}

#[test]
fn suggestions_come_with_the_diagnostic() {
    let (lines, _) = json_lines(&["--suggest", "records/flawed/bonus.pmn"]);
    let d = diagnostics(&lines)[0];
    let suggestions = d["suggestions"].as_array().unwrap();
    assert!(!suggestions.is_empty());
    assert!(
        suggestions[0]["edit"]
            .as_str()
            .unwrap()
            .starts_with("replace ply 1 `d3xa11` by `d3xa11,"),
        "{suggestions:?}"
    );
    assert_eq!(suggestions[0]["complete"], true);
}

#[test]
fn rules_inference_names_the_consistent_options() {
    let (lines, _) = json_lines(&["--infer-rules", "records/flawed/bonus.pmn"]);
    let game = lines.iter().find(|v| v["kind"] == "game").unwrap();
    let verdicts = game["rules"].as_array().unwrap();
    let consistent: Vec<&str> = verdicts
        .iter()
        .filter(|v| v["consistent"] == true)
        .map(|v| v["options"].as_str().unwrap())
        .collect();
    assert_eq!(consistent, ["heads=1 bonus=1 head-bonus=yes"]);
    let declared = verdicts.iter().find(|v| v["declared"] == true).unwrap();
    assert_eq!(declared["fails_at"], 1);
}

#[test]
fn show_prints_the_position_after_a_ply() {
    let out = sow()
        .args([
            "show",
            "records/flawed/illegal-move.pmn",
            "--ply",
            "0",
            "--format",
            "pmn",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "1,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,0/0,1,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1 S\n"
    );
    let out = sow()
        .args([
            "show",
            "records/flawed/illegal-move.pmn",
            "--ply",
            "1",
            "--format",
            "pmn",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "0,1,1,1,1,1,1,1,1,1,1,1/0,1,1,1,1,1,1,1,1,1,1,0/1,0,1,1,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,1,1,1,1 N\n"
    );
    // The default is the last ply replayed; the text board ends with the PMN string.
    let out = sow()
        .args(["show", "records/flawed/illegal-move.pmn"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("after ply 4 `c10x`"), "{text}");
    // Past the error there is no position.
    let out = sow()
        .args(["show", "records/flawed/illegal-move.pmn", "--ply", "5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("ply 5"), "{err}");
}

/// A small check of an object against one of our JSON Schemas: every required field is
/// there, no field is undeclared, and each value has a declared type.
fn check_against_schema(obj: &Value, schema: &Value) {
    let props = schema["properties"].as_object().unwrap();
    for req in schema["required"].as_array().unwrap() {
        let req = req.as_str().unwrap();
        assert!(obj.get(req).is_some(), "missing {req} in {obj}");
    }
    for (key, value) in obj.as_object().unwrap() {
        let decl = props
            .get(key)
            .unwrap_or_else(|| panic!("{key} is not declared in the schema: {obj}"));
        if let Some(c) = decl.get("const") {
            assert_eq!(value, c);
        }
        let types: Vec<&str> = match &decl["type"] {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().map(|t| t.as_str().unwrap()).collect(),
            _ => continue,
        };
        let actual = match value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_u64() || n.is_i64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        assert!(types.contains(&actual), "{key}: {actual} not in {types:?}");
    }
}

#[test]
fn json_lines_follow_the_committed_schemas() {
    let schema = |name: &str| -> Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schemas")
            .join(name);
        serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
    };
    let diagnostic = schema("validate-diagnostic.schema.json");
    let game = schema("validate-game.schema.json");
    let summary = schema("validate-summary.schema.json");
    let (lines, _) = json_lines(&["--suggest", "--infer-rules", "records/flawed"]);
    let mut kinds = std::collections::HashSet::new();
    for obj in &lines {
        let kind = obj["kind"].as_str().unwrap();
        kinds.insert(kind.to_string());
        match kind {
            "diagnostic" => check_against_schema(obj, &diagnostic),
            "game" => check_against_schema(obj, &game),
            "summary" => check_against_schema(obj, &summary),
            other => panic!("unknown kind {other}"),
        }
    }
    assert_eq!(kinds.len(), 3);
}

#[test]
fn an_empty_file_is_a_warning_and_no_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.pmn");
    fs::write(&path, "\n\n").unwrap();
    let (lines, status) = json_lines(&[path.to_str().unwrap()]);
    assert_eq!(status, 0);
    let d = diagnostics(&lines);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0]["code"], "empty-file");
    assert_eq!(d[0]["game"], Value::Null);
    let summary = lines.last().unwrap();
    assert_eq!(summary["games"], 0);
}

#[test]
fn the_filters_keep_their_games_with_their_numbers_in_the_file() {
    // The games are parsed, and so filtered, on the threads that replay them.
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.pmn");
    let text = [
        "[Game \"Tsoro\"]\n[Site \"A\"]\n\n1. a3 *\n",
        "[Game \"Nsolo\"]\n[Site \"A\"]\n\n1. a9 *\n",
        "[Game \"Tsoro\"]\n[Site \"B\"]\n\n1. a3 d21 *\n",
        "[Game \"Nsolo\"]\n[Site \"B\"]\n\n1. b9 *\n",
    ]
    .join("\n");
    fs::write(&games, text).unwrap();
    let empty = dir.path().join("empty.pmn");
    fs::write(&empty, "\n").unwrap();
    let paths = [games.to_str().unwrap(), empty.to_str().unwrap()];
    let kept = |filter: &[&str]| {
        let args: Vec<&str> = filter.iter().chain(&paths).copied().collect();
        let (lines, _) = json_lines(&args);
        let games: Vec<(u64, u64)> = (lines.iter())
            .filter(|v| v["kind"] == "game")
            .map(|v| (v["game"].as_u64().unwrap(), v["plies"].as_u64().unwrap()))
            .collect();
        // No filter hides a file's own report: an empty file is no game of any kind.
        let empty_file = diagnostics(&lines)
            .iter()
            .any(|d| d["code"] == "empty-file");
        assert!(empty_file, "{filter:?}: {lines:?}");
        games
    };
    assert_eq!(kept(&[]), [(1, 1), (2, 1), (3, 2), (4, 1)]);
    assert_eq!(kept(&["--game", "tsoro"]), [(1, 1), (3, 2)]);
    assert_eq!(kept(&["--where", "Site=B"]), [(3, 2), (4, 1)]);
    assert_eq!(kept(&["--game", "Nsolo", "--where", "Site=B"]), [(4, 1)]);
    assert_eq!(kept(&["--game", "Kiothi"]), []);
}

/// The text of a shipped record.
fn shipped(path: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The JSON lines of `sow validate` on a text given on standard input.
fn json_of_text(text: &str) -> (Vec<Value>, i32) {
    let out = sow()
        .args(["validate", "--format", "json", "-"])
        .write_stdin(text.to_string())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (lines, out.status.code().unwrap())
}

#[test]
fn text_that_is_no_record_counts_as_one_game_with_errors() {
    // Unreadable text is one game with errors, not one game a message, and the record
    // after it is game 2 of 2.
    let (lines, status) = json_of_text("a heading\n\n[Game \"BaoLaKimasai\"]\n\n1. b2x c11x *\n");
    assert_eq!(status, 1);
    let summary = lines.last().unwrap();
    assert_eq!(
        (
            &summary["games"],
            &summary["valid"],
            &summary["with_errors"]
        ),
        (&Value::from(2), &Value::from(1), &Value::from(1)),
        "{summary}"
    );
    let games: Vec<&Value> = lines.iter().filter(|v| v["kind"] == "game").collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0]["valid"], false);
    assert_eq!(games[1]["valid"], true);
    // The missing Game tag of the heading is reported once, at its place.
    let d = diagnostics(&lines);
    let missing: Vec<_> = d
        .iter()
        .filter(|d| d["code"] == "missing-game-tag" || d["code"] == "unknown-game")
        .collect();
    assert_eq!(missing.len(), 1, "{d:?}");
    assert_eq!(missing[0]["code"], "missing-game-tag", "{d:?}");
    assert!(d.iter().all(|d| d["line"].as_u64() > Some(0)), "{d:?}");
}

#[test]
fn a_result_problem_comes_after_the_problems_of_the_plies() {
    // PMN.md: "A Result problem is reported ... after any problem in the plies."
    let (lines, _) = json_of_text(
        "[Game \"BaoLaKimasai\"]\n[Result \"1-0\"]\n\n1. b2x c11x 2. b3x c10x 3. a3 *\n",
    );
    let codes: Vec<&Value> = diagnostics(&lines).iter().map(|d| &d["code"]).collect();
    assert_eq!(codes, ["illegal-move", "result-mismatch"]);
    // At the last ply written, which the result token follows, not the last ply
    // replayed (4): the illegal ply 5 stays the game's first error.
    let last = diagnostics(&lines)[1];
    assert_eq!(last["ply"], 5);
    let game = lines.iter().find(|v| v["kind"] == "game").unwrap();
    assert_eq!(game["first_error_ply"], 5, "{game}");
}

#[test]
fn a_tag_problem_does_not_hide_a_wrong_result() {
    // A duplicate tag leaves the move text whole: the result is still checked.
    let text = shipped("records/flawed/result-mismatch.pmn");
    let doubled = text.replacen("[Result", "[Site \"a\"]\n[Site \"b\"]\n[Result", 1);
    let (lines, status) = json_of_text(&doubled);
    assert_eq!(status, 1);
    let codes: Vec<&Value> = diagnostics(&lines).iter().map(|d| &d["code"]).collect();
    assert_eq!(codes, ["duplicate-tag", "result-mismatch"]);
    let game = lines.iter().find(|v| v["kind"] == "game").unwrap();
    assert_ne!(game["outcome"], Value::Null);
}

#[test]
fn an_indented_tag_line_does_not_split_its_game() {
    let (lines, status) = json_of_text(
        "[Game \"BaoLaKimasai\"]\n [Event \"x\"]\n\t[Result \"*\"]\n\n1. b2x c11x *\n",
    );
    assert_eq!(status, 0, "{lines:?}");
    assert_eq!(lines.last().unwrap()["games"], 1);
}

#[test]
fn an_override_no_game_has_is_a_usage_error() {
    // An option no game has is the command line's error, not every game's.
    for (rules, says) in [("foo=1", "no game has the option"), ("heads=7", "heads")] {
        let out = sow()
            .args(["validate", "--rules", rules, "records/examples/tsoro.pmn"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{rules}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("--rules {rules}")), "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
        assert!(out.stdout.is_empty());
    }
    // An option some games have is checked on each record, and says where it came from.
    let (lines, status) = json_lines(&["--rules", "repeat=5", "records/examples/tsoro.pmn"]);
    assert_eq!(status, 1);
    let d = diagnostics(&lines);
    assert!(d.iter().all(|d| d["message"]
        .as_str()
        .unwrap()
        .starts_with("with --rules repeat=5: ")));
}

#[test]
fn commands_before_the_first_ply_are_not_ignored() {
    // A checkpoint before ply 1 is checked against the start.
    let (lines, status) =
        json_of_text("[Game \"BaoLaKimasai\"]\n\n{[%stones 99 99]} 1. b2x c11x *\n");
    assert_eq!(status, 1);
    let d = diagnostics(&lines);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "stones-mismatch");
    assert_eq!(d[0]["ply"], Value::Null);
    assert_eq!(
        (&d[0]["line"], &d[0]["column"]),
        (&Value::from(3), &Value::from(2))
    );
    // The true counts pass; a [%foul] there excuses no ply and says so.
    let (lines, status) =
        json_of_text("[Game \"BaoLaKimasai\"]\n\n{[%stones 23 23] [%foul]} 1. b2x c11x *\n");
    assert_eq!(status, 0, "{lines:?}");
    let codes: Vec<&Value> = diagnostics(&lines).iter().map(|d| &d["code"]).collect();
    assert_eq!(codes, ["foul"]);
}

#[test]
fn show_says_where_a_game_breaks() {
    // The position shown of a broken game says so, and errors name their place in the file.
    let out = sow()
        .args(["show", "records/flawed/illegal-move.pmn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("illegal-move.pmn:6:28: game 1 stops at an error (illegal-move"),
        "{stderr}"
    );
    assert!(stderr.contains("after ply 4"), "{stderr}");
    let out = sow()
        .args(["show", "--ply", "6", "records/flawed/illegal-move.pmn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("illegal-move.pmn:6:28: "));
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pmn");
    fs::write(&empty, "").unwrap();
    let out = sow().arg("show").arg(&empty).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no game"));
}

#[test]
fn control_characters_of_a_record_do_not_reach_the_terminal() {
    // Escape sequences of a record are not printed raw (they can clear the screen or
    // set the window title), and the caret stays under its place.
    let text = "[Game \"Bao\u{1b}[31m\"]\n\n1. b2x {\u{1b}[2J\u{9b}1m} c11x *\n";
    let out = sow()
        .args(["validate", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let bad: Vec<char> = stdout
        .chars()
        .filter(|&c| c.is_control() && c != '\n')
        .collect();
    assert!(bad.is_empty(), "{bad:?} in {stdout}");
    assert!(
        stdout.contains("unknown game \"Bao\\u{1b}[31m\""),
        "{stdout}"
    );
    assert!(stdout.contains("1 | [Game \"Bao?[31m\"]"), "{stdout}");
    // The caret stays under the value, as the column says.
    assert!(stdout.contains("stdin>:1:8"), "{stdout}");
    assert!(stdout.contains("\n  |        ^^^^^^^^"), "{stdout}");
}

#[test]
fn a_position_without_set_up_is_a_warning() {
    // A Position tag without SetUp "1" is ignored, and said so.
    let (lines, status) =
        json_of_text("[Game \"BaoLaKimasai\"]\n[Position \"nonsense\"]\n\n1. b2x c11x *\n");
    assert_eq!(status, 0);
    let d = diagnostics(&lines);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        (&d[0]["code"], &d[0]["severity"]),
        (&Value::from("setup"), &Value::from("warning"))
    );
    assert_eq!(d[0]["line"], 2);
}

#[test]
fn a_missing_path_is_reported_in_the_order_of_the_paths() {
    // The error for a missing path comes after the reports of the paths before it.
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pmn");
    fs::write(&empty, "").unwrap();
    let (lines, status) = json_lines(&[
        empty.to_str().unwrap(),
        "no/such/file.pmn",
        "records/flawed/illegal-move.pmn",
    ]);
    assert_eq!(status, 2);
    let files: Vec<&str> = diagnostics(&lines)
        .iter()
        .map(|d| d["file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files[0].ends_with("empty.pmn"), "{files:?}");
    assert_eq!(files[1], "no/such/file.pmn");
    assert_eq!(files[2], "records/flawed/illegal-move.pmn");
}

#[test]
fn rules_inference_keeps_an_override_fixed() {
    // With --rules bonus=1 the override stays fixed: it does not replace the value
    // under test while the label names that value.
    let out = sow()
        .args([
            "validate",
            "--infer-rules",
            "--rules",
            "bonus=1",
            "records/flawed/bonus.pmn",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let line = text.lines().find(|l| l.contains("consistent")).unwrap();
    assert!(
        line.ends_with("consistent with: heads=1 bonus=1 head-bonus=yes"),
        "{line}"
    );
    let out = sow()
        .args([
            "validate",
            "--infer-rules",
            "records/flawed/unknown-option.pmn",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("no combination of options could be tried"),
        "{text}"
    );
}

#[test]
fn an_arrival_count_that_never_came_is_an_end_mismatch() {
    // `a3-a6#50` is refused: the sowing reaches a6 occupied only twice (PMN.md:
    // "`-END#k`: at the k-th such arrival at that head").
    let text = shipped("records/examples/tsoro.pmn");
    for (written, valid) in [("a3-a6#2", true), ("a3-a6#3", false), ("a3-a6#50", false)] {
        let (lines, _) = json_of_text(&text.replace("a3-a6#2", written));
        let d = diagnostics(&lines);
        let errors: Vec<_> = d.iter().filter(|d| d["severity"] == "error").collect();
        assert_eq!(errors.is_empty(), valid, "{written}: {errors:?}");
        if !valid {
            assert_eq!(errors.len(), 1, "{errors:?}");
            assert_eq!(errors[0]["code"], "end-mismatch");
            assert_eq!(errors[0]["ply"], 1);
        }
    }
}

#[test]
fn suggestions_go_with_the_earliest_error() {
    // With an illegal ply 5 and an unreadable ply 6, the suggestions go with ply 5,
    // and first_error_ply is 5, though the reader's problem is listed first.
    let out = sow()
        .args(["validate", "--suggest", "--format", "json", "-"])
        .write_stdin("[Game \"BaoLaKimasai\"]\n\n1. b2x c11x 2. b3x c10x 3. a3 z4 4. b4 *\n")
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let illegal = lines.iter().find(|v| v["code"] == "illegal-move").unwrap();
    assert_eq!(illegal["ply"], 5);
    assert!(!illegal["suggestions"].as_array().unwrap().is_empty());
    let game = lines.iter().find(|v| v["kind"] == "game").unwrap();
    assert_eq!(game["first_error_ply"], 5);
}

#[test]
fn a_report_on_a_long_line_shows_the_part_around_its_ply() {
    // A report shows only the part of its line around its span, so a game on one line
    // with a problem at every move (here a wrong move number) is not copied whole into
    // each report.
    let moves: Vec<String> = (0..2_000).map(|_| "1. a2 d6".to_string()).collect();
    let text = format!("[Game \"Tsoro\"]\n\n{} *\n", moves.join(" "));
    let out = sow()
        .args(["validate", "-"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = String::from_utf8(out.stdout).unwrap();
    // Move 2's number, the second `1.` of the line, is reported whole with its line.
    let second = "warning[move-number]: move number `1.` does not fit: the ply after it is South's ply of move 2, numbered `2.`\n  --> <stdin>:3:10\n  |\n3 | 1. a2 d6 1. a2 d6 ";
    assert!(report.contains(second), "{}", &report[..2_000]);
    // The last one, 16,000 characters in, with 60 characters of the line before it.
    let at = text.rfind("1.").unwrap();
    let line_start = text.rfind("\n\n").unwrap() + 2;
    let last = format!(
        "  --> <stdin>:3:{}\n  |\n3 | ...{}1. a2 d6 *\n  | {}^^ game 1, ply 3999\n",
        1 + at - line_start,
        &text[at - 60..at],
        " ".repeat(63)
    );
    assert!(
        report.contains(&last),
        "{last}\n{}",
        &report[report.len() - 2_000..]
    );
    // Every report is a few lines of at most some 200 characters.
    let longest = report.lines().map(str::len).max().unwrap();
    assert!(longest < 300, "a line of {longest} bytes");
}

#[test]
fn a_problem_at_the_first_ply_is_ply_1() {
    // A first ply that cannot be read, or a wrong move number before it, is ply 1 and
    // gets suggestions, as the same at ply 2 does.
    for (text, code, ply) in [
        ("1. e4 d4-d2 *", "syntax", 1),
        ("1... a5-a7 d4-d2 *", "move-number", 1),
        // A tag line the reader could not read is no ply.
        ("[Bad tag here\n\n1. a5-a7 *", "syntax", 0),
    ] {
        let text = format!("[Game \"Tsoro\"]\n[Board \"4x8\"]\n[Result \"*\"]\n\n{text}\n");
        let lines = json_lines_of_stdin(&text);
        let d = diagnostics(&lines);
        assert_eq!(d[0]["code"], code, "{lines:?}");
        let ply = if ply == 0 { Value::Null } else { ply.into() };
        assert_eq!(d[0]["ply"], ply, "{lines:?}");
    }
}

#[test]
fn too_many_threads_are_lowered_and_said_so() {
    // A thread count far above the cores is lowered, and said so.
    let out = sow()
        .args(["validate", "-j", "100000", "records/examples/tsoro.pmn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("-j 100000 is more than"), "{stderr}");
}

#[test]
fn a_game_over_before_its_last_ply_has_its_outcome() {
    // The game line's outcome is the result the after-end error says, not null as for
    // a game not over.
    let (lines, status) = json_lines(&["records/flawed/after-end.pmn"]);
    assert_eq!(status, 1);
    let game = lines.iter().find(|v| v["kind"] == "game").unwrap();
    assert_eq!(game["outcome"], "0-1", "{game}");
    assert_eq!(game["first_error_ply"], 13, "{game}");
}

#[test]
fn a_games_reports_follow_its_text() {
    // The reader's and the replay's problems are listed in the order of the text: a
    // problem of ply 5 after the illegal ply 2 that stopped the replay. The result's
    // problems come last (PMN.md), with the last ply written.
    let text =
        "[Game \"Tsoro\"]\n[Board \"4x8\"]\n[Result \"1-0\"]\n\n1. a5-a7 b8 2. a1 d1 4. a2 *\n";
    let lines = json_lines_of_stdin(text);
    let found: Vec<String> = (diagnostics(&lines).iter())
        .map(|d| format!("{} {}", d["code"].as_str().unwrap(), d["ply"]))
        .collect();
    assert_eq!(
        found,
        ["illegal-move 2", "move-number 5", "result-mismatch 5"]
    );
    let game = lines.iter().find(|v| v["kind"] == "game").unwrap();
    assert_eq!(game["first_error_ply"], 2, "{game}");
}

#[test]
fn show_says_how_many_games_a_file_has() {
    // The error says how many games the file has.
    let out = sow()
        .args(["show", "records/examples/tsoro.pmn", "--game", "70"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("records/examples/tsoro.pmn has 6 games, not 70"),
        "{stderr}"
    );
}
