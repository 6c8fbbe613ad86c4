//! `dbio sqlio`, `dbio diskspd` and `dbio fio` against tables written by hand from each
//! tool's documentation (SQLIO's readme, DiskSpd's usage text, fio's HOWTO): the `dbio run`
//! line each prints, or the options it refuses by name. The seeds' own SQLIO runs are among
//! them. fio's example job files parse with every option line accounted for.

#![forbid(unsafe_code)]

mod common;
use common::*;
use std::path::Path;

/// Runs `dbio TOOL ARGS… --dry-run` in `dir`: the exit status, stdout and stderr.
fn dry(dir: &Path, tool: &str, args: &str) -> (Option<i32>, String, String) {
    let mut v: Vec<&str> = vec![tool];
    v.extend(args.split_whitespace());
    v.push("--dry-run");
    dbio_in(dir, &v)
}

/// The `dbio run` line printed first.
fn first_line(out: &str) -> &str {
    out.lines().next().unwrap_or("")
}

/// The options named as refused on stderr, sorted.
fn refused(tool: &str, err: &str) -> Vec<String> {
    let prefix = format!("dbio {tool}: ");
    let mut v: Vec<String> = err
        .lines()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|l| l.split_once(": refused: ").map(|(o, _)| o.to_string()))
        .collect();
    v.sort();
    v
}

/// SQLIO command lines (and parameter files) with the dbio run each is, from SQLIO's readme:
/// defaults -kR -t1 -s30 -b2 -BN testfile.dat, one I/O per thread without -o, -BN and -BS
/// write through (--sync dsync on writes), -BY and -BS use the file cache (--buffered).
const SQLIO: &[(&str, &str)] = &[
    // Seed 003: 64 KB sequential writes, 2 threads, a 1000 MB file, 10 s then 90 s.
    ("-kW -t2 -s10 -o8 -fsequential -b64 -BH -LS -Fparam.txt",
     "dbio run --rw write --bs 64k --qd 8 --threads 2 --duration 10s --size 1000m --target testfile.dat"),
    ("-kW -t2 -s90 -o8 -fsequential -b64 -BH -LS -Fparam.txt",
     "dbio run --rw write --bs 64k --qd 8 --threads 2 --duration 90s --size 1000m --target testfile.dat"),
    // Seed 003: random, then 100, 16 and 64 threads on a file of real data.
    ("-kW -t2 -s90 -o8 -frandom -b64 -BH -LS -Fparam.txt",
     "dbio run --rw randwrite --bs 64k --qd 8 --threads 2 --duration 90s --size 1000m --target testfile.dat"),
    ("-kW -t100 -s90 -o8 -frandom -b64 -BH -LS /mnt/pure/backup.bak",
     "dbio run --rw randwrite --bs 64k --qd 8 --threads 100 --duration 90s --target /mnt/pure/backup.bak"),
    ("-kR -t16 -s90 -o8 -frandom -b64 -BH -LS /mnt/pure/backup.bak",
     "dbio run --rw randread --bs 64k --qd 8 --threads 16 --duration 90s --target /mnt/pure/backup.bak"),
    // Seed 003's hour of reads on a 10,000 MB file, 64 threads from a parameter file.
    ("-kR -s3600 -o8 -frandom -b64 -BH -LS -Fparam64.txt",
     "dbio run --rw randread --bs 64k --qd 8 --threads 64 --duration 3600s --size 10000m --target data.dat"),
    // Seed 004: 8 KB random reads and writes, 8 KB sequential log writes (write-through).
    ("-kR -frandom -b8 -t8 -o16 -s120 -BH -LS /mnt/hx/sqlio.dat",
     "dbio run --rw randread --bs 8k --qd 16 --threads 8 --duration 120s --target /mnt/hx/sqlio.dat"),
    ("-kW -frandom -b8 -t8 -o16 -s120 -BH -LS /mnt/hx/sqlio.dat",
     "dbio run --rw randwrite --bs 8k --qd 16 --threads 8 --duration 120s --target /mnt/hx/sqlio.dat"),
    ("-kW -fsequential -b8 -t1 -o1 -s120 -BN -LS /mnt/hx/log.dat",
     "dbio run --rw write --bs 8k --qd 1 --threads 1 --duration 120s --sync dsync --target /mnt/hx/log.dat"),
    // Defaults, and the other buffering modes.
    ("-frandom",
     "dbio run --rw randread --bs 2k --qd 1 --threads 1 --duration 30s --target testfile.dat"),
    ("-kW -frandom -BY f.dat",
     "dbio run --rw randwrite --bs 2k --qd 1 --threads 1 --duration 30s --target f.dat --buffered"),
    ("-kW -fsequential -BS -b256 f.dat",
     "dbio run --rw write --bs 256k --qd 1 --threads 1 --duration 30s --sync dsync --target f.dat --buffered"),
    ("-kR -frandom -b8 -S16 -o4 a.dat b.dat",
     "dbio run --rw randread --bs 8k --qd 8 --threads 1 --duration 30s --offset 128k --target a.dat --target b.dat"),
    // Outstanding I/O, in all as SQLIO keeps it (its readme, -o and -F): "EACH sqlio thread
    // will issue depth number of I/Os for EACH file specified"; without -o a thread issues
    // one I/O on each file in turn; a -F line's threads do I/O on that line's file only.
    // Two files on the command line, no -o: 1 thread, 1 outstanding.
    ("-kR -frandom -b8 a.dat b.dat",
     "dbio run --rw randread --bs 8k --qd 1 --threads 1 --duration 30s --target a.dat --target b.dat"),
    // Two threads, -o4, two files named: 2 x 4 x 2 = 16 outstanding.
    ("-kR -frandom -b8 -t2 -o4 a.dat b.dat",
     "dbio run --rw randread --bs 8k --qd 8 --threads 2 --duration 30s --target a.dat --target b.dat"),
    // -F of two files with 2 threads each at -o4: 4 threads x 4 = 16 (not 32).
    ("-kR -frandom -b8 -o4 -Fparam2.txt",
     "dbio run --rw randread --bs 8k --qd 4 --threads 4 --duration 30s --size 100m --target a.dat --target b.dat"),
    // -F of 2 and 3 threads at -o8: 2 x 8 + 3 x 8 = 40 = 5 threads x 8.
    ("-kW -frandom -b8 -o8 -BH -Fparam23.txt",
     "dbio run --rw randwrite --bs 8k --qd 8 --threads 5 --duration 30s --size 100m --target a.dat --target b.dat"),
];

