#!/usr/bin/env python3
"""sass_diff.py - kernplug's machine code against nvcc's for every benchmark kernel, no GPU.

Compiles bench/gpu/kp_bench.c with the plugin (its PTX saved with save-temps, assembled by
ptxas for --arch) and bench/gpu/cuda_bench.cu with `nvcc -O3 -cubin -arch=<arch>`, disassembles
both with cuobjdump, and prints per kernel: registers, shared memory, SASS instruction
count, and whether the two instruction streams are the same once register numbers and
constant-bank offsets are ignored (else the opcodes that differ in count).

  sass_diff.py --build DIR [--arch sm_90] [--cuobjdump PATH] [--nvcc PATH] [--keep DIR]
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

PAIRS = [  # kernplug kernel, nvcc kernel (unmangled)
    ("vec_add", "vec_add"), ("saxpy", "saxpy"),
    ("__kp_vec_gaussian_pdf_0_first_array", "gaussian_pdf_kernel"),  # x[], mean, sigma
    ("hl_normalize", "hl_normalize"), ("hl_weigh", "hl_weigh"), ("hl_activate", "hl_activate"),
    ("__kp_vec_check_prime_0_arrays", "check_prime_kernel"),  # all-array call: the twin
    ("matmul_naive", "matmul_naive"), ("matmul_tiled", "matmul_tiled"),
    ("atomic_sum", "atomic_sum"), ("empty0", "empty0"), ("empty4", "empty4"),
    ("empty16", "empty16"),
]


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"sass_diff.py: {' '.join(cmd)} failed:\n{r.stderr}")
    return r.stdout + r.stderr


def unmangle(name):
    m = re.match(r"_Z(\d+)(\w+)", name)
    return m.group(2)[: int(m.group(1))] if m else name


def sass(cuobjdump, cubin):
    """{kernel: [instruction, ...]} without the trailing BRA/NOP padding."""
    text = run([cuobjdump, "-sass", cubin])
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\s+Function : (\S+)", line)
        if m:
            cur = unmangle(m.group(1))
            funcs[cur] = []
            continue
        m = re.match(r"\s+/\*[0-9a-f]{4}\*/\s+(.*?)\s*;", line)
        if m and cur:
            funcs[cur].append(m.group(1))
    for k, ins in funcs.items():
        while ins and (ins[-1].startswith("NOP") or ins[-1].startswith("BRA")):
            ins.pop()
    return funcs


def resources(ptxas_log):
    res, cur = {}, None
    for line in ptxas_log.splitlines():
        m = re.search(r"Compiling entry function '(\S+)'", line)
        if m:
            cur = unmangle(m.group(1))
        m = re.search(r"Used (\d+) registers.*?(?:(\d+) bytes smem)?$", line)
        if m and cur:
            res[cur] = (int(m.group(1)), int(m.group(2) or 0))
    return res


def normalize(ins):
    s = re.sub(r"\bU?R\d+\b", "R", ins)
    s = re.sub(r"\bU?P\d\b", "P", s)
    s = re.sub(r"c\[0x0\]\[0x[0-9a-f]+\]", "c[]", s)
    s = re.sub(r"0x[0-9a-f]+", "imm", s)
    return s


def opcode(ins):
    ins = re.sub(r"^@!?U?P\w+\s+", "", ins)
    return ins.split()[0] if ins else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="kernplug build tree (lib/kernplug.so)")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("--nvcc", default=shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc")
    ap.add_argument("--ptxas", default=None)
    ap.add_argument("--cuobjdump", default=shutil.which("cuobjdump"))
    ap.add_argument("--keep", help="keep the PTX, cubins and SASS in this folder")
    args = ap.parse_args()
    if not args.cuobjdump:
        sys.exit("sass_diff.py: cuobjdump not found (CUDA toolkit, or pip nvidia-cuda-cuobjdump)")
    ptxas = args.ptxas or os.path.join(os.path.dirname(args.nvcc), "ptxas")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    work = args.keep or tempfile.mkdtemp(prefix="kp-sass-")
    os.makedirs(work, exist_ok=True)
    plugin = os.path.join(os.path.abspath(args.build), "lib", "kernplug.so")

    obj = os.path.join(work, "kp_bench.o")
    run([args.clang, "-std=c17", "-O2", "-D_GNU_SOURCE", "-I", os.path.join(root, "include"),
         "-I", os.path.join(root, "bench", "common"), "-I", os.path.join(root, "bench", "gpu"),
         f"-fplugin={plugin}", f"-fplugin-arg-kernplug-arch={args.arch}",
         "-fplugin-arg-kernplug-save-temps", "-c", os.path.join(root, "bench", "gpu", "kp_bench.c"),
         "-o", obj])
    kp_cubin = os.path.join(work, "kp.cubin")
    kp_res = resources(run([ptxas, f"-arch={args.arch}", "-O3", "-v", obj + ".kp.ptx", "-o",
                            kp_cubin]))
    nv_cubin = os.path.join(work, "nvcc.cubin")
    nv_res = resources(run([args.nvcc, "-cubin", "-O3", f"-arch={args.arch}", "-Xptxas", "-v",
                            "-I", os.path.join(root, "bench", "common"), "-o", nv_cubin,
                            os.path.join(root, "bench", "gpu", "cuda_bench.cu")]))
    kp, nv = sass(args.cuobjdump, kp_cubin), sass(args.cuobjdump, nv_cubin)
    if args.keep:
        for name, funcs in (("kp", kp), ("nvcc", nv)):
            with open(os.path.join(work, f"{name}.sass"), "w") as f:
                for k, ins in funcs.items():
                    f.write(f"== {k}\n" + "\n".join(ins) + "\n")

    ver = run([args.nvcc, "--version"]).strip().splitlines()[-1]
    print(f"# SASS: kernplug (clang-19 plugin -> PTX -> ptxas) vs nvcc -O3, {args.arch}\n")
    print(f"{ver}; cuobjdump {args.cuobjdump}\n")
    print("| kernel | registers kp / nvcc | smem kp / nvcc | SASS instructions kp / nvcc | "
          "same code | opcodes that differ (kp - nvcc) |")
    print("|---|---|---|---|---|---|")
    for k_kp, k_nv in PAIRS:
        a, b = kp.get(k_kp), nv.get(k_nv)
        if a is None or b is None:
            print(f"| {k_kp} | missing in {'kernplug' if a is None else 'nvcc'} | | | | |")
            continue
        ra, rb = kp_res.get(k_kp, (0, 0)), nv_res.get(k_nv, (0, 0))
        same = [normalize(x) for x in a] == [normalize(x) for x in b]
        ca, cb = collections.Counter(map(opcode, a)), collections.Counter(map(opcode, b))
        diff = []
        for op in sorted(set(ca) | set(cb)):
            if ca[op] != cb[op]:
                diff.append(f"{op} {ca[op] - cb[op]:+d}")
        print(f"| {k_kp} | {ra[0]} / {rb[0]} | {ra[1]} / {rb[1]} | {len(a)} / {len(b)} | "
              f"{'yes' if same else 'no'} | {', '.join(diff) or '—'} |")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
