//! A collection's sample as stored: JSON with each object by its number in the collection
//! (`collection_objects` keeps the names once), compressed with zstd. A week at 60 s of 1,000
//! objects is 10,080 samples; names repeated in each would be most of the bytes.

use dbio_model::advise::ObjectIo;
use dbio_model::collect::{DbIo, DeviceIo, Sample};
use serde::{Deserialize, Serialize};

/// The stored form of a [`Sample`].
#[derive(Serialize, Deserialize)]
struct Stored {
    t: u64,
    s: f64,
    d: Vec<DeviceIo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    h: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    db: Option<StoredDb>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    e: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct StoredDb {
    s: f64,
    #[serde(default)]
    q: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    w: Option<(f64, f64)>,
    /// [number, reads, writes, bytes read, bytes written, read ms, write ms, stall ms, size]
    o: Vec<StoredObject>,
}

type StoredObject = (
    u32,
    u64,
    u64,
    u64,
    u64,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<u64>,
);

/// `s` as stored, its objects numbered by `number` (which may add names to the collection).
pub fn encode(s: &Sample, mut number: impl FnMut(&ObjectIo) -> u32) -> Vec<u8> {
    // Times to the µs: more digits are noise, and they do not compress.
    let us = |v: Option<f64>| v.map(|x| (x * 1000.0).round() / 1000.0);
    let db = s.db.as_ref().map(|d| StoredDb {
        s: d.secs,
        q: (d.query_ms * 1000.0).round() / 1000.0,
        w: d.io_wait,
        o: d.objects
            .iter()
            .map(|o| {
                (
                    number(o),
                    o.reads,
                    o.writes,
                    o.bytes_read,
                    o.bytes_written,
                    us(o.read_ms),
                    us(o.write_ms),
                    us(o.stall_ms),
                    o.size_bytes,
                )
            })
            .collect(),
    });
    let stored = Stored {
        t: s.t_ms,
        s: s.secs,
        d: s.devices.clone(),
        h: s.host_cpu,
        c: s.server_cpu,
        db,
        e: s.events.clone(),
    };
    let json = serde_json::to_vec(&stored).expect("a sample always serialises");
    zstd::bulk::compress(&json, 3).expect("compressing into memory does not fail")
}

/// The sample stored as `bytes`, its objects named by `object` (None for a number the
/// collection does not have: the data is damaged).
pub fn decode(bytes: &[u8], object: impl Fn(u32) -> Option<ObjectIo>) -> Result<Sample, String> {
    let json = zstd::stream::decode_all(bytes).map_err(|e| format!("not zstd: {e}"))?;
    let s: Stored = serde_json::from_slice(&json).map_err(|e| e.to_string())?;
    let db = match s.db {
        Some(d) => Some(DbIo {
            secs: d.s,
            query_ms: d.q,
            io_wait: d.w,
            objects: d
                .o
                .into_iter()
                .map(|(n, reads, writes, br, bw, rms, wms, stall, size)| {
                    let mut o = object(n).ok_or(format!("object number {n} is not named"))?;
                    (o.reads, o.writes, o.bytes_read, o.bytes_written) = (reads, writes, br, bw);
                    (o.read_ms, o.write_ms, o.stall_ms, o.size_bytes) = (rms, wms, stall, size);
                    Ok(o)
                })
                .collect::<Result<_, String>>()?,
        }),
        None => None,
    };
    Ok(Sample {
        t_ms: s.t,
        secs: s.s,
        devices: s.d,
        host_cpu: s.h,
        server_cpu: s.c,
        db,
        events: s.e,
    })
}
