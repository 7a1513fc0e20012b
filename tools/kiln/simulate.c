/*
 * kiln simulate DIR [-i in.npy] [--frames N] [--latency L] [--cap CYCLES]
 *                   [--threads T] [--json]
 * Runs the generated accelerator of a compiled folder (kiln compile -o DIR)
 * under Verilator against the int8 interpreter: every output byte of every
 * FPGA segment must match bit for bit, and the cycles are set beside the
 * plan's predictions.  Reads DIR/plan.json, DIR/rtl/regmap.json,
 * DIR/model.gir; builds (or reuses) DIR/sim/obj-<hash>/kiln_sim from
 * DIR/rtl/ and sim/harness/; writes DIR/sim/result.json and a "Measured"
 * section of DIR/report.md.  docs/simulate.md describes the flow.
 */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "kiln.h"

#define MAX_CHANS 256           /* DMA channels of one top */
#define MAX_FRAMES 64           /* --frames upper bound */
#define MAX_THREADS 64          /* --threads upper bound */
#define DDR_BASE 0x100000000ull /* first buffer: above 4 GiB, so the high base registers count */
#define SHOW_MISMATCH 5         /* mismatching bytes printed per channel */

/* One DMA channel of regmap.json "channels". */
typedef struct SimChan {
    const char *name;    /* in<n>, w<i>, out<n> */
    int rd;              /* 1: read channel, 0: write */
    int data_w;          /* AXI data bits, 16, 32, 64 or 128 */
    int weight;          /* 1: a weight channel (w<i>) */
    int resident;        /* weight channels: 1 loaded on chip by CTRL bit1, 0 read every frame */
    int segment;         /* segment index */
    const char *value;   /* tensor channels: graph value name */
    int lanes, h, w, c;  /* tensor channels: lanes at the port and map shape */
    int64_t frame_bytes; /* tensor channels: bytes per frame in DDR */
    int subs;            /* read channels: reads of each frame (a weight-tiled conv's passes) */
    int source;          /* read channels inside a segment: the writer channel whose buffer
                          * it reads (index), else -1 */
    const char *source_name; /* its name in regmap.json */
    int64_t offset;      /* weight channels: offset in rtl/weights.bin */
    int64_t bytes;       /* weight channels: bytes */
    uint32_t base_lo;    /* register offset of <ch>_BASE_LO */
    uint32_t base_hi;    /* register offset of <ch>_BASE_HI */
    uint64_t addr;       /* DDR address given to it */
} SimChan;

/* One PERF entry of regmap.json "perf". */
typedef struct SimPerf {
    int stage;          /* plan stage index */
    const char *layer;  /* node name */
    uint32_t offset;    /* register offset of its first-frame word */
} SimPerf;

/* What simulate needs of regmap.json and plan.json. */
typedef struct SimMap {
    cJSON *regmap, *plan;   /* parsed documents (own the strings below) */
    SimChan chan[MAX_CHANS];/* channels */
    int nchan;              /* count of chan */
    SimPerf *perf;          /* PERF registers */
    int nperf;              /* count of perf */
    int nseg;               /* FPGA segments */
    uint32_t reg_segment;   /* offset of CFG SEGMENT */
    uint32_t reg_frames;    /* offset of CFG FRAMES */
    double mhz;             /* plan clock */
    double plan_interval;   /* plan figures.interval_cycles */
    double plan_latency;    /* plan figures.latency_cycles */
    double plan_macs;       /* plan figures.macs (0: not given) */
    double plan_dsp;        /* plan figures.used.dsp (0: not given) */
} SimMap;

/* Measured figures of one segment. */
typedef struct SegResult {
    long cold_cycles;   /* CYCLES of the cold FRAMES=1 run (resident weights loaded) */
    long lat_cycles;    /* CYCLES of a warm FRAMES=1 run */
    long warm_cycles;   /* CYCLES of the warm FRAMES=N run */
    long sim_cycles;    /* simulated cycles of the whole job */
    double wall_s;      /* wall time of the runs */
    double interval;    /* max over its stages of (last - first) / (N - 1); -1 if N = 1 */
    long mismatches;    /* output bytes that differ */
} SegResult;

static void simulate_usage(FILE *f)
{
    fprintf(f,
            "usage: kiln simulate DIR [-i in.npy] [--frames N] [--latency L] [--cap CYCLES]\n"
            "                     [--threads T] [--json]\n"
            "  DIR          a folder written by kiln compile (plan.json, model.gir, rtl/)\n"
            "  -i in.npy    input tensor (default: seeded random inputs, one per frame)\n"
            "  --frames N   frames of the back-to-back run (default 2)\n"
            "  --latency L  DDR read latency in cycles (default 40)\n"
            "  --cap C      cycles a start may take before it counts as a deadlock\n"
            "  --threads T  threads of the Verilator model (default 1; its own build)\n"
            "  --json       print the figures as JSON\n"
            "Checks every output byte against the int8 interpreter and measures cycles.\n");
}

/* Write text to path atomically (temp file + rename). */
static int write_atomic(const char *path, const char *text, size_t len)
{
    char tmp[4200];
    FILE *f;
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", path, (long)getpid());
    f = fopen(tmp, "wb");
    if (!f)
        return -1;
    if (fwrite(text, 1, len, f) != len) {
        fclose(f);
        unlink(tmp);
        return -1;
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        unlink(tmp);
        return -1;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ---- regmap.json and plan.json ---------------------------------------------- */

/* A JSON member as a number: a JSON number or a "0x.." / decimal string. */
static int json_num(const cJSON *o, const char *key, double *v)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    char *end;
    if (cJSON_IsNumber(j)) {
        *v = j->valuedouble;
        return 0;
    }
    if (cJSON_IsString(j) && j->valuestring[0]) {
        *v = (double)strtoull(j->valuestring, &end, 0);
        return *end ? -1 : 0;
    }
    return -1;
}

static int need_num(const char *file, const char *where, const cJSON *o, const char *key,
                    double lo, double hi, double *v)
{
    if (json_num(o, key, v) < 0)
        return kiln_user_error("%s: %s.%s: expected a number", file, where, key);
    if (*v < lo || *v > hi || *v != floor(*v))
        return kiln_user_error("%s: %s.%s: %.17g out of range [%.0f, %.0f]", file, where, key, *v,
                               lo, hi);
    return KILN_OK;
}

static int need_str(const char *file, const char *where, const cJSON *o, const char *key,
                    const char **v)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(j) || !j->valuestring[0])
        return kiln_user_error("%s: %s.%s: expected a non-empty string", file, where, key);
    *v = j->valuestring;
    return KILN_OK;
}

static const cJSON *need_array(const char *file, const cJSON *o, const char *key)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsArray(j)) {
        kiln_user_error("%s: %s: expected an array", file, key);
        return NULL;
    }
    return j;
}

