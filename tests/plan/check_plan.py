#!/usr/bin/python3
"""Checks on kiln compile output folders (plan.json), used by the cases in tests/plan/cases/.

  check_plan.py fits DIR...            every plan's resources within the headroom budgets;
                                       prints fps per board; fps rises with the DSP budget
                                       (ultra96v2 < zcu104 < zcu102, kv260 < zcu104; see cases/boards_fit.sh)
  check_plan.py same A B               identical figures and choices (replay)
  check_plan.py pin DIR NODE OC IC PP  the stage keeps the pinned parallelism
  check_plan.py cpu DIR OP N           N nodes of OP on the CPU, each with a reason
  check_plan.py mutate IN OUT PATH V   copy plan.json IN to OUT with stages[i].key = V
  check_plan.py engines DIR SEG ENGINE=N...
                                       SEG FPGA segments, each with stages; N stages of
                                       each ENGINE
  check_plan.py weights DIR MIN MAX    between MIN and MAX stages take their weights
                                       from DDR; the others keep them on chip
  check_plan.py ddr_pad DIR U S C      stage S reads its input from stage U through DDR and
                                       U's PE_OC and S's PE_IC pad a pixel of C channels alike
  check_plan.py cosine GOT EXP MIN     cosine of two .npy tensors (numpy) is above MIN
  check_plan.py stall DIR NODE MIN     NODE's occupancy exceeds its cycles by at least MIN
                                       (a fraction): the frame-barrier stall the interval
                                       model charges it (NODE has no on-chip input, so no
                                       wait for a held-back producer)
  check_plan.py undo_latency DIR OUT   copy DIR's plan.json to OUT with the latency step of
                                       the largest saving undone (a stage whose reason says
                                       "grown to X N to shorten the latency (A -> B cycles)",
                                       weights on chip); prints it
  check_plan.py longer A B             B has A's interval and a longer latency
  check_plan.py for_latency FAST B     B's limit says it was kept for its latency over FAST's
                                       interval and latency; B's interval at most 10% longer
                                       and its latency shorter by more than 4x that share
  check_plan.py swap DIR OUT           a stage whose reason says its weights were "swapped on
                                       chip for X's" (X's reason the converse, X's weights from
                                       DDR, the latency in both reasons shorter after the swap
                                       and the plan's no longer than that); copy plan.json to
                                       OUT with the swap undone: the stage's weights from DDR
                                       in the tiles it had, X's on chip in URAM; prints it
  check_plan.py trade DIR BOTH TRIM    a stage whose reason says it was "grown to X N to shorten
                                       the latency (A -> B cycles) at the same interval, with Y
                                       trimmed to make room" and Y's reason the converse (the
                                       largest saving if several); copy plan.json to TRIM with
                                       Y's step down undone, and to BOTH with the growth undone
                                       too; prints it
  check_plan.py unband DIR OUT         a stage in bands whose reason says "in bands of N rows,
                                       line buffer of L rows ... (latency A -> B cycles)" (N its
                                       band, L its lbrows if it has one, B < A; weights
                                       from DDR in several tiles); copy plan.json to OUT with
                                       every band removed; prints them
  check_plan.py dsp_use DIR            report.md's "DSP use" table: a row per conv with its DSPs and
                                       multipliers (PE_OC x PE_IC x PP / PACK, halved on clk2x),
                                       the shared engine's when folded; the total's DSPs are
                                       figures.used.dsp, its eff is figures.dsp_efficiency and
                                       eff + the four losses make 100%
  check_plan.py infra DIR              figures.infrastructure counts the DMA channels of
                                       rtl/kiln_top.v (one block RAM data FIFO each, at most
                                       two) and every stage's PERF counter; figures.used is
                                       stages + skip FIFOs + infrastructure
"""
import json
import sys


def load(d):
    with open(d + "/plan.json") as f:
        return json.load(f)


def fits(dirs):
    fps = {}
    for d in dirs:
        p = load(d)
        used, budget = p["figures"]["used"], p["figures"]["budget"]
        for r in ("dsp", "bram36", "uram", "lut", "ff"):
            if used[r] > budget[r] + 1e-6:
                sys.exit(f"{p['board']}: {r} {used[r]} over the budget {budget[r]}")
        fps[p["board"]] = p["figures"]["fps"]
        print(f"{p['board']}: {p['figures']['fps']} fps (predicted), DSP {used['dsp']}/{budget['dsp']}")
    order = [("ultra96v2", "zcu104"), ("kv260", "zcu104"), ("zcu104", "zcu102")]
    for a, b in order:
        if a in fps and b in fps and not fps[a] < fps[b]:
            sys.exit(f"fps does not rise with the DSP budget: {a} {fps[a]} >= {b} {fps[b]}")


