# labs/labs.mk - the learner's loop over every lab (included by the top Makefile):
#   make watch NN=01       check lab NN again each time its file is saved (Ctrl-C stops)
#   make progress          one table over every lab, and what to do next
#   make lab-reset NN=01   put the lab's file back as shipped, keeping yours aside
#   make lab-try NN=01     run the lab's scratch program, try.c, with your file
#   make lab-debug NN=02 CHECK=sdpa/c3   a failing check's call, again, under gdb
# Messages in English, or in Spanish with LAB_LANG=es or a Spanish locale
# (judge/harness/lang.sh says how), as the labs do.
#
# The labs: for each NN, the files the learner edits (the first is the one
# named in messages; several files of one lab share a folder). A lab takes
# part through this one line and its target labNN, which prints, with
# LAB_ARGS=--summary, one line per function or step,
# NAME<TAB>pending<TAB>passed<TAB>failed, and nothing else on stdout
# (judge/judge.mk and judge/lab00/lab.mk define them). LABNN_WATCH_ARGS, if
# a lab sets it, is passed as LAB_ARGS by make watch.
# The self-test is judge/selftest/learner-loop.sh (make check-learner-loop).
ifndef LEARNER_MK
LEARNER_MK := 1

LAB00_FILES := labs/lab00-by-hand/answers.txt labs/lab00-by-hand/numpy_attention.py
LAB01_FILES := labs/lab01-qkv/qkv.c
LAB02_FILES := labs/lab02-sdpa/sdpa.c
LAB03_FILES := labs/lab03-mha/mha.c
LAB04_FILES := labs/lab04-masking/mask.c
LAB05_FILES := labs/lab05-speed/fast.c

# A lab whose file writes some of a library file's functions and may call
# the others (Lab 05: chapter 05's fast.c) names that source and a copy of
# it made without the lab's functions (local symbols): make lab-try and
# make lab-debug link the copy instead (judge/judge.mk does the same for the
# driver)
LAB05_LIB_SRC := tangled/minimodel/attention/fast.c
LAB05_LIB_OBJ := $(BUILD)/labs/lib/lab05/fast.o
$(LAB05_LIB_OBJ): $(LAB05_LIB_SRC)
	@mkdir -p $(@D)
	$(Q)$(CC) $(MM_CPPFLAGS) $(MM_CFLAGS) -O0 -g -c $< -o $@
	$(Q)objcopy $(foreach f,$(LAB05_FUNCS),--localize-symbol=$(f)) $@
# learner_lib - the library's parts lab NN may call, for the compiler;
# learner_lib_made - shell: make the copy first, if the lab has one
learner_lib = $(if $(LAB$(NN)_LIB_OBJ),$(filter-out $(LAB$(NN)_LIB_SRC),$(LAB$(NN)_LIB)) \
  $(LAB$(NN)_LIB_OBJ),$(LAB$(NN)_LIB))
learner_lib_made = $(if $(LAB$(NN)_LIB_OBJ),$(MAKE) -s $(LAB$(NN)_LIB_OBJ) &&)

.PHONY: lab watch progress lab-reset lab-try lab-debug

# the labs: NN of every LABNN_FILES (read when a recipe runs: config.mk may add one)
LEARNER_LABS = $(sort $(patsubst LAB%_FILES,%,$(filter LAB%_FILES,$(.VARIABLES))))
# learner_file(NN) - the file the learner edits in lab NN (the first);
# learner_files(NN) - every such file
learner_file = $(firstword $(LAB$(1)_FILES))
learner_files = $(LAB$(1)_FILES)

# ---- messages: LL_name_en and LL_name_es, printf formats --------------------------
# The language (judge/harness/lang.sh, the one place the locale is read),
# given to everything make runs as LAB_LANG=en or es
LEARNER_LANG := $(shell LAB_LANG='$(LAB_LANG)' LC_ALL='$(LC_ALL)' LC_MESSAGES='$(LC_MESSAGES)' \
                  LANG='$(LANG)' sh judge/harness/lang.sh)
override LAB_LANG := $(LEARNER_LANG)
export LAB_LANG
ll = $(LL_$(1)_$(LEARNER_LANG))

