//! The committed JSON schema must be the one the types produce: a change to the result
//! types without a schema update (and version decision) fails here.
//! Regenerate with `DBIO_BLESS=1 cargo test -p dbio-model --test schema`.

use std::path::PathBuf;

#[test]
fn committed_schema_matches_the_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schema/run-result.v1.json");
    let generated = dbio_model::run_result_schema();
    if std::env::var_os("DBIO_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).expect("schema/run-result.v1.json is committed");
    assert!(
        committed == generated,
        "schema/run-result.v1.json differs from the RunResult types; if the change is intended, run DBIO_BLESS=1 cargo test -p dbio-model --test schema and bump the schema version when it breaks readers"
    );
}
