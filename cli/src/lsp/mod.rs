//! The language server: `ptxguard server`, LSP over stdio.
//!
//! One loop handles messages in order; checks run on worker threads (a newer version of the
//! document cancels the older check at its next phase), so a long analysis never blocks
//! other requests. Edits schedule a check after a short quiet period (debounce), opening and
//! saving check at once; a request on a document whose check is pending or running checks it
//! on the spot. Configuration is looked up again
//! on every check, so an edited `ptxguard.toml` applies from the next check on; a change the
//! client reports through `workspace/didChangeWatchedFiles` re-checks every open document.

pub mod actions;
pub mod convert;
pub mod hover;
pub mod transport;

use crate::analysis::{self, CheckFn};
use crate::config::{ConfigLayer, CONFIG_FILE_NAMES};
use crate::settings::{ConfigSource, Resolver, Settings};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{notification, request, Uri};
use ptxguard_analyzer::cpp::lexer::Lexed;
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
}

impl Default for ServerOptions {
    fn default() -> ServerOptions {
        ServerOptions {
            check: analysis::engine_check,
            debounce: Duration::from_millis(200),
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
    /// The text, carrying its tokens: each edit re-lexes only the lines around it.
    source: Arc<SourceFile>,
    diagnostics: Vec<Diagnostic>,
    /// When an edit is waiting to be checked.
    due: Option<Instant>,
    /// The engine's asm statements for hovers, computed on the first hover after a change.
    statements: Option<Arc<Vec<AsmStatement>>>,
}

struct Server<'c> {
    connection: &'c Connection,
    options: ServerOptions,
    root: PathBuf,
    documents: HashMap<Uri, Document>,
    last_config_error: Option<String>,
    next_request: i32,
    /// `shutdown` was received: requests are refused until `exit`.
    shut_down: bool,
    /// The client's `initializationOptions`: one configuration file for everything
    /// (`configuration`, as `--config`) and a compilation database (`compileCommands`, as
    /// `--compile-commands`). Absent: discovered as `check` discovers them.
    config_source: ConfigSource,
    compile_commands: Option<PathBuf>,
    /// Checks running on worker threads, by document: setting the flag cancels one (a newer
    /// version arrived). Results come back on `done`.
    in_flight: HashMap<Uri, Arc<AtomicBool>>,
    done: (
        crossbeam_channel::Sender<CheckDone>,
        crossbeam_channel::Receiver<CheckDone>,
    ),
}

/// A check that finished on a worker thread.
struct CheckDone {
    uri: Uri,
    /// The text it checked: published only if the document still holds it.
    source: Arc<SourceFile>,
    flag: Arc<AtomicBool>,
    /// `None` when cancelled.
    diagnostics: Option<Vec<Diagnostic>>,
}

/// What the message loop waits for.
enum Event {
    Message(Message),
    Done(CheckDone),
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
        let root = init
            .workspace_folders
            .as_ref()
            .and_then(|f| f.first())
            .and_then(|f| convert::uri_to_path(&f.uri))
            .or_else(|| init.root_uri.as_ref().and_then(convert::uri_to_path))
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
        Server {
            connection,
            options,
            config_source,
            compile_commands,
            root,
            documents: HashMap::new(),
            last_config_error: None,
            next_request: 0,
            shut_down: false,
            in_flight: HashMap::new(),
            done: crossbeam_channel::unbounded(),
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
            let event = crossbeam_channel::select! {
                recv(self.connection.receiver) -> m => m.map_or(Event::Closed, Event::Message),
                recv(done) -> d => d.map_or(Event::Timeout, Event::Done),
                default(wait) => Event::Timeout,
            };
            match event {
                Event::Closed => return Ok(()),
                Event::Done(done) => self.finish_check(done)?,
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
            self.check_due()?;
        }
    }

