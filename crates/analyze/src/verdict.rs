//! What limited a run, judged from what the run itself knows: its own CPU, the host's CPU,
//! the local PCIe link of the device (from sysfs), a simulated device's parameters, and
//! Little's law for its queue depth. No topology needed.

use crate::path::builtin;
use crate::slo::{latency, Dir};
use dbio_model::path::HopKind;
use dbio_model::{JobSpec, Outcome, RunResult, SimDevice, Verdict};

/// Busy share above which a CPU (a worker, the process, the host) is called the limit.
pub const BUSY: f64 = 90.0;
/// Measuring time under which start-up dominates the busy shares, so CPU is not judged.
pub const MIN_JUDGED_SECS: f64 = 1.0;
/// Share of a ceiling at or above which it is called the limit.
pub const AT_CEILING: f64 = 0.9;

fn v(limit: &str, message: String) -> Option<Verdict> {
    Some(Verdict {
        limit: limit.into(),
        message,
    })
}

/// The verdict on `r`; None for a run that did not complete or did no I/O. A merged result
/// is judged as a cluster: its hosts' outstanding I/Os added up, each host's device limits
/// its own, and the slowest host named.
pub fn verdict(r: &RunResult) -> Option<Verdict> {
    let fleet = Fleet::of(r);
    judge(r, &fleet).map(|v| fleet.named(v))
}

fn judge(r: &RunResult, fleet: &Fleet) -> Option<Verdict> {
    if r.outcome != Outcome::Complete || r.measured_secs <= 0.0 {
        return None;
    }
    let iops = r.total_iops();
    if iops <= 0.0 {
        return None;
    }
    let c = &r.cpu;
    let cpu_s = c.process_user_s + c.process_sys_s;
    let per_core = if cpu_s > 0.0 {
        iops * r.measured_secs / cpu_s
    } else {
        0.0
    };
    if r.engine.name == "null" {
        return v("no-io", format!(
            "no I/O was done (--engine null): {iops:.0} IOPS, {per_core:.0} per core of dbio's CPU, is what dbio itself issues, times and records; it bounds what any device can be shown to do here"
        ));
    }
    let long_enough = r.measured_secs >= MIN_JUDGED_SECS;
    if let Some(w) = c
        .workers
        .iter()
        .map(|w| w.busy_pct)
        .max_by(|a, b| a.total_cmp(b))
        .filter(|b| *b > BUSY && long_enough)
    {
        return v("load-generator", format!(
            "limited by the load generator: a worker thread was {w:.0} % busy ({per_core:.0} IOPS per core of dbio's CPU); add --threads, or use fewer outstanding I/Os per thread"
        ));
    }
    if c.cpus_allowed > 0 && long_enough {
        let share = cpu_s / (r.measured_secs * c.cpus_allowed as f64) * 100.0;
        if share > BUSY {
            return v("load-generator", format!(
                "limited by the load generator: dbio used {share:.0} % of the {} CPU(s) it may run on ({per_core:.0} IOPS per core); give it more CPUs (taskset, cgroup limits)",
                c.cpus_allowed
            ));
        }
    }
    if c.host_busy_pct > BUSY {
        return v("host-cpu", format!(
            "limited by the host's CPU: {:.0} % busy over the run, so the storage was not shown to be the limit",
            c.host_busy_pct
        ));
    }
    if let Some(l) = link_verdict(r) {
        return Some(l);
    }
    let lat_s = latency(r, Dir::All).mean() / 1e9;
    if let Some(rp) = r.replay.as_ref().filter(|rp| !rp.as_fast_as_possible) {
        let late = rp.on_time_pct < 90.0;
        return v(if late { "replay-late" } else { "replay" }, format!(
            "{} the trace's times at {}x: {:.1} % of the requests went within 100 µs of their captured time; each completed {:.0} µs after its scheduled time on average{}",
            if late { "did not keep" } else { "kept" },
            rp.speed,
            rp.on_time_pct,
            lat_s * 1e6,
            if late { ", mostly waiting behind the requests before it: the target could not take the captured load" } else { "" }
        ));
    }
    if let Some(each) = r.job.rate.map(|x| x as f64) {
        let rate = each * fleet.hosts;
        if r.warnings.iter().any(|w| w.code == "rate-not-kept") {
            return v("rate-not-kept", format!(
                "could not keep the asked rate: {iops:.0} of {rate:.0} IOPS{}, so I/Os waited behind their schedule, and their latency, counted from each scheduled start, is mostly that wait ({:.0} µs on average); lower --rate, or run without it (closed loop) to see what the storage sustains",
                fleet.each(each, "IOPS"),
                lat_s * 1e6
            ));
        }
        return v("rate", format!(
            "held at the asked rate: {iops:.0} of {rate:.0} IOPS{} (open loop); each I/O completed {:.0} µs after its scheduled start on average",
            fleet.each(each, "IOPS"),
            lat_s * 1e6
        ));
    }
    match &r.job.sim {
        Some(d) => sim_verdict(r, d, fleet, lat_s),
        None => queue_verdict(r, fleet, lat_s),
    }
}

