#!/usr/bin/python3
"""make bench: the library's causal multi-head layer next to NumPy and PyTorch.

Times one forward pass of the causal layer, row at a time (chapter 04's
mha_forward_causal) and in tiles (chapter 05's mha_forward_tiled), in two
builds of the library, the readable loops (bench/mha_bench.c as
build/bench/mha_bench) and mm_matmul by OpenBLAS's dgemm (the same program
as mha_bench_openblas), each a child process that takes commands on a pipe,
and, on the same weights and X (written by those programs), a NumPy
implementation and PyTorch's nn.MultiheadAttention, in paired rounds;
measures OpenBLAS's dgemm alone at the layer's largest product (the roof).
Then chapter 05's decoding: 1024 tokens with the key/value cache (both
builds, and NumPy's and PyTorch's cached loops) against recomputing the
tiled layer on each prefix; the tiled layer's block sizes at GPT-2 small;
the time against T at Mini-GPT's width. Prints the tables and the targets,
writes the TSVs and draws them with gnuplot (bench/README.md says what is
measured).

Usage (bench/bench.mk runs it):
  bench.py --prog build/bench/mha_bench --prog-openblas build/bench/mha_bench_openblas
           --memcount build/bench/alloc_count.so
           --out build/bench [--budget S] [--shapes T,D,H ...] [--smoke]
           [--cc CC --cflags CFLAGS --compile LINE --lib LIBRARY
            --compile-openblas LINE --lib-openblas LIBRARY] [--gnuplot GP]
           [--openblas-coretype CORE] [--projections T] [--parts layer,decode,sweep,curve]
--smoke: tiny shapes, one round each, and the self-tests (check-bench-smoke).
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
# the six columns: a key (TSV names, no '+'), and the label shown. The
# library's layer in two builds, row at a time (chapter 04's
# mha_forward_causal) and in tiles (chapter 05's mha_forward_tiled with
# MHA_BLOCK_Q x MHA_BLOCK_K blocks), and the two peers
IMPLS = ("C", "C_OpenBLAS", "C_tiled", "C_OpenBLAS_tiled", "NumPy", "PyTorch")
LABEL = {"C": "C", "C_OpenBLAS": "C+OpenBLAS", "C_tiled": "C tiled",
         "C_OpenBLAS_tiled": "C+OpenBLAS tiled", "NumPy": "NumPy", "PyTorch": "PyTorch"}
C_KEYS = ("C", "C_OpenBLAS", "C_tiled", "C_OpenBLAS_tiled")
PEERS = ("NumPy", "PyTorch")
# what a round times: the six, and a sample of the roof (OpenBLAS's dgemm
# alone), so that the roof meets the same machine as the layer
TIMED = IMPLS + ("roof",)
BLOCK = 64                # MHA_BLOCK_Q = MHA_BLOCK_K of fast.h: the tiled columns
# decoding: T tokens one at a time at Mini-GPT width, with the cache (both
# builds, NumPy, PyTorch) and by recomputing the tiled layer on each prefix
DECODE_SHAPE = (1024, 64, 4)
SMOKE_DECODE = (7, 12, 3)
DECODE = ("C", "C_OpenBLAS", "NumPy", "PyTorch")      # the cached loops
DECODE_ROUNDS = 15
RECOMPUTE_SAMPLES = 3     # C+OpenBLAS's recomputation, each about 6 s
# the block-size sweep of the tiled layer at GPT-2 small, both builds
SWEEP_BLOCKS = (16, 32, 64, 128, 256)
SMOKE_SWEEP = (2, 4)
SWEEP_SAMPLES = 3
# time against T at Mini-GPT width: every column of the table
CURVE_T = (16, 32, 64, 128, 256, 512, 1024)
CURVE_WIDTH = (64, 4)
SMOKE_CURVE = ((3, 12, 3), (7, 12, 3))
CURVE_SHARE = 0.2         # of --budget, for all the curve's points
PARTS = ("layer", "decode", "sweep", "curve")


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
TARGET_SPEEDUP = 1.3      # (a) C+OpenBLAS tiled over the best peer, at every shape
TARGET_ROOF = 70.0        # (b) C+OpenBLAS tiled's % of the dgemm roof at GPT-2 small
TARGET_TILED = 2.0        # (c) C tiled over C at GPT-2 small (and C tiled beats the
                          #     peers at T <= 64)
TARGET_DECODE = 20.0      # (d) the cache over recomputing (and over the peers' loops)
TARGET_MIB = 16.0         # (e) peak extra memory of the tiled layer at GPT-2 small
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

    def tiled(self, bq, bk, data_dir):
        """the tiled layer's warm-up (blocks bq x bk): its peak bytes
        malloc'ed, its seconds, its peak bytes mmap'ed; out_tiled.f64"""
        ok, peak, blocks, seconds, map_peak, map_calls = self.ask(
            f"tiled {bq} {bk} {data_dir}", "tiled")
        return int(peak), float(seconds), int(map_peak)

    def decode(self, data_dir):
        """the cached decoding's warm-up: peak bytes malloc'ed, seconds, peak
        bytes mmap'ed, sizeof (mha_cache); out_decode.f64"""
        ok, peak, blocks, seconds, map_peak, struct = self.ask(
            f"decode {data_dir}", "decode")
        return int(peak), float(seconds), int(map_peak), int(struct)

    def recompute(self, data_dir):
        """the recomputation's warm-up: seconds; out_recompute.f64"""
        return float(self.ask(f"recompute {data_dir}", "recompute")[1])

    def sample(self, reps, kind=""):
        """seconds per call over reps back-to-back calls (of the causal
        layer, or of kind: tiled, decode, recompute)"""
        return float(self.ask(f"time {reps} {kind}".rstrip(), "time")[0]) / reps

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


