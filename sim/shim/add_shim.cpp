// C shim around the Verilated kiln_add (see sim/tb/tb_add.c).
#include "Vkiln_add.h"
#include "stream_shim.h"

TBS_SHIM_2X1(add, Vkiln_add)

void tbs_add_cfg(void *h, const int64_t *rt)
{
    Vkiln_add *m = ((addSim *)h)->m;
    m->cfg_ma = (uint16_t)rt[1];
    m->cfg_mb = (uint16_t)rt[2];
    m->cfg_shift = (uint8_t)rt[3];
}
