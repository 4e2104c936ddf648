#!/bin/sh
# learner-loop.sh WORK - the self-test of labs/labs.mk: make watch, make
# progress and make lab-reset, run in WORK/repo, a git clone with the
# working tree's files laid over it (so that resetting never touches the
# real learner's files), building in WORK/build. LAB00_SUBJECTS: the folder
# of Lab 00's generated subjects (judge/lab00/lab.mk).
#
# The copy gets a fake lab, labs/lab09-fake (config.mk below), whose report
# is whatever its learner's file says: a lab takes part through its
# LABNN_FILES line, --summary is read, and a lab that cannot be checked is
# shown as such, whatever state Lab 01 is in.
#
# Each test prints `ok` or `FAIL` and what it holds to; then each mutant (a
# change to the copy's labs/labs.mk that breaks one promise) must make its
# test fail. Exits 1 if anything is not so.
set -u
work=$1
src=$(pwd)
repo=$work/repo
build=$work/build
MAKE=${MAKE:-make}
fails=0 quiet='' shown=''

say() { [ -n "$quiet" ] || printf '%s\n' "$*"; }
ok() { say "ok    $*"; }
fail() {
  say "FAIL  $*"; fails=$((fails + 1))
  [ -n "$quiet" ] || [ ! -s "$shown" ] || sed -n '1,8s/^/      | /p' "$shown"
}
# check COND-STATUS WHAT - ok or FAIL
check() { if [ "$1" -eq 0 ]; then ok "$2"; else fail "$2"; fi; }
# has FILE TEXT - FILE holds the fixed string TEXT
has() { grep -qF -- "$2" "$1"; }

# run ARGS... - make in the copy, with a neutral environment; output in $out
out=$work/out.txt
run() {
  shown=$out
  (cd "$repo" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u LAB_LANG -u LC_ALL -u LC_MESSAGES \
     LANG=C "$@") > "$out" 2>&1
}
mk() { run "$MAKE" BUILD="$build" "$@"; }

# ---- the copy ----------------------------------------------------------------------
fresh_copy() {
  rm -rf "$repo"
  mkdir -p "$work"
  git clone -q "$src" "$repo" || { echo "learner-loop: cannot clone $src"; exit 1; }
  # the working tree's files (committed or not, not ignored), with their times
  (cd "$src" && git ls-files -z -c -o --exclude-standard \
     | tar --null -T - --ignore-failed-read -cf - 2> /dev/null) | tar -xf - -C "$repo"
  (cd "$src" && git ls-files -z -d) | (cd "$repo" && xargs -0r rm -f)
  cp "$repo/labs/labs.mk" "$work/learner.mk.orig"
  mkdir -p "$repo/labs/lab09-fake"
  cat > "$repo/config.mk" <<'EOF'
# a lab for the learner loop's self-test: its learner's file, work.txt, holds
# the rows of the report (NAME PENDING PASSED FAILED); a line `broken`
# makes it fail
LAB09_FILES := labs/lab09-fake/work.txt
LAB09_LEARNER := $(LAB09_FILES)
.PHONY: lab09
lab09:
	@if grep -q '^broken' $(LAB09_LEARNER); then echo "work.txt:1: error: broken" >&2; exit 2; fi
	@if [ '$(LAB_ARGS)' = --summary ]; then \
	  grep -E '^[a-z_0-9]+ [0-9]+ [0-9]+ [0-9]+$$' $(LAB09_LEARNER) | tr ' ' '\t'; \
	else \
	  echo "Lab 09: checking your functions..."; echo; \
	  printf '%-24s %10s %10s %10s\n' function pending passed failed; \
	  grep -E '^[a-z_0-9]+ [0-9]+ [0-9]+ [0-9]+$$' $(LAB09_LEARNER) \
	    | while read n p a f; do printf '%-24s %10d %10d %10d\n' $$n $$p $$a $$f; done; \
	  printf '%-24s %10d %10d %10d\n\n' total 0 0 0; echo "closing line"; \
	fi
EOF
  printf 'fn_one 2 0 0\nfn_two 0 3 0\n' > "$repo/labs/lab09-fake/work.txt"
  (cd "$repo" && export GIT_DIR="$repo/.git" GIT_WORK_TREE="$repo" && git add labs/lab09-fake \
     && git -c user.name=t -c user.email=t@t commit -qm "learner-loop: a fake lab") \
    || { echo "learner-loop: cannot commit the fake lab in the copy"; exit 1; }
}

answers=labs/lab00-by-hand/answers.txt
skeleton=labs/lab01-qkv/qkv.c
numpy=labs/lab00-by-hand/numpy_attention.py
shipped() { (cd "$repo" && git show "HEAD:./$1"); }
restore() { shipped "$1" > "$repo/$1"; rm -f "$repo/$1".saved-*; }

