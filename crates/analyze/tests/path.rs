//! The path model against reference.md's hand-computed ceilings and the seeds' scenarios.

use dbio_analyze::path::{analyse, at, builtin};
use dbio_model::path::{HopKind, Topology};

/// Per-direction bandwidth of one instance, bytes/s.
fn bw(kind: HopKind) -> f64 {
    builtin(&kind).bw.unwrap()
}

fn near(got: f64, want: f64, pct: f64) {
    assert!(
        (got - want).abs() <= want * pct / 100.0,
        "got {got}, want {want} ± {pct} %"
    );
}

#[test]
fn built_in_ceilings_match_the_reference_figures() {
    let pcie = |gen, lanes| {
        bw(HopKind::Pcie {
            gen,
            lanes,
            tlp_efficiency: 1.0,
        })
    };
    near(pcie(1, 8), 2.0e9, 0.01);
    near(pcie(2, 8), 4.0e9, 0.01);
    near(pcie(3, 8), 7.877e9, 0.01);
    near(pcie(4, 8), 15.75e9, 0.05); // reference.md rounds 15.754
    near(pcie(5, 8), 31.5e9, 0.05);
    near(pcie(3, 16), 2.0 * 7.877e9, 0.01);
    near(pcie(3, 4), 7.877e9 / 2.0, 0.01);
    let fc = |speed, net| bw(HopKind::Fc { speed, net });
    near(fc(4, false), 400e6, 0.0);
    near(fc(8, false), 800e6, 0.0);
    near(fc(16, false), 1600e6, 0.0);
    near(fc(1, true), 103.2e6, 0.1);
    near(fc(4, true), 412.9e6, 0.1);
    near(fc(16, true), 1652e6, 0.1);
    near(fc(32, true), 3303e6, 0.1);
    let eth = |gbit, protocol: &str, mtu| {
        bw(HopKind::Ethernet {
            gbit,
            protocol: protocol.into(),
            mtu,
        })
    };
    near(eth(10.0, "iscsi", 9000), 1230e6, 0.5);
    near(eth(10.0, "iscsi", 1500), 1170e6, 0.5);
    near(eth(25.0, "iscsi", 9000), 3076e6, 0.5);
    near(eth(100.0, "iscsi", 1500), 11700e6, 0.5);
    near(
        bw(HopKind::Infiniband {
            rate: "QDR".into(),
            width: 4,
        }),
        4e9,
        0.0,
    );
    near(
        bw(HopKind::Infiniband {
            rate: "EDR".into(),
            width: 4,
        }),
        12.5e9,
        0.0,
    );
    near(bw(HopKind::Sata { gbit: 6.0 }), 600e6, 0.0);
    near(
        bw(HopKind::Sas {
            gbit: 12.0,
            lanes: 4,
        }),
        4800e6,
        0.0,
    );
    near(
        bw(HopKind::Memory {
            mts: 3200.0,
            channels: 1,
        }),
        25.6e9,
        0.0,
    );
    let hdd = |rpm, seek_ms| builtin(&HopKind::Hdd { rpm, seek_ms }).read_iops.unwrap();
    near(hdd(15_000, 3.5), 182.0, 0.2);
    near(hdd(10_000, 4.2), 139.0, 0.3);
    near(hdd(7_200, 8.5), 79.0, 0.3);
}

#[test]
fn full_duplex_links_carry_a_mixed_load_in_both_directions() {
    let t = Topology::parse(
        "[workload]\nio_size = \"1MiB\"\nread_pct = 50\n[[hop]]\nname = \"fc\"\nkind = \"fc\"\nspeed = \"8G\"\n[[hop]]\nname = \"sata\"\nkind = \"sata\"\nspeed = \"6G\"\n",
        "t.toml",
    )
    .unwrap();
    // 50/50 on 800 MB/s per direction: 1600 MB/s in all; SATA is half duplex: 600.
    near(at(&t.hops[0], 1 << 20, 50).1.unwrap(), 1600e6, 0.0);
    near(at(&t.hops[1], 1 << 20, 50).1.unwrap(), 600e6, 0.0);
}

fn fixture(name: &str) -> Topology {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    Topology::parse(&text, name).unwrap()
}