# ---- the cached loops of the peers: decoding one token at a time ---------------
def numpy_decoder(np, w_q, w_k, w_v, w_o, n_heads):
    """the cached decoding in NumPy, as a NumPy user would write it: per
    token one fused projection, its key and value stored in arrays K, V
    (n_heads, T, d_k), its scores against the keys so far, a stable softmax,
    the blend of the values, W_O; the T outputs, one row per token"""
    d = w_q.shape[0]
    d_k = d // n_heads
    w_qkv = np.concatenate([w_q, w_k, w_v], axis=1)         # (d, 3d)
    scale = 1.0 / math.sqrt(d_k)

    def decode(x):
        T = x.shape[0]
        K, V = np.empty((n_heads, T, d_k)), np.empty((n_heads, T, d_k))
        out = np.empty((T, d))
        for t in range(T):
            qkv = x[t] @ w_qkv                               # (3d)
            q = qkv[:d].reshape(n_heads, d_k, 1)
            K[:, t] = qkv[d:2 * d].reshape(n_heads, d_k)     # append, then attend
            V[:, t] = qkv[2 * d:].reshape(n_heads, d_k)
            s = (K[:, :t + 1] @ q)[:, :, 0]                  # (h, t+1)
            s *= scale
            s -= s.max(axis=1, keepdims=True)
            np.exp(s, out=s)
            s /= s.sum(axis=1, keepdims=True)
            out[t] = (s[:, None, :] @ V[:, :t + 1]).reshape(d) @ w_o
        return out
    return decode


def torch_decoder(torch, np, w_q, w_k, w_v, w_o, n_heads):
    """the same loop in PyTorch's tensor operations, under torch.no_grad()
    (nn.MultiheadAttention projects its keys on every call: it has no
    cache)"""
    d = w_q.shape[0]
    d_k = d // n_heads
    w_qkv = torch.from_numpy(np.concatenate([w_q, w_k, w_v], axis=1))
    w_o_t = torch.from_numpy(np.ascontiguousarray(w_o))
    scale = 1.0 / math.sqrt(d_k)

    def decode(xt):
        with torch.no_grad():
            T = xt.shape[0]
            K = torch.empty(n_heads, T, d_k, dtype=torch.float64)
            V = torch.empty(n_heads, T, d_k, dtype=torch.float64)
            out = torch.empty(T, d, dtype=torch.float64)
            for t in range(T):
                qkv = xt[t] @ w_qkv
                q = qkv[:d].view(n_heads, d_k, 1)
                K[:, t] = qkv[d:2 * d].view(n_heads, d_k)
                V[:, t] = qkv[2 * d:].view(n_heads, d_k)
                s = torch.softmax((K[:, :t + 1] @ q).squeeze(2) * scale, dim=1)
                out[t] = (s.unsqueeze(1) @ V[:, :t + 1]).reshape(d) @ w_o_t
        return out
    return decode


# ---- one shape ----------------------------------------------------------------------
def load(np, data_dir, f, r, c):
    return np.fromfile(os.path.join(data_dir, f), dtype=np.float64).reshape(r, c)


def c_side(np, cbs, shape, data_dir, ref):
    """both C programs on one shape: the causal layer's and the tiled
    layer's warm-ups, their memory; the inputs (the same bits in both), C's
    output, and every C output held to it within TOL"""
    t, d, h = shape
    cb, cob = cbs
    data_ob = os.path.join(data_dir, "openblas")
    os.makedirs(data_ob, exist_ok=True)
    c = {"est": {}, "mem": {}, "mmap": {}, "diff": {}}
    for k, prog, dr, r in (("C", cb, data_dir, ref), ("C_OpenBLAS", cob, data_ob, False)):
        peak, c["est"][k], c["mmap"][k] = prog.shape(t, d, h, SEED, dr, r)
        c["mem"][k] = peak + c["mmap"][k]
        peak, c["est"][k + "_tiled"], c["mmap"][k + "_tiled"] = prog.tiled(BLOCK, BLOCK, dr)
        c["mem"][k + "_tiled"] = peak + c["mmap"][k + "_tiled"]
    c["w"] = [load(np, data_dir, f"w_{m}.f64", d, d) for m in "qkvo"]
    c["x"], c["out"] = load(np, data_dir, "x.f64", t, d), load(np, data_dir, "out.f64", t, d)
    for f, r in (("w_q.f64", d), ("w_k.f64", d), ("w_v.f64", d), ("w_o.f64", d), ("x.f64", t)):
        if not np.array_equal(load(np, data_ob, f, r, d), load(np, data_dir, f, r, d)):
            die(f"({t}, {d}, {h}): mha_bench_openblas's {f} is not mha_bench's, bit for bit")
    for k, dr, f in (("C_OpenBLAS", data_ob, "out.f64"), ("C_tiled", data_dir, "out_tiled.f64"),
                     ("C_OpenBLAS_tiled", data_ob, "out_tiled.f64")):
        c["diff"][k] = agree(np, f"({t}, {d}, {h}): {LABEL[k]} vs C", load(np, dr, f, t, d),
                             c["out"])
    return c


def peer_side(np, torch, counter, c, shape, torch_grad):
    """NumPy's and PyTorch's layers, one call each, untimed: their outputs
    against C's, their peak memory, a first estimate of their time"""
    t, d, h = shape
    x = c["x"]
    xt = torch.from_numpy(x).unsqueeze(0)                   # (1, T, d), shares x
    f_np = numpy_layer(np, *c["w"], h)
    f_t = torch_layer(torch, np, *c["w"], h, t, torch_grad)
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    counter.start()
    t0 = time.perf_counter()
    y = f_np(x)
    c["est"]["NumPy"] = time.perf_counter() - t0
    counter.stop()
    c["mem"]["NumPy"] = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    c["mem_NumPy_malloc"] = counter.peak()
    c["diff"]["NumPy"] = agree(np, f"({t}, {d}, {h}): NumPy vs C", y, c["out"])
    del y
    counter.start()
    t0 = time.perf_counter()
    y = f_t(xt)
    c["est"]["PyTorch"] = time.perf_counter() - t0
    counter.stop()
    c["mem"]["PyTorch"] = counter.peak()
    c["diff"]["PyTorch"] = agree(np, f"({t}, {d}, {h}): PyTorch vs C", y[0].numpy(), c["out"])
    del y
    return f_np, f_t, xt


