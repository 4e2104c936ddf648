#!/usr/bin/python3
"""make bench: the library's causal multi-head layer next to NumPy and PyTorch.

Times one forward pass of mha_forward_causal in two builds of the library,
the readable loops (bench/mha_bench.c as build/bench/mha_bench) and
mm_matmul by OpenBLAS's dgemm (the same program as mha_bench_openblas), each
a child process that takes commands on a pipe, and, on the same weights and
X (written by those programs), a NumPy implementation and PyTorch's
nn.MultiheadAttention, in paired rounds; measures OpenBLAS's dgemm alone at
the layer's largest product (the roof); prints the table and the targets,
writes the TSV and draws it with gnuplot (bench/README.md says what is
measured).

Usage (bench/bench.mk runs it):
  bench.py --prog build/bench/mha_bench --prog-openblas build/bench/mha_bench_openblas
           --memcount build/bench/alloc_count.so
           --out build/bench [--budget S] [--shapes T,D,H ...] [--smoke]
           [--cc CC --cflags CFLAGS --compile LINE --lib LIBRARY
            --compile-openblas LINE --lib-openblas LIBRARY] [--gnuplot GP]
           [--openblas-coretype CORE] [--projections T]
--smoke: one tiny shape, one round, and the self-tests (check-bench-smoke).
--projections T: then chapter 01's projections, separate vs fused (mha_bench).
Nothing about the times is asserted; the outputs must agree (1e-12).
"""
import os
import sys

# One thread each, set before NumPy and PyTorch load their libraries.
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
for _v in THREAD_VARS:
    os.environ[_v] = "1"

import argparse
import ctypes
import datetime
import gc
import math
import re
import shlex
import subprocess
import time
import tracemalloc

TOL = 1e-12            # normwise, as tests/oracle/numpy_mha.py
SAMPLE_S = 0.010       # a timed sample repeats a short call to last this long
MIN_ROUNDS, MAX_ROUNDS = 3, 31
SEED = 1               # mha_new(d, h, SEED); X from the generator seeded SEED + 1
REF_MAX_FLOP = 1e9     # C's output checked against mha_forward up to this size

# (T, d_model, n_heads, name)
SHAPES = [(8, 64, 4, ""), (64, 64, 4, "Mini-GPT"), (256, 256, 4, ""),
          (1024, 768, 12, "GPT-2 small")]
SMOKE_SHAPE = (7, 12, 3, "smoke")
GPT2 = (1024, 768, 12)    # the shape of targets (c) and (d)
# the four columns: a key (TSV names, no '+'), and the label shown
IMPLS = ("C", "C_OpenBLAS", "NumPy", "PyTorch")
LABEL = {"C": "C", "C_OpenBLAS": "C+OpenBLAS", "NumPy": "NumPy", "PyTorch": "PyTorch"}
PEERS = ("NumPy", "PyTorch")
# what a round times: the four, and a sample of the roof (OpenBLAS's dgemm
# alone), so that the roof meets the same machine as the layer
TIMED = IMPLS + ("roof",)


def williams(n):
    """a balanced Latin square (Williams design) of n things: in n rows each
    one is once in each place; each one follows each other one once in the
    n rows (n even), twice in 2 n rows (n odd: the rows, then reversed)"""
    first = [0]
    for i in range(1, n):
        first.append((i + 1) // 2 if i % 2 else n - i // 2)
    rows = [tuple((f + r) % n for f in first) for r in range(n)]
    return rows + ([tuple(reversed(o)) for o in rows] if n % 2 else [])


ORDERS = williams(len(TIMED))
# targets (the report's last block)
TARGET_SPEEDUP = 1.3      # (b) C+OpenBLAS over the best peer, at every shape
TARGET_ROOF = 70.0        # (c) % of the dgemm roof at GPT-2 small
TARGET_MIB = 40.0         # (d) peak extra memory of both C builds at GPT-2 small
# OpenBLAS kernels older than the CPU (OpenBLAS's fallback for a CPU it
# does not know); said in the header when the CPU has AVX2
OLD_CORES = {"prescott", "core2", "penryn", "dunnington", "nehalem", "atom",
             "katmai", "coppermine", "northwood", "banias"}


def die(msg):
    sys.exit(f"bench: {msg}")


def child_env():
    """the environment of the programs this one starts: no counter"""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


# ---- the count of every allocation of this process (LD_PRELOAD) --------------
class Counter:
    """alloc_count.c built as a preloaded shared object: it replaces malloc,
    posix_memalign, free, ... of the whole process (Python, NumPy, PyTorch)"""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)
        for f in ("alloc_count_peak", "alloc_count_blocks"):
            getattr(self.lib, f).restype = ctypes.c_size_t
        libc = ctypes.CDLL(None)
        libc.malloc.restype = ctypes.c_void_p
        libc.malloc.argtypes = [ctypes.c_size_t]
        libc.free.argtypes = [ctypes.c_void_p]
        self.lib.alloc_count_start()
        p = libc.malloc(12345)
        libc.free(p)
        self.lib.alloc_count_stop()
        if self.peak() != 12345:
            die(f"the allocation counter {path} saw {self.peak()} bytes of a "
                "malloc(12345): it is not the process's malloc (LD_PRELOAD?)")

    def start(self):
        self.lib.alloc_count_start()

    def stop(self):
        self.lib.alloc_count_stop()
        if self.lib.alloc_count_lost():
            die("the allocation counter's table overflowed (MAX_LIVE)")

    def peak(self):
        return self.lib.alloc_count_peak()


