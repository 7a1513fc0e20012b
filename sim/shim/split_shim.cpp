// C shim around the Verilated kiln_split (see sim/tb/tb_split.c).
#include "Vkiln_split.h"
#include "stream_shim.h"

TBS_SHIM_1X1(split, Vkiln_split)

void tbs_split_cfg(void *h, const int64_t *rt)
{
    Vkiln_split *m = ((splitSim *)h)->m;
    m->cfg_cg_in = (uint16_t)rt[1];
    m->cfg_off = (uint16_t)rt[2];
    m->cfg_cout = (uint16_t)rt[3];
}
