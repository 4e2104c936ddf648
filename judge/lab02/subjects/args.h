/* args.h - the argument checks of sdpa, as the subjects of judge/lab02/subjects/
 * write them (the library's order: pointers, sizes, each buffer's size,
 * overlaps, values). A mutant may define ARGS_NO_OVERLAP (no overlap check)
 * or ARGS_NO_BIAS (no look at the bias) before including base.h. */
#define SDPA_CHECK_ARGS() do {                                                      \
    MM_NEED_BUFFER(out);                                                            \
    MM_NEED_BUFFER(q);  MM_NEED_BUFFER(k);  MM_NEED_BUFFER(v);                      \
    MM_NEED_POSITIVE(T_q);  MM_NEED_POSITIVE(T_k);                                  \
    MM_NEED_POSITIVE(d_k);  MM_NEED_POSITIVE(d_v);                                  \
    MM_NEED_SIZE_PRODUCT(T_q, d_k);  MM_NEED_SIZE_PRODUCT(T_k, d_k);                \
    MM_NEED_SIZE_PRODUCT(T_k, d_v);  MM_NEED_SIZE_PRODUCT(T_q, d_v);                \
    MM_NEED_SIZE_PRODUCT(T_q, T_k);                                                 \
    SDPA_CHECK_OVERLAPS();                                                          \
    MM_NEED_FINITE(q, T_q, d_k);  MM_NEED_FINITE(k, T_k, d_k);                      \
    MM_NEED_FINITE(v, T_k, d_v);                                                    \
    SDPA_CHECK_BIAS();                                                              \
} while (0)

#ifdef ARGS_NO_OVERLAP
#define SDPA_CHECK_OVERLAPS() ((void)0)
#else
#define SDPA_CHECK_OVERLAPS() do {                                                  \
    size_t n_w = weights ? (size_t)T_q * T_k : 0, n_b = bias ? (size_t)T_q * T_k : 0; \
    const mm_buffer bufs[] = {                                                      \
        MM_BUFFER(out, (size_t)T_q * d_v), MM_BUFFER(weights, n_w),                 \
        MM_BUFFER(q, (size_t)T_q * d_k), MM_BUFFER(k, (size_t)T_k * d_k),           \
        MM_BUFFER(v, (size_t)T_k * d_v), MM_BUFFER(bias, n_b) };                    \
    MM_NEED_DISJOINT(bufs, 2);                                                      \
} while (0)
#endif

#ifdef ARGS_NO_BIAS
#define SDPA_CHECK_BIAS() ((void)0)
#else
#define SDPA_CHECK_BIAS() do {                                                      \
    for (size_t e = 0; bias && e < (size_t)T_q * T_k; e++)                          \
        if (isnan(bias[e]) || bias[e] == INFINITY)                                  \
            return mm_fail(MM_EINVAL, "sdpa: bias[%zu] is %g", e, bias[e]);         \
} while (0)
#endif
