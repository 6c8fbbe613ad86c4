//! DiskSpd's command line (its usage text and wiki, "Command line and parameters") in dbio's
//! words. Defaults as DiskSpd documents them: `-b64K -d10 -W5 -C0 -o2 -t1`, sequential
//! reads, the OS cache on, write buffers a repeating 0..255 pattern.

use super::{secs, windows_target, RunFlags, Translation};

/// DiskSpd's settings as read from its arguments.
#[derive(Debug)]
struct Diskspd {
    block: u64,
    /// The block size as the `-b` options read so far set it (what `b` means in the next).
    block_so_far: u64,
    duration: f64,
    warmup: f64,
    outstanding: Option<u32>,
    per_thread: Option<u32>,
    threads: Option<u32>,
    fixed_threads: Option<u32>,
    random: Option<Option<u64>>,
    hotspot: Option<String>,
    write_pct: u32,
    no_cache: bool,
    write_through: bool,
    throttle: Option<(f64, bool)>,
    create: Option<u64>,
    zeros: bool,
    seed: Option<u64>,
    base: Option<u64>,
    length: Option<u64>,
    max_offset: Option<u64>,
    interlocked: bool,
    /// The -s option as given (DiskSpd refuses it with -r or -rs).
    sequential: Option<String>,
    /// -Rxml: DiskSpd's XML results.
    xml: bool,
    targets: Vec<String>,
    /// Whether any target was given (also one refused).
    any_target: bool,
}

impl Default for Diskspd {
    fn default() -> Self {
        Diskspd {
            block: 64 << 10,
            block_so_far: 64 << 10,
            duration: 10.0,
            warmup: 5.0,
            outstanding: None,
            per_thread: None,
            threads: None,
            fixed_threads: None,
            random: None,
            hotspot: None,
            write_pct: 0,
            no_cache: false,
            write_through: false,
            throttle: None,
            create: None,
            zeros: false,
            seed: None,
            base: None,
            length: None,
            max_offset: None,
            interlocked: false,
            sequential: None,
            xml: false,
            targets: Vec::new(),
            any_target: false,
        }
    }
}

/// Translates DiskSpd's arguments; `read_file` reads an `-X` XML profile.
pub fn translate(
    args: &[String],
    read_file: &dyn Fn(&str) -> std::io::Result<String>,
) -> Translation {
    let mut t = Translation::default();
    let mut d = Diskspd::default();
    let args = with_profile(&mut t, args, read_file);
    d.block = block_size(&args);
    for a in &args {
        match a.strip_prefix('-').filter(|o| !o.is_empty()) {
            Some(opt) => option(&mut t, &mut d, a, opt),
            None => {
                d.any_target = true;
                match windows_target(a) {
                    Some(why) => t.refuse(a, why),
                    None => d.targets.push(a.clone()),
                }
            }
        }
    }
    let flags = flags(&mut t, &d);
    t.jobs.push(super::Job {
        name: "diskspd".into(),
        flags,
    });
    t
}

/// The arguments with an `-X` profile's settings in place of it (the command line's own
/// settings after them, so they win, as in DiskSpd), and the profile's `*N` targets
/// replaced by the command line's paths.
fn with_profile(
    t: &mut Translation,
    args: &[String],
    read_file: &dyn Fn(&str) -> std::io::Result<String>,
) -> Vec<String> {
    let Some(x) = args.iter().find(|a| a.starts_with("-X")) else {
        return args.to_vec();
    };
    let path = &x[2..];
    let xml = match read_file(path) {
        Ok(s) => s,
        Err(e) => {
            t.refuse(x, format!("cannot read the profile: {e}"));
            return args.iter().filter(|a| *a != x).cloned().collect();
        }
    };
    let mut given: Vec<String> = args
        .iter()
        .filter(|a| *a != x && a.starts_with('-'))
        .cloned()
        .collect();
    let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    match super::diskspd_xml::to_args(&xml) {
        Ok(p) => {
            for e in &p.unknown {
                t.refuse(
                    &format!("{x} <{e}>"),
                    "an XML element dbio does not read; take it out of the profile",
                );
            }
            t.mapped(x, format!("read as: {}", p.args.join(" ")));
            let mut out = p.args;
            for target in p.targets {
                match target.strip_prefix('*').and_then(|n| n.parse::<usize>().ok()) {
                    Some(n) if n >= 1 && n <= paths.len() => out.push(paths[n - 1].clone()),
                    Some(n) => t.refuse(&target, format!("the profile's template target *{n} needs a path on the command line (the {n}th)")),
                    None => out.push(target),
                }
            }
            if out.iter().all(|a| a.starts_with('-')) {
                out.extend(paths.into_iter().cloned());
            }
            out.append(&mut given);
            out
        }
        Err(e) => {
            t.refuse(x, e.to_string());
            given
        }
    }
}

