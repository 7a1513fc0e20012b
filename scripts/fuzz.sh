#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for
# SECONDS (default 60), seeded with the test models.  Fails on any crash,
# leak or sanitizer report.  Usage: scripts/fuzz.sh [SECONDS] [BUILD_DIR]
# The mutation seed is KILN_FUZZ_SEED (default 1), so a run on a fresh build
# explores the same inputs again; KILN_FUZZ_SEED=0 lets libFuzzer pick one.
set -euo pipefail
secs=${1:-60}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$top/build-fuzz}
deps=${KILN_DEPS:-/opt/kiln-deps}
CC=clang CXX=clang++ cmake -S "$top" -B "$build" -DKILN_FUZZ=ON -DKILN_WERROR=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 --target fuzzers models kiln >/dev/null
# a UBSan report ends the run like an ASan one (the default only prints it)
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1

rseed=${KILN_FUZZ_SEED:-1}
seeds=$build/fuzz-seeds
rm -rf "$seeds"
mkdir -p "$seeds"/{onnx,npy,cfg,text,board,plan,regmap,image,tosa,records}
td=/usr/share/libonnx-testdata/data/node
for t in test_conv_with_strides_padding test_maxpool_2d_pads test_resize_upsample_scales_nearest \
         test_split_variable_parts_1d test_slice test_gemm_default_no_bias test_pad_constant \
         test_batchnorm_example test_concat_2d_axis_0 test_reshape_negative_dim; do
  [ -f "$td/$t/model.onnx" ] && cp "$td/$t/model.onnx" "$seeds/onnx/$t.onnx"
  for p in "$td/$t"/test_data_set_0/*.pb; do [ -f "$p" ] && cp "$p" "$seeds/npy/$t.$(basename "$p")"; done
done
[ -f "$build/models/yolov3-tiny-small.onnx" ] && cp "$build/models/yolov3-tiny-small.onnx" "$seeds/onnx/"
/usr/bin/python3 - "$seeds/npy" <<'PY'
import sys, numpy as np
d = sys.argv[1]
np.save(d + "/f32.npy", np.arange(24, dtype=np.float32).reshape(2, 3, 4))
np.save(d + "/i8.npy", np.arange(-8, 8, dtype=np.int8))
np.save(d + "/i64.npy", np.array([[1, -1]], dtype=np.int64))
PY
cp "$deps"/darknet/usr/share/darknet/cfg/*.cfg "$seeds/cfg/" 2>/dev/null || true
cp "$top"/tests/text/cases/*.gir "$seeds/text/" 2>/dev/null || true
cp "$top"/tests/tosa/*.mlir "$seeds/tosa/" 2>/dev/null || true
# images: 3 bytes of options and sizes, then the file (fuzz_image.c); a
# small PNG written here and Darknet's smallest photo
/usr/bin/python3 - "$seeds/image" "$deps/darknet/usr/share/darknet/data/eagle.jpg" <<'PY'
import os, struct, sys, zlib
d, jpg = sys.argv[1], sys.argv[2]
def chunk(t, b):
    return struct.pack(">I", len(b)) + t + b + struct.pack(">I", zlib.crc32(t + b) & 0xffffffff)
raw = b"".join(b"\0" + bytes((x * 16 + y * 3 + c) & 255 for x in range(8) for c in range(3))
               for y in range(6))
png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 8, 6, 8, 2, 0, 0, 0)) +
       chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
open(os.path.join(d, "rgb8x6.png"), "wb").write(b"\x01\x10\x20" + png)
if os.path.exists(jpg):
    open(os.path.join(d, "eagle.jpg"), "wb").write(b"\x00\x20\x20" + open(jpg, "rb").read())
PY
cp "$top"/boards/zynq-ultrascale/*.xml "$top"/tests/boards/*.xml "$seeds/board/"
# plans of the model fuzz_plan replays on: its own search, pinned and narrow
# ones; their register maps seed fuzz_regmap
n=0
for opt in "" "--pp-max 1" "--pin conv2=2x4x1"; do
  # shellcheck disable=SC2086
  "$build/tools/kiln/kiln" compile "$build/models/cpumid.onnx" --board zcu104 $opt \
    -o "$build/fuzz-plan" >/dev/null
  cp "$build/fuzz-plan/plan.json" "$seeds/plan/plan$n.json"
  cp "$build/fuzz-plan/rtl/regmap.json" "$seeds/regmap/regmap$n.json"
  rm -rf "$build/fuzz-plan"
  n=$((n + 1))
done

# tuning records: a short search on one workload, and a failed record
"$build/tools/kiln/kiln" tune "$build/models/cpumid.onnx" --workloads 5 --trials 3 --repeat 1 \
  --records "$seeds/records/tune.jsonl" -q >/dev/null
sed '1s/"ok":true.*/"ok":false,"error":"crashed: signal 11"}/' "$seeds/records/tune.jsonl" \
  > "$seeds/records/failed.jsonl"

# two targets at a time (the machine's two cores), each its own summary
# file, printed in order once all have ended
fuzz_one() {
  local f=$1 bin=$build/tests/fuzz_$1 corpus=$build/fuzz-corpus/$1 log=$build/fuzz_$1.log runs
  local res=$build/fuzz_$1.result
  if [ ! -x "$bin" ]; then
    echo "fuzz: no fuzz_$f target" > "$res"
    return 1
  fi
  mkdir -p "$corpus"
  rm -f "$build/fuzz_$f-"*
  if "$bin" -max_total_time="$secs" -timeout=20 -rss_limit_mb=4096 -malloc_limit_mb=4096 \
       -print_final_stats=1 -seed="$rseed" -artifact_prefix="$build/fuzz_$f-" "$corpus" "$seeds/$f" >"$log" 2>&1; then
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz_$f: ${runs:-?} executions in ${secs} s (seed $rseed), no findings" > "$res"
  else
    { echo "fuzz_$f: FAILED with seed $rseed (see $log; the input is $build/fuzz_$f-*)"; grep -E 'ERROR|SUMMARY|runtime error' "$log" | head -5
      # the input itself, so a finding on a machine that is gone can be replayed
      for a in "$build/fuzz_$f-"*; do
        [ -f "$a" ] && [ "$(stat -c %s "$a")" -le 65536 ] && { echo "$(basename "$a") as base64:"; base64 -w 100 "$a"; }
      done; } > "$res"
    return 1
  fi
}

targets="onnx npy cfg text board plan regmap image tosa records"
status=0
for f in $targets; do
  rm -f "$build/fuzz_$f.result"
  fuzz_one "$f" &
  while [ "$(jobs -rp | wc -l)" -ge 2 ]; do
    wait -n || true
  done
done
wait || true
for f in $targets; do
  if [ -f "$build/fuzz_$f.result" ]; then
    cat "$build/fuzz_$f.result"
    grep -q "no findings" "$build/fuzz_$f.result" || status=1
  else
    echo "fuzz_$f: no result"
    status=1
  fi
done
exit $status
