//! Loading source files: never panics, turns bad input into a clear [`LoadError`].

use std::fmt;
use std::path::{Path, PathBuf};

/// The extensions of the files a directory walk checks by default: CUDA C++ and Python (read
/// by the Python front end; a file holding none of its call names costs one byte search).
pub const SOURCE_EXTENSIONS: [&str; 11] = [
    "cu", "cuh", "h", "hpp", "hh", "hxx", "cpp", "cc", "cxx", "inl", "py",
];

/// The files under `dir` with a [`SOURCE_EXTENSIONS`] extension, sorted: a plain walk (no
/// `.gitignore`, no configuration) for the examples and measurements. The CLI walks with its
/// configuration instead.
pub fn source_files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for path in entries.flatten().map(|e| e.path()) {
            if path.is_dir() {
                walk(&path, out);
            } else if path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e))
            {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

/// The UTF-8 byte order mark. At the very start of a file the compilers read it as nothing
/// (nvcc's front end, Python's `utf-8-sig`); the front ends skip it there, and offsets still
/// count its bytes, so spans and fixes apply to the file as it is.
pub const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The length of the byte order mark at the start of `bytes` (0 or 3).
pub fn bom_len(bytes: &[u8]) -> usize {
    if bytes.starts_with(UTF8_BOM) {
        UTF8_BOM.len()
    } else {
        0
    }
}

/// Files larger than this are not analysed (generated sources, data blobs).
pub const MAX_FILE_BYTES: usize = 64 * 1024 * 1024;

/// Reads at most [`MAX_FILE_BYTES`] + 1 bytes: enough for [`SourceFile::from_bytes`] to tell
/// a file that is too large, whatever its reported size.
pub fn read_bounded(reader: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    read_at_most(reader, MAX_FILE_BYTES as u64 + 1)
}

/// Reads until the end or `limit` bytes, whichever comes first (the size a file reports is
/// not trusted: `/dev/zero` says 0).
pub fn read_at_most(reader: impl std::io::Read, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    reader.take(limit).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The content hash a result cache compares files by (xxh3, 128 bits): two byte strings
/// with the same fingerprint are taken to be the same.
pub fn fingerprint(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// Whether a file is binary: a NUL byte in its first 8 KiB (as git and grep decide). Binary
/// files are never analysed, whatever else they hold.
pub fn looks_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some()
}

/// Inputs other than source files, each with the most it may read: configuration files,
/// baselines, compilation databases and the files they name (response files, toolkit
/// headers). Large enough for any real one (a 5,000-entry database is a few MB).
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;
pub const MAX_RESPONSE_FILE_BYTES: u64 = 4 * 1024 * 1024;
pub const MAX_DATABASE_BYTES: u64 = 512 * 1024 * 1024;
pub const MAX_BASELINE_BYTES: u64 = 256 * 1024 * 1024;

/// Reads a whole file named by the user or found through one (a compilation database, a
/// response file, a baseline, a configuration file, a header): the one reader for every
/// input. What is not a regular file is refused without blocking (opening a FIFO nobody
/// writes would wait forever; `/dev/zero` never ends), and reading stops after `limit` bytes
/// whatever size the file reports.
pub fn read_input(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Error, ErrorKind};
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    #[cfg(not(unix))]
    {
        // No non-blocking open: look before opening.
        let meta = std::fs::metadata(path)?;
        if !meta.is_file() && !meta.is_dir() {
            return Err(Error::new(ErrorKind::InvalidInput, NOT_REGULAR));
        }
    }
    let file = options.open(path)?;
    // The opened file's own type, so that nothing can be swapped in between.
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(Error::new(ErrorKind::InvalidInput, "is a directory"));
    }
    if !meta.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, NOT_REGULAR));
    }
    // Sized once from the file's length: growing by doubling copied a large cache file
    // several times over.
    let expected = usize::try_from(meta.len().min(limit).saturating_add(1)).unwrap_or(0);
    let mut bytes = Vec::with_capacity(expected);
    {
        use std::io::Read as _;
        file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    }
    if bytes.len() as u64 > limit {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!("larger than {}; not read", human_size(limit)),
        ));
    }
    Ok(bytes)
}

/// [`read_input`] as text; invalid UTF-8 is an error.
pub fn read_input_to_string(path: &Path, limit: u64) -> std::io::Result<String> {
    String::from_utf8(read_input(path, limit)?)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "not valid UTF-8"))
}

/// Why an input that is not a regular file is not read.
pub const NOT_REGULAR: &str = "not a regular file (a FIFO, socket or device); not read";

fn human_size(bytes: u64) -> String {
    if bytes >= 1024 * 1024 && bytes.is_multiple_of(1024 * 1024) {
        format!("{} MiB", bytes / (1024 * 1024))
    } else {
        format!("{bytes} bytes")
    }
}

