/*
 * sim: the generated accelerator of a compiled folder (kiln compile -o DIR)
 * run under Verilator against the int8 interpreter.  The one public header
 * of the kiln_sim library; `kiln simulate` and a simulator server call it.
 *
 *   sim_open     reads DIR/plan.json, DIR/rtl/regmap.json and DIR/model.gir
 *   sim_serve    the model behind a Unix socket for libkiln-rt (server.c)
 *   sim_run      interpreter reference, Verilator build (cached in
 *                DIR/sim/obj-<hash>/), one harness job per FPGA segment,
 *                bit-exact and beat checks, figures; writes
 *                DIR/sim/result.json and the "Measured" section of
 *                DIR/report.md
 *
 * Errors: a function returns SIM_OK, or SIM_FAILED (a check failed) or
 * SIM_BAD_INPUT (a missing or malformed file, a failed build) after filling
 * a GirError with one line that names the file and the place.  Nothing here
 * prints or exits: progress and the first mismatching bytes go to the
 * caller's SimLogFn.  docs/simulate.md describes the flow.
 */
#ifndef KILN_SIM_H
#define KILN_SIM_H

#include "graphir/graphir.h"

enum {
    SIM_OK = 0,        /* success */
    SIM_FAILED = 1,    /* a check failed: mismatch, deadlock, beat count, harness error */
    SIM_BAD_INPUT = 2, /* a missing or malformed file, a failed Verilator build */
};

/* A compiled folder opened for simulation. */
typedef struct Sim Sim;
/* The checked content of one regmap.json. */
typedef struct SimMap SimMap;

/* Receives text to show the user: whole lines ending in '\n', or, with
 * SimOptions.ticks, "\r  step ... N s" updates of a running step. */
typedef void (*SimLogFn)(void *user, const char *text);

/* How to run. */
typedef struct SimOptions {
    int frames;     /* frames of the back-to-back run, 1 or more */
    long latency;   /* DDR read latency in cycles (HLS_HW_DDR_LAT in hls/hw.h by default) */
    long cap;       /* cycles one start may take; 0: from the plan's figures */
    int threads;    /* Verilator --threads of the model (1: the single-threaded build) */
    int bp;         /* back-pressure: percent (1..99) of cycles a stream or AXI handshake
                     * may happen, 0 off; its own Verilator build (KILN_SIM_BP) */
    unsigned long bp_seed; /* seed of the back-pressure coins */
    int ticks;      /* 1: report the elapsed seconds of long steps (a TTY) */
    SimLogFn log;   /* progress and diagnostics; NULL: none */
    void *log_user; /* passed to log */
} SimOptions;

/* One PERF stage: the plan's prediction beside the measured cycle. */
typedef struct SimStage {
    int stage;               /* plan stage index */
    const char *layer;       /* node name */
    const char *engine;      /* plan stage engine ("?" when not given) */
    double predicted;        /* plan t_done, -1 when not given */
    long first;              /* measured t_done of the warm run's first frame (-1: none) */
    long last;               /* the same of its last frame */
    char predicted_text[32]; /* predicted as shown: "%.0f" or "-" */
    char error_text[32];     /* (first - predicted) / predicted as shown: "+1.2%" or "-" */
} SimStage;

/* Measured figures of one FPGA segment. */
typedef struct SimSegment {
    long cold_cycles; /* CYCLES of the cold FRAMES=1 run (resident weights loaded) */
    long lat_cycles;  /* CYCLES of a warm FRAMES=1 run */
    long warm_cycles; /* CYCLES of the warm FRAMES=N run */
    long sim_cycles;  /* simulated cycles of the whole job */
    double wall_s;    /* wall time of the runs */
    double interval;  /* max over its stages of (last - first) / (N - 1); -1 if N = 1 */
    long mismatches;  /* output bytes that differ */
} SimSegment;

/* The frames run in the steps of host-runtime/kiln_sched.h: the dataflow's
 * segments on kiln_regfile's units 0 .. nseg - 1, the shared engine's parts on unit nseg,
 * two frames in flight (a plan with --fold). */
typedef struct SimBeside {
    int ran;          /* 1: the job ran */
    int n;            /* runs a frame (segment_order's entries) */
    long total;       /* cycles from the first step's start to the last step's end */
    long *run;        /* per entry: CYCLES of the last frame's run (warm) */
    long *first;      /* per entry: CYCLES of frame 0's run */
    long long interval; /* the steps' steady state per frame, from run[] */
    long long latency;  /* a frame's first start to its last end there */
    double predicted_total; /* the plan's runs (fold.runs) in the same steps; -1: not given */
    long sim_cycles;  /* simulated cycles of the job */
    double wall_s;    /* its wall time */
    long mismatches;  /* output bytes that differ */
} SimBeside;

/* What one sim_run measured. */
typedef struct SimResult {
    SimStage *stages;   /* PERF stages in regmap order */
    int nstage;         /* count of stages */
    SimSegment *segs;   /* per FPGA segment */
    int nseg;           /* count of segs */
    long mismatches;    /* output bytes that differ, all segments */
    SimBeside beside;   /* the frames with the shared engine beside the dataflow */
    char **lines;       /* the summary, one line each ("segment 0: ...", "interval: ...") */
    int nline;          /* count of lines */
    char *json;         /* the text of DIR/sim/result.json */
} SimResult;

/* Open the compiled folder dir: its rtl/ must exist; plan.json, regmap.json
 * and model.gir are read and checked against each other.  SIM_OK and *out,
 * or an error status. */
int sim_open(const char *dir, Sim **out, GirError *e);
/* The planned graph (model.gir): the caller makes the inputs from it. */
const GirGraph *sim_graph(const Sim *s);
/* Run o->frames frames: inputs holds g->ninput tensors per frame, frame after
 * frame.  When every segment ran, *out gets the figures (free with
 * sim_result_free) even when a byte mismatched; SIM_OK only when every
 * output byte matched and the files were written. */
int sim_run(Sim *s, const SimOptions *o, const GirTensor *inputs, SimResult **out, GirError *e);
void sim_result_free(SimResult *r);
/* Build (or reuse) the model and serve it on the Unix socket socket_path
 * (the protocol of docs/runtime.md, for libkiln-rt's sim transport) until a
 * client sends quit.  o->threads and o->latency apply.  SIM_OK on quit, an
 * error status when the build or the server failed. */
int sim_serve(Sim *s, const SimOptions *o, const char *socket_path, GirError *e);
void sim_close(Sim *s);

/* Check the regmap.json text (path names it in errors) against a plan of
 * nstages stages.  SIM_OK and *out (free with sim_map_free) or
 * SIM_BAD_INPUT. */
int sim_map_parse(const char *text, size_t len, const char *path, int nstages, SimMap **out,
                  GirError *e);
void sim_map_free(SimMap *m);

#endif
