//! The I/O path model (`dbio path TOPOLOGY.toml`): a chain of hops from the host's CPUs to
//! the media, each with a kind, a count of parallel instances and its parameters; and the
//! result of holding the path against a workload (schema `schema/path-result.v1.json`).

use crate::units::{parse_duration, parse_size};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use toml::{Table, Value};

/// Identifier and version of the path-result JSON format.
pub const PATH_SCHEMA: &str = "dbio.path/1";

/// What the ceilings are computed for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Workload {
    pub io_size: u64,
    pub read_pct: u8,
}

/// A topology: the workload and the hops, host side first.
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    pub workload: Workload,
    pub hops: Vec<Hop>,
}

/// One hop: `count` parallel instances of one kind of component.
#[derive(Debug, Clone, PartialEq)]
pub struct Hop {
    pub name: String,
    pub kind: HopKind,
    pub count: u32,
    /// Ceilings given directly (any hop may have them), per instance: bandwidth per
    /// direction (or in all for a device), bytes/s; read and write bandwidth of a device.
    pub bandwidth: Option<f64>,
    pub read_bandwidth: Option<f64>,
    pub write_bandwidth: Option<f64>,
    pub iops: Option<f64>,
    pub read_iops: Option<f64>,
    pub write_iops: Option<f64>,
    /// Latency one I/O spends in this hop, µs.
    pub latency_us: Option<f64>,
}

/// A hop's kind with the parameters its built-in ceiling needs.
#[derive(Debug, Clone, PartialEq)]
pub enum HopKind {
    Cpu {
        cores: u32,
        iops_per_core: Option<f64>,
    },
    Pcie {
        gen: u8,
        lanes: u8,
        tlp_efficiency: f64,
    },
    /// `speed` in GFC (1, 2, 4, … 128); `net`: the computed net figure instead of the quoted one.
    Fc {
        speed: u32,
        net: bool,
    },
    /// `gbit` per second; `protocol` "iscsi", "nvme-tcp" or "tcp".
    Ethernet {
        gbit: f64,
        protocol: String,
        mtu: u32,
    },
    Infiniband {
        rate: String,
        width: u8,
    },
    Sas {
        gbit: f64,
        lanes: u8,
    },
    Sata {
        gbit: f64,
    },
    Nvme {
        gen: u8,
        lanes: u8,
    },
    Hdd {
        rpm: u32,
        seek_ms: f64,
    },
    Ssd,
    Memory {
        mts: f64,
        channels: u32,
    },
    /// Ports of `speed` (an "8G" FC or "10GbE" figure parsed to bytes/s per direction) the
    /// path crosses, and optional inter-switch links.
    Switch {
        port_bw: f64,
        ports: u32,
        isl_bw: Option<f64>,
    },
    Array,
}

impl HopKind {
    /// The kind's name as written in TOML.
    pub fn name(&self) -> &'static str {
        match self {
            HopKind::Cpu { .. } => "cpu",
            HopKind::Pcie { .. } => "pcie",
            HopKind::Fc { .. } => "fc",
            HopKind::Ethernet { .. } => "ethernet",
            HopKind::Infiniband { .. } => "infiniband",
            HopKind::Sas { .. } => "sas",
            HopKind::Sata { .. } => "sata",
            HopKind::Nvme { .. } => "nvme",
            HopKind::Hdd { .. } => "hdd",
            HopKind::Ssd => "ssd",
            HopKind::Memory { .. } => "memory",
            HopKind::Switch { .. } => "switch",
            HopKind::Array => "array",
        }
    }
}

