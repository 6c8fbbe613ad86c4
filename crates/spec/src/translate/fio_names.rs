//! fio 3.33's option names, to tell fio's words from dbio's on a command line: its job
//! options (options.c, names and aliases), its engines' options (engines/*.c) and its own
//! flags (init.c), with those that take a value only when written `--name=value`.

/// fio's job options, each name and alias.
const JOB: &str = "
allow_file_create allow_mounted_write allrandrepeat atomic ba block_error_percentiles
blockalign blocksize blocksize_range blocksize_unaligned bs bs_is_seq_rand bs_unaligned
bsrange bssplit buffer_compress_chunk buffer_compress_percentage buffer_pattern buffered
bwavgtime cgroup cgroup_nodelete cgroup_weight clat_percentiles clocksource
continue_on_error cpumask cpus_allowed cpus_allowed_policy create_fsync create_on_open
create_only create_serialize dedupe_global dedupe_mode dedupe_percentage
dedupe_working_set_percentage description direct directory disable_bw
disable_bw_measurement disable_clat disable_lat disable_slat disk_util do_verify end_fsync
error_dump exec_postrun exec_prerun exit_what exitall exitall_on_error experimental_verify
fadvise_hint fallocate fdatasync file_append file_service_type filename filename_format
fileoffset filesize fill_device fill_fs flow flow_id flow_sleep flow_watermark fsync
fsync_on_close gid gpu_dev_id group_reporting gtod_cpu gtod_reduce hugepage-size
ignore_error ignore_zone_limits invalidate io_limit io_size io_submit_mode iodepth
iodepth_batch iodepth_batch_complete iodepth_batch_complete_max iodepth_batch_complete_min
iodepth_batch_submit iodepth_low ioengine iomem iomem_align iopsavgtime ioscheduler
job_max_open_zones kb_base lat_percentiles latency_percentile latency_run latency_target
latency_window lockfile lockmem log_alternate_epoch log_alternate_epoch_clock_id
log_avg_msec log_compression log_compression_cpus log_entries log_hist_coarseness
log_hist_msec log_max_value log_offset log_prio log_store_compressed log_unix_epoch loops
max_latency max_open_zones mem mem_align merge_blktrace_file merge_blktrace_iters
merge_blktrace_scalars name new_group nice norandommap nr_files nrfiles numa_cpu_nodes
numa_mem_policy number_ios numjobs offset offset_align offset_increment opendir openfiles
overwrite per_job_logs percentage_random percentage_sequential percentile_list pre_read
prio prioclass profile ramp_time random_distribution random_generator randrepeat randseed
rate rate_cycle rate_ignore_thinktime rate_iops rate_iops_min rate_min rate_process
ratecycle ratemin read_beyond_wp read_iolog read_iolog_chunked readwrite refill_buffers
replay_align replay_no_stall replay_redirect replay_scale replay_skip replay_time_scale
runtime rw rw_sequencer rwmixcycle rwmixread rwmixwrite scramble_buffers serialize_overlap
significant_figures size slat_percentiles softrandommap ss ss_dur ss_ramp startdelay stats
steadystate steadystate_duration steadystate_ramp_time stonewall sync sync_file_range
thinktime thinktime_blocks thinktime_blocks_type thinktime_iotime thinktime_spin thread
time_based timeout trim_backlog trim_backlog_batch trim_percentage trim_verify_zero uid
unified_rw_reporting unique_filename unit_base unlink unlink_each_loop verify verify_async
verify_async_cpus verify_backlog verify_backlog_batch verify_dump verify_fatal
verify_interval verify_offset verify_only verify_pattern verify_state_load
verify_state_save verifysort verifysort_nr wait_for wait_for_previous write_barrier
write_bw_log write_hint write_hist_log write_iolog write_iops_log write_lat_log
zero_buffers zone_reset_frequency zone_reset_threshold zonecapacity zonemode zonerange
zonesize zoneskip
";

/// The options of fio's I/O engines that are not job options (fio knows them once
/// ioengine= names the engine).
const ENGINE: &str = "
arguments bindname brick busy_poll busy_wait_polling chunck_size chunk_size clientname
clustername cmd_type cmdprio cmdprio_bssplit cmdprio_class cmdprio_percentage conf cont
cpuchunks cpuload cpumode cuda_io direct_write_to_pmem donorname exit_on_io_done fixedbufs
force_async gpu_dev_ids grace_time hdfs_use_direct hdfsdirectory hipri hipri_percentage
hostname http_host http_mode http_pass http_s3_key http_s3_keyid http_s3_region
http_s3_sse_customer_algorithm http_s3_sse_customer_key http_s3_storage_class
http_swift_auth_token http_user http_verbose https initiator inplace interface listen mss
namenode nfs_url no_completion_thread nodelay nonvectored nowait object_class pingpong
pool port program proto protocol rbdname readfua registerfiles serverip sg_write_mode
single-instance single_instance skip_bad sqthread_poll sqthread_poll_cpu stat_type
std_redirect stream_id svcl thp touch_objects ttl uncached uri userspace_reap verb volume
window_size writefua xnvme_admin xnvme_async xnvme_be xnvme_dev_nsid xnvme_iovec
xnvme_sync
";

/// fio's own flags, which are not job options (`--help` and `--version` are left to dbio).
const OWN: &str = "
alloc-size append-terse aux-path bandwidth-log client cmdhelp cpuclock-test crctest
daemonize debug enghelp eta eta-interval eta-newline idle-prof inflate-log latency-log
max-jobs memcpytest merge-blktrace-only minimal output output-format parse-only readonly
remote-config section server server-internal showcmd status-interval terse-version trigger
trigger-file trigger-remote trigger-timeout warnings-fatal
";

/// Options and flags that take no value from the next word: fio's switches (`--time_based`,
/// `--time_based=1`) and its flags without a required argument.
const NO_VALUE: &str = "
append-terse bandwidth-log blocksize_unaligned bs_unaligned cmdhelp cpuclock-test crctest
enghelp exitall exitall_on_error fixedbufs group_reporting hipri listen memcpytest
merge-blktrace-only minimal new_group no_completion_thread norandommap parse-only pingpong
readonly refill_buffers registerfiles server showcmd sqthread_poll stonewall thread
time_based userspace_reap verify_only wait_for_previous warnings-fatal xnvme_iovec
zero_buffers
";

/// Whether `name` is one of fio's job or engine options.
pub fn is_option(name: &str) -> bool {
    [JOB, ENGINE]
        .iter()
        .any(|l| l.split_whitespace().any(|n| n == name))
}

/// Whether `name` is one of fio's own flags (`output`, `output-format`, `eta`, …).
pub fn is_own_flag(name: &str) -> bool {
    OWN.split_whitespace().any(|n| n == name)
}

/// Whether fio takes the next word as the value of `name` written without `=`.
pub fn takes_next_word(name: &str) -> bool {
    !NO_VALUE.split_whitespace().any(|n| n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_values_as_fio_reads_them() {
        for name in [
            "bs",
            "blocksize",
            "rwmixread",
            "time_based",
            "hipri",
            "userspace_reap",
        ] {
            assert!(is_option(name), "{name}");
        }
        assert!(!is_option("duration") && !is_option("dry-run") && !is_option("output"));
        assert!(is_own_flag("output-format") && !is_own_flag("help"));
        assert!(takes_next_word("bs") && takes_next_word("output") && takes_next_word("direct"));
        assert!(!takes_next_word("time_based") && !takes_next_word("group_reporting"));
    }
}