def timed_rounds(run, est, budget, rounds_forced, log, what):
    """calls per sample (short calls: the best of three short samples),
    then rounds in the orders of ORDERS within the budget; the samples"""
    reps = {k: reps_for(v) for k, v in est.items()}
    for k in IMPLS:
        if reps[k] > 1:
            est[k] = min(run[k](reps[k]) for _ in range(3))
            reps[k] = reps_for(est[k])
    round_s = sum(est[k] * reps[k] for k in TIMED)
    rounds = rounds_forced or max(MIN_ROUNDS, min(MAX_ROUNDS, int(budget / round_s)))
    log(f"bench: {what}: {rounds} rounds of about {round_s:.3g} s (calls per "
        "sample: " + ", ".join(f"{LABEL.get(k, k)} {reps[k]}" for k in TIMED) + ")")
    times = {k: [] for k in TIMED}
    for r in range(rounds):
        for i in ORDERS[r % len(ORDERS)]:
            k = TIMED[i]
            times[k].append(run[k](reps[k]))
    return times, reps, rounds


def run_shape(np, torch, counter, cbs, shape, out_dir, budget, rounds_forced, log,
              torch_grad, smoke):
    t, d, h, name = shape
    data_dir = os.path.join(out_dir, "data", f"{t}-{d}-{h}")
    # C's output against mha_forward with mask_causal: one more forward pass,
    # spared above REF_MAX_FLOP (the smoke and the smaller shapes do it). Not
    # for the other builds: their products of other shapes may round
    # otherwise; they are held to C's output within TOL, as the peers are
    ref = smoke or flop(t, d, h) <= REF_MAX_FLOP
    cb, cob = cbs
    c = c_side(np, cbs, (t, d, h), data_dir, ref)
    f_np, f_t, xt = peer_side(np, torch, counter, c, (t, d, h), torch_grad)
    x = c["x"]
    # the roof on its own (mha_bench's median of 5 to 15 samples): a first
    # estimate, and the roof command run as a user would run it
    est_roof = cob.roof(t, d)
    est = dict(c["est"], roof=est_roof)
    run = {"C": lambda r: cb.sample(r), "C_OpenBLAS": lambda r: cob.sample(r),
           "C_tiled": lambda r: cb.sample(r, "tiled"),
           "C_OpenBLAS_tiled": lambda r: cob.sample(r, "tiled"),
           "NumPy": lambda r: sample(f_np, x, r), "PyTorch": lambda r: sample(f_t, xt, r),
           "roof": lambda r: cob.roof(t, d, r)}
    times, reps, rounds = timed_rounds(run, est, budget, rounds_forced, log, f"({t}, {d}, {h})")
    pool_mapped, pool_resident = cob.pool()     # the pool the calls touched
    return shape_row(shape, c, times, reps, rounds, est_roof, ref, pool_mapped, pool_resident)


def shape_row(shape, c, times, reps, rounds, est_roof, ref, pool_mapped, pool_resident):
    """one row of the table and the TSV, from the samples of a shape"""
    t, d, h, name = shape
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
        "pct_roof_tiled": 100.0 * gf["C_OpenBLAS_tiled"] / roof_gf,
        "c_over_best": med["C"] / best_peer,
        "speedup_C_OpenBLAS": best_peer / med["C_OpenBLAS"],
        "speedup_C_OpenBLAS_tiled": best_peer / med["C_OpenBLAS_tiled"],
        "tiled_over_rows_C": med["C"] / med["C_tiled"],
        "tiled_over_rows_C_OpenBLAS": med["C_OpenBLAS"] / med["C_OpenBLAS_tiled"],
        **{f"ratio_{k}": med[k] / best_peer for k in IMPLS},
        **{f"mem_{k}": c["mem"][k] for k in IMPLS},
        **{f"mmap_{k}": c["mmap"][k] for k in C_KEYS},
        "pool_mapped": pool_mapped, "pool_resident": pool_resident,
        "mem_NumPy_malloc": c["mem_NumPy_malloc"],
        "rounds": rounds, **{f"reps_{k}": reps[k] for k in TIMED},
        **{f"spread_{k}": spread[k] for k in TIMED},
        **{f"ms_min_{k}": best[k] * 1e3 for k in TIMED},
        **{f"diff_{k}": c["diff"][k] for k in IMPLS if k != "C"},
        "ref": int(ref),
    }


# ---- decoding: the cache against recomputing, and the peers' cached loops ----------
def cache_bytes(t_max, d):
    """the cache's buffers, as fast.h states them: keys and values of
    2 T_max d_model doubles, a working row of 4 d_model + T_max"""
    return 2 * t_max * d * 8 + (4 * d + t_max) * 8


