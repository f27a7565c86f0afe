//! Corpus runner library.
