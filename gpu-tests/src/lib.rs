//! The GPU harness: turns corpus cases into evidence by compiling and running them.
//!
//! - [`header`]: the machine-readable `// gpu-...` header of a case.
//! - [`harness`]: finding cases, applying ptxguard's fixes, judging builds and runs.
//! - [`runner`]: building with nvcc/ptxas and NVRTC, launching in child processes.
//! - [`cuda`]: NVRTC and the driver through cudarc, loaded at run time.
//! - [`report`]: the confirmation table (JSON and Markdown).
//! - [`probe`]: the address-width probe (which address register widths ptxas accepts).
//! - [`util`]: dates, a thread pool, subprocesses with a time limit.

pub mod cuda;
pub mod harness;
pub mod header;
pub mod probe;
pub mod report;
pub mod runner;
pub mod util;
