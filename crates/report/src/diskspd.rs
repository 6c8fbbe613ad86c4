//! A run in DiskSpd's text layout (its `ResultParser`): the command line, the input
//! parameters of each target, the system, the CPU table, the Total, Read and Write IO tables
//! with a row per thread and target and its latency, and the latency percentile table.
//! The CPU table has a row per processor; latency deviations come from the histograms.

use crate::diskspd_run::{merged, size, stdev_ns, Ran, TargetRow};
use dbio_model::{DataKind, DirStats, RunResult, ThreadDir};
use std::fmt::Write;

const RULE: &str = "-----------------------------------------------------------------------------------------------------";

/// The result in DiskSpd's text layout, its command line unknown.
pub fn to_diskspd(r: &RunResult) -> String {
    to_diskspd_typed(r, &[])
}

/// The result in DiskSpd's text layout; `typed` is the command line as typed (its words).
pub fn to_diskspd_typed(r: &RunResult, typed: &[String]) -> String {
    let run = Ran { r, typed };
    let mut s = String::new();
    parameters(&mut s, &run);
    system(&mut s, &run);
    let _ = writeln!(s, "\nResults for timespan 1:");
    let _ = writeln!(
        s,
        "*******************************************************************************"
    );
    if r.measured_secs < 1e-7 {
        let _ = writeln!(
            s,
            "The test was interrupted before the measurements began. No results are displayed."
        );
        return s;
    }
    let _ = writeln!(s, "\nactual test time:\t{:.2}s", r.measured_secs);
    let _ = writeln!(s, "thread count:\t\t{}", r.job.threads);
    if run.pool() {
        let _ = writeln!(s, "request count:\t\t{}", r.job.qd);
    }
    cpu(&mut s, r);
    let rows = run.rows();
    let total = merged(r);
    let sections: [(&str, Option<&DirStats>, Pick); 3] = [
        ("Total IO", total.as_ref(), TargetRow::total),
        ("Read IO", r.read.as_ref(), |t| t.read.clone()),
        ("Write IO", r.write.as_ref(), |t| t.write.clone()),
    ];
    for (title, d, pick) in sections {
        let _ = writeln!(s, "\n{title}");
        io_table(&mut s, run.r.measured_secs, &rows, pick, d);
    }
    let _ = writeln!(s, "\nTotal latency distribution:");
    percentiles(&mut s, r, total.as_ref());
    s
}

fn parameters(s: &mut String, run: &Ran) {
    let j = &run.r.job;
    let _ = writeln!(s, "\nCommand Line: {}\n", run.command_line());
    let _ = writeln!(s, "Input parameters:\n");
    let _ = writeln!(s, "\ttimespan:   1");
    let _ = writeln!(s, "\t-------------");
    let _ = writeln!(s, "\tduration: {}s", run.duration_secs());
    let _ = writeln!(s, "\twarm up time: {:.0}s", j.ramp_secs);
    let _ = writeln!(s, "\tcool down time: 0s");
    let _ = writeln!(s, "\tmeasuring latency");
    let _ = writeln!(s, "\trandom seed: {}", j.seed);
    if run.pool() {
        let _ = writeln!(s, "\tthread pool with {} threads", j.threads);
        let _ = writeln!(
            s,
            "\tnumber of outstanding I/O operations per thread: {}",
            j.qd
        );
    }
    for t in run.paths() {
        let _ = writeln!(s, "\tpath: '{t}'");
        target(s, run);
    }
    let _ = writeln!(s);
}

/// The settings of one target (all of dbio's targets share them).
fn target(s: &mut String, run: &Ran) {
    let j = &run.r.job;
    let _ = writeln!(s, "\t\tthink time: 0ms");
    let _ = writeln!(s, "\t\tburst size: 0");
    let cache = if j.direct {
        "software cache disabled"
    } else {
        "using software cache"
    };
    let _ = writeln!(s, "\t\t{cache}");
    let through = match (run.write_through(), j.direct) {
        (true, true) => "hardware write cache disabled, writethrough on",
        (true, false) => "hardware and software write caches disabled, writethrough on",
        (false, _) => "using hardware write cache, writethrough off",
    };
    let _ = writeln!(s, "\t\t{through}");
    if j.data == DataKind::Zeros && j.rw.writes() {
        let _ = writeln!(s, "\t\tzeroing write buffers");
    }
    let test = match j.read_pct {
        100 => "performing read test".to_string(),
        0 => "performing write test".to_string(),
        p => format!("performing mix test (read/write ratio: {p}/{})", 100 - p),
    };
    let _ = writeln!(s, "\t\t{test}");
    let sizes: Vec<String> = j.bs.iter().map(|b| size(b.size)).collect();
    let _ = writeln!(s, "\t\tblock size: {}", sizes.join(", "));
    if j.rw.is_random() {
        let _ = writeln!(s, "\t\tusing random I/O (alignment: {})", size(j.align));
    } else {
        let _ = writeln!(
            s,
            "\t\tusing sequential I/O (stride: {})",
            size(j.bs[0].size)
        );
    }
    if run.pool() {
        let _ = writeln!(s, "\t\trelative IO weight in thread pool: 1");
    } else {
        let _ = writeln!(
            s,
            "\t\tnumber of outstanding I/O operations per thread: {}",
            j.qd
        );
    }
    if j.region.offset > 0 {
        let _ = writeln!(s, "\t\tbase file offset: {}", size(j.region.offset));
    }
    if let Some(range) = j.region.range {
        let _ = writeln!(s, "\t\tmax file size: {}", size(j.region.offset + range));
    }
    if !run.pool() {
        let _ = writeln!(s, "\t\tthreads per file: {}", j.threads);
    }
    let _ = writeln!(s, "\t\tusing dbio's {} engine", run.r.engine.name);
    let _ = writeln!(s, "\t\tIO priority: normal");
    if let Some(iops) = run.iops_per_thread() {
        let _ = writeln!(s, "\t\tthroughput rate-limited to {iops} IOPS");
    }
}

