//! What the suite refuses of the flags that spread a run over hosts: each part runs on its
//! role's `--target` and uses its whole region.

use dbio_spec::SpecError;

/// Why the fleet flags do not fit a suite; Display names the flag and what to try.
#[derive(Debug, thiserror::Error)]
pub enum SuiteFleetError {
    /// `--target-on` given to the suite.
    #[error("--target-on: the suite puts each part on its role's --target; with --hosts give paths that exist on every host")]
    TargetOn,
    /// `--split-region PART/PARTS` given to the suite.
    #[error("--split-region PART/PARTS: the suite's parts each use their whole target; to split a shared device among hosts give --hosts with --split-region alone")]
    SplitPart,
    /// `--split-region` itself is wrong.
    #[error("{0}")]
    Split(#[from] SpecError),
}

/// Checks the fleet flags of a suite: `target_on` (any `--target-on` given), `split_region`
/// as written, and `on_hosts` (`--hosts` or `--hosts-file` given).
pub fn check(
    target_on: bool,
    split_region: Option<&str>,
    on_hosts: bool,
) -> Result<(), SuiteFleetError> {
    if target_on {
        return Err(SuiteFleetError::TargetOn);
    }
    if dbio_spec::region::explicit_split(split_region, on_hosts)?.is_some() {
        return Err(SuiteFleetError::SplitPart);
    }
    Ok(())
}
