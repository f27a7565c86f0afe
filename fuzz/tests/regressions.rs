//! Every input in `fuzz/regressions/` (each a bug the fuzzer or an attack found, minimised)
//! through every target: no panic, no broken property, in well under the fuzzer's time limit.

use ptxguard_fuzz::{run_target, TARGETS};
use std::time::{Duration, Instant};

#[test]
fn regression_inputs_pass_every_target() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let input = std::fs::read(entry.path()).unwrap();
        for target in TARGETS {
            let started = Instant::now();
            let result = std::panic::catch_unwind(|| run_target(target, &input));
            let name = entry.path().display().to_string();
            match result {
                Ok(Ok(())) => {}
                Ok(Err(broken)) => panic!("{target} on {name}: {broken}"),
                Err(_) => panic!("{target} on {name}: panicked"),
            }
            // Debug builds; generous, so that a loaded machine never fails it.
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "{target} on {name}: {:?}",
                started.elapsed()
            );
        }
        count += 1;
    }
    assert!(count >= 3, "the regression inputs are there");
}

/// tree-sitter's error recovery on text far from Python took seconds per 10 KB (found by the
/// fuzzer); the front end is now one token pass: the same text, four times over inside one
/// call's arguments, is read in well under the fuzzer's limit, and completely.
#[test]
fn text_far_from_python_is_read_quickly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let text = std::fs::read_to_string(dir.join("python-slow-error-recovery.py")).unwrap();
    let text = format!(
        "y = tl.inline_asm_elementwise(\"mov.b32 $0, $1;\", \"=r,r\", [x], dtype=tl.int32, is_pure=True, pack=1, z=[\n{}\n])\n",
        text.repeat(4)
    );
    let file = ptxguard_analyzer::SourceFile::new("slow.py", text);
    let started = Instant::now();
    let found = ptxguard_analyzer::python::find_statements(&file);
    let took = started.elapsed();
    assert_eq!(found.len(), 1, "the call is found");
    assert!(took < Duration::from_secs(2), "{took:?}");
}