fn system(s: &mut String, run: &Ran) {
    let _ = writeln!(s, "System information:\n");
    let _ = writeln!(s, "\tcomputer name: {}", run.r.host.hostname);
    let _ = writeln!(s, "\tstart time: {}", run.start_time());
    let _ = writeln!(s, "\n\tcpu count:\t\t{}", run.r.host.cpus);
}

/// The CPU table: a row per processor with its own shares of the window (the host's, as
/// DiskSpd's are), then their average. A result that kept no processor's own (simulated or
/// merged) has the average row only: the host's busy share and dbio's own user and kernel
/// time, as it says beneath.
fn cpu(s: &mut String, r: &RunResult) {
    let _ = writeln!(s, "\nCPU |  Usage |  User  | Kernel |  Idle");
    let _ = writeln!(s, "----------------------------------------");
    let row = |s: &mut String, name: &str, [usage, user, kernel, idle]: [f64; 4]| {
        let _ = writeln!(
            s,
            "{name:>4}| {usage:6.2}%| {user:6.2}%| {kernel:6.2}%| {idle:6.2}%"
        );
    };
    let per_cpu: Vec<[f64; 4]> = r
        .cpu
        .per_cpu
        .iter()
        .map(|c| {
            let idle = c.idle_pct;
            [(100.0 - idle).max(0.0), c.user_pct, c.kernel_pct, idle]
        })
        .collect();
    if per_cpu.is_empty() {
        let secs = r.measured_secs.max(1e-9);
        let cpus = f64::from(r.cpu.cpus_allowed.max(1));
        let host = r.cpu.host_busy_pct;
        let user = r.cpu.process_user_s / secs / cpus * 100.0;
        let kernel = r.cpu.process_sys_s / secs / cpus * 100.0;
        row(s, "avg.", [host, user, kernel, (100.0 - host).max(0.0)]);
        let _ = writeln!(
            s,
            "(host busy share; User and Kernel are dbio's own, as a share of its {} CPUs)",
            r.cpu.cpus_allowed
        );
        return;
    }
    for (c, f) in r.cpu.per_cpu.iter().zip(&per_cpu) {
        row(s, &c.id.to_string(), *f);
    }
    let _ = writeln!(s, "----------------------------------------");
    let n = per_cpu.len() as f64;
    let average = std::array::from_fn(|k| per_cpu.iter().map(|f| f[k]).sum::<f64>() / n);
    row(s, "avg.", average);
}

/// Which of a row's directions (or both) a table shows.
type Pick = fn(&TargetRow) -> ThreadDir;

/// One IO table: a row per thread and target (`pick` gives one direction's or both),
/// then the total `d`.
fn io_table(s: &mut String, secs: f64, rows: &[TargetRow], pick: Pick, d: Option<&DirStats>) {
    let _ = writeln!(s, "thread |       bytes     |     I/Os     |    MiB/s   |  I/O per s |  AvgLat  | LatStdDev |  file");
    let _ = writeln!(s, "{RULE}");
    let secs = secs.max(1e-9);
    for row in rows {
        let t = pick(row);
        let _ = writeln!(
            s,
            "{:>6} | {:>15} | {:>12} | {:>10.2} | {:>10.2}{} | {} ({})",
            row.thread,
            t.bytes,
            t.ios,
            t.bytes as f64 / 1048576.0 / secs,
            t.ios as f64 / secs,
            latency(t.ios, t.mean_ns, t.stdev_ns),
            row.path,
            size(row.file_size)
        );
    }
    let _ = writeln!(s, "{RULE}");
    let (bytes, ios, mean, dev) = d.map_or((0, 0, 0.0, 0.0), |d| {
        (d.bytes, d.ios, d.latency_ns.mean, stdev_ns(d))
    });
    let _ = writeln!(
        s,
        "total:   {bytes:>15} | {ios:>12} | {:>10.2} | {:>10.2}{}",
        bytes as f64 / 1048576.0 / secs,
        ios as f64 / secs,
        latency(ios, mean, dev)
    );
}

