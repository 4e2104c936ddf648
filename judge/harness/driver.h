/* driver.h - what a lab gives the driver (driver.c, the process that runs
 * the learner's code): lab_entries, in its calls.c, one adapter per learner
 * function in the order of lab_functions, made from the lab's descriptor
 * (harness.h) by LAB_DRIVER_TABLES(LABNN);. An adapter unpacks a request's
 * buffers b[] (NULL where the check passes NULL) and integers n[] into a
 * call: return qkv_split(b[0], b[1], b[2], b[3], (int)n[0], (int)n[1], (int)n[2]); */
#ifndef LAB_DRIVER_H
#define LAB_DRIVER_H

#include "minimodel/core/error.h"

typedef struct {
    const char *name;
    mm_status (*call)(void *const buf[], const long n[]);
} lab_entry;

extern const lab_entry lab_entries[];   /* ended by { NULL, NULL } */

#define LAB_NOTHING_(...)
#define LAB_ADAPTER_(name, call)                                            \
    static mm_status call_##name(void *const b[], const long n[])           \
    {                                                                       \
        (void)b, (void)n;                                                   \
        return name call;                                                   \
    }
#define LAB_ENTRY_(name, call) { #name, call_##name },
#define LAB_DRIVER_TABLES(LIST)                                             \
    LIST(LAB_NOTHING_, LAB_ADAPTER_, LAB_NOTHING_)                          \
    const lab_entry lab_entries[] = { LIST(LAB_NOTHING_, LAB_ENTRY_, LAB_NOTHING_) { NULL, NULL } }

#endif
