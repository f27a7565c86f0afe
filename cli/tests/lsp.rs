//! The language server, driven by an in-process client over `Connection::memory()`.

mod common;

use common::{fake_check, TestDir};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use ptxguard::analysis::CheckFn;
use ptxguard::lsp::{convert::path_to_uri, serve, ServerOptions};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::path::Path;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

struct Client {
    conn: Connection,
    server: Option<std::thread::JoinHandle<()>>,
    next_id: i32,
    /// Notifications and requests from the server not yet looked at.
    pending: VecDeque<Message>,
}

impl Client {
    fn start(check: CheckFn, root: &Path, capabilities: Value) -> Client {
        Client::start_with_options(check, root, capabilities, Value::Null)
    }

    /// Starts the server with the client's `initializationOptions`.
    fn start_with_options(
        check: CheckFn,
        root: &Path,
        capabilities: Value,
        initialization_options: Value,
    ) -> Client {
        let (server_side, client_side) = Connection::memory();
        let server = std::thread::spawn(move || {
            let options = ServerOptions {
                check,
                debounce: Duration::from_millis(30),
                threads: 2,
            };
            serve(&server_side, options).expect("server runs cleanly");
        });
        let mut client = Client {
            conn: client_side,
            server: Some(server),
            next_id: 0,
            pending: VecDeque::new(),
        };
        let result = client.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": path_to_uri(root).as_str(),
                "capabilities": capabilities,
                "initializationOptions": initialization_options,
            }),
        );
        assert_eq!(result["capabilities"]["positionEncoding"], "utf-16");
        assert_eq!(result["serverInfo"]["name"], "ptxguard");
        client.notify("initialized", json!({}));
        client
    }

    fn recv(&mut self) -> Message {
        let message = self
            .conn
            .receiver
            .recv_timeout(TIMEOUT)
            .expect("the server answers in time");
        // Answer the server's own requests (capability registration) as a client would.
        if let Message::Request(req) = &message {
            self.conn
                .sender
                .send(Message::Response(Response::new_ok(
                    req.id.clone(),
                    Value::Null,
                )))
                .unwrap();
        }
        message
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.conn
            .sender
            .send(Message::Request(Request::new(
                id.clone(),
                method.into(),
                params,
            )))
            .unwrap();
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => {
                    assert!(r.error.is_none(), "{method}: {:?}", r.error);
                    return r.result.unwrap_or(Value::Null);
                }
                other => self.pending.push_back(other),
            }
        }
    }

    /// A request whose answer is an error: its code.
    fn request_error(&mut self, method: &str, params: Value) -> i32 {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.conn
            .sender
            .send(Message::Request(Request::new(
                id.clone(),
                method.into(),
                params,
            )))
            .unwrap();
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => {
                    return r.error.expect("an error answer").code;
                }
                other => self.pending.push_back(other),
            }
        }
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.conn
            .sender
            .send(Message::Notification(Notification::new(
                method.into(),
                params,
            )))
            .unwrap();
    }

    /// The next message matching `pred`, from what came already or what comes next.
    fn wait_for(&mut self, pred: impl Fn(&Message) -> bool) -> Message {
        if let Some(i) = self.pending.iter().position(&pred) {
            return self.pending.remove(i).unwrap();
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            assert!(Instant::now() < deadline, "timed out waiting");
            let m = self.recv();
            if pred(&m) {
                return m;
            }
            self.pending.push_back(m);
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Value {
        let m = self.wait_for(|m| {
            matches!(m, Message::Notification(n) if n.method == "textDocument/publishDiagnostics" && n.params["uri"] == uri)
        });
        let Message::Notification(n) = m else {
            unreachable!()
        };
        n.params
    }

    fn open(&mut self, uri: &str, text: &str) -> Value {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "cuda", "version": 1, "text": text } }),
        );
        self.diagnostics(uri)
    }

    fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.server
            .take()
            .unwrap()
            .join()
            .expect("server thread ends");
    }
}

