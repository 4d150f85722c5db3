//! Output files: never written through a link planted beside them, never over an input
//! (`--force` or not), a folder said to be one, the output named when it fails, and
//! `sow man` an output as any other.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const GAME: &str = "[Game \"Tsoro\"]\n\n1. a3 d19 *\n";

fn sow() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sow"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every file under `dir` (links as links) with what it holds or points to.
fn snapshot(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    for entry in walk(dir) {
        let meta = fs::symlink_metadata(&entry).unwrap();
        let what = if meta.file_type().is_symlink() {
            format!("-> {}", fs::read_link(&entry).unwrap().display())
        } else if meta.is_dir() {
            "folder".to_string()
        } else {
            String::from_utf8_lossy(&fs::read(&entry).unwrap()).into_owned()
        };
        files.push((entry, what));
    }
    files.sort();
    files
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if fs::symlink_metadata(&path).unwrap().is_dir() {
            all.extend(walk(&path));
        }
        all.push(path);
    }
    all
}

/// The names beside an output `name` that a writer might use for its temporary file:
/// those made of the process id (`$$`, the shell's, which execs the writer), and
/// common others.
fn planted_names(name: &str) -> Vec<String> {
    vec![
        format!(".{name}.sow-$$.tmp"),
        format!(".{name}.sow-$$.tmp.tmp"),
        format!(".{name}.tmp"),
        format!("{name}.tmp"),
        format!("{name}~"),
        format!(".{name}.swp"),
        format!(".{name}.sow-tmp"),
    ]
}

#[test]
fn a_link_planted_at_any_temporary_name_changes_no_file_outside_the_outputs_folder() {
    let root = tempfile::tempdir().unwrap();
    let (shared, outside, spool) = (
        root.path().join("shared"),
        root.path().join("outside"),
        root.path().join("spool"),
    );
    for dir in [&shared, &outside, &spool] {
        fs::create_dir(dir).unwrap();
    }
    let input = root.path().join("games.pmn");
    fs::write(&input, GAME).unwrap();
    let victim = outside.join("victim");
    fs::write(&victim, "precious").unwrap();
    let input = input.to_str().unwrap();
    // Each command, its output's name in the shared folder, and its arguments before
    // `-o OUTPUT`.
    let runs: Vec<(&str, Vec<&str>)> = vec![
        ("stats.csv", vec!["stats", input]),
        ("plot.svg", vec!["plot", input]),
        ("convert.json", vec!["convert", "--to", "json", input]),
        ("view.html", vec!["view", input]),
        ("show.txt", vec!["show", input]),
        ("generate.pmn", vec!["generate", "--game", "Nsolo"]),
        ("repair.pmn", vec!["repair", input]),
        ("man", vec!["man"]),
    ];
    for (name, args) in runs {
        let out_name = |page: &str| match name {
            "man" => shared.join("man").join(page),
            _ => shared.join(name),
        };
        // Links at every name, to the victim and to names not yet taken outside;
        // for the man pages, in the folder they are written to.
        let mut script = String::from("set -e\n");
        let pages = if name == "man" {
            fs::create_dir(shared.join("man")).unwrap();
            vec!["sow.1", "sow-stats.1", "sow-man.1"]
        } else {
            vec![name]
        };
        for page in &pages {
            let dir = out_name(page).parent().unwrap().to_path_buf();
            for (i, planted) in planted_names(page).iter().enumerate() {
                let target = match i {
                    0 => victim.clone(),
                    _ => outside.join(format!("{page}-{i}")),
                };
                script.push_str(&format!(
                    "ln -s '{}' \"{}/{planted}\"\n",
                    target.display(),
                    dir.display()
                ));
            }
        }
        // The spool of standard output, and any other temporary file, in a folder
        // seeded with links too.
        for n in 0..4 {
            script.push_str(&format!(
                "ln -s '{}' \"{}/.sow-$$-{n}.spool\"\n",
                victim.display(),
                spool.display()
            ));
        }
        script.push_str("exec \"$0\" \"$@\"\n");
        let output = match name {
            "man" => shared.join("man"),
            _ => shared.join(name),
        };
        let before = (snapshot(&outside), snapshot(&shared));
        let out = Command::new("sh")
            .arg("-c")
            .arg(&script)
            .arg(env!("CARGO_BIN_EXE_sow"))
            .args(&args)
            .arg("-o")
            .arg(&output)
            .env("TMPDIR", &spool)
            .output()
            .unwrap();
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert_eq!(snapshot(&outside), before.0, "{name}");
        // In the shared folder, the outputs are new, and nothing else changed: the
        // links are as planted, and no temporary file is left.
        let mut outputs = Vec::new();
        for (path, what) in snapshot(&shared) {
            match before.1.iter().find(|(p, _)| *p == path) {
                Some((_, was)) => assert_eq!(what, *was, "{name}: {path:?}"),
                None if what.starts_with("-> ") => {
                    assert!(
                        what.starts_with(&format!("-> {}", outside.display())),
                        "{what}"
                    )
                }
                None if what == "folder" => {}
                None => outputs.push(path),
            }
        }
        let mut expected: Vec<PathBuf> = pages.iter().map(|page| out_name(page)).collect();
        if name == "man" {
            expected = walk(&output)
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "1"))
                .filter(|p| fs::symlink_metadata(p).unwrap().is_file())
                .collect();
            assert_eq!(expected.len(), 12);
        }
        outputs.sort();
        expected.sort();
        assert_eq!(outputs, expected, "{name}");
        for path in &outputs {
            let written = fs::symlink_metadata(path).unwrap();
            assert!(written.is_file() && written.len() > 0, "{path:?}");
        }
    }
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(fs::read_dir(&outside).unwrap().count(), 1);
}