/// SQLIO options dbio refuses, each named.
const SQLIO_REFUSED: &[(&str, &[&str])] = &[
    ("-kR -b8 f.dat", &["-f64 (SQLIO's default)"]),
    ("-kR -f32 f.dat", &["-f32"]),
    ("-kR -frandom -dDE \\test.dat", &["-dDE", "\\test.dat"]),
    ("-kR -frandom -mC4 -R0 f.dat", &["-R0", "-mC4"]),
    ("-kR -frandom c:\\testfile.dat", &["c:\\testfile.dat"]),
    ("-kX -frandom f.dat", &["-kX"]),
];

/// DiskSpd command lines with the dbio run each is, from DiskSpd's usage text: defaults
/// -b64K -d10 -W5 -o2 -t1, sequential reads, the OS cache on (--buffered); -Sh = -Suw.
const DISKSPD: &[(&str, &str)] = &[
    // The line; DiskSpd warms up 5 s by default and -Sh writes through.
    ("-b8K -d60 -o32 -t4 -r -w25 -Sh T",
     "dbio run --rw randrw --mix 75 --bs 8k --qd 32 --threads 4 --duration 60s --ramp 5s --sync dsync --target T"),
    // DiskSpd's own usage examples.
    ("-c8192K -d1 testfile.dat",
     "dbio run --rw read --bs 64k --qd 2 --threads 1 --duration 1s --ramp 5s --size 8m --target testfile.dat --buffered"),
    ("-b4K -t2 -r -o32 -d10 -Sh testfile.dat",
     "dbio run --rw randread --bs 4k --qd 32 --threads 2 --duration 10s --ramp 5s --target testfile.dat"),
    ("-c1G -b4K -t2 -d10 -a0,1 testfile1.dat testfile2.dat",
     "dbio run --rw read --bs 4k --qd 2 --threads 4 --duration 10s --ramp 5s --size 1g --target testfile1.dat --target testfile2.dat --buffered"),
    // Log writes, a hot spot, a rate limit, bounds, fixed threads, zeros and a seed.
    ("-c10G -b60K -d120 -W0 -o1 -t1 -s -w100 -Sh -L /mnt/log/t.dat",
     "dbio run --rw write --bs 60k --qd 1 --threads 1 --duration 120s --size 10g --sync dsync --target /mnt/log/t.dat"),
    ("-b8K -r -rdpct90/10 -Su -d30 t",
     "dbio run --rw randread --bs 8k --qd 2 --threads 1 --duration 30s --ramp 5s --skew hotspot:90/10 --target t"),
    ("-b8K -r -g100i -t4 -Su t",
     "dbio run --rw randread --bs 8k --qd 2 --threads 4 --duration 10s --ramp 5s --rate 400 --target t"),
    ("-b8K -r -B1G:2G -Su t",
     "dbio run --rw randread --bs 8k --qd 2 --threads 1 --duration 10s --ramp 5s --offset 1g --range 2g --target t"),
    ("-b4K -r8K -F4 -O8 -w100 -Z -z7 -Su a b",
     "dbio run --rw randwrite --bs 4k --align 8k --qd 8 --threads 4 --duration 10s --ramp 5s --data zeros --seed 7 --target a --target b"),
    // -O: outstanding per thread over all targets, read with -F only (without it each of -t
    // threads per target keeps -o, default 2); -F2 -o4 on two targets is 4 per target.
    ("-b8K -F2 -O16 -r -Su a b",
     "dbio run --rw randread --bs 8k --qd 16 --threads 2 --duration 10s --ramp 5s --target a --target b"),
    ("-b8K -t2 -O16 -r -Su a b",
     "dbio run --rw randread --bs 8k --qd 2 --threads 4 --duration 10s --ramp 5s --target a --target b"),
    ("-b8K -F2 -o4 -r -Su a b",
     "dbio run --rw randread --bs 8k --qd 8 --threads 2 --duration 10s --ramp 5s --target a --target b"),
    // Sizes in blocks (b) of the -b size: the last -b's for every other option, the one
    // before it for a -b itself (-b8b is 8 x DiskSpd's default 64 KiB).
    ("-b8b -r -Su t",
     "dbio run --rw randread --bs 512k --qd 2 --threads 1 --duration 10s --ramp 5s --target t"),
    ("-b4K -r -B2b:8b -Su t",
     "dbio run --rw randread --bs 4k --qd 2 --threads 1 --duration 10s --ramp 5s --offset 8k --range 32k --target t"),
    ("-B2b -b4K -r2b -f64b -Su t",
     "dbio run --rw randread --bs 4k --align 8k --qd 2 --threads 1 --duration 10s --ramp 5s --offset 8k --range 248k --target t"),
    // -rs100 is -r (the alignment from -r, else the block size).
    ("-b4K -rs100 -Su t",
     "dbio run --rw randread --bs 4k --qd 2 --threads 1 --duration 10s --ramp 5s --target t"),
    ("-b4K -r8K -rs100 -w30 -Su t",
     "dbio run --rw randrw --mix 70 --bs 4k --align 8k --qd 2 --threads 1 --duration 10s --ramp 5s --target t"),
];

