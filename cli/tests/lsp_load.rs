//! The language server under load, as a client drives it: the real binary over stdio, many
//! open documents, a burst of `didChangeWatchedFiles`, a large document edited many times.
//! Bounded: threads, peak memory, and the latency of requests on other documents while it
//! happens. Sizes are small enough for a debug build in CI; `PTXGUARD_LOAD_DOCS`,
//! `PTXGUARD_LOAD_BURST`, `PTXGUARD_LOAD_BIG_MB`, `PTXGUARD_LOAD_CHANGES` scale it up and
//! `PTXGUARD_LOAD_BINARY` runs another build (the numbers in README.md came this way).
//! Linux only (it reads `/proc`).

#![cfg(target_os = "linux")]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const TEXT: &str = "__device__ void f(unsigned* p32, int* q) {\n  int v;\n  asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"r\"(p32));\n  asm(\"atom.global.add.u32 %0, [%1], 1;\" : \"=r\"(v) : \"l\"(q));\n}\n";

fn knob(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    messages: crossbeam_channel::Receiver<Value>,
    next_id: i64,
    /// Largest thread count and resident set (kB) seen while it ran.
    peak_threads: Arc<AtomicU64>,
    peak_rss_kb: Arc<AtomicU64>,
    stop_sampling: Arc<AtomicBool>,
    stderr: std::thread::JoinHandle<String>,
}

impl Server {
    fn start() -> Server {
        let binary = std::env::var("PTXGUARD_LOAD_BINARY")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_ptxguard").to_string());
        let mut child = Command::new(binary)
            .arg("server")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ptxguard server starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut stderr_pipe = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr_pipe.read_to_string(&mut s);
            s
        });
        let (tx, messages) = crossbeam_channel::unbounded();
        std::thread::spawn(move || loop {
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                    return;
                }
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(n) = line.strip_prefix("Content-Length: ") {
                    length = n.parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            if stdout.read_exact(&mut body).is_err() {
                return;
            }
            if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                return;
            }
        });
        let (peak_threads, peak_rss_kb, stop_sampling) = Default::default();
        let server = Server {
            stdin,
            messages,
            next_id: 0,
            peak_threads,
            peak_rss_kb,
            stop_sampling,
            stderr,
            child,
        };
        let status = format!("/proc/{}/status", server.child.id());
        let (threads, rss, stop) = (
            server.peak_threads.clone(),
            server.peak_rss_kb.clone(),
            server.stop_sampling.clone(),
        );
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let Ok(text) = std::fs::read_to_string(&status) else {
                    return;
                };
                for line in text.lines() {
                    let value = |prefix: &str| {
                        line.strip_prefix(prefix)
                            .and_then(|v| v.split_whitespace().next())
                            .and_then(|v| v.parse::<u64>().ok())
                    };
                    if let Some(n) = value("Threads:") {
                        threads.fetch_max(n, Ordering::Relaxed);
                    }
                    if let Some(n) = value("VmHWM:") {
                        rss.fetch_max(n, Ordering::Relaxed);
                    }
                }
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        server
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request, returns its id.
    fn request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Waits for the answer to `id`, counting the diagnostics published meanwhile.
    fn answer(&mut self, id: i64, published: &mut usize) -> Value {
        loop {
            let m = self.next_message();
            if m["id"] == id && m.get("method").is_none() {
                assert!(m.get("error").is_none(), "{m}");
                return m["result"].clone();
            }
            if m["method"] == "textDocument/publishDiagnostics" {
                *published += 1;
            }
        }
    }

    fn next_message(&mut self) -> Value {
        let m = self
            .messages
            .recv_timeout(Duration::from_secs(120))
            .expect("the server answers within 120 s");
        // Answer the server's own requests (capability registration) as a client would.
        if m.get("method").is_some() && m.get("id").is_some() {
            self.send(json!({"jsonrpc": "2.0", "id": m["id"], "result": null}));
        }
        m
    }

    fn wait_published(&mut self, count: usize, published: &mut usize) {
        while *published < count {
            if self.next_message()["method"] == "textDocument/publishDiagnostics" {
                *published += 1;
            }
        }
    }

    fn finish(mut self) -> (u64, u64, String) {
        let id = self.request("shutdown", Value::Null);
        let mut ignored = 0;
        self.answer(id, &mut ignored);
        self.notify("exit", Value::Null);
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        self.stop_sampling.store(true, Ordering::Relaxed);
        assert!(status.success(), "{status}");
        (
            self.peak_threads.load(Ordering::Relaxed),
            self.peak_rss_kb.load(Ordering::Relaxed),
            self.stderr.join().unwrap(),
        )
    }
}

