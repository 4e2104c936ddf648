/* args.h - the argument checks of lab 03's functions, as the subjects of
 * judge/lab03/subjects/ write them (the library's order: pointers, sizes, each
 * buffer's size, overlaps, values). A mutant may define ARGS_NO_OVERLAP
 * (mha_forward checks no overlap) or ARGS_HEADS_NO_OVERLAP (the split and
 * the merge check none) before including base.h. */
#ifdef ARGS_HEADS_NO_OVERLAP
#define HEADS_CHECK_OVERLAP(out, in) ((void)0)
#else
#define HEADS_CHECK_OVERLAP(out, in) do {                                           \
    const mm_buffer bufs_[] = { MM_BUFFER(out, (size_t)T * n_heads * d_k),          \
                                MM_BUFFER(in, (size_t)T * n_heads * d_k) };         \
    MM_NEED_DISJOINT(bufs_, 1);                                                     \
} while (0)
#endif

#define HEADS_CHECK_ARGS(out, in) do {                                              \
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(in);                                       \
    MM_NEED_POSITIVE(T);  MM_NEED_POSITIVE(n_heads);  MM_NEED_POSITIVE(d_k);        \
    if (n_heads > INT_MAX / d_k)                                                    \
        return mm_fail(MM_EINVAL, "%s: n_heads = %d times d_k = %d is not an int",  \
                       __func__, n_heads, d_k);                                     \
    MM_NEED_SIZE_PRODUCT(T, n_heads * d_k);                                         \
    HEADS_CHECK_OVERLAP(out, in);                                                   \
} while (0)

#define FORWARD_CHECK_ARGS() do {                                                   \
    MM_NEED_BUFFER(out);  MM_NEED_BUFFER(layer);  MM_NEED_BUFFER(x);                \
    MM_NEED_POSITIVE(T);                                                            \
    MM_NEED_SIZE_PRODUCT(T, 3 * (long)layer->d_model);                              \
    MM_NEED_SIZE_PRODUCT(T, T);                                                     \
    if (weights && (size_t)T * T > MM_MAX_ELEMENTS / layer->n_heads)                \
        return mm_fail(MM_EINVAL, "mha_forward: weights too large");                \
    FORWARD_CHECK_OVERLAPS();                                                       \
    MM_NEED_FINITE(x, T, layer->d_model);                                           \
} while (0)

#ifdef ARGS_NO_OVERLAP
#define FORWARD_CHECK_OVERLAPS() ((void)0)
#else
#define FORWARD_CHECK_OVERLAPS() do {                                               \
    size_t td_ = (size_t)T * layer->d_model;                                        \
    size_t dd_ = (size_t)layer->d_model * layer->d_model;                           \
    const mm_buffer bufs_[] = {                                                     \
        MM_BUFFER(out, td_),                                                        \
        MM_BUFFER(weights, weights ? (size_t)layer->n_heads * T * T : 0),           \
        MM_BUFFER(x, td_), MM_BUFFER(bias, bias ? (size_t)T * T : 0),               \
        MM_BUFFER(layer->w_qkv, 3 * dd_), MM_BUFFER(layer->w_o, dd_) };             \
    MM_NEED_DISJOINT(bufs_, 2);                                                     \
} while (0)
#endif
