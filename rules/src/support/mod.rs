//! What the rules share, split by concern; nothing here is a rule, and nothing leaves the
//! crate. A helper with one user lives in that rule's file instead.

#[macro_use]
pub(crate) mod macros;
pub(crate) mod address_width;
pub(crate) mod cpp_uses;
pub(crate) mod cuda_library;
pub(crate) mod dataflow;
pub(crate) mod diagnostics;
pub(crate) mod fix_safety;
pub(crate) mod fixes;
pub(crate) mod front_end;
pub(crate) mod intrinsics;
pub(crate) mod operands;
pub(crate) mod portability;
pub(crate) mod preprocessor;
pub(crate) mod table_pattern;
