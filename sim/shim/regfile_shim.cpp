// C shim around the Verilated kiln_regfile (see sim/tb/tb_regfile.c).
#include "Vkiln_regfile.h"
#include "verilated.h"

extern "C" {
#include "regfile_shim.h"
}

struct RfSim {
    VerilatedContext ctx;
    Vkiln_regfile *m;
};

void *rf_new(void)
{
    RfSim *s = new RfSim;
    s->m = new Vkiln_regfile(&s->ctx);
    return s;
}

void rf_free(void *h)
{
    RfSim *s = (RfSim *)h;
    s->m->final();
    delete s->m;
    delete s;
}

void rf_tick(void *h, RfPins *p)
{
    Vkiln_regfile *m = ((RfSim *)h)->m;
    m->rst = p->rst;
    m->s_axil_awaddr = (uint16_t)p->awaddr;
    m->s_axil_awvalid = p->awvalid;
    m->s_axil_wdata = p->wdata;
    m->s_axil_wstrb = (uint8_t)p->wstrb;
    m->s_axil_wvalid = p->wvalid;
    m->s_axil_bready = p->bready;
    m->s_axil_araddr = (uint16_t)p->araddr;
    m->s_axil_arvalid = p->arvalid;
    m->s_axil_rready = p->rready;
    m->done_in = p->done_in;
    m->err_in = p->err_in;
    for (int i = 0; i < 2 * RF_N_PERF; i++)
        m->perf[i] = p->perf[i];
    m->eval();
    p->awready = m->s_axil_awready;
    p->wready = m->s_axil_wready;
    p->bvalid = m->s_axil_bvalid;
    p->bresp = m->s_axil_bresp;
    p->arready = m->s_axil_arready;
    p->rvalid = m->s_axil_rvalid;
    p->rresp = m->s_axil_rresp;
    p->rdata = m->s_axil_rdata;
    p->start = m->start;
    p->busy = m->busy;
    p->load = m->load;
    p->irq = m->irq;
    for (int i = 0; i < RF_N_CFG; i++)
        p->cfg[i] = m->cfg[i];
    m->clk = 1;
    m->eval();
    m->clk = 0;
    m->eval();
}