LL_usage_en := usage: make %s NN=XX, XX one of: %s
LL_usage_es := uso: make %s NN=XX, con XX uno de: %s
LL_no_inotify_en := make watch needs inotifywait, from the Debian package inotify-tools: run sudo make deps (or sudo apt-get install inotify-tools).
LL_no_inotify_es := make watch necesita inotifywait, del paquete inotify-tools de Debian: ejecuta sudo make deps (o sudo apt-get install inotify-tools).
LL_no_file_en := %s does not exist: make lab-reset NN=%s puts it back as shipped.
LL_no_file_es := %s no existe: make lab-reset NN=%s lo devuelve a su estado original.
LL_watching_en := make watch: %s checked at %s. Save the file to check again; Ctrl-C stops.
LL_watching_es := make watch: %s revisado a las %s. Guarda el archivo para revisar de nuevo; Ctrl-C para.
LL_inotify_failed_en := make watch: inotifywait cannot watch %s (it ended with status %s); the file is not watched any more.
LL_inotify_failed_es := make watch: inotifywait no puede vigilar %s (terminó con el estado %s); el archivo ya no se vigila.
LL_stopped_en := make watch: stopped.
LL_stopped_es := make watch: detenido.
LL_title_en := Progress over every lab
LL_title_es := Progreso en todos los labs
LL_columns_en := lab|step or function|pending|passed|failed|status
LL_columns_es := lab|paso o función|pendientes|superadas|fallidas|estado
LL_words_en := ok|pending|FAILING|total
LL_words_es := ok|pendiente|FALLA|total
LL_broken_en := cannot be checked (a file that does not read or compile): make lab NN=%s says why
LL_broken_es := no se puede revisar (un archivo que no se lee o no compila): make lab NN=%s dice por qué
LL_next_failing_en := Next: lab %s has %d failing. Fix %s, then run make lab NN=%s (or make watch NN=%s).
LL_next_failing_es := Siguiente: el lab %s tiene %d que fallan. Corrige %s y ejecuta make lab NN=%s (o make watch NN=%s).
LL_next_pending_en := Next: lab %s, %d pending. Edit %s, then run make lab NN=%s (or make watch NN=%s).
LL_next_pending_es := Siguiente: el lab %s, %d pendientes. Edita %s y ejecuta make lab NN=%s (o make watch NN=%s).
LL_next_broken_en := Next: lab %s cannot be checked: run make lab NN=%s to see why.
LL_next_broken_es := Siguiente: el lab %s no se puede revisar: ejecuta make lab NN=%s para ver por qué.
LL_all_done_en := Every lab is done: nothing pending, nothing failing.
LL_all_done_es := Todos los labs están terminados: nada pendiente, nada falla.
LL_no_git_en := make lab-reset takes the shipped %s from git, and this folder is not a git checkout: take the file from a fresh copy of the workbook instead. Nothing was changed.
LL_no_git_es := make lab-reset toma de git el %s original, y esta carpeta no es un checkout de git: toma el archivo de una copia nueva del libro. No se cambió nada.
LL_not_committed_en := git has no committed %s to restore. Nothing was changed.
LL_not_committed_es := git no tiene un %s confirmado que recuperar. No se cambió nada.
LL_same_en := %s is already as shipped: nothing to save, nothing changed.
LL_same_es := %s ya está como el original: nada que guardar, nada cambiado.
LL_no_save_en := Could not save your file as %s. Nothing was changed.
LL_no_save_es := No se pudo guardar tu archivo como %s. No se cambió nada.
LL_reset_en := Your file is saved as %s, and %s is back as shipped. To return to your version: cp %s %s
LL_reset_es := Tu archivo está guardado como %s, y %s vuelve a estar como el original. Para volver a tu versión: cp %s %s

# ---- make lab NN=... ---------------------------------------------------------------------
# NN=1 and NN=01 name the same lab
NN ?=
override NN := $(if $(filter 0 1 2 3 4 5 6 7 8 9,$(NN)),0$(NN),$(NN))
lab: ## [NN=00] check your work on one lab (NN = 00 to 05; CHECK=FUNCTION[/NAME] one function or check, FIRST=1, LAB_ARGS=--help; LAB_FORMAT=tap: as graded)
	@$(call learner_need_nn,lab)
	@$(call learner_quiet,$(if $(LAB_FORMAT),$(MAKE) -s lab-report NN=$(NN),$(MAKE) -s lab$(NN)))

