//! Reading the files a user names (profiles, thresholds, topologies).

/// Reads `path` as text; anything but a regular file (a FIFO would block until a writer
/// came, a device or folder is not a document) is refused with what it is.
pub fn read_text(path: &str) -> std::io::Result<String> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        let what = if meta.is_dir() {
            "a folder"
        } else {
            "not a regular file (a pipe, socket or device)"
        };
        return Err(std::io::Error::other(format!("{what}; give a TOML file")));
    }
    std::fs::read_to_string(path)
}
