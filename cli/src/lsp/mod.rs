//! The language server: `ptxguard server`, LSP over stdio.
//!
//! One loop handles messages in order and analyses nothing itself: checks run on a fixed pool
//! of worker threads (`pool.rs`; a newer version of the document cancels the older check at
//! its next phase), so a long analysis never blocks other requests. The loop only stores each
//! edit; the worker that checks the document next applies the stored edits (`edits.rs`).
//! Edits schedule a check after a short quiet period (debounce), opening and saving check at
//! once; a hover or code action on a document whose check is pending or running waits for
//! that check (which jumps the pool's queue), then is answered from its results (hover) or on
//! the pool (code actions: fix-all analyses). Configuration is looked up again on every check,
//! so an edited `ptxguard.toml` applies from the next check on; a change the client reports
//! through `workspace/didChangeWatchedFiles` re-checks every open document (after the
//! debounce: a burst of notifications is one round of checks).

pub mod actions;
pub mod convert;
pub mod edits;
pub mod hover;
pub mod pool;
pub mod transport;

use crate::analysis::{self, CheckFn};
use crate::config::{ConfigLayer, CONFIG_FILE_NAMES};
use crate::settings::{ConfigSource, Resolver, Settings};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{notification, request, Uri};
use ptxguard_analyzer::context::HeaderCache;
use ptxguard_analyzer::cpp::AsmStatement;
use ptxguard_analyzer::{Diagnostic, SourceFile};
use std::collections::HashMap;
use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub type ServerResult<T> = Result<T, Box<dyn Error + Send + Sync>>;

#[derive(Clone, Copy, Debug)]
pub struct ServerOptions {
    pub check: CheckFn,
    /// Quiet time after an edit before the document is checked.
    pub debounce: Duration,
    /// Worker threads for checks and code actions.
    pub threads: usize,
}

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            check: analysis::engine_check,
            debounce: Duration::from_millis(200),
            threads: pool::Pool::default_threads(),
        }
    }
}

pub fn run_stdio() -> i32 {
    let (connection, reader) = transport::stdio();
    let result = serve(&connection, ServerOptions::default());
    drop(connection);
    // The reader may be blocked on a client that keeps stdin open: it is not waited for.
    drop(reader);
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("ptxguard server: {e}");
            1
        }
    }
}

pub fn capabilities() -> lsp_types::ServerCapabilities {
    use lsp_types::*;
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::new(actions::FIX_ALL_KIND),
            ]),
            work_done_progress_options: WorkDoneProgressOptions::default(),
            resolve_provider: None,
        })),
        ..ServerCapabilities::default()
    }
}

/// Runs the server on a connection until the client shuts it down.
pub fn serve(connection: &Connection, options: ServerOptions) -> ServerResult<()> {
    let (id, params) = connection.initialize_start()?;
    let init: lsp_types::InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": { "name": "ptxguard", "version": env!("CARGO_PKG_VERSION") },
    });
    connection.initialize_finish(id, result)?;
    let mut server = Server::new(connection, &init, options);
    server.watch_config_files(&init)?;
    server.main_loop()
}

struct Document {
    uri: Uri,
    /// The file's absolute path; for unsaved buffers, a name under the workspace root.
    path: PathBuf,
    version: i32,
    /// The text as of the last check a worker built it for, carrying its tokens.
    source: Arc<SourceFile>,
    /// How many changes (counted since the document was opened) `source` holds.
    source_changes: u64,
    /// Changes received since `source`: a worker applies them when it next checks the
    /// document ([`edits::apply_changes`]), so the message loop never copies the text.
    changes: Vec<Arc<lsp_types::TextDocumentContentChangeEvent>>,
    /// The findings and asm statements of the last check of `source` with no change after it.
    diagnostics: Arc<Vec<Diagnostic>>,
    statements: Arc<Vec<AsmStatement>>,
    /// The evidence of the last confirmation on save, by finding (rule and span), for the
    /// text it built (`None` once the document changed): re-checks of that text keep it.
    confirmed: Option<Arc<Confirmed>>,
    /// When an edit is waiting to be checked.
    due: Option<Instant>,
    /// Requests (hover, code actions) waiting for the check that makes the document current.
    waiting: Vec<Request>,
}

impl Document {
    /// Whether the findings describe the text the user sees.
    fn is_current(&self) -> bool {
        self.due.is_none() && self.changes.is_empty()
    }
}

