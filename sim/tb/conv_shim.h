/*
 * C view of the conv-family shims (sim/shim/conv_*_shim.cpp).  Each shim
 * wraps one Verilated model; a bench links exactly one of them.
 * Multi-byte fields are little-endian byte arrays, lane i at bytes of lane i.
 * Protocol per cycle: *_set inputs (evaluates), read outputs, *_tick (one
 * rising clock edge).
 */
#ifndef KILN_CONV_SHIM_H
#define KILN_CONV_SHIM_H

#include <stdint.h>

/* kiln_requant */
typedef struct RqSim RqSim;
RqSim *rq_new(void);
void rq_free(RqSim *s);
void rq_set(RqSim *s, int rst, int valid, const uint8_t *acc, const uint8_t *mpos,
            const uint8_t *mneg, const uint8_t *shift, int lanes);
int rq_get(RqSim *s, int8_t *q, int lanes); /* returns o_valid */
void rq_tick(RqSim *s);

#endif

/* kiln_conv and kiln_dwconv: one set of inputs/outputs per cycle.  For
 * kiln_dwconv, icg is the channel-group count and ocg is ignored. */
typedef struct CvIn {
    int rst;                            /* synchronous reset */
    int h, w, icg, ocg, k, stride, pad; /* cfg_* */
    int tog;                            /* cfg_tog (kiln_conv): groups per weight tile */
    int wreload;                        /* cfg_wreload */
    int band;                           /* cfg_band (kiln_conv): output rows per band, 0: none */
    int s_tvalid;                       /* input stream */
    uint8_t s_tdata[128];               /* lane bytes */
    int w_tvalid;                       /* weight stream */
    uint8_t w_tdata[128];               /* lane bytes */
    int m_tready;                       /* output stream */
} CvIn;

typedef struct CvOut {
    int s_tready;          /* input accepted this cycle if s_tvalid */
    int w_tready;          /* weight beat accepted if w_tvalid */
    int m_tvalid;          /* output beat offered */
    uint8_t m_tdata[128];  /* lane bytes */
} CvOut;

typedef struct CvSim CvSim;
CvSim *cv_new(void);
void cv_free(CvSim *s);
void cv_set(CvSim *s, const CvIn *in); /* drive inputs and evaluate */
void cv_get(CvSim *s, CvOut *out);     /* outputs before the next edge */
void cv_tick(CvSim *s);                /* one rising edge */