fn codes(published: &Value) -> Vec<String> {
    published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

/// Non-ASCII before the asm on the same line: UTF-16 columns differ from bytes and chars.
const TEXT: &str = "/* 😀 é */ asm(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"r\"(p32));\n";

fn workspace() -> (TestDir, String) {
    let dir = TestDir::new("lsp");
    let path = dir.write("k.cu", TEXT);
    let uri = path_to_uri(&path).as_str().to_string();
    (dir, uri)
}

#[test]
fn diagnostics_on_open_use_utf16_positions() {
    let (dir, uri) = workspace();
    let mut client = Client::start(fake_check, &dir.path, json!({}));
    let published = client.open(&uri, TEXT);
    assert_eq!(published["version"], 1);
    let diagnostics = published["diagnostics"].as_array().unwrap();
    let volatile = diagnostics
        .iter()
        .find(|d| d["code"] == "missing-volatile")
        .unwrap();
    // "/* " (3) + 😀 (2 UTF-16 units) + " é */ " (6) = 11; in bytes it would be 15, in chars 10.
    assert_eq!(
        volatile["range"]["start"],
        json!({ "line": 0, "character": 11 })
    );
    assert_eq!(
        volatile["range"]["end"],
        json!({ "line": 0, "character": 14 })
    );
    assert_eq!(volatile["severity"], 1);
    assert_eq!(volatile["source"], "ptxguard");
    let address = diagnostics
        .iter()
        .find(|d| d["code"] == "address-register-width")
        .unwrap();
    assert_eq!(
        address["relatedInformation"][0]["message"],
        "this is a 64-bit pointer"
    );
    client.shutdown();
}

#[test]
fn changes_are_applied_incrementally_and_checked_after_a_pause() {
    let (dir, uri) = workspace();
    let mut client = Client::start(fake_check, &dir.path, json!({}));
    client.open(&uri, TEXT);
    // Two quick edits: `asm(` -> `asm volatile(`, typed in two steps after the emoji.
    for (version, text, at) in [(2, " vola", 14), (3, "tile", 19)] {
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{
                    "range": { "start": { "line": 0, "character": at }, "end": { "line": 0, "character": at } },
                    "text": text,
                }],
            }),
        );
    }
    let published = client.diagnostics(&uri);
    // Debounced: one check for both edits, at the latest version.
    assert_eq!(published["version"], 3);
    assert_eq!(codes(&published), ["address-register-width"]);
    // A full-text change works too.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 4 }, "contentChanges": [{ "text": "int x; // asm\n" }] }),
    );
    assert!(codes(&client.diagnostics(&uri)).is_empty());
    client.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(client.diagnostics(&uri)["version"], 4);
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert!(codes(&client.diagnostics(&uri)).is_empty());
    client.shutdown();
}

fn apply_text_edits(text: &str, edits: &Value) -> String {
    let file = ptxguard_analyzer::SourceFile::new("x.cu", text);
    let edits: Vec<ptxguard_analyzer::Edit> = edits
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let range: lsp_types::Range = serde_json::from_value(e["range"].clone()).unwrap();
            ptxguard_analyzer::Edit::replace(
                ptxguard::lsp::convert::span(&file, range),
                e["newText"].as_str().unwrap(),
            )
        })
        .collect();
    ptxguard_analyzer::diag::apply_edits(text, &edits).0
}

#[test]
fn code_actions_offer_fixes_suppressions_and_fix_all() {
    let (dir, uri) = workspace();
    let mut client = Client::start(fake_check, &dir.path, json!({}));
    client.open(&uri, TEXT);
    let whole_line =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 60 } });
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": whole_line, "context": { "diagnostics": [] } }),
    );
    let actions = actions.as_array().unwrap();
    let titles: Vec<&str> = actions
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Add `volatile` (missing-volatile)",
            "Suppress missing-volatile here",
            "Use `l` (address-register-width, unsafe: review it)",
            "Suppress address-register-width here",
            "Fix all safe ptxguard findings in this file",
        ]
    );
    assert_eq!(actions[0]["isPreferred"], true);
    assert_eq!(actions[0]["kind"], "quickfix");
    assert_eq!(actions[2]["isPreferred"], false);
    assert_eq!(actions[4]["kind"], "source.fixAll.ptxguard");

    let edits_of = |a: &Value| a["edit"]["changes"][uri.as_str()].clone();
    assert_eq!(
        apply_text_edits(TEXT, &edits_of(&actions[0])),
        TEXT.replace("asm(", "asm volatile(")
    );
    assert_eq!(
        apply_text_edits(TEXT, &edits_of(&actions[1])),
        TEXT.replace(";\n", "; // ptxguard: allow(missing-volatile)\n")
    );
    assert_eq!(
        apply_text_edits(TEXT, &edits_of(&actions[4])),
        TEXT.replace("asm(", "asm volatile(")
    );

    // `only` narrows the answer.
    let only = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": whole_line, "context": { "diagnostics": [], "only": ["source.fixAll"] } }),
    );
    assert_eq!(only.as_array().unwrap().len(), 1);
    // A range away from any finding: only fix-all.
    let elsewhere = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 1 } }, "context": { "diagnostics": [] } }),
    );
    assert_eq!(elsewhere.as_array().unwrap().len(), 1);
    client.shutdown();
}

