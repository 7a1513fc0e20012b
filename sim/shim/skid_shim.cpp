// C shim around the Verilated kiln_skid for sim/tb/tb_fifo.c (sim/stream.cmake
// sets the parameters given by tbs_fifo_hw).
#include "Vkiln_skid.h"
#include "stream_shim.h"

TBS_SHIM_1X1(fifo, Vkiln_skid)

extern "C" const char *tbs_fifo_engine(int64_t *hw);

const char *tbs_fifo_engine(int64_t *hw)
{
    hw[0] = 64;
    return "kiln_skid";
}

void tbs_fifo_cfg(void *h, const int64_t *rt)
{
    (void)h;
    (void)rt;
}
