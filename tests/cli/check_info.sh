#!/usr/bin/env bash
# RUN: check_info.sh KILN MODEL MACS PARAMS TOL
# kiln info --json must report MACS multiply-accumulates and PARAMS
# parameters, each within relative tolerance TOL.
set -euo pipefail
kiln=$1 model=$2 macs=$3 params=$4 tol=$5
"$kiln" info "$model"
"$kiln" info "$model" --json | node -e '
let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
  const j = JSON.parse(s), [macs, params, tol] = process.argv.slice(1).map(Number);
  const bad = [["macs", j.macs, macs], ["params", j.params, params]]
    .filter(([, got, want]) => Math.abs(got - want) > tol * want);
  bad.forEach(([k, got, want]) => console.log(`${k}: ${got}, expected ${want} within ${tol}`));
  process.exit(bad.length ? 1 : 0);
});' "$macs" "$params" "$tol"
