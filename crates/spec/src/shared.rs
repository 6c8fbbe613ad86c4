//! Streams of one run on one file or device (fio's jobs on one file): the file is made once,
//! at the largest size any of them asks, and each stream keeps to the region its own flags
//! give; with `--verify`, streams whose regions overlap where one writes are refused by name.

use crate::error::SpecError;
use crate::targets::same_file;
use dbio_model::{units::format_size, StreamSpec};

/// Gives every stream that shares a target with another the same file size (the largest
/// asked), turning a smaller `--size` of its own into its region (`--range`), and refuses
/// overlapping regions under `--verify`. Returns a notice for every size so changed.
pub fn share_targets(streams: &mut [StreamSpec]) -> Result<Vec<String>, SpecError> {
    let mut notices = Vec::new();
    for (path, users) in sharing(streams) {
        if let Some(n) = one_size(streams, &path, &users)? {
            notices.push(n);
        }
        if streams[0].job.verify.is_some() {
            no_overlap(streams, &path, &users)?;
        }
    }
    Ok(notices)
}

/// Every target used by more than one stream, with the indices of the streams that use it.
fn sharing(streams: &[StreamSpec]) -> Vec<(String, Vec<usize>)> {
    let mut out: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, s) in streams.iter().enumerate() {
        for t in &s.job.targets {
            match out.iter_mut().find(|(p, _)| same_file(p, t)) {
                Some((_, users)) if !users.contains(&i) => users.push(i),
                Some(_) => {}
                None => out.push((t.clone(), vec![i])),
            }
        }
    }
    out.retain(|(_, users)| users.len() > 1);
    out
}

/// The largest `--size` among `users` becomes the size of each; a stream that asked for less
/// (and gave no `--range`) keeps to its own size as its region. A notice when sizes differed.
fn one_size(
    streams: &mut [StreamSpec],
    path: &str,
    users: &[usize],
) -> Result<Option<String>, SpecError> {
    let sizes: Vec<Option<u64>> = users.iter().map(|&i| streams[i].job.file_size).collect();
    let Some(max) = sizes.iter().flatten().copied().max() else {
        return Ok(None);
    };
    if sizes.iter().all(|s| *s == Some(max)) {
        return Ok(None);
    }
    let mut kept = Vec::new();
    for &i in users {
        let s = &mut streams[i];
        let region = &mut s.job.region;
        if let (Some(own), None) = (s.job.file_size, region.range) {
            if own < max {
                if own <= region.offset {
                    return Err(format!(
                        "stream {}: --offset {} is at or beyond its --size {}; give an --offset inside the size, or a larger --size",
                        s.name, format_size(region.offset), format_size(own)
                    ).into());
                }
                region.range = Some(own - region.offset);
                kept.push(format!(
                    "{} keeps to {}..{}",
                    s.name,
                    format_size(region.offset),
                    format_size(own)
                ));
            }
        }
        s.job.file_size = Some(max);
    }
    let names: Vec<&str> = users.iter().map(|&i| streams[i].name.as_str()).collect();
    let kept = if kept.is_empty() {
        String::new()
    } else {
        format!(" ({})", kept.join(", "))
    };
    Ok(Some(format!(
        "streams {} share {path}: it is made once, {}, the largest size they ask{kept}",
        names.join(" and "),
        format_size(max)
    )))
}

/// The region `[start, end)` a stream addresses, as far as its flags say (None: to the end).
fn region(s: &StreamSpec) -> (u64, Option<u64>) {
    let r = &s.job.region;
    let end = match r.range {
        Some(len) => Some(r.offset.saturating_add(len)),
        None => s.job.file_size,
    };
    (r.offset, end)
}

