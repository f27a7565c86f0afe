//! A progress bar on stderr for long runs (`confirm` over many files, the GPU harness): the
//! count done and the file being built, redrawn in place. Drawn only when stderr is a terminal,
//! so piped or redirected output is exactly what it is without it.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;

const BAR_WIDTH: usize = 24;

pub struct Progress {
    /// `None` when not drawing (not a terminal).
    state: Option<Mutex<State>>,
}

struct State {
    out: Box<dyn Write + Send>,
    label: String,
    total: usize,
    done: usize,
    /// What is being built now, latest last.
    current: Vec<String>,
    width: usize,
}

impl Progress {
    /// A bar on stderr, when stderr is a terminal; otherwise one that prints nothing.
    pub fn stderr(label: &str, total: usize) -> Progress {
        let terminal = std::io::stderr().is_terminal();
        Progress::to(Box::new(std::io::stderr()), terminal, label, total)
    }

    /// A bar on `out`, drawn only when `terminal`.
    pub fn to(out: Box<dyn Write + Send>, terminal: bool, label: &str, total: usize) -> Progress {
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .filter(|&w: &usize| w >= 40)
            .unwrap_or(80);
        Progress {
            state: terminal.then(|| {
                Mutex::new(State {
                    out,
                    label: label.to_string(),
                    total,
                    done: 0,
                    current: Vec::new(),
                    width,
                })
            }),
        }
    }

    pub fn is_drawing(&self) -> bool {
        self.state.is_some()
    }

    /// `item` is being built.
    pub fn start(&self, item: &str) {
        self.update(|s| s.current.push(item.to_string()));
    }

    /// `item` is done.
    pub fn finish(&self, item: &str) {
        self.update(|s| {
            if let Some(i) = s.current.iter().rposition(|c| c == item) {
                s.current.remove(i);
            }
            s.done = (s.done + 1).min(s.total);
        });
    }

    /// Erases the bar, so that other output can be printed; the next update draws it again.
    pub fn clear(&self) {
        if let Some(state) = &self.state {
            let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
            let _ = write!(s.out, "\r\x1b[2K");
            let _ = s.out.flush();
        }
    }

    fn update(&self, change: impl FnOnce(&mut State)) {
        let Some(state) = &self.state else { return };
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        change(&mut s);
        let line = s.line();
        let _ = write!(s.out, "\r\x1b[2K{line}");
        let _ = s.out.flush();
    }
}

impl State {
    fn line(&self) -> String {
        let filled = (self.done * BAR_WIDTH)
            .checked_div(self.total)
            .unwrap_or(BAR_WIDTH);
        let bar = format!("[{}{}]", "=".repeat(filled), " ".repeat(BAR_WIDTH - filled));
        let mut line = format!("{} {bar} {}/{}", self.label, self.done, self.total);
        if let Some(item) = self.current.last() {
            line.push_str(" building ");
            line.push_str(item);
        }
        // One terminal line: longer text would wrap and break the redraw.
        if line.chars().count() >= self.width {
            line = line.chars().take(self.width - 1).collect();
        }
        line
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    #[test]
    fn draws_the_count_and_the_file_being_built_on_a_terminal() {
        let out = Shared::default();
        let progress = Progress::to(Box::new(out.clone()), true, "confirm", 4);
        progress.start("a.cu");
        assert!(
            out.text()
                .ends_with("\r\x1b[2Kconfirm [                        ] 0/4 building a.cu"),
            "{:?}",
            out.text()
        );
        progress.finish("a.cu");
        progress.start("b.cu");
        assert!(
            out.text()
                .ends_with("confirm [======                  ] 1/4 building b.cu"),
            "{:?}",
            out.text()
        );
        progress.clear();
        assert!(out.text().ends_with("\r\x1b[2K"));
        drop(progress);
    }

    #[test]
    fn prints_nothing_when_not_a_terminal() {
        let out = Shared::default();
        let progress = Progress::to(Box::new(out.clone()), false, "confirm", 2);
        assert!(!progress.is_drawing());
        progress.start("a.cu");
        progress.finish("a.cu");
        progress.clear();
        drop(progress);
        assert_eq!(out.text(), "");
    }

    #[test]
    fn long_names_stay_on_one_line() {
        let out = Shared::default();
        let progress = Progress::to(Box::new(out.clone()), true, "gpu-tests", 1);
        progress.start(&"x".repeat(500));
        let text = out.text();
        let last = text.rsplit("\x1b[2K").next().unwrap();
        assert!(
            last.chars().count() < 80 || std::env::var("COLUMNS").is_ok(),
            "{}",
            last.len()
        );
        assert!(!last.contains('\n'));
    }
}
