#!/bin/sh
# build-driver.sh - the learner's file made into the driver, the process
# that runs the learner's code for the judge; or a plain message that says
# why not.
#
#   build-driver.sh --source FILE --object OBJ --driver OUT --functions "f g ..."
#                   --lib "LIBRARY OBJECTS" --with "DRIVER OBJECTS"
#                   [--sanitize "FLAGS"] [--unvetted] -- CC [CFLAGS...]
#
# 1. Compile FILE into OBJ with CC CFLAGS. If it does not compile, print
#    the first error with its file and line, and stop.
# 2. Vet the object (skipped with --unvetted, which only the self-test uses,
#    to show what the isolation does on its own). It must define each of
#    FUNCTIONS, as an ordinary function, and no other global symbol (helpers
#    are static); it may use only the library's functions (those the LIBRARY
#    OBJECTS define), lab_todo (LAB_TODO()) and the names of allowed.txt;
#    it may have no constructor or destructor, no IFUNC and no IRELATIVE
#    relocation (code that would run before main). Every refused symbol is
#    named, with its line.
# 3. With --sanitize, compile FILE again with FLAGS added (the vetted object
#    is a plain one, made quickly at -O0: a sanitizer adds constructors of
#    its own).
# 4. Link OUT from the object, the LIBRARY OBJECTS and the DRIVER OBJECTS,
#    with the learner's allocations wrapped (driver.c) and libseccomp.
# The report is in Spanish with LAB_LANG=es or a Spanish locale.
set -u
here=$(dirname "$0")
source= object= driver= functions= lib= with= sanitize= unvetted=
while [ $# -gt 0 ]; do
  case "$1" in
    --source) source=$2; shift 2 ;;
    --object) object=$2; shift 2 ;;
    --driver) driver=$2; shift 2 ;;
    --functions) functions=$2; shift 2 ;;
    --lib) lib=$2; shift 2 ;;
    --with) with=$2; shift 2 ;;
    --sanitize) sanitize=$2; shift 2 ;;
    --unvetted) unvetted=1; shift ;;
    --) shift; break ;;
    *) echo "build-driver.sh: unknown option $1" >&2; exit 2 ;;
  esac
done

es=
case "${LAB_LANG:-}" in
  es) es=1 ;;
  en) ;;
  *) for v in "${LC_ALL:-}" "${LC_MESSAGES:-}" "${LANG:-}"; do
       [ -n "$v" ] || continue
       case "$v" in es*) es=1 ;; esac
       break
     done ;;
esac
# say EN ES - print the message of the report's language
say() { if [ -n "$es" ]; then printf '%s\n' "$2"; else printf '%s\n' "$1"; fi; }

rm -f "$driver"
mkdir -p "$(dirname "$object")"
log=$object.log

# ---- 1. compile ------------------------------------------------------------------
# first_error LOG - the first error of a compiler's output, with its source lines
first_error() {
  awk '
    /: (fatal )?error: / && !found { found = 1; if (prev ~ /: In function/) print "    " prev; print "    " $0; next }
    found && /^ / { print "    " $0; next }
    found { exit }
    { prev = $0 }' "$1"
}
# The compiler runs within limits, so that a file cannot make it read a
# device (#include "/dev/zero") or expand macros without end: 60 s of CPU,
# 4 GiB of address space, 32 MiB (65536 blocks of 512 bytes) of output.
compile() {  # compile OUT EXTRA-FLAGS...
  out=$1; shift
  if ! ( ulimit -t 60; ulimit -v 4194304; ulimit -f 65536; exec "$@" -c "$source" -o "$out" ) \
       > "$log" 2>&1; then
    say "Your file $source does not compile. The first error:" \
        "Tu fichero $source no compila. El primer error:"
    echo
    err=$(first_error "$log")
    if [ -n "$err" ]; then
      printf '%s\n' "$err"
    else
      grep -v '^[[:space:]]*$' "$log" | tail -n 3 | cut -c1-200 | sed 's/^/    /'
      say "    (the compiler was stopped at its limits: 60 s of CPU, 4 GiB of memory or 32 MiB of output; an #include of a device or a macro that expands without end does this)" \
          "    (el compilador se detuvo en sus límites: 60 s de CPU, 4 GiB de memoria o 32 MiB de salida; un #include de un dispositivo o una macro que se expande sin fin lo provocan)"
    fi
    echo
    say "(The compiler's full output is in $log.)" \
        "(La salida completa del compilador está en $log.)"
    rm -f "$out"
    exit 1
  fi
  cat "$log" >&2                         # warnings, as the compiler gave them
}
if [ -n "$sanitize" ]; then
  plain=$object.vet.o
  compile "$plain" "$@" -O0               # quick: only its symbols matter