static int parse_chan(const char *file, const cJSON *o, int idx, SimChan *c)
{
    char where[64];
    const char *dir = NULL;
    double v;
    int rc;
    snprintf(where, sizeof where, "channels[%d]", idx);
    if (!cJSON_IsObject(o))
        return kiln_user_error("%s: %s: expected an object", file, where);
    if ((rc = need_str(file, where, o, "name", &c->name)) ||
        (rc = need_str(file, where, o, "dir", &dir)))
        return rc;
    if (strcmp(dir, "rd") && strcmp(dir, "wr"))
        return kiln_user_error("%s: %s.dir: '%s' is neither \"rd\" nor \"wr\"", file, where, dir);
    c->rd = !strcmp(dir, "rd");
    if ((rc = need_num(file, where, o, "data_w", 16, 128, &v)))
        return rc;
    if (v != 16 && v != 32 && v != 64 && v != 128)
        return kiln_user_error("%s: %s.data_w: %.0f (expected 16, 32, 64 or 128)", file, where, v);
    c->data_w = (int)v;
    if ((rc = need_num(file, where, o, "segment", 0, 1e6, &v)))
        return rc;
    c->segment = (int)v;
    if ((rc = need_num(file, where, o, "base_lo", 0x40, 0xffc, &v)))
        return rc;
    c->base_lo = (uint32_t)v;
    if ((rc = need_num(file, where, o, "base_hi", 0x40, 0xffc, &v)))
        return rc;
    c->base_hi = (uint32_t)v;
    c->weight = c->name[0] == 'w';
    if (c->weight) {
        if (!c->rd)
            return kiln_user_error("%s: %s: weight channel '%s' is not a read channel", file,
                                   where, c->name);
        if ((rc = need_num(file, where, o, "offset", 0, 1e15, &v)))
            return rc;
        c->offset = (int64_t)v;
        if ((rc = need_num(file, where, o, "bytes", 1, 1e15, &v)))
            return rc;
        c->bytes = (int64_t)v;
        {
            const cJSON *r = cJSON_GetObjectItemCaseSensitive(o, "resident");
            if (!cJSON_IsBool(r))
                return kiln_user_error("%s: %s.resident: expected true or false", file, where);
            c->resident = cJSON_IsTrue(r);
        }
        return KILN_OK;
    }
    if ((rc = need_str(file, where, o, "value", &c->value)))
        return rc;
    if ((rc = need_num(file, where, o, "lanes", 1, 4096, &v)))
        return rc;
    c->lanes = (int)v;
    if ((rc = need_num(file, where, o, "h", 1, 1 << 16, &v)))
        return rc;
    c->h = (int)v;
    if ((rc = need_num(file, where, o, "w", 1, 1 << 16, &v)))
        return rc;
    c->w = (int)v;
    if ((rc = need_num(file, where, o, "c", 1, 1 << 16, &v)))
        return rc;
    c->c = (int)v;
    if ((rc = need_num(file, where, o, "frame_bytes", 1, 1 << 30, &v)))
        return rc;
    c->frame_bytes = (int64_t)v;
    c->subs = 1;
    if (cJSON_GetObjectItemCaseSensitive(o, "subs")) {
        if ((rc = need_num(file, where, o, "subs", 1, 1 << 20, &v)))
            return rc;
        c->subs = (int)v;
    }
    if (cJSON_GetObjectItemCaseSensitive(o, "source")) {
        if ((rc = need_str(file, where, o, "source", &c->source_name)))
            return rc;
        if (!c->rd)
            return kiln_user_error("%s: %s.source: only a read channel has a source", file, where);
    }
    {
        int64_t raw = (int64_t)c->h * c->w * ((c->c + c->lanes - 1) / c->lanes) * c->lanes;
        if (c->frame_bytes < raw)
            return kiln_user_error("%s: %s.frame_bytes: %" PRId64 " is less than the %" PRId64
                                   " bytes of a %dx%dx%d map in %d lanes", file, where,
                                   c->frame_bytes, raw, c->h, c->w, c->c, c->lanes);
    }
    return KILN_OK;
}

/* A register's offset by name from "registers"; -1 after an error. */
static int find_reg(const char *file, const cJSON *regs, const char *name, uint32_t *off)
{
    const cJSON *r;
    int i = 0;
    cJSON_ArrayForEach(r, regs) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(r, "name");
        double v;
        char where[64];
        if (cJSON_IsString(n) && !strcmp(n->valuestring, name)) {
            snprintf(where, sizeof where, "registers[%d]", i);
            if (need_num(file, where, r, "offset", 0, 0xffc, &v))
                return -1;
            *off = (uint32_t)v;
            return 0;
        }
        i++;
    }
    kiln_user_error("%s: registers: no register named '%s'", file, name);
    return -1;
}

