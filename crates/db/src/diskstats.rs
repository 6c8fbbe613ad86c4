//! Linux `/proc/diskstats`: whole devices (or partitions) as objects, for when the
//! database's own figures are not available. Fields after major, minor and name: reads,
//! reads merged, sectors read, ms reading, writes, writes merged, sectors written, ms
//! writing, … (sectors are always 512 bytes). A saved copy may start with the line of
//! `/proc/uptime` (`(cat /proc/uptime; cat /proc/diskstats) > before.txt`) to give the time.

use crate::error::DbError;
use crate::snapshot::Snapshot;
use dbio_model::advise::{ObjectIo, ObjectKind};

/// One device line's name and counters.
struct Line<'a> {
    name: &'a str,
    f: Vec<u64>,
}

/// Whether `text` looks like /proc/diskstats (optionally after an uptime line).
pub fn detect(text: &str) -> bool {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("");
    let l = if uptime_ms(first).is_some() {
        lines.next().unwrap_or("")
    } else {
        first
    };
    parse_line(l).is_some()
}

/// Parses a saved copy of /proc/diskstats. Whole devices unless `partitions`, then the
/// partitions (and whole devices that have none).
pub fn parse(text: &str, file: &str, partitions: bool) -> Result<Snapshot, DbError> {
    let mut s = Snapshot::new("diskstats", file);
    let mut lines = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if l.trim().is_empty() {
            continue;
        }
        if i == 0 {
            if let Some(ms) = uptime_ms(l) {
                s.counting_ms = Some(ms);
                continue;
            }
        }
        lines.push(parse_line(l).ok_or_else(|| {
            DbError::line(
                file,
                i as u64 + 1,
                "not a /proc/diskstats line (major minor name and 11 to 17 counters)",
            )
        })?);
    }
    let names: Vec<&str> = lines.iter().map(|l| l.name).collect();
    for l in &lines {
        let part = is_partition(l.name, &names);
        let has_parts = names.iter().any(|n| is_partition(n, &[l.name]));
        let keep = if partitions {
            part || !has_parts
        } else {
            !part
        };
        if keep && l.f.iter().take(8).any(|&v| v > 0) {
            s.objects.push(object(l));
        }
    }
    if s.counting_ms.is_none() {
        s.notes.push("no /proc/uptime line before the counters: the interval is not known, so rates per second are not given".into());
    }
    Ok(s)
}

/// Reads this host's /proc/diskstats now, with device sizes from /sys.
pub fn live(partitions: bool) -> Result<Snapshot, DbError> {
    let read = |p: &str| {
        std::fs::read_to_string(p).map_err(|e| DbError::Read {
            path: p.to_string(),
            error: e.to_string(),
        })
    };
    let text = format!("{}{}", read("/proc/uptime")?, read("/proc/diskstats")?);
    let mut s = parse(&text, "/proc/diskstats", partitions)?;
    s.notes.retain(|n| !n.starts_with("no /proc/uptime"));
    for o in &mut s.objects {
        let dev = o.name.trim_start_matches("/dev/");
        o.size_bytes = std::fs::read_to_string(format!("/sys/class/block/{dev}/size"))
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(|sectors| sectors * 512);
    }
    // Devices of no size (unused loop devices) are not places data could live.
    s.objects.retain(|o| o.size_bytes != Some(0));
    s.taken_at_ms = Some(crate::clock::now_ms());
    Ok(s)
}

fn parse_line(l: &str) -> Option<Line<'_>> {
    let t: Vec<&str> = l.split_whitespace().collect();
    if !(14..=20).contains(&t.len()) {
        return None;
    }
    t[0].parse::<u64>().ok()?;
    t[1].parse::<u64>().ok()?;
    let f = t[3..]
        .iter()
        .map(|v| v.parse::<u64>().ok())
        .collect::<Option<Vec<u64>>>()?;
    Some(Line { name: t[2], f })
}

/// The uptime line "785.54 474.83" in ms.
fn uptime_ms(l: &str) -> Option<u64> {
    let t: Vec<&str> = l.split_whitespace().collect();
    if t.len() != 2 {
        return None;
    }
    let up: f64 = t[0].parse().ok()?;
    t[1].parse::<f64>().ok()?;
    Some((up * 1000.0) as u64)
}

/// sda1 of sda, nvme0n1p2 of nvme0n1, mmcblk0p1 of mmcblk0.
fn is_partition(name: &str, names: &[&str]) -> bool {
    names.iter().any(|n| {
        n.len() < name.len()
            && name.starts_with(n)
            && name[n.len()..]
                .trim_start_matches('p')
                .chars()
                .all(|c| c.is_ascii_digit())
            && !name[n.len()..].trim_start_matches('p').is_empty()
    })
}

fn object(l: &Line) -> ObjectIo {
    let mut o = ObjectIo::new(format!("/dev/{}", l.name), ObjectKind::Other);
    o.reads = l.f[0];
    // Saturating: a damaged file's counts past u64 / 512 are refused by their sum later.
    o.bytes_read = l.f[2].saturating_mul(512);
    o.read_ms = Some(l.f[3] as f64);
    o.writes = l.f[4];
    o.bytes_written = l.f[6].saturating_mul(512);
    o.write_ms = Some(l.f[7] as f64);
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "100.50 20.0
 259       0 nvme0n1 1000 0 16000 500 2000 0 32000 900 0 0 0 0 0 0 0 0 0
 259       1 nvme0n1p1 600 0 9600 300 1500 0 24000 700 0 0 0 0 0 0 0 0 0
 259       2 nvme0n1p2 400 0 6400 200 500 0 8000 200 0 0 0 0 0 0 0 0 0
   8       0 sda 10 0 80 5 0 0 0 0 0 0 0
   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0
";

    #[test]
    fn whole_devices_and_partitions() {
        assert!(detect(TEXT));
        let s = parse(TEXT, "x", false).unwrap();
        let names: Vec<&str> = s.objects.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["/dev/nvme0n1", "/dev/sda"]);
        assert_eq!(s.counting_ms, Some(100_500));
        let n = &s.objects[0];
        assert_eq!(
            (n.reads, n.bytes_read, n.read_ms),
            (1000, 16000 * 512, Some(500.0))
        );
        assert_eq!(
            (n.writes, n.bytes_written, n.write_ms),
            (2000, 32000 * 512, Some(900.0))
        );
        let p = parse(TEXT, "x", true).unwrap();
        let names: Vec<&str> = p.objects.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["/dev/nvme0n1p1", "/dev/nvme0n1p2", "/dev/sda"]);
    }

    /// Found by fuzzing `dbio advise`'s exports: sectors past u64 / 512 overflowed; they
    /// saturate here and the export is refused as a whole (as `read_export` checks it).
    #[test]
    fn sectors_past_u64_are_refused_not_overflowed() {
        let big = TEXT.replace(" 16000 ", " 18446744073709551615 ");
        assert_eq!(
            parse(&big, "x", false).unwrap().objects[0].bytes_read,
            u64::MAX
        );
        let e = parse(&big, "x", false)
            .unwrap()
            .checked("x")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("bytes read of its objects add up to more than 2^62"),
            "{e}"
        );
    }

    #[test]
    fn live_reads_this_host() {
        let s = live(false).unwrap();
        assert!(s.taken_at_ms.is_some() && s.counting_ms.is_some());
    }
}
