//! fio jobs that run at the same time (no stonewall or wait_for between them) as one dbio
//! run of streams: each job's pattern, block sizes, depth, threads, region, rate, sync and
//! data on a stream of its own, named by the job, on a target role named after it. What a
//! stream cannot set alone (engine, page cache, how long, seed, arrivals, steady state) must
//! agree between the jobs, or is refused naming the option and the job.

use super::fio_opts::FioJob;
use super::{Job, RunFlags, StreamFlags, Translation};

/// The run-wide settings: fio's option, what dbio calls it, dbio's flags that hold it, and
/// what their absence means.
const SHARED: &[(&str, &str, &[&str], &str)] = &[
    ("ioengine", "engine", &["engine"], "io_uring"),
    ("direct", "use of the page cache", &["buffered"], "O_DIRECT"),
    ("invalidate", "page cache dropping", &["invalidate"], "none"),
    ("hipri", "completion polling", &["hipri"], "none"),
    (
        "rate_process",
        "spacing of paced I/Os",
        &["arrivals"],
        "uniform",
    ),
    ("randseed", "seed", &["seed"], "the default seed"),
    ("runtime", "length", &["duration", "ops", "bytes"], "none"),
    ("ramp_time", "ramp", &["ramp"], "none"),
    (
        "percentile_list",
        "percentile list",
        &["fio-percentiles"],
        "fio's default list",
    ),
    (
        "ss",
        "steady-state test",
        &["steady", "steady-window", "steady-max"],
        "none",
    ),
];

/// One run of `jobs` (their names and settings, in file order) with their flags `flags`.
pub fn group(t: &mut Translation, jobs: &[(String, FioJob)], mut flags: Vec<RunFlags>) -> Job {
    let names: Vec<&str> = jobs.iter().map(|(n, _)| n.as_str()).collect();
    let all = names
        .iter()
        .map(|n| format!("[{n}]"))
        .collect::<Vec<_>>()
        .join(" ");
    t.mapped(&all, "fio runs these jobs at the same time: one dbio run with a stream per job (--stream), each on the target role named after it, all in one measuring window");
    if let Some((i, n)) = names
        .iter()
        .enumerate()
        .find(|(i, n)| names[..*i].contains(n))
    {
        t.refuse(&format!("[{n}]"), format!("two jobs named {n} run at once (jobs {} and {}); dbio's streams are told apart by name: rename one", names.iter().position(|x| x == n).unwrap_or(0) + 1, i + 1));
    }
    let fio_group = reporting(t, jobs, &all);
    one_engine(t, &names, &mut flags);
    let mut differ: Vec<&str> = Vec::new();
    for (option, what, keys, absent) in SHARED {
        // Jobs that differ in direct differ in invalidate too (it is for buffered jobs).
        if *option == "invalidate" && differ.contains(&"direct") {
            continue;
        }
        let first = words(&flags[0], keys);
        if let Some(i) = (1..flags.len()).find(|&i| words(&flags[i], keys) != first) {
            differ.push(option);
            let (a, b) = (names[0], names[i]);
            t.refuse(&format!("[{b}] {option}"), format!(
                "fio runs [{a}] and [{b}] at once with a different {what} ({} and {}); a dbio run has one {what} for all its streams: give them the same {option}, or put stonewall in [{b}] to run it after",
                shown(&first, absent), shown(&words(&flags[i], keys), absent)
            ));
        }
    }
    shared_targets(t, &names, &flags);
    if flags.iter().any(|f| f.fio_log.is_some()) {
        t.refuse(&format!("{all} write_*_log"), "fio writes a log per job; dbio keeps one per-second series for a run of jobs at once, not one per job: put stonewall in the job with the log to run it on its own");
    }
    let run = flags[0].clone();
    Job {
        name: names.join("+"),
        flags: RunFlags {
            engine: run.engine,
            buffered: run.buffered,
            invalidate: run.invalidate,
            hipri: run.hipri,
            poisson: run.poisson,
            seed: run.seed,
            duration: run.duration,
            ramp: run.ramp,
            ops: run.ops,
            bytes: run.bytes,
            steady: run.steady,
            steady_window: run.steady_window,
            steady_max: run.steady_max,
            label: Some(names.join("+")),
            fio_percentiles: run.fio_percentiles,
            streams: streams(&names, flags),
            fio_group,
            ..RunFlags::default()
        },
    }
}

/// A stream per job, named by it, with the settings a stream has of its own.
fn streams(names: &[&str], flags: Vec<RunFlags>) -> Vec<StreamFlags> {
    names
        .iter()
        .zip(roles(names))
        .zip(flags)
        .map(|((name, role), f)| StreamFlags {
            name: name.to_string(),
            role,
            flags: RunFlags {
                rw: f.rw,
                mix: f.mix,
                bs: f.bs,
                align: f.align,
                qd: f.qd,
                threads: f.threads,
                size: f.size,
                offset: f.offset,
                range: f.range,
                skew: f.skew,
                sync: f.sync,
                rate: f.rate,
                data: f.data,
                targets: f.targets,
                ..RunFlags::default()
            },
        })
        .collect()
}

