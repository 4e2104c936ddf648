#!/usr/bin/python3
"""make bench: the library's causal multi-head layer next to NumPy and PyTorch.

Times one forward pass of mha_forward_causal (tests/bench/mha_bench.c, a
child process that takes commands on a pipe) and, on the same weights and X
(written by that program), a NumPy implementation and PyTorch's
nn.MultiheadAttention, in paired rounds; prints the table, writes it as TSV
and draws it with gnuplot (tests/bench/README.md says what is measured).

Usage (tests/bench/bench.mk runs it):
  bench.py --prog build/bench/mha_bench --memcount build/bench/alloc_count.so
           --out build/bench [--budget S] [--shapes T,D,H ...] [--smoke]
           [--cc CC --cflags CFLAGS --compile LINE --lib LIBRARY] [--gnuplot GP]
           [--projections T]
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
import itertools
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
IMPLS = ("C", "NumPy", "PyTorch")


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
        self.p = subprocess.Popen([prog], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, env=child_env())

    def ask(self, line, word):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        reply = self.p.stdout.readline().split()
        if not reply or reply[0] != word:
            die(f"mha_bench, asked '{line}', answered: {' '.join(reply) or '(nothing)'}")
        return reply[1:]

    def shape(self, t, d, h, seed, data_dir, ref):
        ok, peak, blocks, seconds = self.ask(
            f"shape {t} {d} {h} {seed} {data_dir}" + (" ref" if ref else ""), "shape")
        return int(peak), float(seconds)

    def sample(self, reps):
        """seconds per call over reps back-to-back calls"""
        return float(self.ask(f"time {reps}", "time")[0]) / reps

    def close(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.close()
        if self.p.wait() != 0:
            die(f"mha_bench exited with status {self.p.returncode}")


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
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                k, _, v = (s.strip() for s in line.partition(":"))
                if k == "model name":
                    model = v
                    logical += 1
                elif k == "flags":
                    flags = set(v.split())
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
    return f"{model}; {logical} logical CPUs, {ncores} cores; {', '.join(simd) or 'no AVX2'}"


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


# ---- one shape ----------------------------------------------------------------------
def run_shape(np, torch, counter, cb, shape, out_dir, budget, rounds_forced, log,
              torch_grad, smoke):
    t, d, h, name = shape
    data_dir = os.path.join(out_dir, "data", f"{t}-{d}-{h}")
    os.makedirs(data_dir, exist_ok=True)
    # C's output against mha_forward with mask_causal: one more forward pass,
    # spared above REF_MAX_FLOP (the smoke and the smaller shapes do it)
    ref = smoke or flop(t, d, h) <= REF_MAX_FLOP
    mem_c, est_c = cb.shape(t, d, h, SEED, data_dir, ref)
    load = lambda f, r, c: np.fromfile(os.path.join(data_dir, f), dtype=np.float64).reshape(r, c)
    w_q, w_k, w_v, w_o = (load(f"w_{m}.f64", d, d) for m in "qkvo")
    x, out_c = load("x.f64", t, d), load("out.f64", t, d)
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

    # repetitions per sample, then rounds within the budget
    est = {"C": est_c, "NumPy": est_np, "PyTorch": est_t}
    reps = {k: reps_for(v) for k, v in est.items()}
    run = {"C": lambda r: cb.sample(r), "NumPy": lambda r: sample(f_np, x, r),
           "PyTorch": lambda r: sample(f_t, xt, r)}
    for k in IMPLS:       # short calls: the best of three short samples
        if reps[k] > 1:
            est[k] = min(run[k](reps[k]) for _ in range(3))
            reps[k] = reps_for(est[k])
    round_s = sum(est[k] * reps[k] for k in IMPLS)
    rounds = rounds_forced or max(MIN_ROUNDS, min(MAX_ROUNDS, int(budget / round_s)))
    log(f"bench: ({t}, {d}, {h}): {rounds} rounds of about {round_s:.3g} s "
        f"(calls per sample: C {reps['C']}, NumPy {reps['NumPy']}, PyTorch {reps['PyTorch']})")

    times = {k: [] for k in IMPLS}
    orders = list(itertools.permutations(IMPLS))
    for r in range(rounds):
        for k in orders[r % len(orders)]:
            times[k].append(run[k](reps[k]))
    med = {k: median(v) for k, v in times.items()}
    best = {k: min(v) for k, v in times.items()}
    spread = {k: (max(v) - min(v)) / med[k] for k, v in times.items()}
    fl = flop(t, d, h)
    return {
        "shape": f"{t},{d},{h}", "name": name or "-", "T": t, "d_model": d, "n_heads": h,
        "flop": fl,
        **{f"ms_{k}": med[k] * 1e3 for k in IMPLS},
        **{f"gflops_{k}": fl / med[k] * 1e-9 for k in IMPLS},
        "c_over_best": med["C"] / min(med["NumPy"], med["PyTorch"]),
        "mem_C": mem_c, "mem_NumPy": mem_np, "mem_PyTorch": mem_t,
        "mem_NumPy_malloc": mem_np_malloc,
        "rounds": rounds, **{f"reps_{k}": reps[k] for k in IMPLS},
        **{f"spread_{k}": spread[k] for k in IMPLS},
        **{f"ms_min_{k}": best[k] * 1e3 for k in IMPLS},
        "diff_NumPy": diff_np, "diff_PyTorch": diff_t, "ref": int(ref),
    }


# ---- the report -------------------------------------------------------------------------
TSV_COLUMNS = ["shape", "name", "T", "d_model", "n_heads", "flop",
               "ms_C", "ms_NumPy", "ms_PyTorch", "gflops_C", "gflops_NumPy", "gflops_PyTorch",
               "c_over_best", "mem_C", "mem_NumPy", "mem_PyTorch", "mem_NumPy_malloc",
               "rounds", "reps_C", "reps_NumPy", "reps_PyTorch",
               "spread_C", "spread_NumPy", "spread_PyTorch", "ms_min_C", "ms_min_NumPy",
               "ms_min_PyTorch", "diff_NumPy", "diff_PyTorch", "ref"]


def tsv_value(v):
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def header(args, np, torch):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cc = shlex.split(args.cc or "cc")
    cc_version = run_text(cc + ["--version"]).splitlines()
    torch_blas = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    lines = [
        "make bench: mha_forward_causal (the causal multi-head layer, one sequence), "
        "C vs NumPy vs PyTorch",
        f"  date     {now}",
        f"  machine  {cpu_info()}",
        f"  C        {cc_version[0] if cc_version else args.cc}; CFLAGS='{args.cflags}'",
        f"           compiled as: {' '.join(args.compile.split())}",
        f"           matrix products: {c_backend(args.lib)}",
        f"  NumPy    {np.__version__}; PyTorch {torch.__version__} "
        f"(BLAS_INFO={torch_blas.group(1) if torch_blas else '?'}); "
        f"Python {sys.version.split()[0]}",
        f"           BLAS loaded: {loaded_blas()[0]}",
        "           PyTorch: nn.MultiheadAttention(d, h, bias=False, batch_first=True, "
        "float64), boolean causal attn_mask,",
        "           need_weights=False, "
        + ("under torch.no_grad()" if args.torch_no_grad else
           "autograd on (as tests/oracle; the saved tensors count), output detached"),
        "  threads  one each: " + ", ".join(f"{v}=1" for v in THREAD_VARS)
        + ", torch.set_num_threads(1)",
        "  FLOP     8 T d^2 + 2 T (T+1) d per forward: projections 2 T d 3d (Q, K, V) and "
        "2 T d d (W_O);",
        "           per head 2 T(T+1)/2 d_k for the scores and as many for the weighted "
        "sum: the causal half,",
        "           diagonal included, as the C code computes them (scaling, mask, softmax "
        "not counted).",
        "           NumPy and PyTorch compute all T x T scores, then mask: they are "
        "credited with the same count.",
        "  time     median over paired rounds; a round times C, NumPy and PyTorch once "
        "each, the order rotating;",
        f"           a sample of a short call repeats it for about {SAMPLE_S * 1e3:.0f} ms "
        "(calibrated once per shape).",
        "           C/best: C's time over the faster peer's (above 1: C is slower).",
        "  memory   peak bytes allocated during one forward, beyond what existed before "
        "(weights, X):",
        "           C: the library's malloc calls (-Wl,--wrap, tests/bench/alloc_count.c); "
        "NumPy: tracemalloc;",
        "           PyTorch: every malloc/posix_memalign of the process (alloc_count.c "
        "preloaded). NumPy and",
        "           PyTorch count their output (T d 8 bytes); C writes the caller's "
        "buffer.",
    ]
    return lines


def table(rows):
    def label(r):
        s = f"({r['T']}, {r['d_model']}, {r['n_heads']})"
        return s + (" " + r["name"] if r["name"] != "-" else "")
    w = max([15] + [len(label(r)) for r in rows])
    ms, gf, mem = 9, 7, 9                     # column widths
    group = lambda title, width: f"{title:^{3 * width + 2}}"
    lines = [
        f"{'':{w}}  {'':>8}  {group('time per forward (ms)', ms)}  "
        f"{group('GFLOP/s', gf)}  {'C/best':>6}  {group('peak extra memory', mem)}  {'':>6}",
        f"{'shape (T, d, h)':{w}}  {'MFLOP':>8}  "
        + " ".join(f"{k:>{ms}}" for k in IMPLS) + "  "
        + " ".join(f"{k:>{gf}}" for k in IMPLS) + f"  {'(time)':>6}  "
        + " ".join(f"{k:>{mem}}" for k in IMPLS) + f"  {'rounds':>6}",
    ]
    for r in rows:
        lines.append(
            f"{label(r):{w}}  {fixed(r['flop'] * 1e-6):>8}  "
            + " ".join(f"{fixed(r['ms_' + k]):>{ms}}" for k in IMPLS) + "  "
            + " ".join(f"{r['gflops_' + k]:{gf}.3f}" for k in IMPLS) + "  "
            + f"{r['c_over_best']:6.2f}  "
            + " ".join(f"{human(r['mem_' + k]):>{mem}}" for k in IMPLS)
            + f"  {r['rounds']:>6}")
    worst = max(rows, key=lambda r: max(r["diff_NumPy"], r["diff_PyTorch"]))
    lines.append(
        "agreement: NumPy's and PyTorch's outputs are C's within normwise "
        f"{max(worst['diff_NumPy'], worst['diff_PyTorch']):.2g} (tolerance {TOL:g}; "
        f"largest at ({worst['T']}, {worst['d_model']}, {worst['n_heads']}))")
    refs = [label(r) for r in rows if r["ref"]]
    if refs:
        lines.append("C's output is mha_forward's with mask_causal, bit for bit, at "
                     + ", ".join(refs))
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
    ap.add_argument("--prog", required=True, help="mha_bench")
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
    ap.add_argument("--gnuplot", help="the gnuplot script (no plot without it)")
    ap.add_argument("--torch-no-grad", action="store_true",
                    help="call PyTorch under torch.no_grad() (default: autograd on, "
                    "output detached, as tests/oracle does)")
    ap.add_argument("--projections", type=int, default=0, metavar="T",
                    help="also time chapter 01's projections at this T")
    args = ap.parse_args()

    # the counter must be the process's malloc: preload it, before NumPy
    so = os.path.abspath(args.memcount)
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

    cb = CBench(args.prog)
    rows = []
    left = args.budget
    for i, s in enumerate(shapes):
        t0 = time.monotonic()
        share = left / (len(shapes) - i)      # what earlier shapes left over
        rows.append(run_shape(np, torch, counter, cb, s, args.out, share,
                              rounds_forced, log, not args.torch_no_grad, args.smoke))
        left -= time.monotonic() - t0
    cb.close()
    load_end = os.getloadavg()[0]

    lines = header(args, np, torch)
    lines.append(f"  load     1-minute load average {load_start:.2f} at the start, "
                 f"{load_end:.2f} at the end ({os.cpu_count()} CPUs; above 1, other "
                 "work shares them)")
    lines += [""] + table(rows)
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
        subtitle = (f"{datetime.date.today().isoformat()}; C: CFLAGS='{args.cflags}'; "
                    f"NumPy and PyTorch on {loaded_blas()[1]}; one thread each")
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
          + ", ".join(f"{k} {r['ms_' + k]:.3g} ms" for k in IMPLS)
          + f"; NumPy and PyTorch within {max(r['diff_NumPy'], r['diff_PyTorch']):.2g} "
          f"of C (tolerance {TOL:g}); C's output is mha_forward's with mask_causal, "
          f"bit for bit; report and plots in {args.out}/ ({time.monotonic() - start:.1f} s)")


if __name__ == "__main__":
    main()
