// C shim around the Verilated kiln_axi_rd (see sim/tb/tb_axi_rd.c).
#include "Vkiln_axi_rd.h"
#include "axi_shim.h"
#include "stream_shim.h"

struct AxiRdSim {
    VerilatedContext ctx;
    Vkiln_axi_rd *m;
};

void *axi_rd_new(void)
{
    AxiRdSim *s = new AxiRdSim;
    s->m = new Vkiln_axi_rd(&s->ctx);
    return s;
}

void axi_rd_free(void *h)
{
    AxiRdSim *s = (AxiRdSim *)h;
    s->m->final();
    delete s->m;
    delete s;
}

void axi_rd_tick(void *h, AxiRdPins *p)
{
    Vkiln_axi_rd *m = ((AxiRdSim *)h)->m;
    const int nb = (int)sizeof(m->m_tdata);
    m->rst = p->rst;
    m->cfg_base = p->base;
    m->cfg_bytes = p->bytes;
    m->start = p->start;
    m->m_axi_arready = p->arready;
    m->m_axi_rvalid = p->rvalid;
    kiln_port_put(m->m_axi_rdata, p->rdata, nb);
    m->m_axi_rresp = p->rresp;
    m->m_axi_rlast = p->rlast;
    m->m_tready = p->m_tready;
    m->eval();
    p->busy = m->busy;
    p->done = m->done;
    p->error = m->error;
    p->arvalid = m->m_axi_arvalid;
    p->araddr = m->m_axi_araddr;
    p->arlen = m->m_axi_arlen;
    p->arsize = m->m_axi_arsize;
    p->arburst = m->m_axi_arburst;
    p->rready = m->m_axi_rready;
    p->m_tvalid = m->m_tvalid;
    kiln_port_get(m->m_tdata, p->m_tdata, nb);
    tbs_edge(m);
}
