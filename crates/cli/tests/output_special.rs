//! `--json` to something that is not a regular file (a named pipe a script reads, a device
//! such as /dev/null) is written as it is, never replaced by a file renamed over it: as root,
//! `--json /dev/null` once turned /dev/null into a regular file.

mod common;

use common::{dbio_command, make_fifo, scratch};
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};

#[test]
fn json_to_a_named_pipe_goes_through_it_and_leaves_it_a_pipe() {
    let dir = scratch();
    let fifo = make_fifo(dir.path(), "result.pipe");
    // The read end is opened first (without waiting for a writer), as a script reading the
    // pipe would be; were the pipe replaced, this end would see no writer and read nothing.
    let mut read_end = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let mut child = dbio_command()
        .current_dir(dir.path())
        .args([
            "run",
            "--engine",
            "sim",
            "--rw",
            "randread",
            "--duration",
            "1s",
        ])
        .args(["--no-store", "-q", "--json"])
        .arg(&fifo)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Read as the JSON comes (it is larger than a pipe holds) until dbio has exited and the
    // pipe is drained; a generous bound, not a timing.
    let mut bytes = Vec::new();
    let mut buf = [0u8; 65536];
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        match read_end.read(&mut buf) {
            Ok(n) if n > 0 => bytes.extend_from_slice(&buf[..n]),
            _ => {
                if let Some(st) = child.try_wait().unwrap() {
                    while let Ok(n) = read_end.read(&mut buf) {
                        if n == 0 {
                            break;
                        }
                        bytes.extend_from_slice(&buf[..n]);
                    }
                    break st;
                }
                assert!(std::time::Instant::now() < deadline, "dbio did not finish");
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        }
    };
    assert!(status.success(), "dbio run --json PIPE failed");
    let text = String::from_utf8(bytes).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).expect("the reader got the JSON");
    assert_eq!(v["schema"], "dbio.run/1");
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the pipe was replaced by {kind:?}");
    assert!(
        !dir.path().join("result.pipe.tmp").exists(),
        "a temporary file was left beside the pipe"
    );
}
