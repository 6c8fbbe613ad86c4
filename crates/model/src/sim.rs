//! The simulated device of `--engine sim`: its parameters, the named presets, and the
//! `--sim PRESET[,KEY=VALUE...]` text that sets them.

use crate::units::{parse_latency, UnitError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Distribution of one I/O's service time around its mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ServiceDist {
    /// Exponential (coefficient of variation 1): the M/M/c textbook device.
    Exp,
    /// Every I/O takes exactly the mean.
    Const,
    /// Log-normal with σ = 1 (coefficient of variation ≈ 1.31): a heavier tail.
    Lognormal,
}

/// A device in virtual time: `channels` servers take I/Os from one FIFO queue, each for a
/// service time drawn by direction; the data crosses a full-duplex link shared by all I/Os at
/// `bw_bytes_s` per direction, and every I/O pays `link_ns` more on top.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SimDevice {
    /// The preset the parameters started from, or "custom".
    pub name: String,
    /// I/Os served at once (internal parallelism).
    pub channels: u32,
    /// Mean service time of a read, nanoseconds.
    pub read_ns: u64,
    /// Mean service time of a write, nanoseconds.
    pub write_ns: u64,
    pub dist: ServiceDist,
    /// Bandwidth of the shared link in bytes per second, per direction (reads and writes each
    /// have their own lane, as on PCIe, SAS and FC); None: no cap.
    pub bw_bytes_s: Option<u64>,
    /// Fixed extra latency of every I/O (fabric, protocol), nanoseconds.
    pub link_ns: u64,
}

/// Name of the preset a bare `--engine sim` models.
pub const DEFAULT_PRESET: &str = "nvme-gen3";

/// One preset: name, what it stands for, and its parameters.
struct Preset {
    name: &'static str,
    about: &'static str,
    channels: u32,
    read_us: f64,
    write_us: f64,
    dist: ServiceDist,
    bw_mb_s: Option<u64>,
    link_us: f64,
}

const PRESETS: &[Preset] = &[
    // Small random I/O at QD 1 = average seek + half a rotation: 3.5 ms + 2.0 ms at 15k rpm
    // (182 IOPS; shared/reference.md). Media rate ≈ 200 MB/s: the outer-track sustained rate
    // 15k SAS datasheets quote (e.g. Seagate Cheetah 15K.7: 122–204 MB/s).
    Preset {
        name: "hdd-15k",
        about: "15k rpm SAS disk: one arm, 5.5 ms per random I/O, 200 MB/s",
        channels: 1,
        read_us: 5500.0,
        write_us: 5500.0,
        dist: ServiceDist::Exp,
        bw_mb_s: Some(200),
        link_us: 0.0,
    },
    // SATA 6 Gb/s carries 600 MB/s (shared/reference.md); drives quote 550 MB/s and ~98k
    // random 4 KiB read IOPS at QD 32 (e.g. Samsung 860 EVO): 98k × 80 µs ≈ 8 in service.
    // SATA is half duplex and the model's link is not: mixed bandwidth comes out optimistic.
    Preset {
        name: "sata-ssd",
        about: "SATA flash drive: 8 channels, 80 µs read, 40 µs write, 550 MB/s",
        channels: 8,
        read_us: 80.0,
        write_us: 40.0,
        dist: ServiceDist::Exp,
        bw_mb_s: Some(550),
        link_us: 0.0,
    },
    // PCIe Gen3 x4 carries 3.94 GB/s (7.877 for x8, halved; shared/reference.md); drives quote
    // 3.5 GB/s, ~15k read IOPS at QD 1 (≈ 67 µs) and 500k at QD 32 × 4 (e.g. Samsung 970 PRO):
    // 500k × 70 µs ≈ 32 in service. Writes land in the drive's cache: ~20 µs at QD 1.
    Preset {
        name: "nvme-gen3",
        about: "PCIe Gen3 x4 NVMe drive: 32 channels, 70 µs read, 20 µs write, 3.5 GB/s",
        channels: 32,
        read_us: 70.0,
        write_us: 20.0,
        dist: ServiceDist::Exp,
        bw_mb_s: Some(3500),
        link_us: 0.0,
    },
    // PCIe Gen4 x4 carries 7.88 GB/s (shared/reference.md); drives quote ~7 GB/s and over 1M
    // random read IOPS at high queue depth (e.g. Samsung 990 PRO): 1M × 60 µs ≈ 64 in service.
    Preset {
        name: "nvme-gen4",
        about: "PCIe Gen4 x4 NVMe drive: 64 channels, 60 µs read, 15 µs write, 7 GB/s",
        channels: 64,
        read_us: 60.0,
        write_us: 15.0,
        dist: ServiceDist::Exp,
        bw_mb_s: Some(7000),
        link_us: 0.0,
    },
    // One 4 Gb FC port: 400 MB/s ceiling, ~380 MB/s in practice (shared/reference.md, seed
    // 003). The array behind it is an illustrative flash array: 64 I/Os in service, 250 µs
    // reads, 150 µs writes into its cache, plus 20 µs of fabric and protocol per I/O.
    Preset {
        name: "fc-array-4g",
        about: "flash array behind one 4 Gb FC port: 380 MB/s, +20 µs per I/O",
        channels: 64,
        read_us: 250.0,
        write_us: 150.0,
        dist: ServiceDist::Exp,
        bw_mb_s: Some(380),
        link_us: 20.0,
    },
    // Four 16 Gb FC ports: 4 × 1600 MB/s (shared/reference.md); the same array as fc-array-4g.
    Preset {
        name: "fc-array-4x16g",
        about: "the same array behind four 16 Gb FC ports: 6.4 GB/s, +20 µs per I/O",
        channels: 64,
        read_us: 250.0,
        write_us: 150.0,
        dist: ServiceDist::Exp,
        bw_mb_s: Some(6400),
        link_us: 20.0,
    },
];

