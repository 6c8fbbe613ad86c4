//! fio's options (its HOWTO, "Job file parameters") one by one: each sets a field of the
//! job, or is noted as mapped with a difference, or refused with the reason.

use super::fio_ini::Opt;
use super::Translation;

/// One fio job's settings as far as dbio uses them (after [global] and its own section).
#[derive(Debug, Clone, Default)]
pub struct FioJob {
    pub rw: Option<String>,
    pub mixread: Option<u32>,
    pub bs: Option<String>,
    pub min_bs: Option<u64>,
    pub align: Option<u64>,
    pub iodepth: Option<u32>,
    pub numjobs: Option<u32>,
    pub direct: Option<bool>,
    pub engine: Option<&'static str>,
    pub sync_engine: bool,
    /// libaio or posixaio: asynchronous only with direct=1.
    pub linux_aio: bool,
    /// fio's invalidate (None: its default, 1).
    pub invalidate: Option<bool>,
    pub size: Option<u64>,
    pub filesize: Option<u64>,
    pub filenames: Vec<String>,
    pub directory: Option<String>,
    pub offset: Option<u64>,
    /// Each clone's offset moved on by this much (its own slice of the target).
    pub offset_increment: Option<u64>,
    pub runtime: Option<f64>,
    pub time_based: bool,
    pub ramp: Option<f64>,
    pub rate_iops: Option<u64>,
    pub rate_bytes: Option<u64>,
    pub poisson: bool,
    pub skew: Option<String>,
    pub sync: Option<String>,
    pub compress_pct: Option<u32>,
    pub dedupe_pct: Option<u32>,
    pub zeros: bool,
    pub pattern: Option<String>,
    pub steady: Option<String>,
    pub steady_dur: Option<f64>,
    pub steady_ramp: Option<f64>,
    pub stonewall: bool,
    /// wait_for: the job this one starts after.
    pub wait_for: Option<String>,
    /// new_group: a new reporting group, still run with the jobs before it.
    pub new_group: bool,
    pub group_reporting: bool,
    pub number_ios: Option<u64>,
    pub io_size: Option<u64>,
    pub loops: Option<u64>,
    pub seed: Option<u64>,
    pub norandommap: bool,
    pub hipri: bool,
    /// fio's output options: percentile_list and the log files (see `fio_out`).
    pub out: super::fio_out::FioOut,
}

/// A fio size (kb_base=1024, its default): `4k` and `4kB` are 4096, `4ki` and `4kiB` 4000.
pub fn size(v: &str) -> Option<u64> {
    let v = v.trim();
    if let Some(hex) = v.strip_prefix("0x") {
        return u64::from_str_radix(hex, 16).ok();
    }
    let split = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    let n: u64 = v[..split].parse().ok()?;
    let suffix = v[split..].to_ascii_lowercase();
    let suffix = suffix.strip_suffix('b').unwrap_or(&suffix);
    let (unit, decimal) = match suffix.strip_suffix('i') {
        Some(u) => (u, true),
        None => (suffix, false),
    };
    let power = ["", "k", "m", "g", "t", "p"]
        .iter()
        .position(|u| *u == unit)? as u32;
    let base: u64 = if decimal { 1000 } else { 1024 };
    n.checked_mul(base.checked_pow(power)?)
}

/// A fio time in seconds (seconds without a unit; d, h, m, s, ms/msec, us/usec).
pub fn time(v: &str) -> Option<f64> {
    let v = v.trim().to_ascii_lowercase();
    let split = v
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(v.len());
    let n: f64 = v[..split].parse().ok()?;
    let scale = match &v[split..] {
        "" | "s" | "sec" => 1.0,
        "ms" | "msec" => 1e-3,
        "us" | "usec" => 1e-6,
        "m" => 60.0,
        "h" => 3600.0,
        "d" => 86400.0,
        _ => return None,
    };
    Some(n * scale)
}

/// A fio boolean: a flag alone, 1/0, true/false.
fn boolean(v: Option<&str>) -> Option<bool> {
    match v.map(str::trim) {
        None | Some("1") | Some("true") => Some(true),
        Some("0") | Some("false") => Some(false),
        _ => None,
    }
}

