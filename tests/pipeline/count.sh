#!/usr/bin/env bash
# RUN: count.sh FILE PATTERN N: FILE has exactly N lines matching PATTERN
# (grep -E); prints what it found when not.
set -u
n=$(grep -cE "$2" "$1")
if [ "$n" != "$3" ]; then
  echo "count.sh: $1: '$2' on $n lines, expected $3" >&2
  exit 1
fi
