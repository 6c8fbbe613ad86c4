//! A run in DiskSpd's text layout: the input parameters, the CPU table, the Total, Read and
//! Write IO tables (per thread, then `total:`) and the latency percentile table (`%-ile |
//! Read (ms) | Write (ms) | Total (ms)`). dbio counts I/Os per thread but not bytes or
//! directions per thread, so per-thread rows appear in the Total IO table (bytes there are
//! the thread's I/Os times the run's mean I/O size) and the Read and Write tables hold the
//! `total:` row only. Latency standard deviations come from the HDR histograms.

use dbio_model::histogram::LatencyHistogram;
use dbio_model::{DirStats, RunResult, SyncMode};
use std::fmt::Write;

const RULE: &str = "-----------------------------------------------------------------------------------------------------";

/// The result in DiskSpd's text layout.
pub fn to_diskspd(r: &RunResult) -> String {
    let mut s = String::new();
    parameters(&mut s, r);
    let _ = writeln!(s, "\nResults for timespan 1:");
    let _ = writeln!(
        s,
        "*******************************************************************************\n"
    );
    let _ = writeln!(s, "actual test time:\t{:.2}s", r.measured_secs);
    let _ = writeln!(s, "thread count:\t\t{}", r.job.threads);
    let _ = writeln!(s, "proc count:\t\t{}\n", r.host.cpus);
    cpu(&mut s, r);
    let total = merged(r);
    io_table(&mut s, r, "Total IO", total.as_ref(), true);
    io_table(&mut s, r, "Read IO", r.read.as_ref(), false);
    io_table(&mut s, r, "Write IO", r.write.as_ref(), false);
    percentiles(&mut s, r, total.as_ref());
    s
}

fn parameters(s: &mut String, r: &RunResult) {
    let j = &r.job;
    let _ = writeln!(
        s,
        "Command Line: dbio run (DiskSpd layout, dbio {})\n",
        r.dbio_version
    );
    let _ = writeln!(s, "Input parameters:\n");
    let _ = writeln!(s, "\ttimespan:   1");
    let _ = writeln!(s, "\t-------------");
    let _ = writeln!(s, "\tduration: {:.0}s", r.measured_secs);
    let _ = writeln!(s, "\twarm up time: {:.0}s", j.ramp_secs);
    let _ = writeln!(s, "\tcool down time: 0s");
    let _ = writeln!(s, "\tmeasuring latency");
    let _ = writeln!(s, "\trandom seed: {}", j.seed);
    for t in &j.targets {
        let _ = writeln!(s, "\tpath: '{t}'");
    }
    let _ = writeln!(s, "\t\tthink time: 0ms");
    let _ = writeln!(s, "\t\tburst size: 0");
    let _ = writeln!(
        s,
        "\t\t{}",
        if j.direct {
            "software cache disabled"
        } else {
            "using software cache"
        }
    );
    let _ = writeln!(
        s,
        "\t\t{}",
        if j.sync == SyncMode::Dsync {
            "hardware write cache disabled, writethrough on"
        } else {
            "using hardware write cache, writethrough off"
        }
    );
    let test = match j.read_pct {
        100 => "performing read test".to_string(),
        0 => "performing write test".to_string(),
        p => format!("performing mix test (read/write ratio: {p}/{})", 100 - p),
    };
    let _ = writeln!(s, "\t\t{test}");
    let sizes: Vec<String> = j.bs.iter().map(|b| b.size.to_string()).collect();
    let _ = writeln!(s, "\t\tblock size: {}", sizes.join(", "));
    if j.rw.is_random() {
        let _ = writeln!(s, "\t\tusing random I/O (alignment: {})", j.align);
    } else {
        let _ = writeln!(s, "\t\tusing sequential I/O (stride: {})", j.bs[0].size);
    }
    let _ = writeln!(
        s,
        "\t\tnumber of outstanding I/O operations per thread: {}",
        j.qd
    );
    let _ = writeln!(s, "\t\tthread stride size: 0");
    let _ = writeln!(s, "\t\tthreads per file: {}", j.threads);
    let _ = writeln!(s, "\t\tusing io_uring (dbio engine {})", r.engine.name);
    let _ = writeln!(s, "\t\tIO priority: normal\n");
    let _ = writeln!(s, "System information:\n");
    let _ = writeln!(s, "\tcomputer name: {}", r.host.hostname);
    let _ = writeln!(
        s,
        "\tstart time: {}",
        r.started_at
            .replace('T', " ")
            .replace('-', "/")
            .trim_end_matches('Z')
    );
}

/// The CPU table: dbio records the process and the whole host, not each CPU.
fn cpu(s: &mut String, r: &RunResult) {
    let secs = r.measured_secs.max(1e-9);
    let cpus = f64::from(r.cpu.cpus_allowed.max(1));
    let user = r.cpu.process_user_s / secs / cpus * 100.0;
    let kernel = r.cpu.process_sys_s / secs / cpus * 100.0;
    let host = r.cpu.host_busy_pct;
    let _ = writeln!(s, "CPU |  Usage |  User  |  Kernel |  Idle");
    let _ = writeln!(s, "-------------------------------------------");
    let _ = writeln!(
        s,
        "avg.| {:5.2}%| {:5.2}%|  {:5.2}%| {:5.2}%",
        host,
        user,
        kernel,
        (100.0 - host).max(0.0)
    );
    let _ = writeln!(
        s,
        "(host busy share; User and Kernel are dbio's own, as a share of its {} CPUs)\n",
        r.cpu.cpus_allowed
    );
}

