//! NVRTC and the CUDA driver through cudarc, loaded at run time: nothing here needs CUDA to
//! build, and every entry point first checks that the library is there.
//!
//! Kernels are launched in a child process (`gpu-tests exec`), so a fault or a hang costs that
//! process only: a faulted CUDA context cannot be used again.

use crate::header::{Arg, Init, Launch, Value};
use cudarc::driver::sys as cu;
use std::collections::BTreeMap;
use std::ffi::{c_void, CStr, CString};

pub use ptxguard_toolchain::nvrtc::{nvrtc_available, nvrtc_compile, nvrtc_version, NvrtcOutput};

/// Whether the CUDA driver library can be loaded.
pub fn driver_available() -> bool {
    // SAFETY: only tries to dlopen the library.
    unsafe { cu::is_culib_present() }
}

/// The GPU and driver.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct DeviceInfo {
    pub name: String,
    /// `sm_90`.
    pub sm: String,
    /// `13.0` (the CUDA version the driver supports).
    pub driver_cuda: String,
}

fn check(r: cu::CUresult, what: &str) -> Result<(), String> {
    if r == cu::CUresult::CUDA_SUCCESS {
        return Ok(());
    }
    let mut p: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: out-pointer to a static string.
    let name = unsafe {
        if cu::cuGetErrorName(r, &mut p) == cu::CUresult::CUDA_SUCCESS && !p.is_null() {
            CStr::from_ptr(p).to_string_lossy().into_owned()
        } else {
            format!("{r:?}")
        }
    };
    Err(format!("{what}: {name}"))
}

/// Initialises the driver and reads device 0.
pub fn device_info() -> Result<DeviceInfo, String> {
    if !driver_available() {
        return Err("no CUDA driver (libcuda not found)".into());
    }
    // SAFETY: plain driver calls with out-pointers.
    unsafe {
        check(cu::cuInit(0), "cuInit")?;
        let mut dev = 0;
        check(cu::cuDeviceGet(&mut dev, 0), "cuDeviceGet")?;
        let mut name = [0 as std::ffi::c_char; 256];
        check(
            cu::cuDeviceGetName(name.as_mut_ptr(), 256, dev),
            "cuDeviceGetName",
        )?;
        let (mut major, mut minor) = (0, 0);
        check(
            cu::cuDeviceGetAttribute(
                &mut major,
                cu::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                dev,
            ),
            "cuDeviceGetAttribute",
        )?;
        check(
            cu::cuDeviceGetAttribute(
                &mut minor,
                cu::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                dev,
            ),
            "cuDeviceGetAttribute",
        )?;
        let mut v = 0;
        check(cu::cuDriverGetVersion(&mut v), "cuDriverGetVersion")?;
        Ok(DeviceInfo {
            name: CStr::from_ptr(name.as_ptr()).to_string_lossy().into_owned(),
            sm: format!("sm_{major}{minor}"),
            driver_cuda: format!("{}.{}", v / 1000, (v % 1000) / 10),
        })
    }
}

/// What a launch did (printed as JSON by the child).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum RunResult {
    /// Ran to the end; the buffers read back.
    Finished {
        buffers: BTreeMap<String, Vec<String>>,
    },
    /// The launch or the synchronisation failed (illegal address, trap...).
    Fault { error: String },
    /// Did not finish within the time limit (the child was killed).
    Hang,
    /// The module did not load (the JIT rejected the PTX) or the kernel is missing.
    LoadError { error: String, log: String },
    /// Anything else (no driver, out of memory...).
    HarnessError { error: String },
}

impl RunResult {
    /// The values of a buffer, parsed.
    pub fn buffer(&self, name: &str) -> Option<Vec<Value>> {
        match self {
            RunResult::Finished { buffers } => buffers
                .get(name)
                .map(|v| v.iter().filter_map(|s| Value::parse(s)).collect()),
            _ => None,
        }
    }
}

/// A launch job handed to the child process.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Job {
    /// A `.cubin` or `.ptx` file.
    pub image: String,
    /// The entry's (mangled) name.
    pub entry: String,
    /// The `// gpu-launch:` text.
    pub launch: String,
}