static cJSON *load_json(const char *path, int *rc)
{
    char *text = kiln_read_file(path, NULL);
    cJSON *j;
    const char *at;
    if (!text) {
        *rc = kiln_user_error("%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    j = cJSON_ParseWithOpts(text, &at, 1);
    if (!j || !cJSON_IsObject(j)) {
        int line = 1;
        const char *s;
        if (!j)
            for (s = text; s < at && *s; s++)
                line += *s == '\n';
        *rc = j ? kiln_user_error("%s: expected a JSON object", path)
                : kiln_user_error("%s:%d: malformed JSON", path, line);
        cJSON_Delete(j);
        free(text);
        return NULL;
    }
    free(text);
    *rc = KILN_OK;
    return j;
}

static int load_map(const char *dir, SimMap *m)
{
    char rpath[4096], ppath[4096];
    const cJSON *a, *o, *fig;
    int rc, i;
    double v;
    snprintf(rpath, sizeof rpath, "%s/rtl/regmap.json", dir);
    snprintf(ppath, sizeof ppath, "%s/plan.json", dir);
    if (!(m->plan = load_json(ppath, &rc)))
        return rc;
    if (!(m->regmap = load_json(rpath, &rc)))
        return rc;
    if ((rc = need_num(ppath, "plan", m->plan, "clock_mhz", 1, 10000, &v)))
        return rc;
    m->mhz = v;
    fig = cJSON_GetObjectItemCaseSensitive(m->plan, "figures");
    if (!cJSON_IsObject(fig) || json_num(fig, "interval_cycles", &m->plan_interval) ||
        json_num(fig, "latency_cycles", &m->plan_latency))
        return kiln_user_error("%s: figures: expected interval_cycles and latency_cycles", ppath);
    /* for the measured DSP efficiency; a plan without them gets none */
    if (json_num(fig, "macs", &m->plan_macs) ||
        json_num(cJSON_GetObjectItemCaseSensitive(fig, "used"), "dsp", &m->plan_dsp))
        m->plan_macs = m->plan_dsp = 0;
    if (!need_array(ppath, m->plan, "stages"))
        return KILN_BAD_INPUT;
    if (!(a = need_array(rpath, m->regmap, "registers")))
        return KILN_BAD_INPUT;
    if (find_reg(rpath, a, "SEGMENT", &m->reg_segment) ||
        find_reg(rpath, a, "FRAMES", &m->reg_frames))
        return KILN_BAD_INPUT;
    if (!(a = need_array(rpath, m->regmap, "segments")))
        return KILN_BAD_INPUT;
    m->nseg = cJSON_GetArraySize(a);
    if (m->nseg < 1)
        return kiln_user_error("%s: segments: no FPGA segment", rpath);
    if (!(a = need_array(rpath, m->regmap, "channels")))
        return KILN_BAD_INPUT;
    i = 0;
    cJSON_ArrayForEach(o, a) {
        if (i == MAX_CHANS)
            return kiln_user_error("%s: channels: more than %d", rpath, MAX_CHANS);
        if ((rc = parse_chan(rpath, o, i, &m->chan[i])))
            return rc;
        if (m->chan[i].segment >= m->nseg)
            return kiln_user_error("%s: channels[%d].segment: %d, but there are %d segments",
                                   rpath, i, m->chan[i].segment, m->nseg);
        i++;
    }
    m->nchan = i;
    for (i = 0; i < m->nchan; i++) { /* readers of a writer's buffer inside a segment */
        SimChan *c = &m->chan[i];
        int k;
        c->source = -1;
        if (!c->source_name)
            continue;
        for (k = 0; k < m->nchan; k++)
            if (!m->chan[k].rd && !strcmp(m->chan[k].name, c->source_name))
                c->source = k;
        if (c->source < 0 || m->chan[c->source].segment != c->segment ||
            m->chan[c->source].frame_bytes != c->frame_bytes)
            return kiln_user_error("%s: channels[%d].source: '%s' is not a write channel of "
                                   "segment %d with frame_bytes %" PRId64, rpath, i,
                                   c->source_name, c->segment, c->frame_bytes);
    }
    if (!(a = need_array(rpath, m->regmap, "perf")))
        return KILN_BAD_INPUT;
    m->nperf = cJSON_GetArraySize(a);
    m->perf = calloc((size_t)m->nperf + 1, sizeof *m->perf);
    if (!m->perf)
        gir_die("out of memory");
    i = 0;
    cJSON_ArrayForEach(o, a) {
        char where[64];
        snprintf(where, sizeof where, "perf[%d]", i);
        if ((rc = need_num(rpath, where, o, "stage", 0, cJSON_GetArraySize(
                 cJSON_GetObjectItemCaseSensitive(m->plan, "stages")) - 1, &v)))
            return rc;
        m->perf[i].stage = (int)v;
        if ((rc = need_str(rpath, where, o, "layer", &m->perf[i].layer)) ||
            (rc = need_num(rpath, where, o, "offset", 0x200, 0xff8, &v)))
            return rc;
        m->perf[i].offset = (uint32_t)v;
        i++;
    }
    return KILN_OK;
}

/* The plan stage object of index i (NULL when out of range). */
static const cJSON *plan_stage(const SimMap *m, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(m->plan, "stages"), i);
}

/* ---- reference values --------------------------------------------------------- */

/* Run g on inputs keeping every node value: outs[k] is value ids[k]. */
static int run_all(const GirGraph *g, const GirTensor *inputs, GirArena *a, GirTensor **outs,
                   int **ids, int *n, GirError *e)
{
    GirGraph view = *g;
    int i, k = 0;
    *ids = gir_arena_alloc(a, sizeof **ids * (size_t)(g->nval + 1));
    for (i = 0; i < g->nval; i++)
        if (g->vals[i].kind == GIR_VAL_NODE)
            (*ids)[k++] = i;
    *outs = gir_arena_alloc(a, sizeof **outs * (size_t)(k + 1));
    *n = k;
    view.outputs = *ids;
    view.noutput = k;
    return gir_run(&view, inputs, *outs, a, e);
}

/* Every frame's values: tensor of value v in frame f. */
typedef struct Ref {
    const GirGraph *g;   /* the graph */
    GirTensor *in;       /* graph inputs, ninput per frame */
    GirTensor **vals;    /* per frame: tensor per value id (NULL data when not computed) */
} Ref;

static const GirTensor *ref_value(const Ref *r, int frame, const char *name)
{
    int v = gir_find_value(r->g, name), i;
    if (v < 0)
        return NULL;
    for (i = 0; i < r->g->ninput; i++)
        if (r->g->inputs[i] == v)
            return &r->in[frame * r->g->ninput + i];
    return r->vals[frame][v].data ? &r->vals[frame][v] : NULL;
}

/* The DDR image of one frame of tensor t at channel c: raster order, per
 * pixel ceil(C/L) beats of L lanes, zero padded to frame_bytes. */
static int to_ddr(const SimChan *c, const GirValue *val, const GirTensor *t, uint8_t *out,
                  const char *rpath)
{
    const int64_t *d = t->type.dims;
    int nhwc = val->layout == GIR_LAYOUT_NHWC, cg = (c->c + c->lanes - 1) / c->lanes;
    int64_t H = nhwc ? d[1] : d[2], W = nhwc ? d[2] : d[3], C = nhwc ? d[3] : d[1];
    int64_t y, x, ch;
    char ty[128];
    if (t->type.dtype != GIR_DT_I8 || t->type.rank != 4 || d[0] != 1 || H != c->h || W != c->w ||
        C != c->c)
        return kiln_user_error("%s: channel %s: value '%s' is %s, not i8 %dx%dx%d (HxWxC)", rpath,
                               c->name, c->value, gir_type_str(&t->type, ty, sizeof ty), c->h,
                               c->w, c->c);
    memset(out, 0, (size_t)c->frame_bytes);
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            for (ch = 0; ch < C; ch++) {
                int64_t src = nhwc ? (y * W + x) * C + ch : (ch * H + y) * W + x;
                out[(y * W + x) * cg * c->lanes + ch] = (uint8_t)((const int8_t *)t->data)[src];
            }
    return KILN_OK;
}

/* ---- the Verilator build --------------------------------------------------------- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    size_t i;
    for (i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Names of the *.v files of dir, sorted (malloc'd array of malloc'd strings). */
static int list_v(const char *dir, char ***names)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0, cap = 16;
    if (!d)
        return -1;
    *names = malloc(sizeof **names * (size_t)cap);
    if (!*names)
        gir_die("out of memory");
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 3 || strcmp(de->d_name + l - 2, ".v"))
            continue;
        if (n == cap && !(*names = realloc(*names, sizeof **names * (size_t)(cap *= 2))))
            gir_die("out of memory");
        if (!((*names)[n++] = strdup(de->d_name)))
            gir_die("out of memory");
    }
    closedir(d);
    qsort(*names, (size_t)n, sizeof **names, cmp_str);
    return n;
}

/* Run argv with stdout and stderr into log (appended); shows elapsed seconds
 * on a TTY.  Exit status, or -1 when it could not run. */
static int run_logged(char *const argv[], const char *log, const char *what)
{
    pid_t pid;
    int st, tty = isatty(2);
    double t0 = now_s();
    fflush(NULL);
    pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0666);
        if (fd < 0)
            _exit(127);
        dup2(fd, 1);
        dup2(fd, 2);
        close(fd);
        execvp(argv[0], argv);
        _exit(127);
    }
    for (;;) {
        pid_t r = waitpid(pid, &st, tty ? WNOHANG : 0);
        if (r == pid)
            break;
        if (r < 0)
            return -1;
        fprintf(stderr, "\r  %s ... %.0f s", what, now_s() - t0);
        fflush(stderr);
        {
            struct timespec ts = {0, 250000000};
            nanosleep(&ts, NULL);
        }
    }
    if (tty)
        fprintf(stderr, "\r  %s ... %.0f s\n", what, now_s() - t0);
    if (!WIFEXITED(st))
        return -1;
    return WEXITSTATUS(st) == 127 ? -1 : WEXITSTATUS(st);
}

/* Output of `verilator --version` into buf ("" when it cannot run). */
static void verilator_version(char *buf, size_t size)
{
    FILE *p = popen("verilator --version 2>/dev/null", "r");
    size_t n = 0;
    buf[0] = 0;
    if (!p)
        return;
    n = fread(buf, 1, size - 1, p);
    buf[n] = 0;
    pclose(p);
}

static void rm_rf(const char *path)
{
    char *argv[] = {"rm", "-rf", (char *)path, NULL};
    pid_t pid = fork();
    int st;
    if (pid == 0) {
        execvp("rm", argv);
        _exit(127);
    }
    if (pid > 0)
        waitpid(pid, &st, 0);
}

/* The flags of the harness.c compile and the fixed part of the Verilator
 * command (both part of the build hash).  The model's C++ is built -O2, not
 * Verilator's default -Os: on YOLOv3-tiny 416 for ZCU104 it simulates 1.34x
 * faster (48.6 k against 36.3 k cycles/s) for a 9% longer build. */
static const char *const ccflags[] = {"cc", "-std=c11", "-O2", NULL};
static const char *const vflags[] = {
    "verilator", "--cc", "--exe", "--build", "-j", "2", "-O3", "--x-assign", "fast",
    "--x-initial", "fast", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", "kiln_top",
    "-MAKEFLAGS", "OPT_FAST=-O2 OPT_GLOBAL=-O2", NULL};

/* Build (or find) DIR/sim/obj-<hash>/kiln_sim for a model of `threads`
 * threads (Verilator --threads; 1: single-threaded); path of the executable
 * in exe.  Paths are made absolute: make runs inside the build folder. */
