//! The committed JSON Schema matches the Rust types.

const PATH: &str = "schemas/record.schema.json";

#[test]
fn committed_schema_matches_the_types() {
    let generated = sow::pmn::json::schema_json();
    if std::env::var_os("UPDATE_SCHEMAS").is_some() {
        std::fs::create_dir_all("schemas").unwrap();
        std::fs::write(PATH, &generated).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(PATH).unwrap_or_default();
    assert!(
        committed == generated,
        "{PATH} is out of date with the types in src/pmn/ast.rs; \
         regenerate it with `UPDATE_SCHEMAS=1 cargo test --test pmn_schema` and commit it"
    );
}
