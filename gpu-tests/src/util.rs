//! Small helpers: dates, a thread pool over a list, subprocesses with a time limit.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    date_from_days((secs / 86_400) as i64)
}

/// Civil date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
pub fn date_from_days(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}")
}

/// Runs `f` on every item with up to `jobs` threads; results in input order.
pub fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1).min(items.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                out.lock().unwrap()[i] = Some(r);
            });
        }
    });
    out.into_inner()
        .unwrap()
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

/// What a finished (or killed) subprocess did.
#[derive(Clone, Debug)]
pub struct Output {
    pub success: bool,
    pub timed_out: bool,
    /// stderr then stdout.
    pub text: String,
    pub stdout: String,
}

/// Runs a command, killing it after `limit`.
pub fn run_with_limit(mut cmd: Command, limit: Duration) -> std::io::Result<Output> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stdout.read_to_end(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = stderr.read_to_end(&mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() > limit {
            timed_out = true;
            let _ = child.kill();
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let so = String::from_utf8_lossy(&out_reader.join().unwrap_or_default()).into_owned();
    let se = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
    Ok(Output {
        success: status.success() && !timed_out,
        timed_out,
        text: format!("{se}{so}"),
        stdout: so,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(date_from_days(0), "1970-01-01");
        assert_eq!(date_from_days(19_723), "2024-01-01");
        assert_eq!(date_from_days(20_513), "2026-03-01");
        assert_eq!(today_utc().len(), 10);
    }

    #[test]
    fn parallel_map_keeps_order() {
        let v: Vec<u32> = (0..100).collect();
        assert_eq!(
            parallel_map(&v, 7, |x| x * 2),
            v.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
    }

    #[test]
    fn subprocess_limits() {
        let mut c = Command::new("sh");
        c.args(["-c", "echo out; echo err >&2"]);
        let o = run_with_limit(c, Duration::from_secs(10)).unwrap();
        assert!(o.success);
        assert_eq!(o.text, "err\nout\n");
        let mut c = Command::new("sleep");
        c.arg("5");
        let o = run_with_limit(c, Duration::from_millis(100)).unwrap();
        assert!(o.timed_out && !o.success);
    }
}
