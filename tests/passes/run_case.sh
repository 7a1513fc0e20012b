#!/usr/bin/env bash
# RUN: run_case.sh KILN SEMANTICS_TEST CASE.gir
# CASE.gir's first line is its command: "# RUN: kiln opt ARGS"; the case file
# is appended to ARGS.  CASE.expect beside it holds the expected standard
# output, or for *_bad cases the exact one-line diagnostic (exit status 2).
# Passing cases are also run through semantics_test with the same --passes
# list: interpreter before == after on random inputs.
set -u
kiln=$1 sem=$2 case=$3
# Run beside the case so diagnostics name it as the .expect does.
cd "$(dirname "$case")" || exit 1
case=$(basename "$case")
expect=${case%.gir}.expect
first=$(head -n 1 "$case")
case $first in
  "# RUN: kiln opt "*) args=${first#"# RUN: kiln opt "} ;;
  *) echo "$case: first line must be '# RUN: kiln opt ARGS'"; exit 1 ;;
esac
# shellcheck disable=SC2086
out=$("$kiln" opt $args "$case" 2>/tmp/run_case.$$.err)
rc=$?
err=$(cat /tmp/run_case.$$.err)
rm -f /tmp/run_case.$$.err
if [[ $case == *_bad.gir ]]; then
  want=$(cat "$expect")
  if [ "$rc" != 2 ] || [ "$err" != "$want" ]; then
    printf 'exit status %s (expected 2)\nstderr:   %s\nexpected: %s\n' "$rc" "$err" "$want"
    exit 1
  fi
  echo "ok: status 2, '$err'"
  exit 0
fi
if [ "$rc" != 0 ]; then
  printf 'exit status %s\n%s\n' "$rc" "$err"
  exit 1
fi
if ! diff -u "$expect" <(printf '%s\n' "$out"); then
  echo "$case: output differs from $expect"
  exit 1
fi
passes=$(printf '%s\n' "$args" | sed -n 's/.*--passes=\([^ ]*\).*/\1/p')
[ -n "$passes" ] || passes=O1
"$sem" "$case" --pipelines "$passes"