/// Why a topology file could not be read; each names the file, the hop or table, the key and
/// what to write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TopologyError {
    /// Not TOML, or TOML of the wrong shape.
    #[error("topology {origin}{}: {message}", line.map_or(String::new(), |n| format!(", line {n}")))]
    Toml {
        /// The file as given.
        origin: String,
        /// The line of the mistake, when TOML names one.
        line: Option<usize>,
        /// What TOML says is wrong.
        message: String,
    },
    /// A key of a table is missing, unknown or has a value that will not do.
    #[error("{at}, key {key}: {why}")]
    Key {
        /// Where: "topology FILE", its `[workload]` or one of its hops.
        at: String,
        /// The key.
        key: String,
        /// What is wrong and what to write.
        why: String,
    },
    /// The file has no `[[hop]]` tables.
    #[error("topology {origin}: no [[hop]] tables; a path needs at least one hop")]
    NoHops {
        /// The file as given.
        origin: String,
    },
    /// An entry of `hop` is not a table.
    #[error("topology {origin}: hop {hop} is not a table")]
    HopNotTable {
        /// The file as given.
        origin: String,
        /// The hop's number, from 1.
        hop: usize,
    },
}

/// Why a rate such as "3.2GB/s" could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RateError {
    /// No number in front.
    #[error("'{value}' is not a rate; write e.g. 3.2GB/s or 800MB/s")]
    NotARate {
        /// The rate as given.
        value: String,
    },
    /// A unit that is not a rate's.
    #[error(
        "unknown unit '{unit}' in '{value}'; use B/s, kB/s, MB/s, GB/s, KiB/s, MiB/s or GiB/s"
    )]
    UnknownUnit {
        /// The unit as given.
        unit: String,
        /// The rate as given.
        value: String,
    },
}

/// The keys of one hop table, taken one by one so that what is left over can be refused.
struct Keys<'a> {
    table: Table,
    at: &'a str,
}

impl Keys<'_> {
    fn err(&self, key: &str, why: impl std::fmt::Display) -> TopologyError {
        TopologyError::Key {
            at: self.at.to_string(),
            key: key.to_string(),
            why: why.to_string(),
        }
    }
    fn take(&mut self, key: &str) -> Option<Value> {
        self.table.remove(key)
    }
    fn str(&mut self, key: &str) -> Result<Option<String>, TopologyError> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(Value::Integer(i)) => Ok(Some(i.to_string())),
            Some(Value::Float(f)) => Ok(Some(f.to_string())),
            Some(v) => Err(self.err(key, format!("{v} is not text"))),
        }
    }
    /// A figure of a hop: above zero (a ceiling of 0 is no path) and below 10^15 (beyond any
    /// hardware, and where the sums would lose their meaning).
    fn num(&mut self, key: &str) -> Result<Option<f64>, TopologyError> {
        let ok = |x: f64| x > 0.0 && x < 1e15;
        match self.take(key) {
            None => Ok(None),
            Some(Value::Integer(i)) if ok(i as f64) => Ok(Some(i as f64)),
            Some(Value::Float(f)) if ok(f) => Ok(Some(f)),
            Some(v) => Err(self.err(key, format!("{v}: give a number above 0"))),
        }
    }
    fn need(&mut self, key: &str, kind: &str) -> Result<f64, TopologyError> {
        self.num(key)?
            .ok_or_else(|| self.err(key, format!("a {kind} hop needs it")))
    }
    fn whole(&mut self, key: &str, lo: u32, hi: u32) -> Result<Option<u32>, TopologyError> {
        match self.num(key)? {
            None => Ok(None),
            Some(x) if x.fract() == 0.0 && x >= lo as f64 && x <= hi as f64 => Ok(Some(x as u32)),
            Some(x) => Err(self.err(key, format!("{x}: use a whole number from {lo} to {hi}"))),
        }
    }
    /// A link speed such as "8G", "16GFC" or "10GbE", in Gb/s.
    fn speed(&mut self, key: &str) -> Result<Option<f64>, TopologyError> {
        match self.str(key)? {
            Some(v) => gbit(&v).map(Some).ok_or_else(|| {
                self.err(
                    key,
                    format!("'{v}' is not a link speed; write e.g. 8G, 16G or 10G"),
                )
            }),
            None => Ok(None),
        }
    }
    /// A rate such as "3.2GB/s", "800MB/s", "1.5GiB/s" or "400MiB/s", in bytes per second.
    fn rate(&mut self, key: &str) -> Result<Option<f64>, TopologyError> {
        let Some(v) = self.str(key)? else {
            return Ok(None);
        };
        match parse_rate(&v) {
            Ok(r) if r > 0.0 && r < 1e15 => Ok(Some(r)),
            Ok(_) => Err(self.err(key, format!("{v}: give a rate above 0, e.g. 3.2GB/s"))),
            Err(e) => Err(self.err(key, e)),
        }
    }
}