/// Runs `sow ARGS -o OUTPUT [--force]` where `OUTPUT` is one of the input's names, and
/// checks that it is refused and the input kept.
fn refused(args: &[&str], input: &Path, output: &Path, force: bool) {
    let mut cmd = sow();
    cmd.args(args).arg("-o").arg(output);
    if force {
        cmd.arg("--force");
    }
    let out = cmd.output().unwrap();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{args:?} -o {output:?}: {said}");
    assert!(
        said.contains("the output is the input") && said.contains("even with --force"),
        "{args:?} -o {output:?}: {said}"
    );
    assert_eq!(fs::read_to_string(input).unwrap(), GAME, "{args:?}");
}

#[test]
fn an_input_is_never_the_output_even_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.pmn");
    fs::write(&input, GAME).unwrap();
    let link = dir.path().join("link.pmn");
    std::os::unix::fs::symlink("games.pmn", &link).unwrap();
    let hard = dir.path().join("hard.pmn");
    fs::hard_link(&input, &hard).unwrap();
    let name = input.to_str().unwrap();
    let commands: [&[&str]; 6] = [
        &["stats", name],
        &["stats", "--per", "ply", name],
        &["plot", name],
        &["convert", "--to", "pmn", name],
        &["show", name],
        &["view", name],
    ];
    // Given by the same path, a `./` path, a link and a hard link, as a file among the
    // inputs and as the folder holding it.
    for args in commands {
        for force in [false, true] {
            refused(args, &input, &input, force);
            refused(args, &input, &link, force);
            refused(args, &input, &hard, force);
        }
        let mut cmd = sow();
        cmd.current_dir(dir.path());
        let relative: Vec<&str> = args
            .iter()
            .map(|a| if *a == name { "games.pmn" } else { a })
            .collect();
        let out = cmd
            .args(&relative)
            .args(["-o", "./games.pmn", "--force"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("the output is the input games.pmn"));
    }
    for args in [&["stats", "."][..], &["convert", "--to", "pmn", "."]] {
        let out = sow()
            .current_dir(dir.path())
            .args(args)
            .args(["-o", "./link.pmn", "--force"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("the output is the input"),
            "{}",
            stderr(&out)
        );
    }
    // Standard input read from the file.
    let out = sow()
        .args(["stats", "-", "-o"])
        .arg(&link)
        .arg("--force")
        .stdin(fs::File::open(&input).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the output is standard input's file"),
        "{}",
        stderr(&out)
    );
    assert_eq!(fs::read_to_string(&input).unwrap(), GAME);
    // Another file is replaced.
    let other = dir.path().join("other.csv");
    fs::write(&other, "old").unwrap();
    let out = sow()
        .args(["stats", name, "-o"])
        .arg(&other)
        .arg("--force")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(fs::read_to_string(&other).unwrap().starts_with("file,game"));
}

#[test]
fn a_folder_as_output_is_said_to_be_one() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.pmn");
    fs::write(&input, GAME).unwrap();
    let folder = dir.path().join("out");
    fs::create_dir(&folder).unwrap();
    let name = input.to_str().unwrap();
    for args in [
        &["stats", name][..],
        &["convert", "--to", "json", name],
        &["plot", name],
        &["show", name],
        &["generate", "--game", "Tsoro"],
    ] {
        for force in [false, true] {
            let mut cmd = sow();
            cmd.args(args).arg("-o").arg(&folder);
            if force {
                cmd.arg("--force");
            }
            let out = cmd.output().unwrap();
            let said = stderr(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
            assert!(said.contains("a folder, not a file"), "{args:?}: {said}");
            assert!(!said.contains("use --force"), "{args:?}: {said}");
        }
    }
    assert_eq!(fs::read_dir(&folder).unwrap().count(), 0);
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_device_is_named_in_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.pmn");
    fs::write(&input, GAME.repeat(2000)).unwrap();
    let name = input.to_str().unwrap();
    for args in [
        &["stats", "--per", "ply", name][..],
        &["convert", "--to", "json", name],
        &["convert", "--to", "long", name],
        &["generate", "--game", "Nsolo", "--games", "50"],
        &["show", name],
    ] {
        let out = sow().args(args).args(["-o", "/dev/full"]).output().unwrap();
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.starts_with("sow: /dev/full: No space left on device"),
            "{args:?}: {said}"
        );
    }
}

