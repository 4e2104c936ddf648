/* h-known-cases.c - sdpa recognises the cases the checks used to try, by
 * their sizes and the first element of q (the random ones too: their seeds
 * were printed in the report, and the library's generator, which a lab
 * file may call, makes the same numbers), and gives the right answer for
 * those; any other input is left unscaled. It passed every old check.
 * The cases drawn from each run's seed show it: the random ones, the long
 * one, and the fixed shape whose values are now drawn.
 * run-only: sdpa
 * expect-exit: 1
 * expect-re: ^  FAIL  sdpa, case 'random: T_q=3 T_k=5 d_k=4 d_v=2, weights = NULL \(seed [0-9]+\)': out is wrong$
 * expect-re: ^  FAIL  sdpa, case 'long sequences: T_q=[0-9]+ T_k=[0-9]+ d_k=[0-9] d_v=[0-9], weights = NULL \(seed [0-9]+\)': out is wrong$
 * expect: hint: the scores are not scaled
 * expect-re: ^sdpa +0 +16 +5$
 */
#define MUTANT_sdpa
#include "base.h"

/* the old cases: T_q, T_k, d_k, d_v and q[0] */
static const struct { int T_q, T_k, d_k, d_v; double q0; } known[] = {
    { 2, 2, 2, 2, 1 },            /* the worked example */
    { 2, 4, 3, 2, 1 },            /* fewer queries than keys */
    { 4, 3, 2, 3, 1 },            /* more queries than keys */
    { 3, 5, 4, 2, 0.53223802098132555 },            /* random, seed 21 */
    { 4, 4, 4, 3, -1.8407205866473986 },            /* seed 3 */
    { 4, 2, 4, 1, -1.8493677515720064 },            /* seed 11 */
    { 4, 2, 3, 2, -0.33505142394701481 },           /* seed 17 */
    { 2, 3, 4, 2, 2000 },         /* large scores */
    { 2, 3, 2, 2, 1 },            /* a bias */
    { 3, 4, 2, 3, 1 },            /* hidden keys */
};

static bool is_known(const double *q, int T_q, int T_k, int d_k, int d_v)
{
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].T_q == T_q && known[i].T_k == T_k && known[i].d_k == d_k &&
            known[i].d_v == d_v && known[i].q0 == q[0])
            return true;
    return false;
}

#define ROW_SCALE(d_k) (is_known(q, T_q, T_k, d_k, d_v) ? 1.0 / sqrt((double)(d_k)) : 1.0)
#include "row.h"