/// Parses "3.2GB/s" (10^9), "800MB/s", "1.5GiB/s" (2^30), "400MiB/s", "100kB/s" into bytes/s.
pub fn parse_rate(v: &str) -> Result<f64, RateError> {
    let s = v.trim();
    let num_end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let n: f64 = s[..num_end].parse().map_err(|_| RateError::NotARate {
        value: v.to_string(),
    })?;
    let mult = match s[num_end..].trim() {
        "B/s" => 1.0,
        "kB/s" | "KB/s" => 1e3,
        "MB/s" => 1e6,
        "GB/s" => 1e9,
        "KiB/s" => 1024.0,
        "MiB/s" => 1048576.0,
        "GiB/s" => 1073741824.0,
        u => {
            return Err(RateError::UnknownUnit {
                unit: u.to_string(),
                value: v.to_string(),
            })
        }
    };
    Ok(n * mult)
}

/// "16G", "16GFC", "16" → 16 (Gb/s class of a link).
fn gbit(v: &str) -> Option<f64> {
    let t = v
        .trim()
        .trim_end_matches("bE")
        .trim_end_matches("FC")
        .trim_end_matches(['G', 'g']);
    t.parse::<f64>().ok().filter(|x| *x > 0.0)
}

/// Quoted FC ceilings per direction, MB/s (reference.md): 1, 2, 4, 8, 16, 32, 64, 128 GFC.
pub const FC_QUOTED: [(u32, f64); 8] = [
    (1, 100.0),
    (2, 200.0),
    (4, 400.0),
    (8, 800.0),
    (16, 1600.0),
    (32, 3200.0),
    (64, 6400.0),
    (128, 12800.0),
];

