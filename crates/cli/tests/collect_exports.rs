//! `dbio collect --exports DIR`: a folder of SQL Server exports saved every interval (as a
//! scheduled job writes them) read as a collection: each export after the first is one
//! sample, across a restart of the server; `--resume` reads the exports added since; a folder
//! holding a file that is no export stores nothing.

mod common;

use common::{a_disk, dbio_command, dbio_json, scratch};
use std::path::Path;
use std::time::{Duration, SystemTime};

const HEAD: &str = "database_name,database_id,file_id,name,physical_name,type_desc,size_on_disk_bytes,num_of_reads,num_of_bytes_read,io_stall_read_ms,num_of_writes,num_of_bytes_written,io_stall_write_ms,io_stall,sample_ms";

/// An export whose data file has read `data` times and index `idx` times, `ms` after the
/// server's start, written at `at` seconds after a fixed time.
fn export(dir: &Path, name: &str, data: u64, idx: u64, ms: u64, at: u64) {
    let rows = [
        format!("shop,5,1,shop_data,D:\\data\\shop.mdf,ROWS,10737418240,{data},{},{},1000,8192000,100,{},{ms}", data * 8192, data * 5, data * 5 + 100),
        format!("shop,5,3,shop_idx,D:\\data\\shop_idx.ndf,ROWS,2147483648,{idx},{},{},10,81920,1,{},{ms}", idx * 8192, idx * 7, idx * 7 + 1),
    ];
    let path = dir.join(name);
    std::fs::write(&path, format!("{HEAD}\n{}\n", rows.join("\n"))).unwrap();
    let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_083_200 + at);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

