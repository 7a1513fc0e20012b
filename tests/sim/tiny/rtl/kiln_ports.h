/* DMA channels of the hand-written test top (tests/sim/tiny/rtl/kiln_top.v). */
#define KILN_RD_CHANNELS(X) X(in0, 64)
#define KILN_WR_CHANNELS(X) X(out0, 64)
