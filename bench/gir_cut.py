#!/usr/bin/python3
"""Cut a quantized graph (the text IR of kiln quantize) down to the nodes
between one int8 value and others, to simulate a few stages of a big design
in a minute or two instead of the whole top (docs/ocr.md: how segment 0 of
the PP-OCRv4 detector was bisected).

  gir_cut.py cut Q.GIR FROM TO[,TO...] OUT.gir
      OUT.gir: an fp32 input of FROM's shape, quantized at FROM's scale into
      FROM, the nodes TO depend on back to FROM, each TO dequantized as a
      graph output.
  gir_cut.py plan SMALL/plan.json BIG/plan.json OUT.json
      SMALL's plan with each stage's parallelism (lanes, PE_IC, PE_OC, PP,
      PACK, pipeline depths, weight placement) as BIG's stage of the same
      node has it, for kiln compile --plan OUT.json.

Run with /usr/bin/python3.  A missing file, node or plan stage, or a value
that is not int8 with a scale: one line naming the file, exit 2
(tests/ocr/ocr.cmake, ocr_gir_cut_node_bad).  Typical use (bench/ocr_det_sim.sh's
folder):
  gir_cut.py cut q.gir p2o.Add.43 p2o.Add.71 s.gir
  kiln compile s.gir --board zcu102 -o s
  gir_cut.py plan s/plan.json c/plan.json s.json
  rm -r s && kiln compile s.gir --board zcu102 --plan s.json -o s
  kiln simulate s --frames 1
"""
import base64
import json
import re
import struct
import sys

KEYS = ("lanes", "pe_oc", "pe_ic", "pp", "span", "pack", "pipe", "rq_pipe", "weights", "tog")


def fail(msg):
    print("gir_cut: " + msg, file=sys.stderr)
    sys.exit(2)


def f32(v):
    return base64.b64encode(struct.pack("<f", v)).decode()


def int8_value(path, nodes, name):
    if name not in nodes:
        fail("%s: no node defines %%%s" % (path, name))
    line = nodes[name][0]
    m = re.search(r": i8\[([\d,]+)\](?: [a-z]+)? scale\(([^)]+)\)", line)
    if not m:
        fail("%s: %%%s is not an int8 value with a scale" % (path, name))
    return m.group(1), m.group(2)


def cut(path, src, outs, dst):
    try:
        lines = open(path).read().split("\n")
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))
    consts, nodes, order = {}, {}, []
    for line in lines:
        m = re.match(r"const %(\S+) :", line)
        if m:
            consts[m.group(1)] = line
            continue
        m = re.match(r"%(\S+) = (\w+)\(([^)]*)\)", line)
        if m:
            args = [a.strip()[1:] for a in m.group(3).split(",") if a.strip()]
            nodes[m.group(1)] = (line, args)
            order.append(m.group(1))
    shape, scale = int8_value(path, nodes, src)
    need, keep, stack = set(), set(), list(outs)
    for o in outs:
        int8_value(path, nodes, o)
    while stack:
        n = stack.pop()
        if n == src or n in need or n in keep:
            continue
        if n in consts:
            keep.add(n)
            continue
        if n not in nodes:
            fail("%s: %%%s is neither a node nor a constant (does it depend on the "
                 "graph input rather than on %%%s?)" % (path, n, src))
        need.add(n)
        stack += nodes[n][1]
    out = [lines[0], "input %%x : f32[%s] loc(source)" % shape,
           'const %%x_scale : f32[] = base64"%s"' % f32(float(scale)),
           'const %x_zp : i8[] = base64"AA=="']
    out += [consts[c] for c in consts if c in keep]
    out.append("%%%s = QuantizeLinear(%%x, %%x_scale, %%x_zp) : i8[%s] scale(%s) loc(source)"
               % (src, shape, scale))
    out += [nodes[n][0] for n in order if n in need]
    for o in outs:
        osh, osc = int8_value(path, nodes, o)
        out.append('const %%%s_scale : f32[] = base64"%s"' % (o, f32(float(osc))))
        out.append('const %%%s_zp : i8[] = base64"AA=="' % o)
        out.append("%%%s_dq = DequantizeLinear(%%%s, %%%s_scale, %%%s_zp) : f32[%s] loc(source)"
                   % (o, o, o, o, osh))
    out += ["output %%%s_dq" % o for o in outs]
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")
    print("gir_cut: %s: %d nodes from %%%s to %s" % (dst, len(need), src, ", ".join(outs)))


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (path, e))


def plan(small, big, dst):
    a, b = load(small), load(big)
    full = {s["node"]: s for s in b["stages"]}
    for s in a["stages"]:
        if s["node"] not in full:
            fail("%s: no stage %s" % (big, s["node"]))
        for k in KEYS:
            if k in full[s["node"]]:
                s[k] = full[s["node"]][k]
    with open(dst, "w") as f:
        json.dump(a, f, indent=1)


def main(argv):
    if len(argv) == 6 and argv[1] == "cut":
        cut(argv[2], argv[3], argv[4].split(","), argv[5])
    elif len(argv) == 5 and argv[1] == "plan":
        plan(argv[2], argv[3], argv[4])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv)