#[test]
fn suppress_action_extends_an_existing_allow() {
    let dir = TestDir::new("lsp-extend-allow");
    let text = "asm(\"\" :: \"r\"(p32)); // ptxguard: allow(missing-volatile)\n";
    let path = dir.write("k.cu", text);
    let uri = path_to_uri(&path).as_str().to_string();
    let mut client = Client::start(fake_check, &dir.path, json!({}));
    assert_eq!(codes(&client.open(&uri, text)), ["address-register-width"]);
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": { "start": { "line": 0, "character": 11 }, "end": { "line": 0, "character": 11 } }, "context": { "diagnostics": [] } }),
    );
    let suppress = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Suppress address-register-width here")
        .unwrap();
    assert_eq!(
        apply_text_edits(text, &suppress["edit"]["changes"][uri.as_str()]),
        text.replace(
            "allow(missing-volatile)",
            "allow(missing-volatile, address-register-width)"
        )
    );
    client.shutdown();
}

#[test]
fn hover_shows_the_finding_and_its_rule_docs() {
    let (dir, uri) = workspace();
    let mut client = Client::start(fake_check, &dir.path, json!({}));
    client.open(&uri, TEXT);
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 12 } }),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert_eq!(hover["contents"]["kind"], "markdown");
    assert!(value.contains("`missing-volatile` (error)"), "{value}");
    assert!(value.contains("ptxguard rule missing-volatile"), "{value}");
    assert!(value.contains("*Fix (safe):* add `volatile`"), "{value}");
    let nothing = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 0 } }),
    );
    assert!(nothing.is_null());
    client.shutdown();
}

#[test]
fn hover_on_a_placeholder_shows_its_operand() {
    let (dir, uri) = workspace();
    let mut client = Client::start(fake_check, &dir.path, json!({}));
    client.open(&uri, TEXT);
    // `%1` after the emoji: find its UTF-16 column.
    let byte = TEXT.find("%1").unwrap();
    let character: usize = TEXT[..byte].chars().map(char::len_utf16).sum();
    let hover = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": character + 1 } }),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("`%1` binds input operand 1: `\"r\"(p32)`"),
        "{value}"
    );
    assert!(value.contains("32-bit register"), "{value}");
    client.shutdown();
}

#[test]
fn configuration_changes_are_picked_up() {
    let (dir, uri) = workspace();
    let capabilities =
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let mut client = Client::start(fake_check, &dir.path, capabilities);
    // The server asks to watch configuration files.
    let registration = client
        .wait_for(|m| matches!(m, Message::Request(r) if r.method == "client/registerCapability"));
    let Message::Request(registration) = registration else {
        unreachable!()
    };
    let watchers = &registration.params["registrations"][0]["registerOptions"]["watchers"];
    assert_eq!(watchers[0]["globPattern"], "**/ptxguard.toml");

    assert_eq!(codes(&client.open(&uri, TEXT)).len(), 2);
    let config = dir.write("ptxguard.toml", "ignore = [\"address-register-width\"]\n");
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": path_to_uri(&config).as_str(), "type": 1 }] }),
    );
    assert_eq!(codes(&client.diagnostics(&uri)), ["missing-volatile"]);

    // A broken configuration: the user is told, and the defaults apply.
    dir.write("ptxguard.toml", "ignor = []\n");
    client.notify("workspace/didChangeWatchedFiles", json!({ "changes": [] }));
    let message = client
        .wait_for(|m| matches!(m, Message::Notification(n) if n.method == "window/showMessage"));
    let Message::Notification(message) = message else {
        unreachable!()
    };
    assert!(message.params["message"]
        .as_str()
        .unwrap()
        .contains("did you mean `ignore`?"));
    assert_eq!(codes(&client.diagnostics(&uri)).len(), 2);

    // Without any notification, the next check reads the file again.
    dir.write("ptxguard.toml", "ignore = [\"missing-volatile\"]\n");
    client.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(codes(&client.diagnostics(&uri)), ["address-register-width"]);
    client.shutdown();
}