fn collect(db: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = dbio_command()
        .arg("collect")
        .args(args)
        .arg("--db")
        .arg(db)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn reads(db: &Path, object: &str) -> (u64, String) {
    let r = dbio_json(db, &["collect", "--report", "sql"]).unwrap_or_else(|e| panic!("{e}"));
    let o = r["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == object)
        .unwrap();
    (o["reads"].as_u64().unwrap(), r["events"].to_string())
}

#[test]
fn a_folder_of_exports_is_a_collection_across_a_restart_and_goes_on() {
    let dir = scratch();
    let (folder, db) = (dir.path().join("exports"), dir.path().join("h.db"));
    std::fs::create_dir(&folder).unwrap();
    let f = folder.to_str().unwrap();
    // A file that is no export: refused, nothing stored.
    std::fs::write(folder.join("notes.txt"), "collected by the 09:00 job\n").unwrap();
    export(&folder, "a.csv", 100_000, 50_000, 1_000_000, 0);
    let (code, err) = collect(&db, &["--exports", f, "--name", "sql"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("notes.txt"), "{err}");
    let (code, err) = collect(&db, &["--report", "sql"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("no collection named sql"), "{err}");
    std::fs::remove_file(folder.join("notes.txt")).unwrap();
    // Every minute an export; the server restarts between the second and the third.
    export(&folder, "b.csv", 160_000, 90_000, 1_060_000, 60);
    export(&folder, "c.csv", 5_000, 2_000, 30_000, 120);
    export(&folder, "d.csv", 9_000, 2_500, 90_000, 180);
    let (code, err) = collect(&db, &["--exports", f, "--name", "sql"]);
    assert_eq!(code, Some(0), "{err}");
    // By hand: 60,000 in the first minute, 5,000 since the restart, then 4,000.
    let (data, events) = reads(&db, "shop.shop_data");
    assert_eq!(data, 60_000 + 5_000 + 4_000);
    assert!(
        events.contains("restarted") && events.contains("c.csv"),
        "{events}"
    );
    assert_eq!(reads(&db, "shop.shop_idx").0, 40_000 + 2_000 + 500);
    // A later export, read by --resume: the minute since the last one.
    export(&folder, "e.csv", 12_000, 2_600, 150_000, 240);
    let (code, err) = collect(&db, &["--resume", "sql"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(reads(&db, "shop.shop_data").0, 69_000 + 3_000);
    // Listed by `dbio history`, shown by `dbio show`, written as Markdown.
    let shown = |args: &[&str]| {
        let out = dbio_command()
            .args(args)
            .arg("--db")
            .arg(&db)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let listed = shown(&["history"]);
    assert!(
        listed.contains("collections") && listed.contains("sql ") && listed.contains("exports"),
        "{listed}"
    );
    // The filters: collections have no label; --since keeps those with a sample since.
    assert!(!shown(&["history", "--label", "x"]).contains("collections"));
    assert!(shown(&["history", "--since", "2000-01-01"]).contains("sql "));
    assert!(!shown(&["history", "--since", "2999-01-01"]).contains("collections"));
    assert!(shown(&["show", "sql"]).starts_with("collection sql: exports"));
    let csv = shown(&["collect", "--report", "sql", "--csv", "-"]);
    let rows: Vec<&str> = csv.lines().collect();
    assert!(
        rows[0].ends_with(",db_iops,bound") && rows.len() == 5,
        "{} rows: {csv:?}",
        rows.len()
    );
    assert!(rows[1..].iter().all(|r| r.ends_with(",neither")), "{csv}");
    let md = shown(&["collect", "--report", "sql", "--md", "-"]);
    assert!(
        md.starts_with("# Collection sql") && md.contains("| shop.shop_data | data | 72000 |"),
        "{md}"
    );
    // Placed by the whole folder, the data file's reads are the exports' own.
    let v = dbio_json(&db, &["advise", "sql", "--window", "all"]).unwrap_or_else(|e| panic!("{e}"));
    let o = v["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "shop.shop_data")
        .unwrap();
    assert_eq!(o["reads"], 72_000);
    assert_eq!(v["source"]["interval_secs"], 240.0);
}

/// Bad flags are refused in one line naming the flag (status 2); a second dbio resuming a
/// collection that is being collected is refused.
#[test]
fn bad_collect_flags_are_refused_in_one_line() {
    let dir = scratch();
    let db = dir.path().join("h.db");
    let disk = a_disk();
    // The first six are refused before the history is opened: none is made.
    let cases: &[(&[&str], &str)] = &[
        (&[], "give --url"),
        (
            &["--device", &disk, "--interval", "0s"],
            "--interval 0s: at least 1s",
        ),
        (
            &["--device", &disk, "--interval", "ten"],
            "--interval ten: not a length",
        ),
        (
            &["--device", &disk, "--interval", "2s", "--duration", "1s"],
            "shorter than --interval",
        ),
        (
            &["--device", &disk, "--name", ""],
            "--name \"\": give a name",
        ),
        (&["--device", &disk, "--name", "a@b"], "without '@'"),
        (
            &["--device", "nosuch-dev"],
            "--device nosuch-dev: not in /proc/diskstats",
        ),
        (&["--url", "ftp://x/y"], "ftp://x/y"),
        (&["--resume", "nosuch"], "no collection named nosuch"),
        (
            &["--exports", "/nonexistent-dbio-dir"],
            "--exports /nonexistent-dbio-dir",
        ),
        (&["--report", "nosuch"], "no collection named nosuch"),
    ];
    for (i, (args, said)) in cases.iter().enumerate() {
        let (code, err) = collect(&db, args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(
            err.contains(said) && err.trim().lines().count() == 1,
            "{args:?}: {err}"
        );
        assert!(i >= 6 || !db.exists(), "{args:?} made the history");
    }
    let running = dbio_command()
        .args([
            "collect",
            "--device",
            &disk,
            "--interval",
            "1s",
            "--name",
            "busy",
            "-q",
            "--db",
        ])
        .arg(&db)
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while collect(&db, &["--report", "busy"]).0 != Some(0) {
        assert!(std::time::Instant::now() < deadline, "no sample after 30 s");
        std::thread::sleep(Duration::from_millis(200));
    }
    let (code, err) = collect(&db, &["--resume", "busy"]);
    std::process::Command::new("kill")
        .args(["-INT", &running.id().to_string()])
        .status()
        .unwrap();
    let end = running.wait_with_output().unwrap();
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("is being collected now"), "{err}");
    assert_eq!(end.status.code(), Some(130));
}

/// An Oracle V$FILESTAT export of one data file read `reads` times, `secs` after a start at
/// `started`, written at `at` seconds after a fixed time.
fn oracle(dir: &Path, name: &str, reads: u64, secs: u64, started: &str, at: u64) {
    let head = "FILE_TYPE,FILE#,TABLESPACE_NAME,NAME,BYTES,BLOCK_SIZE,PHYRDS,PHYWRTS,PHYBLKRD,PHYBLKWRT,READTIM,WRITETIM,SINGLEBLKRDS,SINGLEBLKRDTIM,SECONDS_SINCE_STARTUP,STARTUP_TIME";
    let row = format!("DATA,5,CUSTOMER,/u02/oradata/TPCE/customer1.dbf,9091153920,8192,{reads},100,{reads},100,{},10,{reads},{},{secs},{started}", reads / 2, reads / 2);
    let path = dir.join(name);
    std::fs::write(&path, format!("{head}\n{row}\n")).unwrap();
    let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_083_200 + at);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(t)
        .unwrap();
}

/// Oracle's exports are a collection as SQL Server's are, across an instance restart.
#[test]
fn a_folder_of_oracle_exports_is_a_collection_across_a_restart() {
    let dir = scratch();
    let (folder, db) = (dir.path().join("ora"), dir.path().join("h.db"));
    std::fs::create_dir(&folder).unwrap();
    oracle(&folder, "1.csv", 700_000, 98_000, "2009-11-02 08:00:00", 0);
    oracle(
        &folder,
        "2.csv",
        760_000,
        98_600,
        "2009-11-02 08:00:00",
        600,
    );
    oracle(&folder, "3.csv", 20_000, 300, "2009-11-03 07:55:00", 1200);
    let (code, err) = collect(
        &db,
        &["--exports", folder.to_str().unwrap(), "--name", "ora"],
    );
    assert_eq!(code, Some(0), "{err}");
    let r = dbio_json(&db, &["collect", "--report", "ora"]).unwrap_or_else(|e| panic!("{e}"));
    let o = r["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"].as_str().unwrap().contains("customer1.dbf"))
        .unwrap();
    // By hand: 60,000 reads in the first ten minutes, 20,000 since the restart.
    assert_eq!(o["reads"], 80_000, "{r}");
    assert!(r["events"].to_string().contains("restarted"), "{r}");
    assert_eq!(r["info"]["source"], folder.to_str().unwrap());
}
