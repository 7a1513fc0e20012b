/* Folder-private declarations shared by the planner's files. */
#ifndef KILN_HLS_PLAN_INT_H
#define KILN_HLS_PLAN_INT_H

#include <stddef.h>

#include "hls/plan.h"

/* Fill p->stages (shapes, kinds, inputs, segments) and p->cpu from g.
 * 0, or -1 + e when no layer can run on the FPGA. */
int hls_partition(const GirGraph *g, HlsPlan *p, GirError *e);

/* Text of a weight placement: "-", "bram", "uram", "ddr". */
const char *hls_whome_name(HlsWeightHome h);

/* A plan of g's partition for b at mhz (0: board default), stages with
 * their engines and the smallest parallelism, nothing evaluated yet. */
HlsPlan *hls_plan_new(const GirGraph *g, const HlsBoard *b, double mhz, GirError *e);
/* Evaluate p's choices as they stand (no exploration, no placement) and
 * write the stages' reasons.  0 or -1 + e. */
int hls_plan_reeval(HlsPlan *p, GirError *e);
/* The first budget p breaks, described into buf; NULL when it fits. */
const char *hls_plan_over_budget(const HlsPlan *p, char *buf, size_t n);

/* Per stage t_done of a warm one-frame run and p->latency (hls/timing.c);
 * needs the stages evaluated, the FIFOs sized and in_ddr set. */
void hls_plan_timing(HlsPlan *p);

/* Resources of everything pipeline/pipeline.c puts around the engines and
 * skip FIFOs (DMA channels, forks, lane converters, requantize wrappers,
 * register file, PERF counters) into *r (hls/infra.c); needs the stages'
 * parallelism, segments and inputs, not their evaluation. */
void hls_plan_infra(HlsPlan *p, HlsRes *r);

/* kiln_maxpool: outputs along one axis (input length len, olen outputs,
 * window k, stride s, top/left pad) issued in the flush after the last
 * input position (hls/desc_stream.c). */
int64_t hls_pool_flush(int64_t len, int64_t olen, int64_t k, int64_t s, int64_t pad);

#endif
