//! The committed advise schema must be the one the types produce (the other results are
//! checked in `schema.rs`). Regenerate with
//! `DBIO_BLESS=1 cargo test -p dbio-model --test advise_schema`.

use std::path::PathBuf;

#[test]
fn committed_advise_schema_matches_the_types() {
    let generated = dbio_model::json_schema::<dbio_model::advise::AdviseResult>();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../schema/advise-result.v1.json");
    if std::env::var_os("DBIO_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).expect("the schema file is committed");
    assert!(
        committed == generated,
        "schema/advise-result.v1.json differs from the result types; if the change is intended, run DBIO_BLESS=1 cargo test -p dbio-model --test advise_schema and bump the schema version when it breaks readers"
    );
}
