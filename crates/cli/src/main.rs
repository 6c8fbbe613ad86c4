//! The `dbio` binary: the command line of the library in `lib.rs`.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    dbio::main()
}
