#!/bin/sh
# measure.sh [SIZE] [JOBS] - make grade, as root, on make-class.py's class made
# up to SIZE entries (default 31: 30 learners) with copies of the honest ones,
# measured (judge/grade/README.md, How long): the wall time, /usr/bin/time -v's
# largest process (the grader's own: it does not see into the sandbox's
# namespaces), the peak memory (VmHWM, sampled from /proc every 0.1 s) of this
# run's grader and learners' processes, and what is left after. The class, the
# reports and the numbers go to a folder of mktemp -d under /var/tmp (printed),
# which only root can read. Run it from the top of the repository.
set -u
size=${1:-31} jobs=${2:-2}
[ "$(id -u)" = 0 ] || { echo "measure: run it as root"; exit 1; }
d=$(mktemp -d /var/tmp/grade-measure.XXXXXX) || exit 1
echo "measure: in $d"
lab00=build/labs/lab00/selftest/subjects      # Lab 00's generated subjects, which the class uses
make -s "$lab00" > /dev/null && python3 judge/grade/tests/make-class.py --size "$size" "$lab00" "$d/class" || exit 1
work=$(mktemp -d /var/tmp/grade-measure-work.XXXXXX) && rmdir "$work"
/usr/bin/time -v make grade SUBMISSIONS="$d/class" GRADE_OUT="$d/out" GRADE_WORK="$work" \
  GRADE_JOBS="$jobs" > "$d/log" 2>&1 &
run=$!
cat > "$d/sample.py" <<'PY'
import os, sys, time
out, root = sys.argv[1], sys.argv[2]
base = int(os.environ.get("GRADE_UID_BASE", "1500000000"))
peak = {"grader": (0, ""), "learner": (0, "")}
while os.path.exists("/proc/" + root):
    info = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/status" % pid) as f:
                st = dict(l.split(":", 1) for l in f if ":" in l)
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace")[:100]
            info[pid] = (st["PPid"].strip(), int(st["Uid"].split()[0]),
                         int(st.get("VmHWM", "0 kB").split()[0]), cmd)
        except (OSError, ValueError, KeyError):
            continue
    for pid, (ppid, uid, hwm, cmd) in info.items():
        p, n = pid, 0
        while p in info and p != root and n < 64:      # this run's processes only
            p, n = info[p][0], n + 1
        if p != root:
            continue
        kind = "learner" if uid >= base else "grader"
        if hwm > peak[kind][0]:
            peak[kind] = (hwm, cmd)
    time.sleep(0.1)
with open(out, "w") as f:
    for k in ("grader", "learner"):
        f.write("largest %s process: %d MiB (%s)\n" % (k, peak[k][0] >> 10, peak[k][1]))
PY
python3 "$d/sample.py" "$d/peaks" "$run" &
sampler=$!
wait $run
echo "exit $?" >> "$d/log"
wait $sampler
grep -v '^  CC' "$d/log" | grep -E '^graded|^slowest|^checks|Elapsed|Maximum resident|^exit'
cat "$d/peaks"
echo "left:"
ps -eo ruid=,euid=,pid=,args= | awk '$1 >= 1500000000 || $2 >= 1500000000' | head -n 5
find /tmp /var/tmp /dev/shm -maxdepth 3 \( -name 'grade-PWNED*' -o -uid +1499999999 \) 2> /dev/null | head -n 5
[ ! -e "$work" ] || echo "$work (the scratch folders)"
echo "(end of what is left)"