/// DiskSpd options dbio refuses, each named.
const DISKSPD_REFUSED: &[(&str, &[&str])] = &[
    ("-b8K -r #1", &["#1"]),
    ("-b8K -w50 t", &["-w50"]),
    ("-b8K -Sm t", &["-Sm"]),
    ("-b8K -i4 -j10 t", &["-i4", "-j10"]),
    (
        "-b8K -r -rdpct90/10:0/10:5/20 t",
        &["-rdpct90/10:0/10:5/20"],
    ),
    ("-b8K E:", &["E:"]),
    ("-Xmissing.xml t", &["-Xmissing.xml"]),
    // A random/sequential mix is no dbio pattern; -rs takes 1 to 100; -s with -r, and -g
    // with -F's -O, DiskSpd refuses itself.
    ("-b8K -rs50 -w30 t", &["-rs50"]),
    ("-b8K -rs0 t", &["-rs0"]),
    ("-b8K -r -si t", &["-si"]),
    ("-b8K -F2 -O8 -g100 -r a b", &["-O8"]),
];

fn write_param_files(dir: &Path) {
    std::fs::write(
        dir.join("param.txt"),
        "# file threads mask size\ntestfile.dat 2 0x0 1000\n",
    )
    .unwrap();
    std::fs::write(dir.join("param64.txt"), "data.dat 64 0x0 10000\n").unwrap();
    std::fs::write(dir.join("param2.txt"), "a.dat 2 0x0 100\nb.dat 2 0x0 100\n").unwrap();
    std::fs::write(
        dir.join("param23.txt"),
        "a.dat 2 0x0 100\n#c.dat 8 0x0 100\nb.dat 3 0x0 100\n",
    )
    .unwrap();
}

#[test]
fn sqlio_command_lines_become_these_dbio_runs() {
    let dir = scratch();
    write_param_files(dir.path());
    for (args, want) in SQLIO {
        let (code, out, err) = dry(dir.path(), "sqlio", args);
        assert_eq!(code, Some(0), "sqlio {args}: {err}");
        assert_eq!(first_line(&out), *want, "sqlio {args}");
    }
    for (args, want) in SQLIO_REFUSED {
        let (code, _, err) = dry(dir.path(), "sqlio", args);
        assert_eq!(code, Some(2), "sqlio {args}: {err}");
        assert_eq!(refused("sqlio", &err), *want, "sqlio {args}: {err}");
    }
}

