//! Ctrl-C and SIGTERM: the first asks the work to stop and report what it has; a second
//! ends dbio at once with status 130.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A flag set by the first SIGINT or SIGTERM.
pub fn stop_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        let _ = signal_hook::flag::register_conditional_shutdown(sig, 130, stop.clone());
        let _ = signal_hook::flag::register(sig, stop.clone());
    }
    stop
}
