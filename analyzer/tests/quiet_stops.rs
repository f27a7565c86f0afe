//! A cancelled or over-budget analysis stops without running the panic hook: nothing reaches
//! stderr (the language server printed `panicked at analyzer/src/phase.rs` for every check a
//! newer edit cancelled). Its own test binary: it installs a process-wide panic hook.

use ptxguard_analyzer::phase::{cancel_with, enter, isolate, Failure};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

static HOOK_CALLS: AtomicUsize = AtomicUsize::new(0);

#[test]
fn cancellation_and_a_spent_budget_run_no_panic_hook() {
    std::panic::set_hook(Box::new(|_| {
        HOOK_CALLS.fetch_add(1, Ordering::SeqCst);
    }));
    let flag = Arc::new(AtomicBool::new(true));
    cancel_with(Some(flag));
    let cancelled = isolate(None, || enter("rule", "x"));
    cancel_with(None);
    assert_eq!(cancelled, Err(Failure::Cancelled));

    let over = isolate(Some(Duration::ZERO), || {
        std::thread::sleep(Duration::from_millis(2));
        enter("rule", "y")
    });
    assert!(matches!(over, Err(Failure::OverBudget { .. })), "{over:?}");
    assert_eq!(HOOK_CALLS.load(Ordering::SeqCst), 0, "the panic hook ran");

    // A real panic still reaches the hook.
    let _ = isolate(None, || panic!("a bug"));
    let _ = std::panic::take_hook();
    assert_eq!(HOOK_CALLS.load(Ordering::SeqCst), 1);
}