#[test]
fn unknown_requests_get_an_error_and_the_server_lives_on() {
    let (dir, uri) = workspace();
    let mut client = Client::start(fake_check, &dir.path, json!({}));
    client.next_id += 1;
    let id = RequestId::from(client.next_id);
    client
        .conn
        .sender
        .send(Message::Request(Request::new(
            id.clone(),
            "textDocument/formatting".into(),
            json!({}),
        )))
        .unwrap();
    let answer = client.wait_for(|m| matches!(m, Message::Response(r) if r.id == id));
    let Message::Response(answer) = answer else {
        unreachable!()
    };
    assert!(answer.error.is_some());
    assert_eq!(codes(&client.open(&uri, TEXT)).len(), 2);
    client.shutdown();
}

#[test]
fn real_rules_reach_the_editor() {
    let dir = TestDir::new("lsp-real");
    let text = "__device__ unsigned f(unsigned* p) {\n  unsigned v;\n  unsigned p32 = (unsigned)(size_t)p;\n  asm volatile(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"r\"(p32));\n  return v;\n}\n";
    let path = dir.write("k.cu", text);
    let uri = path_to_uri(&path).as_str().to_string();
    let mut client = Client::start(ptxguard::analysis::engine_check, &dir.path, json!({}));
    assert!(codes(&client.open(&uri, text)).contains(&"address-register-width".to_string()));
    client.shutdown();
}

#[test]
fn incremental_edits_give_what_a_fresh_check_gives() {
    let dir = TestDir::new("lsp-incremental");
    let text = "__device__ unsigned f(unsigned* p) {\n  unsigned v;\n  unsigned p32 = (unsigned)(size_t)p;\n  asm volatile(\"ld.global.u32 %0, [%1];\" : \"=r\"(v) : \"r\"(p32));\n  return v;\n}\n";
    let path = dir.write("k.cu", text);
    let uri = path_to_uri(&path).as_str().to_string();
    let mut client = Client::start(ptxguard::analysis::engine_check, &dir.path, json!({}));
    let first = codes(&client.open(&uri, text));
    assert!(first.contains(&"address-register-width".to_string()));
    // Open a block comment before the asm (it swallows the statement), close it again, then
    // break the statement's string over a splice: each step re-lexes a few lines only.
    let steps: [(u32, u32, u32, u32, &str); 4] = [
        (3, 2, 3, 2, "/*"),
        (3, 4, 3, 4, "*/"),
        (3, 0, 3, 4, ""),
        (3, 28, 3, 28, "\\\n"),
    ];
    let mut current = text.to_string();
    for (k, (line, col, end_line, end_col, insert)) in steps.into_iter().enumerate() {
        let version = k as i32 + 2;
        client.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": version },
                "contentChanges": [{
                    "range": {
                        "start": { "line": line, "character": col },
                        "end": { "line": end_line, "character": end_col },
                    },
                    "text": insert,
                }],
            }),
        );
        let file = ptxguard_analyzer::SourceFile::new("k.cu", current.as_str());
        let start = file.line_start(line as usize) + col as usize;
        let end = file.line_start(end_line as usize) + end_col as usize;
        current.replace_range(start..end, insert);
        let published = client.diagnostics(&uri);
        assert_eq!(published["version"], version);
        let fresh = dir.write("fresh.cu", current.as_str());
        let mut expected: Vec<String> = ptxguard_rules::check(
            &ptxguard_analyzer::SourceFile::read(&fresh).unwrap(),
            &Default::default(),
            &Default::default(),
        )
        .into_iter()
        .filter(|d| ptxguard_rules::rule(d.rule).is_some_and(|r| r.default_enabled))
        .map(|d| d.rule.to_string())
        .collect();
        expected.sort();
        let mut got = codes(&published);
        got.sort();
        assert_eq!(got, expected, "step {k}: {current}");
        if k == 0 {
            assert!(got.is_empty(), "the comment hides the statement");
        }
    }
    client.shutdown();
}

