# A torch extension whose targets come from TORCH_CUDA_ARCH_LIST, with the script's default.
import glob
import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

os.environ["TORCH_CUDA_ARCH_LIST"] = os.getenv("TORCH_CUDA_ARCH_LIST", "7.5 8.0")
this_dir = os.path.dirname(os.path.abspath(__file__))


def nvcc_flags():
    flags = ["-O3"]
    flags.append("-DWARP_REDUCE=1")
    return flags


setup(
    name="reduce",
    ext_modules=[
        CUDAExtension(
            "reduce._C",
            glob.glob(os.path.join(this_dir, "csrc", "*.cu")),
            extra_compile_args={"nvcc": nvcc_flags()},
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
