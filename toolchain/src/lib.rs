//! The CUDA toolchain as `ptxguard confirm` and the GPU harness (`gpu-tests`) use it.
//!
//! - [`toolkit`]: finding nvcc (and ptxas, cuobjdump beside it).
//! - [`build`]: building a file with nvcc so that every message can be traced; the targets
//!   named in nvcc flags; scratch directories.
//! - [`nvrtc`]: the same build through NVRTC (cudarc, loaded at run time) when nvcc is absent.
//! - [`messages`]: front-end, NVRTC and ptxas messages read into one shape.
//! - [`locate`]: each message traced to the asm statement that caused it, through the inline
//!   asm blocks of the generated PTX.
//! - [`compare`]: ptxguard's findings held against what the toolchain said.
//! - [`sass`]: machine code (`cuobjdump -sass`, `nvdisasm`) read into functions and two builds
//!   compared by what a finding is about.
//! - [`evidence`]: one finding's verdict from builds without and with its fix.
//! - [`progress`]: the progress bar `confirm` and the harness draw on a terminal.

pub mod build;
pub mod compare;
pub mod evidence;
pub mod locate;
pub mod messages;
pub mod nvrtc;
pub mod process;
pub mod progress;
pub mod sass;
pub mod toolkit;

pub use build::{build_with_nvcc, targets_from_flags, Build, TempDir};
pub use compare::{
    compare, findings_for, findings_with, toolchain_detects, BuildUsed, FileReport, FindingResult,
};
pub use locate::{
    block_at, inline_asm_blocks, locate, statement_at_line, statement_of_block, AsmBlock, Located,
};
pub use messages::{parse_messages, Level, Message, Tool};
pub use toolkit::{find_toolkit, which, Toolkit};
