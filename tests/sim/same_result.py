#!/usr/bin/env python3
"""same_result.py A B: two kiln simulate result.json files of one design
agree on everything the hardware decides (every measured cycle, the figures
from them, bit-exactness); only the host's timing (wall_s, sim_cycles_per_s)
may differ.  Exit 1 naming the first field that differs."""
import json
import sys

HOST = {"wall_s", "sim_cycles_per_s"}


def first_diff(a, b, where):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in HOST and where == "":
                continue
            if k not in a or k not in b:
                return f"{where}.{k}: only in {'B' if k not in a else 'A'}"
            d = first_diff(a[k], b[k], f"{where}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{where}: {len(a)} entries against {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{where}: {a!r} against {b!r}"


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: same_result.py A/result.json B/result.json")
    a, b = (json.load(open(p)) for p in sys.argv[1:])
    d = first_diff(a, b, "")
    if d:
        print(f"same_result.py: {sys.argv[1]} and {sys.argv[2]} differ at {d.lstrip('.')}")
        sys.exit(1)
    print(f"same_result.py: {len(a['stages'])} stages, interval {a['interval_cycles']}, "
          f"latency {a['latency_cycles']}: identical")


if __name__ == "__main__":
    main()
