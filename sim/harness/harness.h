/*
 * The whole-accelerator harness of `kiln simulate`: a Verilated kiln_top
 * (the generated top of DIR/rtl/, interface in docs/simulate.md), a DDR model
 * with one AXI4 slave per DMA channel, an AXI-Lite master for the registers,
 * and a job runner.  Compiled at simulate time, not with kiln: harness_top.cpp
 * (the only C++, a thin shim around the Verilated model that knows the ports
 * from rtl/kiln_ports.h) plus harness.c (plain C11).
 *
 * Per cycle the C side fills HsPins' inputs from its state, the shim drives
 * them, evaluates the model with the clock low, samples every output into
 * HsPins and then raises the clock; a handshake happened on that edge when
 * both valid and ready were 1 in the sampled pins.
 */
#ifndef KILN_SIM_HARNESS_H
#define KILN_SIM_HARNESS_H

#include <stdint.h>

#define HS_MAX_NB 16 /* bytes per AXI4 beat: DATA_W up to 128 */

/* Pins of one AXI4 read channel (m_axi_<name>_ar*, _r*). */
typedef struct HsRdPins {
    int arready;                  /* in: AR ready */
    int rvalid;                   /* in: R valid */
    uint8_t rdata[HS_MAX_NB];     /* in: R data, little-endian bytes */
    int rresp;                    /* in: R response */
    int rlast;                    /* in: R last */
    int arvalid;                  /* out: AR valid */
    uint64_t araddr;              /* out: AR address */
    int arlen, arsize, arburst;   /* out: AR fields */
    int rready;                   /* out: R ready */
} HsRdPins;

/* Pins of one AXI4 write channel (m_axi_<name>_aw*, _w*, _b*). */
typedef struct HsWrPins {
    int awready;                  /* in: AW ready */
    int wready;                   /* in: W ready */
    int bvalid;                   /* in: B valid */
    int bresp;                    /* in: B response */
    int awvalid;                  /* out: AW valid */
    uint64_t awaddr;              /* out: AW address */
    int awlen, awsize, awburst;   /* out: AW fields */
    int wvalid;                   /* out: W valid */
    uint8_t wdata[HS_MAX_NB];     /* out: W data */
    uint32_t wstrb;               /* out: W byte strobes */
    int wlast;                    /* out: W last */
    int bready;                   /* out: B ready */
} HsWrPins;

/* Pins of the AXI-Lite register slave (s_axil_*). */
typedef struct HsLitePins {
    int awvalid;       /* in: AW valid */
    uint32_t awaddr;   /* in: AW address */
    int wvalid;        /* in: W valid */
    uint32_t wdata;    /* in: W data */
    int wstrb;         /* in: W strobes */
    int bready;        /* in: B ready */
    int arvalid;       /* in: AR valid */
    uint32_t araddr;   /* in: AR address */
    int rready;        /* in: R ready */
    int awready;       /* out: AW ready */
    int wready;        /* out: W ready */
    int bvalid;        /* out: B valid */
    int bresp;         /* out: B response */
    int arready;       /* out: AR ready */
    int rvalid;        /* out: R valid */
    uint32_t rdata;    /* out: R data */
    int rresp;         /* out: R response */
} HsLitePins;

/* Every pin of kiln_top. */
typedef struct HsPins {
    int rst;           /* in: synchronous reset */
    HsLitePins lite;   /* register slave */
    HsRdPins *rd;      /* read channels, in KILN_RD_CHANNELS order */
    HsWrPins *wr;      /* write channels, in KILN_WR_CHANNELS order */
    int irq;           /* out: the interrupt; -1 when the top has none (KILN_TOP_IRQ) */
} HsPins;

/* One DMA channel of the top as rtl/kiln_ports.h lists it. */
typedef struct HsPort {
    const char *name; /* "in0", "w3", "out1" */
    int data_w;       /* 16, 32, 64 or 128 */
} HsPort;

#ifdef __cplusplus
extern "C" {
#endif

/* harness_top.cpp: the Verilated model.  hs_top_ports lists the channels;
 * hs_top_cycle drives p's inputs, samples its outputs, then clocks once. */
void hs_top_ports(const HsPort **rd, int *nrd, const HsPort **wr, int *nwr);
void *hs_top_new(void);
void hs_top_free(void *top);
void hs_top_cycle(void *top, HsPins *p);

/* harness.c: `harness JOB RESULT` runs the job file and writes the result
 * file (docs/simulate.md); returns the process exit status. */
int hs_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