# learner_quiet(command) - shell: run a sub-make with its status, without the
# `make[1]: *** [...] Error 1` line it adds under a failing report (the
# report says what failed; that line reads as a broken build)
learner_quiet = exec 3>&1; st=$$( { { $(1) 2>&1 1>&3 3>&-; echo $$? >&4; } \
  | grep --line-buffered -v '^make\[[0-9]*\]: \*\*\* \[.*\] Error [0-9]*$$' >&2; } 4>&1 ); \
  exit $${st:-2}

# learner_need_nn(target) - shell: stop with the usage unless NN names a lab
learner_need_nn = if [ -z '$(NN)' ] || [ -z '$(call learner_file,$(NN))' ]; then \
  printf '$(call ll,usage)\n' '$(1)' '$(LEARNER_LABS)' >&2; exit 2; fi

# ---- make watch NN=... ------------------------------------------------------------------
# The check runs in the foreground (Ctrl-C reaches it); inotifywait runs in
# the background and is waited for, so that the trap runs at once on Ctrl-C
# (SIGINT) or SIGTERM and ends it, and inotifywait with it (every job of the
# shell: a signal may come before $! is read, and a background job ignores
# SIGINT). Events on the folder, filtered to the file,
# see an editor's write in place and its write-and-rename alike. If the file
# changed while it was being checked, it is checked again at once.
watch: ## [NN=01] check one lab again each time its file is saved (Ctrl-C stops)
	@$(call learner_need_nn,watch)
	@command -v inotifywait > /dev/null 2>&1 || { printf '$(call ll,no_inotify)\n' >&2; exit 2; }
	@files='$(call learner_files,$(NN))'; file=$${files%% *}; \
	for f in $$files; do [ -f "$$f" ] || { printf '$(call ll,no_file)\n' "$$f" '$(NN)' >&2; exit 2; }; done; \
	dir=$$(dirname "$$file"); \
	re=$$(for f in $$files; do basename "$$f"; done | sed 's/[].[^$$*+?(){}|\\]/\\&/g' | paste -sd '|'); \
	child=; \
	stop() { trap - INT TERM HUP; kill -TERM $$child $$(jobs -p) 2> /dev/null; \
	         wait 2> /dev/null; printf '\n$(call ll,stopped)\n'; exit 0; }; \
	trap stop INT TERM HUP; \
	while :; do \
	  if [ -t 1 ]; then printf '\033[H\033[2J\033[3J'; fi; \
	  before=$$(cat $$files 2> /dev/null | cksum); \
	  ( $(call learner_quiet,$(MAKE) -s lab$(NN) LAB_LANG=$(LEARNER_LANG) $(if $(LAB$(NN)_WATCH_ARGS),LAB_ARGS='$(LAB$(NN)_WATCH_ARGS)')) ); \
	  printf '\n$(call ll,watching)\n' "$$(echo $$files | sed 's/ /, /g')" "$$(date +%H:%M:%S)"; \
	  if [ "$$(cat $$files 2> /dev/null | cksum)" = "$$before" ]; then \
	    inotifywait -qq -e close_write,moved_to,create --include "(^|/)($$re)\$$" "$$dir" & child=$$!; \
	    wait "$$child"; status=$$?; child=; \
	    [ $$status -eq 0 ] || { printf '$(call ll,inotify_failed)\n' "$$dir" "$$status" >&2; exit 2; }; \
	    sleep 0.1; \
	  fi; \
	done

# ---- make lab-try NN=... ------------------------------------------------------------------
# The lab's scratch program (labs/labNN-*/try.c, the learner's to change) built
# with the learner's file and the library's parts the lab may call, at -O0 -g,
# in the learner's own process (no judge, no sandbox), and run.
learner_try = $(BUILD)/labs/try/lab$(NN)/try
lab-try: ## [NN=01] run your functions on your own inputs: labs/labNN-*/try.c (gdb: build/labs/try/labNN/try)
	@try=$(or $(LAB_TRY),$(dir $(call learner_file,$(NN)))try.c); \
	if [ -z '$(NN)' ] || [ -z '$(call learner_file,$(NN))' ] || [ ! -f "$$try" ]; then \
	  printf '$(call ll,usage)\n' lab-try '$(patsubst labs/lab%,%,$(foreach f,$(wildcard labs/lab*/try.c),$(firstword $(subst -, ,$(f)))))' >&2; exit 2; fi; \
	mkdir -p $(dir $(learner_try)) && $(learner_lib_made) \
	$(CC) $(MM_CPPFLAGS) -Ilabs $(MM_CFLAGS) -Wno-unused-parameter -O0 -g -o $(learner_try) "$$try" \
	  $(call learner_file,$(NN)) $(learner_lib) $(LDLIBS) && $(learner_try)

