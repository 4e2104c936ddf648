/* lang.c - the language of the report: English, or Spanish with --lang=es
 * or LAB_LANG=es (which make sets from a Spanish locale: lang.sh). Only
 * the judge speaks; the learner's process prints nothing of the harness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int es = -1;                        /* not decided yet */

/* lab_es - LAB_LANG=es (make and the self-tests set it from the locale:
 * lang.sh, the one place the locale is read), unless --lang said otherwise */
bool lab_es(void)
{
    if (es < 0) {
        const char *v = getenv("LAB_LANG");
        es = v && strcmp(v, "es") == 0;
    }
    return es;
}

bool lab_lang_setup(int *argc, char *argv[])
{
    bool ok = true;
    int kept = 1;
    es = -1;
    lab_es();
    for (int i = 1; i < *argc; i++) {
        if (strncmp(argv[i], "--lang=", 7) != 0) {
            argv[kept++] = argv[i];
            continue;
        }
        const char *v = argv[i] + 7;
        if (strcmp(v, "en") == 0 || strcmp(v, "es") == 0) es = strcmp(v, "es") == 0;
        else if (*v) {
            fprintf(stderr, "lab harness: --lang=%s: the languages are en and es\n", v);
            ok = false;
        }
    }
    argv[kept] = NULL;
    *argc = kept;
    return ok;
}