    /// Starts checking a document on a worker thread, cancelling a check of an older version;
    /// the message loop goes on answering meanwhile.
    fn start_check(&mut self, uri: &Uri) -> ServerResult<()> {
        let Some(path) = self.documents.get(uri).map(|d| d.path.clone()) else {
            return Ok(());
        };
        let settings = self.settings_for(&path)?;
        if let Some(flag) = self.in_flight.remove(uri) {
            flag.store(true, Ordering::Relaxed);
        }
        if settings.is_excluded(&path, false) {
            return self.check_and_publish(uri);
        }
        let Some(doc) = self.documents.get_mut(uri) else {
            return Ok(());
        };
        doc.due = None;
        let flag = Arc::new(AtomicBool::new(false));
        self.in_flight.insert(uri.clone(), flag.clone());
        let (source, check) = (doc.source.clone(), self.options.check);
        let sender = self.done.0.clone();
        let uri = uri.clone();
        std::thread::spawn(move || {
            ptxguard_analyzer::phase::cancel_with(Some(flag.clone()));
            let diagnostics = match analyze_isolated(&source, &path, &settings, check) {
                Ok(d) => Some(d),
                Err(ptxguard_analyzer::phase::Failure::Cancelled) => None,
                Err(failure) => {
                    Some(analysis::failure_report(&path.to_string_lossy(), &failure).diagnostics)
                }
            };
            let _ = sender.send(CheckDone {
                uri,
                source,
                flag,
                diagnostics,
            });
        });
        Ok(())
    }

    /// Publishes a worker's result if the document still holds the text it checked.
    fn finish_check(&mut self, done: CheckDone) -> ServerResult<()> {
        if self
            .in_flight
            .get(&done.uri)
            .is_some_and(|f| Arc::ptr_eq(f, &done.flag))
        {
            self.in_flight.remove(&done.uri);
        } else {
            // Cancelled, or overtaken by a check on the spot: not the latest.
            return Ok(());
        }
        let Some(diagnostics) = done.diagnostics else {
            return Ok(());
        };
        let Some(doc) = self.documents.get_mut(&done.uri) else {
            return Ok(());
        };
        if !Arc::ptr_eq(&doc.source, &done.source) || doc.due.is_some() {
            return Ok(());
        }
        doc.diagnostics = diagnostics;
        let lsp_diagnostics = doc
            .diagnostics
            .iter()
            .map(|d| convert::diagnostic(&doc.source, &done.uri, d))
            .collect();
        let version = Some(doc.version);
        self.publish(&done.uri, lsp_diagnostics, version)
    }