#[test]
fn python_documents_are_checked_and_suppressed_with_hash_comments() {
    let dir = TestDir::new("lsp-python");
    let text = "import triton.language as tl\n\ndef k(C, offs):\n    return tl.inline_asm_elementwise(\"mov.u32 $0, %%laneid;\", \"=r\", [], tl.int32, False, 1)\n";
    let path = dir.write("k.py", text);
    let uri = path_to_uri(&path).as_str().to_string();
    let mut client = Client::start(ptxguard::analysis::engine_check, &dir.path, json!({}));
    assert_eq!(codes(&client.open(&uri, text)), ["percent-escape"]);
    let line =
        json!({ "start": { "line": 3, "character": 0 }, "end": { "line": 3, "character": 90 } });
    let actions = client.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": line, "context": { "diagnostics": [] } }),
    );
    let suppress = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "Suppress percent-escape here")
        .unwrap();
    let edited = apply_text_edits(text, &suppress["edit"]["changes"][uri.as_str()]);
    assert!(
        edited.contains("1)  # ptxguard: allow(percent-escape)\n")
            || edited.contains("1) # ptxguard: allow(percent-escape)\n"),
        "{edited}"
    );
    let fix = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "quickfix" && a["isPreferred"] == true)
        .unwrap();
    let fixed = apply_text_edits(text, &fix["edit"]["changes"][uri.as_str()]);
    assert!(fixed.contains("\"mov.u32 $0, %laneid;\""), "{fixed}");
    client.shutdown();
}

#[test]
fn bad_parameters_are_answered_or_ignored_and_requests_after_shutdown_refused() {
    let (dir, uri) = workspace();
    let mut client = Client::start(fake_check, &dir.path, json!({}));
    // Notifications that do not parse are ignored: a missing version, a bad URI.
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "cuda", "text": TEXT } }),
    );
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": 12, "version": 2 }, "contentChanges": [] }),
    );
    // A request with a negative position is answered with InvalidParams (-32602).
    let code = client.request_error(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": -1, "character": 0 } }),
    );
    assert_eq!(code, -32602);
    // The server still works.
    let published = client.open(&uri, TEXT);
    assert!(codes(&published).contains(&"address-register-width".to_string()));
    // After `shutdown`, requests are InvalidRequest (-32600) until `exit`.
    client.request("shutdown", Value::Null);
    let code = client.request_error(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 0 } }),
    );
    assert_eq!(code, -32600);
    client.notify("exit", Value::Null);
    client
        .server
        .take()
        .unwrap()
        .join()
        .expect("server thread ends");
}

fn panics_on_boom(
    file: &ptxguard_analyzer::SourceFile,
    context: &ptxguard_analyzer::context::AnalysisContext,
    options: &ptxguard_rules::Options,
) -> Vec<ptxguard_analyzer::Diagnostic> {
    if file.text.contains("BOOM") {
        ptxguard_analyzer::phase::enter("rule", "fake-rule");
        panic!("boom");
    }
    fake_check(file, context, options)
}

#[test]
fn a_document_whose_analysis_panics_gets_one_finding_and_the_server_lives_on() {
    let (dir, uri) = workspace();
    let mut client = Client::start(panics_on_boom, &dir.path, json!({}));
    let boom_uri = uri.replace("k.cu", "boom.cu");
    let published = client.open(&boom_uri, &format!("// BOOM\n{TEXT}"));
    assert_eq!(codes(&published), ["analysis-failed"]);
    let message = published["diagnostics"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("internal error in rule fake-rule (boom)"),
        "{message}"
    );
    let published = client.open(&uri, TEXT);
    assert!(codes(&published).contains(&"address-register-width".to_string()));
    client.shutdown();
}

