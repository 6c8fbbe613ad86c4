//! `dbio collect --hosts`: a collection on each of three hosts at once (network namespaces of
//! the test's own, each running OpenSSH's sshd), each host's samples stored here as NAME@HOST
//! as they arrive; a host whose sshd is gone fails alone, named, while the others complete;
//! the fleet's report sums the hosts interval by interval.

mod common;
mod netns;

use common::{dbio_command, dbio_json, skip, LoopDev, DBIO};
use serde_json::Value;

#[test]
fn each_host_collects_into_its_own_collection_and_a_dead_one_fails_alone() {
    let test = "each_host_collects_into_its_own_collection_and_a_dead_one_fails_alone";
    if let Some(m) = netns::missing() {
        return skip(test, &m);
    }
    let mut f = match netns::Fleet::start(3) {
        Ok(f) => f,
        Err(e) => return skip(test, &format!("cannot set up the namespace hosts: {e}")),
    };
    f.stop_sshd(2);
    let hosts = f.addrs();
    let db = f.dir.path().join("h.db");
    // A device the hosts see busy: reads go on while they collect (the namespaces share
    // the kernel, and so its /proc/diskstats).
    let Some(lo) = LoopDev::attach_in_memory(test, &vec![1u8; 8 << 20]) else {
        return;
    };
    let reading = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let reader = {
        let (dev, on) = (lo.dev.clone(), reading.clone());
        std::thread::spawn(move || {
            while on.load(std::sync::atomic::Ordering::Relaxed) {
                let _ = std::process::Command::new("dd")
                    .args([&format!("if={dev}"), "of=/dev/null", "bs=4k", "count=64"])
                    .arg("iflag=direct")
                    .output();
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        })
    };
    let disk = lo.name.clone();
    let out = dbio_command()
        .args([
            "collect",
            "--device",
            &disk,
            "--interval",
            "1s",
            "--duration",
            "3s",
        ])
        .args([
            "--name",
            "fleet",
            "--hosts",
            &hosts.join(","),
            "--remote-dbio",
            DBIO,
        ])
        .arg("--ssh-config")
        .arg(&f.ssh_config)
        .arg("--db")
        .arg(&db)
        .output()
        .unwrap();
    reading.store(false, std::sync::atomic::Ordering::Relaxed);
    reader.join().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("dbio collect --report fleet"), "{err}");
    assert!(
        err.contains(&format!("{}: no collection", hosts[2])),
        "{err}"
    );
    let mut each = Vec::new();
    for h in &hosts[..2] {
        assert!(err.contains(&format!("{h}: fleet@{h} complete")), "{err}");
        let v = report(&db, &format!("fleet@{h}"));
        assert_eq!(v["samples"], 3, "{v}");
        assert_eq!(v["info"]["host"], h.as_str());
        assert_eq!(v["devices"][0]["name"], disk.as_str());
        assert!(v["host_cpu"]["mean"].as_f64().is_some());
        assert!(moved(&v, 0) > 0.0, "the reads went on: {v}");
        each.push(v);
    }
    // The fleet's report: the hosts' devices, and "all hosts" their sum, moved what each
    // host's own report says.
    let all = report(&db, "fleet");
    assert_eq!(all["info"]["host"], format!("{}, {}", hosts[0], hosts[1]));
    assert_eq!(all["state"], "complete");
    let names: Vec<&str> = (all["devices"].as_array().unwrap().iter())
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    let each_name = hosts[..2].iter().map(|h| format!("{h}:{disk}"));
    assert_eq!(
        names,
        [vec!["all hosts".to_string()], each_name.collect()].concat(),
        "{all}"
    );
    let (a, b) = (moved(&each[0], 0), moved(&each[1], 0));
    assert!((moved(&all, 1) - a).abs() < 0.5, "{a}: {all}");
    assert!((moved(&all, 2) - b).abs() < 0.5, "{b}: {all}");
    assert!((moved(&all, 0) - (a + b)).abs() < 0.5, "{a} + {b}: {all}");
    assert!(all["host_cpu"]["mean"].as_f64().is_some(), "{all}");
    let listed = dbio_command()
        .args(["history", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listed.contains("the 2 hosts' collections fleet@HOST summed (--report fleet)"),
        "{listed}"
    );
    // dbio advise places one database's objects: a fleet's name is refused, naming a host's.
    let out = dbio_command()
        .args(["advise", "fleet", "--window", "all", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(&format!("fleet@{}", hosts[0])), "{err}");
    // A host's collection is not resumed here, where its database and devices are others.
    let out = dbio_command()
        .args([
            "collect",
            "--resume",
            &format!("fleet@{}", hosts[0]),
            "--db",
        ])
        .arg(&db)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("resume it there"), "{err}");
    // Ctrl-C here closes every host's session: each keeps its part interval and ends.
    let child = dbio_command()
        .args([
            "collect",
            "--device",
            &disk,
            "--interval",
            "1s",
            "--duration",
            "10m",
            "-q",
        ])
        .args([
            "--name",
            "stopped",
            "--hosts",
            &hosts[..2].join(","),
            "--remote-dbio",
            DBIO,
        ])
        .arg("--ssh-config")
        .arg(&f.ssh_config)
        .arg("--db")
        .arg(&db)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(3500));
    std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    for h in &hosts[..2] {
        assert!(
            err.contains(&format!("{h}: stopped@{h} interrupted")),
            "{err}"
        );
    }
}

/// `dbio collect --report NAME --json -` on history `db`.
fn report(db: &std::path::Path, name: &str) -> Value {
    dbio_json(db, &["collect", "--report", name]).unwrap_or_else(|e| panic!("{e}"))
}

/// Requests device `i` of a report moved over the collection: its mean IOPS (weighted by the
/// intervals' lengths) times the seconds sampled.
fn moved(r: &Value, i: usize) -> f64 {
    r["devices"][i]["iops"]["mean"].as_f64().unwrap() * r["sampled_s"].as_f64().unwrap()
}
