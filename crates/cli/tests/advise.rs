//! `dbio advise` end to end: seed 002's Figure 5 as a SQL Server, an Oracle and an AWR
//! export with the ranking and the budget choice worked out by hand; two exports and their
//! difference; the JSON against its schema, the HTML page, the history; bad input as one
//! line and an exit status. The live sources are in advise_live.rs.

mod common;

use common::{dbio_command, scratch};
use serde_json::Value;

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/advise_fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// dbio advise ARGS: exit status, stdout, stderr.
fn advise(args: &[&str]) -> (Option<i32>, String, String) {
    let out = dbio_command().arg("advise").args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The JSON result of a `dbio advise` that must succeed (nothing stored).
fn advise_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.extend(["--json", "-", "--no-store"]);
    let (code, out, err) = advise(&all);
    assert_eq!(code, Some(0), "dbio advise {all:?}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"))
}

fn ranked(v: &Value) -> Vec<String> {
    v["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap().to_string())
        .collect()
}

fn list(v: &Value, which: &str) -> Vec<String> {
    v["placement"][which]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap().to_string())
        .collect()
}

fn reason(v: &Value, name: &str) -> String {
    let l = v["placement"]["to_leave"].as_array().unwrap();
    let o = l
        .iter()
        .find(|o| o["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not left: {l:?}"));
    o["reason"].as_str().unwrap().to_string()
}

/// Figure 5's 12 files, truncated values filled so that the printed PerCentReads,
/// PerCentWrites and ISStallPCT (which is IOStallMS / (reads + writes), floored) still
/// come out; FileSize is in 8 KiB pages (1280-page growth steps: 10 MiB). With flash assumed
/// at 0.2 ms, each file saves IOStallMS − (reads + writes) × 0.2:
///   Broker1 223,773,456 − 11,254,592 × 0.2 = 221,522,537.6 over 33.43 GiB = 6.63 M/GiB
///   Broker6 192,127,890 − 2,250,723.8 = 189,877,166.2 → 5.68 M/GiB
///   Broker4 186,767,012 − 2,259,583.6 = 184,507,428.4 → 5.52 M/GiB
///   Broker2 185,061,567 − 2,245,862.4 = 182,815,704.6 over 33.42 GiB → 5.47 M/GiB
///   Broker5 174,820,047.4 → 5.23; Broker3 164,993,228.6 → 4.94; Broker8 128,995,850.4 → 3.86;
///   Broker7 122,130,819.8 → 3.65; Customer5 13,377,299.6 over 8.457 GiB → 1.58;
///   Customer2 12,972,817.6 → 1.53; Customer1 10,617,514 over 8.467 GiB → 1.25; Customer7 0.93.
const FIG5_RANK: [&str; 12] = [
    "Broker1",
    "Broker6",
    "Broker4",
    "Broker2",
    "Broker5",
    "Broker3",
    "Broker8",
    "Broker7",
    "Customer5",
    "Customer2",
    "Customer1",
    "Customer7",
];

#[test]
fn sqlserver_figure5_ranked_and_chosen_as_by_hand() {
    let v = advise_json(&[&fixture("fig5.csv"), "--flash", "101GiB"]);
    let want: Vec<String> = FIG5_RANK.iter().map(|n| format!("tpce.{n}")).collect();
    assert_eq!(ranked(&v), want);
    // 101 GiB: three brokers (3 × 33.43 = 100.28 GiB) save 221.5 + 189.9 + 184.5 = 595.9 M ms;
    // the best mix with customers, two brokers and four customers (100.7 GiB), saves
    // 411.4 + 44.8 = 456.2 M ms.
    assert_eq!(
        list(&v, "to_move"),
        ["tpce.Broker1", "tpce.Broker6", "tpce.Broker4"]
    );
    let p = &v["placement"];
    assert_eq!(p["used_bytes"], 3 * 4_381_440u64 * 8192);
    assert_eq!(p["exact"], true);
    assert!(p["method"]
        .as_str()
        .unwrap()
        .contains("dynamic programming"));
    let saved = p["gain"]["saved_ms"].as_f64().unwrap();
    assert!((saved - 595_907_132.2).abs() < 1.0, "{saved}");
    // 60 GiB: one broker and the three best customers (58.81 GiB): 221.5 + 13.4 + 13.0 + 10.6
    // = 258.5 M ms; two brokers (66.9 GiB) do not fit, nor a fourth customer (67.3 GiB).
    let v = advise_json(&[&fixture("fig5.csv"), "--flash", "60GiB"]);
    assert_eq!(
        list(&v, "to_move"),
        [
            "tpce.Broker1",
            "tpce.Customer5",
            "tpce.Customer2",
            "tpce.Customer1"
        ]
    );
    assert_eq!(reason(&v, "tpce.Broker6"), "not_chosen");
}

