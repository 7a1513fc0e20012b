# RUN: KILN VERILATOR PYTHON
# FIXTURES_REQUIRED: runtime_resdw_dir
# kiln bench's fpga-sim target on a copy of the resdw folder (its Verilator
# build reused): 3 frames back to back in the simulator, every output byte
# checked; the row's latency is the simulation's measured latency_ms, its
# frames/s the simulation's fps (result.json of the same run), every
# percentile the same (the hardware is deterministic); int8 beside it.
cp -r $WORK/resdw/a $TMP/b
$KILN bench $MODELS/resdw.onnx --compare int8,fpga-sim --compiled $TMP/b --iters 3 \
    --report $TMP/rep > $TMP/table
cat $TMP/table
$PYTHON - $TMP/rep.json $TMP/b/sim/result.json <<'PY'
import json, sys
rep = {r["target"]: r for r in json.load(open(sys.argv[1]))["results"]}
sim = json.load(open(sys.argv[2]))
f = rep["fpga-sim"]
assert sim["bit_exact"] and sim["frames"] == 3, sim
assert abs(f["mean_ms"] - sim["latency_ms"]) <= 1e-9 * sim["latency_ms"], (f, sim["latency_ms"])
assert abs(f["throughput_fps"] - sim["fps"]) <= 1e-9 * sim["fps"], (f, sim["fps"])
for k in ("p50_ms", "p90_ms", "p95_ms", "p99_ms", "min_ms", "max_ms"):
    assert f[k] == f["mean_ms"], k
assert f["std_ms"] == 0
assert "int8" in rep and rep["int8"]["mean_ms"] > 0
print("fpga-sim: %.4f ms, %.0f frames/s, as measured" % (f["mean_ms"], f["throughput_fps"]))
PY
