//! `dbio clock` (hidden): the far end of a launching dbio's clock probe over ssh, on stdin
//! and stdout (dbio-orchestrate answers it).

use crate::exit::Exit;

/// Runs `dbio clock`.
pub fn run() -> Exit {
    let out = std::io::stdout().lock();
    match dbio_orchestrate::clock::answer(std::io::stdin().lock(), out, env!("CARGO_PKG_VERSION")) {
        Ok(()) => Exit::Ok,
        Err(_) => Exit::Failure,
    }
}