#[test]
fn oracle_filestat_ranked_and_chosen_as_by_hand() {
    // The same files with 90 % of the stall as READTIM and 10 % as WRITETIM (centiseconds),
    // plus a 1 GiB TEMP file (saves 300,000 − 100,000 × 0.2 = 280,000 ms), a 4 GiB undo
    // file (1,200,000 − 84,000 = 1,116,000: 0.28 M/GiB, below every customer) and a redo log.
    let v = advise_json(&[&fixture("vfilestat.csv"), "--flash", "60GiB"]);
    let files: Vec<String> = ranked(&v)
        .into_iter()
        .filter(|n| n.contains("broker") || n.contains("customer"))
        .collect();
    let want: Vec<String> = FIG5_RANK
        .iter()
        .map(|n| format!("/u02/oradata/TPCE/{}.dbf", n.to_lowercase()))
        .collect();
    assert_eq!(files, want);
    // 60 GiB: as for SQL Server, then TEMP goes in the 1.19 GiB the data files leave.
    assert_eq!(
        list(&v, "to_move"),
        [
            "/u02/oradata/TPCE/broker1.dbf",
            "/u02/oradata/TPCE/customer5.dbf",
            "/u02/oradata/TPCE/customer2.dbf",
            "/u02/oradata/TPCE/customer1.dbf",
            "/u02/oradata/TPCE/temp01.dbf"
        ]
    );
    assert_eq!(reason(&v, "/u03/oradata/TPCE/redo01.log"), "log");
    assert_eq!(v["source"]["interval_secs"], 98_000.0);
    // 101 GiB: three brokers leave 0.72 GiB, too little for the 1 GiB TEMP file.
    let v = advise_json(&[&fixture("vfilestat.csv"), "--flash", "101GiB"]);
    assert_eq!(list(&v, "to_move").len(), 3);
    assert_eq!(reason(&v, "/u02/oradata/TPCE/temp01.dbf"), "temp_last");
}

#[test]
fn awr_file_io_stats_ranked_and_chosen_as_by_hand() {
    // AWR gives Av Rd(ms) to 0.1 ms and no write times: stall = reads × Av Rd(ms), e.g.
    // Broker1 10,025,210 × 22.3 = 223,562,183 ms, saving 223,562,183 − 11,254,592 × 0.2;
    // Broker6 10,014,185 × 19.2; Broker4 × 18.6; Broker2 × 18.5: the order of Figure 5.
    let v = advise_json(&[
        &fixture("awr.txt"),
        "--sizes",
        &fixture("datafiles.csv"),
        "--flash",
        "60GiB",
    ]);
    let want: Vec<String> = FIG5_RANK
        .iter()
        .map(|n| format!("/u02/oradata/TPCE/{}.dbf", n.to_lowercase()))
        .collect();
    assert_eq!(ranked(&v), want);
    assert_eq!(v["source"]["interval_secs"], 3600.0);
    let b1 = &v["objects"][0];
    assert!((b1["stall_ms"].as_f64().unwrap() - 223_562_183.0).abs() < 1.0);
    assert_eq!(
        list(&v, "to_move"),
        [
            "/u02/oradata/TPCE/broker1.dbf",
            "/u02/oradata/TPCE/customer5.dbf",
            "/u02/oradata/TPCE/customer2.dbf",
            "/u02/oradata/TPCE/customer1.dbf"
        ]
    );
    // Without sizes nothing can be placed, and each file says why.
    let v = advise_json(&[&fixture("awr.txt"), "--flash", "60GiB"]);
    assert_eq!(reason(&v, "/u02/oradata/TPCE/broker1.dbf"), "size_unknown");
}

