//! `sow stats --datapackage`: a Frictionless Data Package beside the CSV whose resource
//! is the CSV, with one field per column, in order, each value of the type it says.

use std::path::Path;

use assert_cmd::Command;

fn sow() -> Command {
    Command::cargo_bin("sow").unwrap()
}

#[test]
fn the_package_describes_each_column_of_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let records = Path::new(env!("CARGO_MANIFEST_DIR")).join("records/examples");
    for per in ["game", "ply"] {
        let csv = dir.path().join(format!("Per {per}.csv"));
        sow()
            .args(["stats", "--datapackage", "--force", "--per", per])
            .arg(&records)
            .arg("-o")
            .arg(&csv)
            .assert()
            .success();
        let package: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.path().join("datapackage.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(package["profile"], "tabular-data-package");
        let resource = &package["resources"][0];
        assert_eq!(resource["path"], format!("Per {per}.csv"));
        assert_eq!(resource["name"], format!("per-{per}"));
        let fields = resource["schema"]["fields"].as_array().unwrap();
        let mut table = csv::Reader::from_path(&csv).unwrap();
        let header: Vec<String> = table.headers().unwrap().iter().map(String::from).collect();
        let names: Vec<&str> = fields.iter().map(|f| f["name"].as_str().unwrap()).collect();
        assert_eq!(names, header, "{per}: one field per column, in order");
        let mut rows = 0;
        for row in table.records() {
            let row = row.unwrap();
            rows += 1;
            for (field, value) in fields.iter().zip(row.iter()) {
                if value.is_empty() {
                    continue;
                }
                let ok = match field["type"].as_str().unwrap() {
                    "integer" => value.parse::<i64>().is_ok(),
                    "number" => value.parse::<f64>().is_ok(),
                    "boolean" => ["true", "false"].contains(&value),
                    _ => true,
                };
                assert!(
                    ok,
                    "{per}: {} = {value:?} is not a {}",
                    field["name"], field["type"]
                );
            }
        }
        assert!(rows > 0);
    }
}

#[test]
fn the_package_needs_an_output_file_and_is_not_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let records = Path::new(env!("CARGO_MANIFEST_DIR")).join("records/examples/tsoro.pmn");
    sow()
        .args(["stats", "--datapackage"])
        .arg(&records)
        .assert()
        .code(2);
    std::fs::write(dir.path().join("datapackage.json"), "{}").unwrap();
    sow()
        .args(["stats", "--datapackage"])
        .arg(&records)
        .arg("-o")
        .arg(dir.path().join("t.csv"))
        .assert()
        .code(2);
    assert!(!dir.path().join("t.csv").exists(), "nothing written");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("datapackage.json")).unwrap(),
        "{}"
    );
}