#[test]
fn man_pages_are_outputs_as_any_other() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man");
    let man = |force: bool| {
        let mut cmd = sow();
        cmd.args(["man", "-o"]).arg(&pages);
        if force {
            cmd.arg("--force");
        }
        cmd.output().unwrap()
    };
    assert!(man(false).status.success());
    let page = pages.join("sow-validate.1");
    let text = fs::read_to_string(&page).unwrap();
    // The synopsis names the command as typed.
    let synopsis = text.split(".SH SYNOPSIS\n").nth(1).unwrap();
    assert!(synopsis.starts_with("\\fBsow validate\\fR"), "{synopsis}");
    let top = fs::read_to_string(pages.join("sow.1")).unwrap();
    assert!(!top.contains("sow\\-help"), "{top}");
    // Not over existing pages without --force, and no page is written then.
    fs::write(&page, "mine").unwrap();
    fs::remove_file(pages.join("sow-stats.1")).unwrap();
    let out = man(false);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("use --force"), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(&page).unwrap(), "mine");
    assert!(!pages.join("sow-stats.1").exists());
    assert!(man(true).status.success());
    assert_eq!(fs::read_to_string(&page).unwrap(), text);
    // No temporary file left beside them.
    assert_eq!(fs::read_dir(&pages).unwrap().count(), 12);
    // `-o -`: every page on standard output, and no folder named `-`.
    let out = sow()
        .current_dir(dir.path())
        .args(["man", "-o", "-"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("\n.TH ").count(), 12);
    assert!(text.contains(".TH sow-validate 1"), "{text}");
    assert!(!dir.path().join("-").exists());
}

