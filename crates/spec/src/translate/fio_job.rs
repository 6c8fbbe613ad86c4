//! fio's words in dbio's: its command line's jobs, then its job files' (as fio reads them);
//! `[global]` options under each job's own, and one `dbio run` per set of jobs fio runs at
//! the same time: a job alone is a run of its own, several are one run of streams
//! (`fio_group`). `stonewall`, `wait_for` (and each further job file) start the next run.

use super::fio_cmdline;
use super::fio_group::group;
use super::fio_ini::{parse_files, World};
use super::fio_opts::{apply, FioJob};
use super::{secs, Job, RunFlags, Translation};
use crate::error::SpecError;

/// Translates fio's words (see `fio_cmdline`): the command line's jobs, then those of the job
/// files among the words, in order; an unreadable or malformed file is an error.
pub fn translate(words: &[String], w: &World) -> Result<Translation, SpecError> {
    let line = fio_cmdline::read(words)?;
    let mut sections = line.sections.clone();
    sections.extend(parse_files(&line.files, w)?);
    let mut t = Translation::default();
    let mut global = FioJob::default();
    let mut jobs: Vec<(String, FioJob)> = Vec::new();
    for s in &sections {
        if s.name == "global" {
            s.opts.iter().for_each(|o| apply(&mut global, o, &mut t));
            continue;
        }
        let mut j = global.clone();
        j.stonewall |= s.file_stonewall;
        s.opts.iter().for_each(|o| apply(&mut j, o, &mut t));
        jobs.push((s.name.clone(), j));
    }
    if jobs.is_empty() && line.files.is_empty() {
        return Err("fio's command line has no job: --name=NAME starts one (options before the first --name are global, as in fio)".into());
    }
    if jobs.is_empty() {
        return Err(format!(
            "{}: no job section; a job file needs a [name] section besides [global]",
            line.files.join(", ")
        )
        .into());
    }
    let mut step: Vec<(String, FioJob)> = Vec::new();
    let mut done: Vec<String> = Vec::new();
    for (name, j) in jobs {
        if starts_run(&mut t, &name, &j, &step, &done) && !step.is_empty() {
            run(&mut t, w, &step);
            done.extend(step.drain(..).map(|(n, _)| n));
        }
        step.push((name, j));
    }
    run(&mut t, w, &step);
    line.own_flags(&mut t);
    dedupe(&mut t);
    Ok(t)
}

/// Whether job `name` waits for the jobs before it (`step`, running at once; `done`, in runs
/// before): stonewall, or wait_for one of `step`. A wait_for of no earlier job is refused.
fn starts_run(
    t: &mut Translation,
    name: &str,
    j: &FioJob,
    step: &[(String, FioJob)],
    done: &[String],
) -> bool {
    if j.stonewall {
        return true;
    }
    let Some(wait) = &j.wait_for else {
        return false;
    };
    let key = format!("[{name}] wait_for={wait}");
    if step.iter().any(|(n, _)| n == wait) {
        if step.len() > 1 {
            t.differs(&key, format!("fio starts [{name}] once [{wait}] is done, while the others before it may still run; dbio starts it after all of them (a new run)"));
        }
        return true;
    }
    if !done.contains(wait) {
        t.refuse(&key, format!("no job [{wait}] before this one; fio waits only for a job defined earlier in the file"));
    }
    false
}

/// The run of jobs fio starts together: a job alone, or several as one run of streams.
fn run(t: &mut Translation, w: &World, step: &[(String, FioJob)]) {
    let flags: Vec<RunFlags> = step.iter().map(|(n, j)| flags(t, w, n, j)).collect();
    match (step, flags.as_slice()) {
        ([(name, j)], [f]) => t.jobs.push(Job {
            name: name.clone(),
            flags: RunFlags {
                fio_group: j.group_reporting,
                ..f.clone()
            },
        }),
        _ => {
            let job = group(t, step, flags);
            t.jobs.push(job);
        }
    }
}

/// Keeps the first of identical notes ([global] options seen by every job).
fn dedupe(t: &mut Translation) {
    let mut seen = std::collections::HashSet::new();
    t.notes
        .retain(|n| seen.insert((n.option.clone(), n.fate, n.text.clone())));
}