impl Preset {
    fn device(&self) -> SimDevice {
        SimDevice {
            name: self.name.to_string(),
            channels: self.channels,
            read_ns: (self.read_us * 1000.0) as u64,
            write_ns: (self.write_us * 1000.0) as u64,
            dist: self.dist,
            bw_bytes_s: self.bw_mb_s.map(|m| m * 1_000_000),
            link_ns: (self.link_us * 1000.0) as u64,
        }
    }
}

/// The presets as `(name, description)`, for help text.
pub fn presets() -> Vec<(&'static str, &'static str)> {
    PRESETS.iter().map(|p| (p.name, p.about)).collect()
}

impl Default for SimDevice {
    /// The documented default device ([`DEFAULT_PRESET`]).
    fn default() -> Self {
        SimDevice::preset(DEFAULT_PRESET).expect("the default preset exists")
    }
}

/// Why a `--sim` description could not be read: the setting, its value and what to write.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SimError {
    /// The first word is no preset's name.
    #[error("unknown preset '{preset}'; use one of {names}, or KEY=VALUE settings")]
    UnknownPreset {
        /// The word given.
        preset: String,
        /// The presets' names, comma-separated.
        names: String,
    },
    /// A setting after the first is not KEY=VALUE.
    #[error("'{part}' is not KEY=VALUE; a preset name may only come first")]
    NotKeyValue {
        /// The setting as given.
        part: String,
    },
    /// A service or link time is not a latency.
    #[error("{key}: {why}")]
    Time {
        /// read, write, service or link.
        key: String,
        /// Why the value is not a latency.
        why: UnitError,
    },
    /// A service or link time over 10 s.
    #[error("{key}={value}: at most 10 s per I/O")]
    TooLong {
        /// read, write, service or link.
        key: String,
        /// The value given.
        value: String,
    },
    /// `channels` is not a whole number from 1 to 65536.
    #[error("channels={value}: give a whole number from 1 to 65536")]
    Channels {
        /// The value given.
        value: String,
    },
    /// `dist` names no distribution.
    #[error("dist={value}: use exp, const or lognormal")]
    Dist {
        /// The value given.
        value: String,
    },
    /// `bw` is not a rate.
    #[error("bw={value}: write a rate like 3.2GB/s, 550MB/s or 800MiB/s, or none")]
    Bandwidth {
        /// The value given.
        value: String,
    },
    /// `bw` under 1 MB/s.
    #[error("bw={value}: at least 1MB/s (or bw=none); slower links make virtual time, and the run, grow without bound")]
    SlowLink {
        /// The value given.
        value: String,
    },
    /// A key the simulated device does not have.
    #[error("unknown key '{key}'; use channels, read, write, service, dist, bw or link")]
    UnknownKey {
        /// The key given.
        key: String,
    },
    /// A read or write service time of zero.
    #[error("read and write service times must be above zero, e.g. read=100us")]
    ZeroService,
}

