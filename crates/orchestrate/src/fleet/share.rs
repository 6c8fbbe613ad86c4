//! What makes each host of a fleet its own host: a seed of its own, so that hosts on one
//! shared device do not read the same blocks at the same instants (which an array's cache
//! would flatter), and with `--split-region` its own part of the region.

use dbio_model::{JobSpec, RegionSplit};

/// The seed of host `index` (from 0) of a fleet run of `seed`: the same for the same seed
/// and place in the host list, different from every other host's.
pub fn host_seed(seed: u64, index: usize) -> u64 {
    dbio_runner::data::mix(seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The job host `index` of `hosts` runs: its own seed and, when `split_region`, the
/// `index + 1`-th of `hosts` equal parts of the region.
pub fn host_job(job: &JobSpec, index: usize, hosts: usize, split_region: bool) -> JobSpec {
    let mut job = job.clone();
    job.seed = host_seed(job.seed, index);
    if split_region {
        job.region.split = Some(RegionSplit {
            part: index as u32 + 1,
            parts: hosts as u32,
        });
    }
    job
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_host_draws_from_its_own_seed_the_same_every_time() {
        let seeds: Vec<u64> = (0..64).map(|i| host_seed(7, i)).collect();
        for (i, s) in seeds.iter().enumerate() {
            assert!(!seeds[..i].contains(s), "host {i} repeats a seed");
            assert_ne!(*s, 7);
            assert_eq!(*s, host_seed(7, i));
        }
        assert_ne!(host_seed(8, 0), seeds[0]);
    }
}