#[test]
fn diskspd_command_lines_become_these_dbio_runs() {
    let dir = scratch();
    for (args, want) in DISKSPD {
        let (code, out, err) = dry(dir.path(), "diskspd", args);
        assert_eq!(code, Some(0), "diskspd {args}: {err}");
        assert_eq!(first_line(&out), *want, "diskspd {args}");
    }
    for (args, want) in DISKSPD_REFUSED {
        let (code, _, err) = dry(dir.path(), "diskspd", args);
        assert_eq!(code, Some(2), "diskspd {args}: {err}");
        assert_eq!(refused("diskspd", &err), *want, "diskspd {args}: {err}");
    }
}

#[test]
fn a_diskspd_xml_profile_is_its_command_line() {
    let dir = scratch();
    let xml = "<Profile><TimeSpans><TimeSpan><Duration>60</Duration><Warmup>5</Warmup>\
        <Targets><Target><Path>*1</Path><BlockSize>8192</BlockSize>\
        <DisableOSCache>true</DisableOSCache><WriteThrough>true</WriteThrough>\
        <Random>8192</Random><RequestCount>32</RequestCount><WriteRatio>25</WriteRatio>\
        <ThreadsPerFile>4</ThreadsPerFile></Target></Targets></TimeSpan></TimeSpans></Profile>";
    std::fs::write(dir.path().join("p.xml"), xml).unwrap();
    let (code, out, err) = dry(dir.path(), "diskspd", "-Xp.xml /mnt/t.dat");
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        first_line(&out),
        "dbio run --rw randrw --mix 75 --bs 8k --qd 32 --threads 4 --duration 60s --ramp 5s --sync dsync --target /mnt/t.dat"
    );
    // The command line's own settings win over the profile's (as in DiskSpd).
    let (_, out, _) = dry(dir.path(), "diskspd", "-Xp.xml -d10 /mnt/t.dat");
    assert!(first_line(&out).contains("--duration 10s"), "{out}");
    // <DisableAllCache> is -Sh and a <Distribution> of <Percent> ranges is -rdpct (as
    // diskspd.xsd and its XML reader have them): the same run as the command line's.
    let xml = "<Profile><TimeSpans><TimeSpan><Duration>60</Duration><Targets><Target>\
        <Path>*1</Path><BlockSize>8192</BlockSize><DisableAllCache>true</DisableAllCache>\
        <Random>8192</Random><Distribution><Percent><Range IO=\"90\">10</Range>\
        <Range IO=\"10\">90</Range></Percent></Distribution><WriteRatio>30</WriteRatio>\
        </Target></Targets></TimeSpan></TimeSpans></Profile>";
    std::fs::write(dir.path().join("d.xml"), xml).unwrap();
    let (code, out, err) = dry(dir.path(), "diskspd", "-Xd.xml /mnt/t.dat");
    assert_eq!(code, Some(0), "{err}");
    let (_, cmd_line, _) = dry(
        dir.path(),
        "diskspd",
        "-d60 -b8K -Sh -r -rdpct90/10:10/90 -w30 /mnt/t.dat",
    );
    assert_eq!(first_line(&out), first_line(&cmd_line));
    assert!(
        first_line(&out).contains("--skew hotspot:90/10 --sync dsync"),
        "{out}"
    );
    // <RandomRatio> is -rs, and <Absolute> ranges -rdabs: refused by those names.
    let xml = "<Profile><TimeSpans><TimeSpan><Targets><Target><Path>*1</Path>\
        <Random>8192</Random><RandomRatio>40</RandomRatio><Distribution><Absolute>\
        <Range IO=\"90\">1073741824</Range></Absolute></Distribution>\
        </Target></Targets></TimeSpan></TimeSpans></Profile>";
    std::fs::write(dir.path().join("a.xml"), xml).unwrap();
    let (code, _, err) = dry(dir.path(), "diskspd", "-Xa.xml /mnt/t.dat");
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(
        refused("diskspd", &err),
        ["-rdabs90/1073741824", "-rs40"],
        "{err}"
    );
}