/// The hosts a result's figures come from: one for a run, every host's for a merged
/// result, whose outstanding I/Os add up and whose devices each bring their own limits.
struct Fleet {
    /// How many hosts ran the job (1 for a run on one host).
    hosts: f64,
    /// I/Os outstanding at most, over every host.
    outstanding: f64,
    /// The slowest host and its IOPS below the hosts' mean, in percent (merged results).
    slowest: Option<(String, f64)>,
}

impl Fleet {
    fn of(r: &RunResult) -> Fleet {
        match r.cluster.as_ref().filter(|c| !c.hosts.is_empty()) {
            None => Fleet {
                hosts: 1.0,
                outstanding: outstanding(r),
                slowest: None,
            },
            Some(c) => Fleet {
                hosts: c.hosts.len() as f64,
                outstanding: c
                    .hosts
                    .iter()
                    .map(|h| h.outstanding.unwrap_or_else(|| outstanding(r)))
                    .sum(),
                slowest: (c.hosts.len() > 1)
                    .then(|| (c.spread.slowest.clone(), c.spread.slowest_below_mean_pct)),
            },
        }
    }

    /// " (X UNIT on each of N hosts)" for several hosts, else nothing.
    fn each(&self, x: f64, unit: &str) -> String {
        if self.hosts > 1.0 {
            format!(" ({x:.0} {unit} on each of {:.0} hosts)", self.hosts)
        } else {
            String::new()
        }
    }

    /// The verdict with the slowest host named, when several hosts ran.
    fn named(&self, mut v: Verdict) -> Verdict {
        if let Some((name, below)) = &self.slowest {
            v.message.push_str(&format!(
                "; the slowest host was {name}, {below:.1} % below the hosts' mean IOPS"
            ));
        }
        v
    }
}

/// A device's PCIe link at its ceiling: each host's busier direction held against its own
/// targets' links (a merged result's targets are named HOST:PATH).
fn link_verdict(r: &RunResult) -> Option<Verdict> {
    let busier = |rd: Option<f64>, wr: Option<f64>| rd.unwrap_or(0.0).max(wr.unwrap_or(0.0));
    let per_host: Vec<(String, f64)> = match &r.cluster {
        Some(c) => c
            .hosts
            .iter()
            .map(|h| {
                let mb = busier(
                    h.read.as_ref().map(|d| d.mb_s),
                    h.write.as_ref().map(|d| d.mb_s),
                );
                (format!("{}:", h.name), mb)
            })
            .collect(),
        None => vec![(
            String::new(),
            busier(
                r.read.as_ref().map(|d| d.mb_s),
                r.write.as_ref().map(|d| d.mb_s),
            ),
        )],
    };
    for (prefix, busier) in &per_host {
        for t in r
            .targets
            .iter()
            .filter(|t| t.path.starts_with(prefix.as_str()))
        {
            let (Some(gen), Some(lanes)) = (t.pcie_gen, t.pcie_lanes) else {
                continue;
            };
            let ceiling = builtin(&HopKind::Pcie {
                gen,
                lanes,
                tlp_efficiency: 1.0,
            });
            let bw = ceiling.bw.unwrap_or(f64::MAX) / 1e6;
            if *busier >= AT_CEILING * bw {
                let on = prefix
                    .strip_suffix(':')
                    .map_or(String::new(), |h| format!(" on {h}"));
                return v("local-link", format!(
                    "limited by the local link{on}: {busier:.0} MB/s is {:.0} % of {}'s PCIe Gen{gen} x{lanes} at {bw:.0} MB/s per direction",
                    busier / bw * 100.0,
                    t.device.as_deref().unwrap_or(&t.path)
                ));
            }
        }
    }
    None
}

