//! Times `dbio advise`'s ranking and choice on a large generated estate (bench/advise-speed
//! runs it): N objects of log-uniform sizes from 1 MiB to 64 GiB with skewed I/O, a budget
//! of a tenth of the capacity, flash assumed at 0.2 ms.
//! Usage: advise_speed [N] [REPEATS]

use dbio_analyze::advise::{advise, Latency, Options};
use dbio_model::advise::{ObjectIo, ObjectKind, SourceInfo};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let repeats: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rnd = move || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        (x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    };
    let objects: Vec<ObjectIo> = (0..n)
        .map(|i| {
            let kind = match i % 50 {
                0 => ObjectKind::Log,
                1 => ObjectKind::Temp,
                2..=15 => ObjectKind::Index,
                _ => ObjectKind::Data,
            };
            let mut o = ObjectIo::new(format!("schema{}.part{i}", i % 97), kind);
            let size = (2f64.powf(20.0 + 16.0 * rnd())) as u64;
            // I/O density falls off as a power law: a few hot objects, a long cold tail.
            let ios = (size as f64 / 1e6 * 50.0 * rnd().powi(4)) as u64;
            o.size_bytes = Some(size);
            o.reads = ios * 8 / 10;
            o.writes = ios - o.reads;
            o.bytes_read = o.reads * 8192;
            o.bytes_written = o.writes * 16384;
            o.read_ms = Some(o.reads as f64 * (0.5 + 10.0 * rnd()));
            o.write_ms = Some(o.writes as f64 * (0.2 + 2.0 * rnd()));
            o
        })
        .collect();
    let total: u64 = objects.iter().filter_map(|o| o.size_bytes).sum();
    let opts = Options {
        budget: Some(total / 10),
        latency: Latency::Assumed { flash_ms: 0.2 },
        io_wait_share: Some((0.4, "bench".into())),
    };
    let source = SourceInfo {
        system: "bench".into(),
        name: format!("{n} generated objects"),
        interval_secs: 3600.0,
        since_start: false,
    };
    let mut best = f64::INFINITY;
    for r in 0..repeats {
        let t = Instant::now();
        let a = advise(&objects, source.clone(), vec![], String::new(), &opts);
        let secs = t.elapsed().as_secs_f64();
        best = best.min(secs);
        let p = a.placement.expect("a budget was given");
        println!(
            "run {}: {n} objects ranked and chosen in {secs:.3} s; {} to move, {:.1} of {:.1} GiB; {}",
            r + 1,
            p.to_move.len(),
            p.used_bytes as f64 / (1u64 << 30) as f64,
            p.budget_bytes as f64 / (1u64 << 30) as f64,
            p.method
        );
    }
    println!("best of {repeats}: {best:.3} s for {n} objects (target: under 1 s)");
}
