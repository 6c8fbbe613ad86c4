//! The `dbio run` command lines of a translation: each job's flags, then dbio's own.

use super::outputs::one_file_per_run;
use super::{command_line, Translation};
use crate::error::SpecError;

/// One job's `dbio run`: its arguments (from `run` on) and its command line as printed.
#[derive(Debug, Clone, PartialEq)]
pub struct RunLine {
    /// `run`, the job's flags, then dbio's own.
    pub argv: Vec<String>,
    /// `dbio run …`, each argument quoted for a POSIX shell as needed.
    pub line: String,
    /// The job's flags left out because dbio's own flags give them again (`--duration 60s`).
    pub replaced: Vec<String>,
}

/// How long a run is: one of these, so the user's one replaces the job's.
const HOW_LONG: [&str; 3] = ["duration", "ops", "bytes"];

/// Each job's `dbio run`, with dbio's own flags `ours` after the job's (and the outputs the
/// tool's own flags asked for): a flag given in both
/// is the user's (the later word wins, as fio's command line overrides its job file), the
/// job's left out and listed; the user's `--duration`, `--ops` or `--bytes` replaces
/// whichever of them the job has. A job of fio's group_reporting writes `--json-format fio`
/// as `fio-group` (one jobs[] entry for its streams). Refuses `--json` (but in fio's
/// layout, whose runs are joined) or `--html` among them when there are several runs, which
/// would all write the same file.
pub fn run_lines(t: &Translation, ours: &[String]) -> Result<Vec<RunLine>, SpecError> {
    one_file_per_run(t.jobs.len(), ours, &t.outputs)?;
    let mut given: Vec<&str> = ours.iter().filter_map(|a| flag_name(a)).collect();
    if given.iter().any(|g| HOW_LONG.contains(g)) {
        given.extend(HOW_LONG);
    }
    Ok(t.jobs
        .iter()
        .map(|job| {
            let mut args = job.flags.args();
            args.extend(json_format(&t.outputs, job.flags.fio_group));
            let (kept, replaced) = without(args, &given);
            let mut argv = vec!["run".to_string()];
            argv.extend(kept);
            argv.extend(json_format(ours, job.flags.fio_group));
            let line = format!("dbio {}", command_line(&argv));
            RunLine {
                argv,
                line,
                replaced,
            }
        })
        .collect())
}

/// dbio's own flags, with `--json-format fio` as `fio-group` for a job of fio's
/// group_reporting (`grouped`).
fn json_format(ours: &[String], grouped: bool) -> Vec<String> {
    let mut out: Vec<String> = ours.to_vec();
    if !grouped {
        return out;
    }
    for i in 0..out.len() {
        if out[i] == "--json-format=fio" {
            out[i] = "--json-format=fio-group".into();
        } else if out[i] == "--json-format" && out.get(i + 1).is_some_and(|v| v == "fio") {
            out[i + 1] = "fio-group".into();
        }
    }
    out
}

/// The name of a long flag (`--qd` or `--qd=8`: `qd`).
fn flag_name(arg: &str) -> Option<&str> {
    let name = arg.strip_prefix("--")?;
    Some(name.split_once('=').map_or(name, |(n, _)| n)).filter(|n| !n.is_empty())
}

