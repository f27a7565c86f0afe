//! The compilation model the rules read: for one file, how it is built ([`AnalysisContext`],
//! made once per file by the caller: `check`, the language server, `confirm`, the fuzzer) and
//! what that means for its code ([`targets`]: the targets, `#if` evaluation per target with
//! the build's and the headers' macros, `NV_IF_TARGET` queries, which functions each target
//! compiles). Facts only, no rule logic.
//!
//! Caches live in the caller's hands ([`HeaderCache`]), never in a process-wide `static`: a
//! `check` run keeps one for all its files, the language server one for its session (emptied
//! when files change on disk).

pub mod targets;

use crate::build::{CudaVersion, FileBuild};
use crate::isa::Target;
use std::sync::Arc;

pub use targets::HeaderCache;

/// How one file is compiled, as far as the caller knows: what the rules are given besides the
/// file (whose [`crate::source::Language`] its front end already decided).
#[derive(Clone, Debug, Default)]
pub struct AnalysisContext {
    /// The SM targets the file is built for (configuration, database, environment,
    /// `--target`); empty: not known, then the file's path or the toolkit's targets are used
    /// ([`targets::file_targets`]). Names are checked where they are configured.
    pub targets: Vec<Target>,
    /// How the file is built (`-D`/`-U`, include folders, toolkit, compilers), when known.
    pub build: Option<Arc<FileBuild>>,
    /// The headers read for their macros, shared by the files of one run.
    pub headers: HeaderCache,
}

impl AnalysisContext {
    /// Nothing known about the build, with the caller's header cache.
    pub fn new(headers: HeaderCache) -> AnalysisContext {
        AnalysisContext {
            headers,
            ..AnalysisContext::default()
        }
    }

    /// The toolkit the file is built with: the configured or detected one, else nvcc 13.0.
    pub fn toolkit(&self) -> CudaVersion {
        self.build
            .as_ref()
            .and_then(|b| b.cuda)
            .unwrap_or(CudaVersion::DEFAULT)
    }

    /// The build's `-D`/`-U`, when a command is known.
    pub fn macros(&self) -> Option<&[crate::build::MacroFlag]> {
        self.build.as_ref().and_then(|b| b.macros.as_deref())
    }
}