def same(a, b):
    pa, pb = load(a), load(b)
    # "limit" says why exploration stopped; a replay does not explore
    pa["figures"].pop("limit")
    pb["figures"].pop("limit")
    if pa["figures"] != pb["figures"]:
        sys.exit(f"figures differ:\n{pa['figures']}\n{pb['figures']}")
    for sa, sb in zip(pa["stages"], pb["stages"]):
        for k in ("node", "pe_oc", "pe_ic", "pp", "lanes", "weights", "tog", "band", "cycles",
                  "resources"):
            if sa.get(k) != sb.get(k):
                sys.exit(f"stage {sa['node']}: {k} {sa.get(k)} != {sb.get(k)}")
    print("replay: identical figures", pa["figures"]["fps"], "fps")


def pin(d, node, oc, ic, pp):
    for s in load(d)["stages"]:
        if s["node"] == node:
            got = (s["pe_oc"], s["pe_ic"], s["pp"], s["pinned"])
            if got != (int(oc), int(ic), int(pp), True):
                sys.exit(f"{node}: {got}, pinned {oc}x{ic}x{pp}")
            print(f"{node}: pinned {oc}x{ic}x{pp}: {s['why']}")
            return
    sys.exit(f"no stage {node}")


def cpu(d, op, n):
    rows = [c for c in load(d)["cpu"] if c["op"] == op]
    if len(rows) != int(n) or any(not c["why"] for c in rows):
        sys.exit(f"{len(rows)} {op} nodes on the CPU, expected {n}: {rows}")
    for c in rows:
        print(f"{c['node']}: {c['why']}")


def mutate(src, dst, idx, key, val):
    with open(src) as f:
        p = json.load(f)
    p["stages"][int(idx)][key] = json.loads(val)
    with open(dst, "w") as f:
        json.dump(p, f)


def ddr_pad(d, u, s, c):
    st = {x["node"]: x for x in load(d)["stages"]}
    lp, lc, c = st[u]["pe_oc"], st[s]["pe_ic"], int(c)
    if not st[s].get("in_ddr", [False])[0]:
        sys.exit(f"{s} does not read {u}'s output through DDR")
    if -(-c // lp) * lp != -(-c // lc) * lc:
        sys.exit(f"{u} writes {c} channels in {lp} lanes, {s} reads them in {lc}")
    print(f"{u} -> {s} through DDR: {c} channels in {lp} and {lc} lanes")


def engines(d, nseg, counts):
    p = load(d)
    segs = [s["segment"] for s in p["stages"]]
    if p["figures"]["segments"] != int(nseg) or sorted(set(segs)) != list(range(int(nseg))):
        sys.exit(f"segments {p['figures']['segments']} (stages in {sorted(set(segs))}), "
                 f"expected {nseg}")
    for c in counts:
        eng, n = c.split("=")
        got = [s["node"] for s in p["stages"] if s["engine"] == eng]
        if len(got) != int(n):
            sys.exit(f"{len(got)} {eng} stages {got}, expected {n}")
    for s in p["stages"]:
        print(f"segment {s['segment']}: {s['node']} {s['engine']}")


def weights(d, lo, hi):
    p = load(d)
    ddr = [s["node"] for s in p["stages"] if s["weights"] == "ddr"]
    if not int(lo) <= len(ddr) <= int(hi):
        sys.exit(f"{p['board']}: weights from DDR for {ddr}, expected {lo}..{hi} stages")
    print(f"{p['board']}: weights from DDR: {ddr or 'none'}; "
          f"DDR {p['figures']['ddr_bytes_per_frame']} B/frame")


def cosine(got, exp, lo):
    import numpy as np
    a = np.load(got).astype(np.float64).ravel()
    b = np.load(exp).astype(np.float64).ravel()
    if a.shape != b.shape:
        sys.exit(f"{got} has {a.size} values, {exp} {b.size}")
    c = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-300))
    print(f"cosine {got} vs {exp}: {c:.6f}")
    if not c > float(lo):
        sys.exit(f"cosine {c:.6f} not above {lo}")


