//! A device's counters over one interval of a collection, from two readings of
//! /proc/diskstats: a device that left the table (unplugged, detached) or whose counters
//! started again (attached anew) is said, and left out of the interval rather than given
//! figures made of two different lives of it.

use crate::slob::procfs::Disk;
use dbio_model::collect::DeviceIo;

/// Device `name`'s counters between reading `before` and reading `now` (None: it was not in
/// /proc/diskstats); None, with an event in `events` where it changed, when there is no
/// whole interval to give.
pub(super) fn device_io(
    name: &str,
    before: Option<&Disk>,
    now: Option<&Disk>,
    events: &mut Vec<String>,
) -> Option<DeviceIo> {
    let (a, b) = match (before, now) {
        (Some(a), Some(b)) => (a, b),
        (Some(_), None) => {
            events.push(format!(
                "device {name} is no longer in /proc/diskstats (removed or detached): its figures stop here"
            ));
            return None;
        }
        (None, Some(_)) => {
            events.push(format!(
                "device {name} is in /proc/diskstats again: its figures go on from the next interval"
            ));
            return None;
        }
        (None, None) => return None,
    };
    let back = |x: u64, y: u64| y < x;
    let went_back = back(a.reads, b.reads)
        || back(a.writes, b.writes)
        || back(a.sectors_read, b.sectors_read)
        || back(a.sectors_written, b.sectors_written)
        || back(a.io_ms, b.io_ms);
    if went_back {
        events.push(format!(
            "device {name}'s counters went backwards (attached anew, or reset): this interval is left out for it"
        ));
        return None;
    }
    let d = a.delta(b);
    Some(DeviceIo {
        name: name.to_string(),
        reads: d.reads,
        writes: d.writes,
        bytes_read: d.sectors_read * 512,
        bytes_written: d.sectors_written * 512,
        read_ms: d.read_ms,
        write_ms: d.write_ms,
        busy_ms: d.io_ms,
        queue_ms: d.queue_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn disk(reads: u64, io_ms: u64) -> Disk {
        Disk {
            reads,
            sectors_read: reads * 8,
            io_ms,
            ..Default::default()
        }
    }

    #[test]
    fn an_interval_is_the_difference_of_its_two_readings() {
        let mut ev = Vec::new();
        let d = device_io("sda", Some(&disk(100, 50)), Some(&disk(160, 80)), &mut ev).unwrap();
        assert_eq!((d.reads, d.bytes_read, d.busy_ms), (60, 60 * 8 * 512, 30));
        assert!(ev.is_empty());
    }

    /// Detached, attached again with counters from zero, then whole again: each change
    /// said once, and no interval made of two lives of the device (a saturating difference
    /// would give 0 reads and 40 ms busy for the one after it came back).
    #[test]
    fn a_device_that_goes_and_comes_back_is_said_and_left_out() {
        let mut ev = Vec::new();
        let gone = device_io("sdb", Some(&disk(1000, 500)), None, &mut ev);
        let still = device_io("sdb", None, None, &mut ev);
        let back = device_io("sdb", None, Some(&disk(10, 540)), &mut ev);
        assert_eq!((gone, still, back), (None, None, None));
        let reset = device_io("sdb", Some(&disk(1000, 500)), Some(&disk(10, 540)), &mut ev);
        assert_eq!(reset, None);
        let whole = device_io("sdb", Some(&disk(10, 540)), Some(&disk(25, 560)), &mut ev);
        assert_eq!(whole.map(|d| d.reads), Some(15));
        assert_eq!(ev.len(), 3, "{ev:?}");
        assert!(ev[0].contains("no longer in /proc/diskstats"), "{ev:?}");
        assert!(ev[1].contains("again"), "{ev:?}");
        assert!(ev[2].contains("went backwards"), "{ev:?}");
    }
}
