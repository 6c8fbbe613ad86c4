//! The remote side of a fleet run: a dbio started over ssh stops with the session that
//! started it, so no process of dbio's outlives its launcher.

use std::io::Read;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Sets `stop` (as Ctrl-C does) once `input` (the ssh session's standard input) closes or
/// fails; what arrives on it is read and dropped.
pub fn stop_on_eof(mut input: impl Read + Send + 'static, stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let mut sink = [0u8; 256];
        while matches!(input.read(&mut sink), Ok(n) if n > 0) {}
        stop.store(true, Ordering::Relaxed);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn the_flag_is_set_when_the_input_ends_and_not_before() {
        let (rx, mut tx) = std::io::pipe().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        stop_on_eof(rx, stop.clone());
        std::io::Write::write_all(&mut tx, b"still here").unwrap();
        std::thread::sleep(Duration::from_millis(50));
        assert!(!stop.load(Ordering::Relaxed));
        drop(tx);
        let deadline = Instant::now() + Duration::from_secs(10);
        while !stop.load(Ordering::Relaxed) {
            assert!(
                Instant::now() < deadline,
                "not stopped after the input closed"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}
