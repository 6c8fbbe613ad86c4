//! What is on a block device before dbio would write to it: mounts, holders (dm, md),
//! active swap, and partition-table or file-system signatures in its first 128 KiB.

use super::sys::{parse_dev, split_dev, sysfs_block_dir};
use std::fs::File;
use std::os::unix::fs::{FileExt, FileTypeExt, MetadataExt};
use std::path::{Path, PathBuf};

/// Bytes read from the start of a device to look for signatures.
pub(crate) const PROBE_LEN: usize = 128 * 1024;

/// What `found` says when nothing was found.
pub(crate) const NOTHING_FOUND: &str = "no partition table or file-system signature";

fn has(buf: &[u8], off: usize, pat: &[u8]) -> bool {
    buf.get(off..off + pat.len()) == Some(pat)
}

fn le32(buf: &[u8], off: usize) -> u32 {
    buf.get(off..off + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

/// The ext generation of a superblock at 1024, if its magic 0xEF53 is at 1080.
fn ext_kind(buf: &[u8]) -> Option<&'static str> {
    if !has(buf, 1080, &[0x53, 0xEF]) {
        return None;
    }
    let compat = le32(buf, 1024 + 0x5C);
    let incompat = le32(buf, 1024 + 0x60);
    // extents, 64bit or flex_bg make it ext4; a journal without them, ext3.
    Some(if incompat & (0x40 | 0x80 | 0x200) != 0 {
        "ext4"
    } else if compat & 0x4 != 0 {
        "ext3"
    } else {
        "ext2"
    })
}

/// Partition types in the four MBR entries at 446 (0 = unused).
fn mbr_types(buf: &[u8]) -> Vec<u8> {
    (0..4)
        .filter_map(|i| buf.get(446 + 16 * i + 4).copied())
        .filter(|&t| t != 0)
        .collect()
}

/// Names the partition tables and file-system signatures in the first bytes of a device,
/// e.g. `["GPT partition table"]` or `["ext4 file system signature"]`; empty when none.
pub fn detect_signatures(first: &[u8]) -> Vec<String> {
    let mut found: Vec<&str> = Vec::new();
    let boot_sig = has(first, 510, &[0x55, 0xAA]);
    let ntfs = has(first, 3, b"NTFS    ");
    let fat = boot_sig && (has(first, 54, b"FAT") || has(first, 82, b"FAT"));
    let types = if boot_sig && !ntfs && !fat {
        mbr_types(first)
    } else {
        Vec::new()
    };
    if has(first, 512, b"EFI PART") || has(first, 4096, b"EFI PART") || types.contains(&0xEE) {
        found.push("GPT partition table");
    } else if !types.is_empty() {
        found.push("MBR partition table");
    }
    let ext = ext_kind(first).map(|k| format!("{k} file system signature"));
    if has(first, 0, b"XFSB") {
        found.push("XFS file system signature");
    }
    if has(first, 65600, b"_BHRfS_M") {
        found.push("btrfs file system signature");
    }
    if [0, 512, 1024, 1536]
        .iter()
        .any(|&o| has(first, o, b"LABELONE"))
    {
        found.push("LVM2 physical volume signature");
    }
    if [4086, 65526]
        .iter()
        .any(|&o| has(first, o, b"SWAPSPACE2") || has(first, o, b"SWAP-SPACE"))
    {
        found.push("swap signature");
    }
    if has(first, 0, b"LUKS\xba\xbe") {
        found.push("LUKS encrypted volume signature");
    }
    if ntfs {
        found.push("NTFS file system signature");
    }
    if fat {
        found.push("FAT file system signature");
    }
    // md superblock 1.1 (at 0) or 1.2 (at 4 KiB), magic 0xa92b4efc.
    if le32(first, 0) == 0xa92b_4efc || le32(first, 4096) == 0xa92b_4efc {
        found.push("Linux RAID (md) member signature");
    }
    if has(first, 32769, b"CD001") {
        found.push("ISO 9660 file system signature");
    }
    let mut out: Vec<String> = ext.into_iter().collect();
    out.extend(found.into_iter().map(String::from));
    out
}

/// A device or one of its partitions, as far as the checks need it.
struct Dev {
    /// None for the device itself, else the partition's name.
    part: Option<String>,
    num: (u32, u32),
    sysfs: Option<PathBuf>,
}

impl Dev {
    fn say(&self, what: &str) -> String {
        match &self.part {
            None => what.to_string(),
            Some(p) => format!("partition {p} {what}"),
        }
    }
}

/// The device with number `rdev` and its partitions (from sysfs).
fn devices(rdev: u64) -> Vec<Dev> {
    let sysfs = sysfs_block_dir(rdev);
    let mut parts = Vec::new();
    if let Some(entries) = sysfs.as_ref().and_then(|d| std::fs::read_dir(d).ok()) {
        for e in entries.flatten() {
            let dir = e.path();
            if !dir.join("partition").exists() {
                continue;
            }
            let num = std::fs::read_to_string(dir.join("dev"))
                .ok()
                .and_then(|s| parse_dev(&s));
            if let Some(num) = num {
                parts.push(Dev {
                    part: Some(e.file_name().to_string_lossy().into_owned()),
                    num,
                    sysfs: Some(dir),
                });
            }
        }
    }
    parts.sort_by(|a, b| a.part.cmp(&b.part));
    let mut all = vec![Dev {
        part: None,
        num: split_dev(rdev),
        sysfs,
    }];
    all.extend(parts);
    all
}

/// Undoes the octal escapes of /proc mount tables (`\040` is a space).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let oct = b
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match (b[i], oct) {
            (b'\\', Some(d)) => {
                out.push(
                    d.iter()
                        .fold(0u8, |n, c| n.wrapping_mul(8).wrapping_add(c - b'0')),
                );
                i += 4;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The device number of `path` when it is a block device.
fn block_dev_of(path: &str) -> Option<(u32, u32)> {
    let md = std::fs::metadata(path).ok()?;
    md.file_type()
        .is_block_device()
        .then(|| split_dev(md.rdev()))
}

/// Mount points of `num` in /proc/self/mountinfo text, by device number or mount source.
fn mount_points(mountinfo: &str, num: (u32, u32)) -> Vec<String> {
    let mut points = Vec::new();
    for line in mountinfo.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let (Some(dev), Some(point)) = (fields.get(2), fields.get(4)) else {
            continue;
        };
        let source = fields
            .iter()
            .position(|&f| f == "-")
            .and_then(|i| fields.get(i + 2));
        let by_source = source
            .is_some_and(|s| s.starts_with("/dev/") && block_dev_of(&unescape(s)) == Some(num));
        if parse_dev(dev) == Some(num) || by_source {
            let point = unescape(point);
            if !points.contains(&point) {
                points.push(point);
            }
        }
    }
    points
}

fn holders(sysfs: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(sysfs.join("holders"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Everything found on the block device open as `probe`: mounts, holders, active swap,
/// signatures. Checks that cannot run (no sysfs, no /proc) are skipped.
pub(crate) fn inspect_device(probe: &File, rdev: u64) -> Vec<String> {
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let swaps = std::fs::read_to_string("/proc/swaps").unwrap_or_default();
    let mut findings = Vec::new();
    for dev in devices(rdev) {
        let points = mount_points(&mountinfo, dev.num);
        if let Some(first) = points.first() {
            let more = match points.len() - 1 {
                0 => String::new(),
                n => format!(" (and {n} more)"),
            };
            findings.push(dev.say(&format!("mounted at {first}{more}")));
        }
        if let Some(sysfs) = &dev.sysfs {
            let held = holders(sysfs);
            if !held.is_empty() {
                findings.push(dev.say(&format!("in use by {}", held.join(" "))));
            }
        }
        let swapping = swaps.lines().skip(1).any(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|p| block_dev_of(&unescape(p)) == Some(dev.num))
        });
        if swapping {
            findings.push(dev.say("active swap"));
        }
    }
    findings.extend(detect_signatures(&read_start(probe)));
    findings
}

/// Up to [`PROBE_LEN`] bytes from the start of `f`; fewer if it is shorter or a read fails.
fn read_start(f: &File) -> Vec<u8> {
    let mut buf = vec![0u8; PROBE_LEN];
    let mut done = 0;
    while done < buf.len() {
        match f.read_at(&mut buf[done..], done as u64) {
            Ok(0) | Err(_) => break,
            Ok(n) => done += n,
        }
    }
    buf.truncate(done);
    buf
}

/// The `found` text: the findings, or [`NOTHING_FOUND`].
pub(crate) fn describe(findings: &[String]) -> String {
    if findings.is_empty() {
        NOTHING_FOUND.to_string()
    } else {
        findings.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank() -> Vec<u8> {
        vec![0u8; PROBE_LEN]
    }

    #[test]
    fn empty_device_has_no_signature() {
        assert!(detect_signatures(&blank()).is_empty());
        assert!(detect_signatures(&[]).is_empty());
        assert_eq!(describe(&[]), NOTHING_FOUND);
    }

    #[test]
    fn ext_generations() {
        let mut b = blank();
        b[1080] = 0x53;
        b[1081] = 0xEF;
        assert_eq!(detect_signatures(&b), ["ext2 file system signature"]);
        b[1024 + 0x5C] = 0x4; // has_journal
        assert_eq!(detect_signatures(&b), ["ext3 file system signature"]);
        b[1024 + 0x60] = 0x40; // extents
        assert_eq!(detect_signatures(&b), ["ext4 file system signature"]);
    }

    #[test]
    fn partition_tables() {
        let mut b = blank();
        b[510] = 0x55;
        b[511] = 0xAA;
        // Boot signature with an empty table: nothing.
        assert!(detect_signatures(&b).is_empty());
        b[446 + 4] = 0x83;
        assert_eq!(detect_signatures(&b), ["MBR partition table"]);
        b[446 + 4] = 0xEE;
        b[512..520].copy_from_slice(b"EFI PART");
        assert_eq!(detect_signatures(&b), ["GPT partition table"]);
        let mut g = blank();
        g[4096..4104].copy_from_slice(b"EFI PART");
        assert_eq!(detect_signatures(&g), ["GPT partition table"]);
    }

    #[test]
    fn file_systems_and_volumes() {
        let cases: [(usize, &[u8], &str); 7] = [
            (0, b"XFSB", "XFS file system signature"),
            (65600, b"_BHRfS_M", "btrfs file system signature"),
            (512, b"LABELONE", "LVM2 physical volume signature"),
            (4086, b"SWAPSPACE2", "swap signature"),
            (0, b"LUKS\xba\xbe", "LUKS encrypted volume signature"),
            (
                4096,
                &[0xfc, 0x4e, 0x2b, 0xa9],
                "Linux RAID (md) member signature",
            ),
            (32769, b"CD001", "ISO 9660 file system signature"),
        ];
        for (off, magic, name) in cases {
            let mut b = blank();
            b[off..off + magic.len()].copy_from_slice(magic);
            assert_eq!(detect_signatures(&b), [name], "{name}");
        }
        // Short buffers never panic.
        assert!(detect_signatures(b"XFS").is_empty());
    }

    #[test]
    fn ntfs_and_fat_are_not_mbr() {
        let mut b = blank();
        b[510] = 0x55;
        b[511] = 0xAA;
        b[446 + 4] = 0x12; // boot code that looks like a table entry
        let mut ntfs = b.clone();
        ntfs[3..11].copy_from_slice(b"NTFS    ");
        assert_eq!(detect_signatures(&ntfs), ["NTFS file system signature"]);
        let mut fat = b.clone();
        fat[82..90].copy_from_slice(b"FAT32   ");
        assert_eq!(detect_signatures(&fat), ["FAT file system signature"]);
    }

    #[test]
    fn mountinfo_lines() {
        let info = "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n\
                    30 22 7:3 / /mnt/my\\040disk rw - ext4 /dev/loop3 rw\n\
                    31 22 7:3 / /mnt/again rw - ext4 /dev/loop3 rw\n\
                    garbage\n";
        assert_eq!(mount_points(info, (254, 0)), ["/"]);
        assert_eq!(mount_points(info, (7, 3)), ["/mnt/my disk", "/mnt/again"]);
        assert!(mount_points(info, (8, 0)).is_empty());
        assert_eq!(unescape("a\\040b\\"), "a b\\");
    }
}
