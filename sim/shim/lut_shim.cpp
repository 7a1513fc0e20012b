// C shim around the Verilated kiln_lut (see sim/tb/tb_lut.c).
#include "Vkiln_lut.h"
#include "stream_shim.h"

TBS_SHIM_1X1(lut, Vkiln_lut)

void tbs_lut_cfg(void *h, const int64_t *rt)
{
    (void)h; /* no cfg ports: the table is a parameter, the frame a beat count */
    (void)rt;
}