/// Whether fio reports the jobs as one group (group_reporting in every job; none: each on
/// its own). Some but not all, or new_group among them with group_reporting, is refused:
/// fio's JSON would then hold groups of some of the jobs, which dbio's does not.
fn reporting(t: &mut Translation, jobs: &[(String, FioJob)], all: &str) -> bool {
    let grouped = jobs.iter().filter(|(_, j)| j.group_reporting).count();
    if grouped > 0 && grouped < jobs.len() {
        t.refuse(&format!("{all} group_reporting"), "fio reports some of these jobs as a group and the others on their own; dbio's fio JSON has an entry per job or one for all: give group_reporting in [global], or in none of them");
    }
    for (name, _) in jobs.iter().skip(1).filter(|(_, j)| j.new_group) {
        if grouped > 0 {
            t.refuse(&format!("[{name}] new_group"), "fio reports the jobs from this one on as a second group while all run at once; dbio's fio JSON has one group per run: leave out new_group, or put stonewall in its place to run them after");
        } else {
            t.differs(&format!("[{name}] new_group"), "fio numbers this job's reporting group apart (groupid); dbio's fio JSON has one group per run, each job an entry of its own either way");
        }
    }
    grouped == jobs.len()
}

/// A psync job run beside io_uring ones gets io_uring at one I/O at a time, with a note: a
/// dbio run has one engine, and a synchronous engine keeps one I/O in flight.
fn one_engine(t: &mut Translation, names: &[&str], flags: &mut [RunFlags]) {
    let uring = flags.iter().any(|f| f.engine == Some("uring"));
    for (name, f) in names.iter().zip(flags.iter_mut()) {
        if uring && f.engine == Some("psync") {
            f.engine = Some("uring");
            t.differs(&format!("[{name}] ioengine"), "a dbio run has one engine, io_uring for the jobs beside this one: this job keeps one I/O at a time (--qd 1) through io_uring instead of pread/pwrite");
        }
    }
}

/// Says which jobs share a file or device: each stream opens it, as each fio job does, and
/// the run's checks give each its own region of it (the file made once, at the largest size).
fn shared_targets(t: &mut Translation, names: &[&str], flags: &[RunFlags]) {
    let mut said: Vec<&str> = Vec::new();
    for f in flags {
        for path in &f.targets {
            if said.contains(&path.as_str()) {
                continue;
            }
            let users: Vec<&str> = (0..flags.len())
                .filter(|&k| flags[k].targets.contains(path))
                .map(|k| names[k])
                .collect();
            if users.len() > 1 {
                said.push(path);
                let jobs: Vec<String> = users.iter().map(|n| format!("[{n}]")).collect();
                t.mapped(&format!("{} filename", jobs.join(" ")), format!("{} jobs use {path}; dbio opens it once per stream, as fio does: the file is made once, at the largest size they ask, each stream works on its own offset= and size= region of it, and their reads and writes may overlap as fio's do", if users.len() == 2 { "both".to_string() } else { format!("all {}", users.len()) }));
            }
        }
    }
}

/// The target role of each job: its name, with other characters than letters, digits, `-`
/// and `_` as `-`, `job-` before one that does not start with a letter, and `-2`, `-3`…
/// after one already taken.
fn roles(names: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for n in names {
        let mut r: String = n
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        if !r.starts_with(|c: char| c.is_ascii_alphabetic()) {
            r = format!("job-{r}");
        }
        let base = r.clone();
        let mut k = 2;
        while out.contains(&r) {
            r = format!("{base}-{k}");
            k += 1;
        }
        out.push(r);
    }
    out
}

/// The words of `f` for dbio's flags `keys` (`--engine uring`), in the order it gives them.
fn words(f: &RunFlags, keys: &[&str]) -> Vec<String> {
    let args = f.args();
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let takes_value = args.get(i + 1).is_some_and(|v| !v.starts_with("--"));
        let name = args[i].trim_start_matches("--");
        let n = if takes_value { 2 } else { 1 };
        if keys.contains(&name) {
            out.extend(args[i..i + n].iter().cloned());
        }
        i += n;
    }
    out
}

/// Flag words as shown in a message, or what their absence means.
fn shown(words: &[String], absent: &str) -> String {
    if words.is_empty() {
        absent.into()
    } else {
        words.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_are_role_names_and_unique() {
        assert_eq!(
            roles(&["data", "log file", "1st", "log-file"]),
            ["data", "log-file", "job-1st", "log-file-2"]
        );
    }

    #[test]
    fn words_are_the_flags_asked_for() {
        let f = RunFlags {
            engine: Some("uring"),
            duration: Some("60s".into()),
            buffered: true,
            ..RunFlags::default()
        };
        assert_eq!(words(&f, &["engine"]), ["--engine", "uring"]);
        assert_eq!(words(&f, &["buffered"]), ["--buffered"]);
        assert!(words(&f, &["ops", "bytes"]).is_empty());
    }
}