/// The fake engine, except that a text with `SLOW` takes 3 s (in steps, as the real one
/// does: each rule is a phase where a cancelled check stops).
fn slow_on_slow(
    file: &ptxguard_analyzer::SourceFile,
    context: &ptxguard_analyzer::context::AnalysisContext,
    options: &ptxguard_rules::Options,
) -> Vec<ptxguard_analyzer::Diagnostic> {
    if file.text.contains("SLOW") {
        for _ in 0..300 {
            ptxguard_analyzer::phase::enter("rule", "slow-rule");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    fake_check(file, context, options)
}

#[test]
fn a_long_check_neither_blocks_requests_nor_outlives_a_newer_version() {
    let (dir, uri) = workspace();
    let mut client = Client::start(slow_on_slow, &dir.path, json!({}));
    let published = client.open(&uri, TEXT);
    assert!(codes(&published).contains(&"address-register-width".to_string()));
    let slow_uri = uri.replace("k.cu", "slow.cu");
    let started = Instant::now();
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": slow_uri, "languageId": "cuda", "version": 1, "text": format!("// SLOW\n{TEXT}") } }),
    );
    // Another document's request is answered while the slow check runs.
    let _ = client.request(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 14 } }),
    );
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
    // A newer version cancels the slow check: its diagnostics come first, for version 2.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": slow_uri, "version": 2 }, "contentChanges": [{ "text": TEXT }] }),
    );
    let published = client.diagnostics(&slow_uri);
    assert_eq!(published["version"], 2);
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
    client.shutdown();
}

#[test]
fn initialization_options_name_the_configuration_and_the_compilation_database() {
    // `redux.sync` needs sm_80: with nothing known the file is inferred to be built for a
    // target that has it; the database says sm_75.
    let dir = TestDir::new("lsp-init-options");
    let text = "__global__ void k(unsigned* out) {\n  unsigned r;\n  asm volatile(\"redux.sync.add.u32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(out[0]));\n  out[0] = r;\n}\n";
    let path = dir.write("src/k.cu", text);
    let uri = path_to_uri(&path).as_str().to_string();
    let database = json!([{
        "directory": dir.path.join("src"),
        "file": path,
        "arguments": ["nvcc", "-arch=sm_75", "-c", "k.cu"],
    }]);
    dir.write("elsewhere/db.json", database.to_string());
    // Not a name discovery finds: only the option makes it count.
    dir.write(
        "elsewhere/team.toml",
        "[severity]\narch-requirement = \"error\"\n",
    );

    let mut client = Client::start(ptxguard::analysis::engine_check, &dir.path, json!({}));
    let published = client.open(&uri, text);
    assert_eq!(codes(&published), Vec::<String>::new(), "{published}");
    client.shutdown();

    let mut client = Client::start_with_options(
        ptxguard::analysis::engine_check,
        &dir.path,
        json!({}),
        json!({ "configuration": "elsewhere/team.toml", "compileCommands": "elsewhere/db.json" }),
    );
    let published = client.open(&uri, text);
    assert_eq!(codes(&published), ["arch-requirement"], "{published}");
    // LSP severity 1 is an error: the configuration file's `[severity]` applied.
    assert_eq!(published["diagnostics"][0]["severity"], 1, "{published}");
    client.shutdown();
}

/// A header's macros decide an open document's branches, and saving the header (a document
/// the editor has not opened need not be) checks the open documents again with its new
/// macros.
#[test]
fn saving_a_header_rechecks_the_documents_that_include_it() {
    let dir = TestDir::new("lsp-header-macros");
    let header = dir.write("features.cuh", "#define USE_OLD_PATH 0\n");
    let text = "#include \"features.cuh\"\n__global__ void k() {\n#if USE_OLD_PATH\n  asm volatile(\"not.an.instruction %0;\" :: \"r\"(0));\n#endif\n}\n";
    let path = dir.write("k.cu", text);
    let uri = path_to_uri(&path).as_str().to_string();
    let mut client = Client::start(ptxguard::analysis::engine_check, &dir.path, json!({}));
    assert!(!codes(&client.open(&uri, text)).contains(&"ptx-syntax".to_string()));
    dir.write("features.cuh", "#define USE_OLD_PATH 1\n");
    client.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": path_to_uri(&header).as_str() } }),
    );
    assert!(codes(&client.diagnostics(&uri)).contains(&"ptx-syntax".to_string()));
    client.shutdown();
}

