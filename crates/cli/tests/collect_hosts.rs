//! `dbio collect --hosts`: a collection on each of three hosts at once (network namespaces of
//! the test's own, each running OpenSSH's sshd), each host's samples stored here as NAME@HOST
//! as they arrive; a host whose sshd is gone fails alone, named, while the others complete.

mod common;
mod netns;

use common::{a_disk, dbio_command, skip, DBIO};
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
    let disk = a_disk();
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
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("{}: no collection", hosts[2])),
        "{err}"
    );
    for h in &hosts[..2] {
        assert!(err.contains(&format!("{h}: fleet@{h} complete")), "{err}");
        let r = dbio_command()
            .args([
                "collect",
                "--report",
                &format!("fleet@{h}"),
                "--json",
                "-",
                "--db",
            ])
            .arg(&db)
            .output()
            .unwrap();
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let v: Value = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!(v["samples"], 3, "{v}");
        assert_eq!(v["info"]["host"], h.as_str());
        assert_eq!(v["devices"][0]["name"], disk.as_str());
        assert!(v["host_cpu"]["mean"].as_f64().is_some());
    }
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
