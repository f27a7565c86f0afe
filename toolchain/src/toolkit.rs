//! Finding the CUDA toolkit: nvcc, and ptxas and cuobjdump beside it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A CUDA toolkit found on this machine.
#[derive(Clone, Debug)]
pub struct Toolkit {
    pub nvcc: PathBuf,
    /// `ptxas` beside nvcc, if there.
    pub ptxas: Option<PathBuf>,
    /// `cuobjdump` beside nvcc, if there.
    pub cuobjdump: Option<PathBuf>,
    /// `13.0.88`, from `nvcc --version`.
    pub version: String,
}

fn is_file(p: &Path) -> bool {
    p.is_file()
}

/// The first `name` on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_file(p))
}

/// Finds nvcc: `explicit`, then PATH, `$CUDA_HOME`, `$CUDA_PATH`, `/usr/local/cuda`.
pub fn find_toolkit(explicit: Option<&Path>) -> Result<Toolkit, String> {
    let nvcc = match explicit {
        Some(p) => {
            if !is_file(p) {
                return Err(format!("{}: no such file", p.display()));
            }
            // Absolute: the builds run in the compilation database's directories.
            std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
        }
        None => {
            let mut candidates: Vec<PathBuf> = which("nvcc").into_iter().collect();
            for var in ["CUDA_HOME", "CUDA_PATH"] {
                if let Some(home) = std::env::var_os(var) {
                    candidates.push(PathBuf::from(home).join("bin/nvcc"));
                }
            }
            candidates.push(PathBuf::from("/usr/local/cuda/bin/nvcc"));
            candidates.into_iter().find(|p| is_file(p)).ok_or_else(|| {
                "no CUDA toolkit found: nvcc is not on PATH, and not in $CUDA_HOME/bin, \
                 $CUDA_PATH/bin or /usr/local/cuda/bin"
                    .to_string()
            })?
        }
    };
    let dir = nvcc.parent().map(Path::to_path_buf).unwrap_or_default();
    let beside = |name: &str| {
        let p = dir.join(name);
        if is_file(&p) {
            Some(p)
        } else {
            which(name)
        }
    };
    let out = Command::new(&nvcc)
        .arg("--version")
        .output()
        .map_err(|e| format!("{}: cannot run: {e}", nvcc.display()))?;
    let version = parse_nvcc_version(&String::from_utf8_lossy(&out.stdout))
        .unwrap_or_else(|| "unknown".to_string());
    Ok(Toolkit {
        ptxas: beside("ptxas"),
        cuobjdump: beside("cuobjdump"),
        nvcc,
        version,
    })
}

/// `13.0.88` from nvcc's `Cuda compilation tools, release 13.0, V13.0.88`.
pub fn parse_nvcc_version(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.contains("release"))?;
    if let Some(v) = line
        .rsplit(", V")
        .next()
        .filter(|v| v.starts_with(char::is_numeric))
    {
        return Some(v.trim().to_string());
    }
    let rel = line.split("release ").nth(1)?;
    Some(rel.split(',').next()?.trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_nvcc_version() {
        assert_eq!(
            parse_nvcc_version("nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\nBuild cuda_13.0\n"),
            Some("13.0.88".into())
        );
    }
}
