// C shim around the Verilated kiln_fifo for sim/tb/tb_fifo.c (sim/stream.cmake
// sets the parameters given by tbs_fifo_hw).
#include "Vkiln_fifo.h"
#include "stream_shim.h"

TBS_SHIM_1X1(fifo, Vkiln_fifo)

extern "C" const char *tbs_fifo_engine(int64_t *hw);

const char *tbs_fifo_engine(int64_t *hw)
{
    hw[0] = 64; hw[1] = 8; hw[2] = 128;
    return "kiln_fifo";
}

void tbs_fifo_cfg(void *h, const int64_t *rt)
{
    (void)h;
    (void)rt;
}