/// The block size the options set, as DiskSpd reads it before any other option (so sizes in
/// blocks, `8b`, anywhere mean the last `-b`): each `-b` in turn, its own `b` meaning blocks
/// of the size before it (`-b8b` is 8 x 64 KiB, DiskSpd's default). A `-b` that is not a size
/// is refused when its turn comes.
fn block_size(args: &[String]) -> u64 {
    args.iter()
        .filter_map(|a| a.strip_prefix("-b"))
        .fold(64 << 10, |block, v| {
            size(v, block).filter(|&n| n > 0).unwrap_or(block)
        })
}

/// A DiskSpd size: bytes, or with K, M, G, T (binary) or b (blocks of `block` bytes).
fn size(v: &str, block: u64) -> Option<u64> {
    let split = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    let n: u64 = v[..split].parse().ok()?;
    let mult = match v[split..].to_ascii_uppercase().as_str() {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        "B" if block > 0 => block,
        _ => return None,
    };
    n.checked_mul(mult)
}

fn count(t: &mut Translation, a: &str, v: &str, what: &str) -> Option<u32> {
    match v.parse::<u32>() {
        Ok(n) if n > 0 => Some(n),
        _ => {
            t.refuse(a, format!("'{v}' is not {what}"));
            None
        }
    }
}

fn seconds(t: &mut Translation, a: &str, v: &str) -> Option<f64> {
    match v.parse::<f64>() {
        Ok(n) if n >= 0.0 => Some(n),
        _ => {
            t.refuse(a, format!("'{v}' is not a number of seconds"));
            None
        }
    }
}

/// Reads one option (`a` as written, `opt` without its dash).
fn option(t: &mut Translation, d: &mut Diskspd, a: &str, opt: &str) {
    // The key is the first character, whatever its width in bytes.
    let (key, v) = opt.split_at(opt.chars().next().map_or(0, char::len_utf8));
    let block = d.block;
    let sz = |t: &mut Translation, v: &str| {
        let n = size(v, block);
        if n.is_none() {
            t.refuse(
                a,
                format!("'{v}' is not a size (bytes, or with K, M, G, T or b for blocks)"),
            );
        }
        n
    };
    match key {
        "b" => block_size_option(t, d, a, v),
        "d" => {
            if let Some(s) = seconds(t, a, v) {
                d.duration = s;
                t.mapped(a, "--duration");
            }
        }
        "W" => {
            if let Some(s) = seconds(t, a, v) {
                d.warmup = s;
                t.mapped(a, "--ramp: I/O before measuring, not counted");
            }
        }
        "C" => cooldown(t, a, v),
        "o" => d.outstanding = count(t, a, v, "a number of outstanding I/Os").inspect(|_| t.mapped(a, "--qd")),
        "O" => d.per_thread = count(t, a, v, "a number of outstanding I/Os"),
        "t" => d.threads = count(t, a, v, "a number of threads").inspect(|_| t.mapped(a, "--threads")),
        "F" => d.fixed_threads = count(t, a, v, "a number of threads").inspect(|_| t.mapped(a, "--threads")),
        "w" => match v.parse::<u32>() {
            Ok(p) if p <= 100 => {
                d.write_pct = p;
                t.mapped(a, "--rw and --mix (the read share is 100 minus the write share)");
            }
            _ => t.refuse(a, format!("'{v}' is not a write percentage, 0 to 100")),
        },
        "r" => random(t, d, a, v),
        "s" => sequential(t, d, a, v),
        "S" => caching(t, d, a, v),
        "h" if v.is_empty() => caching(t, d, a, "h"),
        "c" => d.create = sz(t, v).inspect(|_| t.mapped(a, "--size: the size dbio creates a missing file with (it fills it with incompressible data)")),
        "Z" => write_buffers(t, d, a, v),
        "z" => seed(t, d, a, v),
        "g" => throttle(t, d, a, v),
        "B" => bounds(t, d, a, v),
        "f" => max_offset(t, d, a, v),
        "T" => t.refuse(a, "dbio's sequential threads each walk their own equal slice of the target; a set thread stride is not a dbio setting (leave -T out to get the slices)"),
        "L" => t.mapped(a, "dbio always measures every I/O's latency (HDR histograms: min, mean, percentiles, max)"),
        "R" => results(t, d, a, v),
        _ => other(t, a, key),
    }
}

