/*
 * The Verilator build of a compiled folder's kiln_top with the harness
 * (sim/harness/), cached: DIR/sim/obj-<hash>/kiln_sim, where the FNV-1a 64
 * hash covers every rtl file and its name, kiln_ports.h, the harness
 * sources, `verilator --version`, the flags and the thread count, and with
 * back-pressure (SimOptions.bp) the define KILN_SIM_BP and the gate
 * template rtl-templates/kiln_bp_gate.v, built in from the path compiled in
 * (KILN_SIM_RTL_DIR).  A build
 * happens in a temporary folder renamed at the end, so an interrupted one
 * never looks complete.  The harness sources are found at the path compiled
 * in (KILN_SIM_HARNESS_DIR).
 */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/internal.h"

/* The flags of the harness.c compile and the fixed part of the Verilator
 * command (both part of the build hash).  The model's C++ is built -O2, not
 * Verilator's default -Os: on YOLOv3-tiny 416 for ZCU104 it simulates 1.34x
 * faster (48.6 k against 36.3 k cycles/s) for a 9% longer build.  A
 * kiln_lut with a table per channel takes them all as one parameter of
 * 2048 bits a channel: --max-num-width (default 64 K bits, 32 channels)
 * holds 1024 of them. */
static const char *const ccflags[] = {"cc", "-std=c11", "-O2", NULL};
static const char *const vflags[] = {
    "verilator", "--cc", "--exe", "--build", "-j", "2", "-O3", "--x-assign", "fast",
    "--x-initial", "fast", "-Wno-fatal", "-Wno-lint", "-Wno-style", "--top-module", "kiln_top",
    "--max-num-width", "2097152",
    "-MAKEFLAGS", "OPT_FAST=-O2 OPT_GLOBAL=-O2", NULL};
/* What a back-pressure build adds: the define that puts a kiln_bp_gate on
 * every stream of the generated top, and the gate's template. */
static const char bp_define[] = "-DKILN_SIM_BP";
static const char bp_gate[] = KILN_SIM_RTL_DIR "/kiln_bp_gate.v";

/* A build in progress. */
typedef struct Build {
    Sim *s;           /* the simulation */
    const char *dir;  /* the compiled folder, absolute */
    const char *rtl;  /* DIR/rtl, absolute */
    char **names;     /* its *.v files, sorted */
    int n;            /* count of names */
    char nthr[16];    /* threads as text */
} Build;

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

/* Names of the *.v files of dir, sorted, in arena a; count, or -1 when dir
 * cannot be read. */
static int list_v(const char *dir, GirArena *a, char ***names)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0, cap = 16;
    char **v;
    if (!d)
        return -1;
    v = malloc(sizeof *v * (size_t)cap);
    if (!v)
        gir_die("out of memory");
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l < 3 || strcmp(de->d_name + l - 2, ".v"))
            continue;
        if (n == cap && !(v = realloc(v, sizeof *v * (size_t)(cap *= 2))))
            gir_die("out of memory");
        v[n++] = gir_arena_strdup(a, de->d_name);
    }
    closedir(d);
    qsort(v, (size_t)n, sizeof *v, gir_cmp_str);
    *names = gir_arena_alloc(a, sizeof **names * (size_t)(n + 1));
    memcpy(*names, v, sizeof *v * (size_t)n);
    free(v);
    return n;
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

/* The build hash of everything the model is made from. */
static int build_hash(Build *b, uint64_t *out, GirError *e)
{
    static const char *const hsrc[] = {"harness.h", "harness.c", "harness_top.cpp",
                                       "port_bytes.h"};
    GirArena *a = b->s->run;
    uint64_t h = 0xcbf29ce484222325ull;
    char ver[512], *text;
    size_t len, i;
    int k;
    for (k = 0; k <= b->n; k++) { /* the rtl files and kiln_ports.h */
        const char *nm = k < b->n ? b->names[k] : "kiln_ports.h";
        const char *path = gir_arena_printf(a, "%s/%s", b->rtl, nm);
        if (!(text = gir_read_file(path, &len)))
            return sim_error(e, SIM_BAD_INPUT, "%s: cannot read: %s", path, strerror(errno));
        h = fnv(h, nm, strlen(nm) + 1);
        h = fnv(h, text, len);
        free(text);
    }
    for (i = 0; i < sizeof hsrc / sizeof hsrc[0]; i++) {
        const char *path = gir_arena_printf(a, "%s/%s", KILN_SIM_HARNESS_DIR, hsrc[i]);
        if (!(text = gir_read_file(path, &len)))
            return sim_error(e, SIM_BAD_INPUT, "%s: cannot read: %s (harness sources)", path,
                             strerror(errno));
        h = fnv(h, text, len);
        free(text);
    }
    verilator_version(ver, sizeof ver);
    if (!ver[0])
        return sim_error(e, SIM_BAD_INPUT, "simulate: verilator not found on PATH");
    h = fnv(h, ver, strlen(ver));
    for (k = 0; vflags[k]; k++)
        h = fnv(h, vflags[k], strlen(vflags[k]) + 1);
    for (k = 0; ccflags[k]; k++)
        h = fnv(h, ccflags[k], strlen(ccflags[k]) + 1);
    if (b->s->o->threads > 1) /* the single-threaded build keeps its hash */
        h = fnv(h, b->nthr, strlen(b->nthr) + 1);
    if (b->s->o->bp) { /* a different model; the default build keeps its hash */
        if (!(text = gir_read_file(bp_gate, &len)))
            return sim_error(e, SIM_BAD_INPUT, "%s: cannot read: %s", bp_gate, strerror(errno));
        h = fnv(h, bp_define, sizeof bp_define);
        h = fnv(h, text, len);
        free(text);
    }
    *out = h;
    return SIM_OK;
}