/// Applies one option to `j`, noting what became of it in `t`.
pub fn apply(j: &mut FioJob, o: &Opt, t: &mut Translation) {
    let w = o.written.as_str();
    let v = o.value.as_deref();
    let handled = workload(j, o, t) || files(j, o, t) || timing(j, o, t) || data(j, o, t);
    let handled = handled || super::fio_out::apply(&mut j.out, o, t);
    if handled {
        return;
    }
    let bad = |t: &mut Translation, what: &str| {
        t.refuse(w, format!("'{}' is not {what}", v.unwrap_or("")))
    };
    match o.key.as_str() {
        "name" => t.mapped(w, "the job's name: --label"),
        "description" => t.differs(w, "dbio does not keep a description; the job's name is its --label"),
        "stonewall" | "wait_for_previous" => {
            j.stonewall = boolean(v).unwrap_or(true);
            t.mapped(w, "this job starts when the ones before it are done: a separate dbio run after them");
        }
        "new_group" => {
            j.new_group = boolean(v).unwrap_or(true);
            t.mapped(w, "a new reporting group; fio still runs the job with the ones before it (only stonewall waits)");
        }
        "group_reporting" => {
            j.group_reporting = boolean(v).unwrap_or(true);
            t.mapped(w, "with --json-format fio, the job's threads (numjobs) and the jobs run at once are one jobs[] entry (--json-format fio-group); dbio's own report has them together, always");
        }
        "wait_for" if v.is_some_and(|n| !n.trim().is_empty()) => {
            j.wait_for = v.map(|n| n.trim().to_string());
            t.mapped(w, "this job starts when that one is done: a separate dbio run after it");
        }
        "wait_for" => bad(t, "a job's name"),
        "thread" | "threads" => t.mapped(w, "dbio's workers are threads"),
        "randrepeat" | "allrandrepeat" if boolean(v) == Some(false) => t.differs(w, "fio then seeds from the clock; dbio keeps its fixed default seed (set randseed or --seed for another)"),
        "randrepeat" | "allrandrepeat" => t.mapped(w, "the same offsets on every run: dbio's fixed --seed"),
        "randseed" => match v.and_then(|x| x.parse().ok()) {
            Some(s) => {
                j.seed = Some(s);
                t.mapped(w, "--seed");
            }
            None => bad(t, "a seed"),
        },
        "norandommap" => {
            j.norandommap = true;
            t.mapped(w, "dbio draws random offsets with replacement, as fio with norandommap");
        }
        "random_generator" => t.differs(w, "dbio uses its own generator (xoshiro); the spread of offsets is the same"),
        "gtod_reduce" | "clat_percentiles" | "lat_percentiles" | "slat_percentiles" | "disable_lat" | "disable_clat" | "disable_slat" => {
            t.differs(w, "dbio times every I/O into HDR histograms and reports a fixed set of percentiles (the JSON holds the histogram)")
        }
        "write_hist_log" | "log_hist_msec" | "per_job_logs" | "log_offset" => {
            t.differs(w, "dbio writes no histogram logs; its JSON (--json) keeps each second's histogram, IOPS, MB/s and p99")
        }
        "iodepth_batch" | "iodepth_batch_submit" | "iodepth_batch_complete" | "iodepth_batch_complete_min" | "iodepth_batch_complete_max" | "iodepth_low" => {
            t.differs(w, "dbio submits and reaps in its own batches (README: How the numbers are made)")
        }
        "fixedbufs" | "registerfiles" => t.mapped(w, "dbio's io_uring engine registers its buffers and files"),
        "hipri" => {
            j.hipri = boolean(v).unwrap_or(true);
            t.mapped(w, "--hipri: polled completions");
        }
        "sqthread_poll" => t.refuse(w, "give dbio --sqpoll yourself: a kernel thread then polls the ring"),
        "ioscheduler" => t.differs(w, "dbio reports the device's I/O scheduler but does not change it"),
        "nice" | "prio" | "prioclass" | "cpus_allowed" | "cpumask" | "cpus_allowed_policy" | "numa_cpu_nodes" | "numa_mem_policy" => {
            t.differs(w, "dbio does not set priorities or pin threads; the scheduler places them")
        }
        "startdelay" if v.and_then(time) == Some(0.0) => t.mapped(w, "no start delay"),
        "startdelay" => t.refuse(w, "dbio starts every worker together; a job started later is a separate run"),
        "filename_format" => t.refuse(w, "fio names each job's files by this pattern ($jobname, $jobnum, $filenum); dbio needs them named: give filename= (a --target each)"),
        "thinktime" if v.and_then(time) == Some(0.0) => t.mapped(w, "no think time"),
        "thinktime" | "thinktime_blocks" | "thinktime_spin" | "thinktime_iotime" => {
            t.refuse(w, "dbio's queue-depth workers do not pause between I/Os; --rate paces I/O, --burst runs it in windows, and session mode has --think")
        }
        "verify" | "do_verify" if matches!(v, Some("0") | Some("none")) => t.mapped(w, "no verification"),
        "verify" | "do_verify" | "verify_pattern" | "verify_interval" | "verify_fatal" | "verify_backlog" | "verify_async" | "verify_state_save" => {
            t.refuse(w, "fio's verify options are not translated; dbio verifies writes its own way: add --verify to this command (every block written is stamped and read back after the run; --verify-journal FILE keeps what to check for dbio verify)")
        }
        "latency_target" | "latency_window" | "latency_percentile" | "latency_run" => {
            t.refuse(w, "fio's queue-depth search under a latency target is dbio sweep --vary qd=1..N --target-latency 'p99<T' (a command of its own)")
        }
        "flow" | "flow_id" | "flow_watermark" | "flow_sleep" => t.refuse(w, "dbio has no flow control between jobs"),
        "kb_base" if v == Some("1024") => t.mapped(w, "sizes are binary, as dbio's"),
        "kb_base" => t.refuse(w, "only kb_base=1024 (fio's default) is read; write sizes in binary units"),
        "unit_base" => t.differs(w, "dbio reports MB/s (10^6 bytes), MiB/s and IOPS; --json-format fio writes fio's units"),
        "exitall" | "exitall_on_error" | "exit_what" => t.differs(w, "each dbio run stops on its own; an I/O error ends it with the partial result kept"),
        "continue_on_error" => t.refuse(w, "dbio ends a run at its first I/O error (keeping the partial result)"),
        "unlink" | "unlink_each_loop" => t.differs(w, "dbio keeps the test file it made; remove it yourself"),
        "end_fsync" | "fsync_on_close" => t.differs(w, "dbio does not flush at the end of a run; only --sync's flushes are timed"),
        "create_on_open" | "allow_file_create" | "overwrite" | "fallocate" | "pre_read" | "create_serialize" | "create_fsync" | "create_only" => {
            t.differs(w, "dbio creates a missing file itself, filled with incompressible data before any read")
        }
        "lockmem" | "lockfile" | "file_service_type" | "openfiles" => t.differs(w, "no dbio counterpart; it does not change the I/O issued"),
        "io_submit_mode" if v == Some("offload") => t.differs(w, "dbio's open loop (--rate) already times each I/O from its scheduled start, as offload gives fio"),
        "io_submit_mode" => t.mapped(w, "dbio submits from the worker itself"),
        "ratemin" | "rate_min" | "rate_iops_min" | "ratecycle" => t.differs(w, "dbio does not stop a run that falls below a rate; a rate-not-kept warning says so"),
        "ss" | "steadystate" | "ss_dur" | "steadystate_duration" | "ss_ramp" | "steadystate_ramp_time" => steady(j, o, t),
        _ => t.refuse(w, "not a fio option dbio knows how to run (see fio's HOWTO); take it out or ask for it"),
    }
}

