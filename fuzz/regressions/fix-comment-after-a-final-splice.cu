\
// ptxguard: allow("l"(p)