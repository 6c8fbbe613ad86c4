//! `dbio db` on a private MariaDB the test starts (never the machine's own), its datadir on
//! an ext4 of the test's own loop device, InnoDB with O_DIRECT and the smallest buffer pool:
//! the database's physical reads over the window agree with the loop device's within 1 %;
//! updates make redo writes and commit waits; drop removes exactly what setup made.

mod common;

use common::{db_drop_in_home, db_setup, dbio, dbio_command, scratch, skip};
use dbio_db::testkit::{device_reads, Ext4Loop, PrivateMariaDb};
use mysql::prelude::Queryable;
use serde_json::Value;

fn run_json(url: &str, extra: &[&str]) -> (Value, String) {
    let dir = scratch();
    let json = dir.path().join("r.json");
    let mut args = vec![
        "db",
        "run",
        "--url",
        url,
        "--sessions",
        "2",
        "--duration",
        "4s",
        "--ramp",
        "0s",
        "--no-store",
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = dbio(&args);
    assert_eq!(code, Some(0), "{out}{err}");
    eprintln!("{out}");
    (
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap(),
        out,
    )
}

/// Reads of InnoDB's data files so far, by performance_schema (the server's own count).
fn innodb_reads(c: &mut mysql::Conn) -> u64 {
    let n: Option<u64> = c
        .query_first(
            "SELECT COUNT_READ FROM performance_schema.file_summary_by_event_name
             WHERE EVENT_NAME = 'wait/io/file/innodb/innodb_data_file'",
        )
        .unwrap();
    n.unwrap()
}

#[test]
fn o_direct_reads_agree_with_the_loop_device() {
    let test = "o_direct_reads_agree_with_the_loop_device";
    let fs = match Ext4Loop::make(768 << 20) {
        Ok(f) => f,
        Err(why) => return skip(test, &why.to_string()),
    };
    let m = match PrivateMariaDb::start_in(
        Some(fs.path()),
        true,
        &["--innodb-flush-method=O_DIRECT"],
    ) {
        Ok(m) => m,
        Err(why) => return skip(test, &why.to_string()),
    };
    let url = m.url();
    let (code, out, err) = db_setup(&url, "2", "24MiB");
    assert_eq!(code, Some(0), "{out}{err}");
    let mut c = m.conn();
    let (db0, dev0) = (innodb_reads(&mut c), device_reads(fs.name()));
    let (v, out) = run_json(&url, &[]);
    let (db_own, dev_own) = (innodb_reads(&mut c) - db0, device_reads(fs.name()) - dev0);
    let db = &v["db"];
    let reads = db["database"]["physical_reads"].as_u64().unwrap();
    let dev = &db["device"];
    assert_eq!(dev["name"], fs.name(), "{db}");
    let dev_reads = dev["reads"].as_u64().unwrap();
    eprintln!(
        "dbio: database {reads}, {} {dev_reads}; performance_schema {db_own}, /proc/diskstats {dev_own}",
        fs.name()
    );
    assert!(reads > 1000, "{db}");
    let diff = (reads as f64 - dev_reads as f64).abs() / reads as f64;
    assert!(
        diff <= 0.01,
        "database {reads} vs device {dev_reads}: {:.2} %",
        diff * 100.0
    );
    // dbio's figures against InnoDB's and the kernel's own, read here before and after the
    // run (no ramp: only operations begun before dbio's window and the sessions' start-up
    // fall outside it): within 5 % and 300 reads.
    let near = |a: u64, b: u64| (a as f64 - b as f64).abs() <= b as f64 * 0.05 + 300.0;
    assert!(
        reads <= db_own && near(reads, db_own),
        "dbio {reads}, InnoDB {db_own}"
    );
    assert!(
        dev_reads <= dev_own && near(dev_reads, dev_own),
        "dbio's device {dev_reads}, the kernel's {dev_own}"
    );
    assert!(
        out.contains("innodb_data_file read") && out.contains("Three views"),
        "{out}"
    );
    assert!(db["io_method"].as_str().unwrap().contains("O_DIRECT"));
    // Updates: redo writes and commits by the database's count, commit waits by the client's.
    let (v, out) = run_json(&url, &["--update-pct", "20"]);
    let d = &v["db"]["database"];
    assert!(d["log_writes"].as_u64().unwrap() > 0, "{d}");
    assert!(d["commits"].as_u64().unwrap() > 0, "{d}");
    assert!(v["db"]["client"]["commit_ns"]["mean"].as_f64().unwrap() > 0.0);
    assert!(
        out.contains("innodb_log_file write") && out.contains("Com_commit"),
        "{out}"
    );
    let (code, out, err) = dbio(&["db", "drop", "--url", &url]);
    assert_eq!(code, Some(0), "{out}{err}");
    let left: Vec<String> = c
        .query(
            "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'dbio_slob'",
        )
        .unwrap();
    assert!(left.is_empty());
}

/// `dbio db drop` drops only names setup makes, quoted: a marker row holding SQL, or one
/// naming a table outside dbio's database, is refused and both victims stay in place.
#[test]
fn drop_leaves_tables_a_tampered_marker_names() {
    let test = "drop_leaves_tables_a_tampered_marker_names";
    let m = match PrivateMariaDb::start() {
        Ok(m) => m,
        Err(why) => return skip(test, &why.to_string()),
    };
    let url = m.url();
    let mut c = m.conn();
    c.query_drop("CREATE DATABASE victims").unwrap();
    c.query_drop("CREATE TABLE victims.victim1 (x int)")
        .unwrap();
    c.query_drop("CREATE TABLE victims.victim2 (x int)")
        .unwrap();
    let (code, out, err) = db_setup(&url, "1", "16MiB");
    assert_eq!(code, Some(0), "{out}{err}");
    for name in [
        "x`; DROP TABLE victims.victim2; -- ",
        "slob_1`, victims.`victim1",
    ] {
        c.exec_drop(
            "INSERT INTO dbio_slob.dbio_made (kind, name, detail) VALUES ('table', ?, '')",
            (name,),
        )
        .unwrap();
    }
    let (code, out, err) = dbio(&["db", "drop", "--url", &url]);
    let left: Vec<String> = c
        .query("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'victims'")
        .unwrap();
    assert_eq!(left.len(), 2, "a victim was dropped: {out}{err}");
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("dbio never makes") && err.contains("victim2"),
        "{err}"
    );
}