# ---- the C side: mha_bench on a pipe -------------------------------------------
class CBench:
    def __init__(self, prog):
        self.prog = prog
        self.p = subprocess.Popen([prog], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, env=child_env())

    def ask(self, line, word):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        reply = self.p.stdout.readline().split()
        if not reply or reply[0] != word:
            die(f"{os.path.basename(self.prog)}, asked '{line}', answered: "
                f"{' '.join(reply) or '(nothing)'}")
        return reply[1:]

    def shape(self, t, d, h, seed, data_dir, ref):
        """the peak bytes malloc'ed, the warm-up's seconds, the peak bytes mmap'ed"""
        ok, peak, blocks, seconds, map_peak, map_calls = self.ask(
            f"shape {t} {d} {h} {seed} {data_dir}" + (" ref" if ref else ""), "shape")
        return int(peak), float(seconds), int(map_peak)

    def roof(self, t, d, reps=0):
        """OpenBLAS's dgemm alone at X (T, d) W_QKV (d, 3d): seconds per
        call, of reps calls, or the median of mha_bench's own samples"""
        sec, gflops = self.ask(f"roof {t} {d}" + (f" {reps}" if reps else ""), "roof")
        return float(sec)

    def info(self):
        return self.ask("info", "info")

    def pool(self):
        """bytes the shared libraries hold mmap'ed, and how many are resident"""
        mapped, resident = self.ask("pool", "pool")
        return int(mapped), int(resident)

    def sample(self, reps):
        """seconds per call over reps back-to-back calls"""
        return float(self.ask(f"time {reps}", "time")[0]) / reps

    def close(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.close()
        if self.p.wait() != 0:
            die(f"{os.path.basename(self.prog)} exited with status {self.p.returncode}")


# ---- the peers -----------------------------------------------------------------
def numpy_layer(np, w_q, w_k, w_v, w_o, n_heads):
    """the causal layer in NumPy, as a NumPy user would write it: one fused
    projection X [W_Q | W_K | W_V], batched per-head products, the causal
    mask built in the call, an in-place stable softmax"""
    d = w_q.shape[0]
    d_k = d // n_heads
    w_qkv = np.concatenate([w_q, w_k, w_v], axis=1)         # (d, 3d)
    scale = 1.0 / math.sqrt(d_k)

    def forward(x):
        T = x.shape[0]
        qkv = x @ w_qkv                                      # (T, 3d)
        q, k, v = (qkv[:, i * d:(i + 1) * d].reshape(T, n_heads, d_k).transpose(1, 0, 2)
                   for i in range(3))                         # (h, T, d_k)
        s = q @ k.transpose(0, 2, 1)                          # (h, T, T)
        s *= scale
        s[:, np.triu(np.ones((T, T), dtype=bool), 1)] = -np.inf   # j > i hidden
        s -= s.max(axis=-1, keepdims=True)
        np.exp(s, out=s)
        s /= s.sum(axis=-1, keepdims=True)
        heads = s @ v                                         # (h, T, d_k)
        return heads.transpose(1, 0, 2).reshape(T, d) @ w_o
    return forward


def torch_layer(torch, np, w_q, w_k, w_v, w_o, n_heads, T, grad=True):
    """nn.MultiheadAttention with the library's weights (the mapping of
    tests/oracle/numpy_mha.py): in_proj_weight = [W_Q^T; W_K^T; W_V^T],
    out_proj.weight = W_O^T; attn_mask True = may NOT attend. Called with
    autograd on and the output detached, as the oracle does: under no_grad
    in eval mode PyTorch 1.13 may take its fast path, which fails with
    bias=False (#88669). (It does not take it when given an attn_mask, so
    grad=False, under no_grad, works here too: no graph is recorded, and
    no tensor is kept for a backward pass.)"""
    d = w_q.shape[0]
    layer = torch.nn.MultiheadAttention(d, n_heads, bias=False, batch_first=True,
                                        dtype=torch.float64)
    layer.eval()
    with torch.no_grad():
        layer.in_proj_weight.copy_(torch.from_numpy(
            np.concatenate([w_q.T, w_k.T, w_v.T], axis=0)))
        layer.out_proj.weight.copy_(torch.from_numpy(np.ascontiguousarray(w_o.T)))
    mask = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)

    def forward(xt):
        out, _ = layer(xt, xt, xt, attn_mask=mask, need_weights=False)
        return out.detach()

    def forward_no_grad(xt):
        with torch.no_grad():
            out, _ = layer(xt, xt, xt, attn_mask=mask, need_weights=False)
        return out
    return forward if grad else forward_no_grad


# ---- comparing -------------------------------------------------------------------
def normwise(np, got, exp):
    """max |got - exp| / max |exp|"""
    return float(np.max(np.abs(got - exp)) / np.max(np.abs(exp)))


def agree(np, what, got, exp):
    if got.shape != exp.shape or not np.all(np.isfinite(got)):
        die(f"{what}: shape {got.shape} (expected {exp.shape}) or a value not finite")
    rel = normwise(np, got, exp)
    if not rel <= TOL:
        die(f"{what}: normwise relative difference {rel:.3g} > {TOL:g}")
    return rel