/// dmv_before.csv and dmv_after.csv are 600 s apart (sample_ms). In between: shop_idx 40,000
/// reads and 1,000 writes with 403,000 ms of stall (saves 403,000 − 41,000 × 0.2 = 394,800
/// over 2 GiB); shop_data 70,000 I/Os, 320,000 ms (saves 306,000 over 10 GiB); tempdev
/// 40,000 I/Os, 200,000 ms (192,000 over 4 GiB); the log 300,000 writes, 150,000 ms.
#[test]
fn two_dmv_exports_give_the_difference() {
    let (b, a) = (fixture("dmv_before.csv"), fixture("dmv_after.csv"));
    let v = advise_json(&[&b, &a, "--flash", "7GiB"]);
    assert_eq!(v["source"]["interval_secs"], 600.0);
    assert_eq!(v["source"]["since_start"], false);
    // The candidates first, then temp, then the log (never moved, whatever its stall).
    assert_eq!(
        ranked(&v),
        [
            "shop.shop_idx",
            "shop.shop_data",
            "tempdb.tempdev",
            "shop.shop_log"
        ]
    );
    let idx = &v["objects"][0];
    assert_eq!(
        (idx["reads"].as_u64(), idx["stall_ms"].as_f64()),
        (Some(40_000), Some(403_000.0))
    );
    assert_eq!(idx["kind"], "index");
    // 41,000 I/Os in 600 s over 2 GiB.
    assert!((idx["iops_per_gib"].as_f64().unwrap() - 41_000.0 / 600.0 / 2.0).abs() < 1e-9);
    // 7 GiB: shop_data (10 GiB) cannot fit; shop_idx (2 GiB), then tempdev in the 5 GiB left.
    assert_eq!(list(&v, "to_move"), ["shop.shop_idx", "tempdb.tempdev"]);
    assert_eq!(reason(&v, "shop.shop_log"), "log");
    assert_eq!(reason(&v, "shop.shop_data"), "too_big");
    // 12 GiB: both data files; tempdev has no room left.
    let v = advise_json(&[&b, &a, "--flash", "12GiB", "--io-wait-share", "50%"]);
    assert_eq!(list(&v, "to_move"), ["shop.shop_idx", "shop.shop_data"]);
    assert_eq!(reason(&v, "tempdb.tempdev"), "temp_last");
    // Amdahl: saved 700,800 of all 1,073,000 ms of stall; p = 0.5.
    let bound = v["placement"]["gain"]["speedup_bound"].as_f64().unwrap();
    assert!(
        (bound - 1.0 / (1.0 - 0.5 * 700_800.0 / 1_073_000.0)).abs() < 1e-9,
        "{bound}"
    );
}

/// The log of dmv_before/after has the most stall per GiB (150,000 ms over its size), but it is
/// never moved: the table puts it under the candidates and temp, with no "saved ms" figure.
#[test]
fn what_is_never_moved_ranks_under_the_candidates_without_a_saving() {
    let (b, a) = (fixture("dmv_before.csv"), fixture("dmv_after.csv"));
    let (code, out, err) = advise(&[&b, &a, "--flash", "7GiB", "--no-store"]);
    assert_eq!(code, Some(0), "{err}");
    let row = |name: &str| -> (usize, Vec<String>) {
        let (i, l) = out
            .lines()
            .enumerate()
            .find(|(_, l)| l.contains(&format!("  {name}  ")))
            .unwrap_or_else(|| panic!("no row for {name}: {out}"));
        (i, l.split_whitespace().map(String::from).collect())
    };
    let (idx, data, temp, log) = (
        row("shop.shop_idx"),
        row("shop.shop_data"),
        row("tempdb.tempdev"),
        row("shop.shop_log"),
    );
    assert!(idx.0 < data.0 && data.0 < temp.0 && temp.0 < log.0, "{out}");
    assert_eq!(log.1[0], "4", "the log ranks last: {out}");
    assert_eq!(log.1.last().map(String::as_str), Some("-"), "{out}");
    assert_eq!(idx.1.last().map(String::as_str), Some("394,800"), "{out}");
    let v = advise_json(&[&b, &a]);
    assert!(v["objects"][3]["saved_ms"].is_null(), "{}", v["objects"][3]);
}