/// The password comes from MYSQL_PWD or ~/.my.cnf's [client] group when the URL has none.
#[test]
fn password_from_mysql_pwd_and_my_cnf() {
    let test = "password_from_mysql_pwd_and_my_cnf";
    let m = match PrivateMariaDb::start() {
        Ok(m) => m,
        Err(why) => return skip(test, &why.to_string()),
    };
    m.conn()
        .query_drop("CREATE USER kept@'127.0.0.1' IDENTIFIED BY 'kept-pw-5'")
        .unwrap();
    let url = m.url_as("kept", "");
    let home = scratch();
    let drop_with = |env: &[(&str, &str)]| db_drop_in_home(&url, home.path(), &["MYSQL_PWD"], env);
    let (code, out) = drop_with(&[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("refused the login") && out.contains("MYSQL_PWD"),
        "{out}"
    );
    let (code, out) = drop_with(&[("MYSQL_PWD", "kept-pw-5")]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("nothing to drop"), "{out}");
    std::fs::write(
        home.path().join(".my.cnf"),
        "[mysqld]\npassword = not-this\n[client]\npassword = \"kept-pw-5\"\n",
    )
    .unwrap();
    let (code, out) = drop_with(&[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("kept-pw-5"), "{out}");
}

/// On InnoDB a row is one database page (16 KiB), so `--size` makes size / 16 KiB rows whose
/// table file is that size; and a run with too little room beside the data stops with a
/// message instead of filling the disk.
#[test]
fn a_row_is_a_page_and_a_full_disk_is_refused() {
    let test = "a_row_is_a_page_and_a_full_disk_is_refused";
    let fs = match Ext4Loop::make(512 << 20) {
        Ok(f) => f,
        Err(why) => return skip(test, &why.to_string()),
    };
    let m = match PrivateMariaDb::start_in(Some(fs.path()), true, &[]) {
        Ok(m) => m,
        Err(why) => return skip(test, &why.to_string()),
    };
    let url = m.url();
    let (code, out, err) = db_setup(&url, "1", "16MiB");
    assert_eq!(code, Some(0), "{out}{err}");
    let mut c = m.conn();
    let rows: Option<u64> = c
        .query_first("SELECT COUNT(*) FROM dbio_slob.slob_1")
        .unwrap();
    let page: Option<u64> = c.query_first("SELECT @@innodb_page_size").unwrap();
    let datadir: Option<String> = c.query_first("SELECT @@datadir").unwrap();
    let (rows, page) = (rows.unwrap(), page.unwrap());
    assert_eq!(rows * page, 16 << 20, "{rows} rows of {page} bytes");
    // The oracle: the table's file holds at least a page per row (two rows to a page before),
    // and not much more (index pages, and InnoDB extends a file by whole extents).
    let file = std::path::Path::new(&datadir.unwrap()).join("dbio_slob/slob_1.ibd");
    let pages = std::fs::metadata(&file).unwrap().len() / page;
    assert!(
        pages >= rows && pages <= rows + rows / 2,
        "{rows} rows in a file of {pages} pages"
    );
    // Fill the file system to 64 MiB free while a run measures: it stops (long before its
    // 2 minutes), naming the space.
    let fill = || {
        let filler = fs.path().join("filler");
        let free = dbio_db::slob::procfs::space(fs.path().to_str().unwrap())
            .unwrap()
            .0;
        let st = std::process::Command::new("fallocate")
            .args(["-l", &(free - (64 << 20)).to_string()])
            .arg(&filler)
            .status()
            .unwrap();
        assert!(st.success());
        filler
    };
    let child = dbio_command()
        .args([
            "db",
            "run",
            "--url",
            &url,
            "--duration",
            "2m",
            "--ramp",
            "0s",
            "--update-pct",
            "50",
            "--no-store",
            "-q",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // dbio's monitor and its session connected: the start's check is behind it.
    let start = std::time::Instant::now();
    loop {
        let n: Option<u64> = c
            .query_first(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID() AND USER = 'root'",
            )
            .unwrap();
        if n.unwrap() >= 2 {
            break;
        }
        assert!(
            start.elapsed().as_secs() < 60,
            "dbio's sessions never connected"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let filler = fill();
    let out = child.wait_with_output().unwrap();
    std::fs::remove_file(&filler).unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("before the disk fills"), "{err}");
    // With 64 MiB free, a run refuses to start, naming the space.
    let filler = fill();
    let (code, out, err) = dbio(&[
        "db",
        "run",
        "--url",
        &url,
        "--duration",
        "2s",
        "--ramp",
        "0s",
        "--update-pct",
        "50",
        "--no-store",
        "-q",
    ]);
    std::fs::remove_file(&filler).unwrap();
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("MiB free")
            && err.contains("before the disk fills")
            && !err.contains("panicked"),
        "{err}"
    );
}