/// Options that change nothing dbio measures, or that dbio cannot do.
fn other(t: &mut Translation, a: &str, key: &str) {
    match key {
        "a" | "n" => t.differs(a, "dbio does not pin its threads to CPUs; the scheduler places them"),
        "x" => t.differs(a, "completion routines are Windows's; dbio completes I/O through io_uring"),
        "I" => t.differs(a, "dbio issues its I/O at normal priority"),
        "l" => t.differs(a, "dbio's buffers are aligned for O_DIRECT; large pages are not used"),
        "D" => t.differs(a, "dbio keeps IOPS, MB/s and p99 per second in its result (--json timeseries); the interval is always 1 s"),
        "P" => t.differs(a, "dbio shows its own progress line on a terminal"),
        "v" => t.differs(a, "dbio's summary says what it ran; --json has every detail"),
        "i" | "j" => t.refuse(a, "bursts of N I/Os every M ms are not a dbio pattern; --burst ON/PERIOD runs I/O in time windows, --rate paces I/Os"),
        "p" => t.refuse(a, "parallel sequential I/Os at the same offset are not a dbio pattern"),
        "e" => t.refuse(a, "Event Tracing for Windows has no Linux counterpart here; leave -e out"),
        "y" => t.refuse(a, "named events for synchronising instances are Windows's; start dbio runs together by other means"),
        "N" => t.refuse(a, "memory-mapped I/O flush modes: dbio does not do memory-mapped I/O"),
        ":" => t.refuse(a, "DiskSpd's experimental flags have no dbio counterpart"),
        "?" => t.refuse(a, "help: run dbio diskspd --help"),
        _ => t.refuse(a, "not a DiskSpd option dbio knows (see diskspd -?)"),
    }
}

/// -b: the I/O size; its `b` unit is blocks of the size the `-b` before it set.
fn block_size_option(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    let before = d.block_so_far;
    match size(v, before) {
        Some(0) => t.refuse(a, "the block size is at least 1 byte"),
        Some(n) if v.ends_with(['b', 'B']) => {
            d.block_so_far = n;
            t.mapped(
                a,
                format!(
                    "--bs {}: {} blocks of {} (the block size before it, as DiskSpd reads it)",
                    super::size(n),
                    n / before,
                    super::size(before)
                ),
            );
        }
        Some(n) => {
            d.block_so_far = n;
            t.mapped(a, "--bs");
        }
        None => t.refuse(
            a,
            format!("'{v}' is not a size (bytes, or with K, M, G, T or b for blocks)"),
        ),
    }
}

/// -Rtext and -Rxml: the layout of the results (the last -R wins, as in DiskSpd).
fn results(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    match v.to_ascii_lowercase().as_str() {
        "text" => {
            d.xml = false;
            t.mapped(a, "text output (dbio's summary; --output-format diskspd prints DiskSpd's layout)");
        }
        "xml" => {
            d.xml = true;
            t.mapped(a, "--output-format diskspd-xml: DiskSpd's XML results, alone on stdout (the dbio run line and notes go to stderr)");
        }
        p if p.len() > 1 && p.starts_with('p') => t.refuse(a, "-Rp prints the profile without running it; dbio diskspd --dry-run prints what would run"),
        _ => t.refuse(a, format!("-R{v}: DiskSpd's result formats are text and xml; dbio's own JSON is --json FILE")),
    }
}

fn cooldown(t: &mut Translation, a: &str, v: &str) {
    match seconds(t, a, v) {
        Some(0.0) => t.mapped(a, "no cool-down, as dbio"),
        Some(_) => t.differs(a, "dbio stops its I/O when measuring ends; an unmeasured cool-down only matters to keep other hosts' runs loaded, so start those runs together instead"),
        None => {}
    }
}

