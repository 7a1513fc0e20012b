// C shim around the Verilated kiln_tsconv (see sim/tb/tb_tsconv.c).
#include "Vkiln_tsconv.h"
#include "verilated.h"
#include "tb_util.h"

#ifndef KILN_TB_DSP2X
#define KILN_TB_DSP2X 0 /* 1, 2: kiln_conv's multipliers on clk2x (its DSP2X) */
#endif

extern "C" {
#include "tsconv_shim.h"
}
#include "clk2x_tick.h"

struct TsSim {
    VerilatedContext ctx;
    Vkiln_tsconv *m;
};

extern "C" TsSim *ts_new(void)
{
    TsSim *s = new TsSim;
    s->m = new Vkiln_tsconv(&s->ctx);
    s->m->clk = 0;
    s->m->rst = 1;
    s->m->eval();
    return s;
}

extern "C" void ts_free(TsSim *s)
{
    s->m->final();
    delete s->m;
    delete s;
}

extern "C" void ts_eval(TsSim *s, TsPins *p)
{
    Vkiln_tsconv *m = s->m;
    m->rst = p->rst;
    m->cfg_desc_base = p->desc_base;
    m->cfg_layers = (uint16_t)p->layers;
    m->cfg_frames = p->frames;
    m->cfg_tbl_base = p->tbl_base;
    m->cfg_tbl_len = (uint16_t)p->tbl_len;
    m->avail = p->avail;
    m->start = p->start;
    m->m0_axi_arready = p->arready[0];
    m->m0_axi_rvalid = p->rvalid[0];
    kiln_port_put(m->m0_axi_rdata, p->rdata[0], TS_BUS);
    m->m0_axi_rresp = 0;
    m->m0_axi_rlast = p->rlast[0];
    m->m1_axi_arready = p->arready[1];
    m->m1_axi_rvalid = p->rvalid[1];
    kiln_port_put(m->m1_axi_rdata, p->rdata[1], TS_BUS);
    m->m1_axi_rresp = 0;
    m->m1_axi_rlast = p->rlast[1];
    m->m3_axi_arready = p->arready[2];
    m->m3_axi_rvalid = p->rvalid[2];
    kiln_port_put(m->m3_axi_rdata, p->rdata[2], TS_BUS);
    m->m3_axi_rresp = 0;
    m->m3_axi_rlast = p->rlast[2];
    m->m2_axi_awready = p->awready;
    m->m2_axi_wready = p->wready;
    m->m2_axi_bvalid = p->bvalid;
    m->m2_axi_bresp = 0;
    m->eval();
    p->busy = m->busy;
    p->done = m->done;
    p->error = m->error;
    p->layer = m->layer;
    p->finished = m->finished;
    p->arvalid[0] = m->m0_axi_arvalid;
    p->araddr[0] = m->m0_axi_araddr;
    p->arlen[0] = m->m0_axi_arlen;
    p->rready[0] = m->m0_axi_rready;
    p->arvalid[1] = m->m1_axi_arvalid;
    p->araddr[1] = m->m1_axi_araddr;
    p->arlen[1] = m->m1_axi_arlen;
    p->rready[1] = m->m1_axi_rready;
    p->arvalid[2] = m->m3_axi_arvalid;
    p->araddr[2] = m->m3_axi_araddr;
    p->arlen[2] = m->m3_axi_arlen;
    p->rready[2] = m->m3_axi_rready;
    p->awvalid = m->m2_axi_awvalid;
    p->awaddr = m->m2_axi_awaddr;
    p->awlen = m->m2_axi_awlen;
    p->wvalid = m->m2_axi_wvalid;
    kiln_port_get(m->m2_axi_wdata, p->wdata, TS_BUS);
    p->wstrb = m->m2_axi_wstrb;
    p->wlast = m->m2_axi_wlast;
    p->bready = m->m2_axi_bready;
}

/* One clk cycle (DSP2X: clk2x at twice the rate, clk2x_tick.h). */
extern "C" void ts_tick(TsSim *s)
{
#if KILN_TB_DSP2X
    kiln_tick2x(s->m);
#else
    s->m->clk = 1;
    s->m->eval();
    s->m->clk = 0;
    s->m->eval();
#endif
}
