#!/usr/bin/env bash
# RUN: expect.sh STATUS EXPECTED_STDERR -- COMMAND...
# Runs COMMAND; passes when it exits with STATUS and its standard error is
# exactly EXPECTED_STDERR (one line; "" for none).  Used by the _bad tests.
set -u
want_rc=$1 want_err=$2
shift 2
[ "$1" = "--" ] && shift
err=$("$@" 2>&1 >/dev/null)
rc=$?
ok=1
if [ "$rc" != "$want_rc" ]; then echo "exit status $rc, expected $want_rc"; ok=0; fi
if [ "$err" != "$want_err" ]; then printf 'stderr:   %s\nexpected: %s\n' "$err" "$want_err"; ok=0; fi
[ $ok = 1 ] && echo "ok: status $rc, '$err'"
[ $ok = 1 ]
