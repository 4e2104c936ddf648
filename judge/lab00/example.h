/* example.h - the inputs of lab 00, defined once: three tokens, d_model = 3,
 * d_k = 4, d_v = 2. The checker (check.c) includes this file; everything
 * else that shows these numbers is checked against the checker's
 * --reference-json by the self-test (judge/lab00/subjects/lab00.py verify): the
 * table at the top of answers.txt, both READMEs, and the self-test's
 * subjects, which lab00.py generates from them. */
#ifndef LAB00_EXAMPLE_H
#define LAB00_EXAMPLE_H

enum { T = 3, D_MODEL = 3, D_K = 4, D_V = 2 };

static const double X[T * D_MODEL] = {   /* (T, d_model): row i is token i */
    0, 0, 1,
    1, 1, 0,
    1, 0, 1,
};
static const double W_Q[D_MODEL * D_K] = {   /* (d_model, d_k) */
    1,  1, 0, 0,
    0,  1, 1, 0,
    1, -1, 0, 0,
};
static const double W_K[D_MODEL * D_K] = {   /* (d_model, d_k) */
    -1, 1, 0,  1,
     0, 0, 0, -1,
     1, 0, 1,  0,
};
static const double W_V[D_MODEL * D_V] = {   /* (d_model, d_v) */
    1, 1,
    1, 0,
    1, 1,
};

/* The NumPy part's probe (numpy_check.py): the learner's function runs again
 * on X times LARGE, so that the scaled scores reach LARGE^2 times the
 * example's (up to 1350, past 709.78, where exp overflows in double
 * precision): a softmax without the maximum subtracted gives inf and nan
 * there, and only there. check --self-test requires it. */
enum { LARGE = 30 };

#endif
