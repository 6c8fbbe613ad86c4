//! `--split-region`: the part of the region one host of a fleet run takes.

use crate::error::SpecError;
use dbio_model::RegionSplit;

/// The part given as `--split-region PART/PARTS` on a single host (a `--start-at` run);
/// None when the flag is absent, or given alone with `--hosts` (each host's part is then
/// decided per host). `on_hosts`: the run is on several hosts.
pub fn explicit_split(
    split_region: Option<&str>,
    on_hosts: bool,
) -> Result<Option<RegionSplit>, SpecError> {
    let Some(v) = split_region else {
        return Ok(None);
    };
    match (v.is_empty(), on_hosts) {
        (true, true) => Ok(None),
        (false, true) => Err(format!(
            "--split-region {v}: with --hosts give --split-region alone, and host i of n gets the i-th 1/n of the region"
        ).into()),
        (true, false) => Err(
            "--split-region alone splits the region among --hosts; on each host of a --start-at run say which part it takes, e.g. --split-region 2/4"
                .into(),
        ),
        (false, false) => parse_split(v).map(Some),
    }
}

/// `PART/PARTS`, e.g. 2/4; the message says what is wrong.
fn parse_split(v: &str) -> Result<RegionSplit, SpecError> {
    let bad = || {
        format!("--split-region {v}: write PART/PARTS, e.g. 2/4 (the second quarter of the region)")
    };
    let (p, n) = v.split_once('/').ok_or_else(bad)?;
    let (part, parts) = (
        p.trim().parse::<u32>().map_err(|_| bad())?,
        n.trim().parse::<u32>().map_err(|_| bad())?,
    );
    if parts == 0 || part == 0 || part > parts {
        return Err(format!(
            "--split-region {v}: the part is a number from 1 to the number of parts, e.g. 1/{}",
            parts.max(2)
        )
        .into());
    }
    Ok(RegionSplit { part, parts })
}
