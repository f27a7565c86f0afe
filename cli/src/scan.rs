//! Where each comment and asm statement of a file is (for suppressions and baselines): the
//! engine's outline, under the names the CLI uses.

pub use ptxguard_analyzer::cpp::outline::{outline as scan, Outline as Scan};