#[test]
fn seed_000_the_flash_card_limits_tempdb_and_the_x_bricks_limit_the_array_path() {
    let p = analyse(
        &fixture("seed000-pcie-flash.toml"),
        &[4096, 64 << 10, 1 << 20],
    );
    assert_eq!(p.weakest.as_deref(), Some("PCIe flash card"));
    let card = &p.hops[2];
    near(card.mb_s.unwrap(), 2700.0, 0.01);
    near(p.hops[1].mb_s.unwrap(), 4000.0, 0.01);
    near(
        p.hops[1].headroom_pct.unwrap(),
        (4.0 / 2.7 - 1.0) * 100.0,
        0.01,
    );
    assert_eq!(
        p.hops[0].basis, "no ceiling known",
        "44 cores without iops_per_core"
    );
    // At 4 KB the card's 285k IOPS bind (1.17 GB/s), at 1 MB its 2.7 GB/s.
    near(p.by_io_size[0].iops.unwrap(), 285_000.0, 0.01);
    near(p.by_io_size[2].mb_s.unwrap(), 2700.0, 0.01);

    let p = analyse(&fixture("seed000-xtremio.toml"), &[]);
    assert_eq!(p.weakest.as_deref(), Some("X-Bricks"));
    near(p.hops[2].mb_s.unwrap(), 6400.0, 0.01);
    // Four 16GFC ports: 6.4 GB/s each way, 12.8 GB/s for half reads, half writes.
    near(p.hops[1].mb_s.unwrap(), 12_800.0, 0.01);
    near(p.hops[0].mb_s.unwrap(), 2.0 * 2.0 * 7877.0, 0.01);
}

#[test]
fn seed_003_the_4g_switch_port_is_the_limit() {
    let p = analyse(&fixture("seed003-4g-switch.toml"), &[]);
    assert_eq!(p.weakest.as_deref(), Some("4 Gb switch port"));
    near(p.hops[1].mb_s.unwrap(), 400.0, 0.0);
    near(p.hops[1].iops.unwrap(), 400e6 / 65536.0, 0.01);
    assert_eq!(p.hops[3].basis, "no ceiling known");
    assert_eq!(p.path_latency_us, Some(3000.0));
}

#[test]
fn mistakes_name_the_file_hop_and_key() {
    for (toml, needles) in [
        (
            "[[hop]]\nname = \"x\"\nkind = \"pcie\"\ngen = 9\nlanes = 8\n",
            vec!["hop \"x\"", "key gen", "9"],
        ),
        (
            "[[hop]]\nname = \"x\"\nkind = \"pcie\"\ngen = 3\nlanes = 3\n",
            vec!["key lanes", "1, 2, 4, 8, 12 or 16"],
        ),
        (
            "[[hop]]\nname = \"x\"\nkind = \"fc\"\nspeed = \"8G\"\ncount = -2\n",
            vec!["key count"],
        ),
        (
            "[[hop]]\nname = \"x\"\nkind = \"warp\"\n",
            vec!["key kind", "unknown kind 'warp'"],
        ),
        (
            "[[hop]]\nname = \"x\"\nkind = \"array\"\nbandwidth = \"3 parsecs\"\n",
            vec!["key bandwidth", "unknown unit"],
        ),
        (
            "[[hop]]\nname = \"x\"\nkind = \"fc\"\nspeed = \"8G\"\nports = 2\n",
            vec!["key ports", "unknown key for a fc hop"],
        ),
        ("[workload]\nio_size = \"64k\"\n", vec!["no [[hop]]"]),
    ] {
        let e = Topology::parse(toml, "t.toml").unwrap_err().to_string();
        assert!(e.starts_with("topology t.toml"), "{e}");
        for n in needles {
            assert!(e.contains(n), "{e} lacks {n}");
        }
    }
}

#[test]
fn a_ceiling_of_one_direction_caps_that_direction_only() {
    // An array quoted for writes alone: 10 write IOPS.
    let t = Topology::parse(
        "[workload]\nio_size = \"8KiB\"\nread_pct = 100\n[[hop]]\nname = \"a\"\nkind = \"array\"\nwrite_iops = 10\n",
        "t.toml",
    )
    .unwrap();
    // All reads: the write figure sets no limit.
    assert_eq!(at(&t.hops[0], 8192, 100).0, None);
    // Half writes: 10 writes a second are half of 20 I/Os.
    near(at(&t.hops[0], 8192, 50).0.unwrap(), 20.0, 0.0);
    // Read bandwidth alone, all writes: no limit; 75 % reads of 300 MB/s: 400 MB/s in all.
    let t = Topology::parse(
        "[workload]\nio_size = \"1MiB\"\nread_pct = 75\n[[hop]]\nname = \"d\"\nkind = \"ssd\"\nread_bandwidth = \"300MB/s\"\n",
        "t.toml",
    )
    .unwrap();
    assert_eq!(at(&t.hops[0], 1 << 20, 0).1, None);
    near(at(&t.hops[0], 1 << 20, 75).1.unwrap(), 400e6, 0.01);
}

#[test]
fn zero_and_absurd_figures_are_refused_naming_the_hop_and_key() {
    for (hop, key) in [
        ("kind = \"array\"\nbandwidth = \"0GB/s\"", "bandwidth"),
        ("kind = \"array\"\niops = 0", "iops"),
        ("kind = \"array\"\niops = 1e308", "iops"),
        ("kind = \"memory\"\nmts = 0", "mts"),
    ] {
        let text = format!("[workload]\nio_size = \"8KiB\"\n[[hop]]\nname = \"h\"\n{hop}\n");
        let e = Topology::parse(&text, "t.toml").unwrap_err().to_string();
        assert!(
            e.contains(&format!("key {key}")) && e.contains("above 0"),
            "{hop}: {e}"
        );
    }
}
