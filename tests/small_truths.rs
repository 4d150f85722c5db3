//! Command-line details: game names in any case, singular counts, `--deny-warnings`.

use assert_cmd::Command;

fn sow() -> Command {
    let mut cmd = Command::cargo_bin("sow").unwrap();
    cmd.current_dir(env!("CARGO_MANIFEST_DIR"));
    cmd
}

#[test]
fn generate_accepts_a_game_name_in_any_case_and_writes_the_tag_name() {
    let mut outputs = Vec::new();
    for name in ["Tsoro", "tsoro", "TSORO", "baolakimasai"] {
        let out = sow()
            .args(["generate", "--game", name, "--games", "1", "--seed", "7"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        outputs.push(String::from_utf8(out.stdout).unwrap());
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
    assert!(
        outputs[1].starts_with("[Game \"Tsoro\"]\n"),
        "{}",
        outputs[1]
    );
    assert!(
        outputs[1].contains("sow generate --game Tsoro "),
        "{}",
        outputs[1]
    );
    assert!(
        outputs[3].starts_with("[Game \"BaoLaKimasai\"]\n"),
        "{}",
        outputs[3]
    );
}

#[test]
fn the_game_filter_takes_any_case() {
    let out = sow()
        .args(["validate", "records/examples", "--game", "nSOLO"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, "4 games, 4 valid, 0 with errors, 0 warnings\n");
}

#[test]
fn the_summary_counts_one_game_and_one_warning_in_the_singular() {
    let out = sow()
        .args(["validate", "records/sources"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with("\n1 game, 1 valid, 0 with errors, 1 warning\n"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn deny_warnings_makes_a_warning_fail_the_run() {
    let out = sow()
        .args(["validate", "--deny-warnings", "records/sources"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // Without warnings it passes, and an error still fails.
    let clean = sow()
        .args(["validate", "--deny-warnings", "records/examples/nsolo.pmn"])
        .output()
        .unwrap();
    assert_eq!(clean.status.code(), Some(0));
    let error = sow()
        .args(["validate", "--deny-warnings", "records/flawed/bonus.pmn"])
        .output()
        .unwrap();
    assert_eq!(error.status.code(), Some(1));
}

#[test]
fn a_game_of_one_ply_says_1_ply() {
    let out = sow()
        .args([
            "show",
            "records/examples/tsoro.pmn",
            "--game",
            "6",
            "--ply",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("the game has 1 ply"), "{err}");
}

#[test]
fn the_svg_diagram_says_1_lap() {
    let out = sow()
        .args([
            "show",
            "records/examples/tsoro.pmn",
            "--game",
            "1",
            "--ply",
            "1",
        ])
        .args(["--format", "svg"])
        .output()
        .unwrap();
    let svg = String::from_utf8(out.stdout).unwrap();
    // The words under the board, wrapped to its width.
    let said: Vec<&str> = (svg.lines())
        .filter(|l| l.contains(r#"class="info""#))
        .filter_map(|l| l.split('>').nth(1)?.strip_suffix("</text"))
        .collect();
    let said = said.join(" ");
    assert!(said.contains("a5-a7; 1 lap, ending in a7."), "{said}");
}
