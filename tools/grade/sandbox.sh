#!/bin/sh
# sandbox.sh UID GID CMD [ARG...] - run CMD for the grader as a learner's own
# user: uid UID, gid GID, no supplementary group, no capability, no new
# privileges (a set-uid program gains nothing). GRADE_SANDBOX says how
# (grade.py probes which works here):
#   ns    also in a PID namespace of its own (whatever CMD starts dies with
#         it: nothing outlives the check) and a network namespace with no
#         network, /proc showing only its own processes
#   uid   the user only (a container that refuses namespaces); grade.py then
#         kills whatever is left running as UID after each check
#   none  CMD as it is (the grader is not root)
set -eu
uid=$1 gid=$2
shift 2
drop() {
  exec setpriv --reuid="$uid" --regid="$gid" --clear-groups --no-new-privs \
    --inh-caps=-all --bounding-set=-all -- "$@"
}
case "${GRADE_SANDBOX:-none}" in
  ns) exec unshare --pid --fork --kill-child --mount-proc --net -- \
        setpriv --reuid="$uid" --regid="$gid" --clear-groups --no-new-privs \
        --inh-caps=-all --bounding-set=-all -- "$@" ;;
  uid) drop "$@" ;;
  none) exec "$@" ;;
  *) echo "sandbox.sh: GRADE_SANDBOX=$GRADE_SANDBOX: ns, uid or none" >&2; exit 2 ;;
esac
