// C shim around the Verilated kiln_upsample (see sim/tb/tb_upsample.c).
#include "Vkiln_upsample.h"
#include "stream_shim.h"

TBS_SHIM_1X1(upsample, Vkiln_upsample)

void tbs_upsample_cfg(void *h, const int64_t *rt)
{
    Vkiln_upsample *m = ((upsampleSim *)h)->m;
    m->cfg_w = (uint16_t)rt[1];
    m->cfg_cg = (uint16_t)rt[2];
    m->cfg_f = (uint8_t)rt[3];
}
