/* fast-tiles.c - data of the figure "fast-tiles": chapter 05's causal mask
 * in tiles. T = 8 queries and keys cut into tiles of B_q = B_k = 2: a tile
 * none of whose cells is visible is never computed; a tile whose cells are
 * all visible needs no mask; the others (on the diagonal) are computed
 * whole and their hidden cells masked after the product. Which cell is
 * visible is the library's: mask_causal(B, 8), B_ij = 0 or -inf.
 * The same cut, run: sdpa_causal_tiled with blocks of 2 on a seeded head
 * (T = 8, d_k = d_v = 16, q, k, v drawn N(0, 1) with seed 5) against sdpa
 * with mask_causal's bias; they agree within 16 u of the largest output.
 * Output (stdout):
 *   index 0, one line per cell: query i, key j, its kind:
 *     0 never computed (a cell of a tile above the diagonal)
 *     1 masked after the product (a hidden cell of a diagonal tile)
 *     2 computed and used (a visible cell of a diagonal tile)
 *     3 fully visible (a cell of a tile below the diagonal)
 *   index 1, one line per tile: query block I, key block J, its kind
 *     (0 never computed, 1 on the diagonal, 2 fully visible), its first
 *     query and first key
 * With --facts: the sizes, the tiles and scores of each kind, and the
 * tiled head against sdpa. */
#include <math.h>
#include "figdata.h"
#include "minimodel/attention/fast.h"
#include "minimodel/attention/mask.h"
#include "minimodel/attention/sdpa.h"
#include "minimodel/core/rng.h"

enum { T = 8, B = 2, N = T / B, D_K = 16 };
#define SEED 5u
#define U 0x1p-53                       /* the unit roundoff of a double */
enum { CELL_SKIPPED, CELL_MASKED, CELL_USED, CELL_BELOW };
enum { TILE_SKIPPED, TILE_DIAGONAL, TILE_BELOW };

static double bias[T * T];              /* mask_causal (T, T): 0 or -inf */
static int tile_kind[N * N];            /* (N, N): TILE_* */

/* visible_in_tile - how many cells of tile (I, J) the mask lets through */
static int visible_in_tile(int I, int J)
{
    int visible = 0;
    for (int i = I * B; i < (I + 1) * B; i++)
        for (int j = J * B; j < (J + 1) * B; j++)
            visible += bias[i * T + j] == 0.0;
    return visible;
}

/* classify - the mask from the library, each tile's kind from its cells;
 * stop unless every B_ij is 0 or -inf */
static void classify(void)
{
    causal_mask_checked(bias, T);
    for (int I = 0; I < N; I++)
        for (int J = 0; J < N; J++) {
            int visible = visible_in_tile(I, J);
            tile_kind[I * N + J] = visible == 0 ? TILE_SKIPPED
                                 : visible == B * B ? TILE_BELOW : TILE_DIAGONAL;
        }
}

/* cell_kind - CELL_* of cell (i, j), from its tile and the mask */
static int cell_kind(int i, int j)
{
    switch (tile_kind[(i / B) * N + j / B]) {
    case TILE_SKIPPED: return CELL_SKIPPED;
    case TILE_BELOW: return CELL_BELOW;
    default: return bias[i * T + j] == 0.0 ? CELL_USED : CELL_MASKED;
    }
}

/* tiled_diff_in_u - max |sdpa_causal_tiled - sdpa with the causal bias|
 * over a seeded head, in units of u times the largest |output| */
static double tiled_diff_in_u(void)
{
    static double q[T * D_K], k[T * D_K], v[T * D_K], out[T * D_K], ref[T * D_K];
    mm_rng r;
    mm_rng_seed(&r, SEED);
    need_ok(mm_fill_normal(q, T * D_K, 1.0, &r), "mm_fill_normal (q)");
    need_ok(mm_fill_normal(k, T * D_K, 1.0, &r), "mm_fill_normal (k)");
    need_ok(mm_fill_normal(v, T * D_K, 1.0, &r), "mm_fill_normal (v)");
    need_ok(sdpa_causal_tiled(out, q, k, v, T, D_K, D_K, B, B), "sdpa_causal_tiled");
    need_ok(sdpa(ref, NULL, q, k, v, bias, T, T, D_K, D_K), "sdpa");
    double diff = 0.0, big = 0.0;
    for (int e = 0; e < T * D_K; e++) {
        diff = fmax(diff, fabs(out[e] - ref[e]));
        big = fmax(big, fabs(ref[e]));
    }
    return diff / (U * big);
}

/* print_the_gnuplot_blocks - every cell with its kind, then every tile */
static void print_the_gnuplot_blocks(void)
{
    printf("# fast-tiles: the causal mask of T = %d in tiles of %d x %d\n", T, B, B);
    printf("# index 0: query i, key j, kind (0 never computed, 1 masked after "
           "the product, 2 computed and used, 3 fully visible)\n");
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) printf("%d %d %d\n", i, j, cell_kind(i, j));
    printf("\n\n# index 1: query block I, key block J, kind (0 never computed, "
           "1 on the diagonal, 2 fully visible), first query, first key\n");
    for (int I = 0; I < N; I++)
        for (int J = 0; J < N; J++)
            printf("%d %d %d %d %d\n", I, J, tile_kind[I * N + J], I * B, J * B);
}

/* print_the_facts - the tiles and the scores of each kind, and the run */
static void print_the_facts(void)
{
    int tiles[3] = { 0 }, cells[4] = { 0 };
    for (int t = 0; t < N * N; t++) tiles[tile_kind[t]]++;
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++) cells[cell_kind(i, j)]++;
    printf("T=%d\nblock_q=%d\nblock_k=%d\nblocks=%d\n", T, B, B, N);
    printf("tiles.all=%d\ntiles.computed=%d\ntiles.skipped=%d\n", N * N,
           tiles[TILE_DIAGONAL] + tiles[TILE_BELOW], tiles[TILE_SKIPPED]);
    printf("tiles.diagonal=%d\ntiles.below=%d\n", tiles[TILE_DIAGONAL], tiles[TILE_BELOW]);
    printf("scores.all=%d\nscores.computed=%d\nscores.used=%d\n", T * T,
           cells[CELL_MASKED] + cells[CELL_USED] + cells[CELL_BELOW],
           cells[CELL_USED] + cells[CELL_BELOW]);
    printf("scores.masked_after=%d\nscores.skipped=%d\n", cells[CELL_MASKED],
           cells[CELL_SKIPPED]);
    double diff = tiled_diff_in_u();
    printf("tiled.d_k=%d\ntiled.seed=%u\ntiled.max_diff_in_u=%.3g\ntiled.within_16u=%d\n",
           D_K, SEED, diff, diff <= 16);
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    classify();
    if (facts)
        print_the_facts();
    else
        print_the_gnuplot_blocks();
    return 0;
}