/* cc harness.c into tmp/harness.o, then verilator --build into tmp. */
static int compile(Build *b, const char *tmp, const char *log, GirError *e)
{
    GirArena *a = b->s->run;
    const char *hc = gir_arena_printf(a, "%s/harness.c", KILN_SIM_HARNESS_DIR);
    const char *htop = gir_arena_printf(a, "%s/harness_top.cpp", KILN_SIM_HARNESS_DIR);
    const char *ccobj = gir_arena_printf(a, "%s/harness.o", tmp);
    const char *cflags = gir_arena_printf(a, "-I%s -I%s", KILN_SIM_HARNESS_DIR, b->rtl);
    char *cc[8], **argv;
    int k, i, rc;
    for (k = 0; ccflags[k]; k++)
        cc[k] = (char *)ccflags[k];
    cc[k++] = "-c";
    cc[k++] = (char *)hc;
    cc[k++] = "-o";
    cc[k++] = (char *)ccobj;
    cc[k] = NULL;
    if (sim_run_logged(b->s, cc, log, "cc harness.c") != 0)
        return sim_error(e, SIM_BAD_INPUT, "simulate: compiling %s failed (log %s)", hc, log);
    argv = gir_arena_alloc(a, sizeof *argv * ((size_t)b->n + 40));
    for (k = 0; vflags[k]; k++)
        argv[k] = (char *)vflags[k];
    if (b->s->o->threads > 1) {
        argv[k++] = "--threads";
        argv[k++] = b->nthr;
    }
    if (b->s->o->bp) {
        argv[k++] = (char *)bp_define;
        argv[k++] = (char *)bp_gate;
    }
    argv[k++] = "-Mdir";
    argv[k++] = (char *)tmp;
    argv[k++] = "-o";
    argv[k++] = "kiln_sim";
    argv[k++] = "-CFLAGS";
    argv[k++] = (char *)cflags;
    argv[k++] = (char *)htop;
    argv[k++] = (char *)ccobj;
    for (i = 0; i < b->n; i++)
        argv[k++] = gir_arena_printf(a, "%s/%s", b->rtl, b->names[i]);
    argv[k] = NULL;
    rc = sim_run_logged(b->s, argv, log, "verilator --build");
    if (rc != 0)
        return sim_error(e, SIM_BAD_INPUT, "simulate: the Verilator build failed (log %s)", log);
    return SIM_OK;
}

/* Paths are made absolute: make runs inside the build folder. */
int sim_build(Sim *s, GirError *e)
{
    GirArena *a = s->run;
    char *abs = realpath(s->dir, NULL);
    const char *path, *obj, *tmp, *log, *exe;
    Build b = {0};
    uint64_t h = 0;
    int rc;
    if (!abs)
        return sim_error(e, SIM_BAD_INPUT, "%s: %s", s->dir, strerror(errno));
    b.s = s;
    b.dir = gir_arena_strdup(a, abs);
    free(abs);
    b.rtl = gir_arena_printf(a, "%s/rtl", b.dir);
    snprintf(b.nthr, sizeof b.nthr, "%d", s->o->threads);
    b.n = list_v(b.rtl, a, &b.names);
    if (b.n <= 0)
        return sim_error(e, SIM_BAD_INPUT, "%s/rtl: no Verilog files (kiln compile writes them)",
                         s->dir);
    if ((rc = build_hash(&b, &h, e)))
        return rc;
    path = gir_arena_printf(a, "%s/sim", b.dir);
    if (mkdir(path, 0777) != 0 && errno != EEXIST)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot create: %s", path, strerror(errno));
    obj = gir_arena_printf(a, "%s/sim/obj-%016" PRIx64, b.dir, h);
    exe = gir_arena_printf(a, "%s/kiln_sim", obj);
    if (access(exe, X_OK) == 0) {
        sim_log(s, "simulate: reusing the Verilator build %s\n", obj);
        s->exe = exe;
        return SIM_OK;
    }
    tmp = gir_arena_printf(a, "%s.tmp-%ld", obj, (long)getpid());
    log = gir_arena_printf(a, "%s/sim/build.log", b.dir);
    sim_rm_rf(tmp);
    unlink(log);
    if (mkdir(tmp, 0777) != 0)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot create: %s", tmp, strerror(errno));
    sim_log(s, "simulate: building the Verilator model of %s (%d Verilog files; log %s)\n",
            b.rtl, b.n, log);
    if ((rc = compile(&b, tmp, log, e))) {
        sim_rm_rf(tmp);
        return rc;
    }
    if (rename(tmp, obj) != 0) {
        sim_rm_rf(tmp);
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot create: %s", obj, strerror(errno));
    }
    s->exe = exe;
    return SIM_OK;
}
