// C shim around the Verilated kiln_maxpool (see sim/tb/tb_maxpool.c).
#include "Vkiln_maxpool.h"
#include "stream_shim.h"

extern "C" void *tbs_maxpool_new(int lanes);
extern "C" void tbs_maxpool_free(void *h);
extern "C" void tbs_maxpool_cfg(void *h, const int64_t *rt);
extern "C" void tbs_maxpool_tick(void *h, TbsPins *p);

struct MaxpoolSim {
    VerilatedContext ctx;
    Vkiln_maxpool *m;
    int lanes;
};

void *tbs_maxpool_new(int lanes)
{
    MaxpoolSim *s = new MaxpoolSim;
    s->m = new Vkiln_maxpool(&s->ctx);
    s->lanes = lanes;
    return s;
}

void tbs_maxpool_free(void *h)
{
    MaxpoolSim *s = (MaxpoolSim *)h;
    s->m->final();
    delete s->m;
    delete s;
}

void tbs_maxpool_cfg(void *h, const int64_t *rt)
{
    Vkiln_maxpool *m = ((MaxpoolSim *)h)->m;
    m->cfg_h = (uint16_t)rt[0];
    m->cfg_w = (uint16_t)rt[1];
    m->cfg_cg = (uint16_t)rt[2];
    m->cfg_k = (uint8_t)rt[3];
    m->cfg_s = (uint8_t)rt[4];
    m->cfg_pad = (uint8_t)rt[5];
    m->cfg_oh = (uint16_t)rt[6];
    m->cfg_ow = (uint16_t)rt[7];
}

void tbs_maxpool_tick(void *h, TbsPins *p)
{
    MaxpoolSim *s = (MaxpoolSim *)h;
    Vkiln_maxpool *m = s->m;
    m->rst = p->rst;
    TBS_IN(m, p, 0, s_, s->lanes);
    TBS_OUT_SET(m, p, 0, m_);
    m->eval();
    TBS_IN_GET(m, p, 0, s_);
    TBS_OUT_GET(m, p, 0, m_, s->lanes);
    tbs_edge(m);
}
