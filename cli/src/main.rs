// The engine allocates many small vectors per statement; mimalloc measured faster than glibc here.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let exit = ptxguard::cli_main();
    if exit.at_once {
        exit_now(exit.code)
    }
    std::process::exit(exit.code)
}

/// Ends the process once everything is written and every file closed (a `check` has
/// returned; not the server, whose writer thread may still hold standard output): without the
/// exit-time work of `exit(3)`, where mimalloc collected and handed back every page the run
/// freed (a few milliseconds after a large tree; bench/results.md).
#[cfg(unix)]
fn exit_now(code: i32) -> ! {
    use std::io::Write as _;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` only ends the process; the output is flushed above.
    unsafe { libc::_exit(code) }
}

#[cfg(not(unix))]
fn exit_now(code: i32) -> ! {
    std::process::exit(code)
}
