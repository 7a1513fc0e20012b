#!/usr/bin/env python3
# RUN: check_regmap.py RTLDIR PLAN.json [GIR]: regmap.json of a compile
# (kiln compile -> RTLDIR) against the contract of docs/rtl-pipeline.md:
# every segment's channels exist, every channel has its BASE_LO/HI registers
# and an m_axi_<name>_ port group in kiln_top.v and a line in kiln_ports.h,
# frame sizes follow the DDR layout rule, every plan stage has its PERF word.
# With GIR (the int8 graph in the text form that was compiled): weights.bin
# is exactly the sum of the "weights" entries and each channel's bytes are
# rebuilt here from the graph's constants and requant attributes, in the
# kiln_conv (or kiln_dwconv) weight-stream order, and compared byte for byte.
import base64
import json
import os
import re
import struct
import sys


def fail(msg):
    print("check_regmap.py: " + msg, file=sys.stderr)
    sys.exit(1)


def cdiv(a, b):
    return (a + b - 1) // b


def read_gir(path):
    """Constants {name: (dtype, dims, bytes)} and Conv nodes {node name: (ins, attrs)}."""
    consts, convs = {}, {}
    const_re = re.compile(r'^const %(\S+) : (\w+)\[([0-9,]*)\] = base64"([^"]*)"')
    node_re = re.compile(r'^%(\S+) = Conv\(([^)]*)\) \{([^}]*)\}')
    for line in open(path):
        m = const_re.match(line)
        if m:
            dims = [int(x) for x in m.group(3).split(",") if x]
            consts[m.group(1)] = (m.group(2), dims, base64.b64decode(m.group(4)))
            continue
        m = node_re.match(line)
        if m:
            ins = [x.strip().lstrip("%") for x in m.group(2).split(",")]
            attrs = {}
            for a in re.finditer(r'(\w+)=\[([^\]]*)\]', m.group(3)):
                attrs[a.group(1)] = [int(x) for x in a.group(2).split(",") if x]
            at = re.search(r'@"([^"]*)"', line)
            convs[at.group(1) if at else m.group(1)] = (ins, attrs)
    return consts, convs


def param_beats(c, n, L, bias, attrs):
    """The three parameter words of output channel c, L bytes each (zero
    past n channels)."""
    beat = bytearray(3 * L)
    if c < n:
        mp, mn, sh = attrs["rq_m_pos"], attrs["rq_m_neg"], attrs["rq_shift"]
        beat[0:4] = struct.pack("<i", bias[c])
        beat[L:L + 4] = struct.pack("<I", (mp[c] & 0xFFFF) | (mn[c] & 0xFFFF) << 16)
        beat[2 * L] = sh[c] & 0x3F
    return beat


def conv_stream(st, ins, attrs, consts, cin, cout):
    """kiln_conv weight stream bytes of one tile (the whole layer)."""
    L, P = st["pe_ic"], st["pe_oc"]
    dt, wd, w = consts[ins[1]]
    if dt != "i8":
        fail("%s: weights are %s, not i8" % (st["node"], dt))
    M, C, K = wd[0], wd[1], wd[2]
    if (M, C) != (cout, cin):
        fail("%s: weight dims %s" % (st["node"], wd))
    bias = [0] * M
    if len(ins) > 2 and ins[2] in consts:
        bias = list(struct.unpack("<%di" % M, consts[ins[2]][2]))
    out = bytearray()
    for og in range(cdiv(M, P)):
        for o in range(P):
            out += param_beats(og * P + o, M, L, bias, attrs)
        for ky in range(K):
            for kx in range(K):
                for ig in range(cdiv(C, L)):
                    for o in range(P):
                        c = og * P + o
                        beat = bytearray(L)
                        for i in range(L):
                            ci = ig * L + i
                            if c < M and ci < C:
                                beat[i] = w[((c * C + ci) * K + ky) * K + kx]
                        out += beat
    return bytes(out)


def dw_stream(st, ins, attrs, consts):
    """kiln_dwconv weight stream bytes: per channel group, three parameter
    words per lane (a word 4 / L beats below 4 lanes), then one beat per
    kernel tap."""
    L = st["lanes"]
    wb = max(L, 4)
    dt, wd, w = consts[ins[1]]
    if dt != "i8" or wd[1] != 1:
        fail("%s: depthwise weights %s%s" % (st["node"], dt, wd))
    C, K = wd[0], wd[2]
    bias = [0] * C
    if len(ins) > 2 and ins[2] in consts:
        bias = list(struct.unpack("<%di" % C, consts[ins[2]][2]))
    out = bytearray()
    for cg in range(cdiv(C, L)):
        for o in range(L):
            out += param_beats(cg * L + o, C, wb, bias, attrs)
        for ky in range(K):
            for kx in range(K):
                out += bytes(w[(c * K + ky) * K + kx] if c < C else 0
                             for c in range(cg * L, cg * L + L))
    return bytes(out)