#[test]
fn json_follows_the_committed_schema() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/../../schema/advise-result.v1.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    for args in [
        vec![fixture("vfilestat.csv"), "--flash".into(), "60GiB".into()],
        vec![fixture("awr.txt")],
        vec![fixture("dmv_before.csv"), fixture("dmv_after.csv")],
    ] {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = advise_json(&a);
        let errors: Vec<String> = v.iter_errors(&r).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{args:?}: {errors:?}");
        assert_eq!(r["schema"], "dbio.advise/1");
    }
}

#[test]
fn html_page_history_and_text() {
    let dir = scratch();
    let html = dir.path().join("a.html");
    let db = dir.path().join("h.db");
    let (code, out, err) = advise(&[
        &fixture("fig5.csv"),
        "--flash",
        "60GiB",
        "--html",
        html.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
        "--label",
        "fig5",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("skew: 52 % of the I/O is in 48 % of the capacity"),
        "{out}"
    );
    assert!(out.contains("  move   tpce.Broker1 (data, 33.4 GiB"));
    assert!(out.contains("exact: 0/1 knapsack by dynamic programming"));
    assert!(err.contains("stored as run"), "{err}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("data-chart=\"skew\"") && page.contains("data-table=\"ranked\""));
    assert!(page.contains("data-mark=\"skew\""));
    assert_eq!(page.matches("<tr><td>").count(), 12, "one row per object");
    let (code, shown, _) = {
        let o = dbio_command()
            .args(["show", "fig5", "--db", db.to_str().unwrap()])
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            (),
        )
    };
    assert_eq!(code, Some(0));
    assert_eq!(shown, out, "the history keeps the summary as printed");
    let o = dbio_command()
        .args(["history", "--db", db.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("advise"));
}

#[test]
fn queries_are_printed_for_every_system() {
    let (code, out, _) = advise(&["--queries"]);
    assert_eq!(code, Some(0));
    for q in [
        "sys.dm_io_virtual_file_stats",
        "V$FILESTAT",
        "V$TEMPFILE",
        "pg_statio_user_tables",
        "pg_statio_user_indexes",
        "pg_stat_wal",
        "performance_schema.file_summary_by_instance",
        "/proc/diskstats",
    ] {
        assert!(out.contains(q), "no {q}");
    }
}

/// One line on stderr, nothing on stdout, and the exit status.
fn refused(args: &[&str], code: i32, says: &str) {
    let mut all = args.to_vec();
    if !all.contains(&"--db") {
        all.push("--no-store");
    }
    let (c, out, err) = advise(&all);
    assert_eq!(c, Some(code), "{all:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{all:?}: {err}");
    assert!(err.contains(says), "{all:?}: {err}");
    assert!(!err.contains("panicked"));
    assert!(out.is_empty(), "{out}");
}

#[test]
fn bad_input_is_one_clear_line() {
    let dir = scratch();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let dmv = std::fs::read_to_string(fixture("dmv_before.csv")).unwrap();
    let cells = |f: &dyn Fn(usize, &mut Vec<String>)| -> String {
        dmv.lines()
            .enumerate()
            .map(|(i, l)| {
                let mut c: Vec<String> = l.split(',').map(String::from).collect();
                f(i, &mut c);
                c.join(",") + "\n"
            })
            .collect()
    };
    // The eleventh column is num_of_writes.
    let missing = write(
        "missing.csv",
        &cells(&|_, c| {
            c.remove(10);
        }),
    );
    refused(&[&missing], 2, "column num_of_writes is missing");
    let unknown = write(
        "unknown.csv",
        &cells(&|i, c| c.push(if i == 0 { "colour" } else { "red" }.into())),
    );
    refused(&[&unknown], 2, "unknown column colour");
    let text = write("notes.txt", "hello\nworld\n");
    refused(&[&text], 2, "not an export dbio advise reads");
    let nan = write("nan.csv", &dmv.replacen(",100000,", ",lots,", 1));
    refused(&[&nan], 2, "column num_of_reads is 'lots'");
    refused(
        &[&fixture("dmv_after.csv"), &fixture("dmv_restarted.csv")],
        1,
        "the server restarted",
    );
    refused(
        &[&fixture("dmv_after.csv"), &fixture("dmv_after.csv")],
        1,
        "no I/O in the interval",
    );
    refused(
        &[&fixture("fig5.csv"), "--flash", "0GiB"],
        2,
        "budget above zero",
    );
    // A bare 0 is a budget of nothing, not a run id (ids start at 1).
    let none = dir.path().join("none.db");
    refused(
        &[
            &fixture("fig5.csv"),
            "--flash",
            "0",
            "--db",
            none.to_str().unwrap(),
        ],
        2,
        "--flash 0: give a budget above zero",
    );
    refused(
        &[&fixture("fig5.csv"), "--current", "12"],
        2,
        "--current RUN needs --flash RUN",
    );
    refused(
        &[&fixture("fig5.csv"), "--interval", "5s"],
        2,
        "for live sources",
    );
    refused(
        &[&fixture("fig5.csv"), "--io-wait-share", "140%"],
        2,
        "--io-wait-share 140%",
    );
    refused(&[], 2, "give one source");
    refused(&["--url", "oracle://x@y/z"], 2, "give postgres://");
    refused(
        &[
            &fixture("fig5.csv"),
            "--flash",
            "60GiB",
            "--flash",
            "no-such-run",
            "--db",
            dir.path().join("none.db").to_str().unwrap(),
        ],
        2,
        "--flash no-such-run",
    );
    refused(
        &[&fixture("fig5.csv"), "--json", &fixture("fig5.csv")],
        2,
        "would write over",
    );
}

