#!/usr/bin/env python3
"""The memory model (hls/res_util.h, through mem_model) against yosys: each
memory of one write and one read port below is synthesized with
synth_xilinx -family xcup and its RAMB36E2 + RAMB18E2/2, URAM288 and LUTRAM
cells must be what the model says (the same block counts; LUTRAM exactly
where the model puts it).  The shapes are the cases the model distinguishes:
blocks packed across address ranges (1152 x 256, 18432 x 256), words padded
to whole 9-bit bytes (4608 x 64 is 9 RAMB36E2, not 8), the LUTRAM
or block RAM choice on either side of memory_libmap's prices, and the
memories of kiln_conv's parameters and reorder buffer.

usage: mem_yosys.py MEM_MODEL [YOSYS]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

SHAPES = [
    # depth, width, style ("" or "ultra")
    (1152, 256, ""), (2304, 32, ""), (2048, 64, ""), (4608, 64, ""), (4608, 32, ""),
    (2304, 72, ""),
    (256, 6, ""), (256, 16, ""), (128, 24, ""), (128, 28, ""),
    (512, 5, ""), (512, 7, ""), (200, 12, ""), (2048, 1, ""), (2560, 1, ""), (96, 16, ""),
    (18432, 256, "ultra"), (10240, 256, "ultra"),
]

CELL = re.compile(r"^\s+(?:\d+\s+)?(RAMB36E2|RAMB18E2|URAM288|RAM32M16|RAM64M8|RAM32M|RAM64M|"
                  r"RAM[0-9]+X1[SD])\s+(\d+)\s*$", re.M)


def synth(yosys, depth, width, style, tmp):
    abits = max(1, (depth - 1).bit_length())
    attr = '(* ram_style = "ultra" *) ' if style else ""
    src = os.path.join(tmp, "m.v")
    with open(src, "w") as f:
        f.write("module m(input clk, input we, input [%d:0] wa, input [%d:0] ra,\n"
                "         input [%d:0] wd, output reg [%d:0] q);\n"
                "    %sreg [%d:0] mem [0:%d];\n"
                "    always @(posedge clk) if (we) mem[wa] <= wd;\n"
                "    always @(posedge clk) q <= mem[ra];\n"
                "endmodule\n" % (abits - 1, abits - 1, width - 1, width - 1, attr, width - 1,
                                 depth - 1))
    res = subprocess.run([yosys, "-q", "-p", "read_verilog %s; synth_xilinx -family xcup -noiopad "
                          "-top m; tee -o /dev/stdout stat" % src],
                         capture_output=True, text=True, check=False)
    if res.returncode != 0:
        raise RuntimeError("yosys failed on %d x %d:\n%s" % (depth, width, res.stderr[-1500:]))
    cells = {}
    for name, n in CELL.findall(res.stdout):
        cells[name] = cells.get(name, 0) + int(n)
    return cells


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    model, yosys = sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else "yosys"
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for depth, width, style in SHAPES:
            args = [model, str(depth), str(width)] + ([style] if style else [])
            m = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
            c = synth(yosys, depth, width, style, tmp)
            bram = c.get("RAMB36E2", 0) + 0.5 * c.get("RAMB18E2", 0)
            uram = c.get("URAM288", 0)
            lutram = any(k.startswith("RAM") and not k.startswith("RAMB") for k in c)
            ok = bram == m["bram36"] and uram == m["uram"] and lutram == bool(m["lutram"])
            print("%6d x %-4d %-5s yosys: BRAM36 %4.1f URAM %3d LUTRAM %-3s  model: BRAM36 %4.1f "
                  "URAM %3d LUTRAM %-3s %s" %
                  (depth, width, style, bram, uram, "yes" if lutram else "no", m["bram36"],
                   m["uram"], "yes" if m["lutram"] else "no", "ok" if ok else "MISMATCH"),
                  flush=True)
            bad += not ok
    print("%d of %d memories as yosys maps them" % (len(SHAPES) - bad, len(SHAPES)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
