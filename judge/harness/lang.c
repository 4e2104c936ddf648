/* lang.c - the language of the report: English, or Spanish with --lang=es
 * or a Spanish locale (LC_ALL, then LC_MESSAGES, then LANG: the first one
 * set decides), as Lab 00's checker does. Only the judge speaks; the
 * learner's process prints nothing of the harness. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int es = -1;                        /* not decided yet */

/* locale_is_spanish - the locale variables ask for Spanish */
static bool locale_is_spanish(void)
{
    const char *vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return strncmp(v, "es", 2) == 0;
    }
    return false;
}

bool lab_es(void)
{
    if (es < 0) es = locale_is_spanish();
    return es;
}

bool lab_lang_setup(int *argc, char *argv[])
{
    bool ok = true;
    int kept = 1;
    es = locale_is_spanish();
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