# ---- timing ----------------------------------------------------------------------
def sample(f, arg, reps):
    """seconds per call of f(arg) over reps calls, no garbage collection"""
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(reps):
            f(arg)
        return (time.perf_counter() - t0) / reps
    finally:
        gc.enable()


def reps_for(seconds_per_call):
    return max(1, math.ceil(SAMPLE_S / max(seconds_per_call, 1e-9)))


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


# ---- what the run is: machine, compiler, backends ------------------------------------
def cpu_info():
    model, flags, logical, cores = "unknown CPU", set(), 0, set()
    phys = core = None
    family = number = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = (s.strip() for s in line.partition(":"))
                if k == "model name":
                    model = v
                    logical += 1
                elif k == "flags":
                    flags = set(v.split())
                elif k == "cpu family":
                    family = v
                elif k == "model":
                    number = v
                elif k == "physical id":
                    phys = v
                elif k == "core id":
                    core = v
                    cores.add((phys, core))
    except OSError:
        pass
    logical = logical or os.cpu_count() or 0
    simd = [n for f, n in (("avx2", "AVX2"), ("fma", "FMA"), ("avx512f", "AVX-512F"))
            if f in flags]
    ncores = len(cores) or logical
    return (f"{model} (family {family}, model {number}); {logical} logical CPUs, "
            f"{ncores} cores; {', '.join(simd) or 'no AVX2'}"), "avx2" in flags


def run_text(cmd):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=child_env())
        return p.stdout.strip() if p.returncode == 0 else ""
    except OSError:
        return ""


def c_backend(lib):
    """what the library's matrix product is: a BLAS if the archive calls one"""
    if not lib:
        return "unknown"
    syms = run_text(["nm", "-u", lib])
    blas = sorted(set(re.findall(r"\b(cblas_\w+|[sdcz]gemm_?)\b", syms)))
    if blas:
        return "BLAS (the library calls " + ", ".join(blas) + ")"
    return "the readable loops of core/matrix.c (no BLAS)"


def loaded_blas():
    """the BLAS-like libraries mapped into this process, each with its Debian
    package: the long form, and a short name for the plot"""
    found = []
    with open("/proc/self/maps") as f:
        for line in f:
            path = line.split()[-1]
            if re.search(r"/lib[^/]*(blas|blis|mkl|lapack)[^/]*\.so", path) and path not in found:
                found.append(path)
    out, short = [], []
    for path in found:
        pkg = run_text(["dpkg", "-S", path]).split(":")[0]
        out.append(f"{os.path.basename(path)} ({pkg + ', ' if pkg else ''}{os.path.dirname(path)})")
        if "lapack" not in os.path.basename(path):
            short.append(pkg or os.path.basename(path))
    return ("; ".join(out) or "none found in /proc/self/maps",
            ", ".join(dict.fromkeys(short)) or "?")


def peer_openblas():
    """the OpenBLAS that NumPy and PyTorch call, if this process loaded one:
    (kernels, threads, build) as that library says, else None"""
    with open("/proc/self/maps") as f:
        paths = [ln.split()[-1] for ln in f if re.search(r"/libopenblas[^/]*\.so", ln)]
    if not paths:
        return None
    try:
        lib = ctypes.CDLL(paths[0])        # loaded already: the same library
        lib.openblas_get_corename.restype = ctypes.c_char_p
        lib.openblas_get_config.restype = ctypes.c_char_p
        return (lib.openblas_get_corename().decode(), lib.openblas_get_num_threads(),
                lib.openblas_get_config().decode())
    except (OSError, AttributeError):
        return None


def fixed(v, digits=4):
    """v with about digits significant digits, never in e-notation"""
    if v <= 0 or not math.isfinite(v):
        return f"{v:.{digits - 1}f}"
    return f"{v:.{max(0, digits - 1 - math.floor(math.log10(v)))}f}"


def human(n):
    if n < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB"):
        n /= 1024.0
        if n < 1024 or unit == "GiB":
            return f"{n:.1f} {unit}"


def flop(t, d, h):
    """8 T d^2 (projections) + 2 T (T+1) d (scores and weighted sum, causal half)"""
    return 8 * t * d * d + 2 * t * (t + 1) * d


def label(r):
    s = f"({r['T']}, {r['d_model']}, {r['n_heads']})"
    return s + (" " + r["name"] if r["name"] != "-" else "")


