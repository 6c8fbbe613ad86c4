//! A run as DiskSpd's XML results (`-Rxml`, its `XmlResultParser`): `<Results>` holding
//! `System`, the `Profile` of the run's settings, and one `TimeSpan` with the test time,
//! CPU use, the latency percentiles and a `Thread` per worker thread. Element names, order,
//! nesting and number formats are DiskSpd's, so VMFleet and DBAs' scripts read it as they
//! read DiskSpd's. Each `Thread` has a `Target` per target with that thread's I/O on it;
//! each `CPU` carries that processor's own shares of the window, as DiskSpd's do.

use crate::diskspd_run::{merged, stdev_ns, Ran, TargetRow};
use dbio_model::{DataKind, DirStats, RunResult, Skew, ThreadDir};
use std::fmt::Display;

/// The result as DiskSpd's XML results, its command line unknown.
pub fn to_diskspd_xml(r: &RunResult) -> String {
    to_diskspd_xml_typed(r, &[])
}

/// The result as DiskSpd's XML results; `typed` is the command line as typed (its words).
pub fn to_diskspd_xml_typed(r: &RunResult, typed: &[String]) -> String {
    let run = Ran { r, typed };
    let mut x = Xml::default();
    x.open("Results", &[]);
    system(&mut x, &run);
    profile(&mut x, &run);
    x.open("TimeSpan", &[]);
    if r.measured_secs < 1e-7 {
        x.leaf(
            "Error",
            "The test was interrupted before the measurements began. No results are displayed.",
        );
    } else {
        x.leaf("TestTimeSeconds", format!("{:.2}", r.measured_secs));
        x.leaf("ThreadCount", r.job.threads);
        x.leaf("RequestCount", if run.pool() { r.job.qd } else { 0 });
        x.leaf("ProcCount", r.host.cpus);
        cpu(&mut x, r);
        latency(&mut x, r);
        threads(&mut x, &run);
    }
    x.close("TimeSpan");
    x.close("Results");
    x.s
}

/// `System`: the host's name, the tool, the start time and the processors.
fn system(x: &mut Xml, run: &Ran) {
    let r = run.r;
    x.open("System", &[]);
    x.leaf("ComputerName", &r.host.hostname);
    x.open("Tool", &[]);
    x.leaf("Version", &r.dbio_version);
    x.leaf("VersionDate", "dbio");
    x.close("Tool");
    x.leaf("RunTime", run.start_time());
    x.empty(
        "PowerScheme",
        &[("Name", String::new()), ("Guid", String::new())],
    );
    x.open("ProcessorTopology", &[("Heterogeneous", "false".into())]);
    for (g, n) in groups(r.host.cpus) {
        let mask = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        x.empty(
            "Group",
            &[
                ("Group", g.to_string()),
                ("MaximumProcessors", n.to_string()),
                ("ActiveProcessors", n.to_string()),
                ("ActiveProcessorMask", format!("0x{mask:x}")),
            ],
        );
    }
    x.close("ProcessorTopology");
    x.close("System");
}

/// Processor groups as Windows makes them: up to 64 processors each, (group, count).
fn groups(cpus: u32) -> Vec<(u32, u32)> {
    let cpus = cpus.max(1);
    (0..cpus.div_ceil(64))
        .map(|g| (g, (cpus - g * 64).min(64)))
        .collect()
}

/// `Profile`: the run's settings as DiskSpd's profile of one time span.
fn profile(x: &mut Xml, run: &Ran) {
    let j = &run.r.job;
    x.open("Profile", &[]);
    x.leaf("Progress", 0);
    x.leaf("ResultFormat", "xml");
    x.leaf("Verbose", false);
    x.open("TimeSpans", &[]);
    x.open("TimeSpan", &[]);
    x.leaf("CompletionRoutines", false);
    x.leaf("MeasureLatency", true);
    x.leaf("CalculateIopsStdDev", false);
    x.leaf("DisableAffinity", false);
    x.leaf("Duration", run.duration_secs());
    x.leaf("Warmup", j.ramp_secs.round() as u64);
    x.leaf("Cooldown", 0);
    x.leaf("ThreadCount", if run.pool() { j.threads } else { 0 });
    x.leaf("RequestCount", if run.pool() { j.qd } else { 0 });
    x.leaf("IoBucketDuration", 1000);
    x.leaf("RandSeed", j.seed);
    x.open("Targets", &[]);
    for path in run.paths() {
        target(x, run, &path);
    }
    x.close("Targets");
    x.close("TimeSpan");
    x.close("TimeSpans");
    x.close("Profile");
}

