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