/// SQLIO's layout of a translated run as SQLIO prints its own (its readme and its output):
/// "N threads reading for S secs from file F" and, for -BN, "buffering set to not use file
/// nor disk caches (as is SQL Server)", also when the run only reads.
#[test]
fn sqlio_s_layout_reads_from_the_file_with_the_buffering_asked() {
    let dir = scratch();
    for (b, want) in [
        (
            "-BN",
            "\tbuffering set to not use file nor disk caches (as is SQL Server)",
        ),
        (
            "-BH",
            "\tbuffering set to use hardware disk cache (but not file cache)",
        ),
    ] {
        let args = [
            "sqlio",
            "-kR",
            "-frandom",
            "-b4",
            "-s1",
            b,
            "f.dat",
            "--size",
            "1m",
            "--duration",
            "100ms",
            "--ramp",
            "0s",
            "--no-store",
            "--output-format",
            "sqlio",
        ];
        let (code, out, err) = dbio_in(dir.path(), &args);
        assert_eq!(code, Some(0), "{b}: {err}");
        let line = |needle: &str| out.lines().find(|l| l.contains(needle)).unwrap_or("");
        assert!(
            line("threads reading for").ends_with("secs from file f.dat"),
            "{b}: {out}"
        );
        assert_eq!(line("buffering"), want, "{b}: {out}");
    }
}

/// fio's examples: the dbio runs of those dbio can run (by hand from fio's HOWTO: defaults
/// rw=read, bs=4k, ioengine=psync, iodepth=1, direct=0; size without runtime is the amount).
const FIO_RUNS: &[(&str, &[&str])] = &[
    ("fio-rand-read", &["dbio run --rw randread --bs 4k --qd 1 --threads 1 --duration 900s --size 10g --engine uring --target fio-rand-read --label file1 --buffered --invalidate"]),
    ("fio-rand-RW", &["dbio run --rw randrw --mix 60 --bs 4k --qd 1 --threads 4 --duration 900s --size 10g --engine uring --target fio-rand-RW --label file1 --buffered --invalidate"]),
    ("fio-seq-read", &["dbio run --rw read --bs 256k --qd 16 --threads 1 --duration 900s --size 10g --engine uring --target fio-seq-reads --label file1"]),
    ("iometer-file-access-server", &["dbio run --rw randrw --mix 80 --bs 512:10,1k:5,2k:5,4k:60,8k:2,16k:4,32k:4,64k:10 --qd 64 --threads 1 --bytes 4g --size 4g --engine uring --target iometer --label iometer"]),
    ("zipf", &["dbio run --rw randread --bs 4k --qd 1 --threads 1 --bytes 1280m --size 1280m --skew zipf:0.5 --engine null --target job --label job --buffered --invalidate"]),
    ("null", &["dbio run --rw randread --bs 4k --qd 1 --threads 1 --bytes 100g --size 100g --engine null --target null --label null --buffered --invalidate"]),
    ("fixed-rate-submission", &["dbio run --rw read --bs 4k --qd 32 --threads 1 --bytes 128m --size 128m --rate 1000 --engine uring --target fixed-rate-submit --label fixed-rate-submit"]),
    ("poisson-rate-submission", &["dbio run --rw randread --bs 4k --qd 32 --threads 1 --bytes 128m --size 128m --rate 50 --arrivals poisson --engine uring --target poisson-rate-submit --label poisson-rate-submit"]),
    ("steadystate", &[
        "dbio run --rw write --bs 128k --qd 1 --threads 4 --duration 300s --ramp 10s --range 128m --engine psync --steady iops:10% --steady-window 30s --steady-max 300s --target /dev/null --label ss-write --buffered --invalidate",
        "dbio run --rw randread --bs 4k --qd 1 --threads 4 --duration 300s --ramp 5s --range 128m --engine psync --steady bw_slope:1% --steady-window 10s --steady-max 300s --target /dev/zero --label ss-read --buffered --invalidate",
    ]),
    ("tiobench-example", &[
        "dbio run --rw write --bs 4k --qd 1 --threads 4 --duration 60s --size 512m --engine psync --target f1 --label f1",
        "dbio run --rw randwrite --bs 4k --qd 1 --threads 4 --duration 60s --size 512m --engine psync --target f2 --label f2",
        "dbio run --rw read --bs 4k --qd 1 --threads 4 --duration 60s --size 512m --engine psync --target f3 --label f3",
        "dbio run --rw randread --bs 4k --qd 1 --threads 4 --duration 60s --size 512m --engine psync --target f4 --label f4",
    ]),
    ("ssd-test", &[
        "dbio run --rw read --bs 4k --qd 4 --threads 1 --duration 60s --size 10g --engine uring --target /mount-point-of-ssd/ssd.test.file --label seq-read",
        "dbio run --rw randread --bs 4k --qd 4 --threads 1 --duration 60s --size 10g --engine uring --target /mount-point-of-ssd/ssd.test.file --label rand-read",
        "dbio run --rw write --bs 4k --qd 4 --threads 1 --duration 60s --size 10g --engine uring --target /mount-point-of-ssd/ssd.test.file --label seq-write",
        "dbio run --rw randwrite --bs 4k --qd 4 --threads 1 --duration 60s --size 10g --engine uring --target /mount-point-of-ssd/ssd.test.file --label rand-write",
    ]),
    ("env-include", &["dbio run --rw randrw --mix 70 --bs 8k --qd 32 --threads 4 --duration 60s --size 2g --engine uring --target /mnt/data/dbio.dat --label oltp"]),
    // rw=rw: sequential reads and writes by rwmixread; buffered libaio keeps one I/O in flight.
    ("fio-seq-RW", &["dbio run --rw readwrite --mix 60 --bs 256k --qd 1 --threads 4 --duration 900s --size 10g --engine uring --target fio-seq-RW --label file1 --buffered --invalidate"]),
    // Four jobs at once (no stonewall): one run, a stream each with its own iodepth.
    ("aio-read", &["dbio run --stream '{name = \"file1\", target = \"file1\", rw = \"randread\", bs = \"128k\", qd = 4, threads = 1, size = \"512m\"}' --stream '{name = \"file2\", target = \"file2\", rw = \"randread\", bs = \"128k\", qd = 32, threads = 1, size = \"512m\"}' --stream '{name = \"file3\", target = \"file3\", rw = \"randread\", bs = \"128k\", qd = 8, threads = 1, size = \"512m\"}' --stream '{name = \"file4\", target = \"file4\", rw = \"randread\", bs = \"128k\", qd = 16, threads = 1, size = \"512m\"}' --bytes 512m --engine uring --target file1=/data1/file1 --target file2=/data1/file2 --target file3=/data1/file3 --target file4=/data1/file4 --label file1+file2+file3+file4"]),
];

