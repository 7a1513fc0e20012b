/*
 * The kiln command: private declarations shared by the subcommand files.
 * Exit status: 0 success, 1 a check failed, 2 bad input or usage.
 */
#ifndef KILN_TOOL_H
#define KILN_TOOL_H

#include "frontend/frontend.h"
#include "graphir/graphir.h"

enum {
    KILN_OK = 0,        /* success */
    KILN_FAILED = 1,    /* a check failed (conformance, comparison) */
    KILN_BAD_INPUT = 2, /* bad input file or command line */
};

/* Options main.c takes off a command line for every command that reads
 * them, before the command parses the rest. */
enum {
    KILN_TAKES_SHAPES = 1, /* --input-shape: the command loads a model */
    KILN_TAKES_IMAGES = 2, /* the image preprocessing flags (image.h) */
};

/* One subcommand: name, entry point, one-line summary for `kiln --help`. */
typedef struct {
    const char *name;                   /* as typed after `kiln` */
    int (*fn)(int argc, char **argv);   /* argv[0] is the subcommand name */
    const char *summary;                /* one line */
    int takes;                          /* KILN_TAKES_* bits */
} KilnCommand;

/* The model at path as every command loads it: fe_load_model_shaped with
 * the command line's --input-shape options; static_shapes: make the shapes
 * static (fold shape subgraphs, refuse a dynamic input) even when none was
 * given.  NULL + error. */
GirGraph *kiln_load_model(const char *path, int static_shapes, GirError *e);
/* Whether --input-shape gave input name's dims (name "" also matches an
 * unnamed --input-shape when it is the first input). */
int kiln_shape_given(const GirGraph *g, const char *name);
/* The usage line of --input-shape. */
void kiln_shape_usage(FILE *f);

int kiln_cmd_info(int argc, char **argv);
int kiln_cmd_run(int argc, char **argv);
int kiln_cmd_ir(int argc, char **argv);
int kiln_cmd_conformance(int argc, char **argv);
int kiln_cmd_compare(int argc, char **argv);
int kiln_cmd_boards(int argc, char **argv);
int kiln_cmd_quantize(int argc, char **argv);

/* quantize.c: run the default pipeline on g and calibrate it on the .npy
 * files of calib_dir (or nrandom seeded random inputs when calib_dir is
 * NULL) into *out; then quantize g by those statistics.  Both print their
 * own error and return a KILN_ status. */
int kiln_calibrate(GirGraph *g, const char *calib_dir, int nrandom, GirCalib **out);
/* Where calibration runs the model. */
typedef enum {
    KILN_CALIB_CPU, /* the CPU back end (llvm/), the interpreter where it cannot compile */
    KILN_CALIB_REF, /* the reference interpreter */
} KilnCalibBackend;
/* kiln_calibrate through the given back end (kiln_calibrate: KILN_CALIB_CPU). */
int kiln_calibrate_on(GirGraph *g, const char *calib_dir, int nrandom, KilnCalibBackend be,
                      GirCalib **out);
/* "calibrated on N inputs through the CPU back end (...)": what the last
 * successful calibration did, to print once the command has succeeded. */
const char *kiln_calib_where(void);

/* calib_cpu.c: the CPU back end as the calibration runner. */
typedef struct KilnCalibCpu KilnCalibCpu;
/* Compile c's view and make it c's runner; NULL (why[] says why, the
 * interpreter stays the runner) when the back end cannot. */
KilnCalibCpu *kiln_calib_cpu_attach(GirCalib *c, char *why, size_t nwhy);
/* "the CPU back end (...)" or, for NULL, "the interpreter": where the
 * calibration ran, for the line kiln_calibrate prints when it is done. */
const char *kiln_calib_cpu_note(const KilnCalibCpu *k);
void kiln_calib_cpu_free(KilnCalibCpu *k);
int kiln_quantize_with(const GirGraph *g, const GirCalib *c, GirCalibMethod method,
                       double percentile, GirGraph **out, GirQuantNote **notes);
