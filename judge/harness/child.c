/* child.c - the learner's process, from the judge's side: start it in the
 * sandbox (sandbox.sh, seeing only itself and /usr) under the early filter
 * below, in a process group of its own with a parent-death signal; talk to
 * it with a deadline; stop it by SIGKILL to the whole group. The judge is
 * the reaper of anything under it (PR_SET_CHILD_SUBREAPER) and sweeps its
 * children before it exits; on SIGINT, SIGTERM or SIGHUP it stops them
 * first. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"

#define MAX_LIVE 4
static volatile pid_t live[MAX_LIVE];    /* for the signal handler */

static void remember(pid_t pid)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (!live[i]) {
            live[i] = pid;
            return;
        }
}

static void forget(pid_t pid)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] == pid) live[i] = 0;
}

/* kill_group - kill pid and its process group (signal-safe) */
static void kill_group(pid_t pid)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

/* stop_all - every child still running (signal-safe: for on_interrupt) */
static void stop_all(void)
{
    for (int i = 0; i < MAX_LIVE; i++)
        if (live[i] > 0) kill_group(live[i]);
}

/* give_up - the judge cannot go on: a system call it needs failed */
static _Noreturn void give_up(const char *what)
{
    perror(what);
    exit(2);
}

static void on_interrupt(int sig)
{
    stop_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

void child_sweep(void)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    for (int round = 0; round < 10; round++) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) break;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0) break;
        buf[n] = '\0';
        for (char *s = buf, *end; *s; s = end) {
            long pid = strtol(s, &end, 10);
            if (end == s) break;
            if (pid > 0) kill_group((pid_t)pid);
        }
        while (waitpid(-1, NULL, 0) > 0) {}
    }
}

/* ---- the sandbox --------------------------------------------------------------------- */
static bool sandboxed;                   /* sandbox.sh --probe said yes */
static char sandbox_note[512];           /* else why not */
static char *early_bpf;                  /* the early filter, as a BPF program */
static size_t early_bpf_len;

const char *child_sandbox_note(void) { return sandboxed ? NULL : sandbox_note; }

/* early_filter - what the driver may never do, from its first instruction
 * (before main, where a constructor or an IFUNC resolver of the learner's
 * would run): start a process, trace one, leave its session, open a socket,
 * reach files by io_uring or handles, load BPF, mount, change personality,
 * push characters into a terminal. exec stays allowed here (bubblewrap
 * starts the driver with it; without the sandbox the judge's child loads
 * the filter itself, then starts the driver); the driver's own filter
 * forbids it in main. */
static void early_filter(void)
{
    scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
    const int trapped[] = {
        SCMP_SYS(fork), SCMP_SYS(vfork), SCMP_SYS(clone), SCMP_SYS(clone3),
        SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev),
        SCMP_SYS(setsid), SCMP_SYS(setpgid), SCMP_SYS(pidfd_open),
        SCMP_SYS(pidfd_send_signal), SCMP_SYS(pidfd_getfd), SCMP_SYS(socket),
        SCMP_SYS(socketpair), SCMP_SYS(unshare), SCMP_SYS(setns),
        SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register),
        SCMP_SYS(open_by_handle_at), SCMP_SYS(name_to_handle_at), SCMP_SYS(bpf),
        SCMP_SYS(userfaultfd), SCMP_SYS(perf_event_open), SCMP_SYS(mount),
        SCMP_SYS(umount2), SCMP_SYS(pivot_root), SCMP_SYS(chroot), SCMP_SYS(personality),
        SCMP_SYS(keyctl), SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(kexec_load),
        SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module),
        SCMP_SYS(reboot), SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(acct),
        SCMP_SYS(mknod), SCMP_SYS(mknodat),
    };
    int bad = !c;
    for (size_t i = 0; !bad && i < sizeof trapped / sizeof trapped[0]; i++)
        bad |= seccomp_rule_add(c, SCMP_ACT_TRAP, trapped[i], 0);
    if (!bad) bad |= seccomp_rule_add(c, SCMP_ACT_TRAP, SCMP_SYS(ioctl), 1,
                                      SCMP_A1(SCMP_CMP_EQ, TIOCSTI));
    int fd = bad ? -1 : memfd_create("lab-bpf", MFD_CLOEXEC);
    off_t len;
    if (fd < 0 || seccomp_export_bpf(c, fd) != 0 || (len = lseek(fd, 0, SEEK_END)) <= 0 ||
        !(early_bpf = malloc((size_t)len)) || pread(fd, early_bpf, (size_t)len, 0) != len) {
        fprintf(stderr, "lab harness: cannot make the driver's system-call filter\n");
        exit(2);
    }
    early_bpf_len = (size_t)len;
    close(fd);
    seccomp_release(c);
}

