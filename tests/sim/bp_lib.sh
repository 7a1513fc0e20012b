# Shared steps of the sim cases *_bp.sh (sourced; $KILN, $PYTHON, $TMP, $HERE
# set by tests/run_case.sh).
#
# bp_check DIR: the compiled folder DIR simulated over 2 frames with
# --backpressure 70 (seed 1) and 20 (seed 7, reusing the first run's
# Verilator build): both bit-exact, the back-pressure line in the output,
# result.json marked, the cycle check not applicable; at 20% the latency at
# least 1.5 times the plan's (with the shared engine beside the dataflow the
# whole run of the frames: its steady-state latency shares the stalls).  Output of the runs in $TMP/out70, $TMP/out20.
bp_check() {
    # every gate sits in an `ifdef KILN_SIM_BP with the plain wiring under `else
    local gates
    gates=$(grep -c '^    kiln_bp_gate #($' $1/rtl/kiln_top.v)
    test "$gates" -gt 0
    test "$(grep -c '^`else$' $1/rtl/kiln_top.v)" = "$gates"
    $KILN simulate $1 --frames 2 --backpressure 70 > $TMP/out70 2> $TMP/err70
    grep -q 'building the Verilator model' $TMP/err70
    grep -q 'every output byte matches the int8 interpreter' $TMP/out70
    grep -q '^back-pressure: .* allowed in 70% of cycles at random (seed 1); cycles against the plan: not applicable' $TMP/out70
    $KILN simulate $1 --frames 2 --backpressure 20 --bp-seed 7 > $TMP/out20 2> $TMP/err20
    grep -q 'reusing the Verilator build' $TMP/err20
    grep -q 'every output byte matches the int8 interpreter' $TMP/out20
    grep -q '(seed 7)' $TMP/out20
    $PYTHON $HERE/check_cycles.py $1/sim/result.json 0.02 | grep -q 'not applicable'
    $PYTHON - $1/sim/result.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["backpressure"] == 20 and r["backpressure_seed"] == 7 and r["bit_exact"], r
print("--backpressure 20: latency %d cycles, plan %d" % (r["latency_cycles"], r["predicted_latency_cycles"]))
if "beside" in r:  # the engine beside the dataflow: the frames' whole run
    b = r["beside"]
    assert b["total_cycles"] > 1.5 * b["predicted_total_cycles"], b
else:
    assert r["latency_cycles"] > 1.5 * r["predicted_latency_cycles"], r
PY
}