/* kiln_quantize_with (which gives head convs per-channel output scales) with
 * flags: KILN_Q_PER_TENSOR_OUTPUTS keeps one scale per tensor everywhere,
 * KILN_Q_BIAS_CORRECT corrects the biases (gir_quantize_bc). */
#define KILN_Q_PER_TENSOR_OUTPUTS 1
#define KILN_Q_BIAS_CORRECT 2
#define KILN_Q_CHANNEL_SCALES 4 /* per-channel activation scales (gir_quantize_cs); a value
                                 * qualifies below cs_ratio (0: KILN_CS_RATIO) */
#define KILN_Q_UNSIGNED 8       /* --unsigned auto: 0..255 where a value cannot be negative */
#define KILN_Q_FLOOR 16         /* --unsigned floor: tables with a small negative floor too */
#define KILN_Q_LEARNED_ROUND 32 /* --round learned: weights rounded to the layers' least
                                 * error on calib_in (gir_quantize_r) */
#define KILN_Q_CHECKED_ROUND 64 /* --round checked: with KILN_Q_LEARNED_ROUND, each channel's
                                 * rounding kept only where other inputs confirm it */
int kiln_quantize_opts(const GirGraph *g, const GirCalib *c, GirCalibMethod method,
                       double percentile, int flags, double cs_ratio, const char *fp32_nodes,
                       const GirTensor *calib_in, int ncalib_in, GirGraph **out,
                       GirQuantNote **notes);
/* The inputs kiln_calibrate_on calibrates g on (calib_dir's files in name
 * order, else nrandom seeded inputs), again: *n tensors into *out, data in a.
 * A KILN_ status (errors printed). */
int kiln_calib_inputs(const GirGraph *g, const char *calib_dir, int nrandom, GirArena *a,
                      GirTensor **out, int *n);
/* quantize.c: the calibration options kiln quantize and kiln compile share
 * (--calib, --calib-random, --method, --percentile, --calib-backend,
 * --per-tensor-outputs). */
typedef struct KilnQuantOpts {
    const char *calib_dir;  /* --calib DIR, or NULL */
    int nrandom;            /* --calib-random N; 0 when not given */
    GirCalibMethod method;  /* --method (minmax when not given) */
    int all;                /* --method all: every method, reports only */
    double percentile;      /* --percentile P */
    int given;              /* 1 when any of them was given */
    KilnCalibBackend backend; /* --calib-backend (cpu when not given) */
    int per_tensor_outputs; /* --per-tensor-outputs: head convs on one scale too */
    int bias_correct;       /* --bias-correct: biases absorb the int8 weights' mean error */
    int channel_scales;     /* --channel-scales auto (1) | off (0) */
    double cs_ratio;        /* --channel-scales auto:R: R; 0 for auto's own */
    int unsigned_acts;      /* --unsigned off (0) | auto (1) | floor (2) */
    const char *fp32_nodes; /* --fp32 N1,N2,...: nodes kept in fp32, or NULL */
    int round_learned;      /* --round checked (2) | learned (1) | nearest (0) */
    int fp32_auto;          /* --fp32 auto:N: N (fp32_nodes NULL then); 0 without */
} KilnQuantOpts;
/* Defaults: minmax, percentile 99.99, no calibration source given. */
void kiln_quant_opts_init(KilnQuantOpts *o);
/* The flags of kiln_quantize_opts that o asks for. */
int kiln_quant_flags(const KilnQuantOpts *o);
/* When argv[*i] is one of the options, take it and its value (*i moves
 * past it) and return a KILN_ status (an error printed, cmd naming the
 * command); -1 when argv[*i] is not one of them. */
int kiln_quant_option(const char *cmd, int argc, char **argv, int *i, KilnQuantOpts *o);
/* The options' lines of a usage text. */
void kiln_quant_usage(FILE *f);
/* Calibrate the fp32 g as o says (--calib-random's default when neither
 * source is given; g gets the default passes) and quantize it into *q;
 * *ncalib gets the inputs calibrated on.  *q borrows g's strings: free g
 * after it.  A KILN_ status (errors printed). */
