//! What a collection costs the history (bench/collect-cost): a synthetic collection of
//! OBJECTS objects that all do I/O in every interval (the worst case: idle objects are not
//! stored), DEVICES devices, every INTERVAL seconds for DAYS days, written sample by sample
//! through the store as `dbio collect` writes them; then the file's size.
//!
//! Usage: collect_storage PATH [OBJECTS 1000] [DEVICES 4] [INTERVAL 60] [DAYS 7]

use dbio_model::advise::{ObjectIo, ObjectKind};
use dbio_model::collect::{CollectionInfo, DbIo, DeviceIo, Sample};
use dbio_store::Store;

/// A small deterministic generator (xorshift), so that runs compare.
struct Rng(u64);

impl Rng {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below.max(1)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let path = std::path::PathBuf::from(args.get(1).expect("usage: collect_storage PATH ..."));
    let (objects, devices, interval, days) = (arg(2, 1000), arg(3, 4), arg(4, 60), arg(5, 7));
    let store = Store::open(&path).expect("open the history");
    let info = CollectionInfo {
        name: "bench".into(),
        system: "postgresql".into(),
        source: "postgres://bench@db/bench".into(),
        host: "bench".into(),
        interval_s: interval as f64,
        duration_s: Some((days * 86_400) as f64),
        devices: (0..devices).map(|d| format!("nvme{d}n1")).collect(),
        started_at: "2026-12-01T00:00:00Z".into(),
        from_exports: false,
    };
    let mut w = store.create_collection(&info).expect("a new collection");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let start_ms = 1_796_083_200_000u64;
    let samples = days * 86_400 / interval;
    let started = std::time::Instant::now();
    for i in 1..=samples {
        let objs = (0..objects)
            .map(|o| {
                let mut x = ObjectIo::new(format!("shop.table_{o:05}"), ObjectKind::Data);
                x.reads = rng.next(5000);
                x.writes = rng.next(500);
                x.bytes_read = x.reads * 8192;
                x.bytes_written = x.writes * 8192;
                x.read_ms = Some(rng.next(1_000_000) as f64 / 1000.0);
                x.size_bytes = Some((1 << 30) + o * 8192 + i / 60 * 8192);
                x
            })
            .collect();
        let s = Sample {
            t_ms: start_ms + i * interval * 1000,
            secs: interval as f64,
            devices: info
                .devices
                .iter()
                .map(|d| DeviceIo {
                    name: d.clone(),
                    reads: rng.next(1_000_000),
                    writes: rng.next(100_000),
                    bytes_read: rng.next(1 << 34),
                    bytes_written: rng.next(1 << 32),
                    read_ms: rng.next(1_000_000),
                    write_ms: rng.next(100_000),
                    busy_ms: rng.next(interval * 1000),
                    queue_ms: rng.next(interval * 10_000),
                })
                .collect(),
            host_cpu: Some(rng.next(1000) as f64 / 1000.0),
            server_cpu: Some(rng.next(2000) as f64 / 1000.0),
            db: Some(DbIo {
                secs: interval as f64,
                objects: objs,
                io_wait: Some((rng.next(100_000) as f64, 600_000.0)),
                query_ms: rng.next(50_000) as f64 / 1000.0,
            }),
            events: Vec::new(),
        };
        store.add_sample(&mut w, &s, None).expect("store a sample");
    }
    let kept = store.collection("bench").unwrap().unwrap().samples;
    drop(store);
    // SQLite's write-ahead log is folded back into the file when the last connection closes.
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let object_days = (objects * days) as f64;
    println!(
        "{{\"objects\": {objects}, \"devices\": {devices}, \"interval_s\": {interval}, \"days\": {days}, \"samples_taken\": {samples}, \"samples_kept\": {kept}, \"bytes\": {bytes}, \"bytes_per_object_day\": {:.0}, \"write_s\": {:.1}}}",
        bytes as f64 / object_days,
        started.elapsed().as_secs_f64()
    );
}