/// How a worker finds a file's settings (read again on every check, so that edits to a
/// configuration apply from the next check on).
struct SettingsLookup {
    root: PathBuf,
    /// The client's `initializationOptions`: one configuration file for everything
    /// (`configuration`, as `--config`) and a compilation database (`compileCommands`, as
    /// `--compile-commands`). Absent: discovered as `check` discovers them.
    config_source: ConfigSource,
    compile_commands: Option<PathBuf>,
    /// The last configuration error shown, so that it is shown once, not on every check.
    last_error: std::sync::Mutex<Option<String>>,
    sender: crossbeam_channel::Sender<Message>,
    /// Whether the client named the workspace (`root` is otherwise the server's folder).
    root_given: bool,
    /// The headers read for their macros, the session's: emptied when files change on disk.
    headers: ptxguard_analyzer::context::HeaderCache,
    /// The workspace's files and which name what, for findings in functions compiled only
    /// where used (as `check` run at the root settles them): emptied with `headers`.
    tree: crate::reach::TreeIndex,
}

impl SettingsLookup {
    /// The files `check` run at the root would check; none when the client named no
    /// workspace (the server's folder is no project then).
    fn workspace_files(&self) -> Vec<PathBuf> {
        if !self.root_given {
            return Vec::new();
        }
        let overrides = ConfigLayer {
            dir: self.root.clone(),
            ..ConfigLayer::default()
        };
        let resolver = Resolver::new(self.config_source.clone(), overrides, &self.root);
        crate::walk::files_under(std::slice::from_ref(&self.root), &resolver)
    }

    fn settings_for(&self, path: &Path) -> Result<Arc<Settings>, String> {
        let overrides = ConfigLayer {
            dir: self.root.clone(),
            compile_commands: self.compile_commands.clone(),
            ..ConfigLayer::default()
        };
        let resolver = Resolver::new(self.config_source.clone(), overrides, &self.root);
        let mut last_error = self.last_error.lock().unwrap_or_else(|e| e.into_inner());
        match resolver.settings_for(path, false) {
            Ok(settings) => {
                *last_error = None;
                Ok(settings)
            }
            Err(e) => {
                let message = format!("ptxguard: {e}; using the default settings");
                if last_error.as_deref() != Some(message.as_str()) {
                    let params = lsp_types::ShowMessageParams {
                        typ: lsp_types::MessageType::ERROR,
                        message: message.clone(),
                    };
                    let _ = self.sender.send(Message::Notification(Notification::new(
                        notification::ShowMessage::METHOD.into(),
                        params,
                    )));
                    *last_error = Some(message);
                }
                let defaults =
                    Resolver::new(ConfigSource::None, ConfigLayer::default(), &self.root);
                defaults
                    .settings_for(path, false)
                    .map_err(|e| e.to_string())
            }
        }
    }
}

struct Server<'c> {
    connection: &'c Connection,
    options: ServerOptions,
    root: PathBuf,
    documents: HashMap<Uri, Document>,
    lookup: Arc<SettingsLookup>,
    next_request: i32,
    /// `shutdown` was received: requests are refused until `exit`.
    shut_down: bool,
    /// Checks queued or running on the pool, by document: setting the flag cancels one (a
    /// newer version arrived). Results come back on `done`.
    in_flight: HashMap<Uri, Arc<AtomicBool>>,
    pool: pool::Pool,
    done: (
        crossbeam_channel::Sender<CheckDone>,
        crossbeam_channel::Receiver<CheckDone>,
    ),
    /// `confirm` in `initializationOptions`: on save, each finding at warning or above is
    /// built with the file's command, without and with its fix (as `check --confirm`).
    confirm: Option<ConfirmOnSave>,
    confirmed: (
        crossbeam_channel::Sender<ConfirmDone>,
        crossbeam_channel::Receiver<ConfirmDone>,
    ),
}

/// What confirming on save needs: the toolkit (found on first use: `nvcc` in
/// `initializationOptions`, else as `confirm` finds it).
struct ConfirmOnSave {
    nvcc: Option<PathBuf>,
    toolkit: Option<Result<ptxguard_toolchain::toolkit::Toolkit, String>>,
    /// A missing toolkit was said (once).
    told: bool,
}

/// The evidence for one text.
struct Confirmed {
    text: String,
    by_finding: Vec<(
        &'static str,
        ptxguard_analyzer::Span,
        crate::emit::Confirmation,
    )>,
}