/// The AvgLat and LatStdDev cells in milliseconds (`N/A` deviation without I/O).
fn latency(ios: u64, mean_ns: f64, stdev_ns: f64) -> String {
    let mean = format!(" | {:>8.3}", mean_ns / 1e6);
    if ios == 0 {
        format!("{mean} |       N/A")
    } else {
        format!("{mean} |  {:>8.3}", stdev_ns / 1e6)
    }
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
    let hists: Vec<_> = [r.read.as_ref(), r.write.as_ref(), total]
        .iter()
        .map(|d| d.map(|d| d.histogram.to_hdr()))
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
    let _ = writeln!(s, "  %-ile |  Read (ms) | Write (ms) | Total (ms)");
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

#[cfg(test)]
mod tests {
    use super::*;
    use dbio_model::{Rw, ThreadStats};

    /// The committed fixture run: 1400 reads and 600 writes of 4 KiB on one file.
    fn run() -> RunResult {
        serde_json::from_str(include_str!("../tests/fixtures/run.json")).expect("the fixture")
    }

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    /// The rows of the table titled `title`, split at `|` and trimmed.
    fn rows(text: &str, title: &str) -> Vec<Vec<String>> {
        let start = text.find(&format!("\n{title}\n")).expect(title);
        text[start..]
            .lines()
            .skip(4)
            .take_while(|l| !l.starts_with("----"))
            .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
            .collect()
    }

    fn dir(ios: u64, mean_us: f64, dev_us: f64) -> ThreadDir {
        ThreadDir {
            ios,
            bytes: ios * 4096,
            mean_ns: mean_us * 1000.0,
            stdev_ns: dev_us * 1000.0,
            histogram: None,
        }
    }

    #[test]
    fn each_thread_has_its_row_and_latency_in_every_table() {
        let mut r = run();
        r.job.threads = 2;
        r.threads = vec![
            ThreadStats {
                read: dir(1000, 100.0, 10.0),
                write: dir(400, 200.0, 20.0),
                ..ThreadStats::default()
            },
            ThreadStats {
                read: dir(400, 150.0, 30.0),
                write: ThreadDir::default(),
                ..ThreadStats::default()
            },
        ];
        let text = to_diskspd(&r);
        let secs = r.measured_secs;
        let read = rows(&text, "Read IO");
        assert_eq!(read.len(), 2, "{text}");
        assert_eq!(read[0][..3], ["0", "4096000", "1000"]);
        assert_eq!(read[0][4], format!("{:.2}", 1000.0 / secs));
        assert_eq!(read[0][5..7], ["0.100", "0.010"]);
        assert_eq!(read[0][7], "./small (8MiB)");
        assert_eq!(read[1][..3], ["1", "1638400", "400"]);
        assert_eq!(read[1][5..7], ["0.150", "0.030"]);
        let write = rows(&text, "Write IO");
        assert_eq!(write[0][..3], ["0", "1638400", "400"]);
        assert_eq!(write[0][5..7], ["0.200", "0.020"]);
        // A thread without writes: no I/O, no deviation.
        assert_eq!(write[1][2..3], ["0"]);
        assert_eq!(write[1][5..7], ["0.000", "N/A"]);
        let total = rows(&text, "Total IO");
        // Thread 0: 1400 I/Os, mean (1000 x 100 + 400 x 200) / 1400 us.
        assert_eq!(total[0][..3], ["0", "5734400", "1400"]);
        assert_eq!(total[0][5], format!("{:.3}", 180_000.0 / 1400.0 / 1000.0));
    }

    #[test]
    fn several_targets_are_one_pool_of_threads() {
        let mut r = run();
        r.job.targets = vec!["a.dat".into(), "b.dat".into()];
        r.job.threads = 4;
        r.job.qd = 8;
        let text = to_diskspd(&r);
        assert!(text.contains("\tthread pool with 4 threads\n\tnumber of outstanding I/O operations per thread: 8\n"), "{text}");
        assert_eq!(
            text.matches("relative IO weight in thread pool: 1").count(),
            2
        );
        assert!(!text.contains("threads per file"), "{text}");
        assert!(
            text.contains("\nthread count:\t\t4\nrequest count:\t\t8\n"),
            "{text}"
        );
        r.job.targets.truncate(1);
        let one = to_diskspd(&r);
        assert!(one.contains("\t\tthreads per file: 4\n") && !one.contains("thread pool"));
    }

    #[test]
    fn a_read_run_says_the_write_through_diskspd_was_asked_for() {
        let mut r = run();
        r.job.rw = Rw::RandRead;
        r.job.read_pct = 100;
        let on = "\t\thardware write cache disabled, writethrough on\n";
        let typed = words("dbio diskspd -b4K -r -Sh t.dat");
        let text = to_diskspd_typed(&r, &typed);
        assert!(text.contains(on), "{text}");
        assert!(text.starts_with("\nCommand Line: dbio diskspd -b4K -r -Sh t.dat\n"));
        let plain = to_diskspd_typed(&r, &words("dbio diskspd -b4K -r -Su t.dat"));
        assert!(plain.contains("\t\tusing hardware write cache, writethrough off\n"));
        assert!(plain.contains("\t\tblock size: 4KiB\n\t\tusing random I/O (alignment: 4KiB)\n"));
    }
}