/// rw, mix, block sizes, depth, jobs, engine.
fn workload(j: &mut FioJob, o: &Opt, t: &mut Translation) -> bool {
    let w = o.written.as_str();
    let v = o.value.as_deref().unwrap_or("");
    match o.key.as_str() {
        "rw" | "readwrite" => rw(j, w, v, t),
        "rwmixread" | "rwmixwrite" => match v.parse::<u32>() {
            Ok(p) if p <= 100 => {
                j.mixread = Some(if o.key == "rwmixread" { p } else { 100 - p });
                t.mapped(w, "--mix (the read share)");
            }
            _ => t.refuse(w, format!("'{v}' is not a percentage")),
        },
        "bs" | "blocksize" => block_size(j, w, v, t),
        "bssplit" => bssplit(j, w, v, t),
        "bsrange" | "blocksize_range" => bsrange(j, w, v, t),
        "blockalign" | "ba" => match size(v.split(',').next().unwrap_or(v)) {
            Some(a) if a > 0 => {
                j.align = Some(a);
                t.mapped(w, "--align");
            }
            _ => t.refuse(w, format!("'{v}' is not an alignment")),
        },
        "iodepth" => match v.parse::<u32>() {
            Ok(d) if d > 0 => {
                j.iodepth = Some(d);
                t.mapped(w, "--qd");
            }
            _ => t.refuse(w, format!("'{v}' is not a queue depth")),
        },
        "numjobs" => match v.parse::<u32>() {
            Ok(n) if n > 0 => {
                j.numjobs = Some(n);
                t.mapped(
                    w,
                    "--threads: each of fio's job clones is a dbio worker thread",
                );
            }
            _ => t.refuse(w, format!("'{v}' is not a number of jobs")),
        },
        "ioengine" => engine(j, w, v, t),
        "random_distribution" => distribution(j, w, v, t),
        _ => return false,
    }
    true
}