# ---- one shape ----------------------------------------------------------------------
def run_shape(np, torch, counter, cbs, shape, out_dir, budget, rounds_forced, log,
              torch_grad, smoke):
    t, d, h, name = shape
    data_dir = os.path.join(out_dir, "data", f"{t}-{d}-{h}")
    data_ob = os.path.join(data_dir, "openblas")
    os.makedirs(data_ob, exist_ok=True)
    # C's output against mha_forward with mask_causal: one more forward pass,
    # spared above REF_MAX_FLOP (the smoke and the smaller shapes do it). Not
    # for C+OpenBLAS: its products of other shapes may round otherwise; it is
    # held to C's output within TOL, as the peers are
    ref = smoke or flop(t, d, h) <= REF_MAX_FLOP
    cb, cob = cbs
    mem_c, est_c, map_c = cb.shape(t, d, h, SEED, data_dir, ref)
    mem_ob, est_ob, map_ob = cob.shape(t, d, h, SEED, data_ob, False)
    load = lambda dr, f, r, c: np.fromfile(os.path.join(dr, f), dtype=np.float64).reshape(r, c)
    w_q, w_k, w_v, w_o = (load(data_dir, f"w_{m}.f64", d, d) for m in "qkvo")
    x, out_c = load(data_dir, "x.f64", t, d), load(data_dir, "out.f64", t, d)
    for f, r in (("w_q.f64", d), ("w_k.f64", d), ("w_v.f64", d), ("w_o.f64", d), ("x.f64", t)):
        if not np.array_equal(load(data_ob, f, r, d), load(data_dir, f, r, d)):
            die(f"({t}, {d}, {h}): mha_bench_openblas's {f} is not mha_bench's, bit for bit")
    out_ob = load(data_ob, "out.f64", t, d)
    diff_ob = agree(np, f"({t}, {d}, {h}): C+OpenBLAS vs C", out_ob, out_c)
    xt = torch.from_numpy(x).unsqueeze(0)                   # (1, T, d), shares x

    f_np = numpy_layer(np, w_q, w_k, w_v, w_o, h)
    f_t = torch_layer(torch, np, w_q, w_k, w_v, w_o, h, t, torch_grad)

    # one call each, untimed: the outputs against C's, the peak memory
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    counter.start()
    t0 = time.perf_counter()
    y = f_np(x)
    est_np = time.perf_counter() - t0
    counter.stop()
    mem_np = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    mem_np_malloc = counter.peak()
    diff_np = agree(np, f"({t}, {d}, {h}): NumPy vs C", y, out_c)
    del y

    counter.start()
    t0 = time.perf_counter()
    y = f_t(xt)
    est_t = time.perf_counter() - t0
    counter.stop()
    mem_t = counter.peak()
    diff_t = agree(np, f"({t}, {d}, {h}): PyTorch vs C", y[0].numpy(), out_c)
    del y

    # the roof on its own (mha_bench's median of 5 to 15 samples): a first
    # estimate, and the roof command run as a user would run it
    est_roof = cob.roof(t, d)

    # repetitions per sample, then rounds within the budget
    est = {"C": est_c, "C_OpenBLAS": est_ob, "NumPy": est_np, "PyTorch": est_t,
           "roof": est_roof}
    reps = {k: reps_for(v) for k, v in est.items()}
    run = {"C": lambda r: cb.sample(r), "C_OpenBLAS": lambda r: cob.sample(r),
           "NumPy": lambda r: sample(f_np, x, r), "PyTorch": lambda r: sample(f_t, xt, r),
           "roof": lambda r: cob.roof(t, d, r)}
    for k in IMPLS:       # short calls: the best of three short samples
        if reps[k] > 1:
            est[k] = min(run[k](reps[k]) for _ in range(3))
            reps[k] = reps_for(est[k])
    round_s = sum(est[k] * reps[k] for k in TIMED)
    rounds = rounds_forced or max(MIN_ROUNDS, min(MAX_ROUNDS, int(budget / round_s)))
    log(f"bench: ({t}, {d}, {h}): {rounds} rounds of about {round_s:.3g} s (calls per "
        "sample: " + ", ".join(f"{LABEL.get(k, k)} {reps[k]}" for k in TIMED) + ")")

    times = {k: [] for k in TIMED}
    for r in range(rounds):
        for i in ORDERS[r % len(ORDERS)]:
            k = TIMED[i]
            times[k].append(run[k](reps[k]))
    pool_mapped, pool_resident = cob.pool()     # the pool the calls touched

    med = {k: median(v) for k, v in times.items()}
    best = {k: min(v) for k, v in times.items()}
    spread = {k: (max(v) - min(v)) / med[k] for k, v in times.items()}
    best_peer = min(med[k] for k in PEERS)
    fl = flop(t, d, h)
    gf = {k: fl / med[k] * 1e-9 for k in IMPLS}
    roof_gf = 2 * t * d * 3 * d / med["roof"] * 1e-9
    return {
        "shape": f"{t},{d},{h}", "name": name or "-", "T": t, "d_model": d, "n_heads": h,
        "flop": fl,
        **{f"ms_{k}": med[k] * 1e3 for k in IMPLS},
        **{f"gflops_{k}": gf[k] for k in IMPLS},
        "roof_gflops": roof_gf, "roof_ms": med["roof"] * 1e3,
        "roof_alone_gflops": 2 * t * d * 3 * d / est_roof * 1e-9,
        "pct_roof": 100.0 * gf["C_OpenBLAS"] / roof_gf,
        "c_over_best": med["C"] / best_peer,
        "speedup_C_OpenBLAS": best_peer / med["C_OpenBLAS"],
        **{f"ratio_{k}": med[k] / best_peer for k in IMPLS},
        "mem_C": mem_c, "mem_C_OpenBLAS": mem_ob + map_ob,
        "mem_NumPy": mem_np, "mem_PyTorch": mem_t,
        "mmap_C": map_c, "mmap_C_OpenBLAS": map_ob,
        "pool_mapped": pool_mapped, "pool_resident": pool_resident,
        "mem_NumPy_malloc": mem_np_malloc,
        "rounds": rounds, **{f"reps_{k}": reps[k] for k in TIMED},
        **{f"spread_{k}": spread[k] for k in TIMED},
        **{f"ms_min_{k}": best[k] * 1e3 for k in TIMED},
        "diff_C_OpenBLAS": diff_ob, "diff_NumPy": diff_np, "diff_PyTorch": diff_t,
        "ref": int(ref),
    }