fn random(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    if let Some(dist) = v.strip_prefix('d') {
        return distribution(t, d, a, dist);
    }
    if let Some(pct) = v.strip_prefix('s') {
        return random_share(t, d, a, pct);
    }
    if v.is_empty() {
        d.random = Some(None);
        return t.mapped(
            a,
            "random offsets aligned to the block size: --rw randread, randwrite or randrw",
        );
    }
    match size(v, d.block) {
        Some(n) if n > 0 => {
            d.random = Some(Some(n));
            t.mapped(a, "random offsets with this alignment: --rw rand… --align");
        }
        _ => t.refuse(a, format!("'{v}' is not an alignment size")),
    }
}

/// -rsPCT: PCT % of the I/Os at random offsets, the rest in sequential runs between them.
/// -rs100 is -r (as DiskSpd reads it); a mix is not a dbio pattern.
fn random_share(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    // A mix is still random I/O as far as the other options are concerned (-w, -rd).
    let random = Some(d.random.flatten());
    match v.parse::<u32>() {
        Ok(100) => {
            d.random = random;
            t.mapped(a, "all I/O random, as -r (DiskSpd reads -rs100 as -r): --rw randread, randwrite or randrw");
        }
        Ok(p @ 1..=99) => {
            d.random = random;
            t.refuse(a, format!("{p} % of the I/Os at random offsets and the rest in sequential runs is not a pattern dbio has: its I/O is all random (-r) or all sequential (-s); run a random and a sequential run apart"));
        }
        _ => t.refuse(
            a,
            format!("'{v}' is not a share of random I/O: DiskSpd takes -rs1 to -rs100"),
        ),
    }
}

/// -rdpctIO/TARGET[:…]: two ranges where the second takes the rest make dbio's hotspot.
fn distribution(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    let Some(pct) = v.strip_prefix("pct") else {
        return t.refuse(a, "only -rdpct distributions translate (dbio's --skew hotspot is a share of the target, not absolute sizes)");
    };
    let parts: Vec<(u32, u32)> = pct
        .split(':')
        .filter_map(|p| p.split_once('/'))
        .filter_map(|(i, r)| Some((i.parse().ok()?, r.parse().ok()?)))
        .collect();
    let rest_fits = |io: u32, region: u32, more: &[(u32, u32)]| match more {
        [] => true,
        [(i2, r2)] => i2 + io == 100 && r2 + region == 100,
        _ => false,
    };
    match parts.as_slice() {
        [(io, region), more @ ..]
            if (1..=100).contains(io) && (1..100).contains(region) && rest_fits(*io, *region, more) =>
        {
            d.hotspot = Some(format!("hotspot:{io}/{region}"));
            t.mapped(a, format!("--skew hotspot:{io}/{region}: {io} % of the I/Os to the first {region} % of the target, the rest spread over the rest"));
        }
        _ => t.refuse(a, "dbio's --skew hotspot:IO/REGION has one hot range at the start of the target and the rest beyond it; give -rdpctIO/REGION"),
    }
}

fn sequential(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    let (interlocked, stride) = match v.strip_prefix('i') {
        Some(s) => (true, s),
        None => (false, v),
    };
    if !stride.is_empty() && size(stride, d.block) != Some(d.block) {
        return t.refuse(a, "a sequential stride other than the block size is not a dbio pattern (dbio's next I/O starts where the last ended)");
    }
    d.interlocked = interlocked;
    d.sequential = Some(a.to_string());
    t.mapped(a, "sequential: --rw read or write");
}

/// -S[bhmruw] and -h: the OS cache (O_DIRECT) and write-through (O_DSYNC).
fn caching(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    let flags = if v.is_empty() { "u" } else { v };
    for c in flags.chars() {
        match c.to_ascii_lowercase() {
            'b' => d.no_cache = false,
            'u' => d.no_cache = true,
            'w' => d.write_through = true,
            'h' => {
                d.no_cache = true;
                d.write_through = true;
            }
            'm' => return t.refuse(a, "memory-mapped I/O is not something dbio does"),
            'r' => return t.refuse(a, "remote file-system caching is Windows's (SMB); dbio's choice is O_DIRECT or --buffered"),
            _ => return t.refuse(a, format!("'{c}' is not a caching flag (b, h, m, r, u, w)")),
        }
    }
    let mut what = Vec::new();
    if d.no_cache {
        what.push("no OS cache (FILE_FLAG_NO_BUFFERING): O_DIRECT, dbio's default");
    } else {
        what.push("the OS cache is used: --buffered");
    }
    if d.write_through {
        what.push("write-through (FILE_FLAG_WRITE_THROUGH): every write durable on completion, --sync dsync (O_DSYNC) when the test writes");
    }
    t.mapped(a, what.join("; "));
}