/// Two saved copies of /proc/diskstats, each after its /proc/uptime line: 60 s apart. In
/// between nvme0n1 did 60,000 reads and 10,000 writes with 35,000 ms of waiting (0.5 ms each:
/// saves 35,000 − 70,000 × 0.2 = 21,000 over 1 TiB), sda 6,000 reads and 1,000 writes with
/// 70,000 ms (10 ms each: saves 68,600 over 100 GiB). Partitions are left out.
#[test]
fn two_diskstats_copies_give_the_difference() {
    let v = advise_json(&[
        &fixture("diskstats_before.txt"),
        &fixture("diskstats_after.txt"),
        "--sizes",
        &fixture("disk_sizes.csv"),
        "--flash",
        "200GiB",
    ]);
    assert_eq!(v["source"]["system"], "diskstats");
    assert_eq!(v["source"]["interval_secs"], 60.0);
    assert_eq!(ranked(&v), ["/dev/sda", "/dev/nvme0n1"]);
    let sda = &v["objects"][0];
    assert_eq!(sda["saved_ms"], 68_600.0);
    assert_eq!(sda["bytes_read"], 6_000u64 * 16 * 512);
    assert_eq!(list(&v, "to_move"), ["/dev/sda"]);
    assert_eq!(reason(&v, "/dev/nvme0n1"), "too_big");
}

