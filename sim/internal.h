/*
 * sim/: declarations shared by the files of the kiln_sim library, not
 * exported beyond it (sim/sim.h is the public header).
 *
 *   regmap.c   regmap.json and the JSON helpers plan.json's reader shares
 *   sim.c      sim_open, the interpreter reference, sim_run
 *   build.c    the Verilator build and its cache
 *   proc.c     child processes with a log, the clock
 *   ddr.c      DDR images of tensors, buffer placement of one segment
 *   job.c      the harness job of one segment and its result file
 *   compare.c  beat and byte checks, figures, result.json and report.md
 */
#ifndef KILN_SIM_INTERNAL_H
#define KILN_SIM_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "sim/sim.h"

#define SIM_MAX_CHANS 256              /* DMA channels of one top */
#define SIM_DDR_BASE 0x100000000ull    /* first buffer: above 4 GiB, so the high base registers count */

/* One DMA channel of regmap.json "channels". */
typedef struct SimChan {
    const char *name;        /* in<n>, w<i>, out<n> */
    int rd;                  /* 1: read channel, 0: write */
    int data_w;              /* AXI data bits, 16, 32, 64 or 128 */
    int weight;              /* 1: a weight channel (w<i>) */
    int resident;            /* weight channels: 1 loaded on chip by CTRL bit1, 0 read every frame */
    int segment;             /* segment index */
    const char *value;       /* tensor channels: graph value name */
    int lanes, h, w, c;      /* tensor channels: lanes at the port and map shape */
    int64_t frame_bytes;     /* tensor channels: bytes per frame in DDR */
    int subs;                /* read channels: reads of each frame (a weight-tiled conv's passes) */
    int source;              /* read channels inside a segment: the writer channel whose buffer
                              * it reads (index), else -1 */
    const char *source_name; /* its name in regmap.json */
    int64_t offset;          /* weight channels: offset in rtl/weights.bin */
    int64_t bytes;           /* weight channels: bytes */
    uint32_t base_lo;        /* register offset of <ch>_BASE_LO */
    uint32_t base_hi;        /* register offset of <ch>_BASE_HI */
    uint64_t addr;           /* DDR address given to it */
} SimChan;

/* One PERF entry of regmap.json "perf". */
typedef struct SimPerf {
    int stage;         /* plan stage index */
    const char *layer; /* node name */
    uint32_t offset;   /* register offset of its first-frame word */
} SimPerf;

/* One map of the shared engine's region (regmap.json tsconv.maps). */
typedef struct SimTsMap {
    const char *value;   /* graph value */
    int role;            /* 0 input (the host writes it), 1 output, 2 scratch */
    int64_t offset;      /* byte offset in the map region */
    int h, w, c;         /* shape */
    int64_t frame_bytes; /* bytes */
} SimTsMap;

/* One part of the engine (regmap.json tsconv.parts): a range of the table. */
typedef struct SimTsPart {
    int seg;              /* the SEGMENT value that starts it */
    int first, count;     /* its descriptors */
    double cycles;        /* the plan's cycles of a frame of it */
} SimTsPart;

/* The time-shared conv engine (regmap.json "tsconv"; absent: seg < 0). */
typedef struct SimTs {
    int seg;              /* the SEGMENT value that starts it, or -1: no engine */
    int layers;           /* descriptors */
    int lanes;            /* its maps' lanes (PE) */
    int64_t table_offset; /* the table's offset in weights.bin */
    int64_t maps_bytes;   /* the map region's size */
    uint32_t base_lo;     /* register offset of TS0_BASE_LO (the table's address) */
    uint32_t base_hi;     /* of TS0_BASE_HI */
    double cycles;        /* the plan's cycles of a frame (fold.cycles) */
    SimTsMap *maps;       /* the maps */
    int nmap;             /* count */
    int *x, *y;           /* per descriptor: its input and output map (tsconv.descriptors) */
    SimTsPart *parts;     /* the parts (none listed: one, the whole table) */
    int npart;            /* count */
    int *order;           /* a frame's SEGMENT values in run order (tsconv.segment_order;
                           * absent: by number), nseg + npart of them */
    int unit;             /* 1: the parts run on kiln_regfile's unit nseg, segment k on
                           * unit k (tsconv.unit) */
    int flight;           /* frames in flight beside the dataflow (tsconv.frames_in_flight) */
    int steps;            /* 1: in steps (tsconv.steps, host-runtime/kiln_sched.h) */
    int gate;             /* > 0: a frame enters once the one before it ended entry gate - 1
                           * (tsconv.gate, kiln_sched.h); 0: none */
} SimTs;