# ---- make lab-reset --------------------------------------------------------------------
t_reset() {
  restore $answers
  echo "my work" > "$repo/$answers"
  mk lab-reset NN=00; st=$?
  saved=$(ls "$repo/$answers".saved-* 2> /dev/null)
  [ $st -eq 0 ] && shipped $answers | cmp -s - "$repo/$answers"
  check $? "lab-reset NN=00: answers.txt is the committed version again"
  [ "$(echo "$saved" | wc -w)" -eq 1 ] && [ "$(cat "$saved" 2> /dev/null)" = "my work" ] \
    && echo "$saved" | grep -qE '\.saved-[0-9]{8}-[0-9]{6}$'
  check $? "lab-reset NN=00: the learner's file is kept as answers.txt.saved-YYYYMMDD-HHMMSS"
  has "$out" "Your file is saved as $answers.saved-" && has "$out" "cp $answers.saved-"
  check $? "lab-reset NN=00: says where the file was saved and how to get it back"

  mk lab-reset NN=00; st=$?
  [ $st -eq 0 ] && has "$out" "already as shipped" && [ "$(ls "$repo/$answers".saved-* 2> /dev/null | wc -l)" -eq 1 ]
  check $? "lab-reset NN=00 on an untouched file: nothing saved, says so"

  restore $skeleton
  echo "int qkv_project(void);" > "$repo/$skeleton"
  mk lab-reset NN=01; st=$?
  [ $st -eq 0 ] && shipped $skeleton | cmp -s - "$repo/$skeleton" \
    && [ "$(cat "$repo/$skeleton".saved-* 2> /dev/null)" = "int qkv_project(void);" ]
  check $? "lab-reset NN=01: qkv.c restored, the learner's kept aside"
  echo "second" > "$repo/$skeleton"
  mk lab-reset NN=01
  echo "third" > "$repo/$skeleton"
  mk lab-reset NN=01
  [ "$(ls "$repo/$skeleton".saved-* 2> /dev/null | wc -l)" -eq 3 ]
  check $? "lab-reset NN=01 three times within seconds: three saved files, none overwritten"

  echo "mi trabajo" > "$repo/$answers"
  mk lab-reset NN=00 LAB_LANG=es
  has "$out" "Tu archivo está guardado como" && ! has "$out" "Your file"
  check $? "lab-reset LAB_LANG=es: in Spanish"
  echo "mi trabajo" > "$repo/$answers"
  run env LANG=es_ES.UTF-8 "$MAKE" BUILD="$build" lab-reset NN=00
  has "$out" "Tu archivo está guardado como"
  check $? "lab-reset with LANG=es_ES.UTF-8: in Spanish"

  nogit=$work/nogit
  rm -rf "$nogit"; mkdir -p "$nogit"
  (cd "$repo" && tar --exclude=./.git -cf - .) | tar -xf - -C "$nogit"
  rm -f "$nogit/$answers".saved-*
  echo "my work" > "$nogit/$answers"
  (cd "$nogit" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u LAB_LANG LANG=C \
     GIT_CEILING_DIRECTORIES="$work" "$MAKE" BUILD="$build" lab-reset NN=00) > "$out" 2>&1; st=$?
  [ $st -ne 0 ] && has "$out" "this folder is not a git checkout" \
    && [ "$(cat "$nogit/$answers")" = "my work" ] && ! ls "$nogit/$answers".saved-* > /dev/null 2>&1
  check $? "lab-reset outside a git checkout: refused, says why, nothing changed"
  rm -rf "$nogit"

  mk lab-reset; st=$?
  found=$(cd "$repo" && sed -n 's/^LAB\([0-9][0-9]\)_FILES :=.*/\1/p' labs/labs.mk config.mk \
    | sort -u | tr '\n' ' ')
  [ $st -ne 0 ] && has "$out" "usage: make lab-reset NN=XX, XX one of: ${found% }"
  check $? "lab-reset without NN: the usage, naming the labs found"
  restore $answers; restore $skeleton
}

# ---- make progress -----------------------------------------------------------------------
# row LAB NAME P A F STATUS - the table row, as progress prints it
row() { printf '%-4s %-24s %10s %10s %10s  %s' "$1" "$2" "$3" "$4" "$5" "$6"; }
fake=labs/lab09-fake/work.txt

