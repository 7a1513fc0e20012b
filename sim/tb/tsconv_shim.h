/*
 * C view of sim/shim/tsconv_shim.cpp (kiln_tsconv with DATA_W = 128): one
 * set of pins per cycle.  Protocol: ts_eval drives the inputs, evaluates and
 * samples the outputs (before the edge); ts_tick makes one rising edge.
 */
#ifndef KILN_TSCONV_SHIM_H
#define KILN_TSCONV_SHIM_H

#include <stdint.h>

#define TS_BUS 16 /* bytes per AXI beat */
#define TS_NRD 3  /* read masters: m0, m1 and (index 2) m3 */

typedef struct TsPins {
    int rst;                    /* synchronous reset */
    uint64_t desc_base;         /* cfg_desc_base */
    int layers;                 /* cfg_layers */
    uint32_t frames;            /* cfg_frames */
    uint64_t tbl_base;          /* cfg_tbl_base */
    int tbl_len;                /* cfg_tbl_len (0: no run-end prefetch) */
    uint32_t avail;             /* frames whose input is in DDR */
    int start;                  /* start pulse */
    int arready[TS_NRD];        /* read masters 0 (descriptors, weights), 1 (input map),
                                 * 3 at index 2 (the weights' second half, WCH 2) */
    int rvalid[TS_NRD];         /* R valid */
    uint8_t rdata[TS_NRD][TS_BUS]; /* R data */
    int rlast[TS_NRD];          /* R last */
    int awready, wready;        /* write master */
    int bvalid;                 /* B valid (BRESP OKAY) */
    int busy, done, error;      /* sampled status */
    int layer;                  /* sampled layer index */
    uint32_t finished;          /* sampled frames finished */
    int arvalid[TS_NRD];             /* sampled AR valid */
    uint64_t araddr[TS_NRD];         /* sampled AR address */
    int arlen[TS_NRD];               /* sampled AR length - 1 */
    int rready[TS_NRD];              /* sampled R ready */
    int awvalid;                /* sampled AW valid */
    uint64_t awaddr;            /* sampled AW address */
    int awlen;                  /* sampled AW length - 1 */
    int wvalid;                 /* sampled W valid */
    uint8_t wdata[TS_BUS];      /* sampled W data */
    uint32_t wstrb;             /* sampled W strobes */
    int wlast;                  /* sampled W last */
    int bready;                 /* sampled B ready */
} TsPins;

typedef struct TsSim TsSim;
TsSim *ts_new(void);
void ts_free(TsSim *s);
void ts_eval(TsSim *s, TsPins *p); /* drive inputs, evaluate, sample outputs */
void ts_tick(TsSim *s);            /* one rising edge */

#endif
