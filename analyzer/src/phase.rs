//! Where the analysis of a file stands, and its work budget: a panic or an exhausted budget
//! is reported for the file with the phase named (`rule missing-volatile`, `C++ front end`),
//! instead of taking the run down or hanging it.
//!
//! The budget is a wall-clock deadline per file, checked at each phase change (each rule,
//! each asm statement the front end parses). Past it, [`enter`] panics with [`OverBudget`]:
//! the caller catches the unwind ([`isolate`]) and turns it into one diagnostic. The
//! deadline is far above what any real file takes (the slowest real header takes well
//! under a second), so it only stops inputs the linear-time work could not tame.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// The default budget per file.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(20);

thread_local! {
    static PHASE: Cell<(&'static str, &'static str)> = const { Cell::new(("", "")) };
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Set by the caller of a cancellable analysis (the editor: a newer version arrived).
    static CANCEL: std::cell::RefCell<Option<std::sync::Arc<std::sync::atomic::AtomicBool>>> =
        const { std::cell::RefCell::new(None) };
}

/// Makes the analyses on this thread stop at the next phase once `flag` is set; they then
/// fail with [`Failure::Cancelled`].
pub fn cancel_with(flag: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>) {
    CANCEL.set(flag);
}

/// The panic payload of an exhausted budget.
#[derive(Debug)]
pub struct OverBudget;

/// The panic payload of a cancelled analysis ([`cancel_with`]).
#[derive(Debug)]
pub struct Cancelled;

/// Enters a phase (`kind` such as "rule", `name` the rule). Panics with [`OverBudget`] when
/// the file's budget is spent, and with [`Cancelled`] when [`cancel_with`]'s flag is set; neither
/// runs the panic hook.
pub fn enter(kind: &'static str, name: &'static str) {
    // Checked before the phase changes, so that the report names the phase that ran over.
    if let Some(deadline) = DEADLINE.get() {
        if Instant::now() > deadline {
            DEADLINE.set(None);
            // `resume_unwind`, not `panic_any`: an expected stop calls no panic hook, so it
            // prints nothing on stderr whoever installed the hook.
            std::panic::resume_unwind(Box::new(OverBudget));
        }
    }
    let cancelled = CANCEL.with_borrow(|c| {
        c.as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
    });
    if cancelled {
        std::panic::resume_unwind(Box::new(Cancelled));
    }
    PHASE.set((kind, name));
}

/// The phase last entered on this thread, as words: "rule missing-volatile".
pub fn current() -> String {
    let (kind, name) = PHASE.get();
    match (kind, name) {
        ("", _) => "the analysis".into(),
        (kind, "") => kind.into(),
        (kind, name) => format!("{kind} {name}"),
    }
}

/// How one file's analysis failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// A panic: a bug. The message names the phase and what panicked.
    Internal { phase: String, message: String },
    /// The work budget ran out in `phase`.
    OverBudget { phase: String, budget: Duration },
    /// Stopped by [`cancel_with`]'s flag: its result is no longer wanted.
    Cancelled,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Internal { phase, message } => write!(
                f,
                "internal error in {phase} ({message}); this file was not checked, please report it"
            ),
            Failure::OverBudget { phase, budget } => write!(
                f,
                "the analysis took longer than {} s (stopped in {phase}); this file was not checked",
                budget.as_secs()
            ),
            Failure::Cancelled => write!(f, "the analysis was cancelled"),
        }
    }
}

/// Runs `work` for one file with `budget`, turning a panic or an exhausted budget into a
/// [`Failure`]. Needs unwinding (`panic = "unwind"`, the default).
pub fn isolate<T>(budget: Option<Duration>, work: impl FnOnce() -> T) -> Result<T, Failure> {
    let previous_deadline = DEADLINE.replace(budget.map(|b| Instant::now() + b));
    let previous_phase = PHASE.replace(("", ""));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
    let phase = current();
    DEADLINE.set(previous_deadline);
    PHASE.set(previous_phase);
    result.map_err(|payload| {
        if payload.downcast_ref::<Cancelled>().is_some() {
            return Failure::Cancelled;
        }
        if payload.downcast_ref::<OverBudget>().is_some() {
            return Failure::OverBudget {
                phase,
                budget: budget.unwrap_or_default(),
            };
        }
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        Failure::Internal { phase, message }
    })
}

/// Silences the default panic message for [`OverBudget`] and [`Cancelled`] raised as panics by
/// other code ([`enter`] raises them without the hook); other panics still print theirs.
/// Call once at start-up.
pub fn quiet_budget_panics() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let expected = info.payload().downcast_ref::<OverBudget>().is_some()
            || info.payload().downcast_ref::<Cancelled>().is_some();
        if !expected {
            default(info);
        }
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_failure_naming_the_phase() {
        let r = isolate(None, || {
            enter("rule", "missing-volatile");
            panic!("boom");
        });
        let Err(Failure::Internal { phase, message }) = r else {
            panic!("{r:?}");
        };
        assert_eq!(phase, "rule missing-volatile");
        assert_eq!(message, "boom");
        assert_eq!(isolate(None, || 7), Ok(7));
    }

    #[test]
    fn a_spent_budget_stops_at_the_next_phase() {
        let r = isolate(Some(Duration::from_millis(1)), || {
            enter("C++ front end", "");
            std::thread::sleep(Duration::from_millis(5));
            enter("rule", "x");
            unreachable!("the budget is spent");
        });
        assert!(
            matches!(&r, Err(Failure::OverBudget { phase, .. }) if phase == "C++ front end"),
            "{r:?}"
        );
        // No budget outside `isolate`.
        enter("rule", "y");
    }
}