/// Loads the image, launches the kernel once and reads the buffers back. Runs in the child.
pub fn execute(job: &Job) -> RunResult {
    let launch = match crate::header::parse_launch(&job.launch) {
        Ok(l) => l,
        Err(e) => return RunResult::HarnessError { error: e },
    };
    let image = match std::fs::read(&job.image) {
        Ok(b) => b,
        Err(e) => {
            return RunResult::HarnessError {
                error: format!("{}: {e}", job.image),
            }
        }
    };
    if !driver_available() {
        return RunResult::HarnessError {
            error: "no CUDA driver".into(),
        };
    }
    // SAFETY: driver calls on buffers we own; the kernel's arguments match the header.
    unsafe { execute_inner(&launch, image, &job.image, &job.entry) }
}

unsafe fn execute_inner(launch: &Launch, mut image: Vec<u8>, path: &str, entry: &str) -> RunResult {
    let herr = |e: String| RunResult::HarnessError { error: e };
    if let Err(e) = check(cu::cuInit(0), "cuInit") {
        return herr(e);
    }
    let mut dev = 0;
    if let Err(e) = check(cu::cuDeviceGet(&mut dev, 0), "cuDeviceGet") {
        return herr(e);
    }
    let mut ctx = std::ptr::null_mut();
    if let Err(e) = check(
        cu::cuDevicePrimaryCtxRetain(&mut ctx, dev),
        "cuDevicePrimaryCtxRetain",
    ) {
        return herr(e);
    }
    if let Err(e) = check(cu::cuCtxSetCurrent(ctx), "cuCtxSetCurrent") {
        return herr(e);
    }
    if path.ends_with(".ptx") {
        image.push(0);
    }
    let mut module = std::ptr::null_mut();
    let mut err_log = vec![0u8; 1 << 16];
    let mut info_log = vec![0u8; 1 << 16];
    let mut opts = [
        cu::CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
        cu::CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        cu::CUjit_option::CU_JIT_INFO_LOG_BUFFER,
        cu::CUjit_option::CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
    ];
    let mut vals: [*mut c_void; 4] = [
        err_log.as_mut_ptr() as *mut c_void,
        err_log.len() as *mut c_void,
        info_log.as_mut_ptr() as *mut c_void,
        info_log.len() as *mut c_void,
    ];
    let r = cu::cuModuleLoadDataEx(
        &mut module,
        image.as_ptr() as *const c_void,
        opts.len() as u32,
        opts.as_mut_ptr(),
        vals.as_mut_ptr(),
    );
    let text = |b: &[u8]| {
        String::from_utf8_lossy(&b[..b.iter().position(|&c| c == 0).unwrap_or(b.len())])
            .into_owned()
    };
    if let Err(e) = check(r, "cuModuleLoadDataEx") {
        return RunResult::LoadError {
            error: e,
            log: format!("{}{}", text(&err_log), text(&info_log)),
        };
    }
    let cname = match CString::new(entry) {
        Ok(c) => c,
        Err(_) => return herr("bad entry name".into()),
    };
    let mut func = std::ptr::null_mut();
    if let Err(e) = check(
        cu::cuModuleGetFunction(&mut func, module, cname.as_ptr()),
        "cuModuleGetFunction",
    ) {
        return RunResult::LoadError {
            error: format!("{e} ({entry})"),
            log: String::new(),
        };
    }
    // Arguments: device buffers (pointers) and scalars, each stored in its own slot.
    let mut slots: Vec<Vec<u8>> = Vec::new();
    let mut buffers: Vec<(String, cu::CUdeviceptr, crate::header::Elem, usize)> = Vec::new();
    for a in &launch.args {
        match a {
            Arg::Buffer {
                name,
                elem,
                len,
                init,
            } => {
                let bytes = len * elem.size();
                let mut host = Vec::with_capacity(bytes);
                for i in 0..*len {
                    let v = match init {
                        Init::Fill(v) => *v,
                        Init::List(vs) => vs.get(i).copied().unwrap_or(Value::Int(0)),
                        Init::Iota => Value::Int(i as i128),
                    };
                    host.extend(elem.encode(v));
                }
                let mut d: cu::CUdeviceptr = 0;
                if let Err(e) = check(cu::cuMemAlloc_v2(&mut d, bytes.max(16)), "cuMemAlloc") {
                    return herr(e);
                }
                if let Err(e) = check(
                    cu::cuMemcpyHtoD_v2(d, host.as_ptr() as *const c_void, bytes),
                    "cuMemcpyHtoD",
                ) {
                    return herr(e);
                }
                slots.push(d.to_le_bytes().to_vec());
                buffers.push((name.clone(), d, *elem, *len));
            }
            Arg::Scalar { elem, value, .. } => slots.push(elem.encode(*value)),
        }
    }
    // Keep each slot 8-byte aligned.
    let mut storage: Vec<[u64; 1]> = slots
        .iter()
        .map(|s| {
            let mut b = [0u8; 8];
            b[..s.len().min(8)].copy_from_slice(&s[..s.len().min(8)]);
            [u64::from_le_bytes(b)]
        })
        .collect();
    let mut params: Vec<*mut c_void> = storage
        .iter_mut()
        .map(|s| s.as_mut_ptr() as *mut c_void)
        .collect();
    let [gx, gy, gz] = launch.grid;
    let [bx, by, bz] = launch.block;
    let r = cu::cuLaunchKernel(
        func,
        gx,
        gy,
        gz,
        bx,
        by,
        bz,
        0,
        std::ptr::null_mut(),
        params.as_mut_ptr(),
        std::ptr::null_mut(),
    );
    if let Err(e) = check(r, "cuLaunchKernel") {
        return RunResult::Fault { error: e };
    }
    if let Err(e) = check(cu::cuCtxSynchronize(), "cuCtxSynchronize") {
        return RunResult::Fault { error: e };
    }
    let mut out = BTreeMap::new();
    for (name, d, elem, len) in buffers {
        let mut host = vec![0u8; len * elem.size()];
        if let Err(e) = check(
            cu::cuMemcpyDtoH_v2(host.as_mut_ptr() as *mut c_void, d, host.len()),
            "cuMemcpyDtoH",
        ) {
            return RunResult::Fault { error: e };
        }
        let values = host
            .chunks(elem.size())
            .map(|c| elem.decode(c).to_string())
            .collect();
        out.insert(name, values);
    }
    RunResult::Finished { buffers: out }
}