/// The dbio flags of one job, with the notes on fio's defaults and on differences.
fn flags(t: &mut Translation, w: &World, name: &str, j: &FioJob) -> RunFlags {
    let rw = j.rw.clone().unwrap_or_else(|| {
        t.mapped("rw (fio's default: read)", "--rw read");
        "read".into()
    });
    let threads = j.numjobs.unwrap_or(1);
    let mut f = RunFlags {
        rw: Some(match rw.as_str() {
            "write" => "write",
            "randread" => "randread",
            "randwrite" => "randwrite",
            "randrw" => "randrw",
            "readwrite" => "readwrite",
            _ => "read",
        }),
        mix: matches!(rw.as_str(), "randrw" | "readwrite").then(|| j.mixread.unwrap_or(50)),
        bs: Some(j.bs.clone().unwrap_or_else(|| "4k".into())),
        align: j.align,
        threads: Some(threads),
        engine: Some(j.engine.unwrap_or("psync")),
        seed: j.seed,
        poisson: j.poisson,
        skew: j.skew.clone(),
        sync: j.sync.clone(),
        hipri: j.hipri,
        label: Some(name.to_string()),
        ..RunFlags::default()
    };
    if j.engine.is_none() {
        t.mapped(
            "ioengine (fio's default: psync)",
            "--engine psync: one I/O at a time per thread",
        );
    }
    f.qd = Some(if j.sync_engine || j.engine.is_none() {
        if j.iodepth.unwrap_or(1) > 1 {
            t.differs(
                &format!("[{name}] iodepth with a synchronous engine"),
                "fio's synchronous engines keep one I/O in flight whatever iodepth says: --qd 1",
            );
        }
        1
    } else if j.linux_aio && j.direct != Some(true) && j.iodepth.unwrap_or(1) > 1 {
        t.differs(
            &format!("[{name}] iodepth with libaio or posixaio without direct=1"),
            "through the page cache fio's libaio and posixaio complete each I/O before the next is submitted: one in flight whatever iodepth says, --qd 1",
        );
        1
    } else {
        j.iodepth.unwrap_or(1)
    });
    if j.direct != Some(true) {
        f.buffered = true;
        if j.direct.is_none() {
            t.mapped(
                "direct (fio's default: 0)",
                "fio goes through the page cache unless direct=1: --buffered",
            );
        }
        f.invalidate = j.invalidate != Some(false);
        if j.invalidate.is_none() {
            t.mapped(
                "invalidate (fio's default: 1)",
                "fio drops a buffered job's file from the page cache before it starts and each time it wraps round the file: --invalidate",
            );
        }
    }
    if rw.starts_with("rand") && !j.norandommap {
        t.differs("random map (fio's default)", "fio touches every block once per pass over the region; dbio draws offsets with replacement (as fio with norandommap)");
    }
    let sliced = slices(t, name, j, &rw, threads);
    if !rw.starts_with("rand") && threads > 1 && !sliced {
        t.differs(&format!("[{name}] numjobs with sequential I/O"), "fio's clones all start at the same offset (overlapping); dbio gives each thread its own slice of the region");
    }
    // Clones side by side: the region is all their slices.
    let span = j
        .size
        .map(|s| if sliced { s * u64::from(threads) } else { s });
    region(t, name, j, span, &mut f);
    super::fio_out::set(&j.out, name, &mut f, t);
    amount(t, w, name, j, &mut f);
    rate(t, name, j, &mut f);
    data(t, name, j, &mut f);
    f
}

/// fio's offset_increment: true when a sequential job's clones each walk their own slice of
/// `size`, side by side, as dbio's sequential threads do; any other increment is refused.
fn slices(t: &mut Translation, name: &str, j: &FioJob, rw: &str, threads: u32) -> bool {
    let Some(inc) = j.offset_increment else {
        return false;
    };
    let key = format!("[{name}] offset_increment");
    if threads < 2 {
        t.mapped(&key, "one clone: nothing to move on");
        false
    } else if rw.starts_with("rand") {
        t.refuse(&key, "random clones each in their own slice are not a dbio setting: dbio's random threads share the region");
        false
    } else if j.size != Some(inc) {
        t.refuse(&key, "an increment other than the job's size (slices that overlap or leave gaps) is not a dbio setting: dbio's sequential threads walk equal slices side by side");
        false
    } else {
        t.mapped(&key, "each clone's own slice of size, side by side: dbio's sequential threads walk theirs (a region of numjobs x size)");
        true
    }
}