fn hover(server: &mut Server, uri: &str, published: &mut usize) -> Duration {
    let started = Instant::now();
    let id = server.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 20}}),
    );
    server.answer(id, published);
    started.elapsed()
}

#[test]
fn many_documents_a_burst_of_watched_files_and_a_large_edited_document() {
    let docs = knob("PTXGUARD_LOAD_DOCS", 150);
    let burst = knob("PTXGUARD_LOAD_BURST", 30);
    let big_mb = knob("PTXGUARD_LOAD_BIG_MB", 2);
    let changes = knob("PTXGUARD_LOAD_CHANGES", 1000);
    let dir = std::env::temp_dir().join(format!("ptxguard-lsp-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let uri = |name: &str| format!("file://{}/{name}", dir.display());
    let started = Instant::now();
    let mut server = Server::start();
    let id = server.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(""), "capabilities": {}}),
    );
    let mut published = 0;
    server.answer(id, &mut published);
    server.notify("initialized", json!({}));

    for i in 0..docs {
        server.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(&format!("k{i}.cu")), "languageId": "cuda", "version": 1, "text": TEXT}}),
        );
    }
    server.wait_published(docs, &mut published);
    let opened = started.elapsed();

    for _ in 0..burst {
        server.notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": uri("ptxguard.toml"), "type": 2}]}),
        );
    }
    let after_burst = hover(&mut server, &uri("k0.cu"), &mut published);
    let burst_started = Instant::now();
    server.wait_published(2 * docs, &mut published);
    let recheck_all = burst_started.elapsed();

    // A large document, then many small edits to it; meanwhile, requests on another one.
    let line = "int filler_variable_name_padding_the_line = 0; // text\n";
    let mut big = String::from(TEXT);
    while big.len() < big_mb << 20 {
        big.push_str(line);
    }
    let lines = big.matches('\n').count();
    server.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri("big.cu"), "languageId": "cuda", "version": 1, "text": big}}),
    );
    let edits_started = Instant::now();
    for version in 0..changes {
        let at = 6 + (version * 7919) % (lines - 8);
        server.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri("big.cu"), "version": version + 2},
                   "contentChanges": [{"range": {"start": {"line": at, "character": 4}, "end": {"line": at, "character": 4}}, "text": "x"}]}),
        );
    }
    let during_edits = hover(&mut server, &uri("k1.cu"), &mut published);
    let edits_sent = edits_started.elapsed();
    let action_started = Instant::now();
    let id = server.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri("k2.cu")},
               "range": {"start": {"line": 2, "character": 0}, "end": {"line": 3, "character": 0}},
               "context": {"diagnostics": []}}),
    );
    server.answer(id, &mut published);
    let code_action = action_started.elapsed();
    let big_hover = hover(&mut server, &uri("big.cu"), &mut published);
    let (threads, rss_kb, stderr) = server.finish();
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{docs} documents opened and checked in {opened:.2?}; after {burst} didChangeWatchedFiles: \
         hover {after_burst:.2?}, every document re-checked in {recheck_all:.2?}; \
         {big_mb} MB document, {changes} changes sent in {edits_sent:.2?}: hover on another \
         document {during_edits:.2?}, code action {code_action:.2?}, hover on it {big_hover:.2?}; \
         peak {threads} threads, {} MB resident; total {:.2?}",
        rss_kb / 1024,
        started.elapsed()
    );
    assert!(
        !stderr.contains("panicked"),
        "a panic message on stderr:\n{stderr}"
    );
    // A fixed pool (at most 4 workers) plus the stdio and main threads.
    assert!(threads <= 12, "{threads} threads");
    assert!(rss_kb < 1536 * 1024, "{} MB resident", rss_kb / 1024);
    // Generous for a debug build on a loaded machine; the release numbers are far below.
    for (what, took) in [
        ("hover after the burst", after_burst),
        ("hover during the edits", during_edits),
        ("code action during the edits", code_action),
    ] {
        assert!(took < Duration::from_secs(10), "{what}: {took:.2?}");
    }
}