impl Confirmed {
    fn of(&self, d: &Diagnostic) -> Option<&crate::emit::Confirmation> {
        self.by_finding
            .iter()
            .find(|(rule, span, _)| *rule == d.rule && *span == d.span)
            .map(|(_, _, c)| c)
    }
}

/// A confirmation that finished on a worker: the text it built (the file on disk), the
/// findings of that text and their evidence.
struct ConfirmDone {
    uri: Uri,
    text: String,
    diagnostics: Vec<Diagnostic>,
    confirmations: Vec<Option<crate::emit::Confirmation>>,
}

/// A check that finished (or was cancelled) on a worker.
struct CheckDone {
    uri: Uri,
    /// The text with the document's first `changes` changes applied.
    source: Arc<SourceFile>,
    changes: u64,
    flag: Arc<AtomicBool>,
    /// `None` when cancelled.
    result: Option<(Vec<Diagnostic>, Vec<AsmStatement>)>,
}

/// What the message loop waits for.
enum Event {
    Message(Message),
    Done(CheckDone),
    Confirmed(ConfirmDone),
    Timeout,
    Closed,
}

impl<'c> Server<'c> {
    fn new(
        connection: &'c Connection,
        init: &lsp_types::InitializeParams,
        options: ServerOptions,
    ) -> Server<'c> {
        #[allow(deprecated, reason = "root_uri: older clients send only it")]
        let given_root = init
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .and_then(|f| convert::uri_to_path(&f.uri))
            .or_else(|| init.root_uri.as_ref().and_then(convert::uri_to_path));
        let root_given = given_root.is_some();
        let root = given_root
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("/"));
        let option_path = |key: &str| {
            init.initialization_options
                .as_ref()
                .and_then(|o| o.get(key))
                .and_then(|v| v.as_str())
                .filter(|p| !p.is_empty())
                .map(|p| root.join(p))
        };
        let config_source =
            option_path("configuration").map_or(ConfigSource::Discover, ConfigSource::Explicit);
        let compile_commands = option_path("compileCommands");
        let option = |key: &str| {
            init.initialization_options
                .as_ref()
                .and_then(|o| o.get(key))
                .cloned()
        };
        let confirm = option("confirm")
            .and_then(|v| v.as_bool())
            .unwrap_or(false)
            .then(|| ConfirmOnSave {
                nvcc: option_path("nvcc"),
                toolkit: None,
                told: false,
            });
        Server {
            connection,
            options,
            lookup: Arc::new(SettingsLookup {
                root: root.clone(),
                config_source,
                compile_commands,
                last_error: std::sync::Mutex::new(None),
                sender: connection.sender.clone(),
                root_given,
                headers: Default::default(),
                tree: Default::default(),
            }),
            root,
            documents: HashMap::new(),
            next_request: 0,
            shut_down: false,
            in_flight: HashMap::new(),
            pool: pool::Pool::new(options.threads),
            done: crossbeam_channel::unbounded(),
            confirm,
            confirmed: crossbeam_channel::unbounded(),
        }
    }

    /// Asks the client to report changes to configuration files, when it can.
    fn watch_config_files(&mut self, init: &lsp_types::InitializeParams) -> ServerResult<()> {
        let dynamic = init
            .capabilities
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|c| c.dynamic_registration)
            .unwrap_or(false);
        if !dynamic {
            return Ok(());
        }
        let watchers = CONFIG_FILE_NAMES
            .iter()
            .chain(crate::build_context::BUILD_FILE_NAMES)
            .map(|name| lsp_types::FileSystemWatcher {
                glob_pattern: lsp_types::GlobPattern::String(format!("**/{name}")),
                kind: None,
            })
            .collect();
        let registration = lsp_types::Registration {
            id: "ptxguard-config-files".into(),
            method: notification::DidChangeWatchedFiles::METHOD.into(),
            register_options: Some(serde_json::to_value(
                lsp_types::DidChangeWatchedFilesRegistrationOptions { watchers },
            )?),
        };
        self.send_request(
            request::RegisterCapability::METHOD,
            lsp_types::RegistrationParams {
                registrations: vec![registration],
            },
        )
    }

    fn send_request(&mut self, method: &str, params: impl serde::Serialize) -> ServerResult<()> {
        self.next_request += 1;
        let id = RequestId::from(format!("ptxguard-{}", self.next_request));
        self.connection
            .sender
            .send(Message::Request(Request::new(id, method.into(), params)))?;
        Ok(())
    }

    fn notify(&self, method: &str, params: impl serde::Serialize) -> ServerResult<()> {
        self.connection
            .sender
            .send(Message::Notification(Notification::new(
                method.into(),
                params,
            )))?;
        Ok(())
    }

    fn main_loop(&mut self) -> ServerResult<()> {
        loop {
            let next_due = self.documents.values().filter_map(|d| d.due).min();
            let wait = next_due.map_or(Duration::from_secs(3600), |due| {
                due.saturating_duration_since(Instant::now())
            });
            let done = self.done.1.clone();
            let confirmed = self.confirmed.1.clone();
            let event = crossbeam_channel::select! {
                recv(self.connection.receiver) -> m => m.map_or(Event::Closed, Event::Message),
                recv(done) -> d => d.map_or(Event::Timeout, Event::Done),
                recv(confirmed) -> c => c.map_or(Event::Timeout, Event::Confirmed),
                default(wait) => Event::Timeout,
            };
            match event {
                Event::Closed => return Ok(()),
                Event::Done(done) => self.finish_check(done)?,
                Event::Confirmed(c) => self.finish_confirm(c)?,
                Event::Timeout => {}
                Event::Message(Message::Request(req)) => {
                    // After `shutdown`, every request is an error until `exit` (the LSP
                    // lifecycle).
                    if self.shut_down {
                        self.respond_err(
                            req.id,
                            ErrorCode::InvalidRequest,
                            "the server is shut down".into(),
                        )?;
                        continue;
                    }
                    if req.method == request::Shutdown::METHOD {
                        self.shut_down = true;
                        let response = Response::new_ok(req.id, serde_json::Value::Null);
                        self.connection.sender.send(Message::Response(response))?;
                        continue;
                    }
                    self.handle_request(req)?;
                }
                Event::Message(Message::Notification(n)) => {
                    if n.method == notification::Exit::METHOD {
                        return Ok(());
                    }
                    if !self.shut_down {
                        self.handle_notification(n)?;
                    }
                }
                Event::Message(Message::Response(_)) => {}
            }
            self.check_due();
        }
    }

    /// Queues a check of a document on the pool, cancelling a check of an older version; the
    /// worker applies the changes received so far, reads the settings and analyses. `urgent`:
    /// a request waits for it.
    fn start_check(&mut self, uri: &Uri, urgent: bool) {
        let Some(doc) = self.documents.get_mut(uri) else {
            return;
        };
        if let Some(flag) = self.in_flight.remove(uri) {
            flag.store(true, Ordering::Relaxed);
        }
        doc.due = None;
        let flag = Arc::new(AtomicBool::new(false));
        self.in_flight.insert(uri.clone(), flag.clone());
        let base = doc.source.clone();
        let changes = doc.changes.clone();
        let changes_after = doc.source_changes + changes.len() as u64;
        let path = doc.path.clone();
        let (check, lookup, sender) =
            (self.options.check, self.lookup.clone(), self.done.0.clone());
        let uri = uri.clone();
        self.pool.spawn(
            urgent,
            Box::new(move || {
                // The changes are applied even when the check is cancelled: the next check
                // starts from this text.
                let source = if changes.is_empty() {
                    base.clone()
                } else {
                    Arc::new(edits::apply_changes(&base, &changes))
                };
                let result = if flag.load(Ordering::Relaxed) {
                    None
                } else {
                    check_on_worker(&source, &path, &lookup, check, &flag)
                };
                let _ = sender.send(CheckDone {
                    uri,
                    source,
                    changes: changes_after,
                    flag,
                    result,
                });
            }),
        );
    }

    /// Takes a worker's text, and its findings if the document is still at that text; then
    /// answers the requests that waited for them.
    fn finish_check(&mut self, done: CheckDone) -> ServerResult<()> {
        let Some(doc) = self.documents.get_mut(&done.uri) else {
            return Ok(());
        };
        // Any check, even a cancelled one, may carry the text further.
        if done.changes > doc.source_changes {
            let applied = (done.changes - doc.source_changes) as usize;
            doc.changes.drain(..applied.min(doc.changes.len()));
            doc.source = done.source.clone();
            doc.source_changes = done.changes;
        }
        let latest = self
            .in_flight
            .get(&done.uri)
            .is_some_and(|f| Arc::ptr_eq(f, &done.flag));
        if !latest {
            // Cancelled, or overtaken by a newer check.
            return Ok(());
        }
        self.in_flight.remove(&done.uri);
        let Some((diagnostics, statements)) = done.result else {
            return Ok(());
        };
        if doc.source_changes != done.changes || !doc.is_current() {
            return Ok(());
        }
        doc.diagnostics = Arc::new(diagnostics);
        doc.statements = Arc::new(statements);
        if doc
            .confirmed
            .as_ref()
            .is_some_and(|c| c.text != doc.source.text)
        {
            doc.confirmed = None;
        }
        let lsp_diagnostics = doc
            .diagnostics
            .iter()
            .map(|d| {
                let evidence = doc.confirmed.as_ref().and_then(|c| c.of(d));
                convert::confirmed_diagnostic(&doc.source, &done.uri, d, evidence)
            })
            .collect();
        let version = Some(doc.version);
        let waiting = std::mem::take(&mut doc.waiting);
        self.publish(&done.uri, lsp_diagnostics, version)?;
        for req in waiting {
            self.handle_request(req)?;
        }
        Ok(())
    }

    /// Confirming on save: the saved file is checked and its findings at warning or above
    /// are built on the pool; the evidence is published with the findings while the document
    /// still holds the saved text.
    fn start_confirm(&mut self, uri: &Uri) -> ServerResult<()> {
        let Some(confirm) = self.confirm.as_mut() else {
            return Ok(());
        };
        let toolkit = confirm.toolkit.get_or_insert_with(|| {
            ptxguard_toolchain::toolkit::find_toolkit(confirm.nvcc.as_deref())
        });
        let toolkit = match toolkit {
            Ok(t) => t.clone(),
            Err(e) => {
                if std::mem::replace(&mut confirm.told, true) {
                    return Ok(());
                }
                let message = format!("ptxguard: confirming on save needs nvcc: {e}");
                return self.notify(
                    notification::ShowMessage::METHOD,
                    lsp_types::ShowMessageParams {
                        typ: lsp_types::MessageType::WARNING,
                        message,
                    },
                );
            }
        };
        let Some(doc) = self.documents.get(uri) else {
            return Ok(());
        };
        let (path, lookup, check) = (doc.path.clone(), self.lookup.clone(), self.options.check);
        let (sender, uri) = (self.confirmed.0.clone(), uri.clone());
        self.pool.spawn(
            false,
            Box::new(move || {
                let Ok(file) = SourceFile::read(&path) else {
                    return;
                };
                let Ok(settings) = lookup.settings_for(&path) else {
                    return;
                };
                let diagnostics = analyze_text(&file, &path, &settings, &lookup.headers, check);
                let database = settings.compile_commands.as_deref();
                let confirmations = crate::confirm::confirmations(
                    &toolkit,
                    &path,
                    &file,
                    &diagnostics,
                    database,
                    Some(&settings),
                )
                .unwrap_or_default();
                let _ = sender.send(ConfirmDone {
                    uri,
                    text: file.text.clone(),
                    diagnostics,
                    confirmations,
                });
            }),
        );
        Ok(())
    }

    fn finish_confirm(&mut self, done: ConfirmDone) -> ServerResult<()> {
        let Some(doc) = self.documents.get_mut(&done.uri) else {
            return Ok(());
        };
        // Evidence for another text than the user sees is not shown.
        if !doc.is_current() || doc.source.text != done.text {
            return Ok(());
        }
        let by_finding = done
            .diagnostics
            .iter()
            .zip(done.confirmations)
            .filter_map(|(d, c)| Some((d.rule, d.span, c?)))
            .collect();
        let confirmed = Arc::new(Confirmed {
            text: done.text,
            by_finding,
        });
        let lsp_diagnostics = done
            .diagnostics
            .iter()
            .map(|d| convert::confirmed_diagnostic(&doc.source, &done.uri, d, confirmed.of(d)))
            .collect();
        doc.confirmed = Some(confirmed);
        doc.diagnostics = Arc::new(done.diagnostics);
        let version = Some(doc.version);
        self.publish(&done.uri, lsp_diagnostics, version)
    }

    fn check_due(&mut self) {
        let now = Instant::now();
        let due: Vec<Uri> = self
            .documents
            .values()
            .filter(|d| d.due.is_some_and(|t| t <= now))
            .map(|d| d.uri.clone())
            .collect();
        for uri in due {
            self.start_check(&uri, false);
        }
    }

    fn handle_notification(&mut self, n: Notification) -> ServerResult<()> {
        match n.method.as_str() {
            notification::DidOpenTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidOpenTextDocumentParams>(&n.method, n.params)
                else {
                    return Ok(());
                };
                let uri = p.text_document.uri;
                let path = self.path_of(&uri);
                // The text is lexed on the worker, with the check.
                let whole_text = lsp_types::TextDocumentContentChangeEvent {
                    range: None,
                    range_length: None,
                    text: p.text_document.text,
                };
                let document = Document {
                    source: Arc::new(SourceFile::new(path.clone(), String::new())),
                    source_changes: 0,
                    changes: vec![Arc::new(whole_text)],
                    uri: uri.clone(),
                    path,
                    version: p.text_document.version,
                    diagnostics: Arc::default(),
                    statements: Arc::default(),
                    confirmed: None,
                    due: None,
                    waiting: Vec::new(),
                };
                if let Some(old) = self.documents.insert(uri.clone(), document) {
                    self.answer_empty(old.waiting)?;
                }
                self.start_check(&uri, false);
            }
            notification::DidChangeTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidChangeTextDocumentParams>(&n.method, n.params)
                else {
                    return Ok(());
                };
                let debounce = self.options.debounce;
                if let Some(doc) = self.documents.get_mut(&p.text_document.uri) {
                    doc.changes
                        .extend(p.content_changes.into_iter().map(Arc::new));
                    doc.version = p.text_document.version;
                    doc.due = Some(Instant::now() + debounce);
                }
            }
            notification::DidSaveTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidSaveTextDocumentParams>(&n.method, n.params)
                else {
                    return Ok(());
                };
                let uri = p.text_document.uri;
                let path = convert::uri_to_path(&uri);
                let name = path
                    .as_ref()
                    .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
                let is_build_file = name
                    .as_deref()
                    .is_some_and(|n| crate::build_context::BUILD_FILE_NAMES.contains(&n));
                if is_build_file {
                    crate::build_context::forget_build_files();
                }
                let is_config = is_build_file
                    || name
                        .as_deref()
                        .is_some_and(|n| CONFIG_FILE_NAMES.contains(&n));
                // A saved header may give macros to the documents that include it.
                self.lookup.headers.forget();
                self.lookup.tree.forget();
                let is_header = path.is_some_and(|p| {
                    p.extension()
                        .and_then(|e| e.to_str())
                        .is_some_and(ptxguard_analyzer::context::targets::is_header_extension)
                });
                if is_config || is_header {
                    self.check_all();
                } else if self.documents.contains_key(&uri) {
                    self.start_check(&uri, false);
                    self.start_confirm(&uri)?;
                }
                // The saved file may now use (or no longer use) a function another open
                // document's findings are compiled only through.
                let due = Instant::now() + self.options.debounce;
                for (other, doc) in self.documents.iter_mut() {
                    if *other != uri && doc.diagnostics.iter().any(|d| d.needs_use_of.is_some()) {
                        doc.due = Some(due);
                    }
                }
            }
            notification::DidCloseTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidCloseTextDocumentParams>(&n.method, n.params)
                else {
                    return Ok(());
                };
                if let Some(flag) = self.in_flight.remove(&p.text_document.uri) {
                    flag.store(true, Ordering::Relaxed);
                }
                if let Some(doc) = self.documents.remove(&p.text_document.uri) {
                    self.answer_empty(doc.waiting)?;
                    self.publish(&p.text_document.uri, Vec::new(), None)?;
                }
            }
            notification::DidChangeWatchedFiles::METHOD
            | notification::DidChangeConfiguration::METHOD => {
                self.lookup.headers.forget();
                self.lookup.tree.forget();
                // A regenerated compile_commands.json or an edited build file.
                crate::build_context::forget_build_files();
                self.check_all();
            }
            _ => {}
        }
        Ok(())
    }

    /// Hover and code actions. On a document whose check is pending or running, the request
    /// waits for it (the answer describes the text the user sees); nothing is analysed here:
    /// hovers read the last check's findings and statements, code actions run on the pool
    /// (fix-all analyses the fixed text).
    fn handle_request(&mut self, req: Request) -> ServerResult<()> {
        let id = req.id.clone();
        match req.method.as_str() {
            request::CodeActionRequest::METHOD => {
                let p: lsp_types::CodeActionParams =
                    match serde_json::from_value(req.params.clone()) {
                        Ok(p) => p,
                        Err(e) => {
                            return self.respond_err(id, ErrorCode::InvalidParams, e.to_string())
                        }
                    };
                let uri = p.text_document.uri.clone();
                if self.wait_for_check(&uri, req) {
                    return Ok(());
                }
                let Some(doc) = self.documents.get(&uri) else {
                    return self.respond(id, serde_json::Value::Null);
                };
                let (source, diagnostics, path) = (
                    doc.source.clone(),
                    doc.diagnostics.clone(),
                    doc.path.clone(),
                );
                let (check, lookup) = (self.options.check, self.lookup.clone());
                let sender = self.connection.sender.clone();
                self.pool.spawn(
                    true,
                    Box::new(move || {
                        let response = match lookup.settings_for(&path) {
                            Ok(settings) => {
                                let analyze = |file: &SourceFile| {
                                    analyze_text(file, &path, &settings, &lookup.headers, check)
                                };
                                let range = convert::span(&source, p.range);
                                let actions = actions::code_actions(
                                    &source,
                                    &uri,
                                    &diagnostics,
                                    range,
                                    p.context.only.as_ref(),
                                    &analyze,
                                );
                                Response::new_ok(id, actions)
                            }
                            Err(e) => Response::new_err(id, ErrorCode::InternalError as i32, e),
                        };
                        let _ = sender.send(Message::Response(response));
                    }),
                );
                Ok(())
            }
            request::HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = match serde_json::from_value(req.params.clone()) {
                    Ok(p) => p,
                    Err(e) => return self.respond_err(id, ErrorCode::InvalidParams, e.to_string()),
                };
                let uri = p.text_document_position_params.text_document.uri.clone();
                if self.wait_for_check(&uri, req) {
                    return Ok(());
                }
                let hover = self
                    .documents
                    .get(&uri)
                    .and_then(|doc| hover_of(doc, p.text_document_position_params.position));
                self.respond(id, serde_json::to_value(hover)?)
            }
            _ => self.respond_err(
                id,
                ErrorCode::MethodNotFound,
                format!("ptxguard does not handle {}", req.method),
            ),
        }
    }

    /// Keeps `req` until the document's findings describe its text (starting that check now
    /// if it was only scheduled); false when they already do.
    fn wait_for_check(&mut self, uri: &Uri, req: Request) -> bool {
        let Some(doc) = self.documents.get_mut(uri) else {
            return false;
        };
        if doc.is_current() && !self.in_flight.contains_key(uri) {
            return false;
        }
        doc.waiting.push(req);
        if !self.in_flight.contains_key(uri) {
            self.start_check(uri, true);
        }
        true
    }

    /// Answers requests that can no longer be served (their document closed) with nothing.
    fn answer_empty(&self, requests: Vec<Request>) -> ServerResult<()> {
        for req in requests {
            self.respond(req.id, serde_json::Value::Null)?;
        }
        Ok(())
    }

    fn respond(&self, id: RequestId, value: serde_json::Value) -> ServerResult<()> {
        let response = Response::new_ok(id, value);
        self.connection.sender.send(Message::Response(response))?;
        Ok(())
    }

    fn respond_err(&self, id: RequestId, code: ErrorCode, message: String) -> ServerResult<()> {
        let response = Response::new_err(id, code as i32, message);
        self.connection.sender.send(Message::Response(response))?;
        Ok(())
    }

    fn path_of(&self, uri: &Uri) -> PathBuf {
        convert::uri_to_path(uri).unwrap_or_else(|| {
            // An unsaved buffer: name it under the root, keeping a CUDA-looking name.
            let name = uri
                .as_str()
                .rsplit(['/', ':'])
                .next()
                .filter(|n| !n.is_empty())
                .unwrap_or("untitled.cu");
            self.root.join(name)
        })
    }

    /// Schedules every open document for a check after the debounce: a burst of
    /// notifications (a checkout touching many watched files) costs one round of checks.
    fn check_all(&mut self) {
        let due = Instant::now() + self.options.debounce;
        for doc in self.documents.values_mut() {
            doc.due = Some(due);
        }
    }

    fn publish(
        &self,
        uri: &Uri,
        diagnostics: Vec<lsp_types::Diagnostic>,
        version: Option<i32>,
    ) -> ServerResult<()> {
        self.notify(
            notification::PublishDiagnostics::METHOD,
            lsp_types::PublishDiagnosticsParams {
                uri: uri.clone(),
                diagnostics,
                version,
            },
        )
    }
}

