#!/usr/bin/python3
"""Structural checks of a kiln compile's Vivado package (DIR/vivado).

  check_package.py DIR BOARD_PART TCL_LOG

DIR: a kiln compile output folder with rtl/ and vivado/.  BOARD_PART: the
Vivado board part build.tcl must name.  TCL_LOG: what vivado_stubs.tcl
recorded running vivado/build.tcl then vivado/kiln.xdc.  KILN_PKG_HP in the
environment: the number of HP ports the masters must use.

Checks, each naming what is wrong:
- every port of rtl/kiln_top.v (its Verilog port list, parsed here) is a port
  of component.xml's model with its direction and width (rst as the
  active-low reset, aresetn), and nothing else is; kiln_ip.v has the same;
- every register of rtl/regmap.json is in the memory map at its offset;
- the file set names every Verilog file of rtl/ and only files that exist;
- the clock's ASSOCIATED_BUSIF lists every AXI interface, ASSOCIATED_RESET
  the reset, whose POLARITY is ACTIVE_LOW; every port map names a model port;
- build.tcl: the board part, the IP repository = vivado/, the IP cell's VLNV
  = the component's, every pin and interface it names on the cell exists in
  the component, every AXI interface is connected, PL0 at plan.json's clock,
  the flow reaches write_bitstream and bootgen; kiln.xdc names existing pins;
- kiln.dtso's u-dma-buf holds the weights and frame buffers (regmap.json),
  its uio node the register span.
"""
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

NS = {"s": "http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009"}
CELL = "kiln_0"
errors = []


def fail(msg):
    errors.append(msg)


def verilog_ports(path, module):
    """{name: (dir, width)} of module's ANSI port list."""
    text = open(path).read()
    m = re.search(r"module\s+%s\s*\((.*?)\);" % module, text, re.S)
    if not m:
        sys.exit("%s: no module %s" % (path, module))
    ports = {}
    for decl in m.group(1).split(","):
        d = re.match(r"\s*(input|output)\s+wire\s*(\[(\d+):(\d+)\])?\s*(\w+)\s*$", decl)
        if not d:
            sys.exit("%s: cannot read port declaration %r" % (path, decl))
        width = int(d.group(3)) - int(d.group(4)) + 1 if d.group(2) else 1
        ports[d.group(5)] = ("in" if d.group(1) == "input" else "out", width)
    return ports


