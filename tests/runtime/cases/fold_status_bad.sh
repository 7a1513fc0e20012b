# RUN: KILN PYTHON
# krt_run_frames (krt_run --in-flight) on a folded plan against a fake
# server that answers every request of the socket protocol but reads back
# registers no kiln_regfile gives: what a register reads back is outside
# input, each bad value one KRT_ line naming it, exit 1.  The plan has 3
# dataflow segments, each on its own run unit, and the engine's parts on
# unit 3 (tsconv.unit): kiln_regfile's STATUS has bits 0-7.  STATUS all
# ones, or unit 0's done with bit 8 (bits beyond 0-7); STATUS 0 after a
# start, or only unit 0's done at unit 3's start (the unit did not start;
# the call waits for unit 0's run before it returns); unit 0 busy and idle
# unit 3's done after a done (no done of a running unit); ERROR bit 31 (a
# SEGMENT the design does not have); a wait that times out (naming the
# frame and segment each unit runs); an ERROR at unit 0's done while unit 3
# still runs (the call waits for unit 3's done and says so); and a fake
# register file of 4 units that behaves, the 3 frames ending.  No Verilator
# build: yolov3-tiny-small folded for Ultra96-V2 as
# tests/sim/cases/yolov3_tiny_small_fold.sh, only its regmap.json and
# weights.bin read.
. $HERE/lib.sh
krt_build $TMP/krt_run
$KILN quantize $MODELS/yolov3-tiny-small.onnx --calib-random 2 -o $TMP/q.gir > /dev/null
$KILN compile $TMP/q.gir --board ultra96v2 --pp-max 1 --fold conv10,conv12,conv13,conv14,conv15,conv18 \
    -o $TMP/a > /dev/null 2>&1
head -c 16384 /dev/zero > $TMP/in0.bin
cat > $TMP/fake.py <<'PY'
import json, os, socket, sys, time
mode, path, regmap = sys.argv[1:4]
slow = mode == "units"  # its first wait: a model slower than the client's 1000 cycles a ms
h = int(json.load(open(regmap))["plan_hash"], 16)
regs = {0x10: h & 0xffffffff, 0x14: h >> 32, 0x04: {"junk": 0xffffffff, "bit8": 0x102,
        "never": 0, "unit3": 2, "busy": 0x81, "bit31": 2, "timeout": 1, "drain": 2,
        "units": 0, "back": 2}[mode], 0x08: 0x80000000 if mode == "bit31" else 0}
# mode units: a kiln_regfile of 4 units; unit u's CYCLES reads 100 + u
regs.update({0x0C: 100, 0x20: 101, 0x24: 102, 0x28: 103})
busy = [0] * 8
log = open(path + ".log", "w")
s = socket.socket(socket.AF_UNIX)
s.bind(path + ".tmp")
os.rename(path + ".tmp", path)
s.listen(1)
c, _ = s.accept()
f = c.makefile("rwb")
for line in f:
    w = line.split()
    log.write(line.decode())
    log.flush()
    if w[0] == b"wr" and mode == "drain" and int(w[1], 0) == 0 and int(w[2], 0) & 0x10:
        # unit 3 (CTRL bit4) started: it stays busy, and the next done of unit 0
        # reports an error
        regs[0x04], regs[0x08] = 0x42, 0x2
    if w[0] == b"wr" and mode == "units" and int(w[1], 0) == 0:
        for u in range(8):
            if int(w[2], 0) & (1 << (u + 1) if u else 1):
                busy[u], regs[0x04] = 1, regs[0x04] & ~(3 << 2 * u) | 1 << 2 * u
    if w[0] == b"wait" and mode == "units":  # the first running unit of the mask ends
        u = min(u for u in range(8) if busy[u] and int(w[2], 0) >> 2 * u + 1 & 1)
        busy[u], regs[0x04] = 0, regs[0x04] & ~(3 << 2 * u) | 2 << 2 * u
    if w[0] == b"rd":
        f.write(b"ok %d\n" % regs.get(int(w[1], 0), 0))
    elif w[0] == b"put":
        f.read(int(w[2], 0))
        f.write(b"ok\n")
    elif w[0] == b"get":
        f.write(b"ok %d\n" % int(w[2], 0) + bytes(int(w[2], 0)))
    elif w[0] == b"wait":
        for k in range(4 if slow else 0):  # busy lines, 1.6 s in all
            time.sleep(0.4)
            f.write(b"busy %d\n" % (1000 * k))
            f.flush()
        slow = False
        if mode == "back":
            f.write(b"busy 40\nbusy 30\n")
        f.write(b"timeout %s\n" % w[1] if mode == "timeout" else b"ok 10 status\n")
    elif w[0] == b"run":
        f.write(b"ok 100\n")
    else:
        f.write(b"ok\n")
    f.flush()
