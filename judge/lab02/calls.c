/* calls.c - lab 02's functions as the driver calls them (driver.h). This
 * file is linked with the learner's object in the driver, never into the
 * judge: it only unpacks a request's buffers and integers into a call, and
 * passes a tagged output as the buffer its tag names (alias.h). */
#include <stddef.h>
#include "minimodel/attention/sdpa.h"
#include "driver.h"
#include "alias.h"

static mm_status call_softmax(void *const b[], const long n[])
{
    return softmax_row(b[0], (int)n[0]);
}

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

static mm_status call_sdpa(void *const b[], const long n[])
{
    return sdpa(aliased(b, 0), aliased(b, 1), b[2], b[3], b[4], b[5],
                (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
}

const lab_entry lab_entries[] = {
    { "softmax_row", call_softmax },
    { "sdpa", call_sdpa },
    { NULL, NULL }
};
