//! A fixed set of worker threads for the language server's checks and requests: however many
//! documents and notifications arrive, the threads stay few (a thread per check reached 4,000
//! threads and 4.5 GB under a burst of `didChangeWatchedFiles`). Jobs a request waits for go
//! before queued checks.

use crossbeam_channel::{Receiver, Sender};

pub type Job = Box<dyn FnOnce() + Send>;

pub struct Pool {
    urgent: Sender<Job>,
    normal: Sender<Job>,
}

impl Pool {
    /// `threads` workers (at least one). They end when the pool is dropped, after their
    /// current job; nothing waits for them.
    pub fn new(threads: usize) -> Pool {
        let (urgent, urgent_jobs) = crossbeam_channel::unbounded::<Job>();
        let (normal, normal_jobs) = crossbeam_channel::unbounded::<Job>();
        for i in 0..threads.max(1) {
            let (urgent_jobs, normal_jobs) = (urgent_jobs.clone(), normal_jobs.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("ptxguard-check-{i}"))
                .spawn(move || work(&urgent_jobs, &normal_jobs));
            if let Err(e) = spawned {
                eprintln!("ptxguard server: cannot start a worker thread: {e}");
            }
        }
        Pool { urgent, normal }
    }

    /// The default size: the machine's cores, at most 4 (a check is single-threaded; more
    /// threads only add memory).
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get().min(4))
    }

    /// Runs `job` on a worker, before any queued `normal` job when `urgent`.
    pub fn spawn(&self, urgent: bool, job: Job) {
        let queue = if urgent { &self.urgent } else { &self.normal };
        // The receivers live as long as the workers, which live as long as the pool.
        let _ = queue.send(job);
    }
}

fn work(urgent: &Receiver<Job>, normal: &Receiver<Job>) {
    loop {
        let job = match urgent.try_recv() {
            Ok(job) => Ok(job),
            Err(_) => crossbeam_channel::select! {
                recv(urgent) -> job => job,
                recv(normal) -> job => job,
            },
        };
        match job {
            // A job isolates its analyses; this keeps the worker for a bug outside them.
            Ok(job) => {
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
                    eprintln!("ptxguard server: a worker's job panicked");
                }
            }
            // The pool is gone.
            Err(_) => return,
        }
    }
}
