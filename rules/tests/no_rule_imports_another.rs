//! No rule reads another rule's code: what two rules share lives in `rules/src/support/`
//! (ARCHITECTURE.md, "Rules"). A rule calling another's helpers couples their findings in a
//! way neither file shows.

use std::path::Path;

#[test]
fn rules_share_code_only_through_support() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rule_files: Vec<(String, String)> = std::fs::read_dir(&src)
        .unwrap()
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_stem()?.to_str()?.to_string();
            (path.extension()? == "rs" && name != "lib")
                .then(|| (name, std::fs::read_to_string(&path).unwrap()))
        })
        .collect();
    assert!(
        rule_files.len() > 10,
        "the rules are found: {}",
        rule_files.len()
    );
    let mut found = Vec::new();
    for (name, text) in &rule_files {
        for (other, _) in &rule_files {
            if other != name && text.contains(&format!("crate::{other}::")) {
                found.push(format!("{name} uses crate::{other}::"));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
