//! The GPU run itself needs a CUDA driver and toolkit, which CI does not have: it is reported
//! as ignored (never as passed). On a GPU machine run the harness binary instead (see README).

#[test]
#[ignore = "SKIP: no CUDA driver in CI; run `gpu-tests run` on a GPU machine (gpu-tests/README.md)"]
fn gpu_run() {
    assert!(
        gpu_tests::cuda::driver_available(),
        "SKIP: no CUDA driver: this test only runs where one is"
    );
    let info = gpu_tests::cuda::device_info().expect("device");
    assert!(info.sm.starts_with("sm_"));
}

#[test]
fn no_driver_is_reported_not_passed() {
    // Without a driver the harness must say so rather than pretend.
    if gpu_tests::cuda::driver_available() {
        return;
    }
    let err = gpu_tests::cuda::device_info().unwrap_err();
    assert!(err.contains("no CUDA driver"), "{err}");
}
