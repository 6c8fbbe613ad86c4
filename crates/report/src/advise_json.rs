//! The advice's JSON, made only where it is needed: of 100,000 objects the whole result is
//! about 100 MB, so it is made whole only for stdout or a history that keeps it whole (a
//! `--json` file is written as it is made).

use dbio_analyze::advise::kept::{kept, KEPT};
use dbio_model::advise::AdviseResult;

/// The JSON texts of one advice: the whole, when needed, and what the history keeps.
pub struct AdviseJson {
    /// The whole result's JSON, made for stdout or for a history that keeps it whole.
    pub whole: Option<String>,
    /// With a history: the shortened JSON it keeps, or None when it keeps the whole.
    kept: Option<Option<String>>,
}

impl AdviseJson {
    /// The JSON texts of advice `r`; `to_stdout`: `--json -`; `keep`: a history keeps it.
    pub fn of(r: &AdviseResult, to_stdout: bool, keep: bool) -> AdviseJson {
        let to_json = crate::json::to_json::<AdviseResult>;
        let kept = keep.then(|| kept(r, KEPT));
        let whole = (to_stdout || matches!(kept, Some(None))).then(|| to_json(r));
        AdviseJson {
            whole,
            kept: kept.map(|k| k.as_ref().map(to_json)),
        }
    }

    /// The JSON the history keeps; None without a history.
    pub fn stored(&self) -> Option<&str> {
        let whole = self.whole.as_deref();
        self.kept
            .as_ref()
            .map(|k| k.as_deref().or(whole).unwrap_or_default())
    }
}