# ---- the report -------------------------------------------------------------------------
TSV_COLUMNS = (["shape", "name", "T", "d_model", "n_heads", "flop"]
               + [f"ms_{k}" for k in IMPLS] + [f"gflops_{k}" for k in IMPLS]
               + ["roof_gflops", "roof_ms", "roof_alone_gflops", "pct_roof", "c_over_best",
                  "speedup_C_OpenBLAS"]
               + [f"ratio_{k}" for k in IMPLS] + [f"mem_{k}" for k in IMPLS]
               + ["mmap_C", "mmap_C_OpenBLAS", "pool_mapped", "pool_resident",
                  "mem_NumPy_malloc", "rounds"]
               + [f"reps_{k}" for k in TIMED] + [f"spread_{k}" for k in TIMED]
               + [f"ms_min_{k}" for k in TIMED]
               + ["diff_C_OpenBLAS", "diff_NumPy", "diff_PyTorch", "ref"])


def tsv_value(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def header(args, np, torch, info_ob, peer_ob, has_avx2, machine):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cc = shlex.split(args.cc or "cc")
    cc_version = run_text(cc + ["--version"]).splitlines()
    torch_blas = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    ob_core, ob_threads, ob_config = info_ob[1], info_ob[2], " ".join(info_ob[3:])
    coretype = os.environ.get("OPENBLAS_CORETYPE")
    if peer_ob:
        peer = (f"OpenBLAS kernels {peer_ob[0]}, {peer_ob[1]} thread"
                f"{'s' if peer_ob[1] != 1 else ''} ({peer_ob[2]})")
    else:
        peer = "no OpenBLAS in this process"
    lines = [
        "make bench: mha_forward_causal (the causal multi-head layer, one sequence), "
        "C and C+OpenBLAS vs NumPy vs PyTorch",
        f"  date     {now}",
        f"  machine  {machine}",
        f"  C        {cc_version[0] if cc_version else args.cc}; CFLAGS='{args.cflags}'; "
        "two builds of the library:",
        f"    C           compiled as: {' '.join(args.compile.split())}",
        f"                matrix products: {c_backend(args.lib)}",
        f"    C+OpenBLAS  compiled as: {' '.join(args.compile_openblas.split())}",
        f"                matrix products: {c_backend(args.lib_openblas)}: {ob_config};",
        f"                kernels {ob_core}, {ob_threads} thread"
        f"{'s' if ob_threads != '1' else ''} (openblas_get_corename, openblas_get_num_threads)",
        f"  NumPy    {np.__version__}; PyTorch {torch.__version__} "
        f"(BLAS_INFO={torch_blas.group(1) if torch_blas else '?'}); "
        f"Python {sys.version.split()[0]}",
        f"           BLAS loaded: {loaded_blas()[0]}",
        f"           that is: {peer}",
        "           PyTorch: nn.MultiheadAttention(d, h, bias=False, batch_first=True, "
        "float64), boolean causal attn_mask,",
        "           need_weights=False, "
        + ("under torch.no_grad()" if args.torch_no_grad else
           "autograd on (as tests/oracle; the saved tensors count), output detached"),
        "  threads  one each: " + ", ".join(f"{v}=1" for v in THREAD_VARS)
        + ", torch.set_num_threads(1)"
        + (f"; OPENBLAS_CORETYPE={coretype}" if coretype is not None else ""),
    ]
    cores = {ob_core} | ({peer_ob[0]} if peer_ob else set())
    if has_avx2 and any(c.lower() in OLD_CORES for c in cores):
        lines += [
            f"  NOTE     OpenBLAS runs its {'/'.join(sorted(cores))} kernels (SSE3, no AVX) on "
            "this AVX2 CPU: the OpenBLAS",
            "           installed does not know the CPU and falls back to them. Every "
            "OpenBLAS number below (C+OpenBLAS,",
            "           NumPy, PyTorch, the roof) is of those kernels. "
            "make bench BENCH_OPENBLAS_CORETYPE=SkylakeX (or",
            "           Haswell, ...) sets OPENBLAS_CORETYPE for all of them."]
    lines += [
        "  FLOP     8 T d^2 + 2 T (T+1) d per forward: projections 2 T d 3d (Q, K, V) and "
        "2 T d d (W_O);",
        "           per head 2 T(T+1)/2 d_k for the scores and as many for the weighted "
        "sum: the causal half,",
        "           diagonal included, as the C code computes them (scaling, mask, softmax "
        "not counted).",
        "           NumPy and PyTorch compute all T x T scores, then mask: they are "
        "credited with the same count.",
        "  time     median over paired rounds; a round times C, C+OpenBLAS, NumPy, "
        "PyTorch and the roof once each,",
        "           in orders of a balanced Latin square; a sample of a short call repeats "
        f"it for about {SAMPLE_S * 1e3:.0f} ms",
        "           (calibrated once per shape). Best peer: the faster of NumPy and PyTorch.",
        "           C/best: C's time over the best peer's (above 1: C is slower). "
        "C+OpenBLAS speed-up: the best",
        "           peer's time over C+OpenBLAS's (above 1: C+OpenBLAS is faster).",
        "  roof     cblas_dgemm alone, one thread, at the layer's largest product X (T, d) "
        "W_QKV (d, 3d), in",
        "           mha_bench_openblas, as mm_matmul calls it: the median of a sample in "
        "each round (the TSV's",
        "           roof_alone_gflops: the roof command on its own, the median of 5 to 15 "
        "samples in a row).",
        "           % of roof: C+OpenBLAS's GFLOP/s over the roof's.",
        "  memory   peak bytes allocated during one forward, beyond what existed before "
        "(weights, X):",
        "           C, C+OpenBLAS: the library's malloc calls (-Wl,--wrap, "
        "bench/alloc_count.c), plus",
        "           any mmap during the call; NumPy: tracemalloc; PyTorch: every "
        "malloc/posix_memalign of the",
        "           process (alloc_count.c preloaded). NumPy and PyTorch count their "
        "output (T d 8 bytes);",
        "           C writes the caller's buffer. Not counted: OpenBLAS's buffer pool "
        "(see below the table).",
    ]
    return lines


def table(rows):
    w = max([15] + [len(label(r)) for r in rows])
    ms, gf, mem = 10, 10, 10                  # column widths
    heads = lambda width: " ".join(f"{LABEL[k]:>{width}}" for k in IMPLS)
    group = lambda title, width: f"{title:^{4 * width + 3}}"
    lines = [
        f"{'':{w}}  {'':>8}  {group('time per forward (ms)', ms)}  "
        f"{group('GFLOP/s', gf)}  {'dgemm roof':^18}  {'':>6}",
        f"{'shape (T, d, h)':{w}}  {'MFLOP':>8}  {heads(ms)}  {heads(gf)}  "
        f"{'GFLOP/s':>8} {'% of roof':>9}  {'rounds':>6}",
    ]
    for r in rows:
        lines.append(
            f"{label(r):{w}}  {fixed(r['flop'] * 1e-6):>8}  "
            + " ".join(f"{fixed(r['ms_' + k]):>{ms}}" for k in IMPLS) + "  "
            + " ".join(f"{r['gflops_' + k]:{gf}.3f}" for k in IMPLS) + "  "
            + f"{r['roof_gflops']:8.2f} {r['pct_roof']:8.1f}%  {r['rounds']:>6}")
    lines += [
        "",
        f"{'':{w}}  {'C/best':>8}  {'C+OpenBLAS':>10}  {group('peak extra memory', mem)}",
        f"{'shape (T, d, h)':{w}}  {'(time)':>8}  {'speed-up':>10}  {heads(mem)}",
    ]
    for r in rows:
        lines.append(
            f"{label(r):{w}}  {r['c_over_best']:8.2f}  {r['speedup_C_OpenBLAS']:9.2f}x  "
            + " ".join(f"{human(r['mem_' + k]):>{mem}}" for k in IMPLS))
    diffs = [(r[f"diff_{k}"], k, r) for r in rows for k in ("C_OpenBLAS",) + PEERS]
    for k in ("C_OpenBLAS",) + PEERS:
        worst = max((x for x in diffs if x[1] == k), key=lambda x: x[0])
        lines.append(
            f"agreement: {LABEL[k]}'s output is C's within normwise {worst[0]:.2g} "
            f"(tolerance {TOL:g}; largest at ({worst[2]['T']}, {worst[2]['d_model']}, "
            f"{worst[2]['n_heads']}))")
    refs = [label(r) for r in rows if r["ref"]]
    if refs:
        lines.append("C's output is mha_forward's with mask_causal, bit for bit, at "
                     + ", ".join(refs))
    mapped = max(r["pool_mapped"] for r in rows)
    resident = max(r["pool_resident"] for r in rows)
    maps = max(r["mmap_C_OpenBLAS"] for r in rows)
    lines += [
        "memory notes: C+OpenBLAS's peak is the library's malloc calls (wrapped, as C's) "
        "plus the bytes OpenBLAS maps",
        f"  (mmap) during the call: {human(maps)} at most, at these shapes. Its buffer pool, "
        f"{human(mapped)} mapped once per process at",
        "  its first call (mha_bench_openblas makes that call at its start, before anything "
        "is counted) and reused by",
        f"  every call, is not in the peak: {human(resident)} of it were resident (touched) "
        "after the last shape (mincore).",
        "  NumPy and PyTorch call the same OpenBLAS and carry a pool of their own, not "
        "counted either. OpenBLAS's own",
        "  malloc calls, if any, come from the shared library: they are not wrapped, and "
        "not counted.",
    ]
    return lines


def verdict(ok, short):
    return "met" if ok else f"missed by {short}"


def targets(rows):
    """the targets block: each line the measured value, the target, met or
    missed by how much"""
    lines = ["targets:"]
    small = [r for r in rows if r["T"] <= 64]
    lines.append("  (a) readable C faster than both peers at T <= 64 (C/best < 1):")
    if not small:
        lines.append("        no shape with T <= 64 in this run")
    w = max([0] + [len(label(r)) for r in rows])
    for r in small:
        v = r["c_over_best"]
        lines.append(f"        {label(r):{w}}  C/best {v:5.2f}  "
                     + ("met (C %.2fx as fast as the best peer)" % (1 / v) if v < 1 else
                        verdict(False, f"{v - 1:.2f} (C is {100 * (v - 1):.0f} % slower)")))
    lines.append(f"  (b) C+OpenBLAS at least {TARGET_SPEEDUP}x the best peer, at every shape:")
    for r in rows:
        v = r["speedup_C_OpenBLAS"]
        lines.append(f"        {label(r):{w}}  {v:5.2f}x  "
                     + verdict(v >= TARGET_SPEEDUP, f"{TARGET_SPEEDUP - v:.2f}x "
                               f"({100 * (1 - v / TARGET_SPEEDUP):.0f} % short)"))
    gpt2 = [r for r in rows if (r["T"], r["d_model"], r["n_heads"]) == GPT2]
    if not gpt2:
        lines.append(f"  (c) C+OpenBLAS at least {TARGET_ROOF:.0f} % of the dgemm roof at "
                     f"GPT-2 small: not measured ({GPT2} is not in this run)")
        lines.append(f"  (d) peak extra memory at GPT-2 small at most {TARGET_MIB:.0f} MiB, "
                     f"both C builds: not measured ({GPT2} is not in this run)")
        return lines
    r = gpt2[0]
    v = r["pct_roof"]
    lines.append(f"  (c) C+OpenBLAS at least {TARGET_ROOF:.0f} % of the dgemm roof at GPT-2 "
                 f"small: {v:.1f} % ({r['gflops_C_OpenBLAS']:.2f} of {r['roof_gflops']:.2f} "
                 "GFLOP/s)  "
                 + verdict(v >= TARGET_ROOF, f"{TARGET_ROOF - v:.1f} points"))
    lines.append(f"  (d) peak extra memory at GPT-2 small at most {TARGET_MIB:.0f} MiB, both "
                 "C builds:")
    for k in ("C", "C_OpenBLAS"):
        mib = r[f"mem_{k}"] / 2**20
        lines.append(f"        {LABEL[k]:10}  {mib:6.1f} MiB  "
                     + verdict(mib <= TARGET_MIB, f"{mib - TARGET_MIB:.1f} MiB"))
    return lines


def plot(gp, tsv, out_base, subtitle):
    gq = lambda s: "'" + s.replace("'", "''") + "'"      # a gnuplot string
    for term in ("svg", "png"):
        out = f"{out_base}.{term}"
        p = subprocess.run(
            ["gnuplot", "-e", f"data={gq(tsv)}; out={gq(out)}; term={gq(term)}; "
             f"subtitle={gq(subtitle)}", gp],
            capture_output=True, text=True, env=child_env())
        if p.returncode != 0 or p.stderr.strip() or not os.path.getsize(out):
            die(f"gnuplot {gp} ({term}) failed:\n{p.stderr}")
    return [f"{out_base}.svg", f"{out_base}.png"]


# ---- the self-tests of --smoke: the checks can fail --------------------------------------
def self_test(np, log):
    a = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
    b = a.copy()
    b[1, 2] += 1e-9
    try:
        agree(np, "self-test", b, a)
    except SystemExit:
        log("bench self-test: an output off by 1e-9 is caught")
    else:
        die("self-test: an output off by 1e-9 was NOT caught")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--prog", required=True, help="mha_bench (the readable loops)")
    ap.add_argument("--prog-openblas", required=True,
                    help="mha_bench_openblas (the library with -DMM_BLAS_OPENBLAS)")
    ap.add_argument("--memcount", required=True, help="alloc_count.so (preloaded)")
    ap.add_argument("--out", required=True, help="directory for bench.tsv, .svg, .png")
    ap.add_argument("--budget", type=float, default=75.0,
                    help="seconds for the timed rounds of all shapes (default 75)")
    ap.add_argument("--shapes", nargs="*", help="T,D,H ... instead of the four")
    ap.add_argument("--smoke", action="store_true", help="one tiny shape, one round")
    ap.add_argument("--cc", default="cc")
    ap.add_argument("--cflags", default="")
    ap.add_argument("--compile", default="", help="the compile command, as shown")
    ap.add_argument("--lib", default="", help="the archive the bench links")
    ap.add_argument("--compile-openblas", default="",
                    help="the OpenBLAS build's compile command, as shown")
    ap.add_argument("--lib-openblas", default="", help="the archive mha_bench_openblas links")
    ap.add_argument("--openblas-coretype", default="",
                    help="OPENBLAS_CORETYPE for every OpenBLAS of the run (default: "
                    "OpenBLAS's own choice)")
    ap.add_argument("--gnuplot", help="the gnuplot script (no plot without it)")
    ap.add_argument("--torch-no-grad", action="store_true",
                    help="call PyTorch under torch.no_grad() (default: autograd on, "
                    "output detached, as tests/oracle does)")
    ap.add_argument("--projections", type=int, default=0, metavar="T",
                    help="also time chapter 01's projections at this T")
    args = ap.parse_args()

    # the counter must be the process's malloc: preload it, before NumPy; the
    # same OpenBLAS kernels for all, read when OpenBLAS loads
    so = os.path.abspath(args.memcount)
    if args.openblas_coretype:
        os.environ["OPENBLAS_CORETYPE"] = args.openblas_coretype
    if so not in os.environ.get("LD_PRELOAD", "").split(":"):
        env = dict(os.environ)
        env["LD_PRELOAD"] = ":".join(filter(None, [so, env.get("LD_PRELOAD")]))
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    counter = Counter(so)

    start = time.monotonic()
    load_start = os.getloadavg()[0]
    log = (lambda s: None) if args.smoke else (lambda s: print(s, file=sys.stderr, flush=True))
    try:
        import numpy as np
        import torch
    except ImportError as e:
        die(f"NumPy and PyTorch must be importable by {sys.executable} ({e}); "
            "install python3-numpy and python3-torch (make deps)")
    torch.set_num_threads(1)
    if args.smoke:
        shapes, rounds_forced = [SMOKE_SHAPE], 1
        self_test(np, print)
    else:
        shapes = SHAPES
        if args.shapes:
            known = {(s[0], s[1], s[2]): s[3] for s in SHAPES}
            shapes = []
            for s in args.shapes:
                t, d, h = (int(v) for v in s.split(","))
                shapes.append((t, d, h, known.get((t, d, h), "")))
        rounds_forced = 0
    os.makedirs(args.out, exist_ok=True)

    # first calls of each library (lazy set-up) before anything is counted
    warm = SMOKE_SHAPE
    wq = np.eye(warm[1])
    numpy_layer(np, wq, wq, wq, wq, warm[2])(np.ones((warm[0], warm[1])))
    torch_layer(torch, np, wq, wq, wq, wq, warm[2], warm[0], not args.torch_no_grad)(
        torch.ones(1, warm[0], warm[1], dtype=torch.float64))
    machine, has_avx2 = cpu_info()
    peer_ob = peer_openblas()

    cb, cob = CBench(args.prog), CBench(args.prog_openblas)
    if cb.info() != ["loops"]:
        die(f"{args.prog} is not the readable build (info: {' '.join(cb.info())})")
    info_ob = cob.info()
    if info_ob[0] != "openblas":
        die(f"{args.prog_openblas} is not linked with OpenBLAS (info: {' '.join(info_ob)})")
    if info_ob[2] != "1":
        die(f"{args.prog_openblas}: OpenBLAS runs {info_ob[2]} threads, not 1")
    if peer_ob and peer_ob[1] != 1:
        die(f"NumPy's and PyTorch's OpenBLAS runs {peer_ob[1]} threads, not 1")
    rows = []
    left = args.budget
    for i, s in enumerate(shapes):
        t0 = time.monotonic()
        share = left / (len(shapes) - i)      # what earlier shapes left over
        rows.append(run_shape(np, torch, counter, (cb, cob), s, args.out, share,
                              rounds_forced, log, not args.torch_no_grad, args.smoke))
        left -= time.monotonic() - t0
    cb.close()
    cob.close()
    load_end = os.getloadavg()[0]

    lines = header(args, np, torch, info_ob, peer_ob, has_avx2, machine)
    lines.append(f"  load     1-minute load average {load_start:.2f} at the start, "
                 f"{load_end:.2f} at the end ({os.cpu_count()} CPUs; above 1, other "
                 "work shares them)")
    lines += [""] + table(rows) + [""] + targets(rows)
    if args.projections:
        p = subprocess.run([args.prog, "--projections", str(args.projections)],
                           capture_output=True, text=True, env=child_env())
        if p.returncode != 0:
            die(f"{args.prog} --projections failed: {p.stdout}{p.stderr}")
        lines += [""] + p.stdout.rstrip().splitlines()
    tsv = os.path.join(args.out, "bench.tsv")
    with open(tsv, "w") as f:
        f.write("\t".join(TSV_COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(tsv_value(r[c]) for c in TSV_COLUMNS) + "\n")
    files = [tsv]
    if args.gnuplot:
        kernels = info_ob[1] + (f"/{peer_ob[0]}" if peer_ob and peer_ob[0] != info_ob[1] else "")
        subtitle = (f"{datetime.date.today().isoformat()}; CFLAGS='{args.cflags}'; "
                    f"OpenBLAS kernels {kernels}; NumPy and PyTorch on {loaded_blas()[1]}; "
                    "one thread each")
        files += plot(args.gnuplot, tsv, os.path.join(args.out, "bench"), subtitle)
    lines.append(f"run: {time.monotonic() - start:.0f} s; files: {', '.join(files)}")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "bench.txt"), "w") as f:
        f.write(text)
    if not args.smoke:
        sys.stdout.write(text)
        return
    r = rows[0]
    print(f"bench smoke: ({r['T']}, {r['d_model']}, {r['n_heads']}), one round: "
          + ", ".join(f"{LABEL[k]} {r['ms_' + k]:.3g} ms" for k in IMPLS)
          + f"; C+OpenBLAS, NumPy and PyTorch within "
          f"{max(r['diff_C_OpenBLAS'], r['diff_NumPy'], r['diff_PyTorch']):.2g} of C "
          f"(tolerance {TOL:g}); C's output is mha_forward's with mask_causal, bit for "
          f"bit; dgemm roof {r['roof_gflops']:.3g} GFLOP/s (OpenBLAS {info_ob[1]}); "
          f"report and plots in {args.out}/ ({time.monotonic() - start:.1f} s)")


if __name__ == "__main__":
    main()
