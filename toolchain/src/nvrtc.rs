//! Building with NVRTC (through cudarc, loaded at run time) when nvcc is not installed.
//!
//! NVRTC compiles device code only: it has no host compiler and no C++ standard library, so a
//! file with host code (`main`, kernel launches, `<vector>`) stops at the front end. Headers and
//! device-only sources build. Each target is compiled twice, as nvcc would: for `compute_XX`
//! (front end to PTX, kept with `-lineinfo` so each inline asm block has its `.loc`) and for
//! `sm_XX` (NVRTC's own ptxas, whose messages name `application ptx input` and are re-pointed
//! at the kept PTX).

use crate::build::{targets_from_flags, Build, ARCH_OPTIONS};
use crate::messages::{parse_messages, Tool};
use cudarc::nvrtc::sys as rtc;
use std::ffi::CString;
use std::path::Path;

/// Whether the NVRTC library can be loaded.
pub fn nvrtc_available() -> bool {
    // SAFETY: only tries to dlopen the library.
    unsafe { rtc::is_culib_present() }
}

/// `13.0`.
pub fn nvrtc_version() -> Option<String> {
    if !nvrtc_available() {
        return None;
    }
    let (mut major, mut minor) = (0, 0);
    // SAFETY: two out-pointers to ints.
    let r = unsafe { rtc::nvrtcVersion(&mut major, &mut minor) };
    (r == rtc::nvrtcResult::NVRTC_SUCCESS).then(|| format!("{major}.{minor}"))
}

/// What NVRTC made of a source.
#[derive(Clone, Debug, Default)]
pub struct NvrtcOutput {
    pub success: bool,
    pub log: String,
    /// PTX (for `compute_XX`) or nothing.
    pub ptx: Option<String>,
    /// CUBIN (for `sm_XX`) or nothing.
    pub cubin: Option<Vec<u8>>,
}

