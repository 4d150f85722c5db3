//! `sow show` at the end of a finished game says that the game is over, why, the result,
//! and for Kiothi the award and the final score; an unfinished position says who moves.

use assert_cmd::Command;

fn show(args: &[&str]) -> String {
    let out = Command::cargo_bin("sow")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("show")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn show_stdin(text: &str, args: &[&str]) -> String {
    let out = Command::cargo_bin("sow")
        .unwrap()
        .args(["show", "-"])
        .args(args)
        .write_stdin(text)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_finished_tsoro_game_says_who_cannot_move_and_the_result() {
    let text = show(&["records/examples/tsoro.pmn", "--game", "6"]);
    assert_eq!(
        text,
        "\
Tsoro 4x6, game 6, after ply 1 `b5-b3x`
      1   2   3   4   5   6
 d  (0) (0)  0   0   0   0 
 c   0   0   0   0   0   0 
   ------------------------
 b   0   0   1   1   0   0 
 a   2   2   2   2  (2) (2)
Game over: North, to move, has no stones and no legal move.
South wins: 1-0.
0,0,0,0,0,0/0,0,0,0,0,0/0,0,1,1,0,0/2,2,2,2,2,2 N
"
    );
}

#[test]
fn a_position_before_the_end_says_who_moves() {
    let text = show(&["records/examples/tsoro.pmn", "--game", "6", "--ply", "0"]);
    assert!(text.contains("\nSouth to move\n"), "{text}");
    assert!(!text.contains("Game over"), "{text}");
}

#[test]
fn an_nsolo_repetition_draw_says_so() {
    let text = show(&["records/examples/nsolo.pmn", "--game", "4"]);
    let tail: Vec<&str> = text.lines().skip(7).collect();
    assert_eq!(
        tail,
        [
            "Game over: a draw by repetition; this position, South to move, occurs for the 2nd time.",
            "A draw: 1/2-1/2.",
            "0,1,0,0,0,1,0,0/0,0,0,0,0,1,0,0/1,0,0,1,0,0,0,1/2,0,0,0,0,0,0,0 S",
        ]
    );
    // The position before the last ply is not the end.
    let before = show(&["records/examples/nsolo.pmn", "--game", "4", "--ply", "95"]);
    assert!(before.contains("\nNorth to move\n"), "{before}");
}

#[test]
fn a_finished_kiothi_game_gives_the_award_and_the_final_score() {
    let text = show(&["records/generated/kiothi-random.pmn", "--game", "1"]);
    assert_eq!(
        text,
        "\
Kiothi 2x10, game 1, after ply 67 `a7:1`
       1    2    3    4    5    6    7    8    9   10
 b    0    0    0    0    0    0    0    0    0    0 
   --------------------------------------------------
 a    1    1    1    0    0    0    0    1    0    0 
prisons: South 23, North 33
Game over: North, to move, has no stones and no legal move; the 4 stones left on the board go to South's prison.
Final score: South 27, North 33. North wins: 0-1.
0,0,0,0,0,0,0,0,0,0/1,1,1,0,0,0,0,1,0,0 N S:23 N:33
"
    );
}

/// Nsolo: South's only pit of two or more, a1, sows without end, and single stones may
/// not move while it holds two or more: no legal move.
#[test]
fn only_endless_sowings_is_the_reason_given() {
    let record = "[Game \"Nsolo\"]\n[SetUp \"1\"]\n\
        [Position \"1,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/1,0,1,0,1,0,1,0/15,1,0,1,0,1,0,1 S\"]\n\
        [Result \"0-1\"]\n\n0-1\n";
    let text = show_stdin(record, &[]);
    assert!(
        text.contains(
            "\nGame over: South, to move, has no legal move: every move it could make is an endless sowing.\nNorth wins: 0-1.\n"
        ),
        "{text}"
    );
}

#[test]
fn the_svg_diagram_of_a_finished_game_says_so() {
    let svg = show(&[
        "records/examples/tsoro.pmn",
        "--game",
        "6",
        "--format",
        "svg",
    ]);
    assert!(
        svg.contains("<title>Tsoro 4x6, game over, 1-0</title>"),
        "{svg}"
    );
    // The ending as `sow show` says it, wrapped to the diagram's width.
    let said: Vec<&str> = (svg.lines())
        .filter(|l| l.contains(r#"class="info game-over""#))
        .filter_map(|l| l.split('>').nth(1)?.strip_suffix("</text"))
        .collect();
    assert_eq!(
        said.join(" "),
        "Game over: North, to move, has no stones and no legal move. South wins: 1-0.",
        "{svg}"
    );
    assert!(!svg.contains("to move</text>"), "{svg}");
}