/// The simulated device's limits, one device per host: its link, its channels, or the
/// queue depth that keeps it less than busy.
fn sim_verdict(r: &RunResult, d: &SimDevice, fleet: &Fleet, lat_s: f64) -> Option<Verdict> {
    let iops = r.total_iops();
    let outstanding = fleet.outstanding;
    let s_mean = (d.read_ns + d.write_ns) as f64 / 2.0 / 1e9;
    let several = fleet.hosts > 1.0;
    let n = fleet.hosts;
    let (devices, link, its, serve) = if several {
        (
            format!("the {n:.0} simulated devices (one per host)"),
            format!("the {n:.0} simulated devices' links (one per host)"),
            "their",
            format!("{n:.0} devices that serve"),
        )
    } else {
        (
            "the simulated device".to_string(),
            "the simulated device's link".to_string(),
            "its",
            "a device that serves".to_string(),
        )
    };
    if let Some(each) = d.bw_bytes_s.map(|b| b as f64 / 1e6) {
        let bw = each * n;
        let busier = r
            .read
            .as_ref()
            .map_or(0.0, |x| x.mb_s)
            .max(r.write.as_ref().map_or(0.0, |x| x.mb_s));
        if busier >= AT_CEILING * bw {
            return v(
                "device-bandwidth",
                format!(
                    "limited by {link}: {busier:.0} MB/s is {:.0} % of {its} {bw:.0} MB/s{}",
                    busier / bw * 100.0,
                    fleet.each(each, "MB/s")
                ),
            );
        }
    }
    let channels = d.channels as f64 * n;
    if outstanding >= channels {
        return v("device-parallelism", format!(
            "limited by {devices}: {outstanding:.0} outstanding I/Os keep {its} {channels:.0} channels busy{}; {iops:.0} IOPS is {:.0} % of channels / service time",
            fleet.each(d.channels as f64, "channels"),
            iops / (channels / s_mean) * 100.0
        ));
    }
    v("queue-depth", format!(
        "limited by the queue depth: {outstanding:.0} outstanding I/Os{} for {serve} {channels:.0} at once; {outstanding:.0} / {:.0} µs = {:.0} IOPS (Little's law): raise --qd or --threads",
        fleet.each(outstanding / n, "I/Os"),
        lat_s * 1e6,
        outstanding / lat_s.max(1e-12)
    ))
}

/// Little's law for a run no ceiling explains, with the device's request queue where it is
/// shorter than the I/Os sent to it.
fn queue_verdict(r: &RunResult, fleet: &Fleet, lat_s: f64) -> Option<Verdict> {
    let outstanding = fleet.outstanding;
    // The device's own queue (nr_requests) caps what reaches it at once.
    let queue = r
        .targets
        .iter()
        .filter_map(|t| t.nr_requests.map(|n| (n, t)))
        .find(|(n, _)| (*n as f64) < outstanding / r.targets.len().max(1) as f64)
        .map_or(String::new(), |(n, t)| {
            format!(
                "; {}'s request queue holds {n} (nr_requests), fewer than the I/Os sent to it",
                t.device.as_deref().unwrap_or(&t.path)
            )
        });
    v("queue-depth", format!(
        "held by the queue depth or the device: {outstanding:.0} outstanding I/Os{} at {:.0} µs each give {:.0} IOPS (Little's law), and nothing else was at its limit{queue}; sweep --vary qd to tell which",
        fleet.each(outstanding / fleet.hosts, "I/Os"),
        lat_s * 1e6,
        outstanding / lat_s.max(1e-12)
    ))
}

/// I/Os the run kept outstanding at most: queue depth × threads of every stream, where psync
/// does one I/O at a time per thread whatever --qd says.
pub fn outstanding(r: &RunResult) -> f64 {
    let psync = r.engine.name == "psync";
    let of = |j: &JobSpec| (if psync { 1 } else { j.qd } * j.threads) as f64;
    if r.streams.is_empty() {
        of(&r.job)
    } else {
        r.streams.iter().map(|s| of(&s.job)).sum()
    }
}
