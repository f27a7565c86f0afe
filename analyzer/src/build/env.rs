//! Target lists from the environment: CMake's `CUDAARCHS` and PyTorch's
//! `TORCH_CUDA_ARCH_LIST`.

use crate::isa::Target;

/// A list read from the environment: its targets, and one line for each entry not understood.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnvTargets {
    pub targets: Vec<Target>,
    pub notes: Vec<String>,
}

/// `CUDAARCHS` (the default of `CMAKE_CUDA_ARCHITECTURES`): `80;90a`, `80-real;90-virtual`.
/// `native`, `all` and `all-major` cannot be resolved statically: a note, no target.
pub fn cudaarchs(value: &str) -> EnvTargets {
    let mut out = EnvTargets::default();
    for entry in value
        .split([';', ' ', ','])
        .map(str::trim)
        .filter(|e| !e.is_empty())
    {
        let arch = entry
            .strip_suffix("-real")
            .or_else(|| entry.strip_suffix("-virtual"))
            .unwrap_or(entry);
        match arch {
            "native" | "all" | "all-major" => out.notes.push(format!(
                "CUDAARCHS=`{arch}` depends on the machine or toolkit that builds: its targets are not known here"
            )),
            _ => match numeric_target(arch) {
                Some(t) => out.targets.push(t),
                None => out
                    .notes
                    .push(format!("CUDAARCHS: `{entry}` is not a CUDA architecture")),
            },
        }
    }
    out.targets.sort_by_key(|t| (t.sm, t.suffix));
    out.targets.dedup();
    out
}

/// `TORCH_CUDA_ARCH_LIST`: `8.0 9.0a+PTX`, `8.0;8.6`, or architecture names (`Ampere`).
pub fn torch_cuda_arch_list(value: &str) -> EnvTargets {
    let mut out = EnvTargets::default();
    for entry in value
        .split([';', ' ', ','])
        .map(str::trim)
        .filter(|e| !e.is_empty())
    {
        let arch = entry.strip_suffix("+PTX").unwrap_or(entry);
        let named: &[u16] = match arch.to_ascii_lowercase().as_str() {
            "kepler" => &[35, 37],
            "maxwell" => &[50, 52],
            "pascal" => &[60, 61],
            "volta" => &[70],
            "turing" => &[75],
            "ampere" => &[80, 86],
            "ada" => &[89],
            "hopper" => &[90],
            _ => &[],
        };
        if !named.is_empty() {
            out.targets
                .extend(named.iter().map(|&sm| Target { sm, suffix: None }));
            continue;
        }
        // `9.0a`: major.minor, then the suffix.
        let parsed = arch.split_once('.').and_then(|(major, rest)| {
            let digits = rest.trim_end_matches(['a', 'f']);
            let suffix = rest[digits.len()..].chars().next();
            let major: u16 = major.parse().ok()?;
            let minor: u16 = digits.parse().ok().filter(|m| *m < 10)?;
            (rest.len() - digits.len() <= 1).then_some(Target {
                sm: major * 10 + minor,
                suffix,
            })
        });
        match parsed {
            Some(t) => out.targets.push(t),
            None => out.notes.push(format!(
                "TORCH_CUDA_ARCH_LIST: `{entry}` is not an architecture (write it like `8.0` or `9.0a+PTX`)"
            )),
        }
    }
    out.targets.sort_by_key(|t| (t.sm, t.suffix));
    out.targets.dedup();
    out
}

/// `90a`, `100f`, `80`.
fn numeric_target(s: &str) -> Option<Target> {
    let digits = s.trim_end_matches(['a', 'f']);
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || s.len() - digits.len() > 1
    {
        return None;
    }
    Target::parse(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::toolkit::target_name;

    fn names(e: &EnvTargets) -> Vec<String> {
        e.targets.iter().map(target_name).collect()
    }

    #[test]
    fn torch_lists() {
        assert_eq!(
            names(&torch_cuda_arch_list("8.0 9.0a+PTX")),
            ["sm_80", "sm_90a"]
        );
        assert_eq!(
            names(&torch_cuda_arch_list("7.5;8.6;10.0f")),
            ["sm_75", "sm_86", "sm_100f"]
        );
        assert_eq!(names(&torch_cuda_arch_list("Ampere")), ["sm_80", "sm_86"]);
        let bad = torch_cuda_arch_list("8.0 sm_90 9.x");
        assert_eq!(names(&bad), ["sm_80"]);
        assert_eq!(bad.notes.len(), 2, "{:?}", bad.notes);
    }

    #[test]
    fn cudaarchs_lists() {
        assert_eq!(
            names(&cudaarchs("80;90a-real;100f-virtual")),
            ["sm_80", "sm_90a", "sm_100f"]
        );
        let native = cudaarchs("native");
        assert!(native.targets.is_empty() && native.notes[0].contains("native"));
        assert_eq!(cudaarchs("8.0").notes.len(), 1);
    }
}
