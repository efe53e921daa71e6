"""Result arrays in the engine's page-locked host memory (the cuda backend):
the device writes a result straight into them, so a call returns its NumPy
array with no copy after the device's (mgraph.HostBuffer in the Go API).
The memory goes back to the graph's small pool when the array is garbage
collected."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ._lib import LIB, MgraphError, last_error

_KIND = {np.dtype(np.uint32): 0, np.dtype(np.float64): 1, np.dtype(np.float32): 2}


class _HostMemory:
    """Owns one block of mgraph_host_alloc; NumPy arrays made from it (its
    __array_interface__) keep it alive, and it is given back when the last
    one goes."""

    def __init__(self, handle: int, n: int, dtype: np.dtype) -> None:
        ptr = LIB.mgraph_host_alloc(handle, _KIND[dtype])
        if not ptr:
            raise MgraphError(last_error())
        self._ptr: Optional[int] = ptr
        self.__array_interface__ = {
            "data": (ptr, False),
            "shape": (n,),
            "typestr": dtype.str,
            "version": 3,
        }

    def __del__(self) -> None:
        ptr, self._ptr = self._ptr, None
        if ptr:
            try:
                LIB.mgraph_host_free(ptr)
            except Exception:  # interpreter shutdown
                pass


def host_array(handle: int, n: int, dtype: Any) -> np.ndarray:
    """A new array of n elements of dtype (uint32, float32 or float64) in page-locked
    memory of graph handle's pool."""
    return np.asarray(_HostMemory(handle, n, np.dtype(dtype)))

