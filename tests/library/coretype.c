/* coretype.c - prints the kernel family OpenBLAS chose (OPENBLAS_CORETYPE
 * picks one), after one small dgemm, so that a family whose instructions
 * this CPU lacks dies here rather than in a test (make check-portability) */
#include <stdio.h>
#include <cblas.h>

char *openblas_get_corename(void);

int main(void)
{
    double a[4] = { 1, 2, 3, 4 }, b[4] = { 5, 6, 7, 8 }, c[4];
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0, a, 2, b, 2,
                0.0, c, 2);
    if (c[0] != 19 || c[3] != 50) return 1;
    printf("%s\n", openblas_get_corename());
    return 0;
}