static int build_model(const char *user_dir, int threads, char *exe, size_t size)
{
    char *dir = realpath(user_dir, NULL);
    static const char *const hsrc[] = {"harness.h", "harness.c", "harness_top.cpp", "port_bytes.h"};
    char rtl[4096], path[4200], obj[4200], tmp[4300], log[4200], ver[512], cflags[9000];
    char ccobj[4400], hc[4200], htop[4200], mdir[4300], nthr[16];
    char **names = NULL, *text;
    size_t len, i;
    int n, k, rc, first;
    uint64_t h = 0xcbf29ce484222325ull;
    char **argv;

    if (!dir)
        return kiln_user_error("%s: %s", user_dir, strerror(errno));
    snprintf(rtl, sizeof rtl, "%s/rtl", dir);
    n = list_v(rtl, &names);
    if (n <= 0) {
        if (n == 0)
            free(names);
        free(dir);
        return kiln_user_error("%s/rtl: no Verilog files (kiln compile writes them)", user_dir);
    }
    for (k = 0; k <= n; k++) { /* the rtl files and kiln_ports.h */
        const char *nm = k < n ? names[k] : "kiln_ports.h";
        snprintf(path, sizeof path, "%s/%s", rtl, nm);
        if (!(text = kiln_read_file(path, &len))) {
            rc = kiln_user_error("%s: cannot read: %s", path, strerror(errno));
            goto out;
        }
        h = fnv(h, nm, strlen(nm) + 1);
        h = fnv(h, text, len);
        free(text);
    }
    for (i = 0; i < sizeof hsrc / sizeof hsrc[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", KILN_SIM_HARNESS_DIR, hsrc[i]);
        if (!(text = kiln_read_file(path, &len))) {
            rc = kiln_user_error("%s: cannot read: %s (harness sources)", path, strerror(errno));
            goto out;
        }
        h = fnv(h, text, len);
        free(text);
    }
    verilator_version(ver, sizeof ver);
    if (!ver[0]) {
        rc = kiln_user_error("simulate: verilator not found on PATH");
        goto out;
    }
    h = fnv(h, ver, strlen(ver));
    for (k = 0; vflags[k]; k++)
        h = fnv(h, vflags[k], strlen(vflags[k]) + 1);
    for (k = 0; ccflags[k]; k++)
        h = fnv(h, ccflags[k], strlen(ccflags[k]) + 1);
    snprintf(nthr, sizeof nthr, "%d", threads);
    if (threads > 1) /* the single-threaded build keeps its hash */
        h = fnv(h, nthr, strlen(nthr) + 1);
    snprintf(path, sizeof path, "%s/sim", dir);
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        rc = kiln_user_error("%s: cannot create: %s", path, strerror(errno));
        goto out;
    }
    snprintf(obj, sizeof obj, "%s/sim/obj-%016" PRIx64, dir, h);
    snprintf(exe, size, "%s/kiln_sim", obj);
    if (access(exe, X_OK) == 0) {
        fprintf(stderr, "simulate: reusing the Verilator build %s\n", obj);
        rc = KILN_OK;
        goto out;
    }
    snprintf(tmp, sizeof tmp, "%s.tmp-%ld", obj, (long)getpid());
    snprintf(log, sizeof log, "%s/sim/build.log", dir);
    rm_rf(tmp);
    unlink(log);
    if (mkdir(tmp, 0777) != 0) {
        rc = kiln_user_error("%s: cannot create: %s", tmp, strerror(errno));
        goto out;
    }
    fprintf(stderr, "simulate: building the Verilator model of %s (%d Verilog files; log %s)\n",
            rtl, n, log);
    snprintf(ccobj, sizeof ccobj, "%s/harness.o", tmp);
    snprintf(hc, sizeof hc, "%s/harness.c", KILN_SIM_HARNESS_DIR);
    snprintf(htop, sizeof htop, "%s/harness_top.cpp", KILN_SIM_HARNESS_DIR);
    snprintf(mdir, sizeof mdir, "%s", tmp);
    {
        char *cc[8];
        for (k = 0; ccflags[k]; k++)
            cc[k] = (char *)ccflags[k];
        cc[k++] = "-c";
        cc[k++] = hc;
        cc[k++] = "-o";
        cc[k++] = ccobj;
        cc[k] = NULL;
        if (run_logged(cc, log, "cc harness.c") != 0) {
            rm_rf(tmp);
            rc = kiln_user_error("simulate: compiling %s failed (log %s)", hc, log);
            goto out;
        }
    }
    snprintf(cflags, sizeof cflags, "-I%s -I%s", KILN_SIM_HARNESS_DIR, rtl);
    argv = calloc((size_t)n + 32, sizeof *argv);
    if (!argv)
        gir_die("out of memory");
    for (k = 0; vflags[k]; k++)
        argv[k] = (char *)vflags[k];
    if (threads > 1) {
        argv[k++] = "--threads";
        argv[k++] = nthr;
    }
    argv[k++] = "-Mdir";
    argv[k++] = mdir;
    argv[k++] = "-o";
    argv[k++] = "kiln_sim";
    argv[k++] = "-CFLAGS";
    argv[k++] = cflags;
    argv[k++] = htop;
    argv[k++] = ccobj;
    first = k;
    for (i = 0; i < (size_t)n; i++) {
        char *p = malloc(strlen(rtl) + strlen(names[i]) + 2);
        if (!p)
            gir_die("out of memory");
        sprintf(p, "%s/%s", rtl, names[i]);
        argv[k++] = p;
    }
    argv[k] = NULL;
    rc = run_logged(argv, log, "verilator --build");
    for (i = 0; i < (size_t)n; i++)
        free(argv[first + (int)i]);
    free(argv);
    if (rc != 0) {
        rm_rf(tmp);
        rc = kiln_user_error("simulate: the Verilator build failed (log %s)", log);
        goto out;
    }
    if (rename(tmp, obj) != 0) {
        rm_rf(tmp);
        rc = kiln_user_error("%s: cannot create: %s", obj, strerror(errno));
        goto out;
    }
    rc = KILN_OK;
out:
    for (k = 0; k < n; k++)
        free(names[k]);
    free(names);
    free(dir);
    return rc;
}

/* ---- one segment ------------------------------------------------------------------ */