impl SimDevice {
    /// The preset called `name`.
    pub fn preset(name: &str) -> Option<SimDevice> {
        PRESETS.iter().find(|p| p.name == name).map(Preset::device)
    }

    /// Parses `PRESET`, `PRESET,KEY=VALUE,...` or `KEY=VALUE,...` (over the default preset).
    /// Keys: channels, read, write, service (both), dist (exp|const|lognormal), bw (e.g.
    /// 3.2GB/s, 800MiB/s, none), link. The error says what was wrong and what to write.
    pub fn parse(text: &str) -> Result<SimDevice, SimError> {
        let names = PRESETS
            .iter()
            .map(|p| p.name)
            .collect::<Vec<_>>()
            .join(", ");
        let mut parts = text.split(',').map(str::trim).peekable();
        let mut dev = match parts.peek() {
            Some(first) if !first.contains('=') => {
                let d = SimDevice::preset(first).ok_or_else(|| SimError::UnknownPreset {
                    preset: first.to_string(),
                    names: names.clone(),
                })?;
                parts.next();
                d
            }
            _ => SimDevice {
                name: "custom".into(),
                ..SimDevice::default()
            },
        };
        for part in parts {
            let (key, value) = part.split_once('=').ok_or_else(|| SimError::NotKeyValue {
                part: part.to_string(),
            })?;
            let time = |v: &str| -> Result<u64, SimError> {
                let d = parse_latency(v).map_err(|why| SimError::Time {
                    key: key.to_string(),
                    why,
                })?;
                // Virtual time grows with it, and with it the run's time and memory.
                if d > std::time::Duration::from_secs(10) {
                    return Err(SimError::TooLong {
                        key: key.to_string(),
                        value: v.to_string(),
                    });
                }
                Ok(d.as_nanos() as u64)
            };
            match key {
                "channels" => {
                    dev.channels = value
                        .parse()
                        .ok()
                        .filter(|c| (1..=65_536).contains(c))
                        .ok_or_else(|| SimError::Channels {
                            value: value.to_string(),
                        })?
                }
                "read" => dev.read_ns = time(value)?,
                "write" => dev.write_ns = time(value)?,
                "service" => (dev.read_ns, dev.write_ns) = (time(value)?, time(value)?),
                "link" => dev.link_ns = time(value)?,
                "dist" => {
                    dev.dist = match value {
                        "exp" => ServiceDist::Exp,
                        "const" => ServiceDist::Const,
                        "lognormal" => ServiceDist::Lognormal,
                        _ => {
                            return Err(SimError::Dist {
                                value: value.to_string(),
                            })
                        }
                    }
                }
                "bw" => {
                    dev.bw_bytes_s = parse_bandwidth(value)?;
                    if dev.bw_bytes_s.is_some_and(|b| b < 1_000_000) {
                        return Err(SimError::SlowLink {
                            value: value.to_string(),
                        });
                    }
                }
                _ => {
                    return Err(SimError::UnknownKey {
                        key: key.to_string(),
                    })
                }
            }
        }
        if dev.read_ns == 0 || dev.write_ns == 0 {
            return Err(SimError::ZeroService);
        }
        if text.contains('=') && dev.name != "custom" {
            dev.name = format!("{} (modified)", dev.name);
        }
        Ok(dev)
    }

