#!/usr/bin/env python3
"""fastdom.py NETLIST.json CLOCK: the cells of the CLOCK domain (its
flip-flops and DSP48E2, and the combinational cells between them and the
registers of any clock that feed them), counted by type."""
import collections, json, sys
net = json.load(open(sys.argv[1]))
mod = next(m for m in net["modules"].values() if m["attributes"].get("top"))
clk_bits = set(mod["netnames"][sys.argv[2]]["bits"])
cells = mod["cells"]
drv = {}
for n, c in cells.items():
    for p, d in c["port_directions"].items():
        if d == "output":
            for b in c["connections"][p]:
                drv[b] = n
def is_seq(c):
    return c["type"].startswith("FD") or c["type"].startswith("RAM")
fast = [n for n, c in cells.items() if c["type"].startswith(("FD", "DSP48E2"))
        and any(b in clk_bits for p in ("C", "CLK") for b in c["connections"].get(p, []))]
seen, stack = set(fast), []
for n in fast:
    c = cells[n]
    for p, d in c["port_directions"].items():
        if d == "input" and p not in ("C", "CLK"):
            stack += c["connections"][p]
while stack:
    b = stack.pop()
    n = drv.get(b)
    if n is None or n in seen or is_seq(cells[n]):
        continue
    seen.add(n)
    for p, d in cells[n]["port_directions"].items():
        if d == "input":
            stack += cells[n]["connections"][p]
cnt = collections.Counter(cells[n]["type"] for n in seen)
print("%s domain: %d registers and DSPs clocked by it; with the logic feeding them: %s" % (
    sys.argv[2], len(fast), ", ".join("%s %d" % kv for kv in sorted(cnt.items()))))
