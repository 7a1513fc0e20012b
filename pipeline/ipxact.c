/*
 * ipxact.c: component.xml, the design as a Vivado IP in IP-XACT (IEEE
 * 1685-2009, the SPIRIT namespace Vivado's IP packager reads), built with
 * libxml2's tree API.
 *
 * The component's top is kiln_ip (package.c): kiln_top's ports (from
 * rtl_top_ports, the list the top is emitted from) with rst replaced by the
 * active-low reset.  Bus interfaces: s_axil (AXI4-Lite slave; its memory map
 * is rtl_registers, the list regmap.json is written from, and the PERF
 * pairs), one AXI4 master per DMA channel (m_axi_<ch>, with an address space
 * of the DDR address width), the clock (ASSOCIATED_BUSIF all of them,
 * ASSOCIATED_RESET the reset), the reset (POLARITY ACTIVE_LOW) and the
 * interrupt irq (SENSITIVITY LEVEL_HIGH, done & IER).  The file set names every Verilog
 * file of rtl/ (by path relative to vivado/) and kiln_ip.v.
 */
#include "pipeline/internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#define SPIRIT_NS "http://www.spiritconsortium.org/XMLSchema/SPIRIT/1685-2009"
#define XILINX_NS "http://www.xilinx.com"

/* The document's namespaces. */
typedef struct {
    xmlNs *sp; /* spirit: */
    xmlNs *xi; /* xilinx: */
} Ns;

/* <spirit:name>text</spirit:name> (and the like) under parent. */
static xmlNode *el(xmlNode *parent, const Ns *ns, const char *name, const char *text)
{
    xmlNode *n = xmlNewTextChild(parent, ns->sp, (const xmlChar *)name, (const xmlChar *)text);
    if (!n)
        gir_die("out of memory");
    return n;
}

/* The same with a number as text. */
static xmlNode *el_num(xmlNode *parent, const Ns *ns, const char *name, int64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    return el(parent, ns, name, buf);
}

static void set_attr(xmlNode *n, xmlNs *ns, const char *name, const char *value)
{
    if (!xmlSetNsProp(n, ns, (const xmlChar *)name, (const xmlChar *)value))
        gir_die("out of memory");
}

/* A bus or abstraction type reference: vendor:library:name:version. */
static void vlnv(xmlNode *parent, const Ns *ns, const char *tag, const char *lib,
                 const char *name)
{
    xmlNode *n = el(parent, ns, tag, NULL);
    set_attr(n, ns->sp, "vendor", "xilinx.com");
    set_attr(n, ns->sp, "library", lib);
    set_attr(n, ns->sp, "name", name);
    set_attr(n, ns->sp, "version", "1.0");
}

/* <spirit:parameter> name = value under bus interface busif's
 * <spirit:parameters>, with the value id Vivado's packager gives it. */
static void param(xmlNode *params, const Ns *ns, const char *busif, const char *name,
                  const char *value)
{
    xmlNode *p = el(params, ns, "parameter", NULL);
    char up[48], id[96];
    rtl_upper(busif, up, sizeof up);
    snprintf(id, sizeof id, "BUSIFPARAM_VALUE.%s.%s", up, name);
    el(p, ns, "name", name);
    set_attr(el(p, ns, "value", value), ns->sp, "id", id);
}

/* <spirit:portMap>: logical port (upper case of sig) to physical port. */
static void port_map(xmlNode *maps, const Ns *ns, const char *sig, const char *phys)
{
    char up[32];
    xmlNode *m = el(maps, ns, "portMap", NULL);
    rtl_upper(sig, up, sizeof up);
    el(el(m, ns, "logicalPort", NULL), ns, "name", up);
    el(el(m, ns, "physicalPort", NULL), ns, "name", phys);
}

/* An AXI4 bus interface: bus = "s_axil" (slave) or a channel name (master
 * m_axi_<bus>); its port maps from the top's port list. */
