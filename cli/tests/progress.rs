//! `confirm`'s progress bar is for terminals: with stderr piped, nothing is added to it.

mod common;

use common::{binary, TestDir};

#[test]
fn confirm_over_several_files_prints_no_progress_when_piped() {
    let dir = TestDir::new("confirm-progress");
    // A stand-in nvcc: it names its version, and every build fails with one message.
    let nvcc = dir.write(
        "bin/nvcc",
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'Cuda compilation tools, release 13.0, V13.0.88'; exit 0; fi\necho 'nvcc: stand-in, nothing built' >&2\nexit 1\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&nvcc, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let kernel =
        "__global__ void k(int *p) { asm volatile(\"st.global.u32 [%0], 1;\" :: \"l\"(p)); }\n";
    dir.write("a.cu", kernel);
    dir.write("b.cu", kernel);
    let run = binary(
        &dir.path,
        &["confirm", "--nvcc", nvcc.to_str().unwrap(), "a.cu", "b.cu"],
        None,
    );
    // Both files went through the (failing) build and were reported.
    assert!(
        run.stdout.contains("a.cu") && run.stdout.contains("b.cu"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("toolkit:"), "{}", run.stdout);
    // Nothing of the bar: no carriage return, no escape sequence, no count.
    assert!(!run.stderr.contains('\r'), "{:?}", run.stderr);
    assert!(!run.stderr.contains('\x1b'), "{:?}", run.stderr);
    assert!(!run.stderr.contains("building"), "{:?}", run.stderr);
    assert!(!run.stderr.contains("1/2"), "{:?}", run.stderr);
}
