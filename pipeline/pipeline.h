/*
 * pipeline: RTL generation from a plan.  Writes the Verilog top module of the
 * plan's first FPGA segment (one engine instance per layer with the plan's
 * parameters, wired in dataflow order with valid/ready streams, lane-count
 * converters, skip-path FIFOs and stream forks), its register map and the
 * templates of rtl-templates/ it instantiates.
 *
 * Handles: kiln_conv (weights on chip or from DDR in one pass), kiln_maxpool,
 * kiln_upsample and kiln_concat stages; any fan-out; skip FIFOs on chip.
 * Refuses (rtl_check): dwconv, add and standalone requant stages, weight tiles
 * (several passes over the input map), skip tensors the plan sends through
 * DDR, lane counts where neither divides the other.
 *
 * Output is a function of the plan alone: the same plan gives byte-identical
 * files.  Library code: returns errors in a GirError, never prints or exits.
 */
#ifndef KILN_PIPELINE_H
#define KILN_PIPELINE_H

#include "graphir/graphir.h"
#include "hls/plan.h"

/* 0 when rtl_write can generate the first segment of p; -1 + e naming the
 * first layer or path it does not handle yet. */
int rtl_check(const HlsPlan *p, const GirGraph *g, GirError *e);

/* Create DIR/rtl (dir must exist) and write kiln_top.v, kiln_fork.v,
 * regmap.h, regmap.json and a copy of each template used.  0, or -1 + e
 * (unsupported plan as rtl_check, or a file that cannot be read/written). */
int rtl_write(const HlsPlan *p, const GirGraph *g, const char *dir, GirError *e);

/* Remove DIR/rtl and the files rtl_write may have put there (for cleaning
 * up a half-written output folder). */
void rtl_remove(const char *dir);

/* The plan hash kiln_regfile reports: FNV-1a 64 of plan.json's text. */
uint64_t rtl_plan_hash(const HlsPlan *p);

#endif
