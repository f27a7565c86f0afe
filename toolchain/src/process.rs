//! Running a toolchain command with a time limit: a build that hangs (a license server, a
//! stuck NFS mount, a pathological template) must not hang `confirm` or a CI job.

use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long one toolchain command may run unless `PTXGUARD_BUILD_TIMEOUT` (seconds) says.
pub const DEFAULT_LIMIT: Duration = Duration::from_secs(600);

/// The limit for one toolchain command: `PTXGUARD_BUILD_TIMEOUT` seconds, else
/// [`DEFAULT_LIMIT`].
pub fn limit() -> Duration {
    std::env::var("PTXGUARD_BUILD_TIMEOUT")
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(DEFAULT_LIMIT, Duration::from_secs_f64)
}

/// Runs `cmd` to completion or until `limit` has passed; then its whole process group (nvcc's
/// cicc and ptxas too) is killed and the answer is `None`.
pub fn output_within(cmd: &mut Command, limit: Duration) -> std::io::Result<Option<Output>> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(cmd, 0);
    let mut child = cmd.spawn()?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if started.elapsed() >= limit {
            #[cfg(unix)]
            kill_group(child.id());
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Ok(Some(Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }))
}

/// Kills the process group `leader` leads (made with `process_group(0)`, so its id is the
/// leader's). Never a group id below 2: `kill(-1)` would signal every process we may signal.
#[cfg(unix)]
fn kill_group(leader: u32) {
    let Ok(group) = libc::pid_t::try_from(leader) else {
        return;
    };
    if group > 1 {
        // SAFETY: `kill` takes plain integers and touches no memory of ours; a negative
        // argument names exactly the process group of the child spawned above.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

/// What a command killed at the limit is said to have done, in a build's messages.
pub fn timed_out(what: &std::path::Path, limit: Duration) -> String {
    format!(
        "{} did not finish within {} s and was stopped (PTXGUARD_BUILD_TIMEOUT sets the limit, in seconds)",
        what.display(),
        limit.as_secs_f64()
    )
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_command_that_hangs_is_killed_at_the_limit() {
        let started = Instant::now();
        let mut cmd = Command::new("sh");
        // A child of the command hangs too: the whole group goes.
        cmd.arg("-c").arg("sleep 30 & sleep 30");
        let out = output_within(&mut cmd, Duration::from_millis(300)).unwrap();
        assert!(out.is_none());
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_command_that_finishes_gives_its_output() {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg("echo out; echo err >&2; exit 3");
        let out = output_within(&mut cmd, Duration::from_secs(30))
            .unwrap()
            .unwrap();
        assert_eq!(out.stdout, b"out\n");
        assert_eq!(out.stderr, b"err\n");
        assert_eq!(out.status.code(), Some(3));
    }
}
