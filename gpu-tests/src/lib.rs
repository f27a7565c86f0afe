//! The GPU harness: turns corpus cases into evidence by compiling and running them.
//!
//! - [`header`]: the machine-readable `// gpu-...` header of a case.
//! - [`probe`]: the address-width probe (which address register widths ptxas accepts).
//! - [`util`]: dates, a thread pool, subprocesses with a time limit.

pub mod header;
pub mod probe;
pub mod util;
