// C shim around the Verilated kiln_concat (see sim/tb/tb_concat.c).
#include "Vkiln_concat.h"
#include "stream_shim.h"

TBS_SHIM_2X1(concat, Vkiln_concat)

void tbs_concat_cfg(void *h, const int64_t *rt)
{
    Vkiln_concat *m = ((concatSim *)h)->m;
    m->cfg_ca = (uint16_t)rt[1];
    m->cfg_cb = (uint16_t)rt[2];
}