def run_decode(np, torch, cbs, out_dir, shape, rounds, samples, log):
    """T tokens decoded one at a time (the shape's X, row by row): with the
    cache in both builds, in NumPy's and PyTorch's cached loops, and by
    recomputing the tiled layer on every prefix (C+OpenBLAS: samples times;
    C: once, its warm-up); every output held to the causal layer's (C)"""
    t, d, h = shape
    cb, cob = cbs
    data_dir = os.path.join(out_dir, "data", f"decode-{t}-{d}-{h}")
    data_ob = os.path.join(data_dir, "openblas")
    os.makedirs(data_ob, exist_ok=True)
    cb.shape(t, d, h, SEED, data_dir, False)
    cob.shape(t, d, h, SEED, data_ob, False)
    res = {"T": t, "d_model": d, "n_heads": h, "sizeof_cache": 0}
    for k, prog, dr in (("C", cb, data_dir), ("C_OpenBLAS", cob, data_ob)):
        peak, est, map_peak, res["sizeof_cache"] = prog.decode(dr)
        res[f"mem_cache_{k}"] = peak + map_peak
    log(f"bench: decoding {t} tokens: the recomputations' warm-ups (a few seconds each)")
    res["ms_recompute_C"] = cb.recompute(data_dir) * 1e3          # timed once
    cob.recompute(data_ob)
    w = [load(np, data_dir, f"w_{m}.f64", d, d) for m in "qkvo"]
    x, ref = load(np, data_dir, "x.f64", t, d), load(np, data_dir, "out.f64", t, d)
    for k, dr, f in (("C", data_dir, "out_decode.f64"), ("C_OpenBLAS", data_ob, "out_decode.f64"),
                     ("recompute_C", data_dir, "out_recompute.f64"),
                     ("recompute_C_OpenBLAS", data_ob, "out_recompute.f64")):
        res[f"diff_{k}"] = agree(np, f"decoding ({t}, {d}, {h}): {k} vs the causal layer",
                                 load(np, dr, f, t, d), ref)
    f_np, f_t = numpy_decoder(np, *w, h), torch_decoder(torch, np, *w, h)
    xt = torch.from_numpy(x)
    res["diff_NumPy"] = agree(np, "decoding: NumPy's loop vs the causal layer", f_np(x), ref)
    res["diff_PyTorch"] = agree(np, "decoding: PyTorch's loop vs the causal layer",
                                f_t(xt).numpy(), ref)
    run = {"C": lambda: cb.sample(1, "decode"), "C_OpenBLAS": lambda: cob.sample(1, "decode"),
           "NumPy": lambda: sample(f_np, x, 1), "PyTorch": lambda: sample(f_t, xt, 1)}
    orders, times, rec = williams(len(DECODE)), {k: [] for k in DECODE}, []
    for r in range(rounds):
        for i in orders[r % len(orders)]:
            times[DECODE[i]].append(run[DECODE[i]]())
        if r * samples // rounds != (r + 1) * samples // rounds:   # spread out
            rec.append(cob.sample(1, "recompute"))
    res.update({f"ms_{k}": median(v) * 1e3 for k, v in times.items()})
    res["ms_recompute_C_OpenBLAS"] = median(rec) * 1e3
    res.update(rounds=rounds, recompute_samples=len(rec), cache_formula=cache_bytes(t, d))
    return res


def mini_width(r):
    return " (Mini-GPT's width)" if (r["d_model"], r["n_heads"]) == CURVE_WIDTH else ""


def decode_lines(r):
    t = r["T"]
    lines = [f"decoding: T = {t} tokens one at a time at d_model {r['d_model']}, "
             f"{r['n_heads']} heads{mini_width(r)}, ms per {t} tokens:",
             "  with the cache  " + "   ".join(f"{LABEL[k]} {fixed(r['ms_' + k])}" for k in DECODE)
             + f"   (median of {r['rounds']} round{'s' if r['rounds'] > 1 else ''}; C: "
             f"mha_cache_new, mha_decode_step x {t}, mha_cache_free)",
             f"  recomputing     C+OpenBLAS tiled {fixed(r['ms_recompute_C_OpenBLAS'])} "
             f"(median of {r['recompute_samples']})   C tiled {fixed(r['ms_recompute_C'])} "
             "(once): mha_forward_tiled on each prefix 1..T, its last row kept",
             "  the cache's speed-up over recomputing with C+OpenBLAS tiled: "
             + ", ".join(f"{LABEL[k]} {r['ms_recompute_C_OpenBLAS'] / r['ms_' + k]:.0f}x"
                         for k in ("C", "C_OpenBLAS")),
             "  agreement with the causal layer's rows (C), normwise: "
             + ", ".join(f"{k.replace('_', ' ').replace('C OpenBLAS', 'C+OpenBLAS')} "
                         f"{r['diff_' + k]:.2g}" for k in
                         ("C", "C_OpenBLAS", "NumPy", "PyTorch", "recompute_C",
                          "recompute_C_OpenBLAS")) + f" (tolerance {TOL:g})"]
    return lines


# ---- the block-size sweep of the tiled layer -----------------------------------------
def run_sweep(np, cbs, out_dir, shape, blocks, samples, log):
    """mha_forward_tiled at blocks (B, B), both builds: a warm-up (its
    memory; its output held to the causal layer's within TOL), then
    samples of one call each, the builds alternating; the medians"""
    t, d, h = shape
    cb, cob = cbs
    data_dir = os.path.join(out_dir, "data", f"sweep-{t}-{d}-{h}")
    data_ob = os.path.join(data_dir, "openblas")
    os.makedirs(data_ob, exist_ok=True)
    cb.shape(t, d, h, SEED, data_dir, False)
    cob.shape(t, d, h, SEED, data_ob, False)
    ref = load(np, data_dir, "out.f64", t, d)
    rows = {}
    for b in blocks:
        row = {"T": t, "d_model": d, "n_heads": h, "block": b, "samples": samples}
        for k, prog, dr in (("C_tiled", cb, data_dir), ("C_OpenBLAS_tiled", cob, data_ob)):
            peak, est, map_peak = prog.tiled(b, b, dr)
            row[f"mem_{k}"] = peak + map_peak
            row[f"diff_{k}"] = agree(np, f"sweep ({t}, {d}, {h}) blocks {b}: {LABEL[k]} vs C",
                                     load(np, dr, "out_tiled.f64", t, d), ref)
        rows[b] = row
    # the samples: rounds of every block in the orders of a balanced Latin
    # square, the builds alternating first
    log(f"bench: sweep ({t}, {d}, {h}): {samples} rounds of blocks "
        + ", ".join(map(str, blocks)))
    orders, pair = williams(len(blocks)), [("C_tiled", cb), ("C_OpenBLAS_tiled", cob)]
    times = {(b, k): [] for b in blocks for k, _ in pair}
    for s in range(samples):
        for i in orders[s % len(orders)]:
            b = blocks[i]
            for k, prog in (pair if (s + i) % 2 == 0 else pair[::-1]):
                times[b, k].append(prog.sample(1, f"tiled {b} {b}"))
    for (b, k), v in times.items():
        rows[b][f"ms_{k}"] = median(v) * 1e3
    return [rows[b] for b in blocks]