/// Text NVRTC hands back as C characters, up to its terminating NUL.
fn c_text(chars: &[std::ffi::c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .map(|&c| c as u8)
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Compiles `source` with NVRTC for `arch` (`compute_90` gives PTX, `sm_90` a CUBIN, which runs
/// NVRTC's ptxas).
pub fn nvrtc_compile(
    source: &str,
    name: &str,
    arch: &str,
    extra: &[String],
) -> Result<NvrtcOutput, String> {
    if !nvrtc_available() {
        return Err("NVRTC (libnvrtc) not found".into());
    }
    let src = CString::new(source).map_err(|_| "source has a NUL byte".to_string())?;
    let cname = CString::new(name).unwrap_or_else(|_| CString::new("case.cu").unwrap());
    let prog = cudarc::nvrtc::result::create_program(&src, Some(&cname))
        .map_err(|e| format!("nvrtcCreateProgram: {e:?}"))?;
    let mut opts: Vec<String> = vec![
        format!("--gpu-architecture={arch}"),
        "--std=c++17".into(),
        // nvcc takes __int128 on Linux; NVRTC only with this flag.
        "--device-int128".into(),
    ];
    opts.extend(extra.iter().cloned());
    // SAFETY: prog was just created and is destroyed below, once.
    let compiled = unsafe { cudarc::nvrtc::result::compile_program(prog, &opts) };
    // SAFETY: as above.
    let log = unsafe { cudarc::nvrtc::result::get_program_log(prog) }
        .map(|v| c_text(&v))
        .unwrap_or_default();
    let mut out = NvrtcOutput {
        success: compiled.is_ok(),
        log,
        ..Default::default()
    };
    if out.success {
        if arch.starts_with("compute_") {
            // SAFETY: as above.
            if let Ok(v) = unsafe { cudarc::nvrtc::result::get_ptx(prog) } {
                out.ptx = Some(c_text(&v));
            }
        } else {
            let mut size = 0usize;
            // SAFETY: out-pointer, then a buffer of that size.
            unsafe {
                if rtc::nvrtcGetCUBINSize(prog, &mut size) == rtc::nvrtcResult::NVRTC_SUCCESS {
                    let mut buf = vec![0u8; size];
                    if rtc::nvrtcGetCUBIN(prog, buf.as_mut_ptr() as *mut _)
                        == rtc::nvrtcResult::NVRTC_SUCCESS
                    {
                        out.cubin = Some(buf);
                    }
                }
            }
        }
    }
    // SAFETY: destroyed once.
    let _ = unsafe { cudarc::nvrtc::result::destroy_program(prog) };
    Ok(out)
}

/// Minimal `<cstdint>`, `<stdint.h>`, `<cstddef>`, `<stddef.h>` for NVRTC (which ships no C++
/// standard library headers): the fixed-width integer types, `size_t`, `ptrdiff_t`.
pub fn write_shim_headers(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let ints = "#pragma once\n\
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long long int64_t;\n\
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;\n\
typedef unsigned long long uint64_t; typedef long long intptr_t; typedef unsigned long long uintptr_t;\n\
namespace std { using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t; using ::uint8_t;\n\
using ::uint16_t; using ::uint32_t; using ::uint64_t; using ::intptr_t; using ::uintptr_t; }\n";
    let sizes = "#pragma once\n\
typedef decltype(sizeof(0)) size_t; typedef decltype((char*)0 - (char*)0) ptrdiff_t;\n\
namespace std { using ::size_t; using ::ptrdiff_t; }\n";
    for (name, body) in [
        ("cstdint", ints),
        ("stdint.h", ints),
        ("cstddef", sizes),
        ("stddef.h", sizes),
    ] {
        std::fs::write(dir.join(name), body)?;
    }
    Ok(())
}

/// An nvcc command line sorted for NVRTC: the options it takes and those it does not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NvrtcFlags {
    pub pass: Vec<String>,
    /// nvcc options with no NVRTC meaning (`-O3`, `-Xcompiler ...`, `-c`, `-o FILE`).
    pub ignored: Vec<String>,
}

/// Options besides [`ARCH_OPTIONS`] that take the next argument when not written with `=` or
/// glued.
const WITH_VALUE: &[&str] = &[
    "-I",
    "--include-path",
    "-D",
    "--define-macro",
    "-U",
    "--undefine-macro",
    "-include",
    "--pre-include",
    "-o",
    "--output-file",
    "-Xcompiler",
    "--compiler-options",
    "-Xptxas",
    "--ptxas-options",
    "-ccbin",
    "--compiler-bindir",
    "-x",
    "-maxrregcount",
];

/// Sorts nvcc flags for NVRTC. Architecture options are left out: targets come from
/// [`targets_from_flags`].
pub fn nvrtc_flags(flags: &[String]) -> NvrtcFlags {
    let mut out = NvrtcFlags::default();
    let mut i = 0;
    while i < flags.len() {
        let f = flags[i].as_str();
        let (name, value, used) =
            if (WITH_VALUE.contains(&f) || ARCH_OPTIONS.contains(&f)) && i + 1 < flags.len() {
                (f, Some(flags[i + 1].as_str()), 2)
            } else if let Some(v) = ["-I", "-D", "-U"]
                .iter()
                .find_map(|p| f.strip_prefix(p).filter(|v| !v.is_empty()))
            {
                (&f[..2], Some(v), 1)
            } else if let Some((k, v)) = f.split_once('=').filter(|(k, _)| k.starts_with('-')) {
                (k, Some(v), 1)
            } else {
                (f, None, 1)
            };
        let original = flags[i..i + used].join(" ");
        i += used;
        let short = name.trim_start_matches('-');
        if ARCH_OPTIONS
            .iter()
            .any(|o| o.trim_start_matches('-') == short)
        {
            continue;
        }
        let passed = match (short, value) {
            ("I" | "include-path", Some(v)) => Some(format!("-I{v}")),
            ("D" | "define-macro", Some(v)) => Some(format!("-D{v}")),
            ("U" | "undefine-macro", Some(v)) => Some(format!("-U{v}")),
            ("include" | "pre-include", Some(v)) => Some(format!("--pre-include={v}")),
            ("std", Some(v)) => Some(format!("--std={v}")),
            ("Xptxas" | "ptxas-options", Some(v)) => Some(format!("--ptxas-options={v}")),
            ("maxrregcount", Some(v)) => Some(format!("--maxrregcount={v}")),
            ("rdc" | "relocatable-device-code", Some(v)) => {
                Some(format!("--relocatable-device-code={v}"))
            }
            ("ftz" | "prec-div" | "prec-sqrt" | "fmad", Some(v)) => Some(format!("--{short}={v}")),
            ("use_fast_math" | "use-fast-math", None) => Some("--use_fast_math".into()),
            ("G" | "device-debug", None) => Some("--device-debug".into()),
            ("lineinfo" | "generate-line-info", None) => None, // always added
            ("expt-relaxed-constexpr", None) => Some("--expt-relaxed-constexpr".into()),
            ("extended-lambda" | "expt-extended-lambda", None) => Some("--extended-lambda".into()),
            _ => {
                out.ignored.push(original);
                continue;
            }
        };
        out.pass.extend(passed);
    }
    out
}

/// The target NVRTC builds for when the flags name none: nvcc 13's default.
pub const DEFAULT_TARGET: &str = "sm_75";

/// Builds `file` (its `text`) with NVRTC for every target the flags name, keeping the PTX in
/// `dir`.
pub fn build_with_nvrtc(
    file: &Path,
    text: &str,
    flags: &[String],
    dir: &Path,
) -> Result<Build, String> {
    let sorted = nvrtc_flags(flags);
    let mut options = sorted.pass.clone();
    options.push("-lineinfo".into());
    // nvcc finds `#include "x.h"` beside the file; NVRTC only on its include path.
    if let Some(parent) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
        options.push(format!("-I{}", parent.display()));
    }
    let shim = dir.join("nvrtc-include");
    if write_shim_headers(&shim).is_ok() {
        options.push(format!("-I{}", shim.display()));
    }
    let mut targets = targets_from_flags(flags);
    if targets.is_empty() {
        targets.push(DEFAULT_TARGET.to_string());
    }
    let name = file.display().to_string();
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".into());
    let mut build = Build {
        command: std::iter::once("nvrtc".to_string())
            .chain(options.iter().cloned())
            .chain(targets.iter().map(|t| format!("--gpu-architecture={t}")))
            .chain(std::iter::once(name.clone()))
            .collect(),
        success: true,
        output: String::new(),
        messages: Vec::new(),
        ptx: Vec::new(),
    };
    for target in &targets {
        let num = target.trim_start_matches("sm_");
        let front = nvrtc_compile(text, &name, &format!("compute_{num}"), &options)?;
        build.output.push_str(&front.log);
        build
            .messages
            .extend(parse_messages(&front.log).into_iter().map(|mut m| {
                if m.tool == Tool::FrontEnd {
                    m.tool = Tool::Nvrtc;
                }
                m
            }));
        let Some(ptx) = front.ptx.filter(|_| front.success) else {
            build.success = false;
            continue;
        };
        let ptx_path = dir.join(format!("{stem}.compute_{num}.ptx"));
        std::fs::write(&ptx_path, &ptx)
            .map_err(|e| format!("{}: cannot write: {e}", ptx_path.display()))?;
        let assembled = nvrtc_compile(text, &name, &format!("sm_{num}"), &options)?;
        build.output.push_str(&assembled.log);
        build.success &= assembled.success;
        // The front end's messages were read from the first compile.
        build.messages.extend(
            parse_messages(&assembled.log)
                .into_iter()
                .filter(|m| m.tool == Tool::Ptxas)
                .map(|mut m| {
                    if m.line.is_some() {
                        m.file = Some(ptx_path.display().to_string());
                    }
                    m
                }),
        );
        build.ptx.push((ptx_path, ptx));
    }
    Ok(build)
}

/// What stops NVRTC before the asm statements, read from its log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NvrtcLimit {
    /// Host code (`<<<...>>>`, host-only features): `... is not allowed in JIT mode`.
    HostCode,
    /// A header NVRTC cannot find (the C++ standard library, system headers).
    MissingHeader,
}

