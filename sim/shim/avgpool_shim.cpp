// C shim around the Verilated kiln_avgpool (see sim/tb/tb_avgpool.c).
#include "Vkiln_avgpool.h"
#include "stream_shim.h"

TBS_SHIM_1X1(avgpool, Vkiln_avgpool)

void tbs_avgpool_cfg(void *h, const int64_t *rt)
{
    Vkiln_avgpool *m = ((avgpoolSim *)h)->m;
    m->cfg_h = (uint16_t)rt[0];
    m->cfg_w = (uint16_t)rt[1];
    m->cfg_cg = (uint16_t)rt[2];
    m->cfg_kh = (uint16_t)rt[3];
    m->cfg_kw = (uint16_t)rt[4];
    m->cfg_oh = (uint16_t)rt[5];
    m->cfg_ow = (uint16_t)rt[6];
    m->cfg_m_pos = (uint16_t)rt[7];
    m->cfg_m_neg = (uint16_t)rt[8];
    m->cfg_shift = (uint8_t)rt[9];
}
