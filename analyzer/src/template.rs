//! Template decoding and the source map.
