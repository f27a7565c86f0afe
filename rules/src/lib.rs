//! ptxguard rules.
