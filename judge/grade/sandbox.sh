#!/bin/sh
# sandbox.sh UID GID CMD [ARG...] - run CMD for the grader as a learner's own
# user: uid UID, gid GID, no supplementary group, no capability, no new
# privileges. GRADE_SANDBOX says how (grade.py probes which works here):
#   ns    also in namespaces of its own: PID (whatever CMD starts dies with
#         it), network (none), IPC, and mount, where /tmp, /var/tmp and
#         /dev/shm are empty private tmpfs of 64 MiB but for each folder of
#         GRADE_SANDBOX_KEEP (one a line: the repository and the work folder,
#         when they are under them), bound back at the same place
#   uid   the user only (a container that refuses namespaces; grade.py then
#         sweeps what UID leaves after each check)
#   none  CMD as it is (the grader is not root)
# The labs' own sandbox (judge/harness/sandbox.sh, bubblewrap) runs inside.
set -eu
uid=$1 gid=$2
shift 2
case "${GRADE_SANDBOX:-none}" in
  ns) exec unshare --pid --fork --kill-child --mount-proc --net --ipc -- sh -c '
        set -euf
        nl="
"
        for d in /tmp /var/tmp /dev/shm; do
          [ -d "$d" ] || continue
          n=3 list=
          IFS=$nl
          for p in ${GRADE_SANDBOX_KEEP:-}; do
            case "$p" in "$d"/*)
              [ -d "$p" ] || continue
              eval "exec $n<\"\$p\""
              list="$list$nl$n $p"
              n=$((n + 1)) ;;
            esac
          done
          mount -t tmpfs -o size=64m,mode=1777,nosuid,nodev tmpfs "$d"
          for x in $list; do
            fd=${x%% *} p=${x#* }
            mkdir -p "$p"
            mount --no-canonicalize --bind "/proc/self/fd/$fd" "$p"
            eval "exec $fd<&-"
          done
          unset IFS
        done
        unset GRADE_SANDBOX_KEEP
        exec "$@"' sh \
        setpriv --reuid="$uid" --regid="$gid" --clear-groups --no-new-privs \
        --inh-caps=-all --bounding-set=-all -- "$@" ;;
  uid) exec setpriv --reuid="$uid" --regid="$gid" --clear-groups --no-new-privs \
        --inh-caps=-all --bounding-set=-all -- "$@" ;;
  none) exec "$@" ;;
  *) echo "sandbox.sh: GRADE_SANDBOX=$GRADE_SANDBOX: ns, uid or none" >&2; exit 2 ;;
esac