/// A simulated run's JSON: the "device" of `sim` with 70 % reads of `bs`.
fn sim_run(dir: &std::path::Path, name: &str, sim: &str, bs: &str) -> String {
    let path = dir.join(name).display().to_string();
    let out = dbio_command()
        .args([
            "run", "--engine", "sim", "--sim", sim, "--rw", "randrw", "--mix", "70", "--bs", bs,
        ])
        .args([
            "--qd",
            "4",
            "--ops",
            "20000",
            "--no-store",
            "-q",
            "--json",
            &path,
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    path
}

#[test]
fn measured_devices_give_the_latency_ratio() {
    let dir = scratch();
    let flash = sim_run(dir.path(), "flash.json", "nvme-gen3", "16k");
    let disk = sim_run(dir.path(), "disk.json", "hdd-15k", "16k");
    let v = advise_json(&[
        &fixture("fig5.csv"),
        "--flash",
        "101GiB",
        "--flash",
        &flash,
        "--current",
        &disk,
    ]);
    let mean = |f: &str, d: &str| -> f64 {
        let r: Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
        r[d]["latency_ns"]["mean"].as_f64().unwrap() / 1e6
    };
    // Broker1: 10,025,210 reads of 11,254,592 I/Os; each device's latency at that mix is
    // rs × read mean + (1 − rs) × write mean, and flash = now × flash device / current device.
    let rs = 10_025_210.0 / 11_254_592.0;
    let at = |f: &str| rs * mean(f, "read") + (1.0 - rs) * mean(f, "write");
    let objs = v["objects"].as_array().unwrap();
    let b1 = objs.iter().find(|o| o["name"] == "tpce.Broker1").unwrap();
    let now = b1["current_ms"].as_f64().unwrap();
    let want = now * at(&flash) / at(&disk);
    assert!(
        (b1["flash_ms"].as_f64().unwrap() - want).abs() < 1e-9 * want,
        "{} vs {want}",
        b1["flash_ms"]
    );
    let basis = v["placement"]["gain"]["latency_basis"].as_str().unwrap();
    assert!(
        basis.starts_with("measured: flash") && basis.contains("disk.json"),
        "{basis}"
    );
    // The flash device alone: its latency against each file's own latency now.
    let v = advise_json(&[&fixture("fig5.csv"), "--flash", "101GiB", "--flash", &flash]);
    let objs = v["objects"].as_array().unwrap();
    let b1 = objs.iter().find(|o| o["name"] == "tpce.Broker1").unwrap();
    assert!((b1["flash_ms"].as_f64().unwrap() - at(&flash)).abs() < 1e-9);
}

/// A file of `len` bytes (sparse: no disk used) that starts with `start`.
fn sparse(dir: &std::path::Path, name: &str, start: &[u8], len: u64) -> String {
    let p = dir.join(name);
    std::fs::write(&p, start).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&p)
        .unwrap()
        .set_len(len)
        .unwrap();
    p.display().to_string()
}

/// What is not an export is refused from its first block, whatever the size of the file: a
/// 10 GB file of zero bytes (once read whole, 21 GB of memory and 111 s, before "not an
/// export"), a header followed by zeros, a text of many short lines that is no export, a
/// line of megabytes, and a real export grown past 1 GiB.
#[test]
fn what_is_not_an_export_is_refused_from_its_start_whatever_its_size() {
    let dir = scratch();
    let d = dir.path();
    let zeros = sparse(d, "zeros.csv", b"", 10 << 30);
    refused(
        &[&zeros, "--flash", "1GiB"],
        2,
        "not text (a control byte 0x00 on line 1)",
    );
    let dmv = std::fs::read_to_string(fixture("dmv_before.csv")).unwrap();
    let header = dmv.lines().next().unwrap().to_string() + "\n";
    let holed = sparse(d, "holed.csv", header.as_bytes(), 4 << 30);
    refused(&[&holed], 2, "not text (a control byte 0x00 on line 2)");
    let words = d.join("words.txt");
    std::fs::write(&words, "hello world\n".repeat(200_000)).unwrap();
    refused(
        &[words.to_str().unwrap()],
        2,
        "not an export dbio advise reads",
    );
    let long = d.join("long.csv");
    std::fs::write(&long, header.clone() + &"7,".repeat(1 << 20)).unwrap();
    refused(
        &[long.to_str().unwrap()],
        2,
        "line 2 is longer than 1024 KiB",
    );
    // A real export's first 64 KiB and more, then a hole to 2 GiB: too large to be one.
    let rows: String = dmv.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let big = sparse(
        d,
        "big.csv",
        (header + &rows.repeat(400)).as_bytes(),
        2 << 30,
    );
    refused(&[&big], 2, "more than the 1024 MiB an export may have");
    let sizes = d.join("sizes.csv");
    std::fs::write(&sizes, "hello\n".repeat(100)).unwrap();
    refused(
        &[&fixture("awr.txt"), "--sizes", sizes.to_str().unwrap()],
        2,
        "needs a NAME and a BYTES column",
    );
}

/// `bcp -w` (UTF-16LE, no byte-order mark) and PowerShell's `Out-File` (UTF-16LE with its
/// mark, CRLF lines) exports, and UTF-16BE with its mark, give the advice of the UTF-8 file.
#[test]
fn utf16_exports_are_read_as_their_utf8_text() {
    let dir = scratch();
    let utf16 = |name: &str, bom: &[u8], be: bool| -> Vec<String> {
        ["dmv_before.csv", "dmv_after.csv"]
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(fixture(f))
                    .unwrap()
                    .replace('\n', "\r\n");
                let mut bytes = bom.to_vec();
                for u in text.encode_utf16() {
                    bytes.extend(if be { u.to_be_bytes() } else { u.to_le_bytes() });
                }
                let p = dir.path().join(format!("{name}-{f}"));
                std::fs::write(&p, bytes).unwrap();
                p.display().to_string()
            })
            .collect()
    };
    let want = advise_json(&[
        &fixture("dmv_before.csv"),
        &fixture("dmv_after.csv"),
        "--flash",
        "7GiB",
    ]);
    for (name, bom, be) in [
        ("bcp-w", &[][..], false),
        ("out-file", &[0xFF, 0xFE][..], false),
        ("be", &[0xFE, 0xFF][..], true),
    ] {
        let files = utf16(name, bom, be);
        let v = advise_json(&[&files[0], &files[1], "--flash", "7GiB"]);
        assert_eq!(v["objects"], want["objects"], "{name}");
        assert_eq!(v["placement"], want["placement"], "{name}");
        assert_eq!(v["source"]["interval_secs"], 600.0, "{name}");
    }
}