/// The `.entry` names of a PTX module.
pub fn ptx_entries(ptx: &str) -> Vec<String> {
    ptx.lines()
        .filter_map(|l| {
            let l = l.trim();
            let at = l.find(".entry ")?;
            let rest = l[at + ".entry ".len()..].trim();
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

/// The entry a header's kernel name means: the name itself (`extern "C"`), or its Itanium
/// mangling (`count` is `_Z5countPj`, `ns::k` is `_ZN2ns1k...`).
pub fn find_entry(entries: &[String], kernel: &str) -> Result<String, String> {
    if entries.iter().any(|e| e == kernel) {
        return Ok(kernel.to_string());
    }
    let parts: Vec<&str> = kernel.split("::").collect();
    let prefix = if parts.len() == 1 {
        format!("_Z{}{}", kernel.len(), kernel)
    } else {
        let mut p = String::from("_ZN");
        for part in &parts {
            p.push_str(&format!("{}{}", part.len(), part));
        }
        p
    };
    let hits: Vec<&String> = entries.iter().filter(|e| e.starts_with(&prefix)).collect();
    match hits.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(format!(
            "no kernel `{kernel}` among the entries {entries:?}"
        )),
        many => Err(format!(
            "`{kernel}` is ambiguous ({many:?}): give the mangled name in `gpu-launch`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_and_mangling() {
        let ptx = ".visible .entry _Z5countPj(\n\t.param .u64 p\n)\n.entry _ZN2ns1kEPf(\n.visible .entry plain()\n";
        let e = ptx_entries(ptx);
        assert_eq!(e, vec!["_Z5countPj", "_ZN2ns1kEPf", "plain"]);
        assert_eq!(find_entry(&e, "count").unwrap(), "_Z5countPj");
        assert_eq!(find_entry(&e, "ns::k").unwrap(), "_ZN2ns1kEPf");
        assert_eq!(find_entry(&e, "plain").unwrap(), "plain");
        assert!(find_entry(&e, "missing").is_err());
        let e2 = vec!["_Z1kPi".to_string(), "_Z1kPf".to_string()];
        assert!(find_entry(&e2, "k").unwrap_err().contains("ambiguous"));
    }

    #[test]
    fn run_results_round_trip() {
        let mut b = BTreeMap::new();
        b.insert("out".to_string(), vec!["6".to_string(), "-1".to_string()]);
        let r = RunResult::Finished { buffers: b };
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"status\":\"finished\""), "{json}");
        let back: RunResult = serde_json::from_str(&json).unwrap();
        assert_eq!(
            back.buffer("out"),
            Some(vec![Value::Int(6), Value::Int(-1)])
        );
        let f: RunResult = serde_json::from_str(
            r#"{"status":"fault","error":"cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS"}"#,
        )
        .unwrap();
        assert!(matches!(f, RunResult::Fault { .. }));
    }
}