/// The language a file is written in, which decides its front end (and, for C++ held in
/// Python strings, which compilers may build it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// CUDA C++ (any extension but `.py`): the C++ front end, built by nvcc.
    Cpp,
    /// A Python file: the Python front end (Triton, MLIR, CuTe DSL calls, and C++ in strings).
    Python,
    /// CUDA C++ held in a Python string (cupy, `load_inline`, cuda.core): the C++ front end,
    /// built by NVRTC or nvcc.
    CppInPython,
}

impl Language {
    /// The language of a file at `path`: the one place this is decided from a path.
    pub fn of_path(path: &Path) -> Language {
        if path.extension().is_some_and(|e| e == "py") {
            Language::Python
        } else {
            Language::Cpp
        }
    }

    /// Python text (the Python front end reads it, `#` starts its comments).
    pub fn is_python(self) -> bool {
        self == Language::Python
    }
}

/// One source file's text with a line index.
///
/// Bytes that are not valid UTF-8 are replaced by `?` one for one, so byte offsets
/// (and therefore fixes) still apply to the original bytes; `lossy` records that it happened.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    pub text: String,
    /// Which front end reads it: decided once, from the path, when the file is made.
    pub language: Language,
    /// Byte offset of the first byte of each line.
    line_starts: std::sync::OnceLock<Vec<u32>>,
    /// Offset of the first byte that was not valid UTF-8, if any.
    pub lossy: Option<usize>,
    /// Tokens already known for this text (the editor path keeps them between edits).
    lexed: Option<std::sync::Arc<crate::cpp::lexer::Lexed>>,
}

#[derive(Debug)]
pub enum LoadError {
    Io(PathBuf, std::io::Error),
    IsDirectory(PathBuf),
    Binary(PathBuf),
    TooLarge(PathBuf, u64),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(p, e) => write!(f, "{}: cannot read: {e}", p.display()),
            LoadError::IsDirectory(p) => write!(f, "{}: is a directory, not a file", p.display()),
            LoadError::Binary(p) => {
                write!(
                    f,
                    "{}: looks like a binary file (a NUL byte in its first 8 KiB); not checked",
                    p.display()
                )
            }
            LoadError::TooLarge(p, n) if *n > MAX_FILE_BYTES as u64 + 1 => write!(
                f,
                "{}: {n} bytes is larger than the {} MiB limit; skipped",
                p.display(),
                MAX_FILE_BYTES / (1024 * 1024)
            ),
            // Read up to the limit and one byte more: its real size is unknown.
            LoadError::TooLarge(p, _) => write!(
                f,
                "{}: larger than the {} MiB limit; skipped",
                p.display(),
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        }
    }
}

impl std::error::Error for LoadError {}