/* sandbox_sh - sandbox.sh: judge/harness/sandbox.sh under the working
 * folder when it is there (make runs the judge from the top of the
 * workbook, the grader from its staged copy, where the judge's build path
 * may not be visible), else where the judge was built */
static const char *sandbox_sh(void)
{
    static char path[4096];
    if (!path[0] && !realpath("judge/harness/sandbox.sh", path))
        snprintf(path, sizeof path, "%s", LAB_SANDBOX_SH);
    return path;
}

/* probe_sandbox - can sandbox.sh make the sandbox here? If not, its reason
 * goes into the report */
static void probe_sandbox(void)
{
    int p[2];
    const char *sh = sandbox_sh();       /* found once, before any fork */
    if (pipe2(p, O_CLOEXEC) != 0) give_up("lab harness");
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 1);
        dup2(p[1], 2);
        execl("/bin/sh", "sh", sh, "--probe", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    char why[400] = "";
    size_t got = 0;
    for (ssize_t n; got < sizeof why - 1 &&
                    (n = read(p[0], why + got, sizeof why - 1 - got)) != 0; )
        if (n > 0) got += (size_t)n;
        else if (errno != EINTR) break;
    close(p[0]);
    why[got] = '\0';
    why[strcspn(why, "\n")] = '\0';
    int st = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    sandboxed = pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!sandboxed)
        snprintf(sandbox_note, sizeof sandbox_note, "%s", why[0] ? why : "sandbox.sh failed");
}

void child_setup(void)
{
    early_filter();
    probe_sandbox();
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    prctl(PR_SET_DUMPABLE, 0);           /* no /proc/<judge>/mem for the children */
    signal(SIGPIPE, SIG_IGN);
    int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    for (int i = 0; i < 4; i++) signal(sigs[i], on_interrupt);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* take_output - read what is waiting on the output pipe into x: 1 if
 * something came, 0 at its end, -1 if nothing is waiting */
static int take_output(int fd, lab_exchange *x)
{
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) return errno == EAGAIN || errno == EINTR ? -1 : 0;
    if (n == 0) return 0;
    size_t room = sizeof x->out - 1 - x->out_len, keep = (size_t)n < room ? (size_t)n : room;
    memcpy(x->out + x->out_len, buf, keep);
    x->out_len += keep;
    x->out[x->out_len] = '\0';
    x->out_total += (size_t)n;
    return 1;
}

/* take_printed - put what the learner printed with stdio (in the shared
 * memory) before what came on the pipe */
static void take_printed(lab_child *c, lab_exchange *x)
{
    uint64_t total = c->ctl->out_total;
    size_t n = total < LAB_OUT_CAP ? (size_t)total : LAB_OUT_CAP;
    if (n > sizeof x->out - 1 - x->out_len) n = sizeof x->out - 1 - x->out_len;
    memmove(x->out + n, x->out, x->out_len + 1);
    memcpy(x->out, c->shm + LAB_OUT_OFF, n);
    x->out_len += n;
    x->out_total += (size_t)total;
    x->printed = n;
    c->ctl->out_total = 0;
}

/* finish - the exchange ended as end, with no reply: the child will not
 * answer; kill it (at once unless it died), reap it, keep its last words */
