//! Each hop kind's built-in ceiling (reference.md's figures): the arithmetic from a link's
//! rate, coding and framing, or a disk's rotation, to bandwidth or IOPS, with its basis.

use dbio_model::path::*;

/// One instance's ceilings: bandwidth per direction (bytes/s), whether both directions can
/// be used at once, a device's read and write bandwidth, and IOPS per direction.
#[derive(Debug, Clone, PartialEq)]
pub struct Ceiling {
    pub bw: Option<f64>,
    pub full_duplex: bool,
    pub read_bw: Option<f64>,
    pub write_bw: Option<f64>,
    pub read_iops: Option<f64>,
    pub write_iops: Option<f64>,
    /// How the figure comes about, in plain words.
    pub basis: String,
}

/// Bytes per second as GB/s (or MB/s below one GB/s).
pub(crate) fn gb(x: f64) -> String {
    if x >= 1e9 {
        format!("{:.3} GB/s", x / 1e9)
    } else {
        format!("{:.0} MB/s", x / 1e6)
    }
}

/// The built-in ceiling of one instance of `kind` (None where the kind has no figure of
/// its own: ssd, array, a cpu without iops_per_core).
pub fn builtin(kind: &HopKind) -> Ceiling {
    match kind {
        HopKind::Cpu {
            cores,
            iops_per_core,
        } => cpu(cores, iops_per_core),
        HopKind::Pcie {
            gen,
            lanes,
            tlp_efficiency,
        } => pcie_link(gen, lanes, tlp_efficiency),
        HopKind::Nvme { gen, lanes } => nvme(gen, lanes),
        HopKind::Fc { speed, net } => fc(speed, net),
        HopKind::Ethernet {
            gbit,
            protocol,
            mtu,
        } => ethernet(gbit, protocol, mtu),
        HopKind::Infiniband { rate, width } => infiniband(rate, width),
        HopKind::Sas { gbit, lanes } => sas(gbit, lanes),
        HopKind::Sata { gbit } => sata(gbit),
        HopKind::Hdd { rpm, seek_ms } => hdd(rpm, seek_ms),
        HopKind::Memory { mts, channels } => memory(mts, channels),
        HopKind::Switch {
            port_bw,
            ports,
            isl_bw,
        } => switch(port_bw, ports, isl_bw),
        // A device's given bandwidth is what it does in all, reads and writes together.
        HopKind::Ssd | HopKind::Array => given_only(),
    }
}

/// A ceiling of bandwidth alone.
fn bw(bw: f64, full_duplex: bool, basis: String) -> Ceiling {
    Ceiling {
        bw: Some(bw),
        full_duplex,
        read_bw: None,
        write_bw: None,
        read_iops: None,
        write_iops: None,
        basis,
    }
}

/// A PCIe link's bandwidth per direction (bytes/s) and how it comes about.
fn pcie(gen: u8, lanes: u8) -> (f64, String) {
    let gt = [2.5, 5.0, 8.0, 16.0, 32.0, 64.0][gen as usize - 1];
    let (coding, name) = match gen {
        1 | 2 => (0.8, "8b/10b"),
        3..=5 => (128.0 / 130.0, "128b/130b"),
        _ => (242.0 / 256.0, "FLIT 242/256"),
    };
    (
        gt * coding / 8.0 * lanes as f64 * 1e9,
        format!("PCIe Gen{gen} x{lanes}: {gt} GT/s × {name} / 8 × {lanes} lanes"),
    )
}

/// CPU cores, with IOPS per core when given.
fn cpu(cores: &u32, iops_per_core: &Option<f64>) -> Ceiling {
    Ceiling {
        bw: None,
        full_duplex: false,
        read_bw: None,
        write_bw: None,
        read_iops: iops_per_core.map(|i| i * *cores as f64),
        write_iops: iops_per_core.map(|i| i * *cores as f64),
        basis: match iops_per_core {
            Some(i) => format!("{cores} cores × {i:.0} IOPS per core"),
            None => format!("{cores} cores (give iops_per_core for a ceiling)"),
        },
    }
}

/// A PCIe link, less its TLP overhead.
fn pcie_link(gen: &u8, lanes: &u8, tlp_efficiency: &f64) -> Ceiling {
    let (b, basis) = pcie(*gen, *lanes);
    let b = b * tlp_efficiency;
    let tlp = if *tlp_efficiency < 1.0 {
        format!(" × {tlp_efficiency} TLP efficiency")
    } else {
        String::new()
    };
    bw(b, true, format!("{basis}{tlp} = {} per direction", gb(b)))
}

/// An NVMe device's PCIe link.
fn nvme(gen: &u8, lanes: &u8) -> Ceiling {
    let (b, basis) = pcie(*gen, *lanes);
    bw(
        b,
        true,
        format!("NVMe on {basis} = {} per direction", gb(b)),
    )
}

