// Thin shim around the Verilated kiln_top: copies HsPins to and from the
// model's ports.  The channel list comes from the generated rtl/kiln_ports.h
// (KILN_RD_CHANNELS / KILN_WR_CHANNELS X-macros: name, DATA_W); all logic
// lives in harness.c.
#include <cstdint>

#include "Vkiln_top.h"
#include "verilated.h"

#include "harness.h"
#include "kiln_ports.h"
#include "port_bytes.h"

#define HS_PORT(name, w) {#name, w},
static const HsPort rd_ports[] = {KILN_RD_CHANNELS(HS_PORT){nullptr, 0}};
static const HsPort wr_ports[] = {KILN_WR_CHANNELS(HS_PORT){nullptr, 0}};

extern "C" void hs_top_ports(const HsPort **rd, int *nrd, const HsPort **wr, int *nwr)
{
    *rd = rd_ports;
    *nrd = (int)(sizeof rd_ports / sizeof rd_ports[0]) - 1;
    *wr = wr_ports;
    *nwr = (int)(sizeof wr_ports / sizeof wr_ports[0]) - 1;
}

extern "C" void *hs_top_new(void)
{
    Vkiln_top *t = new Vkiln_top;
    t->clk = 0;
#ifdef KILN_TOP_CLK2X
    t->clk2x = 0;
#endif
    t->rst = 1;
    t->eval();
    return t;
}

extern "C" void hs_top_free(void *top)
{
    Vkiln_top *t = static_cast<Vkiln_top *>(top);
    t->final();
    delete t;
}

extern "C" void hs_top_cycle(void *top, HsPins *p)
{
    Vkiln_top *t = static_cast<Vkiln_top *>(top);
    int i;
    t->rst = p->rst;
    t->s_axil_awvalid = p->lite.awvalid;
    t->s_axil_awaddr = p->lite.awaddr;
    t->s_axil_wvalid = p->lite.wvalid;
    t->s_axil_wdata = p->lite.wdata;
    t->s_axil_wstrb = p->lite.wstrb;
    t->s_axil_bready = p->lite.bready;
    t->s_axil_arvalid = p->lite.arvalid;
    t->s_axil_araddr = p->lite.araddr;
    t->s_axil_rready = p->lite.rready;
#define HS_RD_IN(name, w)                                   \
    t->m_axi_##name##_arready = p->rd[i].arready;           \
    t->m_axi_##name##_rvalid = p->rd[i].rvalid;             \
    kiln_port_put(t->m_axi_##name##_rdata, p->rd[i].rdata, (w) / 8);  \
    t->m_axi_##name##_rresp = p->rd[i].rresp;               \
    t->m_axi_##name##_rlast = p->rd[i].rlast;               \
    i++;
#define HS_WR_IN(name, w)                                   \
    t->m_axi_##name##_awready = p->wr[i].awready;           \
    t->m_axi_##name##_wready = p->wr[i].wready;             \
    t->m_axi_##name##_bvalid = p->wr[i].bvalid;             \
    t->m_axi_##name##_bresp = p->wr[i].bresp;               \
    i++;
    i = 0;
    KILN_RD_CHANNELS(HS_RD_IN)
    i = 0;
    KILN_WR_CHANNELS(HS_WR_IN)
#ifdef KILN_TOP_CLK2X
    /* clk2x: twice clk, its rising edges on both of clk's edges (synchronous,
     * edge-aligned; kiln_conv stops the run if they are not) */
    t->clk2x = 0;
    t->eval();
    t->clk2x = 1;
    t->clk = 0;
    t->eval();
    t->clk2x = 0;
#else
    t->clk = 0;
#endif
    t->eval();
    p->lite.awready = t->s_axil_awready;
    p->lite.wready = t->s_axil_wready;
    p->lite.bvalid = t->s_axil_bvalid;
    p->lite.bresp = t->s_axil_bresp;
    p->lite.arready = t->s_axil_arready;
    p->lite.rvalid = t->s_axil_rvalid;
    p->lite.rdata = t->s_axil_rdata;
    p->lite.rresp = t->s_axil_rresp;
#ifdef KILN_TOP_IRQ
    p->irq = t->irq;
#else
    p->irq = -1;
#endif
#define HS_RD_OUT(name, w)                                  \
    p->rd[i].arvalid = t->m_axi_##name##_arvalid;           \
    p->rd[i].araddr = t->m_axi_##name##_araddr;             \
    p->rd[i].arlen = t->m_axi_##name##_arlen;               \
    p->rd[i].arsize = t->m_axi_##name##_arsize;             \
    p->rd[i].arburst = t->m_axi_##name##_arburst;           \
    p->rd[i].rready = t->m_axi_##name##_rready;             \
    i++;
#define HS_WR_OUT(name, w)                                  \
    p->wr[i].awvalid = t->m_axi_##name##_awvalid;           \
    p->wr[i].awaddr = t->m_axi_##name##_awaddr;             \
    p->wr[i].awlen = t->m_axi_##name##_awlen;               \
    p->wr[i].awsize = t->m_axi_##name##_awsize;             \
    p->wr[i].awburst = t->m_axi_##name##_awburst;           \
    p->wr[i].wvalid = t->m_axi_##name##_wvalid;             \
    kiln_port_get(t->m_axi_##name##_wdata, p->wr[i].wdata, (w) / 8);  \
    p->wr[i].wstrb = t->m_axi_##name##_wstrb;               \
    p->wr[i].wlast = t->m_axi_##name##_wlast;               \
    p->wr[i].bready = t->m_axi_##name##_bready;             \
    i++;
    i = 0;
    KILN_RD_CHANNELS(HS_RD_OUT)
    i = 0;
    KILN_WR_CHANNELS(HS_WR_OUT)
    (void)i;
#ifdef KILN_TOP_CLK2X
    t->clk2x = 1;
#endif
    t->clk = 1;
    t->eval();
}

int main(int argc, char **argv)
{
    // the plusargs (+kiln_bp=, +kiln_bp_seed=) for kiln_bp_gate's
    // $value$plusargs, read when the model is first evaluated
    Verilated::commandArgs(argc, argv);
    return hs_main(argc, argv);
}
