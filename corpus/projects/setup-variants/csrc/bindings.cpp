// Host bindings (no device code).
void bind_ops() {}
