//! Why a profile could not be read: the file, the line or stream, and what to write.

/// Why a profile's TOML could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfileError {
    /// Not TOML, or a mistake TOML cannot place on a line.
    #[error("profile {origin}: {message}")]
    Toml {
        /// The profile's name or file.
        origin: String,
        /// What TOML says is wrong.
        message: String,
    },
    /// A mistake on one line: an unknown key, a value of the wrong type.
    #[error("profile {origin}, line {line_no} (`{line}`): {message}")]
    TomlLine {
        /// The profile's name or file.
        origin: String,
        /// The line's number, from 1.
        line_no: usize,
        /// The line's text, trimmed.
        line: String,
        /// What TOML says is wrong.
        message: String,
    },
    /// The `[[stream]]` tables do not make a multi-stream profile.
    #[error("profile {origin}: {why}")]
    Streams {
        /// The profile's name or file.
        origin: String,
        /// What is wrong with the tables.
        why: StreamsError,
    },
}

/// What is wrong with the `[[stream]]` tables of a profile, and what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamsError {
    /// `name` or `target` in a profile without streams.
    #[error(
        "`name` and `target` belong in [[stream]] tables; a single-stream profile leaves them out"
    )]
    NameInSingle,
    /// `name` or `target` at the top of a multi-stream profile.
    #[error("`name` and `target` go inside each [[stream]] table, not at the top")]
    NameAtTop,
    /// A stream without its name or role.
    #[error("[[stream]] number {number} needs both `name` and `target` (a role such as \"data\" or \"log\")")]
    Unnamed {
        /// The stream's number, from 1.
        number: usize,
    },
    /// A stream's target is no role name.
    #[error("[[stream]] number {number}: target \"{role}\" is not a role name; use letters, digits, - or _, e.g. \"log\"")]
    NotRole {
        /// The stream's number, from 1.
        number: usize,
        /// The target given.
        role: String,
    },
    /// A stream with streams of its own.
    #[error("[[stream]] number {number}: streams do not nest")]
    Nested {
        /// The stream's number, from 1.
        number: usize,
    },
    /// A stream sets a key all streams share.
    #[error("stream {name}: `{key}` is shared by all streams (one measuring window); set it at the top level")]
    SharedKey {
        /// The stream's name.
        name: String,
        /// The shared key.
        key: &'static str,
    },
    /// Two streams with one name.
    #[error("two streams are named {name}; give each its own name")]
    SameName {
        /// The name.
        name: String,
    },
    /// Two streams on one role.
    #[error("two streams use target role {role}; give each stream its own role")]
    SameRole {
        /// The role.
        role: String,
    },
}