struct SimMap {
    cJSON *doc;           /* the parsed document (owns the strings below) */
    SimChan *chan;        /* channels */
    int nchan;            /* count of chan */
    SimPerf *perf;        /* PERF registers */
    int nperf;            /* count of perf */
    int nseg;             /* FPGA segments */
    uint32_t reg_segment; /* offset of CFG SEGMENT */
    uint32_t reg_frames;  /* offset of CFG FRAMES */
    uint32_t reg_last;    /* the last register offset of the map (axil_addr_bits) */
    SimTs ts;             /* the shared engine */
};

/* Every frame's reference values. */
typedef struct SimRef {
    const GirGraph *g; /* the graph */
    GirTensor *in;     /* graph inputs, ninput per frame */
    GirTensor **vals;  /* per frame: tensor per value id (NULL data when not computed) */
} SimRef;

struct Sim {
    const char *dir;       /* the compiled folder as given */
    const char *rpath;     /* DIR/rtl/regmap.json */
    GirArena *arena;       /* what lives as long as the Sim: its paths */
    cJSON *plan;           /* plan.json */
    SimMap *map;           /* regmap.json (channel addresses set per segment) */
    GirGraph *g;           /* model.gir */
    double mhz;            /* plan clock */
    double plan_interval;  /* plan figures.interval_cycles */
    double plan_latency;   /* plan figures.latency_cycles */
    double plan_macs;      /* plan figures.macs (0: not given) */
    double plan_dsp;       /* plan figures.used.dsp (0: not given) */
    int clk2x;             /* plan clk2x: the DSPs at twice the clock (efficiency at the DSP clock) */
    double t0;             /* when opened: the wall time counts from here */
    const char *exe;       /* the harness executable, once built */
    /* the run in progress */
    const SimOptions *o;   /* its options */
    GirArena *run;         /* its reference values, paths and build strings */
    SimRef ref;            /* reference values of every frame */
    long cap;              /* cycle cap per start */
};

/* ---- sim.c ---- */
/* Fill e with the formatted line (e may be NULL); returns status. */
int sim_error(GirError *e, int status, const char *fmt, ...) GIR_PRINTF(3, 4);
/* Pass formatted text to the run's SimLogFn. */
void sim_log(const Sim *s, const char *fmt, ...) GIR_PRINTF(2, 3);
/* The tensor of value name in frame f, or NULL when the value is neither an
 * input nor computed. */
const GirTensor *sim_ref_value(const SimRef *r, int frame, const char *name);
/* The plan stage object of index i (NULL when out of range). */
const cJSON *sim_plan_stage(const Sim *s, int i);

/* ---- regmap.c ---- */
/* A JSON member as a number: a JSON number or a "0x.." / decimal string;
 * 0, or -1 when absent or not a number. */
int sim_json_num(const cJSON *o, const char *key, double *v);
/* A whole number member within lo..hi, else SIM_BAD_INPUT naming
 * file: where.key. */
int sim_need_num(const char *file, const char *where, const cJSON *o, const char *key, double lo,
                 double hi, double *v, GirError *e);
/* A non-empty string member, else SIM_BAD_INPUT naming file: where.key. */
int sim_need_str(const char *file, const char *where, const cJSON *o, const char *key,
                 const char **v, GirError *e);
/* An array member, or NULL after an error naming file: key. */
const cJSON *sim_need_array(const char *file, const cJSON *o, const char *key, GirError *e);
/* The JSON object of the file at path, or NULL after an error naming the
 * file (and the line of a syntax error). */
cJSON *sim_json_load(const char *path, GirError *e);
/* The map from the regmap.json document doc (taken over, also on failure). */
int sim_map_from_json(cJSON *doc, const char *path, int nstages, SimMap **out, GirError *e);

/* ---- build.c ---- */
/* Build (or find) DIR/sim/obj-<hash>/kiln_sim for o->threads; sets s->exe
 * (in the run's arena). */
int sim_build(Sim *s, GirError *e);