t_progress() {
  restore $answers
  printf 'fn_one 2 0 0\nfn_two 0 3 0\n' > "$repo/$fake"
  mk progress; st=$?
  [ $st -eq 0 ] && has "$out" "$(row 00 Q 1 0 0 pending)" && has "$out" "$(row 00 numpy:Q 1 0 0 pending)" \
    && has "$out" "$(row 00 numpy:large 1 0 0 pending)" && has "$out" "$(row 00 total 21 0 0 pending)" \
    && has "$out" "Next: lab 00, 21 pending. Edit $answers, $numpy, then run make lab NN=00 (or make watch NN=00)."
  check $? "progress, untouched Lab 00: every step pending, next is lab 00"
  has "$out" "$(row 09 fn_one 2 0 0 pending)" && has "$out" "$(row 09 fn_two 0 3 0 ok)" \
    && has "$out" "$(row 09 total 2 3 0 pending)"
  check $? "progress: a lab that takes part by its LABNN_FILES line, read from its --summary"

  cp "$LAB00_SUBJECTS/partial-wrong.txt" "$repo/$answers"
  mk progress
  has "$out" "$(row 00 K 0 0 1 FAILING)" && has "$out" "$(row 00 Q 0 1 0 ok)" \
    && has "$out" "Next: lab 00 has 1 failing. Fix $answers"
  check $? "progress, a wrong step: FAILING, and next says fix it"

  cp "$LAB00_SUBJECTS/correct-2dp.txt" "$repo/$answers"
  cp "$repo/$numpy" "$work/numpy_attention.py.keep"
  cp "$src/judge/lab00/subjects/numpy/solution.py" "$repo/$numpy"
  mk progress
  has "$out" "$(row 00 total 0 21 0 ok)" && has "$out" "Next: lab 01"
  check $? "progress, Lab 00 done (hand and NumPy): next is lab 01"
  cp "$work/numpy_attention.py.keep" "$repo/$numpy"

  cp "$LAB00_SUBJECTS/bad-number.txt" "$repo/$answers"
  mk progress
  has "$out" "00   cannot be checked (a file that does not read or compile): make lab NN=00 says why" \
    && has "$out" "Next: lab 00 cannot be checked: run make lab NN=00 to see why."
  check $? "progress, an unreadable answers file: cannot be checked, and next says how to see why"
  restore $answers

  printf 'broken\n' > "$repo/$fake"
  mk progress
  has "$out" "09   cannot be checked"
  check $? "progress, a lab that fails to build or run: cannot be checked"
  printf 'fn_one 2 0 0\nfn_two 0 3 0\n' > "$repo/$fake"

  mk progress LAB_LANG=es
  has "$out" "Progreso en todos los labs" && has "$out" "$(row 00 Q 1 0 0 pendiente)" \
    && has "$out" "Siguiente: el lab 00, 21 pendientes."
  check $? "progress LAB_LANG=es: in Spanish"
}

