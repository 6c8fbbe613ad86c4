//! The `dbio` binary: the command line of the library in `lib.rs`.

fn main() -> std::process::ExitCode {
    dbio::main()
}