/// "Suppress here" on a statement whose line ends inside a multi-line string (a C++ raw
/// string; C++ in a Python string, where every line of the statement is inside one): the
/// allow goes on a line of its own before the string, where it is a comment, and it
/// suppresses the finding. (It used to be appended inside the string.)
#[test]
fn suppress_action_never_writes_into_a_multi_line_string() {
    let dir = TestDir::new("lsp-suppress-string");
    let cases = [
        (
            "raw.cu",
            "__device__ void f(int* p) {\n  int v;\n  asm(R\"(\n    atom.global.add.u32 %0, [%1], 1;\n  )\" : \"=r\"(v) : \"l\"(p));\n}\n",
            "  asm(R\"(",
            "  // ptxguard: allow(missing-volatile)\n  asm(R\"(",
        ),
        (
            "kernel.py",
            "import cupy as cp\nk = cp.RawKernel(r'''\nextern \"C\" __global__ void k(int* p) {\n  int v;\n  asm(\"atom.global.add.u32 %0, [%1], 1;\" : \"=r\"(v) : \"l\"(p));\n}\n''', \"k\")\n",
            "k = cp.RawKernel(r'''",
            "# ptxguard: allow(missing-volatile)\nk = cp.RawKernel(r'''",
        ),
    ];
    let mut client = Client::start(ptxguard::analysis::engine_check, &dir.path, json!({}));
    for (name, text, line, suppressed_line) in cases {
        let path = dir.write(name, text);
        let uri = path_to_uri(&path).as_str().to_string();
        let published = client.open(&uri, text);
        let finding = published["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == "missing-volatile")
            .unwrap_or_else(|| panic!("{name}: {published}"))
            .clone();
        let actions = client.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": uri }, "range": finding["range"], "context": { "diagnostics": [] } }),
        );
        let suppress = actions
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["title"] == "Suppress missing-volatile here")
            .unwrap_or_else(|| panic!("{name}: {actions}"));
        let fixed = apply_text_edits(text, &suppress["edit"]["changes"][uri.as_str()]);
        assert_eq!(fixed, text.replace(line, suppressed_line), "{name}");
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": fixed }] }),
        );
        let published = client.diagnostics(&uri);
        assert!(
            !codes(&published).contains(&"missing-volatile".to_string()),
            "{name}: {published}"
        );
        assert!(
            !codes(&published).contains(&"unused-suppression".to_string()),
            "{name}: {published}"
        );
    }
    client.shutdown();
}

/// A regenerated `compile_commands.json` is read again when the client says it changed (it
/// used to be read once, at start): the targets it names decide the findings.
/// The severities published for `uri`, in order.
fn severities(published: &Value) -> Vec<u64> {
    published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["severity"].as_u64().unwrap())
        .collect()
}

/// As `check` at the root: a finding in an inline helper is loud only where some file of the
/// workspace uses the helper; a caller written to disk counts from the next change on.
#[test]
fn a_finding_in_an_uncalled_inline_helper_is_info_until_a_workspace_file_calls_it() {
    let dir = TestDir::new("lsp-reach");
    let text = "__forceinline__ __device__ unsigned remote(unsigned a, unsigned r) {\n  unsigned v;\n  asm volatile(\"setctarank.shared.u32 %0, %1, %2;\" : \"=r\"(v) : \"r\"(a), \"r\"(r));\n  return v;\n}\n";
    let path = dir.write("include/helper.cuh", text);
    let uri = path_to_uri(&path).as_str().to_string();
    let mut client = Client::start(ptxguard::analysis::engine_check, &dir.path, json!({}));
    let published = client.open(&uri, text);
    assert_eq!(codes(&published), ["ptx-syntax"]);
    // LSP severities: 1 error, 3 information.
    assert_eq!(severities(&published), [3]);
    let caller = dir.write(
        "src/k.cu",
        "__global__ void k(unsigned* v) { v[0] = remote(v[1], v[2]); }\n",
    );
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": path_to_uri(&caller).as_str(), "type": 1 }] }),
    );
    assert_eq!(severities(&client.diagnostics(&uri)), [1]);
    // Saving the caller without the call re-checks the helper's document.
    dir.write(
        "src/k.cu",
        "__global__ void k(unsigned* v) { v[0] = v[1]; }\n",
    );
    client.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": path_to_uri(&caller).as_str() } }),
    );
    assert_eq!(severities(&client.diagnostics(&uri)), [3]);
    client.shutdown();
}

