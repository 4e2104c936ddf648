/* calls.c - lab 02's functions as the driver calls them: the adapters of
 * its descriptor, lab02.def (driver.h). This file is linked with the
 * learner's object in the driver, never into the judge. sdpa's call passes
 * q and k through aliased, so that a tagged output stands in their place
 * (alias.h). */
#include <stddef.h>
#include "minimodel/attention/sdpa.h"
#include "driver.h"
#include "alias.h"
#include "lab02.def"

/* aliased - the argument buffer b[slot] stands for: itself, or the buffer
 * its tag names, at the offset its tag gives */
static void *aliased(void *const b[], int slot)
{
    const double *p = b[slot];
    if (!p) return NULL;
    for (int other = 0; other < 6; other++) {
        if (other == slot || p[0] != SDPA_ALIAS_TAG - other) continue;
        for (int off = 0; off < 8; off++)
            if (p[1] == SDPA_ALIAS_TAG - off && b[other]) return (double *)b[other] + off;
    }
    return b[slot];
}

LAB_DRIVER_TABLES(LAB02);