/// fio's examples dbio refuses, with the options (or jobs) it names.
const FIO_REFUSED: &[(&str, &[&str])] = &[
    (
        "ssd-steadystate",
        &[
            "[random-write-steady] no runtime and no size",
            "[sequential-fill] no runtime and no size",
        ],
    ),
    (
        "jesd219",
        &[
            "[JESD219] no runtime and no size",
            "random_distribution=zoned:50/5:30/15:20/80",
        ],
    ),
    (
        "latency-profile",
        &[
            "[device] no runtime and no size",
            "latency_percentile=99.9",
            "latency_target=500000",
            "latency_window=5000000",
        ],
    ),
    (
        "basic-verify",
        &["[write-and-verify] no runtime and no size", "verify=crc32c"],
    ),
    ("backwards-read", &["rw=read:-8k"]),
    (
        "butterfly",
        &[
            "[backward] no runtime and no size",
            "[forward] no runtime and no size",
            "flow=2",
            "rw=read:-8k",
        ],
    ),
    ("1mbs_clients", &["startdelay=4", "startdelay=8"]),
];

/// The devices of the examples whose jobs give neither runtime nor size: fio (and dbio) go
/// once over the whole device, so the job is refused only where the device is not there.
const ONE_PASS_DEVICES: &[(&str, &str)] = &[
    ("ssd-steadystate", "/dev/fioa"),
    ("jesd219", "/dev/nvme0n1"),
    ("latency-profile", "/dev/sda"),
    ("basic-verify", "/dev/XXX"),
];

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fio_examples/{name}.fio",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Every option line of a job file (and of the files it includes) is named in a note.
fn assert_every_option_noted(name: &str, out: &str) {
    let path = fixture(name);
    let mut text = std::fs::read_to_string(&path).unwrap();
    let inc = format!(
        "{}/tests/fio_examples/common.inc",
        env!("CARGO_MANIFEST_DIR")
    );
    if text.contains("include common.inc") {
        text.push_str(&std::fs::read_to_string(inc).unwrap());
    }
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with([';', '#', '[']) || line.starts_with("include ") {
            continue;
        }
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{line}: "))),
            "{name}: option '{line}' is neither mapped nor refused by name:\n{out}"
        );
    }
}

#[test]
fn fio_examples_run_as_these_dbio_runs_with_every_option_noted() {
    let dir = scratch();
    for (name, want) in FIO_RUNS {
        let out = dbio_command()
            .current_dir(dir.path())
            .env("DBIO_TEST_SIZE", "2g")
            .args(["fio", &fixture(name), "--dry-run"])
            .output()
            .unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
        let runs: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("dbio run "))
            .collect();
        assert_eq!(runs, *want, "{name}");
        assert_every_option_noted(name, &stdout);
    }
}

