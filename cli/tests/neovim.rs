//! End-to-end with a real editor: headless Neovim attached to `ptxguard server`.
//! Runs when `nvim` is on PATH (`.ci/install-neovim.sh` installs it); skips visibly otherwise.

mod common;

use common::TestDir;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn nvim_available() -> bool {
    Command::new("nvim")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Opens `file` in a headless Neovim with ptxguard as its language server
/// (`tests/nvim/run.sh`) and returns what Neovim received: diagnostics and a hover.
fn run_neovim(dir: &TestDir, file: &Path) -> Value {
    let out = dir.join("out.json");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/nvim/run.sh");
    let status = Command::new("sh")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_ptxguard"))
        .arg(file)
        .arg(&out)
        .current_dir(&dir.path)
        .status()
        .expect("run.sh runs");
    assert!(status.success(), "run.sh failed: {status}");
    serde_json::from_str(&std::fs::read_to_string(&out).expect("nvim wrote its result")).unwrap()
}

#[test]
fn neovim_receives_diagnostics_and_hover() {
    if !nvim_available() {
        common::skip(
            "neovim_receives_diagnostics_and_hover",
            "nvim is not on PATH (run .ci/install-neovim.sh)",
            "PTXGUARD_REQUIRE_NVIM",
        );
        return;
    }
    let dir = TestDir::new("nvim");
    // Non-ASCII before the finding on its line: Neovim maps UTF-16 positions to bytes.
    let line = "/* é😀 */ int x; // ptxguard: allow(no-such-rule)";
    let file = dir.write(
        "sample.cu",
        format!("// Neovim end-to-end sample (no asm statement)\n{line}\n"),
    );
    let result = run_neovim(&dir, &file);
    assert_eq!(result["timed_out"], false, "{result}");
    let diagnostics = result["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 1, "{result}");
    let d = &diagnostics[0];
    assert_eq!(d["source"], "ptxguard");
    assert_eq!(d["code"], "unused-suppression");
    assert_eq!(d["lnum"], 1);
    // Neovim's columns are bytes: it converted our UTF-16 position exactly.
    assert_eq!(
        d["col"].as_u64().unwrap() as usize,
        line.find("no-such-rule").unwrap(),
        "{result}"
    );
    let hover = result["hover"].as_str().unwrap_or_default();
    assert!(hover.contains("unused-suppression"), "{result}");
}

#[test]
fn neovim_checks_python_documents() {
    if !nvim_available() {
        common::skip(
            "neovim_checks_python_documents",
            "nvim is not on PATH (run .ci/install-neovim.sh)",
            "PTXGUARD_REQUIRE_NVIM",
        );
        return;
    }
    let dir = TestDir::new("nvim-python");
    // Non-ASCII before the call on its line: the columns of both findings go through UTF-16.
    let line = "    é = '😀'; tl.inline_asm_elementwise(\"atom.global.add.u32 $0, [$1], 1;\", \"=r,l\", [C + offs * 0], tl.int32, True, 1)";
    let file = dir.write(
        "kernel.py",
        format!("import triton.language as tl\n\ndef k(C, offs):\n{line}\n"),
    );
    let result = run_neovim(&dir, &file);
    assert_eq!(result["timed_out"], false, "{result}");
    let diagnostics = result["diagnostics"].as_array().unwrap();
    let column = |code: &str| {
        diagnostics
            .iter()
            .find(|d| d["code"] == code && d["lnum"] == 3)
            .and_then(|d| d["col"].as_u64())
            .map(|c| c as usize)
    };
    // Neovim's columns are bytes: it converted our UTF-16 positions exactly.
    assert_eq!(
        column("missing-volatile"),
        line.find("tl.inline_asm_elementwise"),
        "{result}"
    );
    assert_eq!(
        column("elementwise-side-effect"),
        line.find("atom.global.add.u32"),
        "{result}"
    );
    let hover = result["hover"].as_str().unwrap_or_default();
    assert!(
        hover.contains("missing-volatile") || hover.contains("elementwise-side-effect"),
        "{result}"
    );
}
