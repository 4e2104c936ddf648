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
# The report is in Spanish with LAB_LANG=es or a Spanish locale. The exit
# status says which step stopped, for the grader (which reads it, never the
# report): 0 built, 3 does not compile, 4 refused, 5 does not link, 2 a
# wrong call. Where the compiler's full output is goes to stderr: the
# grader's scratch folder is gone when a learner reads the report.
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

# the language: LAB_LANG, as make and the self-tests set it (lang.sh)
es=
[ "${LAB_LANG:-}" = es ] && es=1
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
      case "$err" in
        *"fatal error: "*": No such file or directory"*)
          echo
          say "    (A lab file's build sees only the C library's headers, the library's own headers (minimodel/.../*.h) and lab.h: not the library's .c files, the repository, or anyone else's files.)" \
              "    (La compilación de un fichero del laboratorio solo ve las cabeceras de la biblioteca de C, las de la propia biblioteca (minimodel/.../*.h) y lab.h: no los .c de la biblioteca, el repositorio ni los ficheros de nadie más.)" ;;
      esac
    else
      grep -v '^[[:space:]]*$' "$log" | tail -n 3 | cut -c1-200 | sed 's/^/    /'
      say "    (the compiler was stopped at its limits: 60 s of CPU, 4 GiB of memory or 32 MiB of output; an #include of a device or a macro that expands without end does this)" \
          "    (el compilador se detuvo en sus límites: 60 s de CPU, 4 GiB de memoria o 32 MiB de salida; un #include de un dispositivo o una macro que se expande sin fin lo provocan)"
    fi
    echo
    say "(The compiler's full output is in $log.)" \
        "(La salida completa del compilador está en $log.)" >&2
    rm -f "$out"
    exit 3
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

