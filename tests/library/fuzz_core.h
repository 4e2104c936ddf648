/* fuzz_core.h - one fuzz case: random shapes and values, every public
 * computing function of the library compared with a long-double reference
 * written here, independently of the library.
 *
 * The bound: for a dot product of length k of finite doubles, the library's
 * result c and the exact value r satisfy |c - r| <= (k + 2) u sum |a_p b_p|
 * (u = 2^-53, the unit roundoff; the classic gamma_k bound of Higham, with
 * one u to spare for the long-double reference itself). The softmax weights
 * of a row whose scores carry errors up to E satisfy |w - r| <= r (2.5 E +
 * (T + 8) u) + (T + 1) 2^-1074 / sum (an exponential in the subnormals
 * keeps only 2^-1074), and the output adds the bound of its own sums; rows whose
 * exponentials overflow or reach the subnormals are only required to be
 * reported (MM_ERANGE) or finite. Copies (pack, split) must be exact; the
 * fused projection must equal the separate one bit for bit; the parameter
 * count must be exact; the generator must match an independent splitmix64
 * and polar method to 16 u. Chapter 03: the head split and merge must copy
 * exactly; the layer's forward pass is bounded through its three products
 * and its per-head softmax (fuzz_core.c, check_mha), and a drawn layer's
 * weights must be attention_init_weights of its seed, bit for bit. Chapter
 * 04: mha_forward_causal is held to the same bound with the causal mask,
 * whose hidden keys are never scored (a row fails only on what it sees),
 * its weights above the diagonal are exactly +0, and it gives the bits of
 * mha_forward with the causal bias; the masks must equal their truth tables
 * bit for bit, and mask_combine the correctly rounded sums (MM_ERANGE, bias
 * unchanged, when one overflows). Chapter 05: softmax_online within chapter
 * 02's bound with n + 2b in place of n (b blocks: two roundings per
 * rescaling of the sum); sdpa_causal_tiled against the long-double causal
 * attention, the bound widened by the rescalings of l and of the
 * accumulator, a hidden key's overflow never reported (MM_ERANGE is also
 * allowed where the accumulator, up to n times an output, may overflow:
 * the header names only the output); mha_forward_tiled
 * (random blocks) and T steps of mha_decode_step against the causal layer's
 * reference, a failed step leaving the cache's count unchanged (fuzz_core.c,
 * tiled_row, check_mha). Statuses: MM_OK with finite outputs whenever the
 * exact results are comfortably inside the range of double, MM_ERANGE only
 * when they are at or past its edge. */
#ifndef TESTS_LIBRARY_FUZZ_CORE_H
#define TESTS_LIBRARY_FUZZ_CORE_H

#include <stddef.h>
#include <stdint.h>

/* fz_source - where a case's random choices come from: bytes (libFuzzer),
 * then, when they run out, a splitmix64 stream of seed */
typedef struct {
    const uint8_t *data;
    size_t size, pos;
    uint64_t state;
} fz_source;

void fz_from_seed(fz_source *s, uint64_t seed);
void fz_from_bytes(fz_source *s, const uint8_t *data, size_t size);

/* fz_run - one case; NULL if it passes, else what failed, in why */
const char *fz_run(fz_source *s, char *why, size_t why_size);

/* fz_counts - how many cases of each kind ran, as text, for the report */
const char *fz_counts(void);

#endif
