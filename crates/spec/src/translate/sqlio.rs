//! SQLIO's command line (readme of sqlio v1.5) in dbio's words. Defaults as its readme
//! gives them: `-kR -t1 -s30 -f64 -b2 -i64 -BN testfile.dat`, one I/O at a time per thread
//! unless `-o`.

use super::{secs, windows_target, RunFlags, Translation};

/// SQLIO's settings as read from its arguments (and a parameter file).
#[derive(Debug, Default)]
struct Sqlio {
    write: bool,
    threads: Option<u32>,
    secs: Option<f64>,
    /// "random", "sequential", or a stripe factor.
    pattern: Option<String>,
    outstanding: Option<u32>,
    kb: Option<u64>,
    /// N, Y, H or S.
    buffering: Option<char>,
    start_blocks: Option<u64>,
    files: Vec<String>,
    /// From a parameter file: (file, threads, size in MB).
    param_lines: Vec<(String, u32, Option<u64>)>,
}

/// Translates SQLIO's arguments; `read_file` reads a `-F` parameter file.
pub fn translate(
    args: &[String],
    read_file: &dyn Fn(&str) -> std::io::Result<String>,
) -> Translation {
    let mut t = Translation::default();
    let mut s = Sqlio::default();
    for a in args {
        match a.strip_prefix('-') {
            Some(opt) if !opt.is_empty() => option(&mut t, &mut s, a, opt, read_file),
            _ => s.files.push(a.clone()),
        }
    }
    let flags = flags(&mut t, &s);
    t.jobs.push(super::Job {
        name: "sqlio".into(),
        flags,
    });
    t.sqlio_buffering = Some(s.buffering.unwrap_or('N'));
    t
}

fn number<T: std::str::FromStr>(t: &mut Translation, a: &str, v: &str, what: &str) -> Option<T> {
    match v.parse() {
        Ok(n) => Some(n),
        Err(_) => {
            t.refuse(a, format!("'{v}' is not {what}"));
            None
        }
    }
}

/// Reads one option (`a` as written, `opt` without its dash).
fn option(
    t: &mut Translation,
    s: &mut Sqlio,
    a: &str,
    opt: &str,
    read_file: &dyn Fn(&str) -> std::io::Result<String>,
) {
    let (key, v) = opt.split_at(opt.chars().next().map_or(0, char::len_utf8));
    match key {
        "k" => match v.to_ascii_uppercase().as_str() {
            "R" => s.write = false,
            "W" => s.write = true,
            _ => return t.refuse(a, "the kind of I/O is -kR (reads) or -kW (writes)"),
        },
        "t" => s.threads = number(t, a, v, "a number of threads"),
        "s" => s.secs = number(t, a, v, "a number of seconds"),
        "f" => s.pattern = Some(v.to_ascii_lowercase()),
        "o" => s.outstanding = number(t, a, v, "a number of outstanding I/Os"),
        "b" => s.kb = number(t, a, v, "an I/O size in KB"),
        "B" => match v.to_ascii_uppercase().as_str() {
            b @ ("N" | "Y" | "H" | "S") => s.buffering = b.chars().next(),
            _ => return t.refuse(a, "buffering is -BN, -BY, -BH or -BS"),
        },
        "S" => s.start_blocks = number(t, a, v, "a number of blocks"),
        "F" => return param_file(t, s, a, v, read_file),
        _ => return other(t, a, key, v),
    }
    let text = match key {
        "k" if s.write => "writes: --rw write or randwrite",
        "k" => "reads: --rw read or randread",
        "t" => "--threads",
        "s" => "--duration",
        "o" => "--qd: I/Os outstanding per thread",
        "b" => "--bs (SQLIO's sizes are in KB)",
        "S" => "--offset: the first block times the I/O size",
        _ => return,
    };
    t.mapped(a, text);
}

/// Options that change nothing dbio measures, or that dbio cannot do.
fn other(t: &mut Translation, a: &str, key: &str, v: &str) {
    match key {
        "L" if v.starts_with(['S', 'P', 's', 'p']) => t.differs(
            a,
            "dbio always times every I/O (monotonic clock, HDR histograms) and reports min, mean, percentiles and max; initiation time (-L?i) is not reported apart",
        ),
        "U" => t.differs(
            a,
            "dbio always records its own and the host's CPU use; not DPC, interrupt or per-processor time",
        ),
        "p" | "a" => t.differs(a, "dbio does not pin its threads to CPUs; the scheduler places them"),
        "i" => t.differs(a, "I/Os per run only shape SQLIO's stripe pattern; with -frandom or -fsequential it has no effect (as SQLIO's readme says)"),
        "6" if v == "4" => t.mapped(a, "64-bit memory operations are what dbio does anyway"),
        "D" => t.differs(a, "SQLIO's debug levels have no dbio counterpart; the JSON result (--json) holds per-second and per-thread figures"),
        "d" => t.refuse(a, "drive letters are Windows's; give each file's Linux path"),
        "R" => t.refuse(a, "raw drive letters and numbers are Windows's; give the Linux device, e.g. /dev/sdb (writing needs --destroy-data)"),
        "m" => t.refuse(a, "multi-buffer and scatter/gather I/O are not something dbio issues; leave -m out"),
        "v" => t.refuse(a, "the v1.1.1 block reuse belongs to SQLIO's stripe pattern, which dbio does not have"),
        _ => t.refuse(a, "not an SQLIO option dbio knows (see sqlio -?)"),
    }
}

/// Reads a parameter file: `<file> <threads> [<mask> [<size MB>]]` per line, `#` comments.
fn param_file(
    t: &mut Translation,
    s: &mut Sqlio,
    a: &str,
    path: &str,
    read_file: &dyn Fn(&str) -> std::io::Result<String>,
) {
    let text = match read_file(path) {
        Ok(x) => x,
        Err(e) => return t.refuse(a, format!("cannot read the parameter file: {e}")),
    };
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let threads = f.get(1).and_then(|x| x.parse::<u32>().ok());
        let size = f.get(3).map(|x| x.parse::<u64>());
        match (threads, size) {
            (Some(th), None) => s.param_lines.push((f[0].to_string(), th, None)),
            (Some(th), Some(Ok(mb))) => s.param_lines.push((f[0].to_string(), th, Some(mb))),
            _ => {
                return t.refuse(
                    a,
                    format!(
                        "{path} line {}: '{line}' is not '<file> <threads> [<mask> [<size MB>]]'",
                        n + 1
                    ),
                )
            }
        }
    }
    if s.param_lines.is_empty() {
        return t.refuse(a, format!("{path} names no file"));
    }
    if f_has_masks(&text) {
        t.differs(a, "files, threads and sizes as the flags below say; the affinity masks are left out (dbio does not pin threads)");
    } else {
        t.mapped(a, "files, threads and sizes as the flags below say");
    }
}

/// True when some line of a parameter file sets a non-zero affinity mask.
fn f_has_masks(text: &str) -> bool {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_whitespace().nth(2))
        .any(|m| !matches!(m, "0" | "0x0" | "0x00"))
}

