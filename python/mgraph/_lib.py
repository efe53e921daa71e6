"""The ctypes binding of libmgraph.so, mgraph's C API (capi/ in the Go module)."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent


class MgraphError(RuntimeError):
    """An error reported by the engine (bad input, no GPU, a failed run)."""


def _load() -> ctypes.CDLL:
    path = os.environ.get("MGRAPH_LIB") or str(_HERE / "libmgraph.so")
    if not Path(path).exists():
        raise ImportError(
            f"mgraph: {path} not found: build it with `make python` in the mgraph repository "
            "(or `pip install ./python`), or point MGRAPH_LIB at a libmgraph.so"
        )
    try:
        lib = ctypes.CDLL(path)
    except OSError as e:
        if "static TLS" in str(e):
            raise ImportError(
                f"mgraph: {path} (built with CUDA) needs more static TLS than glibc gives a library "
                f"loaded after start: run Python with LD_PRELOAD={path} in its environment"
            ) from e
        raise
    i64, i32, u32, u64, dbl = ctypes.c_int64, ctypes.c_int, ctypes.c_uint32, ctypes.c_uint64, ctypes.c_double
    p_u32, p_dbl, p_i64 = ctypes.POINTER(u32), ctypes.POINTER(dbl), ctypes.POINTER(i64)
    p_u64, p_u8, p_f32 = ctypes.POINTER(u64), ctypes.POINTER(ctypes.c_uint8), ctypes.POINTER(ctypes.c_float)
    sigs = {
        "mgraph_last_error": (i64, [ctypes.c_char_p, i64]),
        "mgraph_load": (i64, [ctypes.c_char_p, ctypes.c_char_p, i32, i32, u64, i32, ctypes.c_char_p, ctypes.c_char_p]),
        "mgraph_from_edges": (i64, [i64, p_u32, p_u32, p_u32, i64, i32, ctypes.c_char_p, i32]),
        "mgraph_from_edges_f32": (i64, [i64, p_u32, p_u32, p_f32, i64, i32, ctypes.c_char_p, i32]),
        "mgraph_weight_type": (i32, [i64]),
        "mgraph_close": (i32, [i64]),
        "mgraph_info": (i32, [i64, p_i64]),
        "mgraph_bfs": (i32, [i64, u32, i32, p_u32, p_dbl]),
        "mgraph_bfs_parents": (i32, [i64, u32, i32, p_u32, p_dbl]),
        "mgraph_sssp": (i32, [i64, u32, p_u32, p_dbl]),
        "mgraph_sssp_f32": (i32, [i64, u32, p_f32, p_dbl]),
        "mgraph_cc": (i32, [i64, p_u32, p_dbl]),
        "mgraph_pagerank": (i32, [i64, dbl, dbl, i32, p_dbl, p_dbl]),
        "mgraph_bc": (i32, [i64, p_u32, i64, p_dbl, p_dbl]),
        "mgraph_triangles": (i32, [i64, p_u64, p_u64, p_dbl]),
        "mgraph_core_number": (i32, [i64, p_u32, p_dbl]),
        "mgraph_color": (i32, [i64, u64, p_u32, p_dbl]),
        "mgraph_mis": (i32, [i64, u64, p_u8, p_dbl]),
        "mgraph_ppr": (i32, [i64, p_u32, i64, dbl, dbl, i32, p_dbl, p_dbl]),
        "mgraph_hits": (i32, [i64, i32, dbl, p_dbl, p_dbl, p_dbl]),
        "mgraph_salsa": (i32, [i64, i32, dbl, p_dbl, p_dbl, p_dbl]),
        "mgraph_who_to_follow": (i64, [i64, u32, i32, i32, dbl, dbl, i32, i32, dbl, p_u32, i64, p_dbl]),
        "mgraph_msf": (i64, [i64, p_u32, p_u32, p_u32, i64, p_u64, p_dbl]),
        "mgraph_multi_source_bfs": (i32, [i64, p_u32, i64, p_u32, p_dbl]),
        "mgraph_multi_source_sssp": (i32, [i64, p_u32, i64, p_u32, p_dbl]),
        "mgraph_multi_source_sssp_f32": (i32, [i64, p_u32, i64, p_f32, p_dbl]),
        "mgraph_host_alloc": (ctypes.c_void_p, [i64, i32]),
        "mgraph_host_free": (i32, [ctypes.c_void_p]),
    }
    for name, (res, args) in sigs.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    return lib


LIB = _load()


def last_error() -> str:
    """The engine's last error message."""
    n = LIB.mgraph_last_error(None, 0)
    buf = ctypes.create_string_buffer(int(n) + 1)
    LIB.mgraph_last_error(buf, n + 1)
    return buf.value.decode("utf-8", "replace")


def check(rc: int) -> None:
    """Raise MgraphError when a C API call failed (rc < 0)."""
    if rc < 0:
        raise MgraphError(last_error())