def sweep_lines(rows):
    r0 = rows[0]
    best = {k: min(rows, key=lambda r: r["ms_" + k])["block"]
            for k in ("C_tiled", "C_OpenBLAS_tiled")}
    lines = [f"block sizes: mha_forward_tiled(out, layer, x, T, B, B) at ({r0['T']}, "
             f"{r0['d_model']}, {r0['n_heads']}), ms per forward (median of "
             f"{r0['samples']} sample{'s' if r0['samples'] > 1 else ''} each, after a "
             "warm-up each; rounds of every block", "  in balanced orders, the two builds "
             "alternating):",
             f"  {'B':>5}  {'C tiled':>10}  {'C+OpenBLAS tiled':>16}  {'peak extra memory':>17}"]
    for r in rows:
        lines.append(f"  {r['block']:>5}  {fixed(r['ms_C_tiled']):>10}  "
                     f"{fixed(r['ms_C_OpenBLAS_tiled']):>16}  {human(r['mem_C_tiled']):>17}"
                     + ("   <- fastest " + " and ".join(LABEL[k] for k in best
                                                       if best[k] == r["block"])
                        if r["block"] in best.values() else ""))
    worst = max(max(r["diff_C_tiled"], r["diff_C_OpenBLAS_tiled"]) for r in rows)
    lines.append(f"  every output within normwise {worst:.2g} of the causal layer's (C) "
                 f"(tolerance {TOL:g}); the library's default is ({BLOCK}, {BLOCK})")
    return lines


# ---- time against T --------------------------------------------------------------------
def curve_lines(rows):
    r0 = rows[0]
    lines = [f"time against T at d_model {r0['d_model']}, {r0['n_heads']} heads{mini_width(r0)}, "
             "ms per forward (medians; bench-curve.svg):",
             f"  {'T':>5}  " + "  ".join(f"{LABEL[k]:>16}" for k in IMPLS) + "  rounds"]
    for r in rows:
        lines.append(f"  {r['T']:>5}  " + "  ".join(f"{fixed(r['ms_' + k]):>16}" for k in IMPLS)
                     + f"  {r['rounds']:>6}")
    return lines


# ---- the report -------------------------------------------------------------------------
TSV_COLUMNS = (["shape", "name", "T", "d_model", "n_heads", "flop"]
               + [f"ms_{k}" for k in IMPLS] + [f"gflops_{k}" for k in IMPLS]
               + ["roof_gflops", "roof_ms", "roof_alone_gflops", "pct_roof", "pct_roof_tiled",
                  "c_over_best", "speedup_C_OpenBLAS", "speedup_C_OpenBLAS_tiled",
                  "tiled_over_rows_C", "tiled_over_rows_C_OpenBLAS"]
               + [f"ratio_{k}" for k in IMPLS] + [f"mem_{k}" for k in IMPLS]
               + [f"mmap_{k}" for k in C_KEYS]
               + ["pool_mapped", "pool_resident", "mem_NumPy_malloc", "rounds"]
               + [f"reps_{k}" for k in TIMED] + [f"spread_{k}" for k in TIMED]
               + [f"ms_min_{k}" for k in TIMED]
               + [f"diff_{k}" for k in IMPLS if k != "C"] + ["ref"])
DECODE_COLUMNS = (["T", "d_model", "n_heads"] + [f"ms_{k}" for k in DECODE]
                  + ["ms_recompute_C_OpenBLAS", "ms_recompute_C", "rounds", "recompute_samples",
                     "mem_cache_C", "mem_cache_C_OpenBLAS", "cache_formula", "sizeof_cache"]
                  + [f"diff_{k}" for k in DECODE + ("recompute_C", "recompute_C_OpenBLAS")])
SWEEP_COLUMNS = ["T", "d_model", "n_heads", "block", "samples", "ms_C_tiled",
                 "ms_C_OpenBLAS_tiled", "mem_C_tiled", "mem_C_OpenBLAS_tiled",
                 "diff_C_tiled", "diff_C_OpenBLAS_tiled"]


def write_tsv(path, columns, rows):
    with open(path, "w") as f:
        f.write("\t".join(columns) + "\n")
        for r in rows:
            f.write("\t".join(tsv_value(r[c]) for c in columns) + "\n")
    return path


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
        "make bench: the causal multi-head layer, one sequence, row at a time "
        "(mha_forward_causal) and in tiles",
        "  (mha_forward_tiled), C and C+OpenBLAS vs NumPy vs PyTorch; decoding with "
        "the key/value cache; block sizes",
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
        "  time     median over paired rounds; a round times C, C+OpenBLAS (row at a "
        "time and tiled, blocks",
        f"           ({BLOCK}, {BLOCK})), NumPy, PyTorch and the roof once each, in orders of "
        "a balanced Latin square;",
        f"           a sample of a short call repeats it for about {SAMPLE_S * 1e3:.0f} ms "
        "(calibrated once per shape). Best",
        "           peer: the faster of NumPy and PyTorch. Every C output is held to the "
        f"readable C's within {TOL:g}.",
        "  roof     cblas_dgemm alone, one thread, at the layer's largest product X (T, d) "
        "W_QKV (d, 3d), in",
        "           mha_bench_openblas, as mm_matmul calls it: the median of a sample in "
        "each round (the TSV's",
        "           roof_alone_gflops: the roof command on its own, the median of 5 to 15 "
        "samples in a row).",
        "           % of roof: C+OpenBLAS's GFLOP/s (row at a time, tiled) over the "
        "roof's.",
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


