// C shim around the Verilated kiln_axi_wr (see sim/tb/tb_axi_wr.c).
#include "Vkiln_axi_wr.h"
#include "axi_shim.h"
#include "stream_shim.h"

struct AxiWrSim {
    VerilatedContext ctx;
    Vkiln_axi_wr *m;
};

void *axi_wr_new(void)
{
    AxiWrSim *s = new AxiWrSim;
    s->m = new Vkiln_axi_wr(&s->ctx);
    return s;
}

void axi_wr_free(void *h)
{
    AxiWrSim *s = (AxiWrSim *)h;
    s->m->final();
    delete s->m;
    delete s;
}

void axi_wr_tick(void *h, AxiWrPins *p)
{
    Vkiln_axi_wr *m = ((AxiWrSim *)h)->m;
    const int nb = (int)sizeof(m->m_axi_wdata);
    m->rst = p->rst;
    m->cfg_base = p->base;
    m->cfg_bytes = p->bytes;
    m->cfg_row_beats = p->row_beats;
    m->cfg_row_stride = p->row_stride;
    m->start = p->start;
    m->s_tvalid = p->s_tvalid;
    kiln_port_put(m->s_tdata, p->s_tdata, nb);
    m->m_axi_awready = p->awready;
    m->m_axi_wready = p->wready;
    m->m_axi_bvalid = p->bvalid;
    m->m_axi_bresp = p->bresp;
    m->eval();
    p->busy = m->busy;
    p->done = m->done;
    p->error = m->error;
    p->s_tready = m->s_tready;
    p->awvalid = m->m_axi_awvalid;
    p->awaddr = m->m_axi_awaddr;
    p->awlen = m->m_axi_awlen;
    p->awsize = m->m_axi_awsize;
    p->awburst = m->m_axi_awburst;
    p->wvalid = m->m_axi_wvalid;
    kiln_port_get(m->m_axi_wdata, p->wdata, nb);
    p->wstrb = m->m_axi_wstrb;
    p->wlast = m->m_axi_wlast;
    p->bready = m->m_axi_bready;
    tbs_edge(m);
}