PY
serve() {
    rm -f $TMP/f.sock
    $PYTHON $TMP/fake.py $1 $TMP/f.sock $TMP/a/rtl/regmap.json &
    n=0
    while [ ! -S $TMP/f.sock ]; do sleep 0.1; n=$((n + 1)); [ $n -lt 100 ]; done
}
run_bad() {
    serve $1
    if $TMP/krt_run sim:$TMP/f.sock $TMP/a -i $TMP/in0.bin --frames 3 --in-flight --timeout 5 \
        2> $TMP/err; then exit 1; fi
    wait
    cat $TMP/err
    test "$(cat $TMP/err)" = "krt_run: $2"
}
test "$(grep -o '"unit": [0-9]*' $TMP/a/rtl/regmap.json)" = '"unit": 3'
run_bad junk "STATUS 0xffffffff after a done: bits beyond kiln_regfile's 0-7 (not this accelerator's register file?)"
run_bad bit8 "STATUS 0x00000102 after a done: bits beyond kiln_regfile's 0-7 (not this accelerator's register file?)"
run_bad never "frame 0, segment 0: unit 0 did not start (STATUS 0x0)"
# unit 3 never shows busy or done: the call waits for unit 0's run of frame 1
run_bad unit3 "frame 0, segment 3: unit 3 did not start (STATUS 0x2: an accelerator without kiln_regfile's unit 3?); unit 0's run of frame 1, segment 0 ended"
run_bad busy "STATUS 0x00000081 after a done: no done of a running unit (mask 0x2)"
run_bad bit31 "frame 0, segment 0: ERROR register 0x80000000 (bit 31: a SEGMENT the design does not have)"
run_bad back "sim:$TMP/f.sock: busy line 'busy 30' outside the wait of 5000 cycles (last 40)"
run_bad timeout "no done within 5 ms (unit 0: frame 0, segment 0; STATUS 0x1, ERROR 0x0)"
# unit 0's run fails while unit 3's still runs: krt_run_frames waits for
# unit 3's done (IER and the wait on its bit alone) before it returns
run_bad drain "frame 1, segment 0: ERROR register 0x00000002 (an AXI error response on w0); unit 3's run of frame 0, segment 3 ended"
tail -3 $TMP/f.sock.log | tee /dev/stderr | head -2 | tr '\n' '|' | grep -x 'wr 0x1c 0x8|wait 5000 0x80|'
# a register file that behaves, its first wait answered after 1.6 s of
# busy lines (the client's deadline without them: 1.005 s): the 3 frames run, each dataflow segment on
# its unit (CTRL bit0, bit2, bit3 with load at its first run), the engine's
# parts on unit 3 (bit4), IER the running units, the last run's (frame 2,
# segment 2, unit 2's) CYCLES at 0x24
serve units
$TMP/krt_run sim:$TMP/f.sock $TMP/a -i $TMP/in0.bin --frames 3 --in-flight --timeout 5 > $TMP/out
wait
grep -x "krt_run: 3 frames, 102 cycles the last, done seen by STATUS" $TMP/out
test "$(grep '^wr 0x0 ' $TMP/f.sock.log | sort -u | tr '\n' '|')" = \
    "wr 0x0 0x1|wr 0x0 0x10|wr 0x0 0x3|wr 0x0 0x4|wr 0x0 0x6|wr 0x0 0x8|wr 0x0 0xa|"
grep -qx 'wr 0x1c 0x9' $TMP/f.sock.log