static void axi_bus(xmlNode *bis, const Ns *ns, const RtlPort *v, int n, const char *bus)
{
    char name[48];
    xmlNode *bi = el(bis, ns, "busInterface", NULL), *maps, *ref;
    int i, slave = strcmp(bus, "s_axil") == 0;
    snprintf(name, sizeof name, slave ? "%s" : "m_axi_%s", bus);
    el(bi, ns, "name", name);
    vlnv(bi, ns, "busType", "interface", "aximm");
    vlnv(bi, ns, "abstractionType", "interface", "aximm_rtl");
    if (slave) {
        ref = el(el(bi, ns, "slave", NULL), ns, "memoryMapRef", NULL);
        set_attr(ref, ns->sp, "memoryMapRef", name);
    } else {
        ref = el(el(bi, ns, "master", NULL), ns, "addressSpaceRef", NULL);
        set_attr(ref, ns->sp, "addressSpaceRef", name);
    }
    maps = el(bi, ns, "portMaps", NULL);
    for (i = 0; i < n; i++)
        if (v[i].bus && strcmp(v[i].bus, bus) == 0)
            port_map(maps, ns, v[i].sig, v[i].name);
}

/* A clock, reset or interrupt interface (xilinx.com:signal:<kind>:1.0) on
 * one port; master: 1 when the IP drives it (the interrupt). */
static xmlNode *signal_bus(xmlNode *bis, const Ns *ns, const char *name, const char *kind,
                           const char *logical, const char *phys, int master)
{
    char abs[32];
    xmlNode *bi = el(bis, ns, "busInterface", NULL), *m;
    snprintf(abs, sizeof abs, "%s_rtl", kind);
    el(bi, ns, "name", name);
    vlnv(bi, ns, "busType", "signal", kind);
    vlnv(bi, ns, "abstractionType", "signal", abs);
    el(bi, ns, master ? "master" : "slave", NULL);
    m = el(el(bi, ns, "portMaps", NULL), ns, "portMap", NULL);
    el(el(m, ns, "logicalPort", NULL), ns, "name", logical);
    el(el(m, ns, "physicalPort", NULL), ns, "name", phys);
    return el(bi, ns, "parameters", NULL);
}

static void bus_interfaces(const Gen *G, xmlNode *comp, const Ns *ns, const RtlPort *v, int n)
{
    xmlNode *bis = el(comp, ns, "busInterfaces", NULL), *params;
    char *busif;
    size_t len = 0, need = 16;
    int i;
    axi_bus(bis, ns, v, n, "s_axil");
    for (i = 0; i < G->c.nch; i++) {
        axi_bus(bis, ns, v, n, G->c.ch[i].name);
        need += strlen(G->c.ch[i].name) + 8;
    }
    busif = malloc(need);
    if (!busif)
        gir_die("out of memory");
    len += (size_t)snprintf(busif, need, "s_axil");
    for (i = 0; i < G->c.nch; i++)
        len += (size_t)snprintf(busif + len, need - len, ":m_axi_%s", G->c.ch[i].name);
    params = signal_bus(bis, ns, "clk", "clock", "CLK", "clk", 0);
    param(params, ns, "clk", "ASSOCIATED_BUSIF", busif);
    param(params, ns, "clk", "ASSOCIATED_RESET", RTL_PKG_RESETN);
    if (G->p->clk2x) /* the MAC arrays' clock: no bus of its own, edge-aligned with clk */
        signal_bus(bis, ns, "clk2x", "clock", "CLK", "clk2x", 0);
    params = signal_bus(bis, ns, RTL_PKG_RESETN, "reset", "RST", RTL_PKG_RESETN, 0);
    param(params, ns, RTL_PKG_RESETN, "POLARITY", "ACTIVE_LOW");
    params = signal_bus(bis, ns, "irq", "interrupt", "INTERRUPT", "irq", 1);
    param(params, ns, "irq", "SENSITIVITY", "LEVEL_HIGH");
    free(busif);
}

/* One address space per master: the DDR address width, the channel's data
 * width. */
static void address_spaces(const Gen *G, xmlNode *comp, const Ns *ns)
{
    xmlNode *as = el(comp, ns, "addressSpaces", NULL), *a;
    char name[48], range[32];
    int i;
    snprintf(range, sizeof range, "%" PRIu64, (uint64_t)1 << HLS_HW_ADDR_W);
    for (i = 0; i < G->c.nch; i++) {
        snprintf(name, sizeof name, "m_axi_%s", G->c.ch[i].name);
        a = el(as, ns, "addressSpace", NULL);
        el(a, ns, "name", name);
        el(a, ns, "range", range);
        el_num(a, ns, "width", G->c.ch[i].data_w);
    }
}