def impl_heads(w, first, width, extra=""):
    """the two header lines over the six columns: the builds grouped as
    row at a time and tiled, then the peers"""
    top = (f"{'row at a time':^{2 * width + 1}} {'tiled':^{2 * width + 1}} "
           f"{'':{2 * width + 1}}")
    names = ["C", "C+OpenBLAS", "C", "C+OpenBLAS", "NumPy", "PyTorch"]
    return [f"{'':{w}}  {'':>{len(first)}}  {top}".rstrip(),
            f"{'shape (T, d, h)':{w}}  {first}  " + " ".join(f"{n:>{width}}" for n in names)
            + extra]


def table(rows):
    w = max([15] + [len(label(r)) for r in rows])
    cw = 10                                   # column width
    lines = [f"time per forward (ms), medians over the rounds; tiled: mha_forward_tiled "
             f"with blocks ({BLOCK}, {BLOCK})"]
    lines += impl_heads(w, f"{'MFLOP':>8}", cw, f"  {'rounds':>6}")
    for r in rows:
        lines.append(f"{label(r):{w}}  {fixed(r['flop'] * 1e-6):>8}  "
                     + " ".join(f"{fixed(r['ms_' + k]):>{cw}}" for k in IMPLS)
                     + f"  {r['rounds']:>6}")
    lines += ["", "GFLOP/s (the FLOP count over the median time); the dgemm roof; "
              "% of roof of C+OpenBLAS, row at a time and tiled"]
    lines += impl_heads(w, f"{'':>8}", cw, f"  {'roof':>7} {'% rows':>7} {'% tiled':>7}")
    for r in rows:
        lines.append(f"{label(r):{w}}  {'':>8}  "
                     + " ".join(f"{r['gflops_' + k]:{cw}.3f}" for k in IMPLS)
                     + f"  {r['roof_gflops']:7.2f} {r['pct_roof']:6.1f}% "
                     f"{r['pct_roof_tiled']:6.1f}%")
    lines += ["", "time over the best peer's (the faster of NumPy and PyTorch; below 1: "
              "faster than both); tiled speed-up: the", "row-at-a-time layer's time over the "
              "tiled layer's, in the same build",
              f"{'':{w}}  {'time / best peer':^67}  {'tiled speed-up':^21}".rstrip(),
              f"{'shape (T, d, h)':{w}}  " + " ".join(f"{LABEL[k]:>16}" for k in C_KEYS)
              + f"  {'C':>{cw}} {'C+OpenBLAS':>{cw}}"]
    for r in rows:
        lines.append(f"{label(r):{w}}  "
                     + " ".join(f"{r['ratio_' + k]:16.2f}" for k in C_KEYS)
                     + f"  {r['tiled_over_rows_C']:{cw - 1}.2f}x "
                     f"{r['tiled_over_rows_C_OpenBLAS']:{cw - 1}.2f}x")
    lines += ["", "peak extra memory of one forward"]
    lines += impl_heads(w, f"{'':>8}", cw)
    for r in rows:
        lines.append(f"{label(r):{w}}  {'':>8}  "
                     + " ".join(f"{human(r['mem_' + k]):>{cw}}" for k in IMPLS))
    return lines + agreement_lines(rows)


def agreement_lines(rows):
    lines = []
    for k in IMPLS[1:]:
        worst = max(rows, key=lambda r: r[f"diff_{k}"])
        lines.append(
            f"agreement: {LABEL[k]}'s output is C's within normwise {worst['diff_' + k]:.2g} "
            f"(tolerance {TOL:g}; largest at ({worst['T']}, {worst['d_model']}, "
            f"{worst['n_heads']}))")
    refs = [label(r) for r in rows if r["ref"]]
    if refs:
        lines.append("C's output is mha_forward's with mask_causal, bit for bit, at "
                     + ", ".join(refs))
    mapped = max(r["pool_mapped"] for r in rows)
    resident = max(r["pool_resident"] for r in rows)
    maps = max(max(r["mmap_C_OpenBLAS"], r["mmap_C_OpenBLAS_tiled"]) for r in rows)
    lines += [
        "memory notes: the C+OpenBLAS builds' peaks are the library's malloc calls (wrapped, "
        "as C's) plus the bytes",
        f"  OpenBLAS maps (mmap) during the call: {human(maps)} at most, at these shapes. Its "
        f"buffer pool, {human(mapped)} mapped",
        "  once per process at its first call (mha_bench_openblas makes that call at its "
        "start, before anything is",
        f"  counted) and reused by every call, is not in the peak: {human(resident)} of it "
        "were resident (touched) after",
        "  the last shape (mincore). NumPy and PyTorch call the same OpenBLAS and carry a "
        "pool of their own, not counted",
        "  either. OpenBLAS's own malloc calls, if any, come from the shared library: they "
        "are not wrapped, and not counted.",
    ]
    return lines


def verdict(ok, short):
    return "met" if ok else f"missed by {short}"


def times_line(v, target):
    """'met' or how far v (a speed-up) is short of target"""
    return verdict(v >= target, f"{target - v:.2f}x ({100 * (1 - v / target):.0f} % short)")


