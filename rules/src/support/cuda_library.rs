//! Whether a file is part of CUDA's own library, which implements with inline PTX what the
//! rules suggest using instead (`cuda::ptx`, the intrinsics).

/// Whether the file implements `cuda::ptx` itself (libcu++'s `cuda/__ptx` headers, or code
/// in `namespace cuda::ptx`): suggestions to use `cuda::ptx` make no sense there.
pub(crate) fn implements_cuda_ptx(cx: &crate::Ctx) -> bool {
    let path = cx.file.path.to_string_lossy().replace('\\', "/");
    if path.contains("cuda/ptx") || path.contains("__ptx") || path.contains("cuda/__ptx") {
        return true;
    }
    let text = cx.source();
    text.contains("BEGIN_NAMESPACE_CUDA_PTX")
        || text.contains("namespace cuda::ptx")
        || text.contains("namespace cuda { namespace ptx")
        || contains_namespace_ptx(text)
}

fn contains_namespace_ptx(text: &str) -> bool {
    let mut rest = text;
    while let Some(at) = rest.find("namespace") {
        let after = rest[at + "namespace".len()..].trim_start();
        if let Some(tail) = after.strip_prefix("ptx") {
            if tail.trim_start().starts_with('{') {
                return true;
            }
        }
        rest = &rest[at + "namespace".len()..];
    }
    false
}

/// Whether the file is one of the CUDA headers that implement the intrinsics with inline PTX
/// (`sm_32_intrinsics.hpp`, `cuda_fp16.hpp`, clang's `__clang_cuda_*.h`...).
pub(crate) fn implements_cuda_intrinsics(cx: &crate::Ctx) -> bool {
    let path = cx.file.path.to_string_lossy().replace('\\', "/");
    let name = path.rsplit('/').next().unwrap_or("");
    (name.starts_with("sm_") && name.contains("_intrinsics"))
        || name.starts_with("sm_") && name.contains("_rt.")
        || name.starts_with("cuda_fp16")
        || name.starts_with("cuda_bf16")
        || name.starts_with("cuda_fp8")
        || name.starts_with("__clang_cuda_")
        || name.starts_with("device_functions")
        || name.starts_with("cuda_device_runtime_api")
        || path.contains("/crt/")
}