/// One `Target` of the profile: its settings, in DiskSpd's order.
fn target(x: &mut Xml, run: &Ran, path: &str) {
    let j = &run.r.job;
    x.open("Target", &[]);
    x.leaf("Path", path);
    x.leaf("BlockSize", j.bs[0].size);
    x.leaf("BaseFileOffset", j.region.offset);
    for hint in [
        "SequentialScan",
        "RandomAccess",
        "TemporaryFile",
        "UseLargePages",
    ] {
        x.leaf(hint, false);
    }
    if j.direct {
        x.leaf("DisableOSCache", true);
    }
    if run.write_through() {
        x.leaf("WriteThrough", true);
    }
    x.open("WriteBufferContent", &[]);
    let zeros = j.data == DataKind::Zeros;
    x.leaf("Pattern", if zeros { "zero" } else { "random" });
    x.close("WriteBufferContent");
    x.leaf("ParallelAsyncIO", false);
    if let Some(bytes) = j.file_size {
        x.leaf("FileSize", bytes);
    }
    if j.rw.is_random() {
        x.leaf("Random", j.align);
        if let Skew::Hotspot { io_pct, region_pct } = j.skew {
            x.open("Distribution", &[]);
            x.open("Percent", &[]);
            x.text_with("Range", &[("IO", io_pct.to_string())], region_pct);
            x.text_with(
                "Range",
                &[("IO", (100 - io_pct).to_string())],
                100 - region_pct,
            );
            x.close("Percent");
            x.close("Distribution");
        }
    } else {
        x.leaf("StrideSize", j.bs[0].size);
        x.leaf("InterlockedSequential", false);
    }
    x.leaf("ThreadStride", 0);
    x.leaf(
        "MaxFileSize",
        j.region.range.map_or(0, |r| j.region.offset + r),
    );
    x.leaf("RequestCount", j.qd);
    x.leaf("WriteRatio", 100 - u32::from(j.read_pct));
    match run.iops_per_thread() {
        Some(iops) => x.text_with("Throughput", &[("unit", "IOPS".into())], iops),
        None => x.leaf("Throughput", 0),
    }
    x.leaf("ThreadsPerFile", if run.pool() { 1 } else { j.threads });
    x.leaf("IOPriority", 3);
    x.leaf("Weight", 1);
    x.close("Target");
}

/// One processor's shares in percent: usage (all but idle), user, kernel and idle.
type CpuFigures = [f64; 4];

