"""Builds libmgraph.so (the engine's C API, `make python` in the repository:
Go, and nvcc for the CUDA build) into the package before it is copied."""

import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parent.parent


class BuildWithLibrary(build_py):
    def run(self) -> None:
        subprocess.run(["make", "-C", str(ROOT), "python"], check=True)
        super().run()


class BinaryDistribution(Distribution):
    def has_ext_modules(self) -> bool:  # the wheel carries a native library
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
