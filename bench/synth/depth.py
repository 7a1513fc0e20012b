#!/usr/bin/env python3
"""Logic depth between registers of a yosys-mapped Xilinx netlist (write_json).

usage: depth.py NETLIST.json [TOP]

Prints the longest register-to-register path, counted in cells (LUT, MUXF,
CARRY8, combinational DSP48E2/LUTRAM read), like yosys `ltp -noff`.  Plain
`ltp -noff` only drops flip-flop cells: it walks through RAMB36E2/RAMB18E2
and through DSP48E2 whose AREG/BREG/MREG/PREG registers yosys has absorbed,
as if they were logic, so its figure does not move when pipeline registers
are added.  Here:
  - FD*: output starts a path, inputs end one;
  - RAMB18E2/RAMB36E2: synchronous, cut like a flip-flop;
  - LUTRAM (RAM32M, RAM64M, RAM*X1*): only read-address pins reach the
    outputs (write data/enable end a path);
  - SRL16E/SRLC32E: only the address pins reach Q;
  - LUT6_2: per output, the inputs its half of INIT depends on (kiln_add3's
    O5, the majority, does not see I3, the neighbour's O5: no chain);
  - DSP48E2: a cut if MREG or PREG is set (the cell counts as one level on
    the side where logic remains), else one combinational level.
"""
import json
import sys

SEQ = ("FDRE", "FDSE", "FDCE", "FDPE", "RAMB18E2", "RAMB36E2")


def _pint(v):
    if isinstance(v, int):
        return v
    try:
        return int(str(v), 2)
    except ValueError:
        return 0


def _comb_inputs(cell):
    """Input pins that reach the cell's outputs combinationally, or None if
    all do (plain logic)."""
    t = cell["type"]
    if t.startswith("RAM") and not t.startswith("RAMB"):
        return [p for p in cell["connections"]
                if p.startswith("ADDR") or p.startswith("DPRA") or
                (p.startswith("A") and p[1:].isdigit())]
    if t.startswith("SRL"):
        return [p for p in cell["connections"] if p.startswith("A") and p[1:].isdigit()]
    return None


def _lut62_inputs(cell, opin):
    """The inputs I0..I5 of a LUT6_2 that output opin (O5: INIT[31:0], O6:
    INIT[63:0]) depends on."""
    init = _pint(cell.get("parameters", {}).get("INIT", 0))
    n = 32 if opin == "O5" else 64
    return ["I%d" % k for k in range(6)
            if any((init >> i & 1) != (init >> (i ^ (1 << k)) & 1) for i in range(n))]


def depth(netlist, top=None, path=None):
    """Longest path length; if path is a list, the cell names and types on
    it are appended (start first)."""
    mods = netlist["modules"]
    if top not in mods:
        top = next((n for n, m in mods.items() if m.get("attributes", {}).get("top")),
                   next(iter(mods)))
    cells = mods[top]["cells"]
    driver = {}   # bit -> (cell name, its output pin for a LUT6_2 else None)
    for name, c in cells.items():
        for pin, bits in c["connections"].items():
            if c.get("port_directions", {}).get(pin) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = (name, pin if c["type"] == "LUT6_2" else None)
    memo = {}
    pred = {}

    def level(key, stack):
        """Cells on the longest combinational path ending at key's outputs
        (key: driver's (cell, pin))."""
        if key in memo:
            return memo[key]
        name = key[0]
        c = cells[name]
        t = c["type"]
        if t in SEQ:
            memo[key] = 0
            return 0
        own = 1
        ins = _lut62_inputs(c, key[1]) if t == "LUT6_2" else _comb_inputs(c)
        if t == "DSP48E2":
            p = c.get("parameters", {})
            if _pint(p.get("MREG", 0)) or _pint(p.get("PREG", 0)):
                memo[key] = 0 if _pint(p.get("PREG", 0)) else 1
                return memo[key]
        if key in stack:
            return 0
        stack.add(key)
        best = 0
        dirs = c.get("port_directions", {})
        for pin, bits in c["connections"].items():
            if dirs.get(pin) != "input" or (ins is not None and pin not in ins):
                continue
            for b in bits:
                d = driver.get(b) if isinstance(b, int) else None
                if d is not None:
                    lv = level(d, stack)
                    if lv > best:
                        best = lv
                        pred[key] = d
        stack.discard(key)
        memo[key] = best + own
        return memo[key]

    sys.setrecursionlimit(1000000)
    longest, tail = 0, None
    for name, c in cells.items():
        t = c["type"]
        dirs = c.get("port_directions", {})
        # path ends: inputs of sequential cells, all inputs of a registered DSP
        if t in SEQ or t.startswith("RAM") or t.startswith("SRL") or t == "DSP48E2":
            extra = 0
            if t == "DSP48E2":
                p = c.get("parameters", {})
                regs = _pint(p.get("MREG", 0)) or _pint(p.get("PREG", 0))
                if not regs:
                    continue  # combinational: counted through its outputs
                extra = 0 if (_pint(p.get("AREG", 0)) and _pint(p.get("BREG", 0))) else 1
            for pin, bits in c["connections"].items():
                if dirs.get(pin) != "input":
                    continue
                for b in bits:
                    d = driver.get(b) if isinstance(b, int) else None
                    if d is not None and level(d, set()) + extra > longest:
                        longest, tail = level(d, set()) + extra, d
    # paths to module outputs
    for pname, port in mods[top].get("ports", {}).items():
        if port["direction"] == "output":
            for b in port["bits"]:
                d = driver.get(b) if isinstance(b, int) else None
                if d is not None and level(d, set()) > longest:
                    longest, tail = level(d, set()), d
    if path is not None:
        while tail is not None:
            path.insert(0, "%s %s" % (cells[tail[0]]["type"], tail[0]))
            tail = pred.get(tail)
    return longest


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    with open(sys.argv[1]) as f:
        n = json.load(f)
    path = []
    print(depth(n, sys.argv[2] if len(sys.argv) > 2 else None, path))
    for c in path:
        print("  " + c)
    return 0


if __name__ == "__main__":
    sys.exit(main())
