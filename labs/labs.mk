# labs/labs.mk - the learner's loop over every lab (included by the top Makefile):
#   make watch NN=01       check lab NN again each time its file is saved (Ctrl-C stops)
#   make progress          one table over every lab, and what to do next
#   make lab-reset NN=01   put the lab's file back as shipped, keeping yours aside
#   make lab-try NN=01     run the lab's scratch program, try.c, with your file
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

.PHONY: lab watch progress lab-reset lab-try

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
lab: ## [NN=00] check your work on one lab (NN = 00 to 04; CHECK=FUNCTION[/NAME] one function or check, FIRST=1, LAB_ARGS=--help; LAB_FORMAT=tap: as graded)
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
	mkdir -p $(dir $(learner_try)) && \
	$(CC) $(MM_CPPFLAGS) -Ilabs $(MM_CFLAGS) -Wno-unused-parameter -O0 -g -o $(learner_try) "$$try" \
	  $(call learner_file,$(NN)) $(LAB$(NN)_LIB) $(LDLIBS) && $(learner_try)

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