# ---- make lab-debug NN=... CHECK=... --------------------------------------------------------
# The judge runs the checks CHECK names (FIRST=1) and records the first call
# after which one failed (LAB_RECORD=DIR, judge/harness/wire.h); then the
# driver, built as make lab-try builds its program (-O0 -g, the learner's
# file and the lab's library, no judge, no sandbox), makes that call again
# (--replay) under gdb, stopped at the function's first line. LAB_DEBUG_GDB
# is the debugger's command (the self-test, tests/check_lab_debug.sh, runs
# it without a terminal). The driver is linked as build-driver.sh links it.
LAB_DEBUG_GDB ?= gdb -q -iex 'set debuginfod enabled off'
learner_debug = $(BUILD)/labs/debug/lab$(NN)
learner_wraps = $(foreach f,malloc calloc realloc free reallocarray aligned_alloc posix_memalign \
  strdup strndup,-Wl,--wrap=$(f))
LL_debug_usage_en := usage: make lab-debug NN=XX CHECK=FUNCTION/NAME, XX one of: %s (make lab NN=XX LAB_ARGS=--help lists the checks)
LL_debug_usage_es := uso: make lab-debug NN=XX CHECK=FUNCIÓN/NOMBRE, con XX uno de: %s (make lab NN=XX LAB_ARGS=--help lista las comprobaciones)
LL_no_gdb_en := make lab-debug needs gdb (%s was not found), from the Debian package gdb: run sudo make deps (or sudo apt-get install gdb).
LL_no_gdb_es := make lab-debug necesita gdb (no se encontró %s), del paquete gdb de Debian: ejecuta sudo make deps (o sudo apt-get install gdb).
LL_no_check_en := CHECK=%s names no check of lab %s: make lab NN=%s LAB_ARGS=--help lists them.
LL_no_check_es := CHECK=%s no nombra ninguna comprobación del lab %s: make lab NN=%s LAB_ARGS=--help las lista.
LL_debug_passes_en := CHECK=%s passes: nothing to step through.
LL_debug_passes_es := CHECK=%s pasa: no hay nada que recorrer paso a paso.
LL_debug_pending_en := CHECK=%s is pending: its function still calls LAB_TODO(). Delete that line and write the function first.
LL_debug_pending_es := CHECK=%s está pendiente: su función aún llama a LAB_TODO(). Borra esa línea y escribe la función primero.
LL_debug_no_call_en := CHECK=%s fails, but not in a call of your function that can be made again: make lab NN=%s CHECK=%s says why.
LL_debug_no_call_es := CHECK=%s falla, pero no en una llamada a tu función que se pueda repetir: make lab NN=%s CHECK=%s dice por qué.
LL_debug_intro_en := %s fails on the case \047%s\047.\nYour function %s now runs under gdb on exactly that call, in your own process (built at -O0 -g, no judge), stopped at its first line:\n  next            run the line shown (step: go into the function it calls)\n  print s[0]@n    the first n elements of the array s (print x: one variable)\n  info locals     your local variables\n  finish          run to the end of the function, and show what it returns\n  continue        run on: a crash stops at its line\n  bt              where you are: the chain of calls\n  quit            leave gdb\n
LL_debug_intro_es := %s falla en el caso \047%s\047.\nTu función %s corre ahora bajo gdb con esa misma llamada, en tu propio proceso (compilado con -O0 -g, sin el juez), parada en su primera línea:\n  next            ejecuta la línea mostrada (step: entra en la función que llama)\n  print s[0]@n    los n primeros elementos del array s (print x: una variable)\n  info locals     tus variables locales\n  finish          sigue hasta el final de la función y muestra lo que devuelve\n  continue        sigue: un fallo de memoria se para en su línea\n  bt              dónde estás: la cadena de llamadas\n  quit            sale de gdb\n

