//! Two fio jobs at once on one file (issue 26): `dbio fio` runs them as two streams that
//! each open the file, as fio's jobs do. The oracle is strace: every pread64 and pwrite64
//! the run makes on the file, with its length and offset, as the kernel was asked for them,
//! held against each job's region by hand from fio's HOWTO (offset= to offset= + size=).

#![forbid(unsafe_code)]

mod common;
use common::*;
use serde_json::Value;

const M: u64 = 1 << 20;

/// A random 4k reader over 0..4m and a sequential 64k writer over 8m..12m of one file,
/// with psync (so each I/O is a syscall strace sees) and O_DIRECT.
const JOB: &str =
    "[global]\nfilename=shared.dat\nioengine=psync\ndirect=1\nruntime=1\ntime_based\n\
                   [r]\nrw=randread\nbs=4k\nsize=4m\n\
                   [w]\nrw=write\nbs=64k\noffset=8m\nsize=4m\n";

/// The stream named `name` of a dbio result.
fn stream<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["streams"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no stream {name}: {r}"))
}

#[test]
fn two_jobs_at_once_on_one_file_each_keep_to_their_region() {
    let test = "two_jobs_at_once_on_one_file_each_keep_to_their_region";
    let dir = scratch();
    std::fs::write(dir.path().join("shared.fio"), JOB).unwrap();
    let (code, said, err) = dbio_in(dir.path(), &["fio", "shared.fio", "--dry-run"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        said.contains("[r] [w] filename: mapped: both jobs use shared.dat; dbio opens it once per stream, as fio does"),
        "{said}"
    );
    let args = [
        "fio",
        "shared.fio",
        "--duration",
        "1s",
        "--no-store",
        "--json",
        "out.json",
    ];
    let Some((_, stderr)) = dbio_traced(test, dir.path(), &args) else {
        return;
    };
    assert!(
        stderr.contains("dbio run: streams r and w share shared.dat: it is made once, 12 MiB, the largest size they ask (r keeps to 0 B..4 MiB)"),
        "{stderr}"
    );
    // Made once, at the larger of the two jobs' needs (offset 8m + size 4m).
    let len = std::fs::metadata(dir.path().join("shared.dat"))
        .unwrap()
        .len();
    assert_eq!(len, 12 * M);

    let ios: Vec<Io> = strace_ios(dir.path(), "trace", "shared.dat").concat();
    let reads: Vec<&Io> = ios.iter().filter(|i| !i.write).collect();
    let writes: Vec<&Io> = ios
        .iter()
        .filter(|i| i.write && i.len == 64 << 10)
        .collect();
    // The prefill writes the new file once, whole, in 1 MiB pieces: twelve of them.
    let prefill: Vec<u64> = ios
        .iter()
        .filter(|i| i.write && i.len == M)
        .map(|i| i.offset)
        .collect();
    assert_eq!(prefill, (0..12).map(|k| k * M).collect::<Vec<_>>());
    assert_eq!(
        reads.len() + writes.len() + prefill.len(),
        ios.len(),
        "only 4k reads, 64k writes and the prefill: {:?}",
        ios.iter()
            .filter(|i| i.len != 4096 && i.len != 64 << 10)
            .take(5)
            .collect::<Vec<_>>()
    );

    let odd = reads.iter().find(|i| i.len != 4096);
    assert_eq!(odd, None, "[r] reads 4k");
    // The first few I/Os outside [lo, hi), and how many there are.
    let outside = |v: &[&Io], lo: u64, hi: u64| -> (usize, Vec<Io>) {
        let out: Vec<Io> = v
            .iter()
            .filter(|i| i.offset < lo || i.offset + i.len > hi)
            .map(|i| **i)
            .collect();
        (out.len(), out.into_iter().take(3).collect())
    };
    assert_eq!(
        outside(&reads, 0, 4 * M),
        (0, vec![]),
        "[r] reads 0..4m only"
    );
    assert_eq!(
        outside(&writes, 8 * M, 12 * M),
        (0, vec![]),
        "[w] writes 8m..12m only"
    );
    // The sequential writer walks its region in order from its start (wrapping at its end).
    assert_eq!(writes.first().map(|i| i.offset), Some(8 * M));
    let jump = writes
        .windows(2)
        .find(|w| w[1].offset != w[0].offset + (64 << 10) && w[1].offset != 8 * M);
    assert_eq!(jump, None, "[w] writes in order");

    // Each stream's own count is non-zero and no more than strace saw (the ramp and the
    // I/Os in flight at the end are not measured).
    let r: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("out.json")).unwrap()).unwrap();
    let (sr, sw) = (stream(&r, "r"), stream(&r, "w"));
    let n = |s: &Value, p: &str| s.pointer(p).and_then(Value::as_u64).unwrap_or(0);
    let (r_ios, w_ios) = (n(sr, "/read/ios"), n(sw, "/write/ios"));
    assert!(
        r_ios > 0 && r_ios <= reads.len() as u64,
        "{r_ios} of {}",
        reads.len()
    );
    assert!(
        w_ios > 0 && w_ios <= writes.len() as u64,
        "{w_ios} of {}",
        writes.len()
    );
    assert!(sr["write"].is_null() && sw["read"].is_null(), "{sr} {sw}");
    // The run lists the file once; each stream names it as its own.
    let paths: Vec<&str> = r["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["shared.dat"]);
    assert_eq!(sr["targets"][0]["path"], "shared.dat");
    assert_eq!(sw["targets"][0]["path"], "shared.dat");
}

/// With --verify the writer's region may not overlap the other stream's where either
/// writes: refused by stream and file before anything is made.
#[test]
fn verify_with_overlapping_regions_on_one_file_is_refused_by_name() {
    let dir = scratch();
    let job = "[global]\nfilename=shared.dat\nruntime=1\ntime_based\n\
               [a]\nrw=randwrite\nbs=4k\nsize=8m\n\
               [b]\nrw=write\nbs=64k\noffset=4m\nsize=4m\n";
    std::fs::write(dir.path().join("v.fio"), job).unwrap();
    let (code, _, err) = dbio_in(dir.path(), &["fio", "v.fio", "--verify", "--no-store"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--verify: streams a (0 B..8 MiB) and b (4 MiB..8 MiB) both use shared.dat and their regions overlap"),
        "{err}"
    );
    assert!(!dir.path().join("shared.dat").exists());
}
