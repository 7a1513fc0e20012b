// C shim around the Verilated kiln_conv, or kiln_dwconv when KILN_TB_DW is
// defined (KILN_TB_PE_IC / KILN_TB_PE_OC lanes).  One shim serves both: the
// engines share their stream and weight ports and differ in the channel cfg.
#ifdef KILN_TB_DW
#include "Vkiln_dwconv.h"
typedef Vkiln_dwconv Vengine;
#else
#include "Vkiln_conv.h"
typedef Vkiln_conv Vengine;
#endif
#include "verilated.h"
#include "tb_util.h"
#include <cstdlib>
#include <cstring>
#ifndef KILN_TB_DSP2X
#define KILN_TB_DSP2X 0
#endif

extern "C" {
#include "conv_shim.h"
}
#include "clk2x_tick.h"

struct CvSim {
    VerilatedContext ctx;
    Vengine *m;
    int clk2x_same; /* KILN_TB_CLK2X=same: clk2x is clk (the clock check must stop) */
};

extern "C" CvSim *cv_new(void)
{
    CvSim *s = new CvSim;
    s->m = new Vengine(&s->ctx);
    const char *ck = getenv("KILN_TB_CLK2X");
    s->clk2x_same = ck && strcmp(ck, "same") == 0;
    s->m->clk = 0;
    s->m->rst = 1;
    s->m->eval();
    return s;
}

extern "C" void cv_free(CvSim *s)
{
    s->m->final();
    delete s->m;
    delete s;
}

extern "C" void cv_set(CvSim *s, const CvIn *in)
{
    Vengine *m = s->m;
    m->rst = in->rst;
    m->cfg_h = in->h;
    m->cfg_w = in->w;
#ifdef KILN_TB_DW
    m->cfg_cg = in->icg;
#else
    m->cfg_icg = in->icg;
    m->cfg_ocg = in->ocg;
    m->cfg_tog = in->tog;
    m->cfg_band = in->band;
#endif
    m->cfg_k = in->k;
    m->cfg_stride = in->stride;
    m->cfg_pad = in->pad;
    m->cfg_wreload = in->wreload;
    m->s_tvalid = in->s_tvalid;
    kiln_port_put(m->s_tdata, in->s_tdata, KILN_TB_PE_IC);
    m->w_tvalid = in->w_tvalid;
    kiln_port_put(m->w_tdata, in->w_tdata, KILN_TB_PE_IC);
    m->m_tready = in->m_tready;
    m->eval();
}

extern "C" void cv_get(CvSim *s, CvOut *out)
{
    out->s_tready = s->m->s_tready;
    out->w_tready = s->m->w_tready;
    out->m_tvalid = s->m->m_tvalid;
    kiln_port_get(s->m->m_tdata, out->m_tdata, KILN_TB_PE_OC);
}

/* One clk cycle (DSP2X: clk2x at twice the rate, clk2x_tick.h). */
extern "C" void cv_tick(CvSim *s)
{
#if KILN_TB_DSP2X && !KILN_TB_DW
    if (s->clk2x_same) {
        s->m->clk2x = 1;
        s->m->clk = 1;
        s->m->eval();
        s->m->clk2x = 0;
        s->m->clk = 0;
        s->m->eval();
        return;
    }
    kiln_tick2x(s->m);
#else
    (void)s->clk2x_same;
    s->m->clk = 1;
    s->m->eval();
    s->m->clk = 0;
    s->m->eval();
#endif
}