static const char *ipxact_access(const char *a)
{
    return strcmp(a, "r") == 0 ? "read-only" : strcmp(a, "w") == 0 ? "write-only" : "read-write";
}

static void reg(xmlNode *blk, const Ns *ns, const char *name, int offset, const char *access)
{
    char off[16];
    xmlNode *r = el(blk, ns, "register", NULL);
    snprintf(off, sizeof off, "0x%X", offset);
    el(r, ns, "name", name);
    el(r, ns, "addressOffset", off);
    el_num(r, ns, "size", 32);
    el(r, ns, "access", access);
}

/* The AXI-Lite memory map: regmap.json's registers, then each stage's
 * PERF pair (rf_perf + 8 i: first and last output beat's cycle). */
static void memory_map(const Gen *G, xmlNode *comp, const Ns *ns)
{
    xmlNode *mm = el(el(comp, ns, "memoryMaps", NULL), ns, "memoryMap", NULL), *blk;
    RtlReg *r;
    char name[40];
    int i, n;
    el(mm, ns, "name", "s_axil");
    blk = el(mm, ns, "addressBlock", NULL);
    el(blk, ns, "name", "reg0");
    el(blk, ns, "baseAddress", "0");
    el_num(blk, ns, "range", RTL_PKG_AXIL_SPAN(G));
    el_num(blk, ns, "width", 32);
    el(blk, ns, "usage", "register");
    r = rtl_registers(G, &n);
    for (i = 0; i < n; i++)
        reg(blk, ns, r[i].name, r[i].offset, ipxact_access(r[i].access));
    free(r);
    for (i = 0; i < G->p->nstage; i++) {
        snprintf(name, sizeof name, "PERF%d_FIRST", i);
        reg(blk, ns, name, G->c.rf_perf + 8 * i, "read-only");
        snprintf(name, sizeof name, "PERF%d_LAST", i);
        reg(blk, ns, name, G->c.rf_perf + 8 * i + 4, "read-only");
    }
}

/* model: a synthesis and a simulation view of kiln_ip, and its ports. */
static void model(xmlNode *comp, const Ns *ns, const RtlPort *v, int n)
{
    static const char *const views[2][2] = {
        {"xilinx_anylanguagesynthesis", ":vivado.xilinx.com:synthesis"},
        {"xilinx_anylanguagebehavioralsimulation", ":vivado.xilinx.com:simulation"}};
    xmlNode *m = el(comp, ns, "model", NULL), *vs = el(m, ns, "views", NULL), *ports;
    int i;
    for (i = 0; i < 2; i++) {
        xmlNode *view = el(vs, ns, "view", NULL);
        el(view, ns, "name", views[i][0]);
        el(view, ns, "envIdentifier", views[i][1]);
        el(view, ns, "language", "Verilog");
        el(view, ns, "modelName", "kiln_ip");
        el(el(view, ns, "fileSetRef", NULL), ns, "localName", "kiln_rtl");
    }
    ports = el(m, ns, "ports", NULL);
    for (i = 0; i < n; i++) {
        xmlNode *p = el(ports, ns, "port", NULL), *w;
        el(p, ns, "name", strcmp(v[i].name, "rst") == 0 ? RTL_PKG_RESETN : v[i].name);
        w = el(p, ns, "wire", NULL);
        el(w, ns, "direction", v[i].out ? "out" : "in");
        if (v[i].width > 1) {
            xmlNode *vec = el(w, ns, "vector", NULL);
            el_num(vec, ns, "left", v[i].width - 1);
            el_num(vec, ns, "right", 0);
        }
    }
}

static void file_sets(const Gen *G, xmlNode *comp, const Ns *ns)
{
    const char *files[T_COUNT + 2];
    char path[96];
    xmlNode *fs = el(el(comp, ns, "fileSets", NULL), ns, "fileSet", NULL), *f;
    int i, n = rtl_package_rtl_files(G, files);
    el(fs, ns, "name", "kiln_rtl");
    for (i = 0; i <= n; i++) {
        if (i < n)
            snprintf(path, sizeof path, "../rtl/%s", files[i]);
        else
            snprintf(path, sizeof path, "kiln_ip.v");
        f = el(fs, ns, "file", NULL);
        el(f, ns, "name", path);
        el(f, ns, "fileType", "verilogSource");
    }
}