# c_library_names - "C NAME" for each name the C library and its
# mathematics define, "G NAME" for the compiler's helpers (libgcc); nothing
# if the compiler does not say where they are
c_library_names() {
  for f in libc.so.6 libm.so.6; do
    p=$("$1" -print-file-name=$f 2> /dev/null)
    [ -f "$p" ] && nm -D --defined-only "$p" 2> /dev/null | awk '{ print "C", $NF }'
  done
  p=$("$1" -print-libgcc-file-name 2> /dev/null)
  [ -f "$p" ] && nm -g --defined-only "$p" 2> /dev/null | awk 'NF == 3 { print "G", $3 }'
} 2> /dev/null
# vetted_uses - the names on stdin (what the object uses) that it may not,
# each as "NAME WHY": WHY is a category of allowed.txt (exit, process, ...),
# harness, framework, reserved (a name reserved to the implementation that
# allowed.txt does not allow), or unknown (in none of the libraries)
vetted_uses() {
  awk -v rules="$here/allowed.txt" -v lab="$object.allowed" -v libc="$object.libc" '
    function glob(p) { gsub(/[.+?^$()|{}\[\]]/, "\\\\&", p); gsub(/\*/, ".*", p); return "^" p "$" }
    function refused(n,   i) { for (i = 1; i <= nr; i++) if (n ~ rpat[i]) return rwhy[i]; return "" }
    function allowed(n,   i) { for (i = 1; i <= na; i++) if (n ~ apat[i]) return 1; return 0 }
    BEGIN {
      while ((getline line < rules) > 0) {
        sub(/#.*/, "", line)
        k = split(line, w, /[ \t]+/)
        j = w[1] == "" ? 2 : 1
        if (w[j] == "refuse") { why = w[j + 1]; sub(/:$/, "", why)
          for (i = j + 2; i <= k; i++) if (w[i] != "") { rpat[++nr] = glob(w[i]); rwhy[nr] = why } }
        else if (w[j] == "allow:") for (i = j + 1; i <= k; i++) if (w[i] != "") apat[++na] = glob(w[i])
      }
      while ((getline line < lab) > 0) ok[line] = 1
      while ((getline line < libc) > 0) { split(line, w, " "); sub(/@.*/, "", w[2])
        if (w[1] == "C") c[w[2]] = 1; else g[w[2]] = 1; have = 1 }
    }
    $1 in ok { next }
    { n = $1; why = refused(n) }
    why == "" && n ~ /^(ref_|__real_|__wrap_|lab_)/ { why = "harness" }
    why == "" && n ~ /^(criterion_|cr_)/ { why = "framework" }
    why == "" {
      base = n
      sub(/^__isoc(99|23)_/, "", base)
      if (base ~ /^__.+_chk$/) { sub(/^__/, "", base); sub(/_chk$/, "", base) }
      if (base ~ /^__.+_finite$/) { sub(/^__/, "", base); sub(/_finite$/, "", base) }
      why = refused(base)
      if (why == "" && n ~ /^_/ && !allowed(n) && !(n in g) && (base == n || base ~ /^_/))
        why = "reserved"
      if (why == "" && have && !(n in c) && !(n in g) && !(base in c) && !allowed(n))
        why = "unknown"
    }
    why != "" { print n, why }'
}
# what WHY - what a name refused as WHY does
what() {
  case "$1" in
    process) say "starts, waits for or changes a process" "crea, espera o cambia un proceso" ;;
    program) say "runs a program" "ejecuta un programa" ;;
    thread) say "starts, ends or waits for a thread" "crea, termina o espera un hilo" ;;
    signal) say "sends, handles or blocks signals" "envía, maneja o bloquea señales" ;;
  esac
}

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
    # what it uses: the library, LAB_TODO(), and the C library but what
    # allowed.txt refuses (vetted_uses: one "NAME WHY" line per refusal)
    {
      echo lab_todo
      nm -P -g --defined-only $lib | awk '$2 == "T" { print $1 }'
    } > "$object.allowed"
    c_library_names "$1" > "$object.libc"
    nm -P -u "$plain" | awk '{ print $1 }' | vetted_uses | while read -r name why; do
      at=$(line_of "$name")
      case "$why" in
        exit)
          no "$at" "$(say "uses $name: a library function returns a status (MM_EINVAL, ...) and never ends the program" \
                          "usa $name: una función de biblioteca devuelve un estado (MM_EINVAL, ...) y nunca termina el programa")" ;;
        process|program|thread|signal)
          no "$at" "$(say "uses $name: a lab function starts no process, program or thread, and handles no signal ($name $(what "$why"))" \
                          "usa $name: una función del laboratorio no crea procesos, programas ni hilos, ni maneja señales ($name $(what "$why"))")" ;;
        file)
          no "$at" "$(say "uses $name, which works on files, directories or descriptors: a lab function reads its arguments and writes its buffers, nothing else (printf, to see what your code does, is allowed)" \
                          "usa $name, que trabaja con ficheros, directorios o descriptores: una función del laboratorio lee sus argumentos y escribe sus búferes, nada más (printf, para ver qué hace tu código, sí se permite)")" ;;
        socket)
          no "$at" "$(say "uses $name, which talks to other processes or to the network: a lab function talks to no one" \
                          "usa $name, que se comunica con otros procesos o con la red: una función del laboratorio no se comunica con nadie")" ;;
        syscall)
          no "$at" "$(say "uses $name, which makes any system call by its number: a lab function makes none of its own" \
                          "usa $name, que hace cualquier llamada al sistema por su número: una función del laboratorio no hace ninguna propia")" ;;
        loading)
          no "$at" "$(say "uses $name, which loads code while the program runs: a lab function loads none" \
                          "usa $name, que carga código mientras corre el programa: una función del laboratorio no carga ninguno")" ;;
        environment)
          no "$at" "$(say "uses $name, which changes the program's environment: a lab function leaves it as it is" \
                          "usa $name, que cambia el entorno del programa: una función del laboratorio lo deja como está")" ;;
        memory-map)
          no "$at" "$(say "uses $name, which changes the program's memory map, whose pages are the harness's: allocate with malloc, calloc or realloc" \
                          "usa $name, que cambia el mapa de memoria del programa, cuyas páginas son del arnés: reserva con malloc, calloc o realloc")" ;;
        allocation)
          no "$at" "$(say "uses $name, which allocates memory the harness cannot follow (for leaks and double frees): allocate with malloc, calloc or realloc" \
                          "usa $name, que reserva memoria que el arnés no puede seguir (para pérdidas y liberaciones dobles): reserva con malloc, calloc o realloc")" ;;
        framework)
          no "$at" "$(say "uses $name, part of a test framework: the checks belong to the harness, not to your file" \
                          "usa $name, parte de un entorno de pruebas: las comprobaciones son del arnés, no de tu fichero")" ;;
        harness)
          no "$at" "$(say "uses $name, which belongs to the harness: write the function yourself" \
                          "usa $name, que es del arnés: escribe la función tú")" ;;
        reserved)
          no "$at" "$(say "uses $name, a name the C library keeps for its own inside: call a function by its ordinary name (judge/harness/allowed.txt)" \
                          "usa $name, un nombre que la biblioteca de C reserva para su interior: llama a una función por su nombre normal (judge/harness/allowed.txt)")" ;;
        *)
          no "$at" "$(say "uses $name, which a lab file may not call: it is neither the library's (mm_*), nor LAB_TODO(), nor a function of the C library or of its mathematics (judge/harness/allowed.txt)" \
                          "usa $name, que un fichero del laboratorio no puede llamar: no es de la biblioteca (mm_*), ni LAB_TODO(), ni una función de la biblioteca de C o de su matemática (judge/harness/allowed.txt)")" ;;
      esac
    done
    rm -f "$object.allowed" "$object.libc"
  )
  if [ -n "$out" ]; then
    say "Your file $source was not run: the harness refuses it." \
        "Tu fichero $source no se ejecutó: el arnés lo rechaza."
    echo
    printf '%s\n' "$out"
    rm -f "$plain" "$object"
    exit 4
  fi
fi

# ---- 3, 4. the sanitizer's object; the driver -------------------------------------------
if [ -n "$sanitize" ]; then
  # shellcheck disable=SC2086
  compile "$object" "$@" $sanitize
fi
# shellcheck disable=SC2086
if ! "$@" $sanitize -o "$driver" "$object" $with $lib \
     -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free,--wrap=reallocarray \
     -Wl,--wrap=aligned_alloc,--wrap=posix_memalign,--wrap=strdup,--wrap=strndup \
     -lseccomp -lm -lrt > "$log" 2>&1; then
  say "Your file $source compiles, but it does not link with the lab's driver:" \
      "Tu fichero $source compila, pero no enlaza con el programa del laboratorio:"
  grep -E 'undefined reference|multiple definition|error' "$log" | sed 's/^/    /' | head -n 5
  rm -f "$driver"
  exit 5
fi
cat "$log" >&2