int kiln_quantize_model(GirGraph *g, const KilnQuantOpts *o, GirGraph **q, int *ncalib);
/* The name of a calibration method ("minmax", "percentile", "kl"). */
const char *kiln_method_name(GirCalibMethod m);
#define KILN_CALIB_RANDOM 8 /* calibration inputs when no --calib or --calib-random is given */
/* A seeded uniform [0, 1) f32 tensor of static type t, data in a. */
void kiln_random_input(const GirType *t, uint64_t seed, GirArena *a, GirTensor *out);
/* The -i files ins[0 .. g->ninput) of subcommand cmd (kiln run): tensors,
 * whose dims make dynamic inputs static, then images at the inputs' shapes. */
int kiln_read_inputs(GirGraph *g, const char *cmd, const char *const *ins, GirArena *a,
                     GirTensor *in_t);
/* g's dynamic inputs take the dims of in_t (ins[i] an image: left out;
 * ins NULL: every tensor counts). */
int kiln_shapes_from_tensors(GirGraph *g, const char *cmd, const char *const *ins,
                             const GirTensor *in_t);
int kiln_cmd_export(int argc, char **argv);
int kiln_cmd_compile(int argc, char **argv);
int kiln_cmd_simulate(int argc, char **argv);
int kiln_cmd_opt(int argc, char **argv);
int kiln_cmd_bench(int argc, char **argv);
int kiln_cmd_lower(int argc, char **argv);

/* run.c: 1 when g is in the int8 form (an i8 value with a scale). */
int kiln_is_quantized(const GirGraph *g);
/* run.c: for --target int8, quantize an fp32 model in place on
 * calib_random random inputs (0: refuse an fp32 model).  A KILN_ status. */
int kiln_int8_model(const char *path, GirGraph **g, int calib_random);
/* run.c: for --target cpu, run the default passes on an fp32 g, then
 * compile it through llvm/ into *out (a KlvProgram, llvm/llvm.h; fma as
 * KlvOptions.fma); prints the
 * lowered and interpreted node counts and the compile times unless quiet. */
struct KlvProgram;
int kiln_cpu_compile(GirGraph *g, int threads, int fma, struct KlvProgram **out, int quiet);
/* kiln_cpu_compile with the best schedule per workload from records (NULL:
 * the defaults). */
struct KlvRecords;
int kiln_cpu_compile_tuned(GirGraph *g, int threads, int fma, const struct KlvRecords *records,
                           struct KlvProgram **out, int quiet);
/* kiln_cpu_compile_tuned for a run on given inputs (kiln bench): a graph
 * whose shapes wait on input values gets a specializer in *spec and no
 * program; one whose program interprets nodes reading extents decided by
 * input values gets both (the specializer to run, the program for values
 * that leave a shape unknown); any other just *out. */
struct KlvSpec;
int kiln_cpu_compile_spec(GirGraph *g, int threads, int fma, const struct KlvRecords *records,
                          struct KlvProgram **out, struct KlvSpec **spec);
/* tune.c: read --records FILE of command cmd into *out (prints the error
 * naming the file and line).  A KILN_ status. */
int kiln_load_records(const char *cmd, const char *path, struct KlvRecords **out);
int kiln_cmd_tune(int argc, char **argv);

/* Print "kiln: message" to stderr; returns KILN_BAD_INPUT. */
int kiln_user_error(const char *fmt, ...) GIR_PRINTF(1, 2);
/* Print a GirError as "kiln: ..." and return KILN_BAD_INPUT. */
int kiln_report(const GirError *e);
/* The whole file at path, NUL-terminated (malloc'd; *len = its size when
 * len is not NULL), or NULL when it cannot be read. */
char *kiln_read_file(const char *path, size_t *len);
/* True when argv[i] is "--help" or "-h". */
int kiln_is_help(const char *arg);

#endif
