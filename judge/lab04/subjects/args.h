/* args.h - the argument checks of lab 04's functions, as the subjects of
 * judge/lab04/subjects/ write them (the library's order: pointers, sizes,
 * overlaps). A mutant may define ARGS_NO_SIZE_PRODUCT (the masks check no
 * T_q x T_k), ARGS_CAUSAL_NO_SIZE (mha_forward_causal checks no T x T),
 * ARGS_BOOL_NO_OVERLAP or ARGS_COMBINE_NO_OVERLAP (no overlap check), or
 * COMBINE_SAME_REFUSED (bias == other refused too), before including
 * base.h. */
#ifdef ARGS_NO_SIZE_PRODUCT
#define MASK_CHECK_SIZE(T_q, T_k) ((void)0)
#else
#define MASK_CHECK_SIZE(T_q, T_k) MM_NEED_SIZE_PRODUCT(T_q, T_k)
#endif

#define MASK_CHECK_ARGS(bias, T_q, T_k) do {                                        \
    MM_NEED_BUFFER(bias);                                                           \
    MM_NEED_POSITIVE(T_q);  MM_NEED_POSITIVE(T_k);                                  \
    MASK_CHECK_SIZE(T_q, T_k);                                                      \
} while (0)

#ifdef ARGS_BOOL_NO_OVERLAP
#define BOOL_CHECK_OVERLAP() ((void)0)
#else
#define BOOL_CHECK_OVERLAP() do {                                                   \
    size_t n_ = (size_t)T_q * T_k;                                                  \
    const mm_buffer bufs_[] = { MM_BUFFER(bias, n_), MM_BUFFER(allowed, n_) };      \
    MM_NEED_DISJOINT(bufs_, 1);                                                     \
} while (0)
#endif

#if defined ARGS_COMBINE_NO_OVERLAP
#define COMBINE_CHECK_OVERLAP() ((void)0)
#elif defined COMBINE_SAME_REFUSED
#define COMBINE_CHECK_OVERLAP() do {                                                \
    size_t n_ = (size_t)T_q * T_k;                                                  \
    const mm_buffer bufs_[] = { MM_BUFFER(bias, n_), MM_BUFFER(other, n_) };        \
    MM_NEED_DISJOINT(bufs_, 1);                                                     \
} while (0)
#else
#define COMBINE_CHECK_OVERLAP() do {                                                \
    size_t n_ = (size_t)T_q * T_k;                                                  \
    const mm_buffer bufs_[] = { MM_BUFFER(bias, n_), MM_BUFFER(other, n_) };        \
    if (bias != other) MM_NEED_DISJOINT(bufs_, 1);                                  \
} while (0)
#endif

#ifdef ARGS_CAUSAL_NO_SIZE
#define CAUSAL_CHECK_SIZE() ((void)0)
#else
#define CAUSAL_CHECK_SIZE() MM_NEED_SIZE_PRODUCT(T, T)
#endif

#define CAUSAL_CHECK_ARGS() do {                                                    \
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(layer);  MM_NEED_BUFFER(x);                \
    MM_NEED_POSITIVE(T);                                                            \
    CAUSAL_CHECK_SIZE();                                                            \
} while (0)
