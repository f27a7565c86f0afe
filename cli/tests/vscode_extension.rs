//! The VS Code extension (editors/vscode/) packaged by its script into a .vsix, and the
//! manifest checked: it starts `ptxguard server` for CUDA, C++ and Python, has the settings and
//! the fix-all command, carries the compiled client and its runtime dependency, and has the
//! workspace's version. A real VS Code cannot be run here (no `code` package in Debian's
//! archive, and @vscode/test-electron downloads VS Code from a Microsoft host): the protocol
//! behaviour is covered by the LSP tests and the Neovim end-to-end test. Needs node, npm and
//! unzip (SKIP without them), and the npm registry.

mod common;

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn available(tool: &str) -> bool {
    // unzip has no `--version`; `-v` prints its version.
    let flag = if tool == "unzip" { "-v" } else { "--version" };
    Command::new(tool)
        .arg(flag)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn unzip(vsix: &Path, member: &str) -> String {
    let out = Command::new("unzip")
        .arg("-p")
        .arg(vsix)
        .arg(member)
        .output()
        .unwrap();
    assert!(out.status.success(), "{member} is not in the .vsix");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_extension_packages_into_a_vsix_with_its_manifest() {
    let missing: Vec<&str> = ["node", "npm", "unzip"]
        .into_iter()
        .filter(|t| !available(t))
        .collect();
    if !missing.is_empty() {
        common::skip(
            "the_extension_packages_into_a_vsix_with_its_manifest",
            &format!(
                "{} not installed: the VS Code extension was not packaged",
                missing.join(", ")
            ),
            "PTXGUARD_REQUIRE_PACKAGING_TOOLS",
        );
        return;
    }
    // @vscode/vsce 3 needs node 20 or later.
    let node = Command::new("node").arg("--version").output().unwrap();
    let node = String::from_utf8_lossy(&node.stdout).trim().to_string();
    let major: u32 = node
        .trim_start_matches('v')
        .split('.')
        .next()
        .and_then(|m| m.parse().ok())
        .unwrap_or(0);
    if major < 20 {
        common::skip(
            "the_extension_packages_into_a_vsix_with_its_manifest",
            &format!("node {node} is older than 20: the VS Code extension was not packaged"),
            "PTXGUARD_REQUIRE_PACKAGING_TOOLS",
        );
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("vsix");
    let _ = std::fs::remove_dir_all(&out_dir);
    let start = std::time::Instant::now();
    let package = Command::new(root.join("editors/vscode/package.sh"))
        .arg(&out_dir)
        .output()
        .unwrap();
    assert!(
        package.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&package.stdout),
        String::from_utf8_lossy(&package.stderr)
    );
    eprintln!("packaged in {:.0?}", start.elapsed());
    let version = env!("CARGO_PKG_VERSION");
    let vsix = out_dir.join(format!("ptxguard-{version}.vsix"));
    assert!(vsix.is_file(), "no {}", vsix.display());

    let manifest: Value = serde_json::from_str(&unzip(&vsix, "extension/package.json")).unwrap();
    assert_eq!(manifest["version"], version);
    let activation: Vec<&str> = manifest["activationEvents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    for language in ["cuda-cpp", "cpp", "python"] {
        assert!(
            activation.contains(&format!("onLanguage:{language}").as_str()),
            "{activation:?}"
        );
    }
    let settings = &manifest["contributes"]["configuration"]["properties"];
    for key in [
        "ptxguard.path",
        "ptxguard.configuration",
        "ptxguard.compileCommands",
    ] {
        assert_eq!(settings[key]["type"], "string", "{key}");
    }
    assert_eq!(settings["ptxguard.path"]["default"], "ptxguard");
    let commands: Vec<&str> = manifest["contributes"]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["command"].as_str().unwrap())
        .collect();
    assert!(commands.contains(&"ptxguard.fixAll"), "{commands:?}");

    // The compiled client: it runs `server`, for the three languages, with the settings passed
    // as initialization options, and fix-all asks for the server's `source.fixAll.ptxguard`.
    let main = manifest["main"].as_str().unwrap().trim_start_matches("./");
    let client = unzip(&vsix, &format!("extension/{main}"));
    for needle in [
        "args: [\"server\"]",
        "[\"cuda-cpp\", \"cpp\", \"python\"]",
        "compileCommands: settingPath(config, \"compileCommands\")",
        "configuration: settingPath(config, \"configuration\")",
        "SourceFixAll.append(\"ptxguard\")",
        "require(\"vscode-languageclient/node\")",
    ] {
        assert!(client.contains(needle), "{needle} not in {main}:\n{client}");
    }
    // Its runtime dependency travels with it; the sources and the build tools do not.
    let listing = Command::new("unzip")
        .arg("-Z1")
        .arg(&vsix)
        .output()
        .unwrap();
    let listing = String::from_utf8(listing.stdout).unwrap();
    assert!(listing.contains("extension/node_modules/vscode-languageclient/package.json"));
    for absent in [
        "extension/src/",
        "node_modules/typescript/",
        "node_modules/@vscode/vsce/",
    ] {
        assert!(!listing.contains(absent), "{absent} is packaged");
    }
    // The server's fix-all kind is the one the client asks for.
    let server_kinds = std::fs::read_to_string(root.join("cli/src/lsp/actions.rs")).unwrap();
    assert!(server_kinds.contains("source.fixAll.ptxguard"));
}
