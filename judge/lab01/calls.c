/* calls.c - lab 01's functions as the driver calls them (driver.h). This
 * file is linked with the learner's object in the driver, never into the
 * judge: it only unpacks a request's buffers and integers into a call. */
#include <stddef.h>
#include "minimodel/attention/qkv.h"
#include "driver.h"

static mm_status call_project(void *const b[], const long n[])
{
    return qkv_project(b[0], b[1], b[2], b[3], b[4], b[5], b[6],
                       (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
}

static mm_status call_pack(void *const b[], const long n[])
{
    return qkv_pack(b[0], b[1], b[2], b[3], (int)n[0], (int)n[1], (int)n[2]);
}

static mm_status call_split(void *const b[], const long n[])
{
    return qkv_split(b[0], b[1], b[2], b[3], (int)n[0], (int)n[1], (int)n[2]);
}

static mm_status call_fused(void *const b[], const long n[])
{
    return qkv_project_fused(b[0], b[1], b[2], b[3], b[4], b[5],
                             (int)n[0], (int)n[1], (int)n[2], (int)n[3]);
}

static mm_status call_count(void *const b[], const long n[])
{
    return attention_param_count(b[0], (int)n[0], (int)n[1]);
}

const lab_entry lab_entries[] = {
    { "qkv_project", call_project },
    { "qkv_pack", call_pack },
    { "qkv_split", call_split },
    { "qkv_project_fused", call_fused },
    { "attention_param_count", call_count },
    { NULL, NULL }
};
