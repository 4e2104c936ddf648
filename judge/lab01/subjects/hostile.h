/* hostile.h - system calls made directly, without a C library function
 * (so no symbol shows in the object, and the harness's symbol checks see
 * nothing): what a learner's file could do to get round them. The
 * self-test's subjects that try it include this (x86-64 Linux only). */
#ifndef HOSTILE_H
#define HOSTILE_H

#if !defined(__x86_64__) || !defined(__linux__)
#error "hostile.h: x86-64 Linux only"
#endif

static inline long raw_syscall(long n, long a, long b, long c, long d)
{
    long r;
    register long r10 __asm__("r10") = d;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
                     : "rcx", "r11", "memory");
    return r;
}

enum { RAW_WRITE = 1, RAW_RT_SIGACTION = 13, RAW_SETITIMER = 38, RAW_GETPID = 39,
       RAW_FORK = 57, RAW_EXIT_GROUP = 231, RAW_KILL = 62 };

/* raw_ignore - the disposition of signal sig set to SIG_IGN */
static inline long raw_ignore(int sig)
{
    struct { void *handler; unsigned long flags; void *restorer; unsigned long mask; } act =
        { (void *)1, 0, 0, 0 };
    return raw_syscall(RAW_RT_SIGACTION, sig, (long)&act, 0, 8);
}

/* raw_stop_timers - ITIMER_REAL, ITIMER_VIRTUAL and ITIMER_PROF set to zero */
static inline void raw_stop_timers(void)
{
    long zero[4] = { 0, 0, 0, 0 };
    for (int which = 0; which < 3; which++) raw_syscall(RAW_SETITIMER, which, (long)zero, 0, 0);
}

#endif