static void finish(lab_child *c, lab_exchange *x, lab_end end)
{
    bool kill_now = end != END_DIED;
    x->end = end;
    int st = 0;
    pid_t r = 0;
    if (!kill_now)                       /* it is ending on its own: let it */
        for (int i = 0; i < 200 && (r = waitpid(c->pid, &st, WNOHANG)) == 0; i++)
            usleep(1000);
    if (r != c->pid) {
        kill_group(c->pid);
        waitpid(c->pid, &st, 0);
        if (!kill_now && x->end == END_DIED) x->end = END_BROKEN;
    }
    kill(-c->pid, SIGKILL);              /* anything else in its group */
    forget(c->pid);
    /* bubblewrap ends with 128 + N when the driver was stopped by signal N */
    if (sandboxed && WIFEXITED(st) && WEXITSTATUS(st) > 128 && WEXITSTATUS(st) < 128 + NSIG)
        st = WEXITSTATUS(st) - 128;
    x->wstatus = st;
    double until = now() + 0.2;
    while (now() < until) {
        struct pollfd p = { c->out, POLLIN, 0 };
        if (poll(&p, 1, 20) <= 0) continue;
        if (take_output(c->out, x) == 0) break;
    }
    memcpy(&x->ctl, c->ctl, sizeof x->ctl);
    take_printed(c, x);
    c->pid = -c->pid;                    /* reaped */
}

/* wait_reply - the reply to seq, or the child's end, by the deadline */
static void wait_reply(lab_child *c, uint32_t seq, uint64_t nonce, double timeout,
                       lab_exchange *x)
{
    size_t got = 0;
    double until = now() + timeout;
    bool out_open = true;
    for (;;) {
        double left = until - now();
        if (left <= 0) {
            finish(c, x, END_HUNG);
            return;
        }
        struct pollfd p[2] = { { c->rep, POLLIN, 0 }, { c->out, POLLIN, 0 } };
        int n = poll(p, out_open ? 2 : 1, (int)(left * 1000) + 1);
        if (n < 0 && errno != EINTR) {
            finish(c, x, END_BROKEN);
            return;
        }
        if (n <= 0) continue;
        if (out_open && p[1].revents) out_open = take_output(c->out, x) != 0;
        if (!p[0].revents) continue;
        ssize_t r = read(c->rep, (char *)&x->rep + got, sizeof x->rep - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) {                    /* it closed the channel: ending, or worse */
            finish(c, x, END_DIED);
            return;
        }
        got += (size_t)r;
        if (got < sizeof x->rep) continue;
        if (x->rep.magic != LAB_MAGIC || x->rep.seq != seq || x->rep.nonce != nonce) {
            finish(c, x, END_BROKEN);
            return;
        }
        /* everything printed before the reply is in the pipe already */
        while (out_open && take_output(c->out, x) == 1) {}
        x->end = END_REPLY;
        memcpy(&x->ctl, c->ctl, sizeof x->ctl);
        take_printed(c, x);
        return;
    }
}