/// Under `--verify`, refuses two streams on `path` whose regions overlap where either writes:
/// each stream verifies its own writes, and would take the other's for corruption.
fn no_overlap(streams: &[StreamSpec], path: &str, users: &[usize]) -> Result<(), SpecError> {
    for (k, &i) in users.iter().enumerate() {
        for &j in &users[k + 1..] {
            let (a, b) = (&streams[i], &streams[j]);
            if !a.job.rw.writes() && !b.job.rw.writes() {
                continue;
            }
            let ((a0, a1), (b0, b1)) = (region(a), region(b));
            let before = |end: Option<u64>, start: u64| end.is_some_and(|e| e <= start);
            if before(a1, b0) || before(b1, a0) {
                continue;
            }
            let shown = |(s, e): (u64, Option<u64>)| {
                format!(
                    "{}..{}",
                    format_size(s),
                    e.map_or("the end".into(), format_size)
                )
            };
            return Err(format!(
                "--verify: streams {} ({}) and {} ({}) both use {path} and their regions overlap; each stream verifies its own writes and would take the other's for corruption: give them regions apart (--offset, --range), or leave out --verify",
                a.name, shown((a0, a1)), b.name, shown((b0, b1))
            ).into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::raw::RawJob;
    use dbio_model::StreamSpec;

    const MIB: u64 = 1 << 20;

    /// The streams of `dbio run --stream T... --target ROLE=PATH...` (`verify`: --verify),
    /// and the notices, or the refusal.
    fn streams(
        tables: &[&str],
        targets: &[&str],
        verify: bool,
    ) -> Result<(Vec<StreamSpec>, Vec<String>), String> {
        let a = RawJob {
            streams: tables.iter().map(|t| t.to_string()).collect(),
            targets: targets.iter().map(|t| t.to_string()).collect(),
            verify,
            ..RawJob::default()
        };
        let (name, p) = a.profile().map_err(|e| e.to_string())?;
        a.streams(&name, &p).map_err(|e| e.to_string())
    }

    /// fio's jobs `[r] size=4m` and `[w] offset=8m size=4m` on one file, as `dbio fio`
    /// writes them: the file is made once at 12 MiB (8m + 4m), and r keeps to its 4 MiB.
    #[test]
    fn one_file_is_made_at_the_largest_size_and_each_keeps_its_region() {
        let (s, notes) = streams(
            &[
                r#"{name = "r", target = "r", rw = "randread", bs = "4k", size = "4m"}"#,
                r#"{name = "w", target = "w", rw = "write", bs = "64k", size = "12m", offset = "8m", range = "4m"}"#,
            ],
            &["r=/tmp/dbio-shared-f", "w=/tmp/dbio-shared-f"],
            false,
        )
        .unwrap();
        let got: Vec<(Option<u64>, u64, Option<u64>)> = s
            .iter()
            .map(|s| (s.job.file_size, s.job.region.offset, s.job.region.range))
            .collect();
        assert_eq!(
            got,
            [
                (Some(12 * MIB), 0, Some(4 * MIB)),
                (Some(12 * MIB), 8 * MIB, Some(4 * MIB))
            ]
        );
        assert!(
            notes
                .iter()
                .any(|n| n.starts_with("roles r and w share /tmp/dbio-shared-f")),
            "{notes:?}"
        );
        assert!(
            notes.iter().any(|n| n
                == "streams r and w share /tmp/dbio-shared-f: it is made once, 12 MiB, the largest size they ask (r keeps to 0 B..4 MiB)"),
            "{notes:?}"
        );
        // Sizes alike: nothing to say beyond the sharing, nothing changed.
        let (s, notes) = streams(
            &[
                r#"{name = "r", target = "r", rw = "randread", size = "4m"}"#,
                r#"{name = "w", target = "w", rw = "write", size = "4m"}"#,
            ],
            &["r=/tmp/dbio-shared-f", "w=/tmp/dbio-shared-f"],
            false,
        )
        .unwrap();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(s.iter().all(|s| s.job.region.range.is_none()));
    }

    /// Under --verify, writes of one stream inside another's region are refused by name;
    /// regions apart verify.
    #[test]
    fn verify_refuses_overlapping_regions_by_stream() {
        let t = ["a=/tmp/dbio-shared-v", "b=/tmp/dbio-shared-v"];
        let e = streams(
            &[
                r#"{name = "a", target = "a", rw = "randwrite", size = "8m"}"#,
                r#"{name = "b", target = "b", rw = "write", size = "8m", offset = "4m", range = "4m"}"#,
            ],
            &t,
            true,
        )
        .unwrap_err();
        assert!(
            e.starts_with("--verify: streams a (0 B..8 MiB) and b (4 MiB..8 MiB) both use /tmp/dbio-shared-v and their regions overlap"),
            "{e}"
        );
        streams(
            &[
                r#"{name = "a", target = "a", rw = "randwrite", size = "4m"}"#,
                r#"{name = "b", target = "b", rw = "write", size = "8m", offset = "4m", range = "4m"}"#,
            ],
            &t,
            true,
        )
        .unwrap();
        // Without --verify the overlap is fio's, and runs.
        streams(
            &[
                r#"{name = "a", target = "a", rw = "randwrite", size = "8m"}"#,
                r#"{name = "b", target = "b", rw = "write", size = "8m", offset = "4m", range = "4m"}"#,
            ],
            &t,
            false,
        )
        .unwrap();
    }

    /// A smaller size than another stream's on the shared file, with an offset beyond it.
    #[test]
    fn an_offset_past_its_own_size_is_refused_by_stream() {
        let e = streams(
            &[
                r#"{name = "a", target = "a", rw = "randread", size = "8m"}"#,
                r#"{name = "b", target = "b", rw = "read", size = "4m", offset = "4m"}"#,
            ],
            &["a=/tmp/dbio-shared-o", "b=/tmp/dbio-shared-o"],
            false,
        )
        .unwrap_err();
        assert!(
            e.contains("stream b: --offset 4 MiB is at or beyond its --size 4 MiB"),
            "{e}"
        );
    }
}