#[test]
fn fio_examples_dbio_cannot_run_are_refused_by_name() {
    let dir = scratch();
    for (name, want) in FIO_REFUSED {
        let (code, out, err) = dbio_in(dir.path(), &["fio", &fixture(name), "--dry-run"]);
        assert_eq!(code, Some(2), "{name}: {err}");
        let present = ONE_PASS_DEVICES
            .iter()
            .any(|(n, dev)| n == name && Path::new(dev).exists());
        let mut want = want.to_vec();
        want.retain(|o| !(present && o.ends_with(" no runtime and no size")));
        assert_eq!(refused("fio", &err), want, "{name}: {err}");
        assert!(
            !out.lines().any(|l| l.starts_with("dbio run ")),
            "{name}: printed a run"
        );
        assert_every_option_noted(name, &out);
    }
}

#[test]
fn fio_job_file_errors_name_the_file_and_line() {
    let dir = scratch();
    std::fs::write(dir.path().join("bad.fio"), "bs=4k\n[j]\n").unwrap();
    let (code, _, err) = dbio_in(dir.path(), &["fio", "bad.fio"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("bad.fio line 1") && err.contains("before any [section]"),
        "{err}"
    );
    let (code, _, err) = dbio_in(dir.path(), &["fio", "missing.fio"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("missing.fio"), "{err}");
    std::fs::write(
        dir.path().join("env.fio"),
        "[j]\nsize=${DBIO_NOT_SET_ANYWHERE}\n",
    )
    .unwrap();
    let (code, _, err) = dbio_in(dir.path(), &["fio", "env.fio"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("DBIO_NOT_SET_ANYWHERE is not set"), "{err}");
}

#[test]
fn translated_runs_keep_dbio_safety() {
    // A file dbio did not create is not written without --destroy-data, whichever tool's
    // words asked for the writes.
    let dir = scratch();
    let foreign = dir.path().join("foreign.dat");
    std::fs::write(&foreign, vec![7u8; 1 << 20]).unwrap();
    let f = foreign.to_str().unwrap();
    for (tool, args) in [
        ("sqlio", format!("-kW -frandom -b8 -s1 {f}")),
        ("diskspd", format!("-b8K -w100 -r -d1 -W0 -Sh {f}")),
    ] {
        let mut v: Vec<&str> = vec![tool];
        v.extend(args.split_whitespace());
        v.push("--no-store");
        let (code, out, err) = dbio_in(dir.path(), &v);
        assert_eq!(code, Some(2), "{tool}: {out}{err}");
        assert!(err.contains("--destroy-data"), "{tool}: {err}");
        assert!(
            out.starts_with("dbio run "),
            "{tool}: the equivalent line comes first: {out}"
        );
    }
    assert_eq!(std::fs::read(&foreign).unwrap(), vec![7u8; 1 << 20]);
}

/// A refusal gives the true reason, and fio's keyword arithmetic is worked out as fio does:
/// `1024*1024*$mb_memory/1024` is the machine's memory in KiB, in bytes (from /proc/meminfo).
#[test]
fn refusals_name_the_true_reason_and_keyword_arithmetic_is_worked_out() {
    let dir = scratch();
    let refusal = |tool: &str, args: &[&str]| {
        let mut all = vec![tool];
        all.extend_from_slice(args);
        all.push("--dry-run");
        let (code, _, err) = dbio_in(dir.path(), &all);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        err
    };
    let job = |name: &str, body: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("[j]\nfilename=f.dat\nrw=randread\n{body}\n")).unwrap();
        path.to_string_lossy().into_owned()
    };
    let err = refusal("fio", &[&job("bs0.fio", "bs=0\nsize=1m")]);
    assert!(
        err.contains("bs=0: refused: a block size of 0 bytes"),
        "{err}"
    );
    let err = refusal("fio", &[&job("v.fio", "bs=4k\nsize=1m\nverify=crc32c")]);
    assert!(
        err.contains("verify=crc32c: refused:") && err.contains("add --verify"),
        "{err}"
    );
    let err = refusal(
        "fio",
        &[&job("ff.fio", "bs=4k\nsize=1m\nfilename_format=f.$jobnum")],
    );
    assert!(
        err.contains("filename_format=f.$jobnum: refused: fio names each job's files"),
        "{err}"
    );
    for (r, why) in [
        ("-Rjson", "text and xml"),
        ("-Rptext", "profile without running"),
    ] {
        let err = refusal("diskspd", &["-c1M", "-d1", r, "f.dat"]);
        assert!(
            err.contains(&format!("{r}: refused: ")) && err.contains(why),
            "{r}: {err}"
        );
    }
    let mem_kib: u64 = std::fs::read_to_string("/proc/meminfo")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    let (code, out, err) = dbio_in(
        dir.path(),
        &[
            "fio",
            &job("m.fio", "bs=(2*4096)\nsize=1024*1024*$mb_memory/1024"),
            "--dry-run",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let bytes = (mem_kib / 1024) * 1024 * 1024 / 1024;
    assert!(
        out.contains("--bs 8k") && out.contains(&format!("--bytes {}k", bytes / 1024)),
        "{out}"
    );
}

/// dbio's own flags after a job file override what the job says (fio's command line overrides
/// its job file the same way), with a note; each flag is given once to the run.
#[test]
fn a_translated_setting_given_again_is_the_user_s_with_a_note() {
    let dir = scratch();
    let job = dir.path().join("j.fio");
    std::fs::write(
        &job,
        "[j]\nfilename=f.dat\nrw=randread\nbs=4k\nsize=1m\nruntime=5\ntime_based\n",
    )
    .unwrap();
    let job = job.to_string_lossy().into_owned();
    let (code, out, err) = dbio_in(
        dir.path(),
        &["fio", &job, "--duration", "2s", "--bs=8k", "--dry-run"],
    );
    assert_eq!(code, Some(0), "{err}");
    let run = out
        .lines()
        .find(|l| l.starts_with("dbio run "))
        .expect("a run line");
    assert!(run.ends_with(" --duration 2s --bs=8k"), "{run}");
    assert!(!run.contains("5s") && !run.contains("--bs 4k"), "{run}");
    assert!(
        err.contains("note: --duration 5s of the fio job is replaced by yours"),
        "{err}"
    );
    assert!(
        err.contains("note: --bs 4k of the fio job is replaced by yours"),
        "{err}"
    );
}

/// `--duration` after a job that stops after its size takes the place of the job's `--bytes`:
/// `dbio run` takes one of --duration, --bytes and --ops, and the later word wins.
#[test]
fn a_duration_after_a_job_that_stops_after_its_size_replaces_its_bytes() {
    let dir = scratch();
    let job = dir.path().join("j.fio");
    std::fs::write(&job, "[j]\nfilename=f.dat\nrw=randread\nbs=4k\nsize=1m\n").unwrap();
    let job = job.to_string_lossy().into_owned();
    let (code, out, err) = dbio_in(dir.path(), &["fio", &job, "--duration", "1s", "--dry-run"]);
    assert_eq!(code, Some(0), "{err}");
    let run = out
        .lines()
        .find(|l| l.starts_with("dbio run "))
        .expect("a run line");
    assert!(run.ends_with(" --duration 1s"), "{run}");
    assert!(!run.contains("--bytes"), "{run}");
    assert!(
        err.contains("note: --bytes 1m of the fio job is replaced by yours"),
        "{err}"
    );
}

/// `dbio fio --dry-run` of one job of 4 KiB random reads over 1 MiB of f.dat with `options`
/// besides, which must translate: its run line and all it printed.
fn dry_fio(options: &str) -> (String, String) {
    let dir = scratch();
    let job = dir.path().join("j.fio");
    let text = format!("[j]\nfilename=f.dat\nrw=randread\nbs=4k\nsize=1m\n{options}");
    std::fs::write(&job, text).unwrap();
    let (code, out, err) = dbio_in(dir.path(), &["fio", &job.to_string_lossy(), "--dry-run"]);
    assert_eq!(code, Some(0), "{options}: {err}");
    let run = out
        .lines()
        .find(|l| l.starts_with("dbio run "))
        .expect("a run line");
    (run.to_string(), out)
}

/// fio's libaio through the page cache (direct=0) completes each I/O before the next is
/// submitted, so its job has one I/O in flight: the run says --qd 1, with a note; with
/// direct=1 it keeps its iodepth.
#[test]
fn buffered_libaio_is_one_io_in_flight_as_fio_runs_it() {
    for (direct, qd) in [("0", "--qd 1 "), ("1", "--qd 32 ")] {
        let (run, out) = dry_fio(&format!("ioengine=libaio\niodepth=32\ndirect={direct}\n"));
        assert!(run.contains(qd), "direct={direct}: {run}");
        let noted = out.contains("iodepth with libaio or posixaio without direct=1");
        assert_eq!(noted, direct == "0", "{out}");
    }
}

/// fio drops a buffered job's file from the page cache first (invalidate=1, its default):
/// the run says --invalidate, unless the job says invalidate=0.
#[test]
fn a_buffered_fio_job_starts_cold_unless_it_says_invalidate_0() {
    for (line, cold) in [
        ("", true),
        ("invalidate=1\n", true),
        ("invalidate=0\n", false),
    ] {
        let (run, _) = dry_fio(line);
        assert_eq!(
            run.ends_with("--buffered --invalidate"),
            cold,
            "{line:?}: {run}"
        );
    }
}