    fn check_due(&mut self) -> ServerResult<()> {
        let now = Instant::now();
        let due: Vec<Uri> = self
            .documents
            .values()
            .filter(|d| d.due.is_some_and(|t| t <= now))
            .map(|d| d.uri.clone())
            .collect();
        for uri in due {
            self.start_check(&uri)?;
        }
        Ok(())
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
                let text = p.text_document.text;
                let lexed = Arc::new(Lexed::new(&text));
                let document = Document {
                    source: Arc::new(SourceFile::new(path.clone(), text).with_lexed(lexed)),
                    uri: uri.clone(),
                    path,
                    version: p.text_document.version,
                    diagnostics: Vec::new(),
                    due: None,
                    statements: None,
                };
                self.documents.insert(uri.clone(), document);
                self.start_check(&uri)?;
            }
            notification::DidChangeTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidChangeTextDocumentParams>(&n.method, n.params)
                else {
                    return Ok(());
                };
                let debounce = self.options.debounce;
                if let Some(doc) = self.documents.get_mut(&p.text_document.uri) {
                    let mut text = doc.source.text.clone();
                    let mut lexed = doc.source.lexed().cloned();
                    for change in p.content_changes {
                        let (next, edit) = apply_change(&doc.path, text, change);
                        lexed = match (lexed, edit) {
                            (Some(old), Some((start, old_end, new_end))) => {
                                Some(Arc::new(old.edit(&next, start, old_end, new_end)))
                            }
                            _ => Some(Arc::new(Lexed::new(&next))),
                        };
                        text = next;
                    }
                    let mut source = SourceFile::new(doc.path.clone(), text);
                    if let Some(lexed) = lexed {
                        source = source.with_lexed(lexed);
                    }
                    doc.source = Arc::new(source);
                    doc.version = p.text_document.version;
                    doc.due = Some(Instant::now() + debounce);
                    doc.statements = None;
                }
            }
            notification::DidSaveTextDocument::METHOD => {
                let Some(p) = params::<lsp_types::DidSaveTextDocumentParams>(&n.method, n.params)
                else {
                    return Ok(());
                };
                let uri = p.text_document.uri;
                let path = convert::uri_to_path(&uri);
                let is_config = path
                    .as_ref()
                    .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                    .is_some_and(|n| CONFIG_FILE_NAMES.contains(&n.as_str()));
                // A saved header may give macros to the documents that include it.
                ptxguard_rules::targets::forget_headers();
                let is_header = path.is_some_and(|p| {
                    p.extension()
                        .and_then(|e| e.to_str())
                        .is_some_and(ptxguard_rules::targets::is_header_extension)
                });
                if is_config || is_header {
                    self.check_all()?;
                } else if self.documents.contains_key(&uri) {
                    self.start_check(&uri)?;
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
                if self.documents.remove(&p.text_document.uri).is_some() {
                    self.publish(&p.text_document.uri, Vec::new(), None)?;
                }
            }
            notification::DidChangeWatchedFiles::METHOD
            | notification::DidChangeConfiguration::METHOD => {
                ptxguard_rules::targets::forget_headers();
                self.check_all()?;
            }
            _ => {}
        }
        Ok(())
    }

    fn handle_request(&mut self, req: Request) -> ServerResult<()> {
        let id = req.id.clone();
        let result = match req.method.as_str() {
            request::CodeActionRequest::METHOD => {
                let p: lsp_types::CodeActionParams = match serde_json::from_value(req.params) {
                    Ok(p) => p,
                    Err(e) => return self.respond_err(id, ErrorCode::InvalidParams, e.to_string()),
                };
                self.code_actions(p)
                    .map(|a| serde_json::to_value(a).expect("actions serialize"))
            }
            request::HoverRequest::METHOD => {
                let p: lsp_types::HoverParams = match serde_json::from_value(req.params) {
                    Ok(p) => p,
                    Err(e) => return self.respond_err(id, ErrorCode::InvalidParams, e.to_string()),
                };
                self.hover(p)
                    .map(|h| serde_json::to_value(h).expect("hover serializes"))
            }
            _ => {
                let response = Response::new_err(
                    id,
                    ErrorCode::MethodNotFound as i32,
                    format!("ptxguard does not handle {}", req.method),
                );
                self.connection.sender.send(Message::Response(response))?;
                return Ok(());
            }
        };
        let response = match result {
            Ok(value) => Response::new_ok(id, value),
            Err(e) => Response::new_err(id, ErrorCode::InternalError as i32, e.to_string()),
        };
        self.connection.sender.send(Message::Response(response))?;
        Ok(())
    }

    fn respond_err(&self, id: RequestId, code: ErrorCode, message: String) -> ServerResult<()> {
        let response = Response::new_err(id, code as i32, message);
        self.connection.sender.send(Message::Response(response))?;
        Ok(())
    }

    /// Requests read the document as the user sees it: a pending check runs first.
    fn fresh(&mut self, uri: &Uri) -> ServerResult<Option<&Document>> {
        let pending = self.documents.get(uri).is_some_and(|d| d.due.is_some());
        if pending || self.in_flight.contains_key(uri) {
            if let Some(flag) = self.in_flight.remove(uri) {
                flag.store(true, Ordering::Relaxed);
            }
            self.check_and_publish(uri)?;
        }
        Ok(self.documents.get(uri))
    }

    fn code_actions(
        &mut self,
        p: lsp_types::CodeActionParams,
    ) -> ServerResult<Vec<lsp_types::CodeActionOrCommand>> {
        let uri = p.text_document.uri;
        let settings = match self.documents.get(&uri) {
            Some(doc) => self.settings_for(&doc.path.clone())?,
            None => return Ok(Vec::new()),
        };
        let check = self.options.check;
        let Some(doc) = self.fresh(&uri)? else {
            return Ok(Vec::new());
        };
        let path = doc.path.clone();
        let analyze = |file: &SourceFile| analyze_text(file, &path, &settings, check);
        let range = convert::span(&doc.source, p.range);
        Ok(actions::code_actions(
            &doc.source,
            &uri,
            &doc.diagnostics,
            range,
            p.context.only.as_ref(),
            &analyze,
        ))
    }

    fn hover(&mut self, p: lsp_types::HoverParams) -> ServerResult<Option<lsp_types::Hover>> {
        let uri = p.text_document_position_params.text_document.uri;
        if self.fresh(&uri)?.is_none() {
            return Ok(None);
        }
        let Some(doc) = self.documents.get_mut(&uri) else {
            return Ok(None);
        };
        let statements = doc
            .statements
            .get_or_insert_with(|| Arc::new(hover::statements(&doc.source)))
            .clone();
        let offset = convert::offset(&doc.source, p.text_document_position_params.position);
        let parts: Vec<String> = [
            hover::placeholder_hover(&doc.source, &statements, offset),
            hover::diagnostics_hover(&doc.diagnostics, offset),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            return Ok(None);
        }
        Ok(Some(lsp_types::Hover {
            contents: lsp_types::HoverContents::Markup(lsp_types::MarkupContent {
                kind: lsp_types::MarkupKind::Markdown,
                value: parts.join("\n\n---\n\n"),
            }),
            range: None,
        }))
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

    /// Reads the configuration again, so that edits to it apply from the next check on.
    fn settings_for(&mut self, path: &Path) -> ServerResult<Arc<Settings>> {
        let overrides = ConfigLayer {
            dir: self.root.clone(),
            compile_commands: self.compile_commands.clone(),
            ..ConfigLayer::default()
        };
        let resolver = Resolver::new(self.config_source.clone(), overrides, &self.root);
        match resolver.settings_for(path, false) {
            Ok(settings) => {
                self.last_config_error = None;
                Ok(settings)
            }
            Err(e) => {
                let message = format!("ptxguard: {e}; using the default settings");
                if self.last_config_error.as_deref() != Some(message.as_str()) {
                    self.notify(
                        notification::ShowMessage::METHOD,
                        lsp_types::ShowMessageParams {
                            typ: lsp_types::MessageType::ERROR,
                            message: message.clone(),
                        },
                    )?;
                    self.last_config_error = Some(message);
                }
                let defaults =
                    Resolver::new(ConfigSource::None, ConfigLayer::default(), &self.root);
                Ok(defaults
                    .settings_for(path, false)
                    .map_err(|e| e.to_string())?)
            }
        }
    }

    fn check_all(&mut self) -> ServerResult<()> {
        let uris: Vec<Uri> = self.documents.keys().cloned().collect();
        for uri in uris {
            self.start_check(&uri)?;
        }
        Ok(())
    }

    fn check_and_publish(&mut self, uri: &Uri) -> ServerResult<()> {
        let Some(path) = self.documents.get(uri).map(|d| d.path.clone()) else {
            return Ok(());
        };
        let settings = self.settings_for(&path)?;
        let check = self.options.check;
        let Some(doc) = self.documents.get_mut(uri) else {
            return Ok(());
        };
        doc.due = None;
        doc.diagnostics = if settings.is_excluded(&path, false) {
            Vec::new()
        } else {
            analyze_text(&doc.source, &path, &settings, check)
        };
        let lsp_diagnostics = doc
            .diagnostics
            .iter()
            .map(|d| convert::diagnostic(&doc.source, uri, d))
            .collect();
        let version = Some(doc.version);
        self.publish(uri, lsp_diagnostics, version)
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
    check: CheckFn,
) -> Vec<Diagnostic> {
    // As in `check`: a panic or a spent budget is one `analysis-failed` finding, and the
    // server lives on.
    analyze_isolated(file, path, settings, check).unwrap_or_else(|failure| {
        analysis::failure_report(&path.to_string_lossy(), &failure).diagnostics
    })
}

fn analyze_isolated(
    file: &SourceFile,
    path: &Path,
    settings: &Settings,
    check: CheckFn,
) -> Result<Vec<Diagnostic>, ptxguard_analyzer::phase::Failure> {
    if !analysis::may_hold_asm(path, file.text.as_bytes()) {
        return Ok(Vec::new());
    }
    ptxguard_analyzer::phase::isolate(Some(ptxguard_analyzer::phase::DEFAULT_BUDGET), || {
        analysis::analyze(file, path, settings, check)
    })
}

/// Applies one content change (a range in UTF-16 positions, or the whole text); for a range,
/// also where it was: the replaced bytes `start..old_end`, now `start..new_end`.
fn apply_change(
    path: &Path,
    text: String,
    change: lsp_types::TextDocumentContentChangeEvent,
) -> (String, Option<(usize, usize, usize)>) {
    let Some(range) = change.range else {
        return (change.text, None);
    };
    let file = SourceFile::new(path, text);
    let span = convert::span(&file, range);
    let mut text = file.text;
    text.replace_range(span.range(), &change.text);
    let start = span.start as usize;
    (
        text,
        Some((start, span.end as usize, start + change.text.len())),
    )
}
