//! The JSON form of a record and its JSON Schema.
//!
//! The JSON form is the serde form of [`Record`]: tags, move text (plies with their
//! parts, comments with their commands, NAGs, variations, move numbers) and result;
//! spans are left out. It must carry nothing the PMN text cannot, so that
//! JSON → PMN → JSON is the identity. `schemas/record.schema.json` is generated from
//! these types by [`schema_json`].

use super::ast::Record;

/// A record as pretty-printed JSON.
pub fn to_json(record: &Record) -> String {
    serde_json::to_string_pretty(record).expect("a record always serialises")
}

/// A record from its JSON form. Spans are zero.
pub fn from_json(json: &str) -> Result<Record, serde_json::Error> {
    serde_json::from_str(json)
}

/// The JSON Schema of the JSON form of a record.
pub fn schema() -> schemars::schema::RootSchema {
    schemars::schema_for!(Record)
}

/// The JSON Schema as committed in `schemas/record.schema.json` (pretty, ending with a
/// line break).
pub fn schema_json() -> String {
    let mut s = serde_json::to_string_pretty(&schema()).expect("a schema always serialises");
    s.push('\n');
    s
}
