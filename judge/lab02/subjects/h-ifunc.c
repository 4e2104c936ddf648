/* h-ifunc.c - the right functions (base.h) plus a static IFUNC, whose
 * resolver the dynamic linker would run before main (and so before any
 * isolation of the checks): refused at vetting, by name.
 * expect-exit: 1
 * expect: was not run: the harness refuses it
 * expect: defines evil as an IFUNC (__attribute__((ifunc))): its resolver would run by itself before main
 */
#include "base.h"
#include <stdio.h>
static void evil_impl(void) { }
static void (*resolve_evil(void))(void)
{
    puts("a resolver runs before main");   /* anything at all */
    return evil_impl;
}
static void evil(void) __attribute__((ifunc("resolve_evil"), used));
