// C shim around the Verilated kiln_requant (see sim/tb/tb_requant.c).
#include "Vkiln_requant.h"
#include "verilated.h"
#include "tb_util.h"

extern "C" {
#include "conv_shim.h"
}

struct RqSim {
    VerilatedContext ctx;
    Vkiln_requant *m;
};

extern "C" RqSim *rq_new(void)
{
    RqSim *s = new RqSim;
    s->m = new Vkiln_requant(&s->ctx);
    s->m->clk = 0;
    s->m->rst = 1;
    s->m->eval();
    return s;
}

extern "C" void rq_free(RqSim *s)
{
    s->m->final();
    delete s->m;
    delete s;
}

extern "C" void rq_set(RqSim *s, int rst, int valid, const uint8_t *acc, const uint8_t *mpos,
                       const uint8_t *mneg, const uint8_t *shift, int lanes)
{
    s->m->rst = rst;
    s->m->i_valid = valid;
    kiln_port_put(s->m->i_acc, acc, 4 * lanes);
    kiln_port_put(s->m->i_mpos, mpos, 2 * lanes);
    kiln_port_put(s->m->i_mneg, mneg, 2 * lanes);
    /* shift: 6-bit fields, packed into bytes here */
    uint8_t sb[64] = {0};
    for (int l = 0; l < lanes; l++)
        for (int b = 0; b < 6; b++)
            if (shift[l] >> b & 1)
                sb[(6 * l + b) / 8] |= (uint8_t)(1u << ((6 * l + b) % 8));
    kiln_port_put(s->m->i_shift, sb, (6 * lanes + 7) / 8);
    s->m->eval();
}

extern "C" int rq_get(RqSim *s, int8_t *q, int lanes)
{
    kiln_port_get(s->m->o_q, (uint8_t *)q, lanes);
    return s->m->o_valid;
}

extern "C" void rq_tick(RqSim *s)
{
    s->m->clk = 1;
    s->m->eval();
    s->m->clk = 0;
    s->m->eval();
}