/* A key of the harness result file; -1 when absent. */
static long res_get(const char *res, const char *key, double *wall)
{
    size_t kl = strlen(key);
    const char *p = res;
    while (p && *p) {
        if (!strncmp(p, key, kl) && p[kl] == ' ') {
            char *end;
            long v = strtol(p + kl + 1, &end, 10);
            if (wall)
                *wall = strtod(end, NULL);
            return v;
        }
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return -1;
}

/* Check the beats each channel of segment s moved in one start of the
 * harness result (tag: cold, lat, warm; frames of that start) against the
 * contract: tensors move FRAMES frames, resident weights are read once when
 * CTRL bit1 is set (only the cold start sets it), streamed weights once per
 * frame.  KILN_OK or KILN_FAILED after a message. */
static int check_beats(const SimMap *m, int s, const char *res, const char *tag, int frames,
                       int load)
{
    int i;
    for (i = 0; i < m->nchan; i++) {
        const SimChan *c = &m->chan[i];
        long nb = c->data_w / 8, want, got;
        char key[128];
        const char *why;
        if (c->segment != s)
            continue;
        if (!c->weight) {
            want = frames * (c->rd ? c->subs : 1) * (long)((c->frame_bytes + nb - 1) / nb);
            why = c->rd && c->subs > 1 ? "FRAMES frames of frame_bytes, each read once per weight tile"
                              : "FRAMES frames of frame_bytes";
        } else if (c->resident) {
            want = load ? (long)((c->bytes + nb - 1) / nb) : 0;
            why = load ? "resident weights read once with CTRL bit1"
                       : "resident weights are not read without CTRL bit1";
        } else {
            want = frames * (long)((c->bytes + nb - 1) / nb);
            why = "streamed weights read once per frame";
        }
        snprintf(key, sizeof key, "%s.beats.%s", tag, c->name);
        got = res_get(res, key, NULL);
        if (got != want) {
            fprintf(stderr, "kiln: simulate: segment %d: %s start: channel %s moved %ld beats, "
                    "expected %ld (%s)\n", s, tag, c->name, got, want, why);
            return KILN_FAILED;
        }
    }
    return KILN_OK;
}

/* Compare the dumped frames of output channel c with the reference. */
static long compare_out(const SimChan *c, const Ref *rv, const char *dump, const char *refdump,
                        int f0, int nf, const char *run, const char *rpath, int *bad_input)
{
    FILE *ref = NULL;
    size_t len;
    uint8_t *got = (uint8_t *)kiln_read_file(dump, &len), *want;
    int f, cg = (c->c + c->lanes - 1) / c->lanes, shown = 0;
    long bad = 0;
    int vid = gir_find_value(rv->g, c->value);
    if (!got || len < (size_t)(c->frame_bytes * nf)) {
        free(got);
        fprintf(stderr, "kiln: simulate: %s: missing output dump\n", dump);
        return 1;
    }
    want = malloc((size_t)c->frame_bytes);
    if (!want)
        gir_die("out of memory");
    if (refdump) /* the expected image beside the dump, for a look with a hex viewer */
        ref = fopen(refdump, "wb");
    for (f = 0; f < nf; f++) {
        const GirTensor *t = ref_value(rv, f0 + f, c->value);
        int64_t y, x, b;
        if (!t || vid < 0) {
            *bad_input = kiln_user_error("%s: channel %s: value '%s' is not a computed value of "
                                         "model.gir", rpath, c->name, c->value);
            break;
        }
        if (to_ddr(c, &rv->g->vals[vid], t, want, rpath) != KILN_OK) {
            *bad_input = KILN_BAD_INPUT;
            break;
        }
        if (ref)
            fwrite(want, 1, (size_t)c->frame_bytes, ref);
        for (y = 0; y < c->h; y++)
            for (x = 0; x < c->w; x++)
                for (b = 0; b < (int64_t)cg * c->lanes; b++) {
                    int64_t o = (y * c->w + x) * cg * c->lanes + b;
                    uint8_t g = got[f * c->frame_bytes + o];
                    if (g == want[o])
                        continue;
                    if (shown++ < SHOW_MISMATCH)
                        fprintf(stderr, "  mismatch %s %s frame %d: value %s y %" PRId64
                                " x %" PRId64 " c %" PRId64 ": got %d, want %d\n", run, c->name,
                                f0 + f, c->value, y, x, b, (int8_t)g, (int8_t)want[o]);
                    bad++;
                }
    }
    if (ref)
        fclose(ref);
    free(want);
    free(got);
    return bad;
}

/* Everything one segment's job needs. */
typedef struct SegCtx {
    const char *dir;      /* compiled folder */
    const char *exe;      /* harness executable */
    SimMap *m;            /* register map (channel addresses set per segment) */
    const Ref *ref;       /* reference values */
    int frames;           /* N */
    long lat;             /* DDR read latency */
    long cap;             /* cycle cap per start */
    long *perf_first;     /* per perf entry: measured first-frame cycle of the warm run */
    long *perf_last;      /* per perf entry: last-frame cycle */
} SegCtx;

/* Job lines that fill segment s's output buffers with a byte no check
 * expects by chance in padding (0x5a). */
static void poison(FILE *j, const SimMap *m, int s, int frames)
{
    int i;
    for (i = 0; i < m->nchan; i++)
        if (m->chan[i].segment == s && !m->chan[i].rd)
            fprintf(j, "fill 0x%" PRIx64 " %" PRId64 " 0x5a\n", m->chan[i].addr,
                    m->chan[i].frame_bytes * frames);
}

static int run_segment(const SegCtx *x, int s, SegResult *r)
{
    SimMap *m = x->m;
    char sd[4200], job[4300], res[4300], path[4400], rpath[4200], wpath[4200], refp[4400];
    FILE *j;
    uint64_t addr = DDR_BASE, wbase = 0;
    int i, f, have_w = 0, rc = KILN_OK, status;
    char *text;
    size_t wlen = 0;
    snprintf(rpath, sizeof rpath, "%s/rtl/regmap.json", x->dir);
    snprintf(sd, sizeof sd, "%s/sim/seg%d", x->dir, s);
    if (mkdir(sd, 0777) != 0 && errno != EEXIST)
        return kiln_user_error("%s: cannot create: %s", sd, strerror(errno));
    snprintf(job, sizeof job, "%s/job.txt", sd);
    snprintf(res, sizeof res, "%s/result.txt", sd);
    j = fopen(job, "w");
    if (!j)
        return kiln_user_error("%s: cannot write: %s", job, strerror(errno));
    fprintf(j, "# kiln simulate: segment %d\nlatency %ld\ncap %ld\n", s, x->lat, x->cap);
    for (i = 0; i < m->nchan; i++)
        if (m->chan[i].segment == s && m->chan[i].weight)
            have_w = 1;
    if (have_w) { /* the weight image, each channel at its offset */
        struct stat st;
        snprintf(wpath, sizeof wpath, "%s/rtl/weights.bin", x->dir);
        if (stat(wpath, &st) != 0) {
            fclose(j);
            return kiln_user_error("%s: cannot read: %s (segment %d has weight channels)", wpath,
                                   strerror(errno), s);
        }
        wlen = (size_t)st.st_size;
        wbase = addr;
        fprintf(j, "region 0x%" PRIx64 " %zu\nload 0x%" PRIx64 " %s\n", wbase, wlen, wbase, wpath);
        addr += (wlen + 4095) / 4096 * 4096 + 4096;
    }
    fprintf(j, "write 0x%x %d\n", m->reg_segment, s);
    for (i = 0; i < m->nchan; i++) {
        SimChan *c = &m->chan[i];
        if (c->segment != s || c->source >= 0)
            continue; /* a reader of a writer's buffer: given below */
        if (c->weight) {
            if ((uint64_t)(c->offset + c->bytes) > wlen) {
                fclose(j);
                return kiln_user_error("%s: channel %s: bytes %" PRId64 "..%" PRId64
                                       " past the end of weights.bin (%zu bytes)", rpath, c->name,
                                       c->offset, c->offset + c->bytes, wlen);
            }
            c->addr = wbase + (uint64_t)c->offset;
        } else {
            uint64_t size = (uint64_t)c->frame_bytes * (uint64_t)x->frames;
            c->addr = addr;
            fprintf(j, "region 0x%" PRIx64 " %" PRIu64 "\n", addr, size);
            addr += (size + 4095) / 4096 * 4096 + 4096;
            if (c->rd) { /* every frame's tensor, back to back */
                FILE *b;
                uint8_t *img = malloc((size_t)c->frame_bytes);
                int vid = gir_find_value(x->ref->g, c->value);
                snprintf(path, sizeof path, "%s/%s.bin", sd, c->name);
                if (!img)
                    gir_die("out of memory");
                b = fopen(path, "wb");
                for (f = 0; f < x->frames && rc == KILN_OK; f++) {
                    const GirTensor *t = ref_value(x->ref, f, c->value);
                    if (!t || vid < 0)
                        rc = kiln_user_error("%s: channel %s: value '%s' is not a value of "
                                             "model.gir", rpath, c->name, c->value);
                    else if ((rc = to_ddr(c, &x->ref->g->vals[vid], t, img, rpath)) == KILN_OK &&
                             (!b || fwrite(img, 1, (size_t)c->frame_bytes, b) !=
                                        (size_t)c->frame_bytes))
                        rc = kiln_user_error("%s: cannot write", path);
                }
                free(img);
                if (b && fclose(b) != 0 && rc == KILN_OK)
                    rc = kiln_user_error("%s: cannot write", path);
                if (rc != KILN_OK) {
                    fclose(j);
                    return rc;
                }
                fprintf(j, "load 0x%" PRIx64 " %s\n", c->addr, path);
            }
        }
        fprintf(j, "write 0x%x 0x%" PRIx32 "\nwrite 0x%x 0x%" PRIx32 "\n", c->base_lo,
                (uint32_t)c->addr, c->base_hi, (uint32_t)(c->addr >> 32));
    }
    for (i = 0; i < m->nchan; i++) /* its base registers are the writer's */
        if (m->chan[i].segment == s && m->chan[i].source >= 0)
            m->chan[i].addr = m->chan[m->chan[i].source].addr;
    /* cold: FRAMES=1 loading resident weights; then a warm single frame
     * (latency); then N frames back to back (interval, PERF).  Output
     * buffers are poisoned before each start, so every byte compared was
     * written by that start. */
    poison(j, m, s, x->frames);
    fprintf(j, "write 0x%x 1\nstart cold 3\nread cold.cycles 0x0c\nread cold.error 0x08\n",
            m->reg_frames);
    for (i = 0; i < m->nchan; i++)
        if (m->chan[i].segment == s && !m->chan[i].rd)
            fprintf(j, "dump 0x%" PRIx64 " %" PRId64 " %s/%s-cold.bin\n", m->chan[i].addr,
                    m->chan[i].frame_bytes, sd, m->chan[i].name);
    fprintf(j, "start lat 1\nread lat.cycles 0x0c\n");
    poison(j, m, s, x->frames);
    fprintf(j, "write 0x%x %d\nstart warm 1\nread warm.cycles 0x0c\nread warm.error 0x08\n",
            m->reg_frames, x->frames);
    for (i = 0; i < m->nperf; i++)
        fprintf(j, "read perf%d.first 0x%x\nread perf%d.last 0x%x\n", i, m->perf[i].offset, i,
                m->perf[i].offset + 4);
    for (i = 0; i < m->nchan; i++)
        if (m->chan[i].segment == s && !m->chan[i].rd)
            fprintf(j, "dump 0x%" PRIx64 " %" PRId64 " %s/%s.bin\n", m->chan[i].addr,
                    m->chan[i].frame_bytes * x->frames, sd, m->chan[i].name);
    if (fclose(j) != 0)
        return kiln_user_error("%s: cannot write", job);

    fprintf(stderr, "simulate: segment %d: cold start, 1 warm frame, %d frames back to back\n", s,
            x->frames);
    unlink(res);
    {
        char *argv[] = {(char *)x->exe, job, res, NULL};
        char log[4400];
        snprintf(log, sizeof log, "%s/harness.log", sd);
        unlink(log);
        status = run_logged(argv, log, "simulating");
    }
    text = kiln_read_file(res, NULL);
    if (!text)
        return kiln_user_error("simulate: the harness wrote no result (%s/harness.log)", sd);
    {
        const char *e = text;
        while (e && *e && strncmp(e, "error ", 6) != 0) { /* the harness's error line */
            e = strchr(e, '\n');
            e = e ? e + 1 : NULL;
        }
        if (e && *e) {
            const char *nl = strchr(e, '\n');
            fprintf(stderr, "kiln: simulate: segment %d: %.*s\n", s,
                    (int)(nl ? nl - e - 6 : (long)strlen(e + 6)), e + 6);
            free(text);
            return KILN_FAILED;
        }
    }
    if (status != 0) {
        free(text);
        fprintf(stderr, "kiln: simulate: segment %d: the harness failed (%s/harness.log)\n", s, sd);
        return KILN_FAILED;
    }
    r->cold_cycles = res_get(text, "cold.cycles", NULL);
    r->lat_cycles = res_get(text, "lat.cycles", NULL);
    r->warm_cycles = res_get(text, "warm.cycles", NULL);
    r->sim_cycles = res_get(text, "cycles", NULL);
    {
        double w1 = 0, w2 = 0, w3 = 0;
        res_get(text, "cold", &w1);
        res_get(text, "lat", &w2);
        res_get(text, "warm", &w3);
        r->wall_s = w1 + w2 + w3;
    }
    r->interval = -1;
    for (i = 0; i < m->nperf; i++) {
        char k1[64], k2[64];
        const cJSON *st = plan_stage(m, m->perf[i].stage);
        double seg;
        if (json_num(st, "segment", &seg) == 0 && (int)seg != s)
            continue;
        snprintf(k1, sizeof k1, "perf%d.first", i);
        snprintf(k2, sizeof k2, "perf%d.last", i);
        x->perf_first[i] = res_get(text, k1, NULL);
        x->perf_last[i] = res_get(text, k2, NULL);
        if (x->frames > 1 && x->perf_first[i] >= 0 && x->perf_last[i] >= 0) {
            double iv = (double)(x->perf_last[i] - x->perf_first[i]) / (x->frames - 1);
            if (iv > r->interval)
                r->interval = iv;
        }
    }
    {
        long ce = res_get(text, "cold.error", NULL), we = res_get(text, "warm.error", NULL);
        if (ce != 0 || we != 0) {
            fprintf(stderr, "kiln: simulate: segment %d: ERROR register 0x%lx after the %s run "
                    "(an AXI response error on a DMA channel)\n", s, ce ? ce : we,
                    ce ? "cold" : "warm");
            free(text);
            return KILN_FAILED;
        }
    }
    if ((rc = check_beats(m, s, text, "cold", 1, 1)) != KILN_OK ||
        (rc = check_beats(m, s, text, "lat", 1, 0)) != KILN_OK ||
        (rc = check_beats(m, s, text, "warm", x->frames, 0)) != KILN_OK) {
        free(text);
        return rc;
    }
    free(text);
    r->mismatches = 0;
    for (i = 0; i < m->nchan; i++) {
        const SimChan *c = &m->chan[i];
        int bad_input = KILN_OK;
        if (c->segment != s || c->rd)
            continue;
        snprintf(path, sizeof path, "%s/%s-cold.bin", sd, c->name);
        r->mismatches += compare_out(c, x->ref, path, NULL, 0, 1, "cold", rpath, &bad_input);
        snprintf(path, sizeof path, "%s/%s.bin", sd, c->name);
        snprintf(refp, sizeof refp, "%s/%s-want.bin", sd, c->name);
        if (bad_input == KILN_OK)
            r->mismatches += compare_out(c, x->ref, path, refp, 0, x->frames, "warm", rpath,
                                         &bad_input);
        if (bad_input != KILN_OK)
            return bad_input;
    }
    return rc;
}

/* ---- figures and reports ------------------------------------------------------------- */

static double pct(double meas, double pred)
{
    return pred > 0 ? 100.0 * (meas - pred) / pred : NAN;
}

static int write_report(const char *dir, const char *section)
{
    char path[4200];
    char *old, *cut, *all;
    size_t len;
    int rc;
    snprintf(path, sizeof path, "%s/report.md", dir);
    old = kiln_read_file(path, &len);
    if (!old) {
        old = strdup("");
        if (!old)
            gir_die("out of memory");
    }
    cut = strstr(old, "\n## Measured");
    if (cut)
        cut[1] = 0;
    all = malloc(strlen(old) + strlen(section) + 2);
    if (!all)
        gir_die("out of memory");
    sprintf(all, "%s%s%s", old, old[0] && old[strlen(old) - 1] != '\n' ? "\n" : "", section);
    rc = write_atomic(path, all, strlen(all));
    free(all);
    free(old);
    return rc;
}

/* The whole decimal number in an option's text v when it lies within
 * lo..hi (lo >= 0); -1 when v is empty, has trailing text or a number
 * outside lo..hi (or beyond a long). */
static long long_arg(const char *v, long lo, long hi)
{
    char *end;
    long x;
    errno = 0;
    x = strtol(v, &end, 10);
    if (end == v || *end || errno == ERANGE || x < lo || x > hi)
        return -1;
    return x;
}

int kiln_cmd_simulate(int argc, char **argv)
{
    const char *dir = NULL, *input = NULL;
    int frames = 2, json = 0, threads = 1, i, f, s, rc = KILN_OK;
    long lat = 40, cap = 0;
    char path[4200], exe[4400];
    SimMap *m = calloc(1, sizeof *m);
    GirGraph *g = NULL;
    GirArena *arena = NULL;
    GirError err;
    Ref ref = {0};
    SegResult *seg = NULL;
    SegCtx x;
    long *pf = NULL, *pl = NULL;
    double t0 = now_s();
    struct stat st;

    if (!m)
        gir_die("out of memory");
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (kiln_is_help(a)) {
            simulate_usage(stdout);
            free(m);
            return KILN_OK;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "-i") && more) {
            input = argv[++i];
        } else if (!strcmp(a, "--frames") && more) {
            if ((frames = (int)long_arg(argv[++i], 1, MAX_FRAMES)) < 0) {
                free(m);
                return kiln_user_error("simulate: --frames '%s': expected 1..%d", argv[i],
                                       MAX_FRAMES);
            }
        } else if (!strcmp(a, "--threads") && more) {
            if ((threads = (int)long_arg(argv[++i], 1, MAX_THREADS)) < 0) {
                free(m);
                return kiln_user_error("simulate: --threads '%s': expected 1..%d", argv[i],
                                       MAX_THREADS);
            }
        } else if (!strcmp(a, "--latency") && more) {
            if ((lat = long_arg(argv[++i], 1, 100000)) < 0) {
                free(m);
                return kiln_user_error("simulate: --latency '%s': expected 1..100000 cycles",
                                       argv[i]);
            }
        } else if (!strcmp(a, "--cap") && more) {
            if ((cap = long_arg(argv[++i], 1, LONG_MAX)) < 0) {
                free(m);
                return kiln_user_error("simulate: --cap '%s': expected a positive cycle count",
                                       argv[i]);
            }
        } else if (a[0] == '-') {
            simulate_usage(stderr);
            free(m);
            return kiln_user_error("simulate: unknown option or missing value '%s'", a);
        } else if (!dir) {
            dir = a;
        } else {
            free(m);
            return kiln_user_error("simulate: more than one folder given ('%s')", a);
        }
    }
    if (!dir) {
        simulate_usage(stderr);
        free(m);
        return kiln_user_error("simulate: no folder given (kiln compile -o DIR writes one)");
    }
    snprintf(path, sizeof path, "%s/rtl", dir);
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(m);
        return kiln_user_error("%s: no such folder (kiln compile writes it when it can generate "
                               "the plan's RTL)", path);
    }
    if ((rc = load_map(dir, m)) != KILN_OK)
        goto out;

    /* reference values of every frame */
    snprintf(path, sizeof path, "%s/model.gir", dir);
    {
        size_t len;
        char *text = kiln_read_file(path, &len);
        if (!text) {
            rc = kiln_user_error("%s: cannot read: %s", path, strerror(errno));
            goto out;
        }
        g = gir_parse(text, len, path, &err);
        free(text);
        if (!g) {
            rc = kiln_report(&err);
            goto out;
        }
    }
    for (i = 0; i < m->nchan; i++) /* before minutes of Verilator build */
        if (!m->chan[i].weight && gir_find_value(g, m->chan[i].value) < 0) {
            rc = kiln_user_error("%s/rtl/regmap.json: channels[%d].value: '%s' is not a value "
                                 "of %s", dir, i, m->chan[i].value, path);
            goto out;
        }
    if (input && g->ninput != 1) {
        rc = kiln_user_error("simulate: %s has %d inputs; -i feeds one", path, g->ninput);
        goto out;
    }
    fprintf(stderr, "simulate: int8 interpreter on %d frame%s\n", frames, frames == 1 ? "" : "s");
    arena = gir_arena_new();
    ref.g = g;
    ref.in = gir_arena_alloc(arena, sizeof *ref.in * (size_t)(frames * g->ninput + 1));
    ref.vals = gir_arena_alloc(arena, sizeof *ref.vals * (size_t)frames);
    for (f = 0; f < frames; f++) {
        GirTensor *outs;
        int *ids, n, k;
        for (i = 0; i < g->ninput; i++) {
            GirTensor *t = &ref.in[f * g->ninput + i];
            if (input) {
                if (f > 0)
                    *t = ref.in[i];
                else if (fe_read_tensor(input, arena, t, &err) < 0) {
                    rc = kiln_report(&err);
                    goto out;
                }
            } else {
                uint64_t seed = 1000u + (uint64_t)f * 16u + (uint64_t)i; /* fresh per frame */
                kiln_random_input(&g->vals[g->inputs[i]].type, seed, arena, t);
            }
        }
        if (run_all(g, &ref.in[f * g->ninput], arena, &outs, &ids, &n, &err) < 0) {
            rc = kiln_report(&err);
            goto out;
        }
        ref.vals[f] = gir_arena_alloc(arena, sizeof **ref.vals * (size_t)(g->nval + 1));
        for (k = 0; k < n; k++)
            ref.vals[f][ids[k]] = outs[k];
    }

    if ((rc = build_model(dir, threads, exe, sizeof exe)) != KILN_OK)
        goto out;

    seg = calloc((size_t)m->nseg, sizeof *seg);
    pf = calloc((size_t)m->nperf + 1, sizeof *pf);
    pl = calloc((size_t)m->nperf + 1, sizeof *pl);
    if (!seg || !pf || !pl)
        gir_die("out of memory");
    for (i = 0; i < m->nperf; i++)
        pf[i] = pl[i] = -1;
    x.dir = dir;
    x.exe = exe;
    x.m = m;
    x.ref = &ref;
    x.frames = frames;
    x.lat = lat;
    x.cap = cap ? cap
                : (long)fmin(2e9, 8.0 * (m->plan_latency + (frames + 2) * m->plan_interval) +
                                      100000.0 + 4.0 * lat * 1000);
    x.perf_first = pf;
    x.perf_last = pl;
    for (s = 0; s < m->nseg && rc == KILN_OK; s++)
        rc = run_segment(&x, s, &seg[s]);
    if (rc != KILN_OK)
        goto out;

    /* figures */
    {
        long mism = 0, simc = 0;
        double wall = 0, interval = 0, latency = 0, clock = m->mhz * 1e6;
        cJSON *root = cJSON_CreateObject(), *stj = cJSON_AddArrayToObject(root, "stages");
        cJSON *sgj = cJSON_AddArrayToObject(root, "segments");
        char *out, line[512], ivs[40];
        FILE *rep;
        char *rtext = NULL;
        size_t rlen = 0;
        rep = open_memstream(&rtext, &rlen);
        if (!rep)
            gir_die("out of memory");
        for (s = 0; s < m->nseg; s++) {
            mism += seg[s].mismatches;
            simc += seg[s].sim_cycles;
            wall += seg[s].wall_s;
            if (seg[s].interval > interval)
                interval = seg[s].interval;
            latency += (double)seg[s].lat_cycles;
        }
        if (frames == 1)
            interval = -1;
        fprintf(rep, "\n## Measured (kiln simulate, Verilator, %d frame%s, DDR latency %ld)\n\n",
                frames, frames == 1 ? "" : "s", lat);
        fprintf(rep, "| stage | layer | engine | predicted t_done | measured | error |\n"
                     "| --- | --- | --- | --- | --- | --- |\n");
        if (!json)
            printf("%-5s %-24s %-14s %12s %12s %8s\n", "stage", "layer", "engine",
                   "predicted", "measured", "error");
        for (i = 0; i < m->nperf; i++) {
            const cJSON *ps = plan_stage(m, m->perf[i].stage);
            const cJSON *eng = cJSON_GetObjectItemCaseSensitive(ps, "engine");
            double pred = -1;
            char ps_s[32], e_s[32];
            cJSON *o = cJSON_CreateObject();
            if (json_num(ps, "t_done", &pred) < 0)
                pred = -1;
            snprintf(ps_s, sizeof ps_s, pred >= 0 ? "%.0f" : "-", pred);
            snprintf(e_s, sizeof e_s, pred > 0 && pf[i] >= 0 ? "%+.1f%%" : "-",
                     pct((double)pf[i], pred));
            if (!json)
                printf("%-5d %-24s %-14s %12s %12ld %8s\n", m->perf[i].stage, m->perf[i].layer,
                       cJSON_IsString(eng) ? eng->valuestring : "?", ps_s, pf[i], e_s);
            fprintf(rep, "| %d | %s | %s | %s | %ld | %s |\n", m->perf[i].stage, m->perf[i].layer,
                    cJSON_IsString(eng) ? eng->valuestring : "?", ps_s, pf[i], e_s);
            cJSON_AddNumberToObject(o, "stage", m->perf[i].stage);
            cJSON_AddStringToObject(o, "layer", m->perf[i].layer);
            if (pred >= 0)
                cJSON_AddNumberToObject(o, "predicted_t_done", pred);
            else
                cJSON_AddNullToObject(o, "predicted_t_done");
            cJSON_AddNumberToObject(o, "measured_t_done", (double)pf[i]);
            cJSON_AddNumberToObject(o, "measured_t_done_last", (double)pl[i]);
            cJSON_AddItemToArray(stj, o);
        }
        for (s = 0; s < m->nseg; s++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "index", s);
            cJSON_AddNumberToObject(o, "cold_cycles", (double)seg[s].cold_cycles);
            cJSON_AddNumberToObject(o, "latency_cycles", (double)seg[s].lat_cycles);
            cJSON_AddNumberToObject(o, "warm_cycles", (double)seg[s].warm_cycles);
            if (seg[s].interval >= 0)
                cJSON_AddNumberToObject(o, "interval_cycles", seg[s].interval);
            else
                cJSON_AddNullToObject(o, "interval_cycles");
            cJSON_AddNumberToObject(o, "mismatches", (double)seg[s].mismatches);
            cJSON_AddItemToArray(sgj, o);
            if (seg[s].interval >= 0)
                snprintf(ivs, sizeof ivs, "%.1f cycles", seg[s].interval);
            else
                snprintf(ivs, sizeof ivs, "not measured");
            snprintf(line, sizeof line, "segment %d: cold %ld cycles, latency %ld cycles, %d "
                     "frames %ld cycles, interval %s; %s\n", s, seg[s].cold_cycles,
                     seg[s].lat_cycles, frames, seg[s].warm_cycles, ivs,
                     seg[s].mismatches ? "MISMATCH" : "bit-exact");
            if (!json)
                fputs(line, stdout);
            fprintf(rep, "\n%s", line);
        }
        cJSON_AddBoolToObject(root, "bit_exact", mism == 0);
        cJSON_AddNumberToObject(root, "mismatches", (double)mism);
        cJSON_AddNumberToObject(root, "frames", frames);
        cJSON_AddNumberToObject(root, "ddr_latency", (double)lat);
        cJSON_AddNumberToObject(root, "clock_mhz", m->mhz);
        if (interval > 0) {
            cJSON_AddNumberToObject(root, "interval_cycles", interval);
            cJSON_AddNumberToObject(root, "fps", clock / interval);
        } else {
            cJSON_AddNullToObject(root, "interval_cycles");
            cJSON_AddNullToObject(root, "fps");
        }
        cJSON_AddNumberToObject(root, "predicted_interval_cycles", m->plan_interval);
        cJSON_AddNumberToObject(root, "latency_cycles", latency);
        cJSON_AddNumberToObject(root, "latency_ms", latency / clock * 1e3);
        cJSON_AddNumberToObject(root, "predicted_latency_cycles", m->plan_latency);
        cJSON_AddNumberToObject(root, "sim_cycles", (double)simc);
        cJSON_AddNumberToObject(root, "sim_cycles_per_s", wall > 0 ? (double)simc / wall : 0);
        cJSON_AddNumberToObject(root, "wall_s", now_s() - t0);
        if (interval > 0)
            snprintf(line, sizeof line, "interval: measured %.1f cycles, predicted %.0f (%+.1f%%); "
                     "%.1f frames/s at %.0f MHz\n", interval, m->plan_interval,
                     pct(interval, m->plan_interval), clock / interval, m->mhz);
        else
            snprintf(line, sizeof line, "interval: not measured (one frame; --frames 2 or more "
                     "runs frames back to back), predicted %.0f cycles\n", m->plan_interval);
        if (!json)
            fputs(line, stdout);
        fprintf(rep, "\n%s", line);
        snprintf(line, sizeof line, "latency: measured %.0f cycles (%.3f ms), predicted %.0f "
                 "(%+.1f%%)\n", latency, latency / clock * 1e3, m->plan_latency,
                 pct(latency, m->plan_latency));
        if (!json)
            fputs(line, stdout);
        fprintf(rep, "\n%s", line);
        if (interval > 0 && m->plan_macs > 0 && m->plan_dsp > 0) {
            /* MACs per frame x frames/s / (DSPs used x 2 MACs per DSP x clock) */
            double eff = m->plan_macs * (clock / interval) / (m->plan_dsp * 2.0 * clock);
            cJSON_AddNumberToObject(root, "dsp_efficiency", eff);
            snprintf(line, sizeof line, "DSP efficiency: %.1f%% (%.4g MACs x %.1f frames/s / (%.0f DSP "
                     "x 2 x %.0f MHz))\n", 100.0 * eff, m->plan_macs, clock / interval,
                     m->plan_dsp, m->mhz);
            if (!json)
                fputs(line, stdout);
            fprintf(rep, "\n%s", line);
        }
        snprintf(line, sizeof line, "simulation: %ld cycles in %.2f s (%.0f cycles/s), wall "
                 "%.1f s; %s\n", simc, wall, wall > 0 ? (double)simc / wall : 0, now_s() - t0,
                 mism ? "outputs MISMATCH the int8 interpreter" :
                        "every output byte matches the int8 interpreter");
        if (!json)
            fputs(line, stdout);
        fprintf(rep, "\n%s", line);
        fclose(rep);
        out = cJSON_Print(root);
        cJSON_Delete(root);
        if (json)
            puts(out);
        snprintf(path, sizeof path, "%s/sim/result.json", dir);
        if (write_atomic(path, out, strlen(out)) < 0)
            rc = kiln_user_error("%s: cannot write: %s", path, strerror(errno));
        else if (write_report(dir, rtext) < 0)
            rc = kiln_user_error("%s/report.md: cannot write: %s", dir, strerror(errno));
        free(out);
        free(rtext);
        if (rc == KILN_OK && mism) {
            fprintf(stderr, "kiln: simulate: %ld output bytes differ from the int8 interpreter\n",
                    mism);
            rc = KILN_FAILED;
        }
    }
out:
    free(seg);
    free(pf);
    free(pl);
    gir_arena_free(arena);
    gir_graph_free(g);
    cJSON_Delete(m->regmap);
    cJSON_Delete(m->plan);
    free(m->perf);
    free(m);
    return rc;
}