/// `CpuUtilization`: a `CPU` per processor with its own shares of the measured window (the
/// host's, as DiskSpd's are, not dbio's alone) and their `Average`. A result without them
/// (simulated or merged) gives each CPU the host's busy share and dbio's own user and
/// kernel time, and says so in a comment.
fn cpu(x: &mut Xml, r: &RunResult) {
    let rows: Vec<(u32, CpuFigures)> = if r.cpu.per_cpu.is_empty() {
        x.comment("dbio did not measure each CPU of this run: every CPU shows the host's busy share; User and Kernel are dbio's own CPU, as a share of the CPUs it may use");
        let figures = host_average(r);
        let cpus = groups(r.host.cpus).iter().map(|(_, n)| n).sum::<u32>();
        (0..cpus).map(|id| (id, figures)).collect()
    } else {
        r.cpu
            .per_cpu
            .iter()
            .map(|c| {
                let usage = (100.0 - c.idle_pct).max(0.0);
                (c.id, [usage, c.user_pct, c.kernel_pct, c.idle_pct])
            })
            .collect()
    };
    let figures = |x: &mut Xml, f: &CpuFigures| {
        for (name, v) in [
            "UsagePercent",
            "UserPercent",
            "KernelPercent",
            "IdlePercent",
        ]
        .iter()
        .zip(f)
        {
            x.leaf(name, format!("{v:.2}"));
        }
    };
    x.open("CpuUtilization", &[]);
    for (id, f) in &rows {
        x.open("CPU", &[]);
        for (name, v) in [
            ("Socket", 0),
            ("Node", 0),
            ("Group", id / 64),
            ("Core", id % 64),
        ] {
            x.leaf(name, v);
        }
        x.leaf("EfficiencyClass", 0);
        x.leaf("Id", id % 64);
        figures(x, f);
        x.close("CPU");
    }
    let n = rows.len().max(1) as f64;
    let average: CpuFigures =
        std::array::from_fn(|k| rows.iter().map(|(_, f)| f[k]).sum::<f64>() / n);
    x.open("Average", &[]);
    figures(x, &average);
    x.close("Average");
    x.close("CpuUtilization");
}

/// The figures of a result that kept no CPU's own: the host's busy share, and dbio's user
/// and kernel time as a share of the CPUs it may use.
fn host_average(r: &RunResult) -> CpuFigures {
    let secs = r.measured_secs.max(1e-9);
    let allowed = f64::from(r.cpu.cpus_allowed.max(1));
    let usage = r.cpu.host_busy_pct;
    [
        usage,
        r.cpu.process_user_s / secs / allowed * 100.0,
        r.cpu.process_sys_s / secs / allowed * 100.0,
        (100.0 - usage).max(0.0),
    ]
}

/// The percentiles of DiskSpd's `Latency` buckets between 0 (min) and 100 (max): 1 to 99,
/// then the nines, as written and as a quantile.
fn percentiles() -> Vec<(String, f64)> {
    let mut v: Vec<(String, f64)> = (1..=99)
        .map(|p| (p.to_string(), f64::from(p) / 100.0))
        .collect();
    for (text, q) in [
        ("99.9", 0.999),
        ("99.99", 0.9999),
        ("99.999", 0.99999),
        ("99.9999", 0.999999),
        ("99.99999", 0.9999999),
        ("99.999999", 0.99999999),
        ("99.9999999", 0.999999999),
    ] {
        v.push((text.to_string(), q));
    }
    v
}

/// `Latency`: the run's mean and deviation per direction, and its percentile buckets.
fn latency(x: &mut Xml, r: &RunResult) {
    let total = merged(r);
    let dirs = [r.read.as_ref(), r.write.as_ref(), total.as_ref()].map(|d| d.filter(|d| d.ios > 0));
    let buckets = |d: Option<&DirStats>| d.map_or(0, |d| d.histogram.buckets.len()).to_string();
    x.open(
        "Latency",
        &[
            ("ReadHistoBuckets", buckets(dirs[0])),
            ("WriteHistoBuckets", buckets(dirs[1])),
            ("TotalHistoBuckets", buckets(dirs[2])),
        ],
    );
    let names = [
        ("AverageReadMilliseconds", "ReadLatencyStdev"),
        ("AverageWriteMilliseconds", "WriteLatencyStdev"),
        ("AverageTotalMilliseconds", "LatencyStdev"),
    ];
    for (d, (avg, dev)) in dirs.iter().zip(names) {
        if let Some(d) = d {
            x.leaf(avg, ms(d.latency_ns.mean));
            x.leaf(dev, ms(stdev_ns(d)));
        }
    }
    let hists = dirs.map(|d| d.map(|d| d.histogram.to_hdr()));
    let cells = ["ReadMilliseconds", "WriteMilliseconds", "TotalMilliseconds"];
    let bucket =
        |x: &mut Xml, percentile: &str, at: &dyn Fn(&hdrhistogram::Histogram<u64>) -> u64| {
            x.open("Bucket", &[]);
            x.leaf("Percentile", percentile);
            for (h, name) in hists.iter().zip(cells) {
                if let Some(h) = h {
                    x.leaf(name, ms(at(h) as f64));
                }
            }
            x.close("Bucket");
        };
    bucket(x, "0", &|h| h.min());
    for (text, q) in percentiles() {
        bucket(x, &text, &|h| h.value_at_quantile(q));
    }
    bucket(x, "100", &|h| h.max());
    x.close("Latency");
}