/// A SQL Server DMV export of `n` files of 1 to 64 GiB with power-law I/O, one in 50 a log.
fn dmv_estate(n: u64) -> String {
    let mut s = std::fs::read_to_string(fixture("dmv_before.csv"))
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    s.push('\n');
    for i in 0..n {
        let size = (1 + i * 7919 % 64) << 30;
        let reads = 1_000_000 / (1 + i % 997);
        let kind = if i % 50 == 0 { "LOG" } else { "ROWS" };
        s += &format!(
            "db{},5,{i},f{i},D:\\f{i}.ndf,{kind},{size},{reads},{},{},{},{},{},0,3600000\n",
            i % 7,
            reads * 8192,
            reads * (2 + i % 13),
            reads / 4,
            reads / 4 * 8192,
            reads / 4 * 3
        );
    }
    s
}

/// The history keeps what `dbio show`, `history` and `export` give back of an advice, not
/// every object of a large estate: the first 1000 of each list and the skew through 1001
/// points, totals and gain of all, and a note saying so (100,000 objects stored 103 MB per
/// run before). The stored JSON still follows the schema.
#[test]
fn history_keeps_the_top_of_a_large_estate_and_says_so() {
    let dir = scratch();
    let csv = dir.path().join("estate.csv");
    std::fs::write(&csv, dmv_estate(3000)).unwrap();
    let (json, db) = (dir.path().join("a.json"), dir.path().join("h.db"));
    let db = db.to_str().unwrap();
    let (code, out, err) = advise(&[
        csv.to_str().unwrap(),
        "--flash",
        "2TiB",
        "--json",
        json.to_str().unwrap(),
        "--db",
        db,
        "--label",
        "big",
    ]);
    assert_eq!(code, Some(0), "{err}");
    let all: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(all["objects"].as_array().unwrap().len(), 3000);
    let run = |args: &[&str]| {
        let o = dbio_command().args(args).output().unwrap();
        assert!(o.status.success(), "{args:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    let stored_text = run(&["export", "big", "--db", db]);
    let stored: Value = serde_json::from_str(&stored_text).unwrap();
    assert_eq!(stored["objects"].as_array().unwrap().len(), 1000);
    assert_eq!(stored["objects"][999], all["objects"][999]);
    assert_eq!(stored["totals"], all["totals"]);
    assert_eq!(stored["placement"]["gain"], all["placement"]["gain"]);
    assert_eq!(
        stored["placement"]["used_bytes"],
        all["placement"]["used_bytes"]
    );
    for list in ["to_move", "to_leave"] {
        let (s, a) = (
            stored["placement"][list].as_array().unwrap(),
            all["placement"][list].as_array().unwrap(),
        );
        assert_eq!(s.len(), a.len().min(1000), "{list}");
        assert_eq!(s[..], a[..s.len()], "{list}");
    }
    let (sp, ap) = (
        stored["skew"]["points"].as_array().unwrap(),
        all["skew"]["points"].as_array().unwrap(),
    );
    assert_eq!((sp.len(), &sp[0], &sp[1000]), (1001, &ap[0], &ap[3000]));
    assert_eq!(stored["skew"]["sentence"], all["skew"]["sentence"]);
    let note = stored["notes"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .as_str()
        .unwrap();
    assert!(
        note.contains("the history keeps the first 1000 of the 3000 objects"),
        "{note}"
    );
    assert!(stored_text.len() * 2 < std::fs::metadata(&json).unwrap().len() as usize);
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/../../schema/advise-result.v1.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    assert!(v.is_valid(&stored));
    assert_eq!(
        run(&["show", "big", "--db", db]),
        out,
        "the summary as printed"
    );
    assert!(run(&["history", "--db", db]).contains("advise sqlserver"));
}
