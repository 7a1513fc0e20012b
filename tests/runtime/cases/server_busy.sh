# RUN: KILN VERILATOR PYTHON
# FIXTURES_REQUIRED: runtime_resdw_dir
# A wait that runs long: the server sends `busy CYCLES` each second of the
# wall, cycles rising and within the wait's cap, so that a client awaits
# the answer at the model's pace (docs/runtime.md).  Nothing is started,
# so no done comes; the client leaves after its third busy line, and the
# server, its next busy line unsent, takes the next client, which quits it.
. $HERE/lib.sh
A=$WORK/resdw/a
serve $A $TMP/s.sock
cat > $TMP/client.py <<'PY'
import socket, sys, time
path = sys.argv[1]
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(path)
f = s.makefile("rwb")
cap = 1 << 40
f.write(b"wait %d 0x2\n" % cap)
f.flush()
t0, last = time.monotonic(), -1
for k in range(3):
    w = f.readline().split()
    assert w[0] == b"busy" and len(w) == 2, w
    c = int(w[1])
    assert last < c <= cap, (last, c)
    last = c
dt = time.monotonic() - t0
assert 2.0 < dt < 9.0, dt
print("3 busy lines in %.1f s, the last at %d cycles" % (dt, last))
f.close()
s.close()
time.sleep(1.5)
s = socket.socket(socket.AF_UNIX)
s.settimeout(10)
s.connect(path)
s.sendall(b"quit\n")
assert s.makefile("rb").readline() == b"ok\n"
PY
$PYTHON $TMP/client.py $TMP/s.sock
wait $SERVER