/* start_in_child - in the forked child: the descriptors, the group, exec */
static _Noreturn void start_in_child(const char *path, int req, int rep, int out, int shm,
                                     pid_t parent)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    int fds[4] = { req, rep, shm, out };
    for (int i = 0; i < 4; i++) fds[i] = fcntl(fds[i], F_DUPFD, 10);
    int null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, 0) < 0 || dup2(fds[0], LAB_FD_REQ) < 0 ||
        dup2(fds[1], LAB_FD_REP) < 0 || dup2(fds[2], LAB_FD_SHM) < 0 ||
        dup2(fds[3], 1) < 0 || dup2(fds[3], 2) < 0)
        _exit(127);
    int bpf = -1;
    if (sandboxed) {                      /* the early filter, for bubblewrap */
        bpf = memfd_create("lab-bpf", 0);
        if (bpf < 0 || write(bpf, early_bpf, early_bpf_len) != (ssize_t)early_bpf_len ||
            lseek(bpf, 0, SEEK_SET) != 0 || dup2(bpf, LAB_FD_SHM + 1) < 0)
            _exit(127);
    }
    closefrom(LAB_FD_SHM + 2);
    /* no core file; files of at most 64 MiB (the sandbox's /tmp is private) */
    struct rlimit core = { 0, 0 }, fsize = { 64ul << 20, 64ul << 20 };
    setrlimit(RLIMIT_CORE, &core);
    setrlimit(RLIMIT_FSIZE, &fsize);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int s = 1; s < NSIG; s++) signal(s, SIG_DFL);
    /* the sanitizer build: its reports go to the output, the harness counts
     * leaks itself (the driver never exits normally), a report ends it */
    setenv("ASAN_OPTIONS", "detect_leaks=0:abort_on_error=0:exitcode=86:"
           "allocator_may_return_null=1:print_summary=1", 1);
    setenv("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1:exitcode=86", 1);
    setenv("LIBC_FATAL_STDERR_", "1", 1);
    if (sandboxed) {
        char fd[16];
        snprintf(fd, sizeof fd, "%d", LAB_FD_SHM + 1);
        setenv("LAB_SANDBOX", "bwrap", 1);   /* probed already */
        execl("/bin/sh", "sh", sandbox_sh(), "--ro", path, "--seccomp", fd, "--", path,
              (char *)NULL);
    } else {                             /* no sandbox: the early filter all the same */
        struct sock_fprog prog = { (unsigned short)(early_bpf_len / sizeof(struct sock_filter)),
                                   (struct sock_filter *)early_bpf };
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
            prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
            _exit(127);
        execl(path, path, (char *)NULL);
    }
    dprintf(2, "lab harness: cannot run %s: %s\n", path, strerror(errno));
    _exit(127);
}

lab_child *child_start(const char *path, lab_exchange *x)
{
    memset(x, 0, sizeof *x);
    lab_child *c = calloc(1, sizeof *c);
    int req[2] = { -1, -1 }, rep[2] = { -1, -1 }, out[2] = { -1, -1 };
    int shm = memfd_create("lab-shm", MFD_CLOEXEC);
    if (!c || shm < 0 || ftruncate(shm, LAB_SHM_SIZE) != 0 || pipe2(req, O_CLOEXEC) ||
        pipe2(rep, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
        give_up("lab harness");
    c->shm = mmap(NULL, (size_t)LAB_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, shm, 0);
    if (c->shm == MAP_FAILED) give_up("lab harness: mmap");
    c->ctl = (lab_control *)c->shm;
    pid_t parent = getpid();
    c->pid = fork();
    if (c->pid < 0) give_up("lab harness: fork");
    if (c->pid == 0) start_in_child(path, req[0], rep[1], out[1], shm, parent);
    setpgid(c->pid, c->pid);
    remember(c->pid);
    close(req[0]);
    close(rep[1]);
    close(out[1]);
    close(shm);
    c->req = req[1];
    c->rep = rep[0];
    c->out = out[0];
    fcntl(c->out, F_SETFL, O_NONBLOCK);
    wait_reply(c, 0, 0, 5.0, x);              /* hello */
    if (x->end == END_REPLY && x->rep.kind != LAB_REPLY_HELLO)
        finish(c, x, END_BROKEN);
    if (x->end != END_REPLY) {
        child_stop(c);
        return NULL;
    }
    return c;
}

void child_exchange(lab_child *c, const lab_request *req, double timeout, lab_exchange *x)
{
    memset(x, 0, sizeof *x);
    const char *p = (const char *)req;
    for (size_t done = 0; done < sizeof *req; ) {
        ssize_t w = write(c->req, p + done, sizeof *req - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {                    /* it is gone */
            finish(c, x, END_DIED);
            return;
        }
        done += (size_t)w;
    }
    c->calls++;
    wait_reply(c, req->seq, req->nonce, timeout, x);
}

void child_stop(lab_child *c)
{
    if (!c) return;
    if (c->pid > 0) {
        kill_group(c->pid);
        waitpid(c->pid, NULL, 0);
        forget(c->pid);
    }
    close(c->req);
    close(c->rep);
    close(c->out);
    munmap(c->shm, (size_t)LAB_SHM_SIZE);
    free(c);
}