# ---- make watch ----------------------------------------------------------------------------
# start_watch LOG ARGS... - make watch NN=00 in a session of its own (so
# that everything it starts can be found), SIGINT as at a terminal; sets $pid
start_watch() {
  log=$1 shown=$1; shift
  (cd "$repo" && exec env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u LAB_LANG LANG=C \
     setsid env --default-signal=INT "$MAKE" BUILD="$build" watch NN=00 "$@") > "$log" 2>&1 &
  pid=$!
}
# within TENTHS CMD... - CMD holds within TENTHS tenths of a second (a loaded
# machine is slow to build and to reap)
within() {
  n=$1 i=0; shift
  until "$@"; do [ $i -lt "$n" ] || return 1; sleep 0.1; i=$((i + 1)); done
}
# wait_for COUNT LOG - LOG shows COUNT checks of the watch (within 90 s)
wait_for() { within 900 checked "$@"; }
checked() {
  [ "$(grep -cE "^make watch: .* (checked at|revisado a las)" "$2" 2> /dev/null)" -ge "$1" ] 2> /dev/null
}
# session - the PIDs of the processes of session $sid (from /proc: the
# fields after the command's closing parenthesis are state, ppid, pgrp, session)
session() {
  for f in /proc/[0-9]*/stat; do
    line=$(cat "$f" 2> /dev/null) || continue
    rest=${line##*) }
    # shellcheck disable=SC2086
    set -- $rest   # split into fields on purpose
    [ "${4:-}" = "$sid" ] || continue
    p=${f#/proc/}
    printf '%s ' "${p%/stat}"
  done
}
no_session() { [ -z "$(session)" ]; }
# stop_watch SIGNAL TARGET - send SIGNAL to TARGET (a pid, or -pgid), then
# check that nothing of the watch's session remains within 15 s; kill what
# does (the test fails)
stop_watch() {
  kill -"$1" "$2" 2> /dev/null
  sid=$pid
  within 150 no_session && return 0
  for p in $(session); do
    say "      left behind: $p $(tr '\0\n' '  ' < "/proc/$p/cmdline" 2> /dev/null | cut -c1-70)"
    kill -KILL "$p" 2> /dev/null
  done
  return 1
}

t_watch() {
  restore $answers
  log=$work/watch.log
  start_watch "$log"
  wait_for 1 "$log"
  check $? "watch NN=00: checks at once (the progress table and the footer)"
  has "$log" "[Q]       Q = X W_Q" && has "$log" "0 of 10 steps right"
  check $? "watch NN=00: shows Lab 00's report"
  touch "$repo/$answers"
  wait_for 2 "$log"
  check $? "watch: a save (touch) checks again"
  cp "$LAB00_SUBJECTS/partial-wrong.txt" "$repo/$answers.new"
  mv "$repo/$answers.new" "$repo/$answers"
  wait_for 3 "$log" && has "$log" "First step that differs: [K]"
  check $? "watch: a save by rename (as editors do) checks again, and shows the first failing step"
  stop_watch INT "-$pid"
  check $? "watch: Ctrl-C (SIGINT to its process group) ends it and everything it started"
  has "$log" "make watch: stopped."
  check $? "watch: says it stopped"

  restore $answers
  start_watch "$log"
  wait_for 1 "$log"
  stop_watch TERM "$pid"
  check $? "watch: SIGTERM to make alone ends it and everything it started"

  start_watch "$log" LAB_LANG=es
  wait_for 1 "$log"
  grep -q "^make watch: .* revisado a las" "$log" && has "$log" "Guarda el archivo para revisar de nuevo"
  check $? "watch LAB_LANG=es: in Spanish"
  stop_watch INT "-$pid" || true

  start_watch "$log"
  wait_for 1 "$log"
  stop_watch INT "-$pid"
  check $? "watch: Ctrl-C while waiting for a save leaves nothing behind"
  mkdir -p "$work/bin"
  find /usr/bin /bin -maxdepth 1 ! -name inotifywait ! -type d -exec ln -sf -t "$work/bin" {} + 2> /dev/null
  run env PATH="$work/bin" "$MAKE" BUILD="$build" watch NN=00; st=$?
  [ $st -ne 0 ] && has "$out" "make watch needs inotifywait, from the Debian package inotify-tools"
  check $? "watch without inotifywait: says which package to install"
  restore $answers
}

# t_lab - make lab NN=09 is the lab's own report; LAB_FORMAT=tap is the grader's
t_lab() {
  mk lab NN=09; st=$?
  [ $st -eq 0 ] && has "$out" "Lab 09: checking your functions..." && ! grep -q '^TAP version' "$out"
  check $? "lab NN=09: the lab's own report, not the grader's TAP"
}

# inotifywaits - inotifywait of the watch's session is running
inotifywaits() {
  sid=$pid
  for p in $(session); do grep -q inotifywait "/proc/$p/cmdline" 2> /dev/null && return 0; done
  return 1
}

# t_watch_term - SIGTERM to make alone while inotifywait waits for a save:
# inotifywait is not signalled itself, so only the recipe's trap ends it
# (the mutant below; Ctrl-C signals the whole group, inotifywait too)
t_watch_term() {
  log=$work/watch.log
  start_watch "$log"
  wait_for 1 "$log" && within 150 inotifywaits
  check $? "watch: inotifywait waits for a save"
  stop_watch TERM "$pid"
  check $? "watch: SIGTERM to make alone while inotifywait waits leaves nothing behind"
}

# ---- mutants: each breaks one promise, and its test must fail ------------------------------
# mutant NAME TEST SED - apply SED to the copy's labs/labs.mk, run TEST quietly: it must fail
mutant() {
  sed "$3" "$work/learner.mk.orig" > "$repo/labs/labs.mk"
  if cmp -s "$work/learner.mk.orig" "$repo/labs/labs.mk"; then
    fail "mutant $1: the change does not apply"; return
  fi
  before=$fails; quiet=1
  "$2"
  caught=$((fails - before)); fails=$before; quiet=
  cp "$work/learner.mk.orig" "$repo/labs/labs.mk"
  [ $caught -gt 0 ]
  check $? "mutant $1 is caught by $2 ($caught failing)"
}

command -v inotifywait > /dev/null 2>&1 || { echo "learner-loop: inotifywait is missing (make deps)"; exit 1; }
fresh_copy
start=$(date +%s)
t_reset
t_progress
t_lab
t_watch
t_watch_term
mutant watch-leaves-inotifywait t_watch_term 's/kill -TERM $$child $$(jobs -p)/: $$child/'
mutant reset-saves-nothing t_reset 's/cp -p "$$file" "$$saved"/true/'
mutant reset-outside-git t_reset 's/git rev-parse --is-inside-work-tree/true/'
mutant progress-next-skips-pending t_progress 's/(tp > 0 || tf > 0)/(tf > 0)/'
mutant progress-fixed-labs t_progress 's|$(filter LAB%_FILES,$(.VARIABLES))|LAB00_FILES LAB01_FILES|'
echo "learner loop self-test: $fails failed ($(($(date +%s) - start)) s, in $repo)"
[ $fails -eq 0 ]