def targets(rows, dec):
    """the targets block: each line the measured value, the target, met or
    missed by how much"""
    w = max([0] + [len(label(r)) for r in rows])
    lines = ["targets:",
             f"  (a) C+OpenBLAS tiled at least {TARGET_SPEEDUP}x the best peer, at every shape:"]
    for r in rows:
        v = r["speedup_C_OpenBLAS_tiled"]
        lines.append(f"        {label(r):{w}}  {v:5.2f}x  " + times_line(v, TARGET_SPEEDUP))
    gpt2 = [r for r in rows if (r["T"], r["d_model"], r["n_heads"]) == GPT2]
    if gpt2:
        r = gpt2[0]
        v = r["pct_roof_tiled"]
        lines.append(f"  (b) C+OpenBLAS tiled at least {TARGET_ROOF:.0f} % of the dgemm roof at "
                     f"GPT-2 small: {v:.1f} % ({r['gflops_C_OpenBLAS_tiled']:.2f} of "
                     f"{r['roof_gflops']:.2f} GFLOP/s)  "
                     + verdict(v >= TARGET_ROOF, f"{TARGET_ROOF - v:.1f} points"))
        v = r["tiled_over_rows_C"]
        lines.append(f"  (c) C tiled at least {TARGET_TILED:.0f}x as fast as C (row at a time) "
                     f"at GPT-2 small: {v:.2f}x ({fixed(r['ms_C_tiled'])} vs {fixed(r['ms_C'])} "
                     "ms)  " + times_line(v, TARGET_TILED))
    else:
        lines += [f"  (b) C+OpenBLAS tiled at least {TARGET_ROOF:.0f} % of the dgemm roof at "
                  f"GPT-2 small: not measured ({GPT2} is not in this run)",
                  f"  (c) C tiled at least {TARGET_TILED:.0f}x as fast as C at GPT-2 small: "
                  f"not measured ({GPT2} is not in this run)"]
    lines.append("      and C tiled faster than both peers at every T <= 64 (time / best peer "
                 "below 1):")
    small = [r for r in rows if r["T"] <= 64]
    if not small:
        lines.append("        no shape with T <= 64 in this run")
    for r in small:
        v = r["ratio_C_tiled"]
        lines.append(f"        {label(r):{w}}  {v:5.2f}  "
                     + ("met (%.2fx as fast as the best peer)" % (1 / v) if v < 1 else
                        verdict(False, f"{v - 1:.2f} ({100 * (v - 1):.0f} % slower)")))
    lines += decode_targets(dec) + memory_targets(gpt2[0] if gpt2 else None, dec)
    return lines


def decode_targets(dec):
    if dec is None:
        return [f"  (d) decoding with the cache at least {TARGET_DECODE:.0f}x as fast as "
                "recomputing: not measured (no decoding in this run)"]
    t = dec["T"]
    lines = [f"  (d) decoding {t} tokens with the cache at least {TARGET_DECODE:.0f}x as fast "
             "as recomputing (C+OpenBLAS tiled,",
             f"      {fixed(dec['ms_recompute_C_OpenBLAS'])} ms), and faster than NumPy's and "
             "PyTorch's cached loops "
             f"({fixed(dec['ms_NumPy'])} and {fixed(dec['ms_PyTorch'])} ms):"]
    for k in ("C", "C_OpenBLAS"):
        ms = dec["ms_" + k]
        v = dec["ms_recompute_C_OpenBLAS"] / ms
        peer = min(dec["ms_NumPy"], dec["ms_PyTorch"])
        lines.append(f"        {LABEL[k]:10}  {fixed(ms)} ms: {v:.0f}x  "
                     + times_line(v, TARGET_DECODE) + "; vs the faster peer's loop "
                     f"{peer / ms:.2f}x  "
                     + verdict(ms < peer, f"{ms - peer:.3g} ms ({100 * (ms / peer - 1):.0f} % "
                               "slower)"))
    return lines


def memory_targets(r, dec):
    if r is None:
        lines = [f"  (e) peak extra memory of the tiled layer at GPT-2 small at most "
                 f"{TARGET_MIB:.0f} MiB: not measured ({GPT2} is not in this run)"]
    else:
        lines = [f"  (e) peak extra memory of the tiled layer at GPT-2 small at most "
                 f"{TARGET_MIB:.0f} MiB:"]
        for k in ("C_tiled", "C_OpenBLAS_tiled"):
            mib = r[f"mem_{k}"] / 2**20
            lines.append(f"        {LABEL[k]:16}  {mib:6.2f} MiB  "
                         + verdict(mib <= TARGET_MIB, f"{mib - TARGET_MIB:.2f} MiB"))
    if dec is not None:
        t, d, f, s = dec["T"], dec["d_model"], dec["cache_formula"], dec["sizeof_cache"]
        lines.append(f"      the cache's buffers, 2 T_max d_model 8 + (4 d_model + T_max) 8 = "
                     f"{f} bytes at T_max = {t}, d_model = {d}; the counter saw:")
        for k in ("C", "C_OpenBLAS"):
            got = dec[f"mem_cache_{k}"]
            lines.append(f"        {LABEL[k]:10}  {got} bytes = the buffers + {got - f} "
                         + ("(sizeof (mha_cache), the struct itself): equal" if got - f == s
                            else f"(sizeof (mha_cache) is {s}): NOT the buffers and the struct"))
    return lines