def infra(d):
    p = load(d)
    inf, used = p["figures"]["infrastructure"], p["figures"]["used"]
    with open(d + "/rtl/kiln_top.v") as f:
        top = f.read()
    nch = top.count("kiln_rd_chan #(") + top.count("kiln_wr_chan #(")
    if nch == 0:
        sys.exit(f"{d}/rtl/kiln_top.v: no DMA channel")
    # each channel's data FIFO (72 or 264 entries here) is one RAMB18E2 at
    # least (16-bit bus) and two RAMB36E2 at most (128-bit bus)
    if not nch / 2 <= inf["bram36"] <= 2 * nch:
        sys.exit(f"infrastructure BRAM36 {inf['bram36']} for {nch} DMA channels, "
                 f"expected {nch / 2}..{2 * nch}")
    if inf["ff"] < 97 * len(p["stages"]) or inf["lut"] <= 0 or inf["dsp"] != 0:
        sys.exit(f"infrastructure {inf}: expected at least 97 FF per stage "
                 f"({len(p['stages'])} stages), LUTs and no DSP")
    onchip = [q for q in p["fifos"] if not q["via_ddr"]]
    n = len(p["stages"]) + len(onchip) + 1  # rounding of each JSON figure
    for r in ("dsp", "bram36", "uram", "lut", "ff"):
        rest = used[r] - inf[r] - sum(s["resources"][r] for s in p["stages"])
        if rest < -n or (not onchip and abs(rest) > n):
            sys.exit(f"used {r} {used[r]} is not stages + skip FIFOs + infrastructure "
                     f"({inf[r]}): {rest} left for {len(onchip)} FIFOs")
    print(f"{p['board']}: {nch} DMA channels; infrastructure {inf}; used {used}")


def stall(d, node, lo):
    p = load(d)
    st = [s for s in p["stages"] if s["node"] == node]
    if not st:
        sys.exit(f"{d}/plan.json: no stage {node}")
    s = st[0]
    extra = (s["occupancy"] - s["cycles"]) / s["cycles"]
    print(f"{node}: cycles {s['cycles']}, occupancy {s['occupancy']} (+{100 * extra:.1f}%); "
          f"interval {p['figures']['interval_cycles']}, slowest {p['figures']['slowest']}")
    if extra < float(lo):
        sys.exit(f"{node}: occupancy only {100 * extra:.1f}% above its cycles, expected "
                 f"at least {100 * float(lo):.1f}%")


def undo_latency(d, out):
    import re
    p = load(d)
    best = None
    for i, s in enumerate(p["stages"]):
        m = re.search(r"grown to (PE_OC|PE_IC|PP|LANES) (\d+) to shorten the latency "
                      r"\((\d+) -> (\d+) cycles\)", s["why"])
        if not m or s.get("weights") == "ddr":
            continue
        key, n, a, b = m.group(1).lower(), int(m.group(2)), int(m.group(3)), int(m.group(4))
        if s.get(key) != n or not b < a:
            sys.exit(f"stage {s['node']}: {key} {s.get(key)}, reason says {n}; "
                     f"latency {a} -> {b}")
        if best is None or a - b > best[3]:
            best = (i, key, n, a - b)
    if best is None:
        sys.exit(f"{d}/plan.json: no stage grown to shorten the latency")
    i, key, n, saved = best
    p["stages"][i][key] = n - 1 if key == "pp" else n // 2
    print(f"{p['stages'][i]['node']}: {key} {n} -> {p['stages'][i][key]} "
          f"(the reason says {saved} cycles of latency saved)")
    with open(out, "w") as f:
        json.dump(p, f)


def unband(d, out):
    import re
    p = load(d)
    n = 0
    for s in p["stages"]:
        if not s.get("band"):
            continue
        m = re.search(r"in bands of (\d+) rows?, line buffer of (\d+) rows: .*"
                      r"\(latency (\d+) -> (\d+) cycles\)", s["why"])
        if (not m or int(m.group(1)) != s["band"] or not int(m.group(4)) < int(m.group(3)) or
                int(m.group(2)) != s.get("lbrows", int(m.group(2)))):
            sys.exit(f"stage {s['node']}: band {s['band']}, reason: {s['why']}")
        if s["weights"] != "ddr" or not s["tog"] >= 1:
            sys.exit(f"stage {s['node']}: in bands with weights {s['weights']}, tog {s['tog']}")
        print(f"{s['node']}: bands of {s['band']} rows, line buffer of {m.group(2)} rows "
              f"(latency {m.group(3)} -> {m.group(4)} cycles)")
        del s["band"]
        s.pop("lbrows", None)
        n += 1
    if not n:
        sys.exit(f"{d}/plan.json: no stage in bands")
    with open(out, "w") as f:
        json.dump(p, f)