else
  plain=$object
  compile "$plain" "$@"
fi

# ---- 2. vet --------------------------------------------------------------------------
# line_of SYMBOL - "file:line: " where the object first refers to SYMBOL
line_of() {
  readelf -rW "$plain" 2>/dev/null | awk -v s="$1" '
    /^Relocation section / { sec = $3; gsub(/\047/, "", sec); sub(/^\.rela/, "", sec); next }
    $5 == s && sec ~ /^\.text/ { print sec, $1; exit }' | {
    read -r sec off || exit 0
    addr2line -e "$plain" -j "$sec" "0x$off" 2>/dev/null | sed "s|^$PWD/||; s|\$|: |" | grep -v '^??'
  }
}
# def_line SYMBOL - "file:line: " where the object defines SYMBOL
def_line() {
  nm -l -g --defined-only "$plain" 2>/dev/null | awk -v s="$1" '$3 == s { print $4; exit }' |
    sed "s|^$PWD/||; s|\$|: |"
}
# no WHERE TEXT - one refusal: WHERE is "file:line: ", or empty for the file
no() { printf '  %s%s\n' "${1:-$source: }" "$2"; }

if [ -z "$unvetted" ]; then
  out=$(
    # code that would run by itself, before or after the checks
    objdump -h "$plain" | awk '$1 ~ /^[0-9]+$/ { print $2 }' | while read -r sec; do
      case "$sec" in
        .init_array*|.fini_array*|.preinit_array*|.ctors*|.dtors*|.init|.fini)
          no "" "$(say "has a constructor or destructor (section $sec): code that runs by itself before or after the checks is not allowed in a lab file" \
                       "tiene un constructor o destructor (sección $sec): en un fichero del laboratorio no se permite código que corra solo antes o después de las comprobaciones")" ;;
      esac
    done
    # code the dynamic linker would run before main: an IFUNC's resolver
    nm -P "$plain" | awk '$2 == "i" { print $1 }' | while read -r name; do
      no "$(def_line "$name")" "$(say "defines $name as an IFUNC (__attribute__((ifunc))): its resolver would run by itself before main, outside the checks; not allowed in a lab file" \
                                      "define $name como IFUNC (__attribute__((ifunc))): su resolvedor correría solo antes de main, fuera de las comprobaciones; no se permite en un fichero del laboratorio")"
    done
    if readelf -rW "$plain" 2>/dev/null | grep -q 'IRELATIV'; then
      no "" "$(say "has an IRELATIVE relocation: code that the dynamic linker would run before main is not allowed in a lab file" \
                   "tiene una reubicación IRELATIVE: en un fichero del laboratorio no se permite código que el enlazador dinámico ejecutaría antes de main")"
    fi
    # what it defines: the lab's functions, as ordinary functions, and nothing else
    defined=$(nm -P -g --defined-only "$plain" | awk '{ print $1, $2 }')
    for f in $functions; do
      type=$(printf '%s\n' "$defined" | awk -v f="$f" '$1 == f { print $2 }')
      case "$type" in
        T) ;;
        "") no "" "$(say "does not define $f: keep every function of the skeleton (one you have not started keeps its LAB_TODO();)" \
                         "no define $f: conserva todas las funciones del esqueleto (una que no has empezado conserva su LAB_TODO();)")" ;;
        *) no "$(def_line "$f")" "$(say "$f must be an ordinary function, as in the skeleton (nm type $type)" \
                                        "$f debe ser una función normal, como en el esqueleto (tipo nm $type)")" ;;
      esac
    done
    printf '%s\n' "$defined" | while read -r name type; do
      [ -n "$name" ] || continue
      case " $functions " in *" $name "*) continue ;; esac
      case "$name" in
        mm_*) no "$(def_line "$name")" "$(say "defines $name, which is the library's: you may call it, not replace it" \
                                               "define $name, que es de la biblioteca: puedes llamarla, no reemplazarla")" ;;
        *) no "$(def_line "$name")" "$(say "defines $name, which is not one of the lab's functions ($functions): a helper of yours must be static (static ... $name(...))" \
                                           "define $name, que no es una de las funciones del laboratorio ($functions): una función auxiliar tuya debe ser static (static ... $name(...))")" ;;
      esac
    done
    # what it uses: the library, LAB_TODO() and allowed.txt
    {
      echo lab_todo
      nm -P -g --defined-only $lib | awk '$2 == "T" { print $1 }'
      sed 's/#.*//' "$here/allowed.txt" | tr -s ' \t' '\n\n'
    } > "$object.allowed"
    nm -P -u "$plain" | awk 'NR == FNR { ok[$1] = 1; next } !($1 in ok) { print $1 }' \
      "$object.allowed" - | while read -r name; do
      at=$(line_of "$name")
      case "$name" in
        exit|_exit|_Exit|quick_exit|atexit|at_quick_exit|on_exit|__real_*exit|__cxa_atexit)
          no "$at" "$(say "uses $name: a library function returns a status (MM_EINVAL, ...) and never ends the program" \
                          "usa $name: una función de biblioteca devuelve un estado (MM_EINVAL, ...) y nunca termina el programa")" ;;
        fork|vfork|clone|system|popen|exec*|posix_spawn*|pthread_*|signal|sigaction|raise|kill|alarm|setitimer|timer_*|sigprocmask|syscall)
          no "$at" "$(say "uses $name: a lab function starts no process, program or thread, and handles no signal" \
                          "usa $name: una función del laboratorio no crea procesos, programas ni hilos, ni maneja señales")" ;;
        criterion_*|cr_*)
          no "$at" "$(say "uses $name, part of a test framework: the checks belong to the harness, not to your file" \
                          "usa $name, parte de un entorno de pruebas: las comprobaciones son del arnés, no de tu fichero")" ;;
        ref_*|__real_*|__wrap_*|lab_*)
          no "$at" "$(say "uses $name, which belongs to the harness: write the function yourself" \
                          "usa $name, que es del arnés: escribe la función tú")" ;;
        *)
          no "$at" "$(say "uses $name, which a lab file may not call: it may call the library's mm_* functions, LAB_TODO() and common C functions (memcpy, memset, malloc, calloc, realloc, free, printf, sqrt, exp, ...: labs/harness/allowed.txt)" \
                          "usa $name, que un fichero del laboratorio no puede llamar: puede llamar a las funciones mm_* de la biblioteca, LAB_TODO() y funciones comunes de C (memcpy, memset, malloc, calloc, realloc, free, printf, sqrt, exp, ...: labs/harness/allowed.txt)")" ;;
      esac
    done
    rm -f "$object.allowed"
  )
  if [ -n "$out" ]; then
    say "Your file $source was not run: the harness refuses it." \
        "Tu fichero $source no se ejecutó: el arnés lo rechaza."
    echo
    printf '%s\n' "$out"
    rm -f "$plain" "$object"
    exit 1
  fi
fi

# ---- 3, 4. the sanitizer's object; the driver -------------------------------------------
if [ -n "$sanitize" ]; then
  # shellcheck disable=SC2086
  compile "$object" "$@" $sanitize
fi
# shellcheck disable=SC2086
if ! "$@" $sanitize -o "$driver" "$object" $with $lib \
     -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free -lseccomp -lm > "$log" 2>&1; then
  say "Your file $source compiles, but it does not link with the lab's driver:" \
      "Tu fichero $source compila, pero no enlaza con el programa del laboratorio:"
  grep -E 'undefined reference|multiple definition|error' "$log" | sed 's/^/    /' | head -n 5
  rm -f "$driver"
  exit 1
fi
cat "$log" >&2
