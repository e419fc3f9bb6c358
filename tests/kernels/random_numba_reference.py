#!/usr/bin/env python3
"""random_numba_reference.py PROGRAM: runs `PROGRAM --dump` (tests/kernels/random_xoroshiro.c)
and checks every draw it prints against numba.cuda.random's algorithm, implemented here
from numba-cuda's numba_cuda/numba/cuda/random.py (SplitMix64 seeding, xoroshiro128+,
2^64-step jumps, the uint64 -> float conversions, Box-Muller with numba's float32 log)
in plain Python integers, without numba or NumPy. Raw and uniform draws must be equal bit for
bit; the normals within 2^-21 relative (float32 log, sin and sqrt may differ by an ulp between
libms). Exits 77 when the program does (no GPU for the gpu variant)."""
import math
import struct
import subprocess
import sys

M64 = (1 << 64) - 1
K = 6  # draws of each kind per state and launch, as in random_xoroshiro.c
CONFIGS = [(384, 1, 0), (40, 0xDEADBEEFCAFEF00D, 2)]  # (n, seed, subsequence_start)


def f32(x):
    """Rounds a Python float (double) to float32, as numba's float32() does."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class State:
    def __init__(self, s0, s1):
        self.s0, self.s1 = s0, s1

    def next(self):
        s0, s1 = self.s0, self.s1
        result = (s0 + s1) & M64
        s1 ^= s0
        self.s0 = rotl(s0, 55) ^ s1 ^ ((s1 << 14) & M64)
        self.s1 = rotl(s1, 36)
        return result

    def jump(self):
        s0 = s1 = 0
        for word in (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922):
            for b in range(64):
                if word & (1 << b):
                    s0 ^= self.s0
                    s1 ^= self.s1
                self.next()
        self.s0, self.s1 = s0, s1


def init_states(n, seed, subsequence_start):
    z = (seed + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    z = z ^ (z >> 31)
    states = [State(z, z)]
    for _ in range(subsequence_start):
        states[0].jump()
    for i in range(1, n):
        s = State(states[i - 1].s0, states[i - 1].s1)
        s.jump()
        states.append(s)
    return states


def uniform64(s):
    return (s.next() >> 11) * (1.0 / (1 << 53))


def uniform32(s):
    return f32(uniform64(s))


TWO_PI_F32 = f32(2 * math.pi)


def logf(x):
    return f32(math.log(x)) if x > 0 else -math.inf


def normal32(s):
    u1, u2 = uniform32(s), uniform32(s)
    return f32(f32(math.sqrt(f32(-2.0 * logf(u1)))) * f32(math.cos(f32(TWO_PI_F32 * u2))))


def normal64(s):
    u1, u2 = uniform32(s), uniform32(s)
    return math.sqrt(-2.0 * logf(u1)) * math.cos(2 * math.pi * u2)


def bits_f64(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def bits_f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def expected(states, i):
    s = states[i]
    out = {"next": [s.next() for _ in range(K)]}
    out["uniform_float64"] = [bits_f64(uniform64(s)) for _ in range(K)]
    out["uniform_float32"] = [bits_f32(uniform32(s)) for _ in range(K)]
    out["normal_float32"] = [normal32(s) for _ in range(K)]
    out["normal_float64"] = [normal64(s) for _ in range(K)]
    return out


def main():
    run = subprocess.run([sys.argv[1], "--dump"], capture_output=True, text=True)
    sys.stderr.write(run.stderr)
    if run.returncode != 0:
        print(f"{sys.argv[1]} --dump exited with {run.returncode}")
        return 77 if run.returncode == 77 else 1
    states = [init_states(*c) for c in CONFIGS]
    want = {}
    checked = bad = 0
    for line in run.stdout.splitlines():
        if not line.startswith("draw "):
            continue
        _, cfg, rnd, i, kind, j, hexbits = line.split()
        cfg, rnd, i, j, got = int(cfg), int(rnd), int(i), int(j), int(hexbits, 16)
        key = (cfg, rnd, i)
        if key not in want:  # draws of a state come in order, round 0 first
            want[key] = expected(states[cfg], i)
        w = want[key][kind][j]
        if kind == "normal_float32":
            g = struct.unpack("<f", struct.pack("<I", got))[0]
            ok = abs(g - w) <= 2**-21 * max(1.0, abs(w))
        elif kind == "normal_float64":
            g = struct.unpack("<d", struct.pack("<Q", got))[0]
            ok = abs(g - w) <= 2**-21 * max(1.0, abs(w))
        else:
            ok = got == w
        checked += 1
        if not ok:
            bad += 1
            if bad <= 8:
                print(f"config {cfg} launch {rnd} state {i}: {kind}[{j}] = {hexbits}, "
                      f"numba's algorithm gives {w:#x}" if isinstance(w, int) else
                      f"config {cfg} launch {rnd} state {i}: {kind}[{j}] = {hexbits}, "
                      f"numba's algorithm gives {w!r}")
    expected_count = sum(2 * n * 5 * K for n, _, _ in CONFIGS)
    if checked != expected_count:
        print(f"checked {checked} draws, expected {expected_count}")
        return 1
    print(f"{checked} draws checked against numba.cuda.random's algorithm, {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