/// A Fibre Channel port: the quoted figure, or the net one from baud rate and coding.
fn fc(speed: &u32, net: &bool) -> Ceiling {
    let quoted = FC_QUOTED
        .iter()
        .find(|(s, _)| s == speed)
        .map_or(0.0, |(_, m)| *m)
        * 1e6;
    let baud = match speed {
        1 => Some((1.0625, 0.8)),
        2 => Some((2.125, 0.8)),
        4 => Some((4.25, 0.8)),
        8 => Some((8.5, 0.8)),
        16 => Some((14.025, 64.0 / 66.0)),
        32 => Some((28.05, 64.0 / 66.0)),
        _ => None,
    };
    match (net, baud) {
        (true, Some((b, c))) => {
            let n = b * c / 8.0 * 0.9715 * 1e9;
            bw(
                n,
                true,
                format!(
                    "{speed}GFC net: {b} GBd × coding / 8 × 0.9715 framing = {} per direction",
                    gb(n)
                ),
            )
        }
        _ => bw(
            quoted,
            true,
            format!("one {speed}GFC port's {} per direction", gb(quoted)),
        ),
    }
}

/// Ethernet: TCP payload at the MTU, less iSCSI or NVMe/TCP PDU headers.
fn ethernet(gbit: &f64, protocol: &str, mtu: &u32) -> Ceiling {
    let tcp = (*mtu as f64 - 52.0) / (*mtu as f64 + 38.0);
    let pdu = match protocol {
        "iscsi" => 8192.0 / (8192.0 + 48.0),
        "nvme-tcp" => 8192.0 / (8192.0 + 24.0),
        _ => 1.0,
    };
    let b = gbit * 1e9 / 8.0 * tcp * pdu;
    bw(
        b,
        true,
        format!(
            "{gbit} GbE {protocol} at MTU {mtu}: {:.1} % TCP payload{} = {} per direction",
            tcp * 100.0,
            if pdu < 1.0 {
                format!(", {:.1} % after PDU headers", pdu * 100.0)
            } else {
                String::new()
            },
            gb(b)
        ),
    )
}

/// An InfiniBand link of a rate and width.
fn infiniband(rate: &str, width: &u8) -> Ceiling {
    let b = ib_gbit(rate).unwrap_or(0.0) * *width as f64 / 4.0 / 8.0 * 1e9;
    bw(
        b,
        true,
        format!("InfiniBand {rate} {width}x = {} per direction", gb(b)),
    )
}

/// SAS lanes.
fn sas(gbit: &f64, lanes: &u8) -> Ceiling {
    let b = gbit * 100e6 * *lanes as f64;
    bw(
        b,
        true,
        format!("SAS {gbit}G × {lanes} lane(s) = {} per direction", gb(b)),
    )
}

/// A SATA link, half duplex.
fn sata(gbit: &f64) -> Ceiling {
    let b = gbit * 100e6;
    bw(b, false, format!("SATA {gbit}G = {}, half duplex", gb(b)))
}

/// A disk's random IOPS from seek and half a rotation.
fn hdd(rpm: &u32, seek_ms: &f64) -> Ceiling {
    let half = 30_000.0 / *rpm as f64;
    let iops = 1000.0 / (seek_ms + half);
    Ceiling {
        bw: None,
        full_duplex: false,
        read_bw: None,
        write_bw: None,
        read_iops: Some(iops),
        write_iops: Some(iops),
        basis: format!(
            "{rpm} rpm: 1 / ({seek_ms} ms seek + {half:.2} ms half rotation) = {iops:.0} IOPS"
        ),
    }
}

/// Memory channels.
fn memory(mts: &f64, channels: &u32) -> Ceiling {
    let b = mts * 1e6 * 8.0 * *channels as f64;
    bw(
        b,
        false,
        format!("{channels} channel(s) × {mts} MT/s × 8 bytes = {}", gb(b)),
    )
}

/// A switch's ports, limited by its inter-switch links.
fn switch(port_bw: &f64, ports: &u32, isl_bw: &Option<f64>) -> Ceiling {
    let p = port_bw * *ports as f64;
    let (b, isl) = match isl_bw {
        Some(i) if *i < p => (*i, format!(", limited by inter-switch links of {}", gb(*i))),
        _ => (p, String::new()),
    };
    bw(
        b,
        true,
        format!("{ports} port(s) of {}{isl} per direction", gb(*port_bw)),
    )
}

/// A device with no figure of its own.
fn given_only() -> Ceiling {
    Ceiling {
        bw: None,
        full_duplex: false,
        read_bw: None,
        write_bw: None,
        read_iops: None,
        write_iops: None,
        basis: "given figures only".into(),
    }
}