/// `args` (flags, each with its value unless the next word is a flag) without the flags
/// named in `given`, and those left out as they were written (`--duration 5s`).
fn without(args: Vec<String>, given: &[&str]) -> (Vec<String>, Vec<String>) {
    let (mut kept, mut left) = (Vec::new(), Vec::new());
    let mut words = args.into_iter().peekable();
    while let Some(w) = words.next() {
        let value = words.next_if(|v| !v.starts_with("--"));
        let out = flag_name(&w).is_some_and(|n| given.contains(&n));
        let flag = std::iter::once(w).chain(value);
        if out {
            left.push(flag.collect::<Vec<_>>().join(" "));
        } else {
            kept.extend(flag);
        }
    }
    (kept, left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::translate::tool::{translate, Tool};

    fn sqlio(args: &str) -> Translation {
        let args: Vec<String> = args.split_whitespace().map(str::to_string).collect();
        translate(Tool::Sqlio, &args).expect("a translation")
    }

    #[test]
    fn each_job_is_a_run_with_our_flags_last() {
        let t = sqlio("-kR -frandom -b8 -o4 -t2 -s30 /data/test.dat");
        let ours = vec!["--json".to_string(), "out file.json".to_string()];
        let runs = run_lines(&t, &ours).expect("one run");
        assert_eq!(runs.len(), 1);
        let r = &runs[0];
        assert_eq!(r.argv.first().map(String::as_str), Some("run"));
        assert_eq!(&r.argv[r.argv.len() - 2..], &ours[..]);
        assert!(r.line.starts_with("dbio run "), "{}", r.line);
        assert!(r.line.ends_with(" --json 'out file.json'"), "{}", r.line);
    }

    #[test]
    fn a_flag_given_again_is_the_user_s() {
        let t = sqlio("-kR -frandom -b8 -o4 -t2 -s30 /data/test.dat");
        let ours: Vec<String> = ["--duration=2s", "--qd", "1", "--buffered"]
            .map(String::from)
            .into();
        let r = &run_lines(&t, &ours).expect("one run")[0];
        assert_eq!(r.replaced, ["--qd 4", "--duration 30s"]);
        assert_eq!(r.argv.iter().filter(|a| a.starts_with("--qd")).count(), 1);
        assert!(!r.argv.contains(&"30s".to_string()), "{:?}", r.argv);
        assert!(r.argv.contains(&"--bs".to_string()), "{:?}", r.argv);
        assert!(
            r.line.ends_with(" --duration=2s --qd 1 --buffered"),
            "{}",
            r.line
        );
    }

    #[test]
    fn a_time_replaces_a_count_and_group_reporting_asks_for_one_fio_entry() {
        let mut t = sqlio("-kR -frandom -b8 -o4 -t2 -s30 /data/test.dat");
        t.jobs[0].flags.duration = None;
        t.jobs[0].flags.bytes = Some(1 << 20);
        let ours: Vec<String> = ["--duration", "2s", "--json-format", "fio"]
            .map(String::from)
            .into();
        let r = &run_lines(&t, &ours).expect("one run")[0];
        assert_eq!(r.replaced, ["--bytes 1m"]);
        assert!(
            r.line.ends_with(" --duration 2s --json-format fio"),
            "{}",
            r.line
        );
        t.jobs[0].flags.fio_group = true;
        let r = &run_lines(&t, &ours).expect("one run")[0];
        assert!(r.line.ends_with(" --json-format fio-group"), "{}", r.line);
        let r = &run_lines(&t, &["--json-format=fio".to_string()]).expect("one run")[0];
        assert!(r.line.ends_with(" --json-format=fio-group"), "{}", r.line);
    }

    #[test]
    fn a_duration_replaces_a_job_that_stops_after_bytes_or_ops() {
        let mut t = sqlio("-kR -frandom -b8 -o4 -t2 -s30 /data/test.dat");
        t.jobs[0].flags.duration = None;
        t.jobs[0].flags.bytes = Some(128 << 20);
        t.jobs.push(t.jobs[0].clone());
        t.jobs[1].flags.bytes = None;
        t.jobs[1].flags.ops = Some(1000);
        let ours = vec!["--duration".to_string(), "1s".to_string()];
        let runs = run_lines(&t, &ours).expect("two runs");
        assert_eq!(runs[0].replaced, ["--bytes 128m"]);
        assert_eq!(runs[1].replaced, ["--ops 1000"]);
        for r in &runs {
            assert!(r.line.ends_with(" --duration 1s"), "{}", r.line);
            assert!(
                !r.line.contains("--bytes") && !r.line.contains("--ops"),
                "{}",
                r.line
            );
        }
        let ours = vec!["--ops=50".to_string()];
        let r = &run_lines(&sqlio("-kR -frandom -s30 /data/test.dat"), &ours).expect("one run")[0];
        assert_eq!(r.replaced, ["--duration 30s"]);
    }

    #[test]
    fn several_runs_cannot_share_one_file() {
        let mut t = sqlio("-kR -frandom -b8 -o4 -t2 -s30 /data/test.dat");
        t.jobs.push(t.jobs[0].clone());
        assert_eq!(run_lines(&t, &[]).expect("two runs").len(), 2);
        let e = run_lines(&t, &["--html".to_string(), "x.html".to_string()]).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("--html: the translation has 2 runs"),
            "{e}"
        );
    }
}
