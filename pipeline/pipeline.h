/*
 * pipeline: RTL generation from a plan.  Writes one Verilog top module for
 * all FPGA segments of the plan (one engine instance per layer with the
 * plan's parameters, wired in dataflow order with valid/ready streams,
 * lane-count converters, skip-path FIFOs and stream forks; an AXI4 DMA
 * channel per segment input, weight set and segment output), its register
 * map (regmap.h, regmap.json), the channel list kiln_ports.h, the weight
 * image weights.bin of an int8 graph and the templates of rtl-templates/ it
 * instantiates; beside it the Vivado package (component.xml, build.tcl,
 * kiln.xdc, kiln.dtso: docs/package.md).  docs/rtl-pipeline.md is the
 * contract with the simulator and the host driver.
 *
 * Handles: kiln_conv (weights on chip, or from DDR every frame, whole or in
 * tiles with one pass over the input map per tile), kiln_dwconv,
 * kiln_maxpool, kiln_upsample, kiln_concat, kiln_add, standalone
 * requantize; any fan-out; skip FIFOs on chip or through DDR; several
 * segments.  Refuses (rtl_check): tiles that do not divide a layer's output
 * groups or hold an odd number of channels, lane counts that are not powers
 * of two, run-time values wider than their ports, edges through DDR whose
 * padded pixels differ at the two ends, more channels or stages than the
 * register map holds, int8 layers whose constants do not fit their engine.
 *
 * Files: chan.c (the channel list, from hls_plan_channels), stage.c (what a
 * stage gives the generator), check.c (rtl_check), top.c (kiln_top.v),
 * regmap.c (kiln_ports.h, regmap.h, regmap.json), weights.c (weights.bin),
 * write.c (rtl_write, rtl_remove), package.c (DIR/vivado: ipxact.c
 * component.xml, bd_tcl.c build.tcl, overlay.c kiln.xdc, kiln.dtso);
 * internal.h holds what they share.
 *
 * Output is a function of the plan and graph alone: the same input gives
 * byte-identical files.  Library code: returns errors in a GirError, never
 * prints or exits.
 */
#ifndef KILN_PIPELINE_H
#define KILN_PIPELINE_H

#include "graphir/graphir.h"
#include "hls/plan.h"

/* 0 when rtl_write can generate p (g: the planned graph); -1 + e naming the
 * first layer or path it does not handle yet. */
int rtl_check(const HlsPlan *p, const GirGraph *g, GirError *e);

/* Create DIR/rtl (dir must exist) and write kiln_top.v, kiln_fork.v,
 * kiln_ports.h, regmap.h, regmap.json, weights.bin (when g is int8) and a
 * copy of each template used; then DIR/vivado, the Vivado package
 * (docs/package.md).  0, or -1 + e (unsupported plan as rtl_check, a board
 * the package cannot use, or a file that cannot be read/written; the caller
 * removes the folder with rtl_remove). */
int rtl_write(const HlsPlan *p, const GirGraph *g, const char *dir, GirError *e);

/* Remove DIR/rtl, DIR/vivado and the files rtl_write may have put there
 * (for cleaning up a half-written output folder). */
void rtl_remove(const char *dir);

/* The plan hash kiln_regfile reports: FNV-1a 64 of plan.json's text. */
uint64_t rtl_plan_hash(const HlsPlan *p);

/* ---- the per-model driver: DIR/driver (docs/driver.md) ---- */

#define RTL_DRV_MAX_ANCHORS 128 /* numbers (W and H) --anchors takes */

enum { RTL_DETECT_NONE, RTL_DETECT_YOLOV3, RTL_DETECT_REGION };

/* kiln compile's preprocessing and detector options (CONTRACTS.md). */
typedef struct {
    double mean[4];     /* --mean: subtracted per channel (R, G, B[, A]), as kiln run reads it */
    double stdv[4];     /* --std: divided after the mean */
    double scale;       /* --scale: multiplied after the mean */
    int nmean, nstd;    /* values given with --mean, --std (0: not given) */
    int has_scale;      /* --scale given */
    int bgr;            /* --bgr */
    int nhwc;           /* --nhwc */
    int alpha;          /* --alpha */
    int pad;            /* --resize pad (0: stretch) */
    int detect;         /* --detect: RTL_DETECT_ */
    float anchors[RTL_DRV_MAX_ANCHORS]; /* --anchors W,H,... */
    int nanchors;       /* numbers given */
    int classes;        /* --classes: class entries per anchor (0: objectness alone) */
    int has_classes;    /* --classes given */
    float score_thr;    /* --score-threshold */
    float iou_thr;      /* --iou-threshold */
    const struct KlvRecords *records; /* kiln compile --records: the CPU partitions'
                                         schedules (llvm/llvm.h, KlvTarget.records) */
} RtlDriverOptions;

/* The defaults (no preprocessing, no detector, thresholds 0.5 and 0.45). */
void rtl_driver_defaults(RtlDriverOptions *o);

/* Parse one driver option at argv[0] (argc: the words left).  Returns the
 * words it took (1 or 2), 0 when argv[0] is not a driver option, -1 + e
 * naming the option when its value is bad. */
int rtl_driver_option(RtlDriverOptions *o, int argc, char **argv, GirError *e);

/* Can the driver be generated for p, g and o?  0: yes; 1: not, e names the
 * node or value (a CPU layer feeding and fed by one FPGA segment, a value
 * the driver cannot hold); -1: the options do not fit the model (e says
 * how).  Whether every CPU node has a lowering is known only when
 * rtl_driver_write compiles the CPU partitions. */
int rtl_driver_check(const HlsPlan *p, const GirGraph *g, const RtlDriverOptions *o,
                     GirError *e);

/* Write DIR/driver (dir holds rtl/): model.c, model.h, the CPU partitions
 * (cpu<k>.h and objects cpu<k>-aarch64.o, cpu<k>-x86_64.o through the LLVM
 * back end; model.cmake and model.mk list them), kiln-infer's sources,
 * libkiln-rt's (kiln-rt/), CMakeLists.txt, toolchain-aarch64.cmake,
 * Makefile.  Output is a function of p, g and o alone.  0, or -1 + e (a
 * CPU node without a lowering is named; the caller removes the folder with
 * rtl_driver_remove). */
int rtl_driver_write(const HlsPlan *p, const GirGraph *g, const RtlDriverOptions *o,
                     const char *dir, GirError *e);

/* Remove DIR/driver and what rtl_driver_write puts there. */
void rtl_driver_remove(const char *dir);

#endif