fn rw(j: &mut FioJob, w: &str, v: &str, t: &mut Translation) {
    let (base, modifier) = match v.split_once(':') {
        Some((b, m)) => (b, Some(m)),
        None => (v, None),
    };
    if let Some(m) = modifier {
        return t.refuse(
            w,
            format!(
                "the ':{m}' modifier (holes, or several I/Os per offset) is not a dbio pattern"
            ),
        );
    }
    let ours = match base {
        "read" | "write" | "randread" | "randwrite" | "randrw" => base,
        "rw" | "readwrite" => "readwrite",
        "trim" | "randtrim" | "trimwrite" | "randtrimwrite" => {
            return t.refuse(w, "dbio does not issue trims (discards)")
        }
        _ => return t.refuse(w, format!("'{v}' is not an access pattern")),
    };
    j.rw = Some(ours.to_string());
    if ours == "readwrite" {
        t.mapped(w, "--rw readwrite: sequential reads and writes mixed by rwmixread (fio's default 50), each direction from the start of the region with its own cursor, as fio's");
    } else {
        t.mapped(w, format!("--rw {ours}"));
    }
}

fn block_size(j: &mut FioJob, w: &str, v: &str, t: &mut Translation) {
    let parts: Vec<&str> = v
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let sizes: Option<Vec<u64>> = parts.iter().map(|p| size(p)).collect();
    match sizes.as_deref() {
        Some(s) if s.contains(&0) => t.refuse(w, "a block size of 0 bytes moves nothing (fio refuses it too); give a size such as 8k"),
        Some([first, rest @ ..]) if rest.iter().all(|s| s == first) => {
            j.bs = Some(super::size(*first));
            j.min_bs = Some(*first);
            t.mapped(w, "--bs");
        }
        Some([_, ..]) => t.refuse(w, "different sizes for reads and writes are not a dbio setting; give one size, or a bssplit for both"),
        _ => t.refuse(w, format!("'{v}' is not a block size")),
    }
}

/// `4k/10:64k/50:32k/40`; sizes without a share split what is left equally (as fio).
fn bssplit(j: &mut FioJob, w: &str, v: &str, t: &mut Translation) {
    let dirs: Vec<&str> = v.split(',').collect();
    if dirs.len() > 1 && dirs.iter().any(|d| *d != dirs[0]) {
        return t.refuse(
            w,
            "a different split for reads and writes is not a dbio setting; give one split for both",
        );
    }
    let mut entries: Vec<(u64, Option<u32>)> = Vec::new();
    for part in dirs[0].split(':').filter(|p| !p.is_empty()) {
        let (s, p) = part.split_once('/').unwrap_or((part, ""));
        match (size(s), p.trim()) {
            (Some(s), "") if s > 0 => entries.push((s, None)),
            (Some(s), p) if s > 0 => match p.parse::<u32>() {
                Ok(p) => entries.push((s, Some(p))),
                Err(_) => return t.refuse(w, format!("'{part}' is not SIZE/PERCENT")),
            },
            _ => return t.refuse(w, format!("'{part}' is not SIZE/PERCENT")),
        }
    }
    let given: u32 = entries.iter().filter_map(|e| e.1).sum();
    let open = entries.iter().filter(|e| e.1.is_none()).count() as u32;
    if entries.is_empty() || given > 100 {
        return t.refuse(w, "the shares must add up to at most 100");
    }
    let share = (100 - given).checked_div(open).unwrap_or(0);
    let list: Vec<String> = entries
        .iter()
        .map(|(s, p)| (s, p.unwrap_or(share)))
        .filter(|(_, p)| *p > 0)
        .map(|(s, p)| format!("{}:{p}", super::size(*s)))
        .collect();
    j.min_bs = entries.iter().map(|e| e.0).min();
    j.bs = Some(list.join(","));
    t.mapped(
        w,
        "--bs SIZE:WEIGHT,… (weights are relative, as fio's shares)",
    );
}

