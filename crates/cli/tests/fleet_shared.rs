//! Hosts of one `--hosts` run are many hosts, not one host many times: each draws its own
//! offsets, and with `--split-region` keeps to its own part of the region. Two network
//! namespaces with sshd (see tests/netns); the oracle is the bytes each host wrote to a
//! file that started as zeros.

mod common;
mod netns;

use common::{skip, written_blocks, DBIO};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};

/// 16 MiB of zeros at `path` (4,096 blocks of 4 KiB).
fn zeros(path: &Path) {
    let f = std::fs::File::create(path).unwrap();
    f.set_len(16 << 20).unwrap();
}

/// The 4 KiB blocks written in `d/t0.dat` and `d/t1.dat` (files that started as zeros); each
/// host must have written more than 100.
#[track_caller]
fn written_by_both(d: &Path) -> (BTreeSet<usize>, BTreeSet<usize>) {
    let (a, b): (BTreeSet<usize>, BTreeSet<usize>) = (
        written_blocks(&d.join("t0.dat")),
        written_blocks(&d.join("t1.dat")),
    );
    assert!(
        a.len() > 100 && b.len() > 100,
        "{} and {} blocks",
        a.len(),
        b.len()
    );
    (a, b)
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `dbio run --hosts` of 4 KiB random writes at 100 IOPS per host for 2 s, host i on
/// `d/ti.dat`, each host's result kept in `d/kept`, the merged one in `d/m.json`.
fn write_on_each(f: &netns::Fleet, extra: &[&str]) {
    let d = f.dir.path();
    let kept = d.join("kept");
    let _ = std::fs::create_dir(&kept);
    let mut args: Vec<String> = [
        "run",
        "--rw",
        "randwrite",
        "--bs",
        "4k",
        "--qd",
        "2",
        "--rate",
        "100",
        "--duration",
        "2s",
        "--destroy-data",
        "--no-store",
        "-q",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    args.extend(["--hosts".into(), f.addrs().join(",")]);
    for (i, h) in f.addrs().iter().enumerate() {
        zeros(&d.join(format!("t{i}.dat")));
        let target = format!("{h}={}/t{i}.dat", d.display());
        args.extend(["--target-on".into(), target]);
    }
    args.extend(["--remote-dbio".into(), DBIO.into()]);
    args.extend(["--ssh-config".into(), f.ssh_config.display().to_string()]);
    args.extend(["--host-json".into(), kept.display().to_string()]);
    args.extend(["--json".into(), d.join("m.json").display().to_string()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = Command::new(DBIO)
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "dbio run --hosts failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn hosts_draw_their_own_offsets_and_split_a_region_between_them() {
    let test = "hosts_draw_their_own_offsets_and_split_a_region_between_them";
    if let Some(m) = netns::missing() {
        return skip(test, &m);
    }
    let f = match netns::Fleet::start(2) {
        Ok(f) => f,
        Err(e) => return skip(test, &format!("cannot set up the namespace hosts: {e}")),
    };
    let d = f.dir.path();
    let addrs = f.addrs();

    // The same job on two hosts: each wrote ~200 of 4,096 blocks; with one seed they would
    // be the same blocks, with their own ones they meet only by chance (~10).
    write_on_each(&f, &["--seed", "7"]);
    let (a, b) = written_by_both(d);
    let common = a.intersection(&b).count();
    assert!(
        common * 4 < a.len().min(b.len()),
        "the hosts wrote {common} of the same blocks ({} and {})",
        a.len(),
        b.len()
    );
    let m = json(&d.join("m.json"));
    let rows = m["cluster"]["hosts"].as_array().unwrap();
    let seeds: Vec<Value> = addrs
        .iter()
        .map(|h| json(&d.join("kept").join(format!("{h}.json")))["job"]["seed"].clone())
        .collect();
    assert_ne!(seeds[0], seeds[1], "both hosts ran seed {}", seeds[0]);
    for (row, seed) in rows.iter().zip(&seeds) {
        assert_eq!(&row["seed"], seed, "the row states the host's seed");
    }

    // --split-region: host 1 of 2 writes only in the first half of its file, host 2 only in
    // the second (blocks 2,048 to 4,095), and each result says which part it took.
    write_on_each(&f, &["--split-region"]);
    let (a, b) = written_by_both(d);
    assert!(
        a.iter().all(|x| *x < 2048),
        "host 1 wrote block {:?}",
        a.last()
    );
    assert!(
        b.iter().all(|x| *x >= 2048),
        "host 2 wrote block {:?}",
        b.first()
    );
    let m = json(&d.join("m.json"));
    let rows = m["cluster"]["hosts"].as_array().unwrap();
    for (i, (row, h)) in rows.iter().zip(&addrs).enumerate() {
        let own = json(&d.join("kept").join(format!("{h}.json")));
        assert_eq!(own["job"]["region"]["split"]["part"], i + 1);
        assert_eq!(own["job"]["region"]["split"]["parts"], 2);
        assert_eq!(row["split"], own["job"]["region"]["split"]);
    }
}
