//! One workload on several hosts: three network namespaces of the test's own, each running
//! OpenSSH's sshd, reached with `dbio run --hosts`. The oracle of the merge is each host's own
//! result (kept with --host-json): the merged counts and histogram must be their sums.

mod common;
mod netns;

use common::{skip, DBIO};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The hosts, or a skip (a failure under CI=true) naming what is missing.
fn fleet(test: &str, n: usize) -> Option<netns::Fleet> {
    if let Some(m) = netns::missing() {
        skip(test, &m);
        return None;
    }
    match netns::Fleet::start(n) {
        Ok(f) => Some(f),
        Err(e) => {
            skip(test, &format!("cannot set up the namespace hosts: {e}"));
            None
        }
    }
}

/// `dbio run` of 4 KiB random reads for `secs` on the fleet, each host on its own file.
fn fleet_args(f: &netns::Fleet, secs: u32, hosts: &[String]) -> Vec<String> {
    let d = f.dir.path();
    let mut a: Vec<String> = [
        "run", "--rw", "randread", "--bs", "4k", "--qd", "2", "--size", "16MiB",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(["--duration".into(), format!("{secs}s")]);
    a.extend(["--hosts".into(), hosts.join(",")]);
    for (i, h) in hosts.iter().enumerate() {
        a.extend([
            "--target-on".into(),
            format!("{h}={}/t{i}.dat", d.display()),
        ]);
    }
    a.extend(["--remote-dbio".into(), logging_dbio(d)]);
    a.extend(["--ssh-config".into(), f.ssh_config.display().to_string()]);
    a.extend(["--no-store".into(), "-q".into()]);
    a
}

/// The hosts' dbio: the test's own, with what it writes to stderr (the lines its launcher
/// reads: `dbio-measuring`, `dbio-tick`, …) also kept in DIR/tI.dat.err for the host whose
/// target is tI.dat, where the test can tell when that host is measuring. It execs dbio, so
/// the process is dbio itself (found by `remote_dbio`) and its exit status is dbio's.
fn logging_dbio(d: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = d.join("dbio-logging");
    let script = format!(
        "#!/bin/bash\n\
         log=$(printf '%s\\n' \"$@\" | grep -o '/t[0-9]*\\.dat' | head -n 1)\n\
         log=${{log:-/other}}\n\
         exec 2> >(tee -a '{dir}'\"$log.err\" >&2)\n\
         exec '{DBIO}' \"$@\"\n",
        dir = d.display()
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

fn dbio(args: &[String]) -> Output {
    Command::new(DBIO)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("dbio runs")
}

/// The launching `dbio run` of `fleet_args` for `secs` on every host, starting at `start`,
/// its merged result in DIR/m.json; stdin and stdout null, stderr piped, to be spawned.
fn launch_at(f: &netns::Fleet, secs: u32, start: std::time::SystemTime) -> Command {
    let mut args = fleet_args(f, secs, &f.addrs());
    args.extend([
        "--start-at".into(),
        humantime::format_rfc3339_nanos(start).to_string(),
    ]);
    args.extend([
        "--json".into(),
        f.dir.path().join("m.json").display().to_string(),
    ]);
    let mut c = Command::new(DBIO);
    c.args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// Waits for the launching dbio `child` to end; once past `bound` it is killed and the test
/// fails saying `why`.
#[track_caller]
fn end_by(child: &mut std::process::Child, bound: std::time::SystemTime, why: &str) {
    while child.try_wait().unwrap().is_none() {
        if std::time::SystemTime::now() > bound {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{why}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The reason merge `m` gives for its one failed host, after checking that host is host 1.
#[track_caller]
fn host_1_failed<'a>(m: &'a Value, f: &netns::Fleet) -> &'a str {
    let failed = m["cluster"]["failed"].as_array().unwrap();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0]["name"], f.addrs()[1].as_str());
    failed[0]["reason"].as_str().unwrap()
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Bucket value → count of a result's histogram of `dir`.
fn buckets(r: &Value, dir: &str) -> BTreeMap<u64, u64> {
    let mut m = BTreeMap::new();
    for b in r[dir]["histogram"]["buckets"].as_array().unwrap() {
        *m.entry(b[0].as_u64().unwrap()).or_default() += b[1].as_u64().unwrap();
    }
    m
}

#[test]
fn three_hosts_merge_exactly_and_a_label_arrives_literally() {
    let test = "three_hosts_merge_exactly_and_a_label_arrives_literally";
    let Some(f) = fleet(test, 3) else { return };
    let d = f.dir.path();
    let kept = d.join("hosts");
    std::fs::create_dir(&kept).unwrap();
    let pwned = d.join("pwned");
    let label = format!(
        "lab $(touch {}); `touch {}` 'q\" ;x",
        pwned.display(),
        pwned.display()
    );
    let mut args = fleet_args(&f, 2, &f.addrs());
    args.extend(["--json".into(), d.join("m.json").display().to_string()]);
    args.extend(["--host-json".into(), kept.display().to_string()]);
    args.extend(["--label".into(), label.clone()]);
    let out = dbio(&args);
    assert!(
        out.status.success(),
        "dbio run --hosts failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m = json(&d.join("m.json"));
    let rows = m["cluster"]["hosts"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "a row per host");
    let mut sum_ios = 0;
    let mut sum_buckets: BTreeMap<u64, u64> = BTreeMap::new();
    for (i, addr) in f.addrs().iter().enumerate() {
        assert_eq!(rows[i]["name"], addr.as_str());
        assert_eq!(
            rows[i]["label"],
            label.as_str(),
            "the label crossed ssh intact"
        );
        let own = json(&kept.join(format!("{addr}.json")));
        assert_eq!(
            own["job"]["targets"][0],
            format!("{}/t{i}.dat", d.display())
        );
        assert!(own["read"]["ios"].as_u64().unwrap() > 0);
        sum_ios += own["read"]["ios"].as_u64().unwrap();
        for (v, c) in buckets(&own, "read") {
            *sum_buckets.entry(v).or_default() += c;
        }
        assert_eq!(rows[i]["read"]["ios"], own["read"]["ios"]);
    }
    assert_eq!(
        m["read"]["ios"].as_u64().unwrap(),
        sum_ios,
        "merged count = sum"
    );
    assert_eq!(
        buckets(&m, "read"),
        sum_buckets,
        "merged histogram = sum, bucket for bucket"
    );
    assert!(!pwned.exists(), "a word of the label ran as a command");
    assert_eq!(m["cluster"]["clock_offsets"].as_array().unwrap().len(), 3);
    // The same hosts' results merged by `dbio merge` give the same totals.
    let mut margs: Vec<String> = vec!["merge".into()];
    for a in f.addrs() {
        margs.push(kept.join(format!("{a}.json")).display().to_string());
    }
    margs.extend(["--json".into(), d.join("m2.json").display().to_string()]);
    margs.extend(["--no-store".into(), "-q".into()]);
    let out = dbio(&margs);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let m2 = json(&d.join("m2.json"));
    assert_eq!(m2["read"]["ios"], m["read"]["ios"]);
    assert_eq!(buckets(&m2, "read"), buckets(&m, "read"));
}

#[test]
fn an_unreachable_host_is_refused_before_any_host_starts() {
    let test = "an_unreachable_host_is_refused_before_any_host_starts";
    let Some(mut f) = fleet(test, 2) else { return };
    f.stop_sshd(1);
    let out = dbio(&fleet_args(&f, 2, &f.addrs()));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no host was started"), "{err}");
    assert!(err.contains(&f.addrs()[1]), "names the host: {err}");
    assert!(
        !f.dir.path().join("t0.dat").exists(),
        "the reachable host started anyway"
    );
}

#[test]
fn a_host_whose_dbio_dies_mid_run_leaves_a_partial_merge_naming_it() {
    let test = "a_host_whose_dbio_dies_mid_run_leaves_a_partial_merge_naming_it";
    let Some(f) = fleet(test, 3) else { return };
    let d = f.dir.path();
    let start = std::time::SystemTime::now() + Duration::from_secs(8);
    let child = launch_at(&f, 8, start).spawn().unwrap();
    // Host 1's dbio (the one whose job names t1.dat) is killed once it is measuring.
    wait_measuring(d, 1, 2);
    let killed = Command::new("pkill")
        .args(["-KILL", "-f", &remote_dbio(d, 1)])
        .status()
        .unwrap();
    assert!(killed.success(), "host 1's dbio was not there to kill");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let m = json(&d.join("m.json"));
    assert_eq!(m["partial"], true);
    let reason = host_1_failed(&m, &f);
    assert!(reason.contains("killed"), "in words: {reason}");
    assert!(!reason.contains("dbio-tick"), "a protocol line: {reason}");
    assert_eq!(m["cluster"]["hosts"].as_array().unwrap().len(), 2);
    assert!(err.contains(&f.addrs()[1]), "{err}");
}

#[test]
fn a_sweep_runs_each_step_on_every_host_and_merges_it() {
    let test = "a_sweep_runs_each_step_on_every_host_and_merges_it";
    let Some(f) = fleet(test, 2) else { return };
    let d = f.dir.path();
    let args: Vec<String> = [
        "sweep",
        "--engine",
        "sim",
        "--rw",
        "randread",
        "--vary",
        "qd=1,8",
        "--duration",
        "1s",
        "--hosts",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([
        f.addrs().join(","),
        "--remote-dbio".into(),
        DBIO.into(),
        "--ssh-config".into(),
        f.ssh_config.display().to_string(),
        "--json".into(),
        d.join("s.json").display().to_string(),
        "--host-json".into(),
        d.display().to_string(),
        "--no-store".into(),
        "-q".into(),
    ])
    .collect();
    let out = dbio(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = json(&d.join("s.json"));
    let steps = s["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    for (step, qd) in steps.iter().zip([1, 8]) {
        assert_eq!(step["job"]["qd"], qd);
        let rows = step["cluster"]["hosts"].as_array().unwrap();
        assert_eq!(rows.len(), 2, "every step ran on both hosts");
        let sum: u64 = rows
            .iter()
            .map(|r| r["read"]["ios"].as_u64().unwrap())
            .sum();
        assert_eq!(step["read"]["ios"].as_u64().unwrap(), sum);
    }
    // --host-json kept every step's hosts' own results, not only the last step's.
    for (n, (step, qd)) in steps.iter().zip([1, 8]).enumerate() {
        for (row, addr) in step["cluster"]["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .zip(f.addrs())
        {
            let kept = d
                .join(format!("step-{}", n + 1))
                .join(format!("{addr}.json"));
            assert!(kept.exists(), "{} was not kept", kept.display());
            let own = json(&kept);
            assert_eq!(own["job"]["qd"], qd);
            assert_eq!(own["read"]["ios"], row["read"]["ios"]);
        }
    }
}

/// The pattern `pgrep -f` finds host `i`'s own dbio by (not the local ssh that started it,
/// whose command line starts with ssh).
fn remote_dbio(d: &Path, i: usize) -> String {
    format!(
        "^{} run --job-json.*{}/t{i}\\.dat",
        DBIO.replace('.', "\\."),
        d.display().to_string().replace('.', "\\.")
    )
}

fn running(pattern: &str) -> bool {
    Command::new("pgrep")
        .args(["-f", pattern])
        .stdout(Stdio::null())
        .status()
        .unwrap()
        .success()
}

#[test]
fn ctrl_c_stops_every_host_and_merges_what_they_measured() {
    use std::os::unix::process::CommandExt;
    let test = "ctrl_c_stops_every_host_and_merges_what_they_measured";
    let Some(f) = fleet(test, 3) else { return };
    let d = f.dir.path();
    // A long run with a known start, so the test knows when every host is measuring.
    let start = std::time::SystemTime::now() + Duration::from_secs(10);
    let child = launch_at(&f, 300, start).process_group(0).spawn().unwrap();
    // Three seconds into measuring...
    for i in 0..3 {
        wait_measuring(d, i, 3);
    }
    // ...Ctrl-C, as a terminal sends it: SIGINT to the launching dbio's whole process group.
    let killed = Command::new("kill")
        .args(["-INT", "--", &format!("-{}", child.id())])
        .status()
        .unwrap();
    assert!(killed.success());
    let sent = Instant::now();
    // A generous bound: the one-second figure is measured by bench/fleet-skew.
    for i in 0..3 {
        while running(&remote_dbio(d, i)) {
            assert!(
                sent.elapsed() < Duration::from_secs(30),
                "host {i}'s dbio still runs 30 s after Ctrl-C"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "interrupted: {err}");
    let m = json(&d.join("m.json"));
    assert_eq!(m["partial"], true, "an interrupted merge is partial");
    assert_eq!(m["outcome"]["status"], "interrupted");
    let rows = m["cluster"]["hosts"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "every host's measurement was kept: {err}");
    assert!(m["cluster"]["failed"].as_array().unwrap().is_empty());
    let mut sum = 0;
    for (row, addr) in rows.iter().zip(f.addrs()) {
        assert_eq!(row["name"], addr.as_str());
        let ios = row["read"]["ios"].as_u64().unwrap();
        assert!(ios > 0, "{addr} measured I/Os before the stop");
        sum += ios;
    }
    assert_eq!(m["read"]["ios"].as_u64().unwrap(), sum);
    assert!(m["measured_secs"].as_f64().unwrap() < 60.0, "stopped early");
}

/// Waits (up to a generous bound) until host `i`'s own dbio has said it is measuring and
/// has reported `secs` seconds of it, in the lines it writes for its launcher (kept by
/// `logging_dbio`): the host's own word, however late a loaded machine started it.
fn wait_measuring(d: &Path, i: usize, secs: usize) {
    let log = d.join(format!("t{i}.dat.err"));
    let bound = Instant::now() + Duration::from_secs(120);
    loop {
        let said = std::fs::read_to_string(&log).unwrap_or_default();
        let ticks = said
            .lines()
            .skip_while(|l| !l.starts_with("dbio-measuring"))
            .filter(|l| l.starts_with("dbio-tick "))
            .count();
        if ticks >= secs {
            return;
        }
        assert!(
            Instant::now() < bound,
            "host {i}'s dbio has not measured {secs} s:\n{said}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_host_that_goes_silent_is_named_lost_and_the_others_merged() {
    let test = "a_host_that_goes_silent_is_named_lost_and_the_others_merged";
    let Some(f) = fleet(test, 3) else { return };
    let d = f.dir.path();
    let window = Duration::from_secs(6);
    let start = std::time::SystemTime::now() + Duration::from_secs(8);
    let mut child = launch_at(&f, window.as_secs() as u32, start)
        .spawn()
        .unwrap();
    wait_measuring(d, 1, 2);
    f.cut_link(1).expect("cut host 1's link");
    // The figure to meet: the launcher ends within the window plus 30 s.
    let bound = start + window + Duration::from_secs(30);
    end_by(
        &mut child,
        bound,
        "the launcher still waits 30 s after the window, for a silent host",
    );
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let m = json(&d.join("m.json"));
    assert_eq!(m["partial"], true);
    let reason = host_1_failed(&m, &f);
    assert!(reason.starts_with("lost"), "{reason}");
    assert!(!reason.contains("dbio-tick"), "a protocol line: {reason}");
    let rows = m["cluster"]["hosts"].as_array().unwrap();
    assert_eq!(rows.len(), 2, "the other hosts were merged");
    assert!(err.contains(&f.addrs()[1]), "names the host: {err}");
}

#[test]
fn a_host_without_dbio_is_named() {
    let test = "a_host_without_dbio_is_named";
    let Some(f) = fleet(test, 1) else { return };
    let mut args = fleet_args(&f, 1, &f.addrs());
    let at = args.iter().position(|a| a == "--remote-dbio").unwrap();
    args[at + 1] = "/nonexistent/dbio".into();
    let out = dbio(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let want = format!("dbio not found on {}", f.addrs()[0]);
    assert!(err.contains(&want), "{err}");
    assert!(err.contains("--remote-dbio"), "says what to do: {err}");
}

#[test]
fn session_mode_puts_each_hosts_redo_beside_its_own_target() {
    let test = "session_mode_puts_each_hosts_redo_beside_its_own_target";
    let Some(f) = fleet(test, 2) else { return };
    let d = f.dir.path();
    let kept = d.join("hosts");
    std::fs::create_dir(&kept).unwrap();
    let session_args = |targets: &[(String, String)]| -> Vec<String> {
        let mut a: Vec<String> = [
            "run",
            "--sessions",
            "2",
            "--update-pct",
            "50",
            "--size",
            "16MiB",
            "--duration",
            "2s",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let hosts: Vec<&str> = targets.iter().map(|(h, _)| h.as_str()).collect();
        a.extend(["--hosts".into(), hosts.join(",")]);
        for (h, t) in targets {
            a.extend(["--target-on".into(), format!("{h}={t}")]);
        }
        a.extend(["--remote-dbio".into(), logging_dbio(d)]);
        a.extend(["--ssh-config".into(), f.ssh_config.display().to_string()]);
        a.extend(["--host-json".into(), kept.display().to_string()]);
        a.extend(["--no-store".into(), "-q".into()]);
        a
    };
    let targets: Vec<(String, String)> = f
        .addrs()
        .into_iter()
        .enumerate()
        .map(|(i, h)| (h, format!("{}/t{i}.dat", d.display())))
        .collect();
    let out = dbio(&session_args(&targets));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    for (h, t) in &targets {
        let own = json(&kept.join(format!("{h}.json")));
        let redo = format!("{t}.redo");
        assert_eq!(own["job"]["session"]["log_target"], redo.as_str(), "{h}");
        assert!(
            Path::new(&redo).metadata().is_ok_and(|m| m.len() > 0),
            "{h} wrote no redo beside its target"
        );
    }
    // A device has no folder beside it for the redo: refused, naming the host and the way out.
    let (h, _) = &targets[0];
    let out = dbio(&session_args(&[(h.clone(), "/dev/null".into())]));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(&format!("--target-on {h}=log=PATH")), "{err}");
}

/// The text of the cells of the row `<tr data-host="NAME">` of `html`.
fn host_cells(html: &str, name: &str) -> Vec<String> {
    let row = html
        .split(&format!("<tr data-host=\"{name}\">"))
        .nth(1)
        .unwrap_or_else(|| panic!("no row for host {name}"));
    let row = &row[..row.find("</tr>").unwrap()];
    row.split("<td")
        .skip(1)
        .map(|c| {
            let c = &c[c.find('>').unwrap() + 1..];
            c[..c.find("</td>").unwrap()].to_string()
        })
        .collect()
}

#[test]
fn the_merged_html_has_a_row_and_a_chart_point_per_host() {
    let d = common::scratch();
    // Far enough ahead that three processes started on a loaded machine are all waiting for
    // it (a start already past is no common start).
    let start = std::time::SystemTime::now() + Duration::from_secs(10);
    let at = humantime::format_rfc3339_nanos(start).to_string();
    let hosts = ["db-a", "db-b", "db-c"];
    let runs: Vec<_> = hosts
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let qd = (4 << i).to_string();
            let file = d.path().join(format!("{h}.json")).display().to_string();
            let args = [
                "run",
                "--engine",
                "sim",
                "--rw",
                "randread",
                "--qd",
                &qd,
                "--duration",
                "2s",
                "--start-at",
                &at,
                "--label",
                h,
                "--json",
                &file,
                "--no-store",
                "-q",
            ];
            Command::new(DBIO)
                .args(args)
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut r in runs {
        assert!(r.wait().unwrap().success());
    }
    let html = d.path().join("m.html");
    let mut args: Vec<String> = vec!["merge".into(), "--allow-different".into()];
    for h in hosts {
        args.push(d.path().join(format!("{h}.json")).display().to_string());
    }
    args.extend(["--html".into(), html.display().to_string()]);
    args.extend(["--no-store".into()]);
    let out = dbio(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // The summary says which host ran which queue depth.
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.contains("job.qd: 4 on db-a; 8 on db-b; 16 on db-c"),
        "{summary}{err}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("data-table=\"hosts\""), "no hosts table");
    for h in hosts {
        let own = json(&d.path().join(format!("{h}.json")));
        let cells = host_cells(&page, h);
        // #, host, then read IOPS: the host's own figure.
        assert_eq!(cells[1], h);
        let iops: f64 = cells[2].parse().unwrap();
        let want = own["read"]["iops"].as_f64().unwrap();
        assert!(
            (iops - want).abs() <= 0.5,
            "{h}: {iops} in the table, {want} in its result"
        );
    }
    for chart in ["host-iops", "host-p99"] {
        let svg = page
            .split(&format!("data-chart=\"{chart}\""))
            .nth(1)
            .unwrap_or_else(|| panic!("no {chart} chart"));
        let svg = &svg[..svg.find("</svg>").unwrap()];
        assert!(
            svg.contains("data-series=\"read\" data-points=\"3\""),
            "{chart}: a point per host"
        );
    }
}

#[test]
fn a_host_that_hangs_is_cut_off_after_its_window() {
    let test = "a_host_that_hangs_is_cut_off_after_its_window";
    let Some(f) = fleet(test, 2) else { return };
    let d = f.dir.path();
    let window = Duration::from_secs(4);
    let start = std::time::SystemTime::now() + Duration::from_secs(8);
    let mut child = launch_at(&f, window.as_secs() as u32, start)
        .spawn()
        .unwrap();
    // Host 1's dbio stops dead while its ssh session stays up, answering keep-alives.
    wait_measuring(d, 1, 1);
    let stopped = Command::new("pkill")
        .args(["-STOP", "-f", &remote_dbio(d, 1)])
        .status()
        .unwrap();
    assert!(stopped.success(), "host 1's dbio was not there to stop");
    // Told to stop 30 s after its window, cut off 15 s later: a bound with room to spare.
    let bound = start + window + Duration::from_secs(30 + 15 + 20);
    end_by(
        &mut child,
        bound,
        "the launcher still waits for a host that hangs, long after its window",
    );
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let m = json(&d.join("m.json"));
    let reason = host_1_failed(&m, &f);
    assert!(reason.starts_with("lost"), "{reason}");
    assert!(reason.contains("cut off"), "{reason}");
    assert_eq!(m["cluster"]["hosts"].as_array().unwrap().len(), 1);
}
