//! A file that changes while `dbio reduce` reads it is noted: the test appends to the file
//! from the progress callback, which runs while the workers read (and at least once before
//! the pass ends).

use dbio_reduce::block::CompressSpec;
use dbio_reduce::{reduce, ReduceEvent, ReduceOptions};
use std::io::Write;
use std::sync::atomic::AtomicBool;

#[test]
fn a_file_written_during_the_read_is_noted() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("growing.dat");
    let steady = dir.path().join("steady.dat");
    std::fs::write(&f, vec![7u8; 12 << 20]).unwrap(); // three 4 MiB chunks
    std::fs::write(&steady, vec![9u8; 1 << 20]).unwrap();
    let o = ReduceOptions {
        units: vec![8192],
        compress: CompressSpec::default(),
        buckets_name: None,
        compress_sample: None,
        mem: 1 << 30,
        sample: None,
        seed: 0,
        threads: 1,
        buffered: true,
    };
    let mut appended = false;
    let paths = [f.display().to_string(), steady.display().to_string()];
    let r = reduce(&paths, &o, &AtomicBool::new(false), &mut |ev| {
        if let ReduceEvent::Progress { .. } = ev {
            if !appended {
                appended = true;
                let mut w = std::fs::OpenOptions::new().append(true).open(&f).unwrap();
                w.write_all(&[1u8; 4096]).unwrap();
            }
        }
    })
    .unwrap();
    assert!(appended);
    assert!(
        r.sources[0].changed,
        "the growing file is not marked changed"
    );
    assert!(!r.sources[1].changed, "the steady file is marked changed");
    let notes = r.notes.join("\n");
    assert!(
        notes.contains("growing.dat: changed while it was read"),
        "{notes}"
    );
    assert!(!notes.contains("steady.dat"), "{notes}");
}
