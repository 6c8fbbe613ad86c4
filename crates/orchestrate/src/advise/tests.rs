//! `dbio advise` between its libraries, on saved copies of /proc/diskstats.

use super::*;
use std::time::Duration;

/// /proc/uptime then /proc/diskstats, 60 s apart: sda did 6,000 reads and 1,000 writes.
const BEFORE: &str = "1000.00 1500.00
 259       0 nvme0n1 1000 0 16000 500 2000 0 32000 900 0 0 0 0 0 0 0 0 0
   8       0 sda 100 0 800 500 50 0 400 100 0 0 0
";
const AFTER: &str = "1060.00 1600.00
 259       0 nvme0n1 61000 0 976000 30500 12000 0 192000 5900 0 0 0 0 0 0 0 0 0
   8       0 sda 6100 0 96800 60500 1050 0 8400 10100 0 0 0
";
const SIZES: &str = "NAME,BYTES\n/dev/sda,107374182400\n";

/// Writes `files` (name, text) into a fresh folder of its own and returns their paths.
fn files(test: &str, files: &[(&str, &str)]) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("dbio-advise-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    files
        .iter()
        .map(|(name, text)| {
            let p = dir.join(name);
            std::fs::write(&p, text).expect("a temporary file");
            p.display().to_string()
        })
        .collect()
}

/// An interval that is never waited: exports are read at once.
struct NoWait;

impl Interval for NoWait {
    fn arm(&mut self) {}
    fn wait(&mut self, _: Duration) -> Option<f64> {
        unreachable!("exports are not waited for")
    }
    fn save(&mut self, _: &str, _: &[u8]) -> std::io::Result<()> {
        unreachable!("exports are not saved")
    }
}

/// A history that holds nothing.
fn nothing(name: &str) -> Result<String, String> {
    Err(format!("{name}: no such run"))
}

fn request(exports: Vec<String>) -> Request {
    Request {
        source: Source {
            exports,
            ..Default::default()
        },
        ..Default::default()
    }
}

#[test]
fn inputs_are_the_files_read_then_the_stored_runs_looked_up() {
    let mut r = request(vec!["a.txt".into(), "b.txt".into()]);
    r.sizes = Some("sizes.csv".into());
    r.flash = vec!["flash-run".into()];
    r.current = Some("disk-run".into());
    let plan = r.plan().expect("a valid request");
    let inputs = r.inputs(&plan, |runs| {
        assert_eq!(runs, ["flash-run", "disk-run"]);
        vec!["history.db".to_string()]
    });
    assert_eq!(inputs, ["a.txt", "b.txt", "sizes.csv", "history.db"]);
    let plain = request(vec!["a.txt".into()]);
    let inputs = plain.inputs(&plain.plan().expect("valid"), |runs| {
        assert!(runs.is_empty());
        Vec::new()
    });
    assert_eq!(inputs, ["a.txt"]);
}

#[test]
fn two_copies_of_diskstats_give_advice_with_their_sizes() {
    let f = files(
        "two",
        &[("before", BEFORE), ("after", AFTER), ("sizes", SIZES)],
    );
    let mut r = request(f[..2].to_vec());
    r.sizes = Some(f[2].clone());
    let plan = r.plan().expect("a valid request");
    let Ok(Advice::Made {
        result,
        interrupted,
    }) = r.advise(&plan, &nothing, &mut NoWait)
    else {
        panic!("advice from two copies");
    };
    assert!(!interrupted);
    assert_eq!(result.source.system, "diskstats");
    assert_eq!(result.source.interval_secs, 60.0);
    assert_eq!(result.objects[0].name, "/dev/sda");
    assert_eq!(result.objects[0].size_bytes, Some(107374182400));
    assert!(
        result.notes.iter().any(|n| n.contains("/dev/nvme0n1")),
        "the object without a size is named: {:?}",
        result.notes
    );
}

#[test]
fn refusals_come_in_order_measured_devices_sizes_then_the_source() {
    let f = files("refused", &[("before", BEFORE)]);
    let missing = format!("{}.missing", f[0]);
    let mut r = request(vec![missing.clone()]);
    r.sizes = Some(missing.clone());
    r.flash = vec![missing.clone()];
    let plan = r.plan().expect("a valid request");
    let e = r.advise(&plan, &nothing, &mut NoWait).unwrap_err();
    assert!(matches!(
        e,
        AdviceError::Measured(AdviseError::NotFound { .. })
    ));
    r.flash.clear();
    let plan = r.plan().expect("a valid request");
    let e = r.advise(&plan, &nothing, &mut NoWait).unwrap_err();
    assert!(
        matches!(e, AdviceError::Sizes(GatherError::Input(_))),
        "{e}"
    );
    r.sizes = None;
    let e = r.advise(&plan, &nothing, &mut NoWait).unwrap_err();
    assert!(
        matches!(e, AdviceError::Gather(GatherError::Input(_))),
        "{e}"
    );
}

#[test]
fn counts_without_io_are_a_failure_not_advice() {
    let f = files("idle", &[("before", BEFORE), ("again", BEFORE)]);
    let r = request(f);
    let plan = r.plan().expect("a valid request");
    let e = r.advise(&plan, &nothing, &mut NoWait).unwrap_err();
    assert!(
        matches!(e, AdviceError::Gather(GatherError::Failed(_))),
        "{e}"
    );
    assert!(e.to_string().starts_with("no I/O in the interval"), "{e}");
}
