# A torch extension with two build variants: an Ampere build (LEGACY_AMPERE=1) that turns the
# cluster features off with -DDISABLE_CLUSTER, and the default Hopper build.
import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

nvcc_flags = ["-O3", "--use_fast_math"]
if os.getenv("LEGACY_AMPERE", "0") == "1":
    nvcc_flags += ["-gencode", "arch=compute_80,code=sm_80", "-DDISABLE_CLUSTER"]
else:
    nvcc_flags += ["-gencode", "arch=compute_90,code=sm_90"]

setup(
    name="ops",
    ext_modules=[
        CUDAExtension(
            name="ops._C",
            sources=["csrc/ops.cu", "csrc/bindings.cpp"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": nvcc_flags},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