/// Targets, file size and the region used; `span` is the region's length (fio's size, or
/// all the clones' slices).
fn region(t: &mut Translation, name: &str, j: &FioJob, span: Option<u64>, f: &mut RunFlags) {
    f.targets = if j.filenames.is_empty() {
        let file = match &j.directory {
            Some(d) => format!("{d}/{name}"),
            None => name.to_string(),
        };
        t.differs(
            &format!("[{name}] file"),
            format!(
                "fio makes a file per clone ({name}.0.0, …); dbio's threads share one file, {file}"
            ),
        );
        vec![file]
    } else {
        j.filenames
            .iter()
            .map(|n| match (&j.directory, n.starts_with('/')) {
                (Some(d), false) => format!("{d}/{n}"),
                _ => n.clone(),
            })
            .collect()
    };
    let devices = f.targets.iter().all(|p| p.starts_with("/dev/"));
    f.offset = j.offset.filter(|&o| o > 0);
    match (span, devices) {
        (Some(s), true) => f.range = Some(s),
        (Some(s), false) => {
            f.size = Some(j.filesize.unwrap_or(s + j.offset.unwrap_or(0)));
            f.range = (j.offset.unwrap_or(0) > 0 || j.filesize.is_some()).then_some(s);
        }
        (None, _) => f.size = j.filesize,
    }
}

/// How long, or how much: runtime, time_based, number_ios, io_size, size, or one pass.
fn amount(t: &mut Translation, w: &World, name: &str, j: &FioJob, f: &mut RunFlags) {
    let clones = u64::from(f.threads.unwrap_or(1));
    f.ramp = j.ramp.or(j.steady_ramp).map(secs);
    if let Some(s) = &j.steady {
        f.steady = Some(s.clone());
        f.steady_window = j.steady_dur.map(secs);
        f.steady_max = j.runtime.map(secs);
    }
    match (j.runtime, j.number_ios, j.io_size) {
        (Some(r), _, _) => {
            f.duration = Some(secs(r));
            if !j.time_based && j.size.is_some() {
                t.differs(&format!("[{name}] runtime without time_based"), "fio stops early if the whole size is done first; dbio measures the whole --duration");
            }
        }
        (None, Some(n), _) => f.ops = times(t, &format!("[{name}] number_ios"), n, clones),
        (None, None, Some(b)) => f.bytes = times(t, &format!("[{name}] io_size"), b, clones),
        (None, None, None) => match j.size {
            Some(s) => {
                let key = format!("[{name}] size");
                f.bytes =
                    times(t, &key, s, clones).and_then(|b| times(t, &key, b, j.loops.unwrap_or(1)));
                t.mapped(
                    &format!("[{name}] size without runtime"),
                    "fio moves size bytes per clone: --bytes size x numjobs",
                );
            }
            None => one_pass(t, w, name, j, f),
        },
    }
}

/// Neither runtime nor size: fio goes once over each target from the offset to its end
/// (per clone), which dbio does as --bytes of that many; a target of no size is refused.
fn one_pass(t: &mut Translation, w: &World, name: &str, j: &FioJob, f: &mut RunFlags) {
    let key = format!("[{name}] no runtime and no size");
    let offset = j.offset.unwrap_or(0);
    let mut total = 0u64;
    for path in &f.targets {
        // A filesize is the size of the file fio makes or uses.
        match j.filesize.map_or_else(|| (w.size)(path), Ok) {
            Ok(b) if b > offset => total = total.saturating_add(b - offset),
            Ok(b) => return t.refuse(&key, format!("fio goes once over the target from offset {offset}, and {path} is {b} bytes; give size= or runtime=")),
            Err(why) => return t.refuse(&key, format!("fio goes once over the whole of an existing target, and {why}; give size= (fio asks for it too, to make a file) or runtime=")),
        }
    }
    let clones = u64::from(f.threads.unwrap_or(1));
    f.bytes = times(t, &key, total, clones);
    if let Some(b) = f.bytes {
        t.mapped(
            &key,
            format!(
                "fio goes once over the whole of {} ({total} bytes) in each clone: --bytes {}",
                f.targets.join(", "),
                super::size(b)
            ),
        );
    }
}

