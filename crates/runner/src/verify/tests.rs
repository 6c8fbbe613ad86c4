//! Headers, judgements, block claims and the journal's header against hand-made blocks.

use super::header::{self, Found, HEADER_LEN, UNIT};
use super::journal::{parse_header, MAGIC};
use super::*;
use dbio_model::verify::CorruptionKind;

fn block(seq: u64, offset: u64) -> Vec<u8> {
    let mut b: Vec<u8> = (0..UNIT).map(|i| (i * 7 + 3) as u8).collect();
    header::stamp(&mut b, 42, 9, offset, seq);
    b
}

#[test]
fn a_stamped_block_reads_back_good_and_any_changed_byte_makes_it_torn() {
    let b = block(5, 8192);
    assert_eq!(
        header::read(&b, 42),
        Found::Good {
            tag: 9,
            offset: 8192,
            seq: 5
        }
    );
    assert_eq!(
        header::read(&b, 43),
        Found::Earlier {
            run: 42,
            tag: 9,
            offset: 8192,
            seq: 5
        },
        "another run's block"
    );
    for at in [0usize, 8, 20, 30, 39, 41, HEADER_LEN, 2048, UNIT - 1] {
        let mut c = b.clone();
        c[at] ^= 0x10;
        let f = header::read(&c, 42);
        // The magic and the run id tell whether it is ours at all.
        if at < 16 {
            assert_eq!(f, Found::NotOurs, "byte {at}");
        } else {
            assert!(matches!(f, Found::Torn { .. }), "byte {at}: {f:?}");
        }
    }
    // Half of the block from another write: torn.
    let mut half = block(5, 8192);
    half[UNIT / 2..].copy_from_slice(&block(4, 8192)[UNIT / 2..]);
    half[UNIT / 2] ^= 1;
    assert!(matches!(header::read(&half, 42), Found::Torn { .. }));
    assert_eq!(header::read(&b[..100], 42), Found::NotOurs);
}

#[test]
fn judgements_name_each_kind() {
    let good = block(5, 8192);
    let j = |b: &[u8], acked: u64, offset: u64| judge(header::read(b, 42), b, acked, 9, offset);
    assert_eq!(j(&good, 5, 8192), Judged::Good);
    assert_eq!(j(&good, 4, 8192), Judged::Good, "a later write is good");
    assert_eq!(j(&good, 0, 8192), Judged::Good);
    assert!(matches!(
        j(&good, 6, 8192),
        Judged::Bad(CorruptionKind::Lost, _, _)
    ));
    assert!(matches!(
        j(&good, 5, 4096),
        Judged::Bad(CorruptionKind::Misdirected, _, _)
    ));
    let other_target = judge(header::read(&good, 42), &good, 5, 10, 8192);
    assert!(matches!(
        other_target,
        Judged::Bad(CorruptionKind::Misdirected, _, ref f) if f.contains("another target")
    ));
    let zeros = vec![0u8; UNIT];
    assert_eq!(j(&zeros, 0, 0), Judged::Unwritten);
    assert!(matches!(
        j(&zeros, 3, 0),
        Judged::Bad(CorruptionKind::NeverWritten, _, _)
    ));
    let mut torn = good.clone();
    torn[3000] ^= 1;
    assert!(matches!(
        j(&torn, 5, 8192),
        Judged::Bad(CorruptionKind::Torn, _, _)
    ));
}

