#!/usr/bin/env python3
"""numba_bench.py - the numba-cuda (and CuPy) side of the GPU benchmark.

The kernels of bench/common/kp_kernels.h as a Numba user writes them (the seeds' code where
there is one: gaussian_pdf and the hidden layer of seed 002, the prime check of seed 000,
the atomic sum of seed 004, fast_matmul of the numba-cuda documentation), run like
kp_bench and cuda_bench: checked against a NumPy float64 reference first, then timed with
CUDA events after warm-up, median of R runs, one JSON line per case on stdout (impl "numba",
or "cupy" for CuPy's sum). Progress goes to stderr.

  numba_bench.py [--check] [--section NAME] [--reps R]
  numba_bench.py --first-launch      (one measurement; run.sh starts several processes)
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

os.environ.setdefault("CUPY_ACCELERATORS", "cub")  # CuPy's sum through CUB

import numpy as np
from numba import cuda, float32, vectorize

ARGS = None
FAILED = False


def emit(section, case, n, ms, reps, bytes_=0, flops=0, check="ok", timer="cuda events",
         note="", impl="numba"):
    rec = {"impl": impl, "section": section, "case": case, "n": int(n), "ms": float(ms),
           "reps": reps, "bytes": float(bytes_), "flops": float(flops), "check": check,
           "timer": timer, "note": note}
    print(json.dumps(rec), flush=True)
    print(f"numba_bench: {section:10s} {case:40s} {ms:10.4f} ms  {check}", file=sys.stderr)


def verdict(err, tol):
    global FAILED
    if err <= tol:
        return f"ok (rel. error {err:.2g})"
    FAILED = True
    return f"FAIL: relative error {err:.3g} > {tol:.3g}"


def rel_err(got, want):
    got = got.astype(np.float64)
    num = np.linalg.norm(got - want)
    den = np.linalg.norm(want)
    return float(num / den) if den > 0 else float(num)


def reps_for(full):
    return 1 if ARGS.check else (ARGS.reps or full)


def time_events(f, warm, reps):
    start, end = cuda.event(), cuda.event()
    for _ in range(warm):
        f()
    cuda.synchronize()
    ms = []
    for _ in range(reps):
        start.record()
        f()
        end.record()
        end.synchronize()
        ms.append(cuda.event_elapsed_time(start, end))
    return statistics.median(ms)


def time_host(f, warm, reps):
    for _ in range(warm):
        f()
    cuda.synchronize()
    ms = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        cuda.synchronize()
        ms.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ms)


def blocks256(n):
    return (n + 255) // 256


# ---- kernels ------------------------------------------------------------------------------

@cuda.jit
def vec_add(x, y, out, n):
    i = cuda.grid(1)
    if i < n:
        out[i] = x[i] + y[i]


@cuda.jit
def saxpy(a, x, y, n):
    i = cuda.grid(1)
    if i < n:
        y[i] = a * x[i] + y[i]


SQRT_2PI = np.float32((2 * math.pi) ** 0.5)  # seed 002


def gaussian_pdf_py(x, mean, sigma):
    return math.exp(-0.5 * ((x - mean) / sigma) ** 2) / (sigma * SQRT_2PI)


# seed 002's hidden layer, as the accepted solution wrote it
from math import exp  # noqa: E402


@cuda.jit
def normalize(grayscales, out):
    i = cuda.grid(1)
    if i < grayscales.size:
        out[i] = grayscales[i] / 255.0


@cuda.jit
def weigh(values, weights, out):
    i = cuda.grid(1)
    if i < values.size:
        out[i] = values[i] * weights[i]


@cuda.jit
def activate(values, out):
    i = cuda.grid(1)
    if i < values.size:
        out[i] = (exp(values[i]) - exp(-values[i])) / (exp(values[i]) + exp(-values[i]))


def create_hidden_layer(n, greyscales, weights, out_host):
    greyscales_device = cuda.to_device(greyscales)
    weights_device = cuda.to_device(weights)
    normalized_device = cuda.device_array(greyscales.shape, dtype=np.float32)
    weighted_device = cuda.device_array(weights.shape, dtype=np.float32)
    activated_device = cuda.device_array(weights.shape, dtype=np.float32)
    threads_per_block = 512
    blocks_per_grid = (n + (threads_per_block - 1)) // threads_per_block
    normalize[blocks_per_grid, threads_per_block](greyscales_device, normalized_device)
    weigh[blocks_per_grid, threads_per_block](normalized_device, weights_device, weighted_device)
    activate[blocks_per_grid, threads_per_block](weighted_device, activated_device)
    # the seed returns activated_device.copy_to_host(); into a given array here, so that the
    # pinned variant lands in pinned memory
    return activated_device.copy_to_host(out_host)


def check_prime_py(num):
    for i in range(2, (num // 2) + 1):
        if (num % i) == 0:
            return 0
    return num


# @vectorize(target='cuda') compiles when it is applied, which needs a GPU: made in main()
gaussian_pdf = check_prime = None


def make_ufuncs():
    global gaussian_pdf, check_prime
    gaussian_pdf = vectorize(['float32(float32, float32, float32)'], target='cuda')(
        gaussian_pdf_py)
    check_prime = vectorize(['int32(int32)'], target='cuda')(check_prime_py)


@cuda.jit
def matmul_naive(A, B, C, n):
    col, row = cuda.grid(2)
    if row < n and col < n:
        tmp = float32(0.0)
        for k in range(n):
            tmp += A[row * n + k] * B[k * n + col]
        C[row * n + col] = tmp


TPB = 16


@cuda.jit
def matmul_tiled(A, B, C, n):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tiles = (n + TPB - 1) // TPB
    tmp = float32(0.0)
    for i in range(tiles):
        a_col = tx + i * TPB
        b_row = ty + i * TPB
        sA[ty, tx] = A[y * n + a_col] if y < n and a_col < n else float32(0.0)
        sB[ty, tx] = B[b_row * n + x] if x < n and b_row < n else float32(0.0)
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < n and x < n:
        C[y * n + x] = tmp


def sum_reduce_py(a, b):
    return a + b


sum_reduce = cuda.reduce(sum_reduce_py)


@cuda.jit
def atomic_sum(in_array, out_array):  # seed 004's gpu_reduce
    thread_id = cuda.grid(1)
    stride = cuda.gridsize(1)
    temp_sum = float32(0.0)
    for i in range(thread_id, in_array.shape[0], stride):
        temp_sum += in_array[i]
    cuda.atomic.add(out_array, 0, temp_sum)


@cuda.jit
def empty0():
    pass


@cuda.jit
def empty4(a0, a1, a2, a3):
    pass


@cuda.jit
def empty16(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15):
    pass


# ---- sections ------------------------------------------------------------------------------

def uniform(seed, n, lo, hi):
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(np.float32)


def streaming():
    n = 1000003 if ARGS.check else 1 << 28
    hx, hy = uniform(1, n, -1, 1), uniform(2, n, -1, 1)
    x, y = cuda.to_device(hx), cuda.to_device(hy)
    out = cuda.device_array(n, dtype=np.float32)
    reps = reps_for(20)
    nbytes = n * 4

    def add():
        vec_add[blocks256(n), 256](x, y, out, n)
    out.copy_to_device(np.full(n, np.nan, np.float32))
    add()
    check = verdict(rel_err(out.copy_to_host(), hx.astype(np.float64) + hy), 1e-6)
    emit("streaming", "vector add", n, time_events(add, 3, reps), reps, 3 * nbytes, n, check)

    a = np.float32(2.0)

    def sax():
        saxpy[blocks256(n), 256](a, x, y, n)
    sax()
    check = verdict(rel_err(y.copy_to_host(), 2.0 * hx.astype(np.float64) + hy), 1e-6)
    emit("streaming", "saxpy", n, time_events(sax, 3, reps), reps, 3 * nbytes, 2 * n, check)

    mean, sigma = np.float32(0.0), np.float32(1.0)

    def gauss():
        gaussian_pdf(x, mean, sigma, out=out)
    out.copy_to_device(np.full(n, np.nan, np.float32))
    gauss()
    want = np.exp(-0.5 * hx.astype(np.float64) ** 2) / math.sqrt(2 * math.pi)
    check = verdict(rel_err(out.copy_to_host(), want), 1e-6)
    emit("streaming", "gaussian_pdf ufunc", n, time_events(gauss, 3, reps), reps, 2 * nbytes,
         0, check, note="@vectorize(target='cuda') with out= on device arrays")
    del x, y, out

    for pinned in (False, True):
        n = 1000003 if ARGS.check else 100000000
        rng = np.random.default_rng(11)
        grey_np = np.floor(rng.uniform(0, 255, n).astype(np.float32))
        w_np = rng.normal(.5, .1, n).astype(np.float32)
        if pinned:
            grey, w = cuda.pinned_array(n, np.float32), cuda.pinned_array(n, np.float32)
            out_h = cuda.pinned_array(n, np.float32)
            grey[:], w[:] = grey_np, w_np
        else:
            grey, w, out_h = grey_np, w_np, np.empty(n, np.float32)
        out_h[:] = np.nan
        create_hidden_layer(n, grey, w, out_h)
        want = np.tanh((grey_np / np.float32(255.0)).astype(np.float64) * w_np)
        check = verdict(rel_err(out_h, want), 1e-5)
        reps = reps_for(7)
        ms = time_host(lambda: create_hidden_layer(n, grey, w, out_h), 1, reps)
        name = "hidden layer 100M, end to end, " + ("pinned" if pinned else "pageable")
        emit("streaming", name, n, ms, reps, 3 * n * 4, 0, check, timer="host clock",
             note="cuda.pinned_array" if pinned else "NumPy arrays")


def sieve(hi):
    composite = np.zeros(hi + 1, bool)
    for p in range(2, int(hi ** 0.5) + 1):
        if not composite[p]:
            composite[p * p::p] = True
    return composite


def compute():
    global FAILED
    hi = 20000 if ARGS.check else 1000000
    nums = np.arange(2, hi + 1, dtype=np.int32)
    n = nums.size
    d_nums = cuda.to_device(nums)
    d_res = cuda.to_device(np.full(n, -1, np.int32))

    def primes():
        check_prime(d_nums, out=d_res)
    primes()
    res = d_res.copy_to_host()
    want = np.where(sieve(hi)[nums], 0, nums)
    bad = int(np.count_nonzero(res != want))
    if bad:
        FAILED = True
    check = f"FAIL: {bad} of {n} wrong" if bad else f"ok ({int(np.count_nonzero(want))} primes)"
    reps = reps_for(5)
    emit("compute", "prime check 2..1e6 (ufunc)", n, time_events(primes, 1, reps), reps, 0, 0,
         check, note="@vectorize(['int32(int32)'], target='cuda') on device arrays")

    n = 200 if ARGS.check else 4096
    A, B = uniform(3, n * n, -1, 1), uniform(4, n * n, -1, 1)
    dA, dB = cuda.to_device(A), cuda.to_device(B)
    dC = cuda.device_array(n * n, np.float32)
    b = (n + TPB - 1) // TPB
    rng = np.random.default_rng(5)
    rows, cols = rng.integers(0, n, 256), rng.integers(0, n, 256)
    rows[0] = cols[0] = 0
    rows[1] = cols[1] = n - 1
    A2, B2 = A.reshape(n, n).astype(np.float64), B.reshape(n, n).astype(np.float64)
    for name, kern in (("matmul naive 4096^2", matmul_naive), ("matmul tiled 16x16 4096^2",
                                                               matmul_tiled)):
        def run(kern=kern):
            kern[(b, b), (TPB, TPB)](dA, dB, dC, n)
        dC.copy_to_device(np.full(n * n, np.nan, np.float32))
        run()
        C = dC.copy_to_host().reshape(n, n)
        prods = A2[rows, :] * B2[:, cols].T
        err = np.abs(C[rows, cols] - prods.sum(axis=1)) / (np.abs(prods).sum(axis=1) + 1e-30)
        worst = float(err.max()) if not np.isnan(C).any() else float("nan")
        check = verdict(worst, 1e-5)
        reps = reps_for(5)
        emit("compute", name, n, time_events(run, 1, reps), reps, 0, 2.0 * n ** 3, check)


def reductions():
    n = 1000003 if ARGS.check else 1 << 28
    h = uniform(9, n, -1, 1)
    want = float(h.astype(np.float64).sum())
    mag = float(np.abs(h.astype(np.float64)).sum())
    x = cuda.to_device(h)
    reps = reps_for(20)
    result = [float("nan")]

    def red():
        result[0] = sum_reduce(x)
    red()
    check = verdict(abs(result[0] - want) / mag, 1e-5)
    emit("reductions", "sum 2^28 floats", n, time_events(red, 3, reps), reps, n * 4, n, check,
         note="@cuda.reduce, result to host")

    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    zero = np.zeros(1, np.float32)
    d_out = cuda.device_array(1, np.float32)
    host_out = np.zeros(1, np.float32)

    def atomic():
        d_out.copy_to_device(zero)
        atomic_sum[sms * 8, 256](x, d_out)
        d_out.copy_to_host(host_out)
    atomic()
    check = verdict(abs(float(host_out[0]) - want) / mag, 1e-5)
    emit("reductions", "atomic grid-stride sum 2^28 floats", n, time_events(atomic, 3, reps),
         reps, n * 4, n, check,
         note="seed 004's kernel, SMs x 8 blocks of 256; zero in, result out")

    try:
        import cupy as cp
    except ImportError as e:
        print(f"numba_bench: no CuPy ({e}): CuPy's sum skipped", file=sys.stderr)
        return
    cx = cp.asarray(h)
    box = [float("nan")]

    def cupy_sum():
        box[0] = float(cx.sum())  # the result to the host, as kp_reduce returns it
    start, end = cp.cuda.Event(), cp.cuda.Event()
    cupy_sum()
    check = verdict(abs(box[0] - want) / mag, 1e-5)
    for _ in range(3):
        cupy_sum()
    ms = []
    for _ in range(reps):
        start.record()
        cupy_sum()
        end.record()
        end.synchronize()
        ms.append(cp.cuda.get_elapsed_time(start, end))
    emit("reductions", "sum 2^28 floats", n, statistics.median(ms), reps, n * 4, n, check,
         impl="cupy", note=f"cupy.sum (CuPy {cp.__version__}, "
         f"CUPY_ACCELERATORS={os.environ.get('CUPY_ACCELERATORS')}), result to host")


def launch_cost():
    launches = 1000 if ARGS.check else 100000
    p = [cuda.device_array(256, np.float32) for _ in range(16)]
    cases = (("empty kernel, 0 args", lambda: empty0[1, 32]()),
             ("empty kernel, 4 array args", lambda: empty4[1, 32](*p[:4])),
             ("empty kernel, 16 array args", lambda: empty16[1, 32](*p)))
    for name, one in cases:
        def loop(one=one):
            for _ in range(launches):
                one()
        reps = reps_for(3)
        one()  # compile
        cuda.synchronize()
        ms = time_host(loop, 1 if not ARGS.check else 0, reps)
        emit("launch", name, launches, ms / launches, reps, check="ok", timer="host clock",
             note=f"{launches} launches of [1, 32] on device arrays, per launch")


def copies():
    global FAILED
    n = (1 << 20) if ARGS.check else (1 << 28)
    reps = reps_for(10)
    for pinned in (False, True):
        h = cuda.pinned_array(n, np.float32) if pinned else np.empty(n, np.float32)
        h[:] = uniform(21, n, -1, 1)
        d = cuda.device_array(n, np.float32)
        d.copy_to_device(h)
        back = np.full(n, np.nan, np.float32)
        d.copy_to_host(back)
        ok = np.array_equal(back, h)
        FAILED |= not ok
        check = "ok" if ok else "FAIL: round trip differs"
        how = "cuda.pinned_array" if pinned else "NumPy array"
        kind = "pinned" if pinned else "pageable"
        emit("copies", f"host to device, {kind}", n,
             time_events(lambda: d.copy_to_device(h), 2, reps), reps, n * 4, 0, check, note=how)
        emit("copies", f"device to host, {kind}", n,
             time_events(lambda: d.copy_to_host(h), 2, reps), reps, n * 4, 0, check, note=how)
        if pinned:
            d2 = cuda.device_array(n, np.float32)
            d2.copy_to_device(d)
            ok = np.array_equal(d2.copy_to_host(), h)
            FAILED |= not ok
            emit("copies", "device to device", n,
                 time_events(lambda: d2.copy_to_device(d), 2, reps), reps, 2 * n * 4, 0,
                 "ok" if ok else "FAIL: copy differs", note="bytes read + bytes written")


def first_launch():
    d = cuda.device_array(256, np.float32)  # the context exists before the clock starts
    cuda.synchronize()

    @cuda.jit
    def fl_empty(p):
        pass
    t0 = time.perf_counter()
    fl_empty[1, 32](d)
    cuda.synchronize()
    t1 = time.perf_counter()
    fl_empty[1, 32](d)
    cuda.synchronize()
    t2 = time.perf_counter()
    emit("first launch", "first launch (module load), PTX only", 1, (t1 - t0) * 1e3, 1,
         timer="host clock", note=f"numba compiles Python to PTX, then the driver JITs it; "
         f"second launch {(t2 - t1) * 1e3:.4f} ms")


def compile_only():
    """Compiles every kernel and device function to PTX for sm_90 without a GPU (NVVM from
    the CUDA toolkit is enough): the Python side type-checks before any GPU time is spent."""
    from numba import int32, int64, void
    f32a = float32[::1]
    kernels = [
        (vec_add, (f32a, f32a, f32a, int64)), (saxpy, (float32, f32a, f32a, int64)),
        (normalize, (f32a, f32a)), (weigh, (f32a, f32a, f32a)), (activate, (f32a, f32a)),
        (matmul_naive, (f32a, f32a, f32a, int64)), (matmul_tiled, (f32a, f32a, f32a, int64)),
        (atomic_sum, (f32a, f32a)), (empty0, ()), (empty4, (f32a,) * 4),
        (empty16, (f32a,) * 16),
    ]
    for k, args in kernels:
        ptx, _ = cuda.compile_ptx(k.py_func, void(*args), cc=(9, 0))
        print(f"numba_bench: {k.py_func.__name__}: {len(ptx)} bytes of PTX", file=sys.stderr)
    for f, sig in ((gaussian_pdf_py, float32(float32, float32, float32)),
                   (check_prime_py, int32(int32)), (sum_reduce_py, float32(float32, float32))):
        ptx, _ = cuda.compile_ptx(f, sig, device=True, cc=(9, 0))
        print(f"numba_bench: {f.__name__} (device): {len(ptx)} bytes of PTX", file=sys.stderr)


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="small sizes, one repetition")
    ap.add_argument("--section", choices=["streaming", "compute", "reductions", "launch",
                                          "copies"])
    ap.add_argument("--reps", type=int, default=0)
    ap.add_argument("--first-launch", action="store_true")
    ap.add_argument("--compile-only", action="store_true",
                    help="compile every kernel to PTX for sm_90 (no GPU needed) and stop")
    ARGS = ap.parse_args()
    if ARGS.compile_only:
        compile_only()
        return
    if not cuda.is_available():
        sys.exit("numba_bench: numba-cuda finds no GPU")
    if ARGS.first_launch:
        first_launch()
        return
    make_ufuncs()
    import numba
    dev = cuda.get_current_device()
    meta = {"impl": "numba", "kind": "meta", "device": dev.name.decode()
            if isinstance(dev.name, bytes) else str(dev.name),
            "numba": numba.__version__, "numpy": np.__version__,
            "python": sys.version.split()[0]}
    try:
        import numba_cuda
        meta["numba_cuda"] = numba_cuda.__version__
    except (ImportError, AttributeError):
        pass
    try:
        import cupy
        meta["cupy"] = cupy.__version__
    except ImportError:
        pass
    print(json.dumps(meta), flush=True)
    for name, fn in (("streaming", streaming), ("compute", compute),
                     ("reductions", reductions), ("launch", launch_cost), ("copies", copies)):
        if ARGS.section in (None, name):
            fn()
    print(f"numba_bench: {'some checks FAILED' if FAILED else 'all checks passed'}",
          file=sys.stderr)
    sys.exit(1 if FAILED else 0)


if __name__ == "__main__":
    main()