/// `v` for each of `clones` clones, in all; past u64 it is refused by `key`.
fn times(t: &mut Translation, key: &str, v: u64, clones: u64) -> Option<u64> {
    let all = v.checked_mul(clones);
    if all.is_none() {
        t.refuse(
            key,
            format!("{v} for each of {clones} clones is more than dbio can count"),
        );
    }
    all
}

/// rate_iops and rate, per clone in fio, for the whole run in dbio.
fn rate(t: &mut Translation, name: &str, j: &FioJob, f: &mut RunFlags) {
    let clones = u64::from(f.threads.unwrap_or(1));
    if let Some(r) = j.rate_iops {
        f.rate = times(t, &format!("[{name}] rate_iops"), r, clones);
    } else if let Some(b) = j.rate_bytes {
        match j.bs.as_deref().map(|s| s.contains(',')) {
            Some(true) => t.refuse(
                &format!("[{name}] rate"),
                "a rate in bytes with several block sizes has no one IOPS figure; give rate_iops",
            ),
            _ => {
                let bs = j.min_bs.unwrap_or(4096);
                f.rate = times(t, &format!("[{name}] rate"), b, clones).map(|b| (b / bs).max(1));
            }
        }
    }
}

/// The data written: zeros, a pattern, or a dedupe and compression ratio.
fn data(t: &mut Translation, name: &str, j: &FioJob, f: &mut RunFlags) {
    if j.zeros {
        f.data = Some("zeros".into());
        return;
    }
    if let Some(p) = &j.pattern {
        f.data = Some(format!("pattern:{p}"));
        return;
    }
    if j.compress_pct.is_none() && j.dedupe_pct.is_none() {
        return;
    }
    let ratio = |p: u32| {
        let r = 100.0 / (100.0 - p as f64);
        let s = format!("{r:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let unit = j.min_bs.unwrap_or(4096);
    if !unit.is_power_of_two() || !(4096..=131072).contains(&unit) {
        return t.refuse(&format!("[{name}] dedupe/compression"), "dbio makes reducible data in units of 4k to 128k (a power of two) that every block size is a multiple of; use such a bs");
    }
    let mut parts = Vec::new();
    if let Some(d) = j.dedupe_pct.filter(|&d| d > 0) {
        parts.push(format!("dedupe:{}", ratio(d)));
    }
    if let Some(c) = j.compress_pct.filter(|&c| c > 0) {
        parts.push(format!("compress:{}", ratio(c)));
    }
    if !parts.is_empty() {
        parts.push(format!("unit:{}", super::size(unit)));
        f.data = Some(parts.join(","));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::Fate;

    fn one(text: &str) -> Translation {
        let read = |_: &str| Ok(text.to_string());
        let env = |_: &str| None;
        translate(
            &["j.fio".into()],
            &World {
                read: &read,
                env: &env,
                size: &|p| Err(format!("{p} does not exist")),
            },
        )
        .unwrap()
    }

    /// Two jobs of 4k reads on files a and b, with `global` in [global] and `b` in [b].
    fn two(global: &str, b: &str) -> Translation {
        one(&format!(
            "[global]\nrw=read\nsize=1m\n{global}\n[a]\nfilename=a\n[b]\nfilename=b\n{b}\n"
        ))
    }

    fn refused(t: &Translation) -> Vec<&str> {
        t.refusals().iter().map(|n| n.option.as_str()).collect()
    }

    /// From fio's HOWTO: stonewall and wait_for make a job wait for the ones before it;
    /// new_group only starts a reporting group, and group_reporting reports a group as one.
    #[test]
    fn what_waits_starts_a_run_and_reporting_groups_are_kept() {
        let at_once = two("", "");
        assert_eq!(at_once.jobs.len(), 1);
        let streams = &at_once.jobs[0].flags.streams;
        let names: Vec<&str> = streams.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert!(!at_once.jobs[0].flags.fio_group);
        for wait in ["stonewall", "wait_for=a", "wait_for_previous"] {
            let t = two("", wait);
            assert_eq!(t.jobs.len(), 2, "{wait}");
            assert!(t.jobs.iter().all(|j| j.flags.streams.is_empty()), "{wait}");
        }
        assert_eq!(refused(&two("", "wait_for=c")), ["[b] wait_for=c"]);
        assert_eq!(
            two("", "wait_for=c").jobs.len(),
            1,
            "a wait for no job waits for nothing"
        );
        let t = two("", "new_group");
        assert_eq!((t.jobs.len(), refused(&t).len()), (1, 0));
        assert!(t
            .notes
            .iter()
            .any(|n| n.option == "[b] new_group" && n.fate == Fate::Differs));
        assert!(two("group_reporting", "").jobs[0].flags.fio_group);
        assert_eq!(
            refused(&two("group_reporting", "new_group")),
            ["[b] new_group"]
        );
        let t = one("[a]\nfilename=a\nsize=1m\n[b]\nfilename=b\nsize=1m\ngroup_reporting\n");
        assert_eq!(refused(&t), ["[a] [b] group_reporting"]);
        // A job alone keeps its group_reporting for the JSON.
        assert!(
            one("[a]\nfilename=a\nsize=1m\ngroup_reporting\n").jobs[0]
                .flags
                .fio_group
        );
    }

    /// Found by the `jobs` fuzz target: per-clone amounts times numjobs overflowed; past u64
    /// they are refused by their key, and within it they are multiplied as fio counts them.
    #[test]
    fn per_clone_amounts_past_u64_are_refused_by_key() {
        let t = one("[j]\nfilename=f\nnumjobs=4\nnumber_ios=9223372036854775807\n");
        assert_eq!(t.refusals()[0].option, "[j] number_ios", "{:?}", t.notes);
        let t = one("[j]\nfilename=f\nnumjobs=4\nrate_iops=9223372036854775807\nruntime=5\n");
        assert_eq!(t.refusals()[0].option, "[j] rate_iops", "{:?}", t.notes);
        let t = one("[j]\nfilename=f\nnumjobs=4\nnumber_ios=1000\n");
        assert_eq!(t.jobs[0].flags.ops, Some(4000));
    }

    /// Two jobs at once on one file, by hand from fio's HOWTO: each job's region is offset=
    /// to offset= + size= of the file (r: 0..4m; w: 8m..12m), and fio opens the file in each
    /// job. One run, a stream per job on the same path, a note instead of a refusal; the
    /// run's checks then make the file once at 12m, r keeping to its 4m.
    #[test]
    fn jobs_at_once_on_one_file_are_streams_on_that_file() {
        let t = one("[global]\nfilename=shared.dat\nruntime=1\ntime_based\n\
             [r]\nrw=randread\nbs=4k\nsize=4m\n\
             [w]\nrw=write\nbs=64k\noffset=8m\nsize=4m\n");
        assert!(t.refusals().is_empty(), "{:?}", t.notes);
        assert_eq!(t.jobs.len(), 1);
        let streams = &t.jobs[0].flags.streams;
        let file = vec!["shared.dat".to_string()];
        assert!(
            streams.iter().all(|s| s.flags.targets == file),
            "{streams:?}"
        );
        let got: Vec<(&str, [Option<u64>; 3])> = streams
            .iter()
            .map(|s| {
                let f = &s.flags;
                (s.name.as_str(), [f.size, f.offset, f.range])
            })
            .collect();
        const M: u64 = 1 << 20;
        assert_eq!(
            got,
            [
                ("r", [Some(4 * M), None, None]),
                ("w", [Some(12 * M), Some(8 * M), Some(4 * M)]),
            ]
        );
        let note = t
            .notes
            .iter()
            .find(|n| n.option == "[r] [w] filename")
            .expect("a note on the shared file");
        assert_eq!(note.fate, crate::translate::Fate::Mapped);
        assert!(
            note.text.starts_with(
                "both jobs use shared.dat; dbio opens it once per stream, as fio does"
            ),
            "{}",
            note.text
        );
        let raw = t.jobs[0].flags.raw();
        let (name, p) = raw.profile().unwrap();
        let (specs, _) = raw.streams(&name, &p).unwrap();
        let regions: Vec<(Option<u64>, u64, Option<u64>)> = specs
            .iter()
            .map(|s| (s.job.file_size, s.job.region.offset, s.job.region.range))
            .collect();
        assert_eq!(
            regions,
            [
                (Some(12 * M), 0, Some(4 * M)),
                (Some(12 * M), 8 * M, Some(4 * M))
            ]
        );
    }
}