def main():
    out, board_part, log = sys.argv[1:4]
    viv = os.path.join(out, "vivado")
    comp = ET.parse(os.path.join(viv, "component.xml")).getroot()
    if comp.tag != "{%s}component" % NS["s"]:
        fail("component.xml: root is %s, not spirit:component" % comp.tag)

    # ports
    model_ports = {}
    for p in comp.findall("s:model/s:ports/s:port", NS):
        name = p.findtext("s:name", namespaces=NS)
        d = p.findtext("s:wire/s:direction", namespaces=NS)
        left = p.findtext("s:wire/s:vector/s:left", namespaces=NS)
        right = p.findtext("s:wire/s:vector/s:right", namespaces=NS)
        model_ports[name] = (d, int(left) - int(right) + 1 if left is not None else 1)
    top = verilog_ports(os.path.join(out, "rtl", "kiln_top.v"), "kiln_top")
    want = {("aresetn" if n == "rst" else n): v for n, v in top.items()}
    for n, v in want.items():
        if n not in model_ports:
            fail("port %s of kiln_top is not in component.xml" % n)
        elif model_ports[n] != v:
            fail("port %s: component.xml says %s, kiln_top.v %s" % (n, model_ports[n], v))
    for n in model_ports:
        if n not in want:
            fail("component.xml port %s is not a port of kiln_top" % n)
    wrapper = verilog_ports(os.path.join(viv, "kiln_ip.v"), "kiln_ip")
    if wrapper != want:
        fail("kiln_ip.v's ports differ from kiln_top's (rst -> aresetn)")

    # registers
    regs = {}
    for r in comp.findall("s:memoryMaps/s:memoryMap/s:addressBlock/s:register", NS):
        regs[r.findtext("s:name", namespaces=NS)] = int(r.findtext("s:addressOffset", namespaces=NS), 0)
    regmap = json.load(open(os.path.join(out, "rtl", "regmap.json")))
    for r in regmap["registers"]:
        if regs.get(r["name"]) != r["offset"]:
            fail("register %s: offset %s in component.xml, %d in regmap.json"
                 % (r["name"], regs.get(r["name"]), r["offset"]))

    # file set
    named = {f.findtext("s:name", namespaces=NS) for f in comp.findall("s:fileSets/s:fileSet/s:file", NS)}
    for f in os.listdir(os.path.join(out, "rtl")):
        if f.endswith(".v") and "../rtl/" + f not in named:
            fail("rtl/%s is not in component.xml's file set" % f)
    for f in named:
        if not os.path.exists(os.path.join(viv, f)):
            fail("file set names %s, which does not exist" % f)

    # bus interfaces
    buses = {}
    for bi in comp.findall("s:busInterfaces/s:busInterface", NS):
        name = bi.findtext("s:name", namespaces=NS)
        params = {p.findtext("s:name", namespaces=NS): p.findtext("s:value", namespaces=NS)
                  for p in bi.findall("s:parameters/s:parameter", NS)}
        phys = [m.findtext("s:physicalPort/s:name", namespaces=NS) for m in bi.findall("s:portMaps/s:portMap", NS)]
        buses[name] = (bi.find("s:busType", NS).get("{%s}name" % NS["s"]), params, phys)
        for p in phys:
            if p not in model_ports:
                fail("bus %s maps port %s, not a model port" % (name, p))
    axi = sorted(n for n, b in buses.items() if b[0] == "aximm")
    mapped = {p for b in buses.values() for p in b[2]}
    for n in model_ports:
        if n not in mapped:
            fail("port %s belongs to no bus interface" % n)
    nmasters = len([c for c in regmap["channels"]])
    if "tsconv" in regmap:  # the shared engine's ts0..ts2, and ts3 with WCH 2
        hw = json.load(open(os.path.join(out, "plan.json")))["fold"]["hw"]
        nmasters += 3 + (hw.get("WCH", 1) == 2)
    if len(axi) != nmasters + 1:
        fail("%d AXI interfaces, want %d masters + s_axil" % (len(axi), nmasters))
    plan = json.load(open(os.path.join(out, "plan.json")))
    clocks = [b for n, b in buses.items() if b[0] == "clock" and n != "clk2x"]
    fast = buses.get("clk2x")
    if bool(fast) != bool(plan.get("clk2x")):
        fail("a clk2x clock interface %s, plan.json's clk2x %s" % (bool(fast), bool(plan.get("clk2x"))))
    resets = {n: b for n, b in buses.items() if b[0] == "reset"}
    if len(clocks) != 1 or len(resets) != 1:
        fail("want one clock and one reset interface")
    else:
        if sorted(clocks[0][1].get("ASSOCIATED_BUSIF", "").split(":")) != axi:
            fail("ASSOCIATED_BUSIF %s is not every AXI interface" % clocks[0][1].get("ASSOCIATED_BUSIF"))
        if clocks[0][1].get("ASSOCIATED_RESET") not in resets:
            fail("ASSOCIATED_RESET names no reset interface")
        if list(resets.values())[0][1].get("POLARITY") != "ACTIVE_LOW":
            fail("the reset is not ACTIVE_LOW")
    clock_port = clocks[0][2][0] if clocks else None

    # build.tcl, as the stubs recorded it
    calls = [line.rstrip("\n").split("\x1f") for line in open(log)]
    cmds = [c[0] for c in calls]
    vlnv = ":".join(comp.findtext("s:" + k, namespaces=NS) for k in ("vendor", "library", "name", "version"))
    if ["create_bd_cell", "-type", "ip", "-vlnv", vlnv, CELL] not in calls:
        fail("build.tcl does not create the IP %s as %s" % (vlnv, CELL))
    if ["set_property", "board_part", board_part, "kiln"] not in calls:
        fail("build.tcl does not set board_part %s" % board_part)
    if ["set_property", "ip_repo_paths", os.path.realpath(viv), "kiln"] not in calls:
        fail("build.tcl's IP repository is not %s" % viv)
    intf = {c[1].split("/", 1)[1] for c in calls if c[0] == "get_bd_intf_pins" and c[1].startswith(CELL + "/")}
    pins = {c[1].split("/", 1)[1] for c in calls if c[0] == "get_bd_pins" and c[1].startswith(CELL + "/")}
    for i in intf:
        if i not in buses:
            fail("build.tcl connects %s/%s, no interface of the component" % (CELL, i))
    if sorted(intf) != axi:
        fail("build.tcl connects %s, the component has %s" % (sorted(intf), axi))
    for p in pins:
        if p not in model_ports:
            fail("build.tcl connects pin %s/%s, no port of the component" % (CELL, p))
    if clock_port not in pins or "aresetn" not in pins:
        fail("build.tcl does not connect the clock and the reset")
    mhz = plan["clock_mhz"]
    # clk2x: the IP's second clock from one MMCM at twice the clock
    if fast:
        if fast[0] != "clock" or fast[2] != ["clk2x"] or "clk2x" not in pins:
            fail("clk2x is no clock interface of port clk2x that build.tcl connects")
        if not any(c[0] == "set_property" and re.search(
                r"CONFIG.CLKOUT1_REQUESTED_OUT_FREQ %.3f .*CONFIG.CLKOUT2_REQUESTED_OUT_FREQ %.3f( |$)"
                % (mhz, 2 * mhz), " ".join(c)) for c in calls):
            fail("build.tcl's MMCM does not give %g and %g MHz" % (mhz, 2 * mhz))
    if not any(c[0] == "set_property" and "CONFIG.PSU__CRL_APB__PL0_REF_CTRL__FREQMHZ" in " ".join(c)
               and re.search(r"PL0_REF_CTRL__FREQMHZ %g( |$)" % mhz, " ".join(c)) for c in calls):
        fail("build.tcl does not set PL0 to %g MHz" % mhz)
    for need in (["validate_bd_design"], ["launch_runs", "impl_1", "-to_step", "write_bitstream"],
                 ["set_property", "synth_checkpoint_mode", "None"],
                 ["set_property", "verilog_define", "KILN_XILINX_PRIMS"],
                 ["exec", "bootgen", "-arch", "zynqmp", "-process_bitstream", "bin"]):
        if not any(c[:len(need)] == need for c in calls):
            fail("build.tcl never calls %s" % " ".join(need))
    for c in calls:
        if c[0] == "get_bd_addr_segs" and c[1].startswith(CELL + "/"):
            seg = c[1].split("/")
            if seg[1] not in buses or seg[2] != comp.findtext("s:memoryMaps/s:memoryMap/s:addressBlock/s:name", namespaces=NS):
                fail("build.tcl names address segment %s, not in the component" % c[1])
    xdc = [c for c in calls if c[0] == "get_pins"]
    for c in xdc:
        m = re.search(r"%s/(\w+)" % CELL, " ".join(c))
        if not m or m.group(1) not in model_ports:
            fail("kiln.xdc names pin %s, no port of the component" % " ".join(c))
    # the masters' SmartConnects: at most 16 slaves each, as many as set, each
    # into its own HP port, enabled in the PS; with more of them than HP
    # ports, each into a second-level sc_hp<r> that goes into its own HP port
    ps_cfg = " ".join(" ".join(c) for c in calls if c[0] == "set_property" and "CONFIG.PSU__FPGA_PL0_ENABLE" in " ".join(c))
    hp_used = []
    scs = {c[1].split("/")[0] for c in calls if c[0] == "get_bd_intf_pins" and re.match(r"sc_(mem|hp)\d", c[1])}
    roots = sorted(sc for sc in scs if sc.startswith("sc_hp"))
    for sc in sorted(scs):
        nsi = [c for c in calls if c[0] == "set_property" and c[-1] == sc]
        m = re.search(r"CONFIG.NUM_SI (\d+)", " ".join(nsi[0])) if nsi else None
        conn = {c[2 if c[0] == "connect_bd_intf_net" else 1] for c in calls
                if c[0] == "connect_bd_intf_net" and re.match(sc + r"/S\d\d_AXI$", c[2])}
        if not m or int(m.group(1)) != len(conn) or len(conn) > 16:
            fail("%s: NUM_SI %s, %d slaves connected (at most 16)" % (sc, m and m.group(1), len(conn)))
        for i, c in enumerate(calls):
            if c[0] == "connect_bd_intf_net" and c[1] == sc + "/M00_AXI":
                to = c[2].split("/")
                if to[0] == "zynq_ultra_ps_e_0":
                    if sc.startswith("sc_mem") and roots:
                        fail("%s goes into %s beside second-level SmartConnects" % (sc, to[1]))
                    hp_used.append(to[1])
                elif not (sc.startswith("sc_mem") and to[0] in roots):
                    fail("%s goes into %s" % (sc, c[2]))
    # the shared engine's second weight master (WCH 2): alone on its
    # SmartConnect, which alone goes into its HP port
    for c in calls:
        if c[0] == "connect_bd_intf_net" and c[1] == CELL + "/m_axi_ts3":
            sc = c[2].split("/")[0]
            n = [d for d in calls if d[0] == "connect_bd_intf_net" and d[2].startswith(sc + "/S")]
            if len(n) != 1 or roots:
                fail("m_axi_ts3 shares %s with %d other masters" % (sc, len(n) - 1))
    # every SmartConnect made before a net names it
    made = set()
    for c in calls:
        if c[0] == "create_bd_cell":
            made.add(c[-1])
        elif c[0] == "get_bd_intf_pins" and c[1].split("/")[0] in scs and c[1].split("/")[0] not in made:
            fail("build.tcl names %s before it makes it" % c[1])
    for hp in hp_used:
        k = re.match(r"S_AXI_HP(\d)_FPD$", hp)
        if not k or "CONFIG.PSU__USE__S_AXI_GP%d 1" % (2 + int(k.group(1))) not in ps_cfg:
            fail("%s is not an HP port the PS enables" % hp)
    want_hp = int(os.environ.get("KILN_PKG_HP", "0"))
    if want_hp and len(hp_used) != want_hp:
        fail("the masters use %d HP ports, want %d" % (len(hp_used), want_hp))
    if len(set(hp_used)) != len(hp_used) or not hp_used:
        fail("the SmartConnects share HP ports or there are none: %s" % hp_used)
    if cmds.index("validate_bd_design") < cmds.index("assign_bd_address"):
        fail("build.tcl validates before assigning addresses")

    # kiln.dtso
    dtso = open(os.path.join(viv, "kiln.dtso")).read()
    frames, seen = 0, set()
    for c in regmap["channels"]:
        if "value" not in c or (c["dir"] == "rd" and "source" in c) or c["value"] in seen:
            continue
        seen.add(c["value"])
        frames += c["frame_bytes"]
    need = regmap["weights_bytes"] + frames
    need = (need + 4095) // 4096 * 4096
    m = re.search(r'"ikwzm,u-dma-buf";.*?size = <0x([0-9a-f]+) 0x([0-9a-f]+)>', dtso, re.S)
    if not m or (int(m.group(1), 16) << 32 | int(m.group(2), 16)) != need:
        fail("kiln.dtso's u-dma-buf size is not %d (weights + frame buffers)" % need)
    if not re.search(r'"generic-uio";\s*reg = <0x0 0xa0000000 0x0 0x%x>' % (1 << regmap["axil_addr_bits"]), dtso):
        fail("kiln.dtso's uio node does not cover the registers")

    for e in errors:
        print("check_package: " + e)
    print("check_package: %d ports, %d registers, %d files, %d Vivado calls: %s"
          % (len(model_ports), len(regs), len(named), len(calls), "FAIL" if errors else "ok"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
