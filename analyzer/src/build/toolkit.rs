//! CUDA toolkits: which PTX ISA version each one emits and which targets it compiles for.
//!
//! Sources (checked when this table was written): NVIDIA's PTX ISA release history (PTX ISA
//! 8.5 shipped with CUDA 12.5 and is still the one 12.6 emits, 8.6 with 12.7, 8.7 with 12.8,
//! 8.8 with 12.9, 9.0 with 13.0, 9.1 with 13.1) and the PTX ISA version each target first
//! needs (LLVM's NVPTX target list: `sm_90a` 8.0, `sm_100`/`sm_101` 8.6, `sm_120` 8.7, the `f`
//! targets, `sm_103` and `sm_121` 8.8, `sm_88` and `sm_110` 9.0). CUDA 13.0 dropped every
//! target below `sm_75` and renamed `sm_101` to `sm_110`; CUDA 12 starts at `sm_50`.

use crate::isa::Target;

/// A CUDA toolkit version: `(13, 0)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CudaVersion {
    pub major: u16,
    pub minor: u16,
}

impl CudaVersion {
    /// The toolkit whose behaviour ptxguard measured (nvcc 13.0): the default.
    pub const DEFAULT: CudaVersion = CudaVersion {
        major: 13,
        minor: 0,
    };

    /// `12.6`, `12.6.3`, `13`.
    pub fn parse(s: &str) -> Option<CudaVersion> {
        let mut parts = s.trim().split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = match parts.next() {
            Some(m) => m.parse().ok()?,
            None => 0,
        };
        if parts.next().is_some_and(|p| p.parse::<u32>().is_err()) || parts.next().is_some() {
            return None;
        }
        Some(CudaVersion { major, minor })
    }

    /// The PTX ISA version this toolkit emits, x10 (`85` is 8.5). Versions newer than the
    /// table's last row emit at least that row's version.
    pub fn ptx_isa(self) -> u16 {
        PTX_ISA_BY_CUDA
            .iter()
            .rev()
            .find(|(v, _)| self >= *v)
            .map_or(60, |(_, ptx)| *ptx)
    }

    /// Whether this toolkit compiles for `t` (an `a`/`f` suffix included).
    pub fn supports(self, t: &Target) -> bool {
        let Some(&(_, ptx, ptx_a, ptx_f)) = TARGETS.iter().find(|(sm, ..)| *sm == t.sm) else {
            return false;
        };
        let needed = match t.suffix {
            None => ptx,
            Some('a') => ptx_a,
            Some('f') => ptx_f,
            Some(_) => 0,
        };
        if needed == 0 || self.ptx_isa() < needed {
            return false;
        }
        let oldest = if self.major >= 13 {
            75
        } else if self.major == 12 {
            50
        } else {
            35
        };
        // CUDA 13.0 renamed sm_101 to sm_110.
        t.sm >= oldest && !(t.sm == 101 && self.major >= 13)
    }

    /// Every target this toolkit compiles for, without suffix.
    pub fn plain_targets(self) -> Vec<Target> {
        TARGETS
            .iter()
            .map(|&(sm, ..)| Target { sm, suffix: None })
            .filter(|t| self.supports(t))
            .collect()
    }

    /// Every target this toolkit compiles for, with each one's `a` and `f` forms.
    pub fn all_targets(self) -> Vec<Target> {
        TARGETS
            .iter()
            .flat_map(|&(sm, ..)| [None, Some('a'), Some('f')].map(|suffix| Target { sm, suffix }))
            .filter(|t| self.supports(t))
            .collect()
    }
}

