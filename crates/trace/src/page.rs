//! One page of a per-CPU ring buffer as `trace_pipe_raw` hands it out: a header (the page's
//! first timestamp and its committed length, with the kernel's lost-events flags), then
//! compressed entries (`events/header_event`), each with a time delta from the one before.

/// The page lost events before it (the ring overwrote or dropped them).
const MISSED_EVENTS: u64 = 1 << 31;
/// The count of lost events is stored after the page's data.
const MISSED_STORED: u64 = 1 << 30;
/// Entry types past the largest data length (in 4-byte words).
const PADDING: u32 = 29;
const TIME_EXTEND: u32 = 30;
const TIME_STAMP: u32 = 31;
/// Bytes of the page header: timestamp and commit.
const HEADER: usize = 16;

/// What a page held apart from its events: the events the kernel lost before it (None when
/// it lost none; Some(0) when it lost some without counting them).
#[derive(Debug, Default, PartialEq)]
pub struct PageInfo {
    pub lost: Option<u64>,
}

/// Calls `each(timestamp, data)` for every event of `page` in order; the timestamps are in
/// the trace clock's units. A malformed page stops the walk where it stops making sense.
pub fn events(page: &[u8], mut each: impl FnMut(u64, &[u8])) -> PageInfo {
    if page.len() < HEADER {
        return PageInfo::default();
    }
    let mut ts = u64_at(page, 0);
    let commit = u64_at(page, 8);
    let len = (commit & !(MISSED_EVENTS | MISSED_STORED)) as usize;
    let end = (HEADER + len).min(page.len());
    let lost = match (commit & MISSED_EVENTS != 0, commit & MISSED_STORED != 0) {
        (false, _) => None,
        (true, true) if end + 8 <= page.len() => Some(u64_at(page, end)),
        (true, _) => Some(0),
    };
    let mut at = HEADER;
    while at + 4 <= end {
        let head = u32_at(page, at);
        let (kind, delta) = (head & 0x1f, u64::from(head >> 5));
        let array = |k: usize| (at + 4 + 4 * k + 4 <= end).then(|| u32_at(page, at + 4 + 4 * k));
        match kind {
            PADDING => {
                // A null padding (no delta) is the rest of the page.
                let Some(n) = array(0).filter(|_| delta != 0) else {
                    break;
                };
                at += 4 + n as usize;
            }
            TIME_EXTEND => {
                let Some(hi) = array(0) else { break };
                ts += delta | (u64::from(hi) << 27);
                at += 8;
            }
            TIME_STAMP => {
                let Some(hi) = array(0) else { break };
                // An absolute stamp of 59 bits: the upper bits are the running time's.
                let abs = delta | (u64::from(hi) << 27);
                ts = (ts & !((1u64 << 59) - 1)) | abs;
                at += 8;
            }
            0 => {
                let Some(n) = array(0).filter(|&n| n >= 4) else {
                    break;
                };
                let (from, to) = (at + 8, at + 4 + n as usize);
                if to > end {
                    break;
                }
                ts += delta;
                each(ts, &page[from..to]);
                at = to;
            }
            words => {
                let to = at + 4 + 4 * words as usize;
                if to > end {
                    break;
                }
                ts += delta;
                each(ts, &page[at + 4..to]);
                at = to;
            }
        }
    }
    PageInfo { lost }
}

pub(crate) fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap())
}

pub(crate) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page as the kernel lays it out: header, then the entries given as raw words.
    fn page(ts: u64, commit_flags: u64, entries: &[u32], tail: &[u8]) -> Vec<u8> {
        let mut p = ts.to_le_bytes().to_vec();
        let len = (entries.len() * 4) as u64;
        p.extend((len | commit_flags).to_le_bytes());
        for w in entries {
            p.extend(w.to_le_bytes());
        }
        p.extend(tail);
        p.resize(4096, 0);
        p
    }

    fn head(kind: u32, delta: u32) -> u32 {
        kind | (delta << 5)
    }

    #[test]
    fn entries_of_every_kind_give_their_data_at_the_running_time() {
        let entries = [
            head(2, 10), // 8 bytes of data at 1000 + 10
            0xAAAA_AAAA,
            0xBBBB_BBBB,
            head(TIME_EXTEND, 5), // + 5 + (1 << 27)
            1,
            head(0, 3), // data with its length in array[0] (+4 for the word itself)
            12,
            0xCCCC_CCCC,
            0xDDDD_DDDD,
            head(PADDING, 7), // a discarded entry: 8 bytes after its head, no time
            8,
            0,
            head(1, 2),
            0xEEEE_EEEE,
        ];
        let p = page(1000, 0, &entries, &[]);
        let mut seen = Vec::new();
        let info = events(&p, |ts, d| seen.push((ts, d.to_vec())));
        assert_eq!(info, PageInfo { lost: None });
        let big = 1015 + (1u64 << 27);
        assert_eq!(
            seen,
            vec![
                (1010, [0xAA; 4].into_iter().chain([0xBB; 4]).collect()),
                (big + 3, [0xCC; 4].into_iter().chain([0xDD; 4]).collect()),
                (big + 5, vec![0xEE; 4]),
            ]
        );
    }

    #[test]
    fn an_absolute_stamp_replaces_the_running_time() {
        let entries = [head(TIME_STAMP, 100), 0, head(1, 1), 7];
        let p = page(5_000_000, 0, &entries, &[]);
        let mut seen = Vec::new();
        events(&p, |ts, _| seen.push(ts));
        assert_eq!(seen, [101]);
    }

    #[test]
    fn lost_events_are_read_from_the_flags_and_the_count_after_the_data() {
        let entries = [head(1, 1), 7];
        let p = page(
            0,
            MISSED_EVENTS | MISSED_STORED,
            &entries,
            &42u64.to_le_bytes(),
        );
        assert_eq!(events(&p, |_, _| {}).lost, Some(42));
        let p = page(0, MISSED_EVENTS, &entries, &[]);
        assert_eq!(events(&p, |_, _| {}).lost, Some(0));
    }

    #[test]
    fn a_page_that_claims_more_than_it_holds_stops_without_panicking() {
        let mut p = page(0, 0, &[head(0, 1), 4000], &[]);
        p.truncate(40);
        let mut n = 0;
        events(&p, |_, _| n += 1);
        assert_eq!(n, 0);
        events(&p[..3], |_, _| n += 1);
        events(&[0xff; 4096], |_, _| n += 1);
    }
}
