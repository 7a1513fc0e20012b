#!/usr/bin/env bash
# RUN: calib_dir.sh DIR [FILE...] -- COMMAND...
# Makes DIR afresh holding copies of FILEs (a calibration folder for a
# test), then runs COMMAND (usually expect.sh with the diagnostic).
set -u
dir=$1
shift
rm -rf "$dir"
mkdir -p "$dir"
while [ "$1" != "--" ]; do
  cp "$1" "$dir/"
  shift
done
shift
exec "$@"
