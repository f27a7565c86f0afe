// The engine allocates many small vectors per statement; mimalloc measured faster than glibc here.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(ptxguard::cli_main());
}