/// The dbio flags of the settings read, with the notes on defaults and differences.
fn flags(t: &mut Translation, s: &Sqlio) -> RunFlags {
    let mut f = RunFlags::default();
    let random = match s.pattern.as_deref() {
        Some("random") => {
            t.mapped(
                "-frandom",
                "random offsets over the whole file, block-aligned: --rw randread or randwrite",
            );
            true
        }
        Some(p @ ("sequential" | "1")) => {
            t.mapped(
                &format!("-f{p}"),
                "each I/O after the last, wrapping at the end: --rw read or write",
            );
            false
        }
        Some(p) => {
            t.refuse(&format!("-f{p}"), "SQLIO's stripe pattern (every N-th block, a small strip re-read) is not a pattern dbio has; use -frandom or -fsequential");
            true
        }
        None => {
            t.refuse("-f64 (SQLIO's default)", "without -f SQLIO strides through an 8 MB strip that disk caches hold; dbio has no stripe pattern: give -frandom or -fsequential");
            true
        }
    };
    f.rw = Some(match (random, s.write) {
        (true, false) => "randread",
        (true, true) => "randwrite",
        (false, false) => "read",
        (false, true) => "write",
    });
    let kb = s.kb.unwrap_or(2);
    if kb == 0 {
        t.refuse(&format!("-b{kb}"), "the I/O size is at least 1 KB");
    }
    let bytes = kb.checked_mul(1024).unwrap_or_else(|| {
        t.refuse(
            &format!("-b{kb}"),
            "an I/O size past 16 EiB; give the size in KB, such as -b8 or -b64",
        );
        0
    });
    f.bs = Some(super::size(bytes));
    f.duration = Some(secs(s.secs.unwrap_or(30.0)));
    if let Some(b) = s.start_blocks {
        match b.checked_mul(bytes) {
            Some(offset) => f.offset = Some(offset),
            None => t.refuse(
                &format!("-S{b}"),
                "a start past the end of any device (-S counts blocks of the -b size)",
            ),
        }
    }
    targets(t, s, &mut f);
    f.qd = Some(queue_depth(t, s, f.targets.len()));
    if !random && f.threads.unwrap_or(1) > 1 {
        t.differs("-t with -fsequential", "with several threads, dbio gives each thread its own slice of the file to walk (SQLIO's threads walk the same file)");
    }
    buffering(t, s, &mut f);
    f
}

/// dbio's --qd (I/Os outstanding per thread over all its files) for SQLIO's -o, keeping
/// SQLIO's total (its readme): without -o a thread has one I/O at a time, issued on its files
/// in turn; with -oN each thread keeps N outstanding on each file it does I/O on: every file
/// named on the command line, or the one file of its line of a -F parameter file.
fn queue_depth(t: &mut Translation, s: &Sqlio, files: usize) -> u32 {
    let Some(o) = s.outstanding.map(|o| o.max(1)) else {
        if files > 1 {
            t.mapped(
                "-o1 (SQLIO's default)",
                "--qd 1: without -o each thread has one I/O at a time, on its files in turn",
            );
        }
        return 1;
    };
    let opt = format!("-o{o}");
    let per_thread = if s.param_lines.is_empty() {
        files.max(1)
    } else {
        1
    };
    if per_thread > 1 {
        t.differs(&opt, format!("SQLIO keeps -o I/Os outstanding per thread on each file; dbio keeps --qd per thread over all targets, so --qd is -o x {files} files"));
    } else if files > 1 {
        t.mapped(&opt, format!("each thread of a -F file keeps {o} outstanding on its own file; dbio's threads keep --qd {o} each over all {files} files: the same I/Os outstanding in all"));
    }
    o.checked_mul(per_thread as u32).unwrap_or_else(|| {
        t.refuse(
            &opt,
            "more I/Os outstanding than any device queues; SQLIO's own runs use -o1 to -o256",
        );
        1
    })
}

/// Files, threads and sizes, from the command line or the parameter file.
fn targets(t: &mut Translation, s: &Sqlio, f: &mut RunFlags) {
    let files: Vec<String> = if s.param_lines.is_empty() {
        f.threads = Some(s.threads.unwrap_or(1));
        s.files.clone()
    } else {
        if s.threads.is_some() || !s.files.is_empty() {
            t.differs("-t / file names", "the parameter file's files and thread counts win over -t and file names (as in SQLIO)");
        }
        let total: u32 = s.param_lines.iter().map(|l| l.1).sum();
        f.threads = Some(total);
        if s.param_lines.len() > 1 {
            t.differs("-F", format!("SQLIO gives each file its own {} threads; dbio's {total} threads spread their I/O over all the files", s.param_lines[0].1));
        }
        let sizes: Vec<u64> = s.param_lines.iter().filter_map(|l| l.2).collect();
        if let Some(&mb) = sizes.iter().max() {
            if sizes.iter().any(|&x| x != mb) {
                t.differs(
                    "-F",
                    format!(
                        "dbio makes every file it creates one size: {mb} MB, the largest given"
                    ),
                );
            }
            match mb.checked_mul(1 << 20) {
                Some(b) => f.size = Some(b),
                None => t.refuse("-F", format!("a file size of {mb} MB is past 16 EiB")),
            }
        }
        s.param_lines.iter().map(|l| l.0.clone()).collect()
    };
    let files = if files.is_empty() {
        t.mapped(
            "testfile.dat (SQLIO's default file)",
            "--target testfile.dat",
        );
        vec!["testfile.dat".to_string()]
    } else {
        files
    };
    for file in files {
        match windows_target(&file) {
            Some(why) => t.refuse(&file, why),
            None => f.targets.push(file),
        }
    }
    if f.size.is_none() {
        t.differs("file size", "a file that exists keeps its size (as SQLIO); a missing one is created at dbio's 1 GiB and filled with incompressible data (--size sets another)");
    }
}