def longer(a, b):
    fa, fb = load(a)["figures"], load(b)["figures"]
    print(f"interval {fa['interval_cycles']} / {fb['interval_cycles']}, "
          f"latency {fa['latency_cycles']} / {fb['latency_cycles']}")
    if fa["interval_cycles"] != fb["interval_cycles"] or not fb["latency_cycles"] > fa["latency_cycles"]:
        sys.exit("the step undone should keep the interval and lengthen the latency")


def for_latency(fast, b):
    import re
    fa, fb = load(fast)["figures"], load(b)["figures"]
    ia, la, ib, lb = (fa["interval_cycles"], fa["latency_cycles"], fb["interval_cycles"],
                      fb["latency_cycles"])
    print(f"interval {ia} / {ib}, latency {la} / {lb}")
    m = re.search(r"kept for its latency over a plan of interval (\d+) cycles and latency (\d+)",
                  fb["limit"])
    if not m or (int(m.group(1)), int(m.group(2))) != (ia, la):
        sys.exit(f"{b}/plan.json: the limit should name {ia} and {la}: {fb['limit']}")
    if not (ia < ib <= ia * 1.1 and (la - lb) / la > 4 * (ib - ia) / ia):
        sys.exit("the plan kept for its latency should be within 10% of the interval and "
                 "shorter by more than 4x that share")


def swap(d, out):
    import re
    p = load(d)
    byname = {s["node"]: s for s in p["stages"]}
    for s in p["stages"]:
        m = re.search(r"swapped on chip for (\S+)'s, which stream instead \(from DDR in tiles "
                      r"of (\d+) groups; latency (\d+) -> (\d+) cycles\)", s["why"])
        if not m:
            continue
        x, tog, a, b = byname.get(m.group(1)), int(m.group(2)), int(m.group(3)), int(m.group(4))
        if x is None:
            sys.exit(f"{s['node']}: swapped for {m.group(1)}, no such stage")
        back = f"swapped to DDR to take {s['node']}'s on chip: latency {a} -> {b} cycles"
        if s["weights"] == "ddr" or x["weights"] != "ddr" or back not in x["why"]:
            sys.exit(f"{s['node']} ({s['weights']}) and {x['node']} ({x['weights']}): "
                     f"reasons disagree: {x['why']}")
        lat = p["figures"]["latency_cycles"]
        if not b < a or lat > b:
            sys.exit(f"{s['node']}: latency {a} -> {b} cycles, plan {lat}")
        print(f"{s['node']} on chip ({s['weights']}), {x['node']} from DDR: latency {a} -> {b} "
              f"cycles at the swap, {lat} in the plan")
        s["weights"], s["tog"] = "ddr", tog
        x["weights"], x["tog"] = "uram", 0
        x.pop("in_ddr", None)
        with open(out, "w") as f:
            json.dump(p, f)
        return
    sys.exit(f"{d}/plan.json: no stage's weights swapped on chip")


def trade(d, out_both, out_trim):
    import re
    p = load(d)
    byname = {s["node"]: s for s in p["stages"]}
    up = {"pe_oc": lambda n: n * 2, "pe_ic": lambda n: n * 2, "lanes": lambda n: n * 2,
          "pp": lambda n: n + 1}
    down = {"pe_oc": lambda n: n // 2, "pe_ic": lambda n: n // 2, "lanes": lambda n: n // 2,
            "pp": lambda n: 1 if n == 2 else n - 1}
    best = None
    for s in p["stages"]:
        m = re.search(r"grown to (PE_OC|PE_IC|PP|LANES) (\d+) to shorten the latency \((\d+) -> "
                      r"(\d+) cycles\) at the same interval, with (\S+) trimmed to make room",
                      s["why"])
        if not m:
            continue
        key, n, a, b, t = m.group(1).lower(), int(m.group(2)), int(m.group(3)), int(m.group(4)), \
            byname.get(m.group(5))
        if t is None:
            sys.exit(f"{s['node']}: traded with {m.group(5)}, no such stage")
        mt = re.search(r"trimmed to (PE_OC|PE_IC|PP|LANES) (\d+) to make room for "
                       + re.escape(s["node"]) + r"'s growth \(latency (\d+) -> (\d+) cycles "
                       r"at the same interval\)", t["why"])
        if not mt and re.search(r"grown to .* to shorten the latency \((\d+) -> \d+ cycles\)",
                                t["why"]):
            g = int(re.search(r"shorten the latency \((\d+) ->", t["why"]).group(1))
            if g <= b:
                # the trimmed stage was grown again by a later step, which
                # replaced its reason: this pair cannot be undone alone
                print(f"{s['node']} with {t['node']}: {t['node']} grown again later, skipped")
                continue
        if not mt or (int(mt.group(3)), int(mt.group(4))) != (a, b):
            sys.exit(f"{s['node']} and {t['node']}: reasons disagree: {t['why']}")
        tkey, tn = mt.group(1).lower(), int(mt.group(2))
        if s.get(key) != n or t.get(tkey) != tn or not b < a:
            sys.exit(f"{s['node']} {key} {s.get(key)} (reason {n}), {t['node']} {tkey} "
                     f"{t.get(tkey)} (reason {tn}); latency {a} -> {b}")
        if best is None or a - b > best[0]:
            best = (a - b, s, key, n, t, tkey, tn)
    if best is None:
        sys.exit(f"{d}/plan.json: no stage grown with another trimmed to make room")
    saved, s, key, n, t, tkey, tn = best
    print(f"{s['node']} {key} {n} with {t['node']} {tkey} {tn}: the reasons say {saved} cycles "
          f"of latency saved")
    t[tkey] = up[tkey](tn)
    with open(out_trim, "w") as f:
        json.dump(p, f)
    s[key] = down[key](n)
    with open(out_both, "w") as f:
        json.dump(p, f)


