//! fio's output options: `percentile_list` (dbio's `--fio-percentiles`) and the logs
//! `write_lat_log`, `write_bw_log`, `write_iops_log` averaged over `log_avg_msec` (dbio's
//! `--fio-log`, written from its per-second series).

use super::fio_ini::Opt;
use super::{RunFlags, Translation};

/// A job's output options as fio read them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FioOut {
    /// percentile_list as written (`99:99.9:99.99`).
    pub percentiles: Option<String>,
    /// Each log's name prefix; empty: the job's name (fio's default).
    pub lat: Option<String>,
    pub bw: Option<String>,
    pub iops: Option<String>,
    /// log_avg_msec (None: fio's default, 0, a line per I/O).
    pub avg_ms: Option<u64>,
}

/// Applies one output option to `out`, noting it in `t`; false if `o` is not one.
pub fn apply(out: &mut FioOut, o: &Opt, t: &mut Translation) -> bool {
    let (w, v) = (o.written.as_str(), o.value.as_deref().map(str::trim));
    let log = |what: &str| {
        format!("--fio-log: fio's log of {what} from dbio's per-second series, averaged over log_avg_msec")
    };
    match (o.key.as_str(), v) {
        ("percentile_list", Some(list)) if percentiles(list) => {
            out.percentiles = Some(list.to_string());
            t.mapped(w, format!("--fio-percentiles {list}: the clat_ns percentiles of --json-format fio, from dbio's histograms"));
        }
        ("percentile_list", _) => t.refuse(w, format!("'{}' is not a list of percentiles from 0 to 100 separated by ':' (e.g. 99:99.9:99.99)", v.unwrap_or(""))),
        ("write_lat_log", _) => {
            out.lat = Some(v.unwrap_or("").to_string());
            t.mapped(w, log("mean latency in ns (NAME_lat.1.log and NAME_clat.1.log, both dbio's latency from submission to completion; no NAME_slat.1.log)"));
        }
        ("write_bw_log", _) => {
            out.bw = Some(v.unwrap_or("").to_string());
            t.mapped(w, log("bandwidth in KiB/s per direction (NAME_bw.1.log)"));
        }
        ("write_iops_log", _) => {
            out.iops = Some(v.unwrap_or("").to_string());
            t.mapped(w, log("IOPS per direction (NAME_iops.1.log)"));
        }
        ("log_avg_msec", Some(ms)) => match ms.parse::<u64>() {
            Ok(n) if n % 1000 == 0 => {
                out.avg_ms = Some(n);
                if n > 0 {
                    t.mapped(w, format!("--fio-log avg={n}: each line the mean of {} of dbio's seconds", n / 1000));
                }
            }
            Ok(_) => t.refuse(w, "dbio keeps one point a second, so its logs average whole seconds: give log_avg_msec as a multiple of 1000 (1000, 2000, …)"),
            Err(_) => t.refuse(w, format!("'{ms}' is not a number of milliseconds")),
        },
        _ => return false,
    }
    true
}

/// fio's percentile_list: 1 to 20 numbers from 0 to 100 separated by `:`.
fn percentiles(list: &str) -> bool {
    let words: Vec<&str> = list.split(':').collect();
    words.len() <= 20
        && words.iter().all(|w| {
            w.trim()
                .parse::<f64>()
                .is_ok_and(|p| (0.0..=100.0).contains(&p))
        })
}

/// Sets the job `name`'s `--fio-percentiles` and `--fio-log` in `f` (its threads and
/// pattern already set), with the notes on what differs from fio's logs.
pub fn set(out: &FioOut, name: &str, f: &mut RunFlags, t: &mut Translation) {
    f.fio_percentiles = out.percentiles.clone();
    let named = |n: &Option<String>| {
        n.as_ref().map(|n| {
            if n.is_empty() {
                name.to_string()
            } else {
                n.clone()
            }
        })
    };
    let logs = [
        ("lat", named(&out.lat)),
        ("bw", named(&out.bw)),
        ("iops", named(&out.iops)),
    ];
    if logs.iter().all(|(_, n)| n.is_none()) {
        return;
    }
    if out.lat.is_some() && f.mix.is_some() {
        t.refuse(&format!("[{name}] write_lat_log"), "fio's latency log has a line per direction, and dbio keeps each second's latency of reads and writes together: a job that reads and writes can have write_bw_log and write_iops_log (per direction), not write_lat_log");
        return;
    }
    let avg = match out.avg_ms {
        Some(ms) if ms % 1000 != 0 => return,
        Some(ms) if ms > 0 => ms,
        _ => {
            t.differs("log_avg_msec (fio's default: 0)", "fio would log every I/O, which dbio does not keep: dbio writes one line per second, each the second's mean (log_avg_msec=1000)");
            1000
        }
    };
    if f.threads.unwrap_or(1) > 1 {
        t.differs(&format!("[{name}] numjobs with logs"), "fio writes a log per clone (NAME_bw.1.log to NAME_bw.N.log); dbio's per-second series is of all the job's threads together, written as NAME_bw.1.log");
    }
    let mut words: Vec<String> = logs
        .iter()
        .filter_map(|(k, n)| Some(format!("{k}={}", n.as_ref()?)))
        .collect();
    words.push(format!("avg={avg}"));
    f.fio_log = Some(words.join(","));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opt(key: &str, value: &str) -> Opt {
        Opt {
            key: key.into(),
            value: Some(value.into()),
            written: format!("{key}={value}"),
        }
    }

    #[test]
    fn logs_become_one_flag_and_what_dbio_cannot_keep_is_said() {
        let (mut out, mut t) = (FioOut::default(), Translation::default());
        for (k, v) in [
            ("write_bw_log", "db"),
            ("write_iops_log", ""),
            ("log_avg_msec", "2000"),
        ] {
            assert!(apply(&mut out, &opt(k, v), &mut t));
        }
        assert!(!apply(&mut out, &opt("bs", "4k"), &mut t));
        let mut f = RunFlags::default();
        set(&out, "oltp", &mut f, &mut t);
        assert_eq!(f.fio_log.as_deref(), Some("bw=db,iops=oltp,avg=2000"));
        assert!(t.refusals().is_empty());
        // Without log_avg_msec fio logs every I/O; dbio logs each second, and says so.
        out.avg_ms = None;
        set(&out, "oltp", &mut f, &mut t);
        assert_eq!(f.fio_log.as_deref(), Some("bw=db,iops=oltp,avg=1000"));
        assert!(t
            .notes
            .iter()
            .any(|n| n.option == "log_avg_msec (fio's default: 0)"
                && n.fate == super::super::Fate::Differs
                && n.text.contains("every I/O")));
        apply(&mut out, &opt("log_avg_msec", "500"), &mut t);
        assert_eq!(t.refusals()[0].option, "log_avg_msec=500");
        apply(&mut out, &opt("percentile_list", "99:99.9:99.99"), &mut t);
        set(&out, "oltp", &mut f, &mut t);
        assert_eq!(f.fio_percentiles.as_deref(), Some("99:99.9:99.99"));
        apply(&mut out, &opt("percentile_list", "99:x"), &mut t);
        assert_eq!(t.refusals()[1].option, "percentile_list=99:x");
    }
}