def main():
    if len(sys.argv) not in (3, 4):
        fail("usage: check_regmap.py RTLDIR PLAN.json [GIR]")
    rtl, plan = sys.argv[1], json.load(open(sys.argv[2]))
    rm = json.load(open(os.path.join(rtl, "regmap.json")))
    top = open(os.path.join(rtl, "kiln_top.v")).read()
    ports = open(os.path.join(rtl, "kiln_ports.h")).read()
    bits = rm.get("axil_addr_bits")
    if rm.get("kiln_regmap") != 2 or bits not in range(12, 17):
        fail("kiln_regmap 2 with 12 to 16 address bits expected")
    # the map grows with the design (hls/hw.h): CFG from 0x40, PERF at 0x200
    # while the CFG block ends there, else at the first multiple of 0x200
    # past it; the address bits hold the last PERF word and no fewer than 12
    perf0 = min(int(p["offset"], 16) for p in rm["perf"])
    ncfg_end = max(r["offset"] for r in rm["registers"]) + 4
    if perf0 != max(0x200, (ncfg_end + 0x1ff) // 0x200 * 0x200):
        fail("PERF at 0x%x for a CFG block ending at 0x%x" % (perf0, ncfg_end))
    last = perf0 + 8 * len(rm["perf"])
    if (1 << bits) < last or (bits > 12 and (1 << (bits - 1)) >= last):
        fail("%d address bits for a map ending at 0x%x" % (bits, last))
    inst = re.search(r"kiln_regfile #\((.*?)\) u_regfile", top, re.S)
    aw = re.search(r"\.ADDR_W\((\d+)\)", inst.group(1)) if inst else None
    pb = re.search(r"\.PERF_BASE\('h([0-9A-F]+)\)", inst.group(1)) if inst else None
    if not aw or int(aw.group(1)) != bits or (int(pb.group(1), 16) if pb else 0x200) != perf0:
        fail("kiln_regfile's ADDR_W and PERF_BASE are not %d and 0x%x" % (bits, perf0))
    regs = {r["name"]: r["offset"] for r in rm["registers"]}
    for name, off in (("CTRL", 0), ("STATUS", 4), ("ERROR", 8), ("CYCLES", 12),
                      ("SEGMENT", 0x40), ("FRAMES", 0x44)):
        if regs.get(name) != off:
            fail("register %s not at 0x%x" % (name, off))
    chans = {c["name"]: c for c in rm["channels"]}
    if len(chans) != len(rm["channels"]):
        fail("duplicate channel names")
    named = set()
    for seg in rm["segments"]:
        for key in ("inputs", "outputs", "scratch", "weights"):
            for n in seg[key]:
                if n not in chans or chans[n]["segment"] != seg["index"]:
                    fail("segment %d names %s, not one of its channels" % (seg["index"], n))
                named.add(n)
        if not seg["outputs"]:
            fail("segment %d has no output channel" % seg["index"])
    # readers of a writer's buffer inside a segment are not the host's buffers:
    # they name their source (a scratch or output writer of the segment) and
    # use its base registers
    for n, c in chans.items():
        if "source" in c:
            s = chans.get(c["source"])
            if not s or s["dir"] != "wr" or s["segment"] != c["segment"] or \
                    s["frame_bytes"] != c["frame_bytes"] or c["dir"] != "rd" or \
                    (s["base_lo"], s["base_hi"]) != (c["base_lo"], c["base_hi"]):
                fail("%s: source %s is not a writer of its segment with its bytes" % (n, c["source"]))
            named.add(n)
        if c.get("scratch") and n not in [x for seg in rm["segments"] for x in seg["scratch"]]:
            fail("%s: scratch writer not in its segment's scratch list" % n)
    if named != set(chans):
        fail("channels no segment names: %s" % sorted(set(chans) - named))
    rd = re.findall(r"X\((\w+), (\d+)\)", ports.split("KILN_WR_CHANNELS")[0])
    wr = re.findall(r"X\((\w+), (\d+)\)", ports.split("KILN_WR_CHANNELS")[1])
    if sorted(n for n, _ in rd + wr) != sorted(chans):
        fail("kiln_ports.h lists %s" % sorted(n for n, _ in rd + wr))
    for n, dw in rd + wr:
        c = chans[n]
        if int(dw) != c["data_w"] or (c["dir"] == "wr") != ((n, dw) in wr):
            fail("kiln_ports.h: %s(%s) disagrees with regmap.json" % (n, dw))
    for n, c in chans.items():
        lo, hi = int(c["base_lo"], 16), int(c["base_hi"], 16)
        if "source" in c:
            if n.upper() + "_BASE_LO" in regs:
                fail("%s: a reader of %s with registers of its own" % (n, c["source"]))
        elif regs.get(n.upper() + "_BASE_LO") != lo or regs.get(n.upper() + "_BASE_HI") != hi \
                or hi != lo + 4 or lo < 0x48 or hi >= perf0:
            fail("%s: base registers 0x%x/0x%x" % (n, lo, hi))
        sigs = ("arvalid", "araddr", "rdata", "rlast") if c["dir"] == "rd" else \
               ("awvalid", "awaddr", "wdata", "wstrb", "bresp")
        for sg in sigs:
            if not re.search(r"wire +(\[\d+:0\] +)?m_axi_%s_%s\b" % (n, sg), top):
                fail("kiln_top.v has no port m_axi_%s_%s" % (n, sg))
        m = re.search(r"wire +\[(\d+):0\] +m_axi_%s_[rw]data\b" % n, top)
        # the bus is the stream's lanes (16 bits at least, 128 at most); a
        # weight-tiled conv's writer narrows it to a tile's channels
        lanes_w = min(128, max(16, 8 * c["lanes"])) if "lanes" in c else None
        tiled_wr = c["dir"] == "wr" and c.get("subs", 1) > 1
        if int(m.group(1)) + 1 != c["data_w"] or c["data_w"] not in (16, 32, 64, 128) or \
                (lanes_w is not None and c["data_w"] != lanes_w and
                 not (tiled_wr and c["data_w"] < lanes_w)):
            fail("%s: data width %s" % (n, m.group(1)))
        if "offset" not in c:
            payload = c["h"] * c["w"] * cdiv(c["c"], c["lanes"]) * c["lanes"]
            if c["frame_bytes"] != cdiv(payload, 16) * 16:
                fail("%s: frame_bytes %d for %dx%dx%d at %d lanes" %
                     (n, c["frame_bytes"], c["h"], c["w"], c["c"], c["lanes"]))
    stages = plan["stages"]
    perf = {p["stage"]: int(p["offset"], 16) for p in rm["perf"]}
    if sorted(perf) != list(range(len(stages))):
        fail("perf words for stages %s" % sorted(perf))
    for i, off in perf.items():
        if off != perf0 + 8 * i:
            fail("perf of stage %d at 0x%x" % (i, off))
    n_w = sum(1 for c in chans.values() if c["name"].startswith("w"))
    if len(sys.argv) == 3:
        if rm["weights"] or os.path.exists(os.path.join(rtl, "weights.bin")):
            fail("an fp32 compile has a weight image")
        print("regmap.json: %d segments, %d channels, %d perf words" %
              (len(rm["segments"]), len(chans), len(perf)))
        return
    consts, convs = read_gir(sys.argv[3])
    img = open(os.path.join(rtl, "weights.bin"), "rb").read()
    ws = rm["weights"]
    if len(ws) != n_w or n_w == 0:
        fail("%d weights entries for %d weight channels" % (len(ws), n_w))
    total = 0
    for wt in ws:
        c = chans[wt["channel"]]
        if wt["offset"] % 4096 or wt["offset"] != c["offset"] or wt["bytes"] != c["bytes"]:
            fail("%s: offset %d, bytes %d" % (wt["channel"], wt["offset"], wt["bytes"]))
        total = max(total, wt["offset"] + cdiv(wt["bytes"], 4096) * 4096)
        st = stages[wt["stage"]]
        ins, attrs = convs[st["node"]]
        wd = consts[ins[1]][1]
        if st["engine"] == "kiln_dwconv":
            ref = dw_stream(st, ins, attrs, consts)
        else:
            ref = conv_stream(st, ins, attrs, consts, wd[1], wd[0])
        ref += bytes(wt["bytes"] - len(ref))
        got = img[wt["offset"]:wt["offset"] + wt["bytes"]]
        if got != ref:
            k = next(i for i in range(len(ref)) if i >= len(got) or got[i] != ref[i])
            fail("%s (%s): weights.bin byte %d differs" % (wt["channel"], st["node"], k))
    if len(img) != total or rm["weights_bytes"] != total:
        fail("weights.bin has %d bytes, the weights list sums to %d" % (len(img), total))
    print("weights.bin: %d bytes, %d weight channels rebuilt from %s" %
          (len(img), len(ws), os.path.basename(sys.argv[3])))


main()
