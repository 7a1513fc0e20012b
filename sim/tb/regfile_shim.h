/* C view of sim/shim/regfile_shim.cpp (kiln_regfile; the parameters its
 * Verilator build was given: N_CFG = 8, N_PERF = 3 and the least map by
 * default, sim/stream.cmake defines others). */
#ifndef KILN_REGFILE_SHIM_H
#define KILN_REGFILE_SHIM_H

#include <stdint.h>

#ifndef RF_N_CFG
#define RF_N_CFG 8          /* N_CFG */
#endif
#ifndef RF_N_PERF
#define RF_N_PERF 3         /* N_PERF */
#endif
#ifndef RF_PERF_BASE
#define RF_PERF_BASE 0x200u /* PERF_BASE */
#endif
#ifndef RF_ADDR_W
#define RF_ADDR_W 12        /* ADDR_W */
#endif
#ifndef RF_UNITS
#define RF_UNITS 1          /* UNITS */
#endif

/* One cycle of pins: inputs first, then outputs sampled before the edge. */
typedef struct RfPins {
    int rst;                 /* synchronous reset */
    uint32_t awaddr;         /* write address */
    int awvalid;             /* write address valid */
    uint32_t wdata;          /* write data */
    int wstrb;               /* byte strobes */
    int wvalid;              /* write data valid */
    int bready;              /* write response ready */
    uint32_t araddr;         /* read address */
    int arvalid;             /* read address valid */
    int rready;              /* read data ready */
    int done_in;             /* frame done pulses, bit u: unit u */
    uint32_t err_in;         /* error bits */
    uint32_t perf[2 * RF_N_PERF]; /* perf words driven into the register file */
    int awready, wready;     /* sampled handshakes */
    int bvalid, bresp;       /* sampled write response */
    int arready;             /* sampled read address ready */
    int rvalid, rresp;       /* sampled read response */
    uint32_t rdata;          /* sampled read data */
    int start, busy;         /* sampled control outputs, bit u: unit u */
    int load;                /* sampled CTRL bit1 of the last start */
    int irq;                 /* sampled interrupt (done & IER) */
    uint32_t cfg[RF_N_CFG];  /* sampled config registers */
} RfPins;

void *rf_new(void);
void rf_free(void *h);
void rf_tick(void *h, RfPins *p);

#endif