/// The hover at `position` from the document's last check.
fn hover_of(doc: &Document, position: lsp_types::Position) -> Option<lsp_types::Hover> {
    let offset = convert::offset(&doc.source, position);
    let parts: Vec<String> = [
        hover::placeholder_hover(&doc.source, &doc.statements, offset),
        hover::diagnostics_hover(&doc.diagnostics, offset),
    ]
    .into_iter()
    .flatten()
    .collect();
    if parts.is_empty() {
        return None;
    }
    Some(lsp_types::Hover {
        contents: lsp_types::HoverContents::Markup(lsp_types::MarkupContent {
            kind: lsp_types::MarkupKind::Markdown,
            value: parts.join("\n\n---\n\n"),
        }),
        range: None,
    })
}

/// One check on a worker: the settings, the findings (none for an excluded file) and the asm
/// statements hovers read. `None` when cancelled.
fn check_on_worker(
    source: &SourceFile,
    path: &Path,
    lookup: &SettingsLookup,
    check: CheckFn,
    flag: &Arc<AtomicBool>,
) -> Option<(Vec<Diagnostic>, Vec<AsmStatement>)> {
    let settings = match lookup.settings_for(path) {
        Ok(settings) => settings,
        Err(e) => {
            eprintln!("ptxguard server: {e}");
            return Some((Vec::new(), Vec::new()));
        }
    };
    ptxguard_analyzer::phase::cancel_with(Some(flag.clone()));
    let diagnostics = if settings.is_excluded(path, false) {
        Ok(Vec::new())
    } else {
        analyze_isolated(source, path, &settings, &lookup.headers, check)
    };
    let mut diagnostics = match diagnostics {
        Ok(d) => d,
        Err(ptxguard_analyzer::phase::Failure::Cancelled) => {
            ptxguard_analyzer::phase::cancel_with(None);
            return None;
        }
        Err(failure) => analysis::failure_report(&path.to_string_lossy(), &failure).diagnostics,
    };
    ptxguard_analyzer::reach::settle([(path, &mut diagnostics)], |questions| {
        lookup
            .tree
            .uses_elsewhere(questions, || lookup.workspace_files())
    });
    let statements = if analysis::may_hold_asm(path, source.text.as_bytes()) {
        ptxguard_analyzer::phase::isolate(None, || hover::statements(source))
    } else {
        Ok(Vec::new())
    };
    ptxguard_analyzer::phase::cancel_with(None);
    match statements {
        Ok(statements) => Some((diagnostics, statements)),
        Err(ptxguard_analyzer::phase::Failure::Cancelled) => None,
        Err(_) => Some((diagnostics, Vec::new())),
    }
}

