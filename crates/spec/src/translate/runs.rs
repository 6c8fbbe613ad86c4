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
}

/// Each job's `dbio run`, with dbio's own flags `ours` after the job's; refuses `--json` or
/// `--html` among them when there are several runs, which would all write the same file.
pub fn run_lines(t: &Translation, ours: &[String]) -> Result<Vec<RunLine>, SpecError> {
    one_file_per_run(t.jobs.len(), ours)?;
    Ok(t.jobs
        .iter()
        .map(|job| {
            let mut argv = vec!["run".to_string()];
            argv.extend(job.flags.args());
            argv.extend(ours.iter().cloned());
            let line = format!("dbio {}", command_line(&argv));
            RunLine { argv, line }
        })
        .collect())
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