impl SourceFile {
    pub fn read(path: &Path) -> Result<SourceFile, LoadError> {
        let meta = std::fs::metadata(path).map_err(|e| LoadError::Io(path.to_owned(), e))?;
        if meta.is_dir() {
            return Err(LoadError::IsDirectory(path.to_owned()));
        }
        if meta.len() > MAX_FILE_BYTES as u64 {
            return Err(LoadError::TooLarge(path.to_owned(), meta.len()));
        }
        // The reported size is not trusted (`/dev/zero`, `/proc` files, a file that grows):
        // the read itself stops one byte past the limit, for `from_bytes` to tell.
        let bytes = match read_input(path, MAX_FILE_BYTES as u64 + 1) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                return Err(LoadError::TooLarge(
                    path.to_owned(),
                    MAX_FILE_BYTES as u64 + 1,
                ))
            }
            Err(e) => return Err(LoadError::Io(path.to_owned(), e)),
        };
        SourceFile::from_bytes(path.to_owned(), bytes)
    }

    pub fn from_bytes(path: PathBuf, bytes: Vec<u8>) -> Result<SourceFile, LoadError> {
        if bytes.len() > MAX_FILE_BYTES {
            return Err(LoadError::TooLarge(path, bytes.len() as u64));
        }
        if looks_binary(&bytes) {
            return Err(LoadError::Binary(path));
        }
        let (text, lossy) = match String::from_utf8(bytes) {
            Ok(text) => (text, None),
            Err(err) => {
                let first_bad = err.utf8_error().valid_up_to();
                let bytes = err.into_bytes();
                (replace_invalid_utf8(&bytes), Some(first_bad))
            }
        };
        Ok(SourceFile::new_lossy(path, text, lossy))
    }

    pub fn new(path: impl Into<PathBuf>, text: impl Into<String>) -> SourceFile {
        SourceFile::new_lossy(path.into(), text.into(), None)
    }

    fn new_lossy(path: PathBuf, text: String, lossy: Option<usize>) -> SourceFile {
        SourceFile {
            language: Language::of_path(&path),
            path,
            text,
            // Built when a position is first asked for: most files report nothing.
            line_starts: std::sync::OnceLock::new(),
            lossy,
            lexed: None,
        }
    }

    /// This file read as `language` (C++ decoded from a Python string is C++, whatever the
    /// path it keeps for its spans).
    pub fn with_language(mut self, language: Language) -> SourceFile {
        self.language = language;
        self
    }

    /// This file with its tokens, lexed by the caller (incrementally, in the editor): the
    /// front end uses them instead of lexing the text again. They must be the text's tokens.
    pub fn with_lexed(mut self, lexed: std::sync::Arc<crate::cpp::lexer::Lexed>) -> SourceFile {
        debug_assert!(lexed
            .tokens
            .last()
            .is_none_or(|t| t.end() <= self.text.len()));
        self.lexed = Some(lexed);
        self
    }

    /// The tokens given with [`SourceFile::with_lexed`].
    pub fn lexed(&self) -> Option<&std::sync::Arc<crate::cpp::lexer::Lexed>> {
        self.lexed.as_ref()
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0u32];
            starts.extend(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i as u32 + 1));
            starts
        })
    }

    /// 0-based line index of a byte offset.
    pub fn line_index(&self, offset: usize) -> usize {
        match self.line_starts().binary_search(&(offset as u32)) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts()
            .get(line)
            .map_or(self.text.len(), |&s| s as usize)
    }

    pub fn line_count(&self) -> usize {
        self.line_starts().len()
    }

    /// 1-based line and 1-based column counted in characters.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = self.floor_char_boundary(offset);
        let line = self.line_index(offset);
        let start = self.line_start(line);
        let col = self.text[start..offset].chars().count();
        (line + 1, col + 1)
    }

    /// 0-based line and 0-based column counted in UTF-16 code units (LSP positions).
    pub fn line_col_utf16(&self, offset: usize) -> (usize, usize) {
        let offset = self.floor_char_boundary(offset);
        let line = self.line_index(offset);
        let start = self.line_start(line);
        let col = self.text[start..offset].chars().map(char::len_utf16).sum();
        (line, col)
    }

    /// Byte offset of a 0-based line and UTF-16 column (clamped to the line).
    pub fn offset_of_utf16(&self, line: usize, col: usize) -> usize {
        if line >= self.line_count() {
            return self.text.len();
        }
        let start = self.line_start(line);
        let end = self.line_start(line + 1).min(self.text.len());
        let mut units = 0;
        for (i, c) in self.text[start..end].char_indices() {
            if units >= col || c == '\n' {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }

    /// Byte offset of a 1-based line and 1-based character column (clamped to the line).
    pub fn offset_of_line_col(&self, line: usize, col: usize) -> usize {
        if line == 0 || line > self.line_count() {
            return self.text.len();
        }
        let start = self.line_start(line - 1);
        let end = self.line_start(line).min(self.text.len());
        self.text[start..end]
            .char_indices()
            .nth(col.saturating_sub(1))
            .map_or(end, |(i, _)| start + i)
    }

    fn floor_char_boundary(&self, mut offset: usize) -> usize {
        offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }
}

/// Replaces each byte of an invalid UTF-8 sequence by `?`, keeping every offset.
pub(crate) fn replace_invalid_utf8(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes;
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                out.push_str(valid);
                return out;
            }
            Err(err) => {
                let (valid, after) = rest.split_at(err.valid_up_to());
                out.push_str(std::str::from_utf8(valid).expect("checked prefix"));
                let bad = err.error_len().unwrap_or(after.len());
                out.extend(std::iter::repeat_n('?', bad));
                rest = &after[bad..];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_keeps_offsets() {
        let f = SourceFile::from_bytes("x.cu".into(), b"ab\xffcd\n\xe9x".to_vec()).unwrap();
        assert_eq!(f.text, "ab?cd\n?x");
        assert_eq!(f.lossy, Some(2));
    }

    #[test]
    fn binary_is_rejected() {
        let err = SourceFile::from_bytes("x.bin".into(), b"\x7fELF\0\0".to_vec()).unwrap_err();
        assert!(err.to_string().contains("binary"));
    }

    #[test]
    fn utf16_columns_count_code_units() {
        let f = SourceFile::new("x.cu", "// é😀\nasm(\"x\");");
        let off = f.text.find("😀").unwrap();
        assert_eq!(f.line_col_utf16(off), (0, 4));
        assert_eq!(f.line_col(off), (1, 5));
        assert_eq!(f.offset_of_utf16(0, 4), off);
        let asm = f.text.find("asm").unwrap();
        assert_eq!(f.line_col_utf16(asm), (1, 0));
        assert_eq!(f.offset_of_line_col(2, 1), asm);
    }
}