impl NvrtcLimit {
    pub fn of(log: &str) -> Option<NvrtcLimit> {
        // A missing header is named first: it stops NVRTC before anything else matters.
        if log.contains("cannot open source file") {
            Some(NvrtcLimit::MissingHeader)
        } else if log.contains("is not allowed in JIT mode") {
            Some(NvrtcLimit::HostCode)
        } else {
            None
        }
    }
}

/// Why an NVRTC build could not reach the asm statements, when NVRTC's limits stopped it.
pub fn nvrtc_limit(build: &Build) -> Option<String> {
    NvrtcLimit::of(&build.output).map(|_| {
        "NVRTC builds device code only (no host compiler, no C++ standard library); \
         install nvcc to build whole files"
            .to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sorts_nvcc_flags_for_nvrtc() {
        let f = nvrtc_flags(&strings(&[
            "-arch=sm_90a",
            "-gencode",
            "arch=compute_80,code=sm_80",
            "-O3",
            "-Iinclude",
            "-I",
            "third_party",
            "--include-path=x",
            "-DN=4",
            "-std=c++20",
            "-Xcompiler",
            "-fPIC",
            "--use_fast_math",
            "-lineinfo",
            "-o",
            "k.o",
            "-Xptxas=-v",
        ]));
        assert_eq!(
            f.pass,
            strings(&[
                "-Iinclude",
                "-Ithird_party",
                "-Ix",
                "-DN=4",
                "--std=c++20",
                "--use_fast_math",
                "--ptxas-options=-v",
            ])
        );
        assert_eq!(f.ignored, strings(&["-O3", "-Xcompiler -fPIC", "-o k.o"]));
    }

    #[test]
    fn names_nvrtc_limits() {
        let b = Build {
            command: vec![],
            success: false,
            output: "k.cu(9): error: this feature is not allowed in JIT mode\n".into(),
            messages: vec![],
            ptx: vec![],
        };
        assert!(nvrtc_limit(&b).unwrap().contains("device code only"));
        let ok = Build {
            output: "k.cu(9): error: identifier \"x\" is undefined\n".into(),
            ..b
        };
        assert_eq!(nvrtc_limit(&ok), None);
        assert_eq!(
            NvrtcLimit::of("k.cu(1): catastrophic error: cannot open source file \"vector\""),
            Some(NvrtcLimit::MissingHeader)
        );
    }
}
