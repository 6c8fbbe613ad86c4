//! A dbio profile from a trace (`dbio capture --profile`): per captured device its sizes,
//! read share, sequential share, spatial skew, rate and flush rate, written as the TOML
//! `dbio run --profile` reads, so a sweep can push the captured mix harder than production.

use dbio_model::capture::{CaptureSummary, DeviceCapture, OpCapture};
use std::fmt::Write;

/// The profile of `s` (the summary of the trace `trace`); None when no device holds a read
/// or a write.
/// The rate is the load while there was one (from the first request to the last), not
/// spread over the capture's idle ends.
pub fn profile_toml(s: &CaptureSummary, trace: &str) -> Option<String> {
    let devices: Vec<&DeviceCapture> = s
        .devices
        .iter()
        .filter(|d| d.read.is_some() || d.write.is_some())
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Written by dbio capture --profile from {trace} ({} requests over {:.0} s, captured {}).",
        s.requests, s.seconds, s.started_at
    );
    // A trace without times (fio's iolog v2) gives no rate: the profile runs closed loop.
    let secs = (s.imported.as_ref().is_none_or(|i| i.times)).then(|| s.active_seconds.max(1e-3));
    if let Some(secs) = secs {
        let _ = writeln!(out, "duration = \"{:.0}s\"", secs.ceil());
    }
    match devices[..] {
        [] => return None,
        [one] => {
            let _ = writeln!(out, "description = \"{}\"", describe(one, trace));
            out += &keys(one, secs);
        }
        _ => {
            let _ = writeln!(
                out,
                "description = \"captured from {}: {} devices\"",
                esc(trace),
                devices.len()
            );
            for d in devices {
                let _ = writeln!(
                    out,
                    "\n[[stream]]\nname = \"{}\"\ntarget = \"{0}\"",
                    esc(&d.name)
                );
                out += &keys(d, secs);
            }
        }
    }
    Some(out)
}

/// One device's keys: pattern, mix, sizes, alignment, skew, rate, queue room and flushes.
fn keys(d: &DeviceCapture, secs: Option<f64>) -> String {
    let (r, w) = (d.read.as_ref(), d.write.as_ref());
    let ios = |o: Option<&OpCapture>| o.map_or(0, |o| o.ios);
    let total = ios(r) + ios(w);
    let seq = [r, w]
        .iter()
        .flatten()
        .map(|o| o.sequential_pct * o.ios as f64)
        .sum::<f64>()
        / total as f64;
    let rw = match (ios(r) > 0, ios(w) > 0, seq >= 50.0) {
        (true, false, true) => "read",
        (false, true, true) => "write",
        (true, false, false) => "randread",
        (false, true, false) => "randwrite",
        _ => "randrw",
    };
    let mut k = format!("rw = \"{rw}\"\n");
    if rw == "randrw" {
        let _ = writeln!(k, "mix = {}", (ios(r) * 100 + total / 2) / total);
    }
    let sizes = sizes(r, w);
    let _ = writeln!(k, "bs = \"{}\"", sizes.0);
    let _ = writeln!(k, "align = \"{}\"", if sizes.1 { "4k" } else { "512" });
    let hot20 = [r, w]
        .iter()
        .flatten()
        .map(|o| o.hottest_20_pct * o.ios as f64)
        .sum::<f64>()
        / total as f64;
    if rw.starts_with("rand") && hot20 >= 30.0 {
        let _ = writeln!(k, "skew = \"hotspot:{:.0}/20\"", hot20.min(99.0));
    }
    let _ = writeln!(k, "qd = {}", qd(d, secs.is_some()));
    if let Some(secs) = secs {
        let rate = (total as f64 / secs.max(1e-9)).round().max(1.0);
        let _ = writeln!(k, "rate = {rate:.0}");
    }
    let flushes = d.flush.as_ref().map_or(0, |f| f.ios);
    if flushes > 0 && ios(w) > 0 {
        let _ = writeln!(k, "sync = \"fdatasync:{}\"", (ios(w) / flushes).max(1));
    }
    k
}

/// Room in flight: with a rate, twice the most the device had (64 when the trace has no
/// latencies to count them); closed loop, the mean it had (1 when unknown, as fio replays).
fn qd(d: &DeviceCapture, rate: bool) -> u64 {
    match (&d.in_flight, rate) {
        (Some(f), true) => (f.max * 2).clamp(8, 1024),
        (None, true) => 64,
        (Some(f), false) => (f.mean.round() as u64).clamp(1, 1024),
        (None, false) => 1,
    }
}

/// The reads' and writes' sizes as a --bs distribution (weights in requests), and whether
/// every size is a multiple of 4 KiB.
fn sizes(r: Option<&OpCapture>, w: Option<&OpCapture>) -> (String, bool) {
    let mut all: Vec<(u64, u64)> = Vec::new();
    for s in [r, w].iter().flatten().flat_map(|o| &o.sizes) {
        match all.iter_mut().find(|a| a.0 == s.bytes) {
            Some(a) => a.1 += s.ios,
            None => all.push((s.bytes, s.ios)),
        }
    }
    all.sort_by_key(|&(b, n)| (std::cmp::Reverse(n), b));
    let aligned = all.iter().all(|a| a.0 % 4096 == 0);
    let text: Vec<String> = match &all[..] {
        [(b, _)] => vec![b.to_string()],
        _ => all
            .iter()
            .take(8)
            .map(|(b, n)| format!("{b}:{}", (*n).min(u64::from(u32::MAX))))
            .collect(),
    };
    (text.join(","), aligned)
}

/// The profile's one-line description of device `d`.
fn describe(d: &DeviceCapture, trace: &str) -> String {
    let flight = d.in_flight.as_ref().map_or(String::new(), |f| {
        format!(", {} in flight on average", (f.mean * 10.0).round() / 10.0)
    });
    format!(
        "captured from {} on {}: {:.0} % reads{flight}",
        esc(trace),
        esc(&d.name),
        d.read_pct,
    )
}

/// `s` inside a TOML basic string.
fn esc(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes the profile of the trace file `from` into the new file `out`; says what it wrote,
/// or names the file and what is wrong.
pub fn profile_file(from: &str, out: &str) -> Result<String, String> {
    let s = crate::summary::of_file(from)?;
    let toml = profile_toml(&s, from)
        .ok_or_else(|| format!("{from}: no read or write to make a profile of"))?;
    let mut file = crate::create_new(out, "a profile")?;
    std::io::Write::write_all(&mut file, toml.as_bytes()).map_err(|e| format!("{out}: {e}"))?;
    Ok(format!(
        "a profile of {} devices' {} requests; run it with dbio run --profile {out} (add --vary rate=1x..4x to dbio sweep to push it harder)",
        s.devices.len(),
        s.requests
    ))
}
