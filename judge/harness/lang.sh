#!/bin/sh
# lang.sh - the language of the labs' messages, `en` or `es`, on stdout:
# the one place where the locale is read. LAB_LANG decides when it is set
# (es: Spanish; anything else: English); else a Spanish locale (LC_ALL,
# then LC_MESSAGES, then LANG: the first one set decides); else English.
# make (labs/labs.mk) and the self-tests' run-subject.sh ask it, and give
# the judges, the checkers and build-driver.sh the answer as LAB_LANG,
# which is all they read (with --lang=en|es on a judge's command line).
if [ -n "${LAB_LANG:-}" ]; then
  [ "$LAB_LANG" = es ] && echo es || echo en
  exit 0
fi
for v in "${LC_ALL:-}" "${LC_MESSAGES:-}" "${LANG:-}"; do
  [ -n "$v" ] || continue
  case "$v" in es*) echo es ;; *) echo en ;; esac
  exit 0
done
echo en
