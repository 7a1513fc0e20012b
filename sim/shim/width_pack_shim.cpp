// C shim around the Verilated kiln_width, LI=4 LO=16 (see sim/tb/tb_width.c).
#include "Vkiln_width.h"
#include "stream_shim.h"

TBS_SHIM_1X1(width, Vkiln_width)

extern "C" void tbs_width_hw(int64_t *hw);

void tbs_width_hw(int64_t *hw)
{
    hw[0] = 4;
    hw[1] = 16;
}

void tbs_width_cfg(void *h, const int64_t *rt)
{
    Vkiln_width *m = ((widthSim *)h)->m;
    m->cfg_cg_in = (uint16_t)rt[1];
    m->cfg_cg_out = (uint16_t)rt[2];
}