impl Topology {
    /// Parses topology TOML; every error names `origin`, the hop and the key.
    pub fn parse(text: &str, origin: &str) -> Result<Topology, TopologyError> {
        let doc: Table = toml::from_str(text).map_err(|e| TopologyError::Toml {
            origin: origin.to_string(),
            line: e.span().map(|s| text[..s.start].matches('\n').count() + 1),
            message: e.message().trim().to_string(),
        })?;
        let mut doc = Keys {
            table: doc,
            at: &format!("topology {origin}"),
        };
        let workload = match doc.take("workload") {
            Some(Value::Table(t)) => {
                let mut w = Keys {
                    table: t,
                    at: &format!("topology {origin}, [workload]"),
                };
                let io = w.str("io_size")?.unwrap_or_else(|| "64KiB".into());
                let io_size = parse_size(&io).map_err(|e| w.err("io_size", e))?;
                if io_size == 0 {
                    return Err(w.err("io_size", "0: give the I/O size, e.g. 64KiB"));
                }
                let read_pct = w.whole("read_pct", 0, 100)?.unwrap_or(100) as u8;
                if let Some(k) = w.table.keys().next() {
                    return Err(w.err(k, "unknown key; [workload] has io_size and read_pct"));
                }
                Workload { io_size, read_pct }
            }
            None => Workload {
                io_size: 64 << 10,
                read_pct: 100,
            },
            Some(_) => return Err(doc.err("workload", "must be a table: [workload]")),
        };
        let hops = match doc.take("hop") {
            Some(Value::Array(a)) => a,
            None => {
                return Err(TopologyError::NoHops {
                    origin: origin.to_string(),
                })
            }
            Some(_) => return Err(doc.err("hop", "write hops as [[hop]] tables")),
        };
        if let Some(k) = doc.table.keys().next() {
            return Err(doc.err(
                k,
                "unknown key; a topology has [workload] and [[hop]] tables",
            ));
        }
        let hops = hops
            .into_iter()
            .enumerate()
            .map(|(i, h)| match h {
                Value::Table(t) => parse_hop(t, origin, i),
                _ => Err(TopologyError::HopNotTable {
                    origin: origin.to_string(),
                    hop: i + 1,
                }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Topology { workload, hops })
    }
}

/// One `[[hop]]` table (number `i`, from 0): its name, kind, count and figures.
fn parse_hop(t: Table, origin: &str, i: usize) -> Result<Hop, TopologyError> {
    let name = match t.get("name") {
        Some(Value::String(s)) => s.clone(),
        _ => format!("hop {}", i + 1),
    };
    let at = format!("topology {origin}, hop \"{name}\"");
    let mut k = Keys { table: t, at: &at };
    k.take("name");
    let kind_name = k
        .str("kind")?
        .ok_or_else(|| k.err("kind", "every hop needs a kind (cpu, pcie, fc, ethernet, infiniband, sas, sata, nvme, hdd, ssd, memory, switch, array)"))?;
    let count = k.whole("count", 1, 1_000_000)?.unwrap_or(1);
    let bandwidth = k.rate("bandwidth")?;
    let read_bandwidth = k.rate("read_bandwidth")?;
    let write_bandwidth = k.rate("write_bandwidth")?;
    let iops = k.num("iops")?;
    let read_iops = k.num("read_iops")?;
    let write_iops = k.num("write_iops")?;
    let latency_us = match k.str("latency")? {
        Some(v) => Some(
            parse_duration(&v)
                .map_err(|e| k.err("latency", e))?
                .as_secs_f64()
                * 1e6,
        ),
        None => None,
    };
    let kind = hop_kind(&mut k, &kind_name)?;
    if let Some(key) = k.table.keys().next() {
        return Err(k.err(key, format!("unknown key for a {kind_name} hop")));
    }
    Ok(Hop {
        name,
        kind,
        count,
        bandwidth,
        read_bandwidth,
        write_bandwidth,
        iops,
        read_iops,
        write_iops,
        latency_us,
    })
}

/// The kind of a hop named `kind_name`, with the parameters its ceiling needs, taken from `k`.
fn hop_kind(k: &mut Keys, kind_name: &str) -> Result<HopKind, TopologyError> {
    Ok(match kind_name {
        "cpu" => HopKind::Cpu {
            cores: k.whole("cores", 1, 1_000_000)?.ok_or_else(|| k.err("cores", "a cpu hop needs it"))?,
            iops_per_core: k.num("iops_per_core")?,
        },
        "pcie" | "nvme" => pcie_hop(k, kind_name)?,
        "fc" => fc_hop(k)?,
        "ethernet" => ethernet_hop(k)?,
        "infiniband" => infiniband_hop(k)?,
        "sas" => sas_hop(k)?,
        "sata" => sata_hop(k)?,
        "hdd" => HopKind::Hdd {
            rpm: k.whole("rpm", 3600, 20_000)?.ok_or_else(|| k.err("rpm", "an hdd hop needs it, e.g. 15000"))?,
            seek_ms: k.need("seek_ms", "hdd")?,
        },
        "ssd" => HopKind::Ssd,
        "memory" => HopKind::Memory {
            mts: k.need("mts", "memory")?,
            channels: k.whole("channels", 1, 64)?.unwrap_or(1),
        },
        "switch" => switch_hop(k)?,
        "array" => HopKind::Array,
        other => {
            return Err(k.err(
                "kind",
                format!("unknown kind '{other}'; use cpu, pcie, fc, ethernet, infiniband, sas, sata, nvme, hdd, ssd, memory, switch or array"),
            ))
        }
    })
}

/// A PCIe link or an NVMe device (x4 unless `lanes` says otherwise).
fn pcie_hop(k: &mut Keys, kind_name: &str) -> Result<HopKind, TopologyError> {
    let gen = k
        .whole("gen", 1, 6)?
        .ok_or_else(|| k.err("gen", "give the PCIe generation, 1 to 6"))? as u8;
    let lanes = match k.whole("lanes", 1, 16)? {
        Some(l) if [1, 2, 4, 8, 12, 16].contains(&l) => l as u8,
        Some(l) => {
            return Err(k.err(
                "lanes",
                format!("{l}: a PCIe link has 1, 2, 4, 8, 12 or 16 lanes"),
            ))
        }
        None if kind_name == "nvme" => 4,
        None => return Err(k.err("lanes", "give the link width: 1, 2, 4, 8, 12 or 16")),
    };
    if kind_name == "nvme" {
        Ok(HopKind::Nvme { gen, lanes })
    } else {
        let tlp = k.num("tlp_efficiency")?.unwrap_or(1.0);
        if !(0.5..=1.0).contains(&tlp) {
            return Err(k.err(
                "tlp_efficiency",
                format!("{tlp}: a share from 0.5 to 1 (0.92 for 256-byte payloads)"),
            ));
        }
        Ok(HopKind::Pcie {
            gen,
            lanes,
            tlp_efficiency: tlp,
        })
    }
}

/// A Fibre Channel link at one of its quoted speeds.
fn fc_hop(k: &mut Keys) -> Result<HopKind, TopologyError> {
    let s = k
        .speed("speed")?
        .ok_or_else(|| k.err("speed", "an fc hop needs it: 1G to 128G"))?;
    if !FC_QUOTED.iter().any(|(g, _)| *g as f64 == s) {
        return Err(k.err(
            "speed",
            format!("{s}G: Fibre Channel comes in 1, 2, 4, 8, 16, 32, 64 and 128G"),
        ));
    }
    let net = match k.str("figure")?.as_deref() {
        None | Some("quoted") => false,
        Some("net") => true,
        Some(o) => return Err(k.err("figure", format!("'{o}': use quoted or net"))),
    };
    Ok(HopKind::Fc {
        speed: s as u32,
        net,
    })
}

/// An Ethernet link and the storage protocol over it.
fn ethernet_hop(k: &mut Keys) -> Result<HopKind, TopologyError> {
    let g = k
        .speed("speed")?
        .ok_or_else(|| k.err("speed", "an ethernet hop needs it, e.g. 10G"))?;
    let protocol = k.str("protocol")?.unwrap_or_else(|| "tcp".into());
    if !["iscsi", "nvme-tcp", "tcp"].contains(&protocol.as_str()) {
        return Err(k.err(
            "protocol",
            format!("'{protocol}': use iscsi, nvme-tcp or tcp"),
        ));
    }
    let mtu = k.whole("mtu", 576, 9216)?.unwrap_or(1500);
    Ok(HopKind::Ethernet {
        gbit: g,
        protocol,
        mtu,
    })
}

/// An InfiniBand port: its data rate and width.
fn infiniband_hop(k: &mut Keys) -> Result<HopKind, TopologyError> {
    let rate = k
        .str("rate")?
        .ok_or_else(|| k.err("rate", "SDR, DDR, QDR, FDR10, FDR, EDR, HDR or NDR"))?
        .to_uppercase();
    if crate::path::ib_gbit(&rate).is_none() {
        return Err(k.err(
            "rate",
            format!("'{rate}': use SDR, DDR, QDR, FDR10, FDR, EDR, HDR or NDR"),
        ));
    }
    let width = match k.whole("width", 1, 12)?.unwrap_or(4) {
        w @ (1 | 4 | 8 | 12) => w as u8,
        w => {
            return Err(k.err(
                "width",
                format!("{w}: an InfiniBand port is 1x, 4x, 8x or 12x"),
            ))
        }
    };
    Ok(HopKind::Infiniband { rate, width })
}

/// A SAS link: its speed and lanes.
fn sas_hop(k: &mut Keys) -> Result<HopKind, TopologyError> {
    let g = k
        .speed("speed")?
        .ok_or_else(|| k.err("speed", "3G, 6G, 12G or 24G"))?;
    if ![3.0, 6.0, 12.0, 24.0].contains(&g) {
        return Err(k.err("speed", format!("{g}G: SAS comes in 3, 6, 12 and 24G")));
    }
    Ok(HopKind::Sas {
        gbit: g,
        lanes: k.whole("lanes", 1, 16)?.unwrap_or(1) as u8,
    })
}

/// A SATA link.
fn sata_hop(k: &mut Keys) -> Result<HopKind, TopologyError> {
    let g = k
        .speed("speed")?
        .ok_or_else(|| k.err("speed", "1.5G, 3G or 6G"))?;
    if ![1.5, 3.0, 6.0].contains(&g) {
        return Err(k.err("speed", format!("{g}G: SATA comes in 1.5, 3 and 6G")));
    }
    Ok(HopKind::Sata { gbit: g })
}

/// A switch: its port speed and fabric, its ports and its inter-switch links.
fn switch_hop(k: &mut Keys) -> Result<HopKind, TopologyError> {
    let port = k
        .speed("speed")?
        .ok_or_else(|| k.err("speed", "the port speed, e.g. 4G (FC) or 10G (Ethernet)"))?;
    let fabric = k.str("fabric")?.unwrap_or_else(|| "fc".into());
    // The bandwidth of a link of `g` Gbit/s on this fabric; Err names `key`.
    let bw = |k: &Keys, key: &str, g: f64| -> Result<f64, TopologyError> {
        match fabric.as_str() {
            "fc" => FC_QUOTED
                .iter()
                .find(|(s, _)| *s as f64 == g)
                .map(|(_, mb)| mb * 1e6)
                .ok_or_else(|| k.err(key, format!("{g}G is not a Fibre Channel speed"))),
            "ethernet" => Ok(g * 1e9 / 8.0),
            o => Err(k.err(key, format!("fabric '{o}': use fc or ethernet"))),
        }
    };
    let port_bw = bw(k, "speed", port)?;
    let ports = k.whole("ports", 1, 100_000)?.unwrap_or(1);
    let isl_bw = match (k.speed("isl_speed")?, k.whole("isls", 1, 1000)?) {
        (Some(s), n) => Some(bw(k, "isl_speed", s)? * n.unwrap_or(1) as f64),
        (None, Some(_)) => return Err(k.err("isls", "give isl_speed too")),
        (None, None) => None,
    };
    Ok(HopKind::Switch {
        port_bw,
        ports,
        isl_bw,
    })
}

/// InfiniBand 4x data rate in Gb/s (reference.md).
pub fn ib_gbit(rate: &str) -> Option<f64> {
    Some(match rate {
        "SDR" => 8.0,
        "DDR" => 16.0,
        "QDR" => 32.0,
        "FDR10" => 40.0,
        "FDR" => 54.5,
        "EDR" => 100.0,
        "HDR" => 200.0,
        "NDR" => 400.0,
        _ => return None,
    })
}

/// The result of `dbio path`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PathResult {
    /// Always [`PATH_SCHEMA`].
    pub schema: String,
    pub workload: Workload,
    pub hops: Vec<HopCeiling>,
    /// The hop with the lowest ceiling for the workload; None when no hop has a ceiling.
    pub weakest: Option<String>,
    /// The weakest hop and the path's ceiling at other I/O sizes (`--io-size`).
    pub by_io_size: Vec<SizeCeiling>,
    /// Latency of one I/O through the hops that give one, µs.
    pub path_latency_us: Option<f64>,
    /// Held against a measured run (`--run`).
    pub run: Option<RunCheck>,
}

/// One hop's ceilings for the workload, all instances together.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HopCeiling {
    pub name: String,
    pub kind: String,
    pub count: u32,
    /// Bandwidth ceiling for the workload's read/write mix, 10^6 bytes/s; None: none known.
    pub mb_s: Option<f64>,
    /// IOPS ceiling at the workload's I/O size; None: none known.
    pub iops: Option<f64>,
    /// Headroom over the weakest hop, percent (0 for the weakest).
    pub headroom_pct: Option<f64>,
    /// How the ceiling was reached, in plain words.
    pub basis: String,
}

/// The path at one I/O size.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SizeCeiling {
    pub io_size: u64,
    pub weakest: Option<String>,
    pub iops: Option<f64>,
    pub mb_s: Option<f64>,
}

/// A measured run held against the path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RunCheck {
    pub measured_iops: f64,
    pub measured_mb_s: f64,
    /// Per hop: the measured load as a share of its ceiling, percent.
    pub shares: Vec<HopShare>,
    /// The verdict, with its evidence.
    pub verdict: String,
}

/// One hop's share of its ceiling in a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HopShare {
    pub name: String,
    pub pct: Option<f64>,
}