/// `4k-16k`: every multiple of the smallest size in the range, equally likely.
fn bsrange(j: &mut FioJob, w: &str, v: &str, t: &mut Translation) {
    let first = v.split(',').next().unwrap_or(v);
    let Some((lo, hi)) = first
        .split_once(['-', ':'])
        .and_then(|(a, b)| Some((size(a)?, size(b)?)))
    else {
        return t.refuse(w, format!("'{v}' is not MIN-MAX"));
    };
    let (lo, hi) = (lo.min(hi), lo.max(hi));
    if lo == 0 || (hi - lo) / lo > 63 {
        return t.refuse(
            w,
            "dbio takes up to 64 block sizes; give a narrower range or a bssplit",
        );
    }
    let sizes: Vec<String> = (1..=hi / lo)
        .filter(|k| k * lo >= lo)
        .map(|k| super::size(k * lo))
        .collect();
    j.min_bs = Some(lo);
    if lo == hi {
        j.bs = Some(super::size(lo));
        return t.mapped(w, "--bs (one size)");
    }
    j.bs = Some(
        sizes
            .iter()
            .map(|s| format!("{s}:1"))
            .collect::<Vec<_>>()
            .join(","),
    );
    t.differs(w, "--bs with every multiple of the smallest size, equally weighted (fio draws sizes in the range, rounded to the smallest)");
}