    /// One line for people, e.g. `nvme-gen3: 32 channels, read 70 µs, write 20 µs exp, 3500 MB/s`.
    pub fn describe(&self) -> String {
        let us = |ns: u64| {
            let v = ns as f64 / 1000.0;
            if v.fract() == 0.0 {
                format!("{v:.0} µs")
            } else {
                format!("{v} µs")
            }
        };
        let bw = match self.bw_bytes_s {
            Some(b) => format!("{} MB/s", b as f64 / 1e6),
            None => "no bandwidth cap".into(),
        };
        let link = if self.link_ns > 0 {
            format!(", link +{}", us(self.link_ns))
        } else {
            String::new()
        };
        let dist = match self.dist {
            ServiceDist::Exp => "exponential",
            ServiceDist::Const => "constant",
            ServiceDist::Lognormal => "log-normal",
        };
        format!(
            "{}: {} channel{}, read {}, write {} ({dist} service), {bw}{link}",
            self.name,
            self.channels,
            if self.channels == 1 { "" } else { "s" },
            us(self.read_ns),
            us(self.write_ns),
        )
    }
}

/// Parses a bandwidth: `3.2GB/s`, `550MB/s` (powers of 10), `800MiB/s` (powers of 2), `none`.
fn parse_bandwidth(v: &str) -> Result<Option<u64>, SimError> {
    if v == "none" {
        return Ok(None);
    }
    let bad = || SimError::Bandwidth {
        value: v.to_string(),
    };
    let split = v
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(v.len());
    let (num, unit) = v.split_at(split);
    let n: f64 = num.parse().map_err(|_| bad())?;
    let mult = match unit.trim_end_matches("/s").to_ascii_lowercase().as_str() {
        "b" => 1.0,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "kib" => 1024.0,
        "mib" => 1048576.0,
        "gib" => 1073741824.0,
        _ => return Err(bad()),
    };
    let bytes = n * mult;
    if !unit.ends_with("/s") || !bytes.is_finite() || bytes < 1.0 {
        return Err(bad());
    }
    Ok(Some(bytes.round() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_settings() {
        let d = SimDevice::parse("nvme-gen3").unwrap();
        assert_eq!((d.channels, d.read_ns, d.write_ns), (32, 70_000, 20_000));
        assert_eq!(d.bw_bytes_s, Some(3_500_000_000));
        let d = SimDevice::parse("nvme-gen3,channels=8").unwrap();
        assert_eq!((d.channels, d.read_ns), (8, 70_000));
        assert_eq!(d.name, "nvme-gen3 (modified)");
        let d = SimDevice::parse("channels=1,read=100us,write=200us,dist=exp,bw=3.2GB/s,link=10us")
            .unwrap();
        assert_eq!(d.name, "custom");
        assert_eq!(
            (d.channels, d.read_ns, d.write_ns, d.link_ns),
            (1, 100_000, 200_000, 10_000)
        );
        assert_eq!(d.bw_bytes_s, Some(3_200_000_000));
        assert_eq!(
            SimDevice::parse("service=1ms,bw=none,dist=const").unwrap(),
            SimDevice {
                name: "custom".into(),
                read_ns: 1_000_000,
                write_ns: 1_000_000,
                bw_bytes_s: None,
                dist: ServiceDist::Const,
                ..SimDevice::default()
            }
        );
        assert_eq!(
            parse_bandwidth("800MiB/s").unwrap(),
            Some(800 * 1024 * 1024)
        );
        for p in presets() {
            assert!(SimDevice::parse(p.0).is_ok());
        }
    }

    #[test]
    fn bad_settings_say_what_to_write() {
        for (bad, needle) in [
            ("nvme-gen9", "unknown preset"),
            ("channels=0", "1 to 65536"),
            ("read=fast", "read:"),
            ("read=0us", "above zero"),
            ("dist=pareto", "exp, const or lognormal"),
            ("bw=3GB", "3.2GB/s"),
            ("colour=blue", "unknown key"),
            ("channels=2,nvme-gen3", "preset name may only come first"),
            ("read=100", "give a unit"),
            ("service=20s", "at most 10 s"),
            ("bw=100B/s", "at least 1MB/s"),
        ] {
            let e = SimDevice::parse(bad).unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }
}
