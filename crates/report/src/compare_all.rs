//! `dbio compare A B [C…]`: each run against the first, as one text.

use dbio_model::RunResult;

/// Why runs cannot be compared; Display names them and says what to try.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// The same run given twice.
    #[error("{0} and {1} are the same run; give two different runs")]
    SameRun(String, String),
}

/// Each of `rest` compared with `first` (runs with their names), one block each;
/// `devices`: the device counts behind the first run and the others (`--devices`).
pub fn compare_all(
    first: &(String, RunResult),
    rest: &[(String, RunResult)],
    devices: Option<(f64, f64)>,
) -> Result<String, CompareError> {
    let mut out = String::new();
    for (name, r) in rest {
        if r == &first.1 {
            return Err(CompareError::SameRun(first.0.clone(), name.clone()));
        }
        out += &crate::compare::compare(&first.1, r, (&first.0, name), devices);
        out.push('\n');
    }
    Ok(out)
}