fn write_buffers(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    match v {
        "" => {
            d.zeros = true;
            t.mapped(a, "zero-filled writes: --data zeros (dbio warns that an array would reduce them away)");
        }
        "r" => t.mapped(a, "every write's data random: dbio's default, incompressible and every 4 KiB block unique"),
        _ if v.contains(',') => t.refuse(a, "write data taken from a file is not a dbio setting; --data random, zeros, pattern:0x… or dedupe:R,compress:C"),
        _ => t.differs(a, "DiskSpd writes from one random buffer of this size, so its writes repeat (dedupable); dbio's writes are random and unique (--data dedupe:R sets a dedupe ratio)"),
    }
}

fn seed(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    if v.is_empty() {
        return t.differs(a, "DiskSpd then seeds from the clock; dbio keeps its fixed default seed (give -zN or --seed N)");
    }
    match v.parse() {
        Ok(n) => {
            d.seed = Some(n);
            t.mapped(a, "--seed: the same offsets and sizes again");
        }
        Err(_) => t.refuse(a, format!("'{v}' is not a seed")),
    }
}

fn throttle(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    let (num, iops) = match v.strip_suffix(['i', 'I']) {
        Some(n) => (n, true),
        None => (v, false),
    };
    match num.parse::<f64>() {
        Ok(n) if n > 0.0 => {
            d.throttle = Some((n, iops));
            t.differs(a, "DiskSpd limits each thread on each target; dbio paces the whole job: --rate is the limit x threads, in IOPS (open loop: latency counted from each I/O's scheduled start)");
        }
        _ => t.refuse(
            a,
            format!("'{v}' is not a throughput limit (bytes per ms, or IOPS with i)"),
        ),
    }
}

fn bounds(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    let (base, len) = match v.split_once(':') {
        Some((b, l)) => (b, Some(l)),
        None => (v, None),
    };
    let base = size(base, d.block);
    let len = len.map(|l| size(l, d.block));
    match (base, len) {
        (Some(b), None) => d.base = Some(b),
        (Some(b), Some(Some(l))) if l > 0 => {
            d.base = Some(b);
            d.length = Some(l);
        }
        _ => return t.refuse(a, format!("'{v}' is not BASE[:LENGTH]")),
    }
    t.mapped(a, "--offset and --range: the part of the target used");
}

fn max_offset(t: &mut Translation, d: &mut Diskspd, a: &str, v: &str) {
    if !v.is_empty() && v.chars().all(|c| "rstRST".contains(c)) {
        return t.differs(a, "access hints (random, sequential, temporary) change only Windows's cache manager; with O_DIRECT there is no cache to hint");
    }
    match size(v, d.block) {
        Some(n) if n > 0 => {
            d.max_offset = Some(n);
            t.mapped(a, "--range: I/O below this offset only");
        }
        _ => t.refuse(a, format!("'{v}' is not a size or access hints (r, s, t)")),
    }
}

/// The dbio flags of the settings read, with the notes on defaults and differences.
fn flags(t: &mut Translation, d: &Diskspd) -> RunFlags {
    let mut f = RunFlags {
        bs: Some(super::size(d.block)),
        duration: Some(secs(d.duration)),
        ramp: (d.warmup > 0.0).then(|| secs(d.warmup)),
        size: d.create,
        seed: d.seed,
        skew: d.hotspot.clone(),
        output_format: d.xml.then_some("diskspd-xml"),
        ..RunFlags::default()
    };
    let random = d.random.is_some();
    if let (true, Some(s)) = (random, &d.sequential) {
        t.refuse(
            s,
            "DiskSpd refuses sequential I/O (-s) with random I/O (-r or -rs): give one",
        );
    }
    if d.hotspot.is_some() && !random {
        t.refuse("-rd", "a random distribution needs random I/O: add -r");
    }
    f.rw = Some(match (random, d.write_pct) {
        (true, 0) => "randread",
        (true, 100) => "randwrite",
        (true, p) => {
            f.mix = Some(100 - p);
            "randrw"
        }
        (false, 0) => "read",
        (false, 100) => "write",
        (false, p) => {
            t.refuse(&format!("-w{p}"), "a sequential mix of reads and writes is not a dbio pattern; add -r for a random mix, or run -w0 and -w100 apart");
            "read"
        }
    });
    if let Some(Some(align)) = d.random {
        if align != d.block {
            f.align = Some(align);
        }
    }
    if d.warmup == 5.0 && !t.notes.iter().any(|n| n.option.starts_with("-W")) {
        t.mapped(
            "-W5 (DiskSpd's default)",
            "--ramp 5s: 5 s of I/O before measuring",
        );
    }
    threads(t, d, &mut f);
    region(t, d, &mut f);
    cache_flags(t, d, &mut f);
    f
}

