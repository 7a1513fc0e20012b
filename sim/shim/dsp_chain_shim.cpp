// C shim around the Verilated kiln_dsp_chain (see sim/tb/tb_dsp_chain.c).
#include "Vkiln_dsp_chain.h"
#include "tb_util.h"

extern "C" {
void *dc_new(void);
void dc_free(void *h);
void dc_set(void *h, int rst, int ce, int valid, const int8_t *a, const int8_t *b, int n);
void dc_get(void *h, int *valid, uint64_t *p);
void dc_tick(void *h);
}

void *dc_new(void)
{
    Vkiln_dsp_chain *m = new Vkiln_dsp_chain;
    m->clk = 0;
    m->eval();
    return m;
}

void dc_free(void *h)
{
    Vkiln_dsp_chain *m = (Vkiln_dsp_chain *)h;
    m->final();
    delete m;
}

// Drive the inputs of this cycle (n lanes each of a and b) and evaluate.
void dc_set(void *h, int rst, int ce, int valid, const int8_t *a, const int8_t *b, int n)
{
    Vkiln_dsp_chain *m = (Vkiln_dsp_chain *)h;
    m->rst = rst;
    m->ce = ce;
    m->s_valid = valid;
    kiln_port_put(m->a, (const uint8_t *)a, n);
    kiln_port_put(m->b, (const uint8_t *)b, n);
    m->eval();
}

// The outputs before the next edge; p is the raw PW-bit port.
void dc_get(void *h, int *valid, uint64_t *p)
{
    Vkiln_dsp_chain *m = (Vkiln_dsp_chain *)h;
    *valid = m->m_valid;
    *p = (uint64_t)m->p;
}

void dc_tick(void *h)
{
    Vkiln_dsp_chain *m = (Vkiln_dsp_chain *)h;
    m->clk = 1;
    m->eval();
    m->clk = 0;
    m->eval();
}