/// random, zipf:θ, pareto:h, or two zones `zoned:IO/REGION:IO2/REGION2` filling the target.
fn distribution(j: &mut FioJob, w: &str, v: &str, t: &mut Translation) {
    let (kind, arg) = v.split_once(':').unwrap_or((v, ""));
    let num = arg.split(':').next().and_then(|x| x.parse::<f64>().ok());
    match (kind, num) {
        ("random", _) => t.mapped(w, "uniform offsets, dbio's default"),
        ("zipf", Some(th)) if th > 0.0 && th <= 10.0 => {
            j.skew = Some(format!("zipf:{arg}"));
            t.mapped(w, format!("--skew zipf:{arg}"));
        }
        ("pareto", Some(h)) if h > 0.0 && h < 1.0 => {
            j.skew = Some(format!("pareto:{arg}"));
            t.mapped(w, format!("--skew pareto:{arg} (as fio's pareto)"));
        }
        ("zoned", _) => {
            let zones: Vec<(u32, u32)> = arg
                .split(':')
                .filter_map(|z| z.split_once('/'))
                .filter_map(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                .collect();
            match zones.as_slice() {
                [(io, region), (io2, region2)]
                    if io + io2 == 100 && region + region2 == 100 && (1..100).contains(region) && *io >= 1 =>
                {
                    j.skew = Some(format!("hotspot:{io}/{region}"));
                    t.mapped(w, format!("--skew hotspot:{io}/{region}: {io} % of the I/Os to the first {region} % of the region"));
                }
                _ => t.refuse(w, "dbio's --skew hotspot:IO/REGION is two zones (a hot one at the start, the rest beyond it); give zoned:IO/REGION:(100-IO)/(100-REGION)"),
            }
        }
        _ => t.refuse(w, "dbio's spreads are uniform, zipf:θ (0 < θ ≤ 10), pareto:h (0 < h < 1) and two-zone hotspots; normal and zoned_abs are not"),
    }
}

fn engine(j: &mut FioJob, w: &str, v: &str, t: &mut Translation) {
    match v {
        "io_uring" => {
            j.engine = Some("uring");
            t.mapped(w, "--engine uring (dbio's default)");
        }
        "libaio" | "posixaio" | "windowsaio" | "solarisaio" => {
            j.engine = Some("uring");
            j.linux_aio = matches!(v, "libaio" | "posixaio");
            t.differs(w, "dbio's asynchronous engine is io_uring: the same queue depth, through another kernel interface");
        }
        "psync" | "sync" | "pvsync" | "pvsync2" | "vsync" => {
            j.engine = Some("psync");
            j.sync_engine = true;
            t.mapped(
                w,
                "--engine psync: one I/O at a time per thread (pread/pwrite)",
            );
        }
        "null" => {
            j.engine = Some("null");
            t.mapped(w, "--engine null: everything but the I/O");
        }
        _ => t.refuse(
            w,
            format!("dbio's engines are io_uring, psync and null; ioengine={v} has no counterpart"),
        ),
    }
}

/// filename, directory, size, offset.
fn files(j: &mut FioJob, o: &Opt, t: &mut Translation) -> bool {
    let w = o.written.as_str();
    let v = o.value.as_deref().unwrap_or("");
    match o.key.as_str() {
        "filename" => {
            j.filenames = split_files(v);
            t.mapped(w, "--target (one per file)");
        }
        "directory" if v.contains(':') => t.refuse(w, "several directories are not a dbio setting; give one"),
        "directory" => {
            j.directory = Some(v.trim_end_matches('/').to_string());
            t.mapped(w, "the folder of the test file");
        }
        "size" | "filesize" if v.ends_with('%') => t.refuse(w, "a share of the target is not a dbio setting; give a size"),
        "size" => match size(v) {
            Some(s) if s > 0 => {
                j.size = Some(s);
                t.mapped(w, "--size for a file, --range for a device");
            }
            _ => t.refuse(w, format!("'{v}' is not a size")),
        },
        "filesize" => match size(v) {
            Some(s) if s > 0 => {
                j.filesize = Some(s);
                t.mapped(w, "--size");
            }
            _ => t.refuse(w, format!("'{v}' is not a size (a range is not a dbio setting)")),
        },
        "offset" if v.ends_with('%') => t.refuse(w, "an offset as a share of the target is not a dbio setting; give a size"),
        "offset" => match size(v) {
            Some(s) => {
                j.offset = Some(s);
                t.mapped(w, "--offset");
            }
            None => t.refuse(w, format!("'{v}' is not an offset")),
        },
        "offset_increment" => match size(v) {
            Some(0) => t.mapped(w, "no increment"),
            Some(s) => {
                j.offset_increment = Some(s);
                t.mapped(w, "each clone's slice of the target: held against numjobs and size below");
            }
            None => t.refuse(w, format!("'{v}' is not a size")),
        },
        "nrfiles" if v == "1" => t.mapped(w, "one file per job"),
        "nrfiles" => t.refuse(w, "several files per job clone: give them in filename=a:b instead (dbio spreads I/O over its targets)"),
        "direct" => match boolean(o.value.as_deref()) {
            Some(d) => {
                j.direct = Some(d);
                t.mapped(w, if d { "O_DIRECT, dbio's default" } else { "the page cache: --buffered" });
            }
            None => t.refuse(w, format!("'{v}' is not 0 or 1")),
        },
        "buffered" => match boolean(o.value.as_deref()) {
            Some(b) => {
                j.direct = Some(!b);
                t.mapped(w, if b { "the page cache: --buffered" } else { "O_DIRECT, dbio's default" });
            }
            None => t.refuse(w, format!("'{v}' is not 0 or 1")),
        },
        "invalidate" => match boolean(o.value.as_deref()) {
            Some(i) => {
                j.invalidate = Some(i);
                t.mapped(w, if i { "a buffered job's file is dropped from the page cache first: --invalidate" } else { "the page cache is kept as it is" });
            }
            None => t.refuse(w, format!("'{v}' is not 0 or 1")),
        },
        _ => return false,
    }
    true
}

/// `a:b` with `\:` for a colon in a name.
fn split_files(v: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = v.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&':') => {
                out.last_mut().unwrap().push(chars.next().unwrap())
            }
            ':' => out.push(String::new()),
            _ => out.last_mut().unwrap().push(c),
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

/// runtime, time_based, ramp_time, rates, counts.
fn timing(j: &mut FioJob, o: &Opt, t: &mut Translation) -> bool {
    let w = o.written.as_str();
    let v = o.value.as_deref().unwrap_or("");
    let count = |t: &mut Translation, slot: &mut Option<u64>, what: &str| match v
        .parse::<u64>()
        .ok()
        .or_else(|| size(v))
    {
        Some(n) if n > 0 => {
            *slot = Some(n);
            t.mapped(w, what.to_string());
        }
        _ => t.refuse(w, format!("'{v}' is not a count")),
    };
    match o.key.as_str() {
        "runtime" | "timeout" => match time(v) {
            Some(s) if s > 0.0 => {
                j.runtime = Some(s);
                t.mapped(w, "--duration");
            }
            _ => t.refuse(w, format!("'{v}' is not a time")),
        },
        "time_based" => {
            j.time_based = boolean(o.value.as_deref()).unwrap_or(true);
            t.mapped(
                w,
                "run for the whole runtime: dbio's --duration always does",
            );
        }
        "ramp_time" => match time(v) {
            Some(s) => {
                j.ramp = Some(s);
                t.mapped(w, "--ramp: I/O before measuring, not counted");
            }
            None => t.refuse(w, format!("'{v}' is not a time")),
        },
        "rate_iops" => {
            let parts: Vec<&str> = v.split(',').filter(|p| !p.is_empty()).collect();
            match parts.iter().map(|p| p.parse::<u64>().ok()).collect::<Option<Vec<u64>>>().as_deref() {
                Some([r, rest @ ..]) if *r > 0 && rest.iter().all(|x| x == r) => {
                    j.rate_iops = Some(*r);
                    t.differs(w, "fio's rate is per job clone; dbio's --rate is for the whole run: rate_iops x numjobs (open loop, latency from each I/O's scheduled start)");
                }
                _ => t.refuse(w, "one rate for reads and writes together is dbio's --rate; separate rates are not"),
            }
        }
        "rate" => match size(v.split(',').next().unwrap_or(v)) {
            Some(b) if b > 0 && !v.contains(',') => {
                j.rate_bytes = Some(b);
                t.differs(w, "bytes per second become --rate in IOPS (rate / block size, x numjobs); dbio paces I/Os, not bytes");
            }
            _ => t.refuse(
                w,
                "one rate for reads and writes together is dbio's --rate; separate rates are not",
            ),
        },
        "rate_process" if v == "poisson" => {
            j.poisson = true;
            t.mapped(w, "--arrivals poisson");
        }
        "rate_process" if v == "linear" => t.mapped(w, "evenly spaced I/Os, dbio's default"),
        "rate_process" => t.refuse(
            w,
            format!("'{v}' is not a rate process (linear or poisson)"),
        ),
        "number_ios" => count(
            t,
            &mut j.number_ios,
            "--ops (x numjobs: dbio counts the whole run)",
        ),
        "io_size" | "io_limit" => match size(v) {
            Some(b) if b > 0 => {
                j.io_size = Some(b);
                t.mapped(w, "--bytes (x numjobs: dbio counts the whole run)");
            }
            _ => t.refuse(w, format!("'{v}' is not a size")),
        },
        "loops" => count(t, &mut j.loops, "--bytes: the region this many times"),
        _ => return false,
    }
    true
}

/// Sync modes and the data written.
fn data(j: &mut FioJob, o: &Opt, t: &mut Translation) -> bool {
    let w = o.written.as_str();
    let v = o.value.as_deref().unwrap_or("");
    let every = |t: &mut Translation, j: &mut FioJob, mode: &str| match v.parse::<u32>() {
        Ok(0) => t.mapped(w, "no flushes"),
        Ok(n) => {
            j.sync = Some(format!("{mode}:{n}"));
            t.mapped(w, format!("--sync {mode}:{n}: the flush is part of the write's latency and reported on its own"));
        }
        Err(_) => t.refuse(w, format!("'{v}' is not a number of writes")),
    };
    match o.key.as_str() {
        "fsync" => every(t, j, "fsync"),
        "fdatasync" => every(t, j, "fdatasync"),
        "sync" => match v {
            "" | "1" | "sync" => {
                j.sync = Some("dsync".into());
                t.differs(w, "O_SYNC becomes --sync dsync (O_DSYNC): the data is as durable; file metadata such as times is not flushed with each write");
            }
            "dsync" => {
                j.sync = Some("dsync".into());
                t.mapped(w, "--sync dsync (O_DSYNC)");
            }
            "0" | "none" => t.mapped(w, "no synchronous writes"),
            _ => t.refuse(w, format!("'{v}' is not a sync mode (none, sync, dsync)")),
        },
        "buffer_compress_percentage" => percent(t, w, v, &mut j.compress_pct),
        "dedupe_percentage" => percent(t, w, v, &mut j.dedupe_pct),
        "buffer_compress_chunk" | "dedupe_mode" | "dedupe_working_set_percentage" | "dedupe_global" => {
            t.differs(w, "dbio lays out compressible data in 4 KiB chunks and dedupes against its recent units (README: --data)")
        }
        "refill_buffers" | "scramble_buffers" => t.mapped(w, "dbio writes fresh data every write: every 4 KiB block unique"),
        "zero_buffers" => {
            j.zeros = true;
            t.mapped(w, "--data zeros");
        }
        "buffer_pattern" if v.starts_with("0x") && v.len() > 2 && v[2..].chars().all(|c| c.is_ascii_hexdigit()) => {
            j.pattern = Some(v.to_string());
            t.mapped(w, "--data pattern:…");
        }
        "buffer_pattern" => t.refuse(w, "only a hex pattern (0x…) is a dbio --data pattern"),
        _ => return false,
    }
    true
}

fn percent(t: &mut Translation, w: &str, v: &str, slot: &mut Option<u32>) {
    match v.parse::<u32>() {
        Ok(p) if p < 100 => {
            *slot = Some(p);
            t.differs(w, "--data dedupe:R,compress:C with R or C = 100 / (100 - percent); dbio's ratio holds for LZ4 and zstd, fio fills that share of each buffer with zeros");
        }
        _ => t.refuse(w, format!("'{v}' is not a percentage below 100")),
    }
}

/// ss=iops:10% and friends: dbio waits for the criterion, then measures.
fn steady(j: &mut FioJob, o: &Opt, t: &mut Translation) {
    let w = o.written.as_str();
    let v = o.value.as_deref().unwrap_or("");
    match o.key.as_str() {
        "ss" | "steadystate" => {
            let ok = v.split_once(':').is_some_and(|(m, x)| {
                matches!(m, "iops" | "iops_slope" | "bw" | "bw_slope")
                    && x.ends_with('%')
                    && x[..x.len() - 1].parse::<f64>().is_ok()
            });
            if ok {
                j.steady = Some(v.to_string());
                t.differs(w, "--steady: fio ends the job once steady; dbio waits until steady, then measures for the duration (settling capped by the runtime)");
            } else {
                t.refuse(w, "dbio's --steady takes iops:X%, iops_slope:X%, bw:X% or bw_slope:X% (a share of the mean, not an absolute figure)");
            }
        }
        "ss_dur" | "steadystate_duration" => match time(v) {
            Some(s) if s >= 1.0 => {
                j.steady_dur = Some(s);
                t.mapped(w, "--steady-window");
            }
            _ => t.refuse(w, format!("'{v}' is not a window of a second or more")),
        },
        _ => match time(v) {
            Some(s) => {
                j.steady_ramp = Some(s);
                t.differs(w, "--ramp (unless ramp_time is set): dbio judges steadiness only after the ramp, and does not count the ramp's I/O");
            }
            None => t.refuse(w, format!("'{v}' is not a time")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fio_units() {
        assert_eq!(size("4k"), Some(4096));
        assert_eq!(size("4KB"), Some(4096));
        assert_eq!(size("4kiB"), Some(4000));
        assert_eq!(size("10G"), Some(10 << 30));
        assert_eq!(size("1mi"), Some(1_000_000));
        assert_eq!(size("0x1000"), Some(4096));
        assert_eq!(size("512"), Some(512));
        assert_eq!(size("4q"), None);
        assert_eq!(time("900"), Some(900.0));
        assert_eq!(time("5m"), Some(300.0));
        assert_eq!(time("250ms"), Some(0.25));
    }

    #[test]
    fn files_split_on_unescaped_colons() {
        assert_eq!(split_files("/dev/sda:/dev/sdb"), ["/dev/sda", "/dev/sdb"]);
        assert_eq!(split_files("a\\:b"), ["a:b"]);
    }
}
