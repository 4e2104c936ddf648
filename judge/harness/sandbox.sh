#!/bin/sh
# sandbox.sh - run a command on a learner's code where it sees only what it
# needs: the compiler that builds the learner's file, and the driver that
# runs it, both run through here (make lab and make grade alike).
#
#   sandbox.sh [--ro PATH]... [--rw PATH]... [--seccomp FD] -- CMD [ARG...]
#   sandbox.sh --probe
#
# With bubblewrap (bwrap), CMD runs in namespaces of its own: a root that
# holds only the system's /usr (the compiler, the C library) and
# /etc/alternatives (where cc points), each --ro PATH read-only and each
# --rw PATH writable, at the same places as outside (an --ro PATH that
# does not exist is left out); a private /tmp and /dev/shm (at most 256 MiB, gone when CMD ends) and a
# minimal /dev; no network; a PID namespace of its own (whatever CMD starts
# ends with it); a new session (no controlling terminal); no capability and
# no new user namespace. --seccomp FD: the system-call filter on FD (a BPF
# program) is in force from CMD's first instruction. Nothing else of the
# machine is there: not the repository, not the book's sources, not a
# class's submissions, not the reports, not the rest of /etc.
#
# LAB_SANDBOX=none, or a machine where bubblewrap cannot make namespaces (a
# container that forbids them), runs CMD as it is, after one line on stderr
# that says so: then only the driver's own limits (seccomp, rlimits) and
# file permissions confine it. --probe prints nothing and exits 0 if the
# sandbox can run, else prints that line's reason and exits 1 (the judge
# asks once, and says it in its report).
set -u
ro= rw= seccomp= probe=
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
absolute() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
while [ $# -gt 0 ]; do
  case "$1" in
    --ro) ro="$ro --ro-bind-try $(quote "$(absolute "$2")") $(quote "$(absolute "$2")")"; shift 2 ;;
    --rw) mkdir -p "$2" 2> /dev/null
          rw="$rw --bind $(quote "$(absolute "$2")") $(quote "$(absolute "$2")")"; shift 2 ;;
    --seccomp) seccomp="--seccomp $2"; shift 2 ;;
    --probe) probe=1; shift ;;
    --) shift; break ;;
    *) echo "sandbox.sh: unknown option $1 (--ro PATH, --rw PATH, --seccomp FD, -- CMD)" >&2
       exit 2 ;;
  esac
done
[ $# -gt 0 ] || [ -n "$probe" ] || { echo "sandbox.sh: no command after --" >&2; exit 2; }

# the top-level folders of a merged /usr (bin -> usr/bin, ...) as they are here
tops=
for d in bin sbin lib lib32 lib64 libx32; do
  if [ -L "/$d" ]; then tops="$tops --symlink $(readlink "/$d") /$d"
  elif [ -d "/$d" ]; then tops="$tops --ro-bind /$d /$d"
  fi
done
# /etc/alternatives: where Debian's cc, awk, ... point
[ -d /etc/alternatives ] && tops="$tops --ro-bind /etc/alternatives /etc/alternatives"
base="--unshare-all --unshare-user --disable-userns --die-with-parent --new-session \
  --cap-drop ALL --ro-bind /usr /usr $tops --proc /proc --dev /dev \
  --size 268435456 --tmpfs /tmp --size 268435456 --tmpfs /dev/shm --setenv HOME /tmp \
  --setenv TMPDIR /tmp"

# why_not - empty if bubblewrap can make the sandbox here, else the reason
why_not() {
  if [ "${LAB_SANDBOX:-}" = none ]; then
    echo "LAB_SANDBOX=none"
  elif ! command -v bwrap > /dev/null 2>&1; then
    echo "bubblewrap is not installed (make deps installs it)"
  elif ! err=$(bwrap $base -- /bin/true 2>&1); then
    echo "bubblewrap cannot make namespaces here ($(printf '%s' "${err:-no reason given}" | head -n 1))"
  fi
}
why=$(why_not)
if [ -n "$probe" ]; then
  [ -z "$why" ] && exit 0
  printf '%s\n' "$why"
  exit 1
fi
if [ -z "$why" ]; then
  eval "exec bwrap $base $ro $rw --dir $(quote "$PWD") --chdir $(quote "$PWD") $seccomp -- \"\$@\""
fi
echo "lab sandbox: $why: the learner's code runs without the sandbox, confined only by its own limits and file permissions" >&2
exec "$@"