/// Threads and queue depth: -t per target or -F in all; -o per thread per target.
fn threads(t: &mut Translation, d: &Diskspd, f: &mut RunFlags) {
    let n = d.targets.len().max(1) as u32;
    let o = d.outstanding.unwrap_or(2);
    if d.outstanding.is_none() {
        t.mapped("-o2 (DiskSpd's default)", "--qd 2");
    }
    // Counts past u32 once multiplied by the targets are refused by their flag.
    let mut times_targets = |flag: String, v: u32| {
        v.checked_mul(n).unwrap_or_else(|| {
            t.refuse(
                &flag,
                format!("{v} for each of {n} targets is more than dbio can run"),
            );
            1
        })
    };
    match (d.fixed_threads, d.threads) {
        (Some(_), Some(_)) => t.refuse("-F", "-F and -t cannot both be given (as in DiskSpd)"),
        (Some(fx), None) => {
            f.threads = Some(fx);
            let qd = d
                .per_thread
                .unwrap_or_else(|| times_targets(format!("-o{o}"), o));
            f.qd = Some(qd);
        }
        (None, th) => {
            let total = times_targets(format!("-t{}", th.unwrap_or(1)), th.unwrap_or(1));
            f.threads = Some(total);
            f.qd = Some(o);
            if n > 1 {
                t.differs("-t", format!("DiskSpd gives each target its own threads; dbio's {total} threads spread their I/O over all {n} targets"));
            }
        }
    }
    per_thread(t, d);
    if let Some((limit, iops)) = d.throttle {
        let per_thread_iops = if iops {
            limit
        } else {
            limit * 1000.0 / d.block as f64
        };
        let threads = f.threads.unwrap_or(1) as f64
            * if d.fixed_threads.is_some() {
                n as f64
            } else {
                1.0
            };
        f.rate = Some((per_thread_iops * threads).round().max(1.0) as u64);
    }
    let seq_threads = d.random.is_none() && f.threads.unwrap_or(1) > 1;
    if seq_threads && d.interlocked {
        t.differs("-si", "DiskSpd's threads share one sequential stream; dbio gives each thread its own slice of the target to walk");
    } else if seq_threads {
        t.differs("-t", "DiskSpd's sequential threads all start at the same offset (overlapping); dbio gives each thread its own slice of the target");
    }
}

/// -O: outstanding I/Os per thread over all its targets, which DiskSpd reads only with -F.
fn per_thread(t: &mut Translation, d: &Diskspd) {
    let Some(o) = d.per_thread else { return };
    let opt = format!("-O{o}");
    match (d.fixed_threads, d.throttle) {
        (None, _) => t.mapped(&opt, "DiskSpd reads -O only with -F; with -t each thread keeps -o per target, as --qd does here"),
        (Some(_), None) => t.mapped(&opt, "--qd: each thread's I/Os outstanding over all its targets (with -F, as DiskSpd)"),
        (Some(_), Some(_)) => t.refuse(&opt, "DiskSpd refuses a throughput limit (-g) with -O; leave one out"),
    }
}