/// A notification's parameters; `None` (logged, and the notification ignored, as the LSP
/// says for notifications) when they do not parse: a negative position, a missing `version`,
/// a bad URI.
fn params<T: serde::de::DeserializeOwned>(method: &str, value: serde_json::Value) -> Option<T> {
    match serde_json::from_value(value) {
        Ok(p) => Some(p),
        Err(e) => {
            eprintln!("ptxguard server: {method}: ignored, bad parameters: {e}");
            None
        }
    }
}

/// What the CLI would report for this text.
fn analyze_text(
    file: &SourceFile,
    path: &Path,
    settings: &Settings,
    headers: &HeaderCache,
    check: CheckFn,
) -> Vec<Diagnostic> {
    // As in `check`: a panic or a spent budget is one `analysis-failed` finding, and the
    // server lives on.
    analyze_isolated(file, path, settings, headers, check).unwrap_or_else(|failure| {
        analysis::failure_report(&path.to_string_lossy(), &failure).diagnostics
    })
}

fn analyze_isolated(
    file: &SourceFile,
    path: &Path,
    settings: &Settings,
    headers: &HeaderCache,
    check: CheckFn,
) -> Result<Vec<Diagnostic>, ptxguard_analyzer::phase::Failure> {
    if !analysis::may_hold_asm(path, file.text.as_bytes()) {
        return Ok(Vec::new());
    }
    ptxguard_analyzer::phase::isolate(Some(ptxguard_analyzer::phase::DEFAULT_BUDGET), || {
        analysis::analyze(file, path, settings, headers, check)
    })
}