#[test]
fn a_busy_block_cannot_be_claimed_and_a_failed_claim_takes_nothing() {
    let v = Arc::new(StreamVerify::new(1, vec![TargetTable::new("t", 0, 8)]));
    let mut a = Checker::new(v.clone(), 4);
    let mut b = Checker::new(v.clone(), 4);
    assert!(a.claim(0, 4096, 8192), "blocks 1 and 2");
    assert!(!b.claim(0, 0, 3 * 4096), "block 1 is busy");
    assert_eq!(
        v.targets[0].blocks[0].load(Ordering::Relaxed),
        0,
        "block 0 was given back"
    );
    assert!(b.claim(0, 3 * 4096, 4096));
    let mut buf = vec![0u8; 8192];
    a.stamp(0, 0, 4096, &mut buf);
    a.done(0, OpKind::Write, 0, 4096, 8192, true);
    let e = &v.targets[0].blocks;
    assert_eq!(e[1].load(Ordering::Relaxed), 1, "acknowledged write #1");
    assert_eq!(e[2].load(Ordering::Relaxed), 1);
    assert!(b.claim(0, 0, 3 * 4096), "free again");
    assert!(matches!(
        header::read(&buf[4096..], 1),
        Found::Good {
            offset: 8192,
            seq: 1,
            ..
        }
    ));
}

fn journal_bytes(json: &str) -> Vec<u8> {
    let mut b = MAGIC.to_vec();
    b.extend((json.len() as u32).to_le_bytes());
    b.extend(json.as_bytes());
    b
}

#[test]
fn a_journal_header_is_read_back_and_bad_ones_are_refused() {
    let ok = r#"{"format":"dbio.journal/1","run_id":"00000000000000ff","unit_bytes":4096,"sync_every_ms":100,"targets":[{"path":"/t","tag":"0000000000000009","start":0,"blocks":4,"table_at":4096}]}"#;
    let j = parse_header(&journal_bytes(ok), 8192).unwrap();
    assert_eq!((j.run, j.tags.clone()), (255, vec![9]));
    assert!(parse_header(b"hello", 5)
        .unwrap_err()
        .to_string()
        .contains("not a dbio verify journal"));
    assert!(parse_header(&journal_bytes(ok), 4100)
        .unwrap_err()
        .to_string()
        .contains("does not fit"));
    let bad_unit = ok.replace("4096,\"sync", "512,\"sync");
    assert!(parse_header(&journal_bytes(&bad_unit), 8192)
        .unwrap_err()
        .to_string()
        .contains("512-byte"));
    let mut short = journal_bytes(ok);
    short.truncate(40);
    assert!(parse_header(&short, 8192)
        .unwrap_err()
        .to_string()
        .contains("damaged"));
    let huge = ok.replace("\"blocks\":4", "\"blocks\":4611686018427387904");
    assert!(parse_header(&journal_bytes(&huge), 8192).is_err());
}

#[test]
fn a_whole_block_of_an_earlier_run_is_stale_where_a_write_was_acknowledged() {
    // Written by run 41, read back in run 42.
    let mut b: Vec<u8> = (0..UNIT).map(|i| (i * 5 + 1) as u8).collect();
    header::stamp(&mut b, 41, 9, 8192, 3);
    let j = |b: &[u8], acked: u64| judge(header::read(b, 42), b, acked, 9, 8192);
    assert!(
        matches!(j(&b, 7), Judged::Bad(CorruptionKind::Lost, _, ref f) if f.contains("earlier run")),
        "{:?}",
        j(&b, 7)
    );
    assert_eq!(j(&b, 0), Judged::Unwritten, "nothing of this run was due");
    // Damaged as well: no block of any run, so never written.
    b[3000] ^= 1;
    assert!(matches!(
        j(&b, 7),
        Judged::Bad(CorruptionKind::NeverWritten, _, _)
    ));
}

#[test]
fn a_bad_mark_keeps_its_kind_and_the_sequence() {
    for kind in CorruptionKind::ALL {
        let e = 1234 | bad_bits(kind);
        assert_eq!(bad_kind(e), Some(kind));
        assert_eq!(e & SEQ, 1234);
        assert_ne!(e & SKIP, 0);
        assert_eq!(e & BUSY, 0);
    }
    assert_eq!(
        bad_kind(1234 | SKIP),
        None,
        "a failed write is no bad block"
    );
}
