#!/usr/bin/env bash
# RUN: run.sh KILN CHECK TMP STEP...: shell steps of the plan tests (plan.cmake).
set -eu
KILN=$1 CHECK=$2 TMP=$3
shift 3
rm -rf "$TMP" && mkdir -p "$TMP"
for step in "$@"; do eval "$step"; done