#[test]
fn control_characters_from_records_and_file_names_reach_no_terminal() {
    let dir = tempfile::tempdir().unwrap();
    // An escape sequence in the file's name, a tag value, a ply and a comment.
    let file = dir.path().join("x\u{1b}[1mbold\r.pmn");
    fs::write(
        &file,
        "[Game \"Tsoro\"]\n[Event \"\u{1b}[31mred\"]\n\n1. a3 {\u{1b}]0;title\u{7}} d\u{1b}[2J19 *\n",
    )
    .unwrap();
    let missing = dir.path().join("gone\u{1b}[5m.pmn");
    let name = file.to_str().unwrap();
    let gone = missing.to_str().unwrap();
    let svg = dir.path().join("p.svg");
    let svg = svg.to_str().unwrap();
    // Each command, and whether its standard output is for people.
    let runs: [(&[&str], bool); 9] = [
        (&["show", name], true),
        (&["show", "--ply", "5", name], true),
        (&["convert", "--to", "pmn", name], false),
        (&["convert", "--to", "long", name], true),
        (&["convert", "--to", "pmn", name, gone], false),
        (&["stats", name, gone], false),
        (&["plot", name, gone, "-o", svg], false),
        (&["validate", name, gone], true),
        (&["show", gone], true),
    ];
    for (args, for_people) in runs {
        let out = sow().args(args).output().unwrap();
        let said = stderr(&out);
        assert!(
            !said.contains('\u{1b}') && !said.contains('\r'),
            "{args:?}: {said:?}"
        );
        if for_people {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(!text.contains('\u{1b}'), "{args:?}: {text:?}");
            // Something was said of the file, on one or the other.
            assert!(said.contains("bold") || text.contains("bold") || said.contains("gone"));
        } else {
            assert!(
                said.contains("bold") || said.contains("gone"),
                "{args:?}: {said}"
            );
        }
    }
    // The name and the ply are said, their controls shown.
    let out = sow().args(["show", name]).output().unwrap();
    let said = stderr(&out);
    assert!(said.contains("x\\u{1b}[1mbold\\r.pmn:4:"), "{said}");
    assert!(said.contains("`d\\u{1b}[2J19`"), "{said}");
    // The game has errors: kept, to be written at all.
    let out = sow()
        .args(["convert", "--to", "long", "--keep-broken", name])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("x\\u{1b}[1mbold\\r.pmn, game 1"), "{text}");
    // PMN is data: the record's text is kept as it is.
    let out = sow()
        .args(["convert", "--to", "pmn", "--keep-broken", name])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("[Event \"\u{1b}[31mred\"]"), "{text}");
}

#[test]
fn a_file_too_large_for_the_disk_is_named_and_never_left_part_written() {
    // A limit on the size of a file (`ulimit -f`, its signal ignored) stands for a full
    // disk: a write past it fails, as it would on a full one.
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole");
    assert!(sow()
        .args(["man", "-o"])
        .arg(&whole)
        .status()
        .unwrap()
        .success());
    let input = dir.path().join("games.pmn");
    fs::write(&input, GAME.repeat(200)).unwrap();
    let limited = |args: &[&str]| {
        Command::new("sh")
            .arg("-c")
            .arg("ulimit -f 2; trap '' XFSZ; exec \"$0\" \"$@\"")
            .arg(env!("CARGO_BIN_EXE_sow"))
            .args(args)
            .output()
            .unwrap()
    };
    let pages = dir.path().join("man");
    let out = limited(&["man", "-o", pages.to_str().unwrap()]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.starts_with(&format!("sow: {}/sow", pages.display())) && said.contains(".1: "),
        "{said}"
    );
    assert!(!said.contains(".sow-"), "{said}");
    // The pages written are whole, and nothing else is there.
    for entry in fs::read_dir(&pages).unwrap() {
        let page = entry.unwrap().path();
        let name = page.file_name().unwrap();
        assert_eq!(
            fs::read(&page).unwrap(),
            fs::read(whole.join(name)).unwrap(),
            "{page:?}"
        );
    }
    let csv = dir.path().join("out.csv");
    let out = limited(&[
        "stats",
        "--per",
        "ply",
        input.to_str().unwrap(),
        "-o",
        csv.to_str().unwrap(),
    ]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.starts_with(&format!("sow: {}: ", csv.display())),
        "{said}"
    );
    assert!(!csv.exists());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 3);
}

#[test]
fn stats_and_convert_write_nothing_to_standard_output_when_an_input_fails() {
    // The input that fails is standard input read from a folder: it opens, and fails
    // only when read, after the good file's games have been turned into output.
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("games.pmn");
    fs::write(&good, GAME.repeat(50)).unwrap();
    let good = good.to_str().unwrap();
    let runs: [&[&str]; 4] = [
        &["stats", "--per", "game"],
        &["stats", "--per", "ply"],
        &["convert", "--to", "pmn"],
        &["convert", "--to", "csv"],
    ];
    for args in runs {
        let failing = sow()
            .args(args)
            .args([good, "-"])
            .stdin(fs::File::open(dir.path()).unwrap())
            .output()
            .unwrap();
        assert_eq!(
            failing.status.code(),
            Some(2),
            "{args:?}: {}",
            stderr(&failing)
        );
        assert!(
            failing.stdout.is_empty(),
            "{args:?}: something on standard output"
        );
        let whole = sow().args(args).arg(good).output().unwrap();
        assert!(
            whole.status.success() && !whole.stdout.is_empty(),
            "{args:?}"
        );
    }
}
