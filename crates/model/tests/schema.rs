//! The committed JSON schema must be the one the types produce: a change to the result
//! types without a schema update (and version decision) fails here.
//! Regenerate with `DBIO_BLESS=1 cargo test -p dbio-model --test schema`.

use std::path::PathBuf;

#[test]
fn committed_run_schema_matches_the_types() {
    check(
        "run-result.v1.json",
        dbio_model::json_schema::<dbio_model::RunResult>(),
    );
}

#[test]
fn committed_sweep_schema_matches_the_types() {
    check(
        "sweep-result.v1.json",
        dbio_model::json_schema::<dbio_model::sweep::SweepResult>(),
    );
}

#[test]
fn committed_suite_schema_matches_the_types() {
    check(
        "suite-result.v1.json",
        dbio_model::json_schema::<dbio_model::suite::SuiteResult>(),
    );
}

#[test]
fn committed_path_schema_matches_the_types() {
    check(
        "path-result.v1.json",
        dbio_model::json_schema::<dbio_model::path::PathResult>(),
    );
}

fn check(file: &str, generated: String) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../schema")
        .join(file);
    if std::env::var_os("DBIO_BLESS").is_some() {
        // Blessing rewrites the expectation from the output: in CI it would make any
        // output pass.
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "DBIO_BLESS is refused under CI=true: it would rewrite the expected files from the output under test"
        );
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).expect("the schema file is committed");
    assert!(
        committed == generated,
        "schema/{file} differs from the result types; if the change is intended, run DBIO_BLESS=1 cargo test -p dbio-model --test schema and bump the schema version when it breaks readers"
    );
}

#[test]
fn committed_reduce_schema_matches_the_types() {
    check(
        "reduce-result.v1.json",
        dbio_model::json_schema::<dbio_model::reduce::ReduceResult>(),
    );
}

#[test]
fn committed_capture_summary_schema_matches_the_types() {
    check(
        "capture-summary.v1.json",
        dbio_model::json_schema::<dbio_model::capture::CaptureSummary>(),
    );
}
