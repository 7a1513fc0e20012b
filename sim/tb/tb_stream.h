/*
 * Stream-engine test driver (max pooling, upsample, concat, add, fifo, skid,
 * width).  A shim (sim/shim/ENGINE_shim.cpp) wraps one Verilated engine behind the
 * TbsDut interface; tbs_run() feeds whole frames into its input streams and
 * collects its output streams under optional random valid/ready
 * back-pressure, checking that exactly the expected number of beats comes
 * out (nothing lost, nothing duplicated) and measuring cycles per frame.
 */
#ifndef KILN_TB_STREAM_H
#define KILN_TB_STREAM_H

#include <stdint.h>

#include "tb_util.h"

#ifdef __cplusplus
extern "C" {
#endif

#define TBS_MAX_IN 2     /* input streams per engine */
#define TBS_MAX_OUT 2    /* output streams per engine */
#define TBS_MAX_BYTES 64 /* bytes per beat */

/* Pins of one cycle: the bench drives the first group, the shim samples the
 * second after evaluating the inputs and before the rising edge. */
typedef struct TbsPins {
    int rst;                                      /* synchronous reset */
    int in_valid[TBS_MAX_IN];                     /* s_tvalid per input */
    uint8_t in_data[TBS_MAX_IN][TBS_MAX_BYTES];   /* s_tdata per input */
    int out_ready[TBS_MAX_OUT];                   /* m_tready per output */
    int in_ready[TBS_MAX_IN];                     /* sampled s_tready */
    int out_valid[TBS_MAX_OUT];                   /* sampled m_tvalid */
    uint8_t out_data[TBS_MAX_OUT][TBS_MAX_BYTES]; /* sampled m_tdata */
} TbsPins;

/* One Verilated engine behind its shim. */
typedef struct TbsDut {
    void *h;                       /* shim handle */
    int n_in, n_out;               /* stream counts */
    int in_bytes[TBS_MAX_IN];      /* bytes per input beat */
    int out_bytes[TBS_MAX_OUT];    /* bytes per output beat */
    void (*cfg)(void *h, const int64_t *rt); /* set cfg_* ports (descriptor order) */
    void (*tick)(void *h, TbsPins *p);       /* apply, evaluate, sample, clock edge */
} TbsDut;

/* One frame: input beats per stream and the expected output beats. */
typedef struct TbsFrame {
    const uint8_t *in[TBS_MAX_IN];  /* in_beats[i] * in_bytes[i] bytes */
    long in_beats[TBS_MAX_IN];
    uint8_t *out[TBS_MAX_OUT];      /* filled with out_beats[o] * out_bytes[o] bytes */
    long out_beats[TBS_MAX_OUT];    /* beats expected per output */
} TbsFrame;

/* Run one frame after a reset.  bp_pct = 100 drives valid and ready high every
 * cycle, less gives random back-pressure on every stream.  On return *cycles
 * holds cycles from the first input transfer to the last output transfer,
 * inclusive.  Extra or missing beats and timeouts are reported through chk;
 * returns 0 when the beat counts were right. */
int tbs_run(const TbsDut *d, const int64_t *rt, TbsFrame *f, int bp_pct, uint64_t seed,
            long *cycles, TbCheck *chk);

/* Compare n bytes as int8 values; idx of the first byte is reported. */
void tbs_check_bytes(TbCheck *c, const char *what, const uint8_t *got, const uint8_t *want,
                     long n);

/* Check measured cycles against the descriptor of module name. */
void tbs_check_cycles(TbCheck *c, const char *name, const int64_t *hw, const int64_t *rt,
                      long measured);

/* Pack an HWC int8 tensor of c channels into beats of lanes lanes per
 * group, ceil(c / lanes) groups per pixel, zero padding lanes. */
void tbs_pack(const int8_t *t, long pixels, int c, int lanes, uint8_t *beats);

/* One case: run frame f free-flowing (every value and the descriptor's exact
 * cycles checked) and under random back-pressure (every value checked);
 * want[o] holds the expected bytes of output o.  Prints desc with the
 * measured cycles through tb_case_end. */
void tbs_case(TbCheck *chk, const TbsDut *d, const char *engine, const int64_t *hw,
              const int64_t *rt, TbsFrame *f, uint8_t *const *want, uint64_t seed,
              const char *desc);

/* Vector file for the iverilog benches (sim/tb/tb_stream_iv.v), one hex word
 * of 8*bytes bits per line: words 0..11 the run-time values rt[0..nrt-1]
 * (descriptor order, 0 beyond), 12..14 beats of input 0, input 1 and output
 * 0, then those beats in that order (output = the expected bytes). */
void tbs_write_vec(const char *path, const TbsDut *d, const int64_t *rt, int nrt,
                   const TbsFrame *f, const uint8_t *want);

/* When set, tbs_case writes its first case there (tbs_write_vec). */
extern const char *tbs_vec_path;

#ifdef __cplusplus
}
#endif

#endif
