#!/usr/bin/env python3
"""scale.py - kernels from Python through ctypes: the shared library built from scale.c.

Usage: python3 scale.py path/to/libscale.so

The Python process does not link kernplug's runtime: it comes in with the library (its
DT_NEEDED), loaded by dlopen(). Arrays are NumPy arrays when numpy is importable, else
Python's array module (the first line of output says which). The library is then unloaded
(dlclose) and loaded again, three times: its module must unregister at each unload while the
runtime stays loaded, and work again after each load. Exits non-zero on a wrong result.
"""
import ctypes
import sys

try:
    import numpy as np
except ImportError:
    np = None
import array

N = 1000


def mapped(name):
    """Whether a file whose name contains `name` is mapped into this process."""
    with open("/proc/self/maps") as f:
        return any(name in line for line in f)


def float_buffer(values):
    """A float32 array holding values and a ctypes pointer to its data."""
    if np is not None:
        a = np.asarray(values, dtype=np.float32)
        return a, a.ctypes.data_as(ctypes.POINTER(ctypes.c_float))
    a = array.array("f", values)
    address, _ = a.buffer_info()
    return a, ctypes.cast(address, ctypes.POINTER(ctypes.c_float))


def load(path):
    lib = ctypes.CDLL(path)
    fp = ctypes.POINTER(ctypes.c_float)
    lib.scale.argtypes = [fp, ctypes.c_int, ctypes.c_float]
    lib.block_sums.argtypes = [fp, ctypes.c_int, fp]
    lib.axpb_all.argtypes = [fp, ctypes.c_int, ctypes.c_float, fp]
    for f in (lib.scale, lib.block_sums, lib.axpb_all):
        f.restype = ctypes.c_int
    # The runtime's own API, found through the library's dependencies.
    lib.kp_last_error_message.restype = ctypes.c_char_p
    lib.kp_backend_name.restype = ctypes.c_char_p
    return lib


def check(lib, what, rc, got, want):
    if rc != 0:
        sys.exit("%s: error %d: %s" % (what, rc, lib.kp_last_error_message().decode()))
    bad = [i for i in range(len(want)) if got[i] != want[i]]
    if bad:
        i = bad[0]
        sys.exit("%s: %d wrong results, [%d] = %r, expected %r" % (what, len(bad), i, got[i], want[i]))


def run(lib):
    x, xp = float_buffer(range(N))
    check(lib, "scale", lib.scale(xp, N, 2.5), x, [2.5 * i for i in range(N)])

    y, yp = float_buffer(range(N))
    blocks = (N + 255) // 256
    sums, sp = float_buffer([0.0] * blocks)
    want = [float(sum(range(b * 256, min(N, (b + 1) * 256)))) for b in range(blocks)]
    check(lib, "block_sums", lib.block_sums(yp, N, sp), sums, want)

    out, op = float_buffer([0.0] * N)
    check(lib, "axpb_all", lib.axpb_all(yp, N, 3.0, op), out, [3.0 * i + 1.0 for i in range(N)])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scale.py path/to/libscale.so")
    path = sys.argv[1]
    print("python_ctypes: arrays from %s" % ("numpy " + np.__version__ if np else "the array module (numpy is not importable)"))
    if mapped("libkernplug_rt"):
        sys.exit("python_ctypes: the runtime is loaded before the library: nothing is tested")
    import _ctypes
    for round_ in range(1, 4):
        lib = load(path)
        backend = lib.kp_backend_name().decode()
        run(lib)
        _ctypes.dlclose(lib._handle)
        del lib
        if mapped(path.rsplit("/", 1)[-1]):
            sys.exit("python_ctypes: the library is still mapped after dlclose")
        if not mapped("libkernplug_rt"):
            sys.exit("python_ctypes: the runtime was unloaded with the library")
        print("python_ctypes: round %d ok (%s backend), unloaded" % (round_, backend))
    print("python_ctypes: ok")


if __name__ == "__main__":
    main()
