#!/usr/bin/env bash
# RUN: run.sh KILN VERILATOR TMP STEP...: shell steps of the RTL generation
# tests (pipeline.cmake); each step is evaluated with $KILN, $VERILATOR, $TMP set.
set -eu
KILN=$1 VERILATOR=$2 TMP=$3
shift 3
rm -rf "$TMP" && mkdir -p "$TMP"
for step in "$@"; do eval "$step"; done
