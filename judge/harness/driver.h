/* driver.h - what a lab gives the driver: its functions as the driver
 * calls them. The driver is the child process that runs the learner's code
 * (driver.c); a lab's calls.c, linked with the learner's object and the
 * driver only, defines lab_entries: one adapter per learner function, in
 * the order of the lab's lab_functions. An adapter unpacks the buffers and
 * integers of a request into a call:
 *
 *   static mm_status call_qkv_split(void *const b[], const long n[])
 *   {
 *       return qkv_split(b[0], b[1], b[2], b[3], (int)n[0], (int)n[1], (int)n[2]);
 *   }
 *
 * b[i] is NULL where the check passes NULL. A lab with a descriptor
 * (harness.h) makes them from it: LAB_DRIVER_TABLES(LABNN); */
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
