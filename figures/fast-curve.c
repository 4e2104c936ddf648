/* fast-curve.c - data of the figure "fast-curve": chapter 05's layer
 * against the sequence length T, as `make bench` measured it. Not a run of
 * the library: the figure draws the run the README quotes, kept in
 * bench/results/curve.tsv (read by its header's column names; a new run
 * kept there redraws the figure, and the claims check then asks the
 * caption to follow it).
 *   six series, ms per causal forward at one width (Mini-GPT's): the
 *   library row at a time and in tiles, readable and with OpenBLAS;
 *   NumPy; PyTorch
 * Output (stdout), one line per T: T, the six times, then each over
 * NumPy's.
 * With --facts: the width, every point, and what the caption states.
 * FAST_CURVE_TSV, if set, names another file (check-figures feeds it
 * broken ones, each of which must stop the program with its reason). */
#define _POSIX_C_SOURCE 200809L
#include "figdata.h"

#define CURVE_TSV "bench/results/curve.tsv"
static const char *tsv = CURVE_TSV;     /* or $FAST_CURVE_TSV */
enum { C, C_TILED, OB, OB_TILED, NUMPY, PYTORCH, SERIES };   /* the series */
enum { MAX_POINTS = 16 };
/* the TSV's columns (bench/bench.py's TSV_COLUMNS) and the facts' keys */
static const char *const COLUMN[SERIES] = {
    "ms_C", "ms_C_tiled", "ms_C_OpenBLAS", "ms_C_OpenBLAS_tiled", "ms_NumPy",
    "ms_PyTorch" };
static const char *const KEY[SERIES] = {
    "c", "c_tiled", "ob", "ob_tiled", "numpy", "pytorch" };

typedef struct {
    int n;                            /* points, T rising */
    int T[MAX_POINTS], d_model, n_heads;
    double ms[MAX_POINTS][SERIES];
} curve;

/* stop - the file, what is wrong with it, and how to mend it */
static void stop(const char *what, int line)
{
    fprintf(stderr, "fast-curve: %s:%d: %s (the file is a bench run's: "
            "make bench, then make bench-keep)\n", tsv, line, what);
    exit(EXIT_FAILURE);
}

/* column_of - the index of name among the tab-separated header fields */
static int column_of(char *header, const char *name)
{
    int col = 0;
    for (char *f = header; f != NULL; col++) {
        char *tab = strchr(f, '\t');
        size_t len = tab ? (size_t)(tab - f) : strcspn(f, "\r\n");
        if (len == strlen(name) && strncmp(f, name, len) == 0) return col;
        f = tab ? tab + 1 : NULL;
    }
    char msg[96];
    snprintf(msg, sizeof msg, "no column \"%s\" in the header", name);
    stop(msg, 1);
    return -1;
}

/* field - the number in column col of a data row; line numbers the row */
static double field(const char *row, int col, const char *name, int line)
{
    const char *f = row;
    for (int c = 0; c < col && f != NULL; c++) {
        f = strchr(f, '\t');
        if (f) f++;
    }
    char *end;
    double x = f ? strtod(f, &end) : NAN;
    if (f == NULL || end == f || (*end != '\t' && *end != '\n' && *end != '\0')
        || !isfinite(x) || x <= 0) {
        char msg[96];
        snprintf(msg, sizeof msg, "column \"%s\" is not a positive number", name);
        stop(msg, line);
    }
    return x;
}

/* read_curve - every row of the TSV: one width, T rising, six times */
static curve read_curve(void)
{
    if (getenv("FAST_CURVE_TSV") != NULL) tsv = getenv("FAST_CURVE_TSV");
    FILE *f = fopen(tsv, "r");
    if (f == NULL) stop("cannot be opened", 0);
    char *line = NULL;
    size_t cap = 0;
    if (getline(&line, &cap, f) < 0) stop("empty", 1);
    int col_T = column_of(line, "T"), col_d = column_of(line, "d_model"),
        col_h = column_of(line, "n_heads"), col[SERIES];
    for (int s = 0; s < SERIES; s++) col[s] = column_of(line, COLUMN[s]);
    curve c = { 0 };
    for (int at = 2; getline(&line, &cap, f) >= 0; at++) {
        if (c.n == MAX_POINTS) stop("more rows than the figure draws", at);
        int T = (int)field(line, col_T, "T", at);
        int d = (int)field(line, col_d, "d_model", at);
        int h = (int)field(line, col_h, "n_heads", at);
        if (c.n > 0 && (T <= c.T[c.n - 1] || d != c.d_model || h != c.n_heads))
            stop("T must rise, at one d_model and n_heads", at);
        c.T[c.n] = T;  c.d_model = d;  c.n_heads = h;
        for (int s = 0; s < SERIES; s++)
            c.ms[c.n][s] = field(line, col[s], COLUMN[s], at);
        c.n++;
    }
    free(line);
    fclose(f);
    if (c.n < 2) stop("fewer than two rows", 2);
    return c;
}

/* best_peer - the faster of NumPy and PyTorch at point i */
static double best_peer(const curve *c, int i)
{
    return fmin(c->ms[i][NUMPY], c->ms[i][PYTORCH]);
}

/* beats_from - the smallest T from which series s is faster than both
 * peers at every larger T of the run; 0 if it is not at the largest */
static int beats_from(const curve *c, int s)
{
    int from = 0;
    for (int i = c->n - 1; i >= 0 && c->ms[i][s] < best_peer(c, i); i--)
        from = c->T[i];
    return from;
}

/* print_facts - the width, each point, and the caption's numbers */
static void print_facts(const curve *c)
{
    int last = c->n - 1;
    printf("source=%s\nd_model=%d\nn_heads=%d\npoints=%d\nT_first=%d\n"
           "T_last=%d\n", tsv, c->d_model, c->n_heads, c->n, c->T[0],
           c->T[last]);
    print_words("series", KEY, SERIES);
    for (int i = 0; i < c->n; i++)
        for (int s = 0; s < SERIES; s++)
            printf("ms.%s.T%d=%.17g\nrel.%s.T%d=%.17g\n", KEY[s], c->T[i],
                   c->ms[i][s], KEY[s], c->T[i], c->ms[i][s] / c->ms[i][NUMPY]);
    for (int s = C; s <= OB_TILED; s++)                /* the library's four */
        printf("beats_peers_from.%s=%d\n", KEY[s], beats_from(c, s));
    printf("last.ob_tiled_vs_best_peer=%.17g\nlast.tiled_vs_rows.c=%.17g\n"
           "last.tiled_vs_rows.ob=%.17g\n", best_peer(c, last) / c->ms[last][OB_TILED],
           c->ms[last][C] / c->ms[last][C_TILED], c->ms[last][OB] / c->ms[last][OB_TILED]);
}

int main(int argc, char **argv)
{
    int facts = want_facts(argc, argv);
    curve c = read_curve();
    if (facts) {
        print_facts(&c);
        return 0;
    }
    printf("# T, ms per forward (%s), then each over NumPy's\n", tsv);
    for (int i = 0; i < c.n; i++) {
        printf("%d", c.T[i]);
        for (int s = 0; s < SERIES; s++) printf(" %.6g", c.ms[i][s]);
        for (int s = 0; s < SERIES; s++)
            printf(" %.6g", c.ms[i][s] / c.ms[i][NUMPY]);
        printf("\n");
    }
    return 0;
}