def dsp_use(d):
    p = load(d)
    with open(d + "/report.md") as f:
        text = f.read()
    if "## DSP use" not in text:
        sys.exit(f"{d}/report.md: no DSP use section")
    sec = text.split("## DSP use", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in sec.splitlines():
        c = [x.strip().strip("*") for x in line.strip().strip("|").split("|")]
        if len(c) == 11 and c[1].replace(".", "").isdigit():
            rows[c[0]] = c
    pc = lambda x: float(x.rstrip("%"))
    for s in p["stages"]:
        if s["engine"] != "kiln_conv":
            continue
        r = rows.get(s["node"])
        mult = s["pe_oc"] * s["pe_ic"] * s["pp"] // s["pack"] // (2 if s.get("dsp2x") else 1)
        if r is None or int(r[1]) != round(s["resources"]["dsp"]) or int(r[2]) != mult:
            sys.exit(f"{d}: DSP use row of {s['node']} {r}: expected DSP "
                     f"{s['resources']['dsp']}, {mult} multipliers")
    if p.get("fold") and p["fold"].get("layers") and "time-shared engine" not in rows:
        sys.exit(f"{d}: no DSP use row for the time-shared engine")
    t = rows.get("total")
    if t is None:
        sys.exit(f"{d}: DSP use: no total row")
    eff = pc(t[6])
    loss = sum(pc(x) for x in t[7:11])
    if (int(t[1]) != round(p["figures"]["used"]["dsp"]) or
            abs(eff - 100 * p["figures"]["dsp_efficiency"]) > 0.06 or abs(eff + loss - 100) > 0.1):
        sys.exit(f"{d}: DSP use total {t}: expected DSP {p['figures']['used']['dsp']}, eff "
                 f"{100 * p['figures']['dsp_efficiency']:.1f}%, eff + losses 100%")
    print(f"{p['board']}: DSP efficiency {eff}%, losses {t[7:11]}")


cmd = sys.argv[1]
if cmd == "fits":
    fits(sys.argv[2:])
elif cmd == "same":
    same(sys.argv[2], sys.argv[3])
elif cmd == "pin":
    pin(*sys.argv[2:7])
elif cmd == "cpu":
    cpu(*sys.argv[2:5])
elif cmd == "mutate":
    mutate(*sys.argv[2:7])
elif cmd == "engines":
    engines(sys.argv[2], sys.argv[3], sys.argv[4:])
elif cmd == "weights":
    weights(*sys.argv[2:5])
elif cmd == "undo_latency":
    undo_latency(sys.argv[2], sys.argv[3])
elif cmd == "unband":
    unband(sys.argv[2], sys.argv[3])
elif cmd == "longer":
    longer(sys.argv[2], sys.argv[3])
elif cmd == "for_latency":
    for_latency(sys.argv[2], sys.argv[3])
elif cmd == "swap":
    swap(sys.argv[2], sys.argv[3])
elif cmd == "trade":
    trade(sys.argv[2], sys.argv[3], sys.argv[4])
elif cmd == "dsp_use":
    dsp_use(sys.argv[2])
elif cmd == "infra":
    infra(sys.argv[2])
elif cmd == "stall":
    stall(*sys.argv[2:5])
elif cmd == "ddr_pad":
    ddr_pad(*sys.argv[2:6])
elif cmd == "cosine":
    cosine(*sys.argv[2:5])
else:
    sys.exit("unknown check " + cmd)