/// -B and -f: the part of each target used.
fn region(t: &mut Translation, d: &Diskspd, f: &mut RunFlags) {
    let base = d.base.unwrap_or(0);
    f.offset = d.base.filter(|&b| b > 0);
    f.range = match (d.length, d.max_offset) {
        (Some(l), None) => Some(l),
        (None, Some(m)) if m > base => Some(m - base),
        (None, Some(_)) => {
            t.refuse(
                "-f",
                "the maximum offset lies at or before the base offset (-B)",
            );
            None
        }
        (Some(l), Some(_)) => {
            t.differs("-f", "-B's length wins over -f");
            Some(l)
        }
        (None, None) => None,
    };
    if !d.any_target {
        t.refuse(
            "(no target)",
            "DiskSpd needs a target: give a file or device path",
        );
    }
    f.targets = d.targets.clone();
    if d.create.is_none() {
        t.differs("file size", "without -c a file that exists keeps its size (as DiskSpd); a missing one is created at dbio's 1 GiB (DiskSpd would stop)");
    }
}

/// Caching: DiskSpd caches unless -Su/-Sh; -Sw writes through; the default write data.
fn cache_flags(t: &mut Translation, d: &Diskspd, f: &mut RunFlags) {
    let writes = d.write_pct > 0;
    f.buffered = !d.no_cache;
    if !d.no_cache
        && !t
            .notes
            .iter()
            .any(|n| n.option.starts_with("-S") || n.option == "-h")
    {
        t.mapped("-Sb (DiskSpd's default)", "DiskSpd uses the OS cache unless told otherwise: --buffered (-Sh or -Su bypass it: O_DIRECT)");
    }
    if d.write_through && writes {
        f.sync = Some("dsync".into());
    }
    if d.zeros {
        f.data = Some("zeros".into());
    } else if writes && !t.notes.iter().any(|n| n.option.starts_with("-Z")) {
        t.differs("write data (no -Z)", "DiskSpd writes a repeating 0..255 byte pattern by default, which an array compresses; dbio writes incompressible, unique data (add -Z for zeros)");
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
    fn sizes_take_units_and_blocks() {
        assert_eq!(size("8K", 0), Some(8192));
        assert_eq!(size("1G", 0), Some(1 << 30));
        assert_eq!(size("4096", 0), Some(4096));
        assert_eq!(size("8b", 4096), Some(32768));
        assert_eq!(size("8q", 4096), None);
    }

    #[test]
    fn physical_drives_and_unknown_options_are_refused_by_name() {
        let t = translate(&args("-b8K -Q7 #1"), &no_file);
        let refused: Vec<&str> = t.refusals().iter().map(|n| n.option.as_str()).collect();
        assert_eq!(refused, ["-Q7", "#1"]);
        assert!(t.refusals()[1].text.contains("/dev/"));
    }

    /// Found by the `jobs` fuzz target: an option whose first character takes two bytes
    /// was split inside it (a panic); it is refused by name like any unknown option.
    #[test]
    fn an_option_of_a_wide_character_is_refused() {
        let t = translate(&args("-üinc -b8K /t.dat"), &no_file);
        let refused: Vec<&str> = t.refusals().iter().map(|n| n.option.as_str()).collect();
        assert_eq!(refused, ["-üinc"]);
    }

    /// Found by the `jobs` fuzz target: -t times the targets past u32 overflowed; it is
    /// refused by its flag, as -o times the targets under -F is.
    #[test]
    fn threads_or_depth_times_targets_past_u32_are_refused() {
        let t = translate(&args("-t4294967295 -b8K a b"), &no_file);
        let refused: Vec<&str> = t.refusals().iter().map(|n| n.option.as_str()).collect();
        assert_eq!(refused, ["-t4294967295"]);
        let t = translate(&args("-F2 -o4294967295 -b8K a b"), &no_file);
        let refused: Vec<&str> = t.refusals().iter().map(|n| n.option.as_str()).collect();
        assert_eq!(refused, ["-o4294967295"]);
        let t = translate(&args("-t3 -b8K a b"), &no_file);
        assert_eq!(t.jobs[0].flags.threads, Some(6));
    }

    #[test]
    fn hotspot_needs_two_ranges_that_fill_the_target() {
        let ok = translate(&args("-r -rdpct90/10 t"), &no_file);
        assert_eq!(ok.jobs[0].flags.skew.as_deref(), Some("hotspot:90/10"));
        let ok = translate(&args("-r -rdpct90/10:10/90 t"), &no_file);
        assert!(ok.refusals().is_empty());
        let bad = translate(&args("-r -rdpct90/10:0/10:5/20 t"), &no_file);
        assert_eq!(bad.refusals()[0].option, "-rdpct90/10:0/10:5/20");
    }
}
