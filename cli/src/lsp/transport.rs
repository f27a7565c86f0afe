//! LSP over stdio, tolerant where `lsp-server`'s own transport is not: a message whose body
//! is not JSON, not UTF-8 or not a JSON-RPC message is logged and skipped instead of ending
//! the server. Only a broken frame (no `Content-Length`, end of input) ends it, since the
//! stream cannot be resynchronised then.

use lsp_server::{Connection, Message};
use std::io::{BufRead, Write};

/// The server's connection over stdin/stdout, and the reader thread.
pub fn stdio() -> (Connection, std::thread::JoinHandle<()>) {
    let (to_server, from_client) = crossbeam_channel::bounded::<Message>(0);
    let (to_client, from_server) = crossbeam_channel::bounded::<Message>(0);
    std::thread::spawn(move || {
        let stdout = std::io::stdout();
        let mut stdout = stdout.lock();
        for message in from_server {
            if message.write(&mut stdout).is_err() {
                break;
            }
            let _ = stdout.flush();
        }
    });
    let reader = std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut stdin = stdin.lock();
        while let Some(message) = read_message(&mut stdin, &mut std::io::stderr()) {
            if to_server.send(message).is_err() {
                break;
            }
        }
    });
    (
        Connection {
            sender: to_client,
            receiver: from_client,
        },
        reader,
    )
}

/// The next well-formed message; `None` at the end of input or on a broken frame. Bodies
/// that do not parse are reported on `log` and skipped.
pub fn read_message(input: &mut dyn BufRead, log: &mut dyn Write) -> Option<Message> {
    loop {
        let body = read_frame(input)?;
        let parsed = std::str::from_utf8(&body)
            .map_err(|e| format!("the body is not UTF-8 ({e})"))
            .and_then(|text| {
                serde_json::from_str::<serde_json::Value>(text)
                    .map_err(|e| format!("the body is not JSON ({e})"))
            })
            .and_then(|value| {
                // Only an object is a message (serde would read `[1, 2]` as a response).
                if !value.is_object() {
                    return Err("the body is not a JSON object".into());
                }
                serde_json::from_value::<Message>(value)
                    .map_err(|e| format!("the body is not a JSON-RPC message ({e})"))
            });
        match parsed {
            Ok(message) => return Some(message),
            Err(why) => {
                let _ = writeln!(log, "ptxguard server: message skipped: {why}");
            }
        }
    }
}

/// The body of one `Content-Length` frame.
fn read_frame(input: &mut dyn BufRead) -> Option<Vec<u8>> {
    let mut length: Option<usize> = None;
    loop {
        let mut line = Vec::new();
        if input.read_until(b'\n', &mut line).ok()? == 0 {
            return None;
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
    }
    // A frame larger than any document the analysis accepts is not read into memory.
    let length = length.filter(|&n| n <= 2 * ptxguard_analyzer::source::MAX_FILE_BYTES)?;
    let mut body = vec![0; length];
    input.read_exact(&mut body).ok()?;
    Some(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &[u8]) -> Vec<u8> {
        let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
        out.extend_from_slice(body);
        out
    }

    #[test]
    fn bad_bodies_are_skipped_and_the_next_message_read() {
        let mut input = Vec::new();
        input.extend(frame(b"{not json"));
        input.extend(frame(b"{\"jsonrpc\":\"2.0\",\"method\":\"x\xff\"}"));
        input.extend(frame(b"[1, 2]"));
        input.extend(frame(
            br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
        ));
        let mut log = Vec::new();
        let mut reader = std::io::Cursor::new(input);
        let message = read_message(&mut reader, &mut log).expect("the good message");
        assert!(matches!(message, Message::Notification(n) if n.method == "initialized"));
        let log = String::from_utf8(log).unwrap();
        assert_eq!(log.matches("message skipped").count(), 3, "{log}");
        assert!(log.contains("not UTF-8"), "{log}");
        // The end of input ends the stream.
        assert!(read_message(&mut reader, &mut Vec::new()).is_none());
    }

    #[test]
    fn a_broken_frame_ends_the_stream() {
        let mut reader = std::io::Cursor::new(b"Content-Type: x\r\n\r\n{}".to_vec());
        assert!(read_message(&mut reader, &mut Vec::new()).is_none());
    }
}