/* ---- proc.c ---- */
/* Monotonic seconds. */
double sim_now(void);
/* Run argv with stdout and stderr into log (appended); with ticks, reports
 * the elapsed seconds as `what ... N s`.  Exit status, or -1 when it could
 * not run. */
int sim_run_logged(const Sim *s, char *const argv[], const char *log, const char *what);
/* Runs the harness on job in folder sd (its result.txt and harness.log
 * there).  *text gets the result file (free it); an error line of the
 * harness, no result or a failed run is an error naming WHAT, and *text is
 * then NULL.  *wall_s, when not NULL, gets the run's wall time (sim/job.c). */
int sim_harness_run(const Sim *s, const char *sd, const char *job, const char *what, char **text,
                    double *wall_s, GirError *e);
/* rm -rf path. */
void sim_rm_rf(const char *path);

/* ---- ddr.c ---- */
/* The DDR image of one frame of tensor t at channel c into out
 * (c->frame_bytes bytes); SIM_BAD_INPUT when t does not fit c. */
int sim_ddr_image(const Sim *s, const SimChan *c, const GirValue *val, const GirTensor *t,
                  uint8_t *out, GirError *e);
/* Where segment sg's buffers go in the harness's DDR. */
typedef struct SimDdr {
    uint64_t next;  /* first free address */
    uint64_t wbase; /* the weight image's address */
    size_t wlen;    /* its bytes (0: the segment has no weight channel) */
} SimDdr;
/* Job lines that place rtl/weights.bin when segment sg has weight channels. */
int sim_ddr_weights(const Sim *s, int sg, SimDdr *d, FILE *job, GirError *e);
/* Job lines of segment sg's buffers: one of every frame per tensor channel
 * (input images written into dir sd and loaded), each channel's base
 * registers; sets each channel's addr. */
int sim_ddr_buffers(Sim *s, int sg, SimDdr *d, const char *sd, FILE *job, GirError *e);
/* Job lines that fill segment sg's output buffers with a byte no check
 * expects by chance in padding (0x5a). */
void sim_ddr_poison(const Sim *s, int sg, FILE *job);

/* ---- job.c ---- */
/* The harness command line of a job into argv (6 entries, NULL-ended):
 * EXE JOB RESULT, with back-pressure its plusargs. */
void sim_harness_argv(const Sim *s, const char *job, const char *res, char **argv);
/* Run segment sg: write and run its harness job, check and measure it into
 * r; perf_first/perf_last receive its stages' PERF words. */
int sim_job_segment(Sim *s, int sg, SimSegment *r, long *perf_first, long *perf_last,
                    GirError *e);
/* The value of key in a harness result text (with the wall seconds after it
 * in *wall when not NULL); -1 when absent. */
long sim_job_get(const char *res, const char *key, double *wall);

/* ---- tsjob.c ---- */
/* regmap.json's optional "tsconv" into m->ts. */
int sim_ts_parse(const char *file, SimMap *m, GirError *e);
/* Run part j of the shared engine alone, frame after frame, from the
 * interpreter's values: its outputs compared, cycles into r. */
int sim_job_tsconv(Sim *s, int j, SimSegment *r, GirError *e);
/* Run every frame in the steps of host-runtime/kiln_sched.h, the parts on
 * unit nseg beside the dataflow's segments (segment k on unit k), each run's inputs the
 * interpreter's: every output compared, cycles into r->beside. */
int sim_job_beside(Sim *s, SimResult *r, GirError *e);

/* ---- compare.c ---- */
/* The beats each channel of segment sg moved in one start (tag: cold, lat,
 * warm; frames of that start; load: CTRL bit1 set) against the contract. */
int sim_check_beats(const Sim *s, int sg, const char *res, const char *tag, int frames, int load,
                    GirError *e);
/* Compare segment sg's dumped outputs (in sd) with the reference; adds the
 * differing bytes to *mismatches. */
int sim_compare_segment(const Sim *s, int sg, const char *sd, long *mismatches, GirError *e);
/* Compare segment sg's outputs of every frame, dumped as sd/<ch>.bin, with
 * the reference (run: its name in the mismatch lines). */
int sim_compare_frames(const Sim *s, int sg, const char *sd, const char *run, long *mismatches,
                       GirError *e);
/* Figures of the run into r; writes DIR/sim/result.json and report.md. */
int sim_figures(Sim *s, SimResult *r, long *pf, long *pl, GirError *e);

#endif