/// -B: the file cache (O_DIRECT) and the drive's write cache (O_DSYNC writes).
fn buffering(t: &mut Translation, s: &Sqlio, f: &mut RunFlags) {
    let b = s.buffering.unwrap_or('N');
    let opt = match s.buffering {
        Some(b) => format!("-B{b}"),
        None => "-BN (SQLIO's default)".to_string(),
    };
    let write_through = matches!(b, 'N' | 'S');
    f.buffered = matches!(b, 'Y' | 'S');
    if write_through && s.write {
        f.sync = Some("dsync".into());
    }
    let cache = if f.buffered {
        "the file cache is used: --buffered"
    } else {
        "no file cache (FILE_FLAG_NO_BUFFERING): O_DIRECT, dbio's default"
    };
    match (write_through, s.write) {
        (true, true) => t.mapped(&opt, format!("{cache}; write-through (FILE_FLAG_WRITE_THROUGH): every write durable on completion, --sync dsync (O_DSYNC)")),
        (true, false) => t.mapped(&opt, format!("{cache}; write-through has no effect on reads")),
        (false, _) => t.mapped(&opt, format!("{cache}; the drive's write cache is allowed")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn no_file(_: &str) -> std::io::Result<String> {
        Err(std::io::Error::other("no such file"))
    }

    #[test]
    fn every_argument_gets_a_note() {
        let t = translate(
            &args("-kW -t2 -s10 -o8 -fsequential -b64 -BH -LS -U /mnt/t.dat"),
            &no_file,
        );
        for a in ["-kW", "-t2", "-s10", "-o8", "-b64", "-BH", "-LS", "-U"] {
            assert!(t.notes.iter().any(|n| n.option == a), "{a}: {:?}", t.notes);
        }
        assert!(t.refusals().is_empty(), "{:?}", t.refusals());
    }

    #[test]
    fn unknown_and_windows_things_are_refused_by_name() {
        let t = translate(&args("-kR -frandom -q5 -dDEF c:\\test.dat"), &no_file);
        let refused: Vec<&str> = t.refusals().iter().map(|n| n.option.as_str()).collect();
        assert_eq!(refused, ["-q5", "-dDEF", "c:\\test.dat"]);
    }

    /// Found by the `jobs` fuzz target: -S times -b past u64 overflowed; sizes past 16 EiB
    /// and queue depths past u32 are refused by their flag.
    #[test]
    fn numbers_past_what_fits_are_refused_by_name() {
        let t = translate(
            &args("-kR -frandom -b8 -S9999999999999999999 /mnt/t.dat"),
            &no_file,
        );
        assert_eq!(t.refusals()[0].option, "-S9999999999999999999");
        let t = translate(
            &args("-kR -frandom -b18014398509481985 /mnt/t.dat"),
            &no_file,
        );
        assert_eq!(t.refusals()[0].option, "-b18014398509481985");
        let t = translate(&args("-kR -frandom -b8 -S4 /mnt/t.dat"), &no_file);
        assert!(t.refusals().is_empty(), "{:?}", t.refusals());
    }

    #[test]
    fn a_parameter_file_that_cannot_be_read_is_refused() {
        let t = translate(&args("-kR -frandom -Fparam.txt"), &no_file);
        assert!(t.refusals()[0].text.contains("no such file"));
    }
}
