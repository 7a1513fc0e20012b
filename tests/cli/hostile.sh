#!/usr/bin/env bash
# RUN: hostile.sh KILN MODEL.onnx INPUT.npy WORKDIR
# Truncated, corrupted and hostile model, cfg and tensor files given to the
# kiln command: each gets exit status 2 and exactly one line naming the file
# and the place.  (The readers' own tests sweep many more cases; this checks
# the command end to end.)
set -u
kiln=$1 model=$2 input=$3 work=$4
mkdir -p "$work"
fails=0
expect() { # expect LINE -- CMD...
  local want=$1; shift 2
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  if [ $rc != 2 ] || [ "$err" != "$want" ]; then
    printf 'FAIL: %s\n  status %s, stderr: %s\n  expected status 2: %s\n' "$*" "$rc" "$err" "$want"
    fails=$((fails + 1))
  else
    echo "ok: $err"
  fi
}
head -c 1000 "$model" > "$work/trunc.onnx"
expect "kiln: $work/trunc.onnx: not a valid ONNX model (protobuf decode failed)" -- "$kiln" info "$work/trunc.onnx"
head -c 100 "$input" > "$work/trunc.npy"
expect "kiln: $work/trunc.npy: byte 8: header length 118 runs past the end of the file (100 bytes)" -- "$kiln" run "$model" -i "$work/trunc.npy"
printf '[net]\nwidth=416\nheight=416\nchannels=3\n[convolutional]\nfilters=-3\nsize=3\n' > "$work/neg.cfg"
expect "kiln: $work/neg.cfg:6: [convolutional] filters=-3 out of range [1, 1048576]" -- "$kiln" info "$work/neg.cfg"
printf '[net]\nwidth=8\nheight=8\nchannels=3\n[route]\nlayers=-4\n' > "$work/route.cfg"
expect "kiln: $work/route.cfg:6: [route] layer index -4 out of range" -- "$kiln" info "$work/route.cfg"
printf 'graph "g" opset 13\ninput %%x : f32[2]\n%%y = Relu(%%q) : f32[2]\noutput %%y\n' > "$work/undef.gir"
expect "kiln: $work/undef.gir:3: undefined value %q" -- "$kiln" info "$work/undef.gir"
expect "kiln: $work/missing.onnx: cannot open: No such file or directory" -- "$kiln" info "$work/missing.onnx"
echo "$fails failed"
[ $fails = 0 ]