def plot(gp, tsv, out_base, subtitle):
    gq = lambda s: "'" + s.replace("'", "''") + "'"      # a gnuplot string
    lines = '."\\n".'.join(gq(line) for line in subtitle.split("\n"))  # its lines
    for term in ("svg", "png"):
        out = f"{out_base}.{term}"
        p = subprocess.run(
            ["gnuplot", "-e", f"data={gq(tsv)}; out={gq(out)}; term={gq(term)}; "
             f"subtitle={lines}", gp],
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
    ap.add_argument("--parts", default=",".join(PARTS),
                    help="what to run, of " + ", ".join(PARTS) + " (default: all): the "
                    "table's shapes, decoding, the block sweep, the curve against T")
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
    args.shape_list = shapes
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
    rows, dec, sweep, curve = run_parts(args, np, torch, counter, (cb, cob), log,
                                        rounds_forced)
    cb.close()
    cob.close()
    load_end = os.getloadavg()[0]
    report(args, np, torch, info_ob, peer_ob, has_avx2, machine, (load_start, load_end),
           rows, dec, sweep, curve, start, log)


def run_parts(args, np, torch, counter, cbs, log, rounds_forced):
    """the table's shapes, decoding, the block sweep and the curve, as
    --parts asks (the smoke: all four, each as small as it goes)"""
    parts, smoke, grad = args.parts.split(","), args.smoke, not args.torch_no_grad
    for p in parts:
        if p not in PARTS:
            die(f"--parts: unknown part '{p}' (of {', '.join(PARTS)})")
    rows, dec, sweep, curve = [], None, [], []
    if "layer" in parts:
        left = args.budget
        for i, s in enumerate(args.shape_list):
            t0 = time.monotonic()
            share = left / (len(args.shape_list) - i)      # what earlier shapes left over
            rows.append(run_shape(np, torch, counter, cbs, s, args.out, share,
                                  rounds_forced, log, grad, smoke))
            left -= time.monotonic() - t0
    if "decode" in parts:
        dec = run_decode(np, torch, cbs, args.out, SMOKE_DECODE if smoke else DECODE_SHAPE,
                         1 if smoke else DECODE_ROUNDS, 1 if smoke else RECOMPUTE_SAMPLES, log)
    if "sweep" in parts:
        sweep = run_sweep(np, cbs, args.out, SMOKE_SHAPE[:3] if smoke else GPT2,
                          SMOKE_SWEEP if smoke else SWEEP_BLOCKS,
                          1 if smoke else SWEEP_SAMPLES, log)
    if "curve" in parts:
        shapes = SMOKE_CURVE if smoke else [(t,) + CURVE_WIDTH for t in CURVE_T]
        for s in shapes:
            name = "Mini-GPT" if s == (64, 64, 4) else ""
            curve.append(run_shape(np, torch, counter, cbs, s + (name,), args.out,
                                   args.budget * CURVE_SHARE / len(shapes), rounds_forced,
                                   log, grad, smoke))
    return rows, dec, sweep, curve


def report(args, np, torch, info_ob, peer_ob, has_avx2, machine, load, rows, dec, sweep,
           curve, start, log):
    """the text (printed, bench.txt), the TSVs and the plots"""
    lines = header(args, np, torch, info_ob, peer_ob, has_avx2, machine)
    lines.append(f"  load     1-minute load average {load[0]:.2f} at the start, "
                 f"{load[1]:.2f} at the end ({os.cpu_count()} CPUs; above 1, other "
                 "work shares them)")
    if rows:
        lines += [""] + table(rows)
    if dec:
        lines += [""] + decode_lines(dec)
    if sweep:
        lines += [""] + sweep_lines(sweep)
    if curve:
        lines += [""] + curve_lines(curve)
    lines += [""] + targets(rows, dec)
    if args.projections:
        p = subprocess.run([args.prog, "--projections", str(args.projections)],
                           capture_output=True, text=True, env=child_env())
        if p.returncode != 0:
            die(f"{args.prog} --projections failed: {p.stdout}{p.stderr}")
        lines += [""] + p.stdout.rstrip().splitlines()
    files = []
    for name, columns, data in (("bench.tsv", TSV_COLUMNS, rows),
                                ("decode.tsv", DECODE_COLUMNS, [dec] if dec else []),
                                ("sweep.tsv", SWEEP_COLUMNS, sweep),
                                ("curve.tsv", TSV_COLUMNS, curve)):
        if data:
            files.append(write_tsv(os.path.join(args.out, name), columns, data))
    if args.gnuplot:
        kernels = info_ob[1] + (f"/{peer_ob[0]}" if peer_ob and peer_ob[0] != info_ob[1] else "")
        subtitle = (f"{datetime.date.today().isoformat()}; CFLAGS='{args.cflags}'; "
                    f"OpenBLAS kernels {kernels};\nNumPy and PyTorch on {loaded_blas()[1]}; "
                    "one thread each")
        if rows:
            files += plot(args.gnuplot, files[0], os.path.join(args.out, "bench"), subtitle)
        if curve:
            files += plot(os.path.join(os.path.dirname(args.gnuplot), "curve.gp"),
                          os.path.join(args.out, "curve.tsv"),
                          os.path.join(args.out, "bench-curve"), subtitle)
    lines.append(f"run: {time.monotonic() - start:.0f} s; files: {', '.join(files)}")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "bench.txt"), "w") as f:
        f.write(text)
    if not args.smoke:
        sys.stdout.write(text)
        return
    smoke_summary(rows, dec, sweep, curve, info_ob, args.out, start)


def smoke_summary(rows, dec, sweep, curve, info_ob, out, start):
    """the smoke's one paragraph: what ran, and how close it came"""
    r = rows[0]
    diff = max(r["diff_" + k] for k in IMPLS[1:])
    if dec["mem_cache_C"] != dec["cache_formula"] + dec["sizeof_cache"]:
        die(f"the cache of {dec['T']} tokens, width {dec['d_model']}: the counter saw "
            f"{dec['mem_cache_C']} bytes, not the buffers ({dec['cache_formula']}) and the "
            f"struct ({dec['sizeof_cache']})")
    print(f"bench smoke: ({r['T']}, {r['d_model']}, {r['n_heads']}), one round: "
          + ", ".join(f"{LABEL[k]} {r['ms_' + k]:.3g} ms" for k in IMPLS)
          + f"; every other output within {diff:.2g} of C's (tolerance {TOL:g}); C's "
          f"output is mha_forward's with mask_causal, bit for bit; dgemm roof "
          f"{r['roof_gflops']:.3g} GFLOP/s (OpenBLAS {info_ob[1]}); decoding "
          f"{dec['T']} tokens with the cache (both builds, NumPy, PyTorch) and by "
          f"recomputing within {max(dec['diff_' + k] for k in DECODE):.2g} of the causal "
          f"layer, the cache's {dec['mem_cache_C']} bytes its buffers and struct; blocks "
          + ", ".join(str(s["block"]) for s in sweep) + " swept; the curve at T = "
          + ", ".join(str(c["T"]) for c in curve) + f"; report and plots in {out}/ "
          f"({time.monotonic() - start:.1f} s)")


if __name__ == "__main__":
    main()
