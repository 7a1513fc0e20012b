#!/usr/bin/env bash
# RUN: roundtrip.sh KILN MODEL WORKDIR
# Text IR round trip: print -> parse -> print is byte-identical.
set -euo pipefail
kiln=$1 model=$2 work=$3
mkdir -p "$work"
base=$(basename "$model")
"$kiln" ir "$model" -o "$work/$base.1.gir"
"$kiln" ir "$work/$base.1.gir" -o "$work/$base.2.gir"
cmp "$work/$base.1.gir" "$work/$base.2.gir"
echo "round trip ok: $(wc -c < "$work/$base.1.gir") bytes"