lab-debug: ## [NN=02 CHECK=sdpa/c3] step through your function under gdb on that check's failing call
	@if [ -z '$(filter $(NN),$(JUDGE_CLABS))' ] || [ -z '$(CHECK)' ]; then \
	  printf '$(call ll,debug_usage)\n' '$(JUDGE_CLABS)' >&2; exit 2; fi; \
	command -v $(firstword $(LAB_DEBUG_GDB)) > /dev/null 2>&1 \
	  || { printf '$(call ll,no_gdb)\n' '$(firstword $(LAB_DEBUG_GDB))' >&2; exit 2; }; \
	d=$(abspath $(learner_debug)); rm -f "$$d/call.rec" "$$d/call.txt"; mkdir -p "$$d" || exit 2; \
	LAB_RECORD="$$d" $(MAKE) -s lab$(NN) CHECK='$(CHECK)' FIRST=1 LAB_ARGS=--summary \
	  > "$$d/summary" 2> "$$d/judge.err"; st=$$?; \
	set -- $$(awk -F '\t' 'NF == 4 { p += $$2; a += $$3; f += $$4 } END { print p + 0, a + 0, f + 0 }' "$$d/summary"); \
	if [ $$st -ne 0 ] || [ ! -s "$$d/summary" ]; then \
	  grep -v '^make\[[0-9]*\]: \*\*\*' "$$d/judge.err" >&2; exit 2; \
	elif [ $$(($$1 + $$2 + $$3)) -eq 0 ]; then printf '$(call ll,no_check)\n' '$(CHECK)' $(NN) $(NN) >&2; exit 2; \
	elif [ $$3 -eq 0 ] && [ $$1 -gt 0 ]; then printf '$(call ll,debug_pending)\n' '$(CHECK)'; exit 0; \
	elif [ $$3 -eq 0 ]; then printf '$(call ll,debug_passes)\n' '$(CHECK)'; exit 0; \
	elif [ ! -s "$$d/call.txt" ]; then printf '$(call ll,debug_no_call)\n' '$(CHECK)' $(NN) '$(CHECK)'; exit 1; fi; \
	$(learner_lib_made) $(CC) $(MM_CPPFLAGS) -Ijudge/harness -Ilabs $(MM_CFLAGS) -Wno-unused-parameter -O0 -g \
	  -o "$$d/replay" judge/harness/driver.c judge/lab$(NN)/calls.c $(call learner_file,$(NN)) \
	  $(learner_lib) $(learner_wraps) -lseccomp $(LDLIBS) -lrt || exit 2; \
	fn=$$(sed -n 1p "$$d/call.txt"); \
	printf '$(call ll,debug_intro)\n' "$$(sed -n 2p "$$d/call.txt")" "$$(sed -n 3p "$$d/call.txt")" "$$fn"; \
	exec $(LAB_DEBUG_GDB) -ex "break $$fn" -ex run --args "$$d/replay" --replay "$$d/call.rec"

# make lab-debug's self-test, in a copy of the workbook (tests/check_lab_debug.sh)
CHECK_ALL_TARGETS += check-lab-debug
.PHONY: check-lab-debug
check-lab-debug:
	@mkdir -p $(BUILD)
	@sh tests/check_lab_debug.sh > $(BUILD)/lab-debug.log 2>&1 || { cat $(BUILD)/lab-debug.log; exit 1; }
	@tail -n 1 $(BUILD)/lab-debug.log

# ---- make progress ----------------------------------------------------------------------
# Each lab's rows (from its --summary) become records
# NN<TAB>NAME<TAB>PENDING<TAB>PASSED<TAB>FAILED, or NN<TAB>!broken when there
# are none; awk prints the table and what to do next (LC_ALL=C: widths in
# bytes, with UTF-8's continuation bytes not counted).
learner_summary = $(MAKE) -s lab$$nn LAB_LANG=en LAB_ARGS=--summary 2> /dev/null \
  | grep -E "^[^$$tab ][^$$tab]*$$tab[0-9]+$$tab[0-9]+$$tab[0-9]+$$"