impl std::fmt::Display for CudaVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The first CUDA release of each PTX ISA version (x10).
const PTX_ISA_BY_CUDA: &[(CudaVersion, u16)] = &[
    (v(11, 0), 70),
    (v(11, 1), 71),
    (v(11, 2), 72),
    (v(11, 3), 73),
    (v(11, 4), 74),
    (v(11, 5), 75),
    (v(11, 6), 76),
    (v(11, 7), 77),
    (v(11, 8), 78),
    (v(12, 0), 80),
    (v(12, 1), 81),
    (v(12, 2), 82),
    (v(12, 3), 83),
    (v(12, 4), 84),
    (v(12, 5), 85),
    (v(12, 7), 86),
    (v(12, 8), 87),
    (v(12, 9), 88),
    (v(13, 0), 90),
    (v(13, 1), 91),
];

const fn v(major: u16, minor: u16) -> CudaVersion {
    CudaVersion { major, minor }
}

/// Each real target with the PTX ISA version (x10) it first needs plain, with `a` and with
/// `f` (0: that form does not exist).
const TARGETS: &[(u16, u16, u16, u16)] = &[
    (35, 32, 0, 0),
    (37, 41, 0, 0),
    (50, 40, 0, 0),
    (52, 41, 0, 0),
    (53, 42, 0, 0),
    (60, 50, 0, 0),
    (61, 50, 0, 0),
    (62, 50, 0, 0),
    (70, 60, 0, 0),
    (72, 61, 0, 0),
    (75, 63, 0, 0),
    (80, 70, 0, 0),
    (86, 71, 0, 0),
    (87, 74, 0, 0),
    (88, 90, 0, 0),
    (89, 78, 0, 0),
    (90, 78, 80, 0),
    (100, 86, 86, 88),
    (101, 86, 86, 88),
    (103, 88, 88, 88),
    (110, 90, 90, 90),
    (120, 87, 87, 88),
    (121, 88, 88, 88),
];

/// A target name for messages: `sm_90a`.
pub fn target_name(t: &Target) -> String {
    match t.suffix {
        Some(c) => format!("sm_{}{c}", t.sm),
        None => format!("sm_{}", t.sm),
    }
}

/// Whether some toolkit ptxguard knows compiles for `t` (`sm_999` is nothing).
pub fn is_known_target(t: &Target) -> bool {
    CudaVersion::parse("99.0").is_some_and(|newest| newest.supports(t))
        || (t.sm == 101 && CudaVersion::parse("12.9").is_some_and(|v| v.supports(t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Target {
        Target::parse(s).unwrap()
    }

    #[test]
    fn ptx_isa_by_toolkit() {
        assert_eq!(CudaVersion::parse("12.6").unwrap().ptx_isa(), 85);
        assert_eq!(CudaVersion::parse("12.7").unwrap().ptx_isa(), 86);
        assert_eq!(CudaVersion::parse("12.8.1").unwrap().ptx_isa(), 87);
        assert_eq!(CudaVersion::DEFAULT.ptx_isa(), 90);
        assert_eq!(CudaVersion::parse("13").unwrap(), CudaVersion::DEFAULT);
        assert!(CudaVersion::parse("twelve").is_none());
    }

    #[test]
    fn targets_by_toolkit() {
        let v13 = CudaVersion::DEFAULT;
        let names: Vec<String> = v13.plain_targets().iter().map(target_name).collect();
        assert_eq!(
            names,
            [
                "sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90", "sm_100", "sm_103",
                "sm_110", "sm_120", "sm_121"
            ]
        );
        let v126 = CudaVersion::parse("12.6").unwrap();
        assert!(v126.supports(&t("sm_90a")) && v126.supports(&t("sm_70")));
        assert!(!v126.supports(&t("sm_100a")) && !v126.supports(&t("sm_90f")));
        assert!(!v13.supports(&t("sm_70")) && !v13.supports(&t("sm_101")));
        assert!(CudaVersion::parse("12.9").unwrap().supports(&t("sm_100f")));
        assert!(is_known_target(&t("sm_101a")) && !is_known_target(&t("sm_999")));
        assert!(!is_known_target(&t("sm_90f")));
    }
}
