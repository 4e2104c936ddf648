/* stubs.h - the five functions of lab 01 as a file that tries to forge its
 * verdict would leave them: each returns MM_OK and computes nothing. The
 * subjects h-*.c and u-*.c that include it add the trick itself. */
#include "minimodel/attention/qkv.h"

mm_status qkv_project(double *q, double *k, double *v, const double *x,
                      const double *w_q, const double *w_k, const double *w_v,
                      int T, int d_model, int d_k, int d_v) { return MM_OK; }
mm_status qkv_pack(double *w_qkv, const double *w_q, const double *w_k,
                   const double *w_v, int d_model, int d_k, int d_v) { return MM_OK; }
mm_status qkv_split(double *q, double *k, double *v, const double *qkv,
                    int T, int d_k, int d_v) { return MM_OK; }
mm_status qkv_project_fused(double *q, double *k, double *v, double *qkv,
                            const double *x, const double *w_qkv,
                            int T, int d_model, int d_k, int d_v) { return MM_OK; }
mm_status attention_param_count(long *count, int d_model, int n_heads) { return MM_OK; }