/* Vivado's own extensions: the family, the catalog folder, a display name. */
static void vendor_extensions(const Gen *G, xmlNode *comp, const Ns *ns)
{
    xmlNode *ce = xmlNewChild(el(comp, ns, "vendorExtensions", NULL), ns->xi,
                              (const xmlChar *)"coreExtensions", NULL);
    xmlNode *fam, *tax;
    char model[128], disp[192];
    if (!ce)
        gir_die("out of memory");
    fam = xmlNewChild(xmlNewChild(ce, ns->xi, (const xmlChar *)"supportedFamilies", NULL), ns->xi,
                      (const xmlChar *)"family", (const xmlChar *)"zynquplus");
    if (!fam)
        gir_die("out of memory");
    set_attr(fam, ns->xi, "lifeCycle", "Production");
    tax = xmlNewChild(ce, ns->xi, (const xmlChar *)"taxonomies", NULL);
    if (!tax || !xmlNewChild(tax, ns->xi, (const xmlChar *)"taxonomy", (const xmlChar *)"/UserIP"))
        gir_die("out of memory");
    rtl_safe_name(G->p->model, model, sizeof model);
    snprintf(disp, sizeof disp, "kiln accelerator (%s, %s)", model, G->p->board.name);
    if (!xmlNewTextChild(ce, ns->xi, (const xmlChar *)"displayName", (const xmlChar *)disp) ||
        !xmlNewChild(ce, ns->xi, (const xmlChar *)"coreRevision", (const xmlChar *)"1"))
        gir_die("out of memory");
}

void rtl_emit_component(const Gen *G, char **text, size_t *len)
{
    xmlDoc *doc = xmlNewDoc((const xmlChar *)"1.0");
    xmlNode *comp;
    xmlChar *out = NULL;
    char desc[256], model_name[128];
    int n, size = 0;
    RtlPort *v;
    Ns ns;
    if (!doc)
        gir_die("out of memory");
    comp = xmlNewNode(NULL, (const xmlChar *)"component");
    if (!comp)
        gir_die("out of memory");
    xmlDocSetRootElement(doc, comp);
    ns.sp = xmlNewNs(comp, (const xmlChar *)SPIRIT_NS, (const xmlChar *)"spirit");
    ns.xi = xmlNewNs(comp, (const xmlChar *)XILINX_NS, (const xmlChar *)"xilinx");
    if (!ns.sp || !ns.xi)
        gir_die("out of memory");
    xmlSetNs(comp, ns.sp);
    el(comp, &ns, "vendor", RTL_PKG_VENDOR);
    el(comp, &ns, "library", RTL_PKG_LIBRARY);
    el(comp, &ns, "name", RTL_PKG_NAME);
    el(comp, &ns, "version", RTL_PKG_VERSION);
    v = rtl_top_ports(G, &n);
    bus_interfaces(G, comp, &ns, v, n);
    address_spaces(G, comp, &ns);
    memory_map(G, comp, &ns);
    model(comp, &ns, v, n);
    file_sets(G, comp, &ns);
    rtl_safe_name(G->p->model, model_name, sizeof model_name);
    snprintf(desc, sizeof desc,
             "kiln accelerator of %s for %s at %.0f MHz (generated by kiln compile, plan hash "
             "0x%016" PRIx64 ")",
             model_name, G->p->board.name, G->p->mhz, G->hash);
    el(comp, &ns, "description", desc);
    vendor_extensions(G, comp, &ns);
    free(v);
    xmlDocDumpFormatMemoryEnc(doc, &out, &size, "UTF-8", 1);
    xmlFreeDoc(doc);
    if (!out)
        gir_die("out of memory");
    *text = malloc((size_t)size + 1);
    if (!*text)
        gir_die("out of memory");
    memcpy(*text, out, (size_t)size + 1);
    *len = (size_t)size;
    xmlFree(out);
}
