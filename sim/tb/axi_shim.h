/* C view of sim/shim/axi_rd_shim.cpp and axi_wr_shim.cpp (kiln_axi_rd,
 * kiln_axi_wr; DATA_W up to 128). */
#ifndef KILN_AXI_SHIM_H
#define KILN_AXI_SHIM_H

#include <stdint.h>

#define AXI_MAX_BYTES 16 /* bytes per beat, DATA_W / 8 */

/* One cycle of kiln_axi_rd: inputs first, then outputs sampled before the edge. */
typedef struct AxiRdPins {
    int rst;                          /* synchronous reset */
    uint64_t base;                    /* cfg_base */
    uint32_t bytes;                   /* cfg_bytes */
    int start;                        /* start pulse */
    int arready;                      /* AR ready */
    int rvalid;                       /* R valid */
    uint8_t rdata[AXI_MAX_BYTES];     /* R data */
    int rresp;                        /* R response */
    int rlast;                        /* R last */
    int m_tready;                     /* stream ready */
    int busy, done, error;            /* sampled status */
    int arvalid;                      /* sampled AR valid */
    uint64_t araddr;                  /* sampled AR address */
    int arlen, arsize, arburst;       /* sampled AR fields */
    int rready;                       /* sampled R ready */
    int m_tvalid;                     /* sampled stream valid */
    uint8_t m_tdata[AXI_MAX_BYTES];   /* sampled stream data */
} AxiRdPins;

/* One cycle of kiln_axi_wr. */
typedef struct AxiWrPins {
    int rst;                          /* synchronous reset */
    uint64_t base;                    /* cfg_base */
    uint32_t bytes;                   /* cfg_bytes */
    uint32_t row_beats;               /* cfg_row_beats (0: contiguous) */
    uint32_t row_stride;              /* cfg_row_stride */
    int start;                        /* start pulse */
    int s_tvalid;                     /* stream valid */
    uint8_t s_tdata[AXI_MAX_BYTES];   /* stream data */
    int awready;                      /* AW ready */
    int wready;                       /* W ready */
    int bvalid;                       /* B valid */
    int bresp;                        /* B response */
    int busy, done, error;            /* sampled status */
    int s_tready;                     /* sampled stream ready */
    int awvalid;                      /* sampled AW valid */
    uint64_t awaddr;                  /* sampled AW address */
    int awlen, awsize, awburst;       /* sampled AW fields */
    int wvalid;                       /* sampled W valid */
    uint8_t wdata[AXI_MAX_BYTES];     /* sampled W data */
    uint32_t wstrb;                   /* sampled W strobes */
    int wlast;                        /* sampled W last */
    int bready;                       /* sampled B ready */
} AxiWrPins;

#ifdef __cplusplus
extern "C" {
#endif

void *axi_rd_new(void);
void axi_rd_free(void *h);
void axi_rd_tick(void *h, AxiRdPins *p);
void *axi_wr_new(void);
void axi_wr_free(void *h);
void axi_wr_tick(void *h, AxiWrPins *p);

#ifdef __cplusplus
}
#endif

#endif