/// A `Thread` per worker thread, with a `Target` per target holding its counts and latency.
fn threads(x: &mut Xml, run: &Ran) {
    let rows = run.rows();
    for (i, row) in rows.iter().enumerate() {
        let first = i == 0 || rows[i - 1].thread != row.thread;
        if first {
            x.open("Thread", &[]);
            x.leaf("Id", row.thread);
        }
        thread_target(x, row);
        if rows.get(i + 1).is_none_or(|next| next.thread != row.thread) {
            x.close("Thread");
        }
    }
}

/// One thread's `Target`: its bytes, counts and latency on that target.
fn thread_target(x: &mut Xml, row: &TargetRow) {
    let total = row.total();
    x.open("Target", &[]);
    x.leaf("Path", &row.path);
    x.leaf("BytesCount", total.bytes);
    x.leaf("FileSize", row.file_size);
    x.leaf("IOCount", total.ios);
    x.leaf("ReadBytes", row.read.bytes);
    x.leaf("ReadCount", row.read.ios);
    x.leaf("WriteBytes", row.write.bytes);
    x.leaf("WriteCount", row.write.ios);
    let names = [
        (
            &row.read,
            "AverageReadLatencyMilliseconds",
            "ReadLatencyStdev",
        ),
        (
            &row.write,
            "AverageWriteLatencyMilliseconds",
            "WriteLatencyStdev",
        ),
        (&total, "AverageLatencyMilliseconds", "LatencyStdev"),
    ];
    for (d, avg, dev) in names.iter().filter(|(d, ..)| d.ios > 0) {
        let d: &ThreadDir = d;
        x.leaf(avg, ms(d.mean_ns));
        x.leaf(dev, ms(d.stdev_ns));
    }
    x.close("Target");
}

/// Nanoseconds as DiskSpd's milliseconds: three decimals.
fn ms(ns: f64) -> String {
    format!("{:.3}", ns / 1e6)
}

/// An XML document written as DiskSpd writes its own: two spaces of indent a level.
#[derive(Default)]
struct Xml {
    s: String,
    depth: usize,
}

impl Xml {
    fn indent(&mut self) {
        self.s.extend(std::iter::repeat_n(' ', self.depth * 2));
    }

    fn tag(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.s.push('<');
        self.s.push_str(name);
        for (k, v) in attrs {
            self.s.push_str(&format!(" {k}=\"{}\"", escape(v)));
        }
    }

    /// `<name a="v">` on a line of its own; what follows is inside it.
    fn open(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.indent();
        self.tag(name, attrs);
        self.s.push_str(">\n");
        self.depth += 1;
    }

    fn close(&mut self, name: &str) {
        self.depth -= 1;
        self.indent();
        self.s.push_str(&format!("</{name}>\n"));
    }

    /// `<name>value</name>`.
    fn leaf(&mut self, name: &str, value: impl Display) {
        self.text_with(name, &[], value);
    }

    /// `<name a="v">value</name>`.
    fn text_with(&mut self, name: &str, attrs: &[(&str, String)], value: impl Display) {
        self.indent();
        self.tag(name, attrs);
        self.s
            .push_str(&format!(">{}</{name}>\n", escape(&value.to_string())));
    }

    /// `<name a="v"/>`.
    fn empty(&mut self, name: &str, attrs: &[(&str, String)]) {
        self.indent();
        self.tag(name, attrs);
        self.s.push_str("/>\n");
    }

    fn comment(&mut self, text: &str) {
        self.indent();
        self.s
            .push_str(&format!("<!-- {} -->\n", text.replace("--", "- -")));
    }
}

/// Text or an attribute's value with XML's five special characters escaped.
fn escape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}