#[test]
fn a_regenerated_compilation_database_is_read_again() {
    let dir = TestDir::new("lsp-database-reload");
    let text = "__global__ void k(unsigned* out) {\n  unsigned r;\n  asm volatile(\"redux.sync.add.u32 %0, %1, 0xffffffff;\" : \"=r\"(r) : \"r\"(out[0]));\n  out[0] = r;\n}\n";
    let path = dir.write("src/k.cu", text);
    let uri = path_to_uri(&path).as_str().to_string();
    let database = |arch: &str| {
        json!([{
            "directory": dir.path.join("src"),
            "file": path,
            "arguments": ["nvcc", format!("-arch={arch}"), "-c", "k.cu"],
        }])
        .to_string()
    };
    dir.write("build/compile_commands.json", database("sm_75"));
    let capabilities =
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let mut client = Client::start(ptxguard::analysis::engine_check, &dir.path, capabilities);
    let registration = client
        .wait_for(|m| matches!(m, Message::Request(r) if r.method == "client/registerCapability"));
    let Message::Request(registration) = registration else {
        unreachable!()
    };
    let watched =
        registration.params["registrations"][0]["registerOptions"]["watchers"].to_string();
    assert!(watched.contains("**/compile_commands.json"), "{watched}");
    assert_eq!(codes(&client.open(&uri, text)), ["arch-requirement"]);
    let db = dir.write("build/compile_commands.json", database("sm_80"));
    client.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": path_to_uri(&db).as_str(), "type": 2 }] }),
    );
    assert_eq!(codes(&client.diagnostics(&uri)), Vec::<String>::new());
    client.shutdown();
}

/// `confirm` in `initializationOptions`: on save, the findings at warning or above carry the
/// evidence of the user's build (a stand-in toolkit: the atomic is deleted without `volatile`),
/// in the message and in `data.confirmation`; an edit drops it.
#[cfg(unix)]
#[test]
fn confirming_on_save_puts_the_build_evidence_on_the_findings() {
    let dir = TestDir::new("lsp-confirm");
    let nvcc = common::fake_toolkit(&dir);
    let text = "__device__ void bump(unsigned* c) {\n  unsigned old;\n  asm(\"atom.global.add.u32 %0, [%1], 1;\" : \"=r\"(old) : \"l\"(c));\n}\n__global__ void count(unsigned* c) { bump(c); }\n";
    let path = dir.write("src/k.cu", text);
    let uri = path_to_uri(&path).as_str().to_string();
    dir.write(
        "src/compile_commands.json",
        json!([{
            "directory": dir.path.join("src"),
            "file": path,
            "arguments": ["nvcc", "-arch=sm_90", "-O3", "-c", "k.cu"],
        }])
        .to_string(),
    );
    let mut client = Client::start_with_options(
        ptxguard::analysis::engine_check,
        &dir.path,
        json!({}),
        json!({ "confirm": true, "nvcc": nvcc }),
    );
    let published = client.open(&uri, text);
    assert!(
        codes(&published).contains(&"missing-volatile".to_string()),
        "{published}"
    );
    client.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": uri } }),
    );
    let confirmed = client.wait_for(|m| {
        matches!(m, Message::Notification(n) if n.method == "textDocument/publishDiagnostics"
            && n.params["diagnostics"].as_array().is_some_and(|d| d.iter().any(|d| !d["data"].is_null())))
    });
    let Message::Notification(n) = confirmed else {
        unreachable!()
    };
    let volatile = n.params["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "missing-volatile")
        .unwrap()
        .clone();
    assert_eq!(
        volatile["data"]["confirmation"]["verdict"], "bites",
        "{volatile}"
    );
    assert_eq!(
        volatile["data"]["confirmation"]["target"], "sm_90",
        "{volatile}"
    );
    assert!(
        volatile["message"]
            .as_str()
            .unwrap()
            .contains("\nbites in this build (sm_90): _Z5countPj: memory instructions without the fix vs with it: ATOM: 0 -> 1"),
        "{volatile}"
    );
    // An edit: the evidence was for the saved text.
    client.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 },
                "contentChanges": [{ "text": format!("{text}// edited\n") }] }),
    );
    let published = client.diagnostics(&uri);
    assert!(
        published["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["data"].is_null()),
        "{published}"
    );
    client.shutdown();
}
