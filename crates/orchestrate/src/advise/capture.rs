//! A dbio trace as `dbio advise`'s source: its requests attributed to the files of the
//! database's data folder (`--files DIR`), each file an object of the advice, counted from
//! the device's own view rather than the database's statistics.

use dbio_db::gather::{GatherError, Gathered, Source};
use dbio_db::snapshot::Counts;
use dbio_model::advise::ObjectIo;

/// The counts of the trace the source names, when it names one (None otherwise); a trace
/// without `--files`, or `--files` without a trace, is refused by name.
pub(super) fn gathered(
    source: &Source,
    files: Option<&str>,
) -> Result<Option<Gathered>, GatherError> {
    let input = |m: String| GatherError::Input(m);
    let trace = match source.exports.as_slice() {
        [one] if dbio_trace::format::is_trace(one.as_ref()) => Some(one),
        _ => None,
    };
    let (trace, dir) = match (trace, files) {
        (None, None) => return Ok(None),
        (Some(t), Some(d)) => (t, d),
        (Some(t), None) => return Err(input(format!("{t} is a dbio trace: give --files DIR, the database's data folder, so that its requests are attributed to the files they hit"))),
        (None, Some(_)) => return Err(input("--files goes with one dbio trace as the source: dbio advise oltp.trace --files /var/lib/postgresql/16/main".into())),
    };
    let s = dbio_trace::files::summary(trace, Some(dir)).map_err(input)?;
    let f = s.files.expect("asked for");
    let objects: Vec<ObjectIo> = (f.files.iter())
        .map(|x| ObjectIo {
            name: x.path.clone(),
            kind: dbio_db::kind::file(&x.path),
            size_bytes: Some(x.size_bytes),
            reads: x.reads,
            writes: x.writes,
            bytes_read: x.bytes_read,
            bytes_written: x.bytes_written,
            read_ms: x.read_ms,
            write_ms: x.write_ms,
            stall_ms: None,
        })
        .collect();
    let attributed: u64 = objects.iter().map(ObjectIo::ios).sum();
    let notes = vec![format!(
        "the device's requests: {attributed} in {} files under {dir}, {} outside them (file system metadata, its journal, other files); the times are the device's own",
        objects.len(),
        f.outside
    )];
    Ok(Some(Gathered {
        counts: Counts {
            objects,
            secs: s.seconds,
            since_start: false,
            io_wait: None,
            notes,
        },
        system: "capture".into(),
        name: trace.clone(),
        interrupted: None,
    }))
}
