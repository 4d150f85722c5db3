//! The committed JSON Schema matches the Rust types (src/pmn/ast.rs).

mod expect;

#[test]
fn committed_schema_matches_the_types() {
    expect::check_file("schemas/record.schema.json", &sow::pmn::json::schema_json());
}
