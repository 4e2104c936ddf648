#!/bin/sh
# setup.sh - Gradescope's autograder setup (run once, as root, when the image is
# built): the toolchain from Debian, then the library, the judges and Lab 00's
# checker, so that grading a submission builds only the learner's files; the
# workbook is in /autograder/source (the autograder zip: make gradescope-autograder).
set -eu
cd /autograder/source
apt-get update -q
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  make gcc libc6-dev binutils noweb libseccomp-dev python3 python3-numpy util-linux git bubblewrap
make -s grade-config GRADE_OUT=/autograder/source/build/grade
# what the learners' users read (the headers, the judges, the drivers' objects)
chmod -R go+rX /autograder/source