/// Reads and writes together: their histograms merged exactly.
fn merged(r: &RunResult) -> Option<DirStats> {
    let dirs: Vec<&DirStats> = [&r.read, &r.write].into_iter().flatten().collect();
    let first = (*dirs.first()?).clone();
    let mut h = first.histogram.to_hdr();
    let mut out = first;
    for d in &dirs[1..] {
        let _ = h.add(d.histogram.to_hdr());
        out.ios += d.ios;
        out.bytes += d.bytes;
        out.iops += d.iops;
        out.mib_s += d.mib_s;
        out.mb_s += d.mb_s;
    }
    out.histogram = LatencyHistogram::from_hdr(&h);
    out.latency_ns = dbio_model::histogram::LatencySummary::of(&h);
    Some(out)
}

fn io_table(s: &mut String, r: &RunResult, title: &str, d: Option<&DirStats>, per_thread: bool) {
    let _ = writeln!(s, "{title}");
    let _ = writeln!(s, "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  AvgLat  | LatStdDev |  file");
    let _ = writeln!(s, "{RULE}");
    let file = target_label(r);
    let secs = r.measured_secs.max(1e-9);
    let (avg, dev) = d.map_or((0.0, 0.0), |d| {
        let h = d.histogram.to_hdr();
        let dev = if h.is_empty() { 0.0 } else { h.stdev() / 1e6 };
        (d.latency_ns.mean / 1e6, dev)
    });
    if let (true, Some(d)) = (per_thread, d) {
        let per_io = if d.ios > 0 {
            d.bytes as f64 / d.ios as f64
        } else {
            0.0
        };
        for (i, w) in r.cpu.workers.iter().enumerate() {
            let bytes = (w.ios as f64 * per_io).round() as u64;
            let _ = writeln!(
                s,
                "{i:>6} | {bytes:>15} | {:>12} | {:>10.2} | {:>10.2} | {:>8} | {:>9} | {file}",
                w.ios,
                bytes as f64 / secs / 1048576.0,
                w.ios as f64 / secs,
                "-",
                "-"
            );
        }
    }
    let _ = writeln!(s, "{RULE}");
    let (bytes, ios, mib, iops) = d.map_or((0, 0, 0.0, 0.0), |d| (d.bytes, d.ios, d.mib_s, d.iops));
    let _ = writeln!(
        s,
        "total:   {bytes:>15} | {ios:>12} | {mib:>10.2} | {iops:>10.2} | {avg:>8.3} | {dev:>9.3}\n"
    );
}

fn target_label(r: &RunResult) -> String {
    r.targets
        .iter()
        .map(|t| format!("{} ({}MiB)", t.path, t.size_bytes >> 20))
        .collect::<Vec<_>>()
        .join(", ")
}

/// DiskSpd's percentile table in milliseconds: min, 25th … 9-nines, max.
fn percentiles(s: &mut String, r: &RunResult, total: Option<&DirStats>) {
    let rows: [(&str, f64); 14] = [
        ("min", 0.0),
        ("25th", 0.25),
        ("50th", 0.5),
        ("75th", 0.75),
        ("90th", 0.9),
        ("95th", 0.95),
        ("99th", 0.99),
        ("3-nines", 0.999),
        ("4-nines", 0.9999),
        ("5-nines", 0.99999),
        ("6-nines", 0.999999),
        ("7-nines", 0.9999999),
        ("8-nines", 0.99999999),
        ("9-nines", 0.999999999),
    ];
    let cols: Vec<Option<dbio_model::histogram::LatencyHistogram>> =
        [r.read.as_ref(), r.write.as_ref(), total]
            .iter()
            .map(|d| d.map(|d| d.histogram.clone()))
            .collect();
    let hists: Vec<_> = cols
        .iter()
        .map(|c| c.as_ref().map(|h| h.to_hdr()))
        .collect();
    let cell = |h: &Option<hdrhistogram::Histogram<u64>>, q: Option<f64>| match h {
        Some(h) if !h.is_empty() => {
            let v = match q {
                None => h.max(),
                Some(0.0) => h.min(),
                Some(q) => h.value_at_quantile(q),
            };
            format!("{:>10.3}", v as f64 / 1e6)
        }
        _ => format!("{:>10}", "N/A"),
    };
    let _ = writeln!(s, "\n  %-ile |  Read (ms) | Write (ms) | Total (ms)");
    let _ = writeln!(s, "----------------------------------------------");
    let row = |s: &mut String, name: &str, q: Option<f64>| {
        let _ = writeln!(
            s,
            "{name:>7} | {} | {} | {}",
            cell(&hists[0], q),
            cell(&hists[1], q),
            cell(&hists[2], q)
        );
    };
    for (name, q) in rows {
        row(s, name, Some(q));
    }
    row(s, "max", None);
}
