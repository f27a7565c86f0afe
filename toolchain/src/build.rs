//! Building a file with nvcc so that every message can be traced: `nvcc FLAGS -lineinfo -c
//! --keep --keep-dir TMP FILE` keeps the generated `.ptx` files, and ptxas names the `.ptx`
//! file and line of each error.

use crate::messages::{parse_messages, Message};
use crate::toolkit::Toolkit;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Flags we remove from the user's because we set the output ourselves.
pub(crate) fn strip_output_flags(flags: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_next = false;
    for f in flags {
        if skip_next {
            skip_next = false;
            continue;
        }
        match f.as_str() {
            // The output, and the dependency file a build system asks for (nvcc would write
            // it into the user's build folder).
            "-o"
            | "--output-file"
            | "--keep-dir"
            | "-odir"
            | "--output-directory"
            | "-MF"
            | "--dependency-output"
            | "-MT"
            | "--dependency-target-name"
            | "-MQ" => {
                skip_next = true;
            }
            "-MD"
            | "-MMD"
            | "--generate-dependencies-with-compile"
            | "--generate-nonsystem-dependencies-with-compile"
            | "-M"
            | "-MM"
            | "--generate-dependencies"
            | "--generate-nonsystem-dependencies" => {}
            "-c"
            | "--compile"
            | "-ptx"
            | "--ptx"
            | "-cubin"
            | "--cubin"
            | "-fatbin"
            | "--fatbin"
            | "-E"
            | "--preprocess"
            | "-keep"
            | "--keep"
            | "-dc"
            | "-lineinfo"
            | "--generate-line-info" => {}
            s if s.starts_with("-o") && s.len() > 2 && !s.starts_with("-od") => {}
            s if s.starts_with("--output-file=")
                || s.starts_with("--keep-dir=")
                || s.starts_with("--dependency-output=")
                || s.starts_with("--dependency-target-name=") => {}
            _ => out.push(f.clone()),
        }
    }
    out
}

/// nvcc's options that name targets (each takes a value).
pub(crate) const ARCH_OPTIONS: &[&str] = &[
    "-arch",
    "--gpu-architecture",
    "-gencode",
    "--generate-code",
    "-code",
    "--gpu-code",
];

/// The SM targets the flags name (`-arch=sm_90a`, `-arch sm_80`, `-gencode arch=compute_90,
/// code=sm_90`, `--gpu-architecture=...`), as `sm_XX`: read as the build context reads a
/// compilation database's command (the virtual architectures, `arch=`), so `confirm` and
/// `check` agree on what a command line builds for.
pub fn targets_from_flags(flags: &[String]) -> Vec<String> {
    sm_targets_from_flags(flags)
        .iter()
        .map(ptxguard_analyzer::build::toolkit::target_name)
        .collect()
}

/// [`targets_from_flags`], typed (what the rules' context takes).
pub fn sm_targets_from_flags(flags: &[String]) -> Vec<ptxguard_analyzer::isa::Target> {
    let command: Vec<String> = std::iter::once("nvcc".to_string())
        .chain(flags.iter().cloned())
        .collect();
    ptxguard_analyzer::build::flags::parse_command(&command, std::path::Path::new(".")).targets
}

/// A scratch directory removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> std::io::Result<TempDir> {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!(
            "ptxguard-{tag}-{}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir)?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What one nvcc build said.
#[derive(Clone, Debug)]
pub struct Build {
    pub command: Vec<String>,
    pub success: bool,
    pub output: String,
    pub messages: Vec<Message>,
    /// The `.ptx` files nvcc kept, with their text.
    pub ptx: Vec<(PathBuf, String)>,
}

/// `nvcc FLAGS -lineinfo -c --keep --keep-dir DIR -o DIR/out.o FILE`.
pub fn build_with_nvcc(
    toolkit: &Toolkit,
    file: &Path,
    flags: &[String],
    dir: &Path,
) -> Result<Build, String> {
    let mut cmd = Command::new(&toolkit.nvcc);
    let flags = strip_output_flags(flags);
    cmd.args(&flags)
        .arg("-lineinfo")
        .arg("-c")
        .arg("--keep")
        .arg("--keep-dir")
        .arg(dir)
        .arg("-o")
        .arg(dir.join("out.o"))
        .arg(file);
    let command: Vec<String> = std::iter::once(toolkit.nvcc.display().to_string())
        .chain(cmd.get_args().map(|a| a.to_string_lossy().into_owned()))
        .collect();
    let limit = crate::process::limit();
    let out = crate::process::output_within(&mut cmd, limit)
        .map_err(|e| format!("{}: cannot run: {e}", toolkit.nvcc.display()))?
        .ok_or_else(|| crate::process::timed_out(&toolkit.nvcc, limit))?;
    let mut output = String::from_utf8_lossy(&out.stderr).into_owned();
    output.push_str(&String::from_utf8_lossy(&out.stdout));
    let messages = parse_messages(&output);
    let mut ptx = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
            .collect();
        paths.sort();
        for p in paths {
            if let Ok(text) = std::fs::read_to_string(&p) {
                ptx.push((p, text));
            }
        }
    }
    Ok(Build {
        command,
        success: out.status.success(),
        output,
        messages,
        ptx,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags() {
        let f = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            targets_from_flags(&f("-O3 -arch=sm_90a -gencode arch=compute_80,code=sm_80")),
            vec!["sm_80", "sm_90a"]
        );
        assert_eq!(targets_from_flags(&f("-arch sm_75")), vec!["sm_75"]);
        assert_eq!(
            targets_from_flags(&f(
                "--generate-code=arch=compute_90a,code=[sm_90a,compute_90a]"
            )),
            vec!["sm_90a"]
        );
        assert_eq!(
            strip_output_flags(&f("-c -o x.o -ox2.o -O3 -ptx -Iinc -odir d --keep")),
            f("-O3 -Iinc")
        );
        // CMake's Ninja commands ask for a dependency file in the build folder.
        assert_eq!(
            strip_output_flags(&f(
                "-DX -MD -MT k.o -MF k.o.d -O3 --dependency-output=k.d -M"
            )),
            f("-DX -O3")
        );
    }
}