progress: ## every lab: pending / passed / failed, and what to do next
	@tab=$$(printf '\t'); \
	records() { \
	  nn=$$1; \
	  rows=$$($(learner_summary)); \
		  if [ -z "$$rows" ]; then printf '%s\t!broken\n' "$$nn"; \
	  else printf '%s\n' "$$rows" | sed "s/^/$$nn$$tab/"; fi; \
	}; \
	{ $(foreach nn,$(LEARNER_LABS),records '$(nn)';) } | LC_ALL=C awk -F "$$tab" \
	  -v title='$(call ll,title)' -v columns='$(call ll,columns)' -v words='$(call ll,words)' \
	  -v broken='$(call ll,broken)' -v next_failing='$(call ll,next_failing)' \
	  -v next_pending='$(call ll,next_pending)' -v next_broken='$(call ll,next_broken)' \
	  -v all_done='$(call ll,all_done)' \
	  -v files='$(foreach nn,$(LEARNER_LABS),$(nn)=$(subst $(eval) ,+,$(strip $(call learner_files,$(nn)))))' ' \
	  function left(s, n,   t) { t = s; n -= length(s) - gsub(/[\200-\277]/, "", t); \
	                           while (n-- > 0) s = s " "; return s } \
	  function right(s, n,   t) { t = s; n -= length(s) - gsub(/[\200-\277]/, "", t); \
	                            while (n-- > 0) s = " " s; return s } \
	  function row(lab, name, p, a, f, st) { \
	    print left(lab, 4) " " left(name, 24) " " right(p, 10) " " right(a, 10) " " right(f, 10) "  " st } \
	  function state(p, a, f) { return f > 0 ? w[3] : p > 0 ? w[2] : a > 0 ? w[1] : "-" } \
	  function total(nn) { \
	    if (nn == "") return; \
	    row(nn, w[4], tp, ta, tf, state(tp, ta, tf)); \
	    if (todo == "" && (tp > 0 || tf > 0)) { todo = nn; np = tp; nf = tf } \
	    tp = ta = tf = 0 } \
	  BEGIN { split(columns, c, "|"); split(words, w, "|"); \
	          n = split(files, fl, " "); for (i = 1; i <= n; i++) { split(fl[i], kv, "="); \
	                                     gsub(/\+/, ", ", kv[2]); file[kv[1]] = kv[2] } \
	          print title; print ""; row(c[1], c[2], c[3], c[4], c[5], c[6]) } \
	  $$1 "" != lab "" { total(lab); lab = $$1 "" } \
	  $$2 == "!broken" { printf "%s " broken "\n", left($$1, 4), $$1; \
	                     if (todo == "") { todo = $$1; nb = 1 }; lab = ""; next } \
	  { row($$1, $$2, $$3, $$4, $$5, state($$3, $$4, $$5)); tp += $$3; ta += $$4; tf += $$5 } \
	  END { total(lab); print ""; \
	        if (todo == "") print all_done; \
	        else if (nb) printf next_broken "\n", todo, todo; \
	        else if (nf > 0) printf next_failing "\n", todo, nf, file[todo], todo, todo; \
	        else printf next_pending "\n", todo, np, file[todo], todo, todo }'

# ---- make lab-reset NN=... ----------------------------------------------------------------
# The shipped file is git's committed version (git show HEAD:FILE: read only,
# the index and the other files are left alone). The learner's file is kept
# next to it as FILE.saved-YYYYMMDD-HHMMSS (-2, -3, ... if that exists), and
# the shipped text is written into the file in place, so an editor or make
# watch sees the change.
lab-reset: ## [NN=01] put a lab's file back as shipped (yours saved aside)
	@$(call learner_need_nn,lab-reset)
	@for file in $(call learner_files,$(NN)); do \
	git rev-parse --is-inside-work-tree > /dev/null 2>&1 \
	  || { printf '$(call ll,no_git)\n' "$$file" >&2; exit 2; }; \
	git cat-file -e "HEAD:./$$file" 2> /dev/null \
	  || { printf '$(call ll,not_committed)\n' "$$file" >&2; exit 2; }; \
	shipped="$$file.shipped-$$$$"; \
	git show "HEAD:./$$file" > "$$shipped" || { rm -f "$$shipped"; exit 2; }; \
	if [ -f "$$file" ] && cmp -s "$$shipped" "$$file"; then \
	  rm -f "$$shipped"; printf '$(call ll,same)\n' "$$file"; continue; fi; \
	saved=; \
	if [ -e "$$file" ]; then \
	  saved="$$file.saved-$$(date +%Y%m%d-%H%M%S)"; n=1; base=$$saved; \
	  while [ -e "$$saved" ]; do n=$$((n + 1)); saved="$$base-$$n"; done; \
	  cp -p "$$file" "$$saved" || { rm -f "$$shipped"; printf '$(call ll,no_save)\n' "$$saved" >&2; exit 2; }; \
	fi; \
	cat "$$shipped" > "$$file" && rm -f "$$shipped" || exit 2; \
	if [ -n "$$saved" ]; then printf '$(call ll,reset)\n' "$$saved" "$$file" "$$saved" "$$file"; fi; \
	done

endif
