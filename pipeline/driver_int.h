/*
 * driver_int.h: what driver.c (the step list) and driver_write.c (model.c,
 * model.h and the copied files) share.
 */
#ifndef KILN_PIPELINE_DRIVER_INT_H
#define KILN_PIPELINE_DRIVER_INT_H

#include "pipeline/pipeline.h"

#define DRV_MAX_IO 16  /* graph inputs or outputs (kiln_driver.h KD_MAX_OUT) */
#define DRV_MAX_RANK 6 /* tensor rank (KD_MAX_RANK) */

/* What one step of model.c does. */
typedef enum {
    STEP_QUANT,   /* QuantizeLinear of a graph input into an FPGA input channel */
    STEP_FPGA,    /* the FPGA segments (krt_run) */
    STEP_DEQUANT, /* DequantizeLinear of an FPGA output channel into a graph output */
    STEP_YOLO,    /* YoloHead on a graph output, in place */
} StepKind;

/* One step of the schedule. */
typedef struct {
    StepKind kind; /* what it does */
    int node;      /* its node (STEP_FPGA: the first FPGA node) */
    int in;        /* STEP_QUANT: graph input index */
    int out;       /* STEP_DEQUANT, STEP_YOLO: graph output index */
    int val;       /* the int8 value at the FPGA channel */
    float scale;   /* quantization scale */
    int zp;        /* zero point */
} Step;

/* The schedule of a planned graph. */
typedef struct {
    char *fpga;    /* per node: 1 when an FPGA stage */
    Step *steps;   /* in model.c's order */
    int nsteps;    /* count */
    int fpga_step; /* 1 + index of the STEP_FPGA step, 0: none yet */
} DrvPlan;

/* The steps of g under p; 0, 1 + e naming a node the driver cannot run
 * yet.  Free with drv_plan_free either way. */
int drv_plan(const HlsPlan *p, const GirGraph *g, DrvPlan *d, GirError *e);
void drv_plan_free(DrvPlan *d);

#endif
