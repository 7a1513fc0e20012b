/*
 * driver_int.h: what driver.c (the step list), driver_cpu.c (the CPU
 * partitions' subgraphs and objects) and driver_write.c (model.c, model.h
 * and the copied files) share.
 */
#ifndef KILN_PIPELINE_DRIVER_INT_H
#define KILN_PIPELINE_DRIVER_INT_H

#include "pipeline/pipeline.h"

#define DRV_MAX_IO 16  /* graph inputs or outputs (kiln_driver.h KD_MAX_OUT) */
#define DRV_MAX_RANK 6 /* tensor rank (KD_MAX_RANK) */

/* What one step of model.c does. */
typedef enum {
    STEP_QUANT,   /* QuantizeLinear of an fp32 graph input into an int8 buffer */
    STEP_SEG,     /* one FPGA segment (krt_run_segment): its inputs put, run, outputs got */
    STEP_CPU,     /* a CPU partition: a run of CPU nodes, one object per target */
    STEP_DEQUANT, /* DequantizeLinear of an int8 buffer into a graph output */
    STEP_YOLO,    /* YoloHead on a graph output, in place */
} StepKind;

/* One step of the schedule. */
typedef struct {
    StepKind kind; /* what it does */
    int node;      /* its first node in graph order */
    int seg;       /* STEP_SEG: the segment; STEP_CPU: the partition's index */
    int in;        /* STEP_QUANT: graph input index */
    int out;       /* STEP_DEQUANT, STEP_YOLO: graph output index */
    int val;       /* STEP_QUANT: the int8 value made; STEP_DEQUANT: the value read */
    float scale;   /* quantization scale */
    int zp;        /* zero point */
    const float *chscale; /* STEP_DEQUANT per channel: nch scales (the graph's), else NULL */
    int nch;       /* entries of chscale */
    long long inner; /* elements of one channel in a row (NCHW: H*W; HWC: 1) */
    int hwc;       /* STEP_QUANT, STEP_DEQUANT: the graph's side is NHWC and the
                    * int8 buffer holds the stream's HWC order (a Transpose of the
                    * graph folded into the step) */
    int *reads;    /* STEP_SEG, STEP_CPU: values read from other steps (graph order) */
    int nreads;    /* count */
    int *writes;   /* STEP_SEG, STEP_CPU: values other steps or the outputs read */
    int nwrites;   /* count */
} Step;

/* The schedule of a planned graph. */
typedef struct {
    char *fpga;    /* per node: 1 when on the FPGA (a stage or a layer a stage absorbs) */
    int *unit;     /* per node: its step's index before ordering, -1 none (FPGA: see seg) */
    int *seg;      /* per node: its FPGA segment, or -1 */
    Step *steps;   /* in model.c's order */
    int nsteps;    /* count */
    int ncpu;      /* STEP_CPU steps */
    int nseg;      /* STEP_SEG steps */
    int engine_seg; /* the shared engine's first part's segment (INT_MAX: no engine) */
} DrvPlan;

/* The steps of g under p; 0, 1 + e naming a node or value the driver cannot
 * run.  Free with drv_plan_free either way. */
int drv_plan(const HlsPlan *p, const GirGraph *g, DrvPlan *d, GirError *e);
void drv_plan_free(DrvPlan *d);

/* driver_cpu.c: the nodes of CPU step s as a graph of their own (inputs
 * s->reads, outputs s->writes, constants borrowed from g: free it before
 * g), named cpu<k>. */
GirGraph *drv_cpu_graph(const GirGraph *g, const DrvPlan *d, const Step *s);
/* Write cpu<k>.h and the objects cpu<k>-aarch64.o (cortex-a53) and
 * cpu<k>-x86_64.o of CPU step s into ddir, with the best schedule of
 * records (NULL: the defaults) for the workloads whose target matches; 0,
 * or -1 + e naming the node the CPU back end cannot lower. */
int drv_cpu_write(const GirGraph *g, const DrvPlan *d, const Step *s, const char *ddir,
                  const struct KlvRecords *records, GirError *e);

#endif
