/*
 * One FPGA segment as one harness job (DIR/sim/seg<k>/job.txt, the format
 * in docs/simulate.md): its buffers in DDR, SEGMENT = k, then three starts:
 * cold (FRAMES = 1, CTRL = 3: start and load the resident weights), latency
 * (FRAMES = 1, CTRL = 1), warm (FRAMES = N, frames back to back).  Output
 * buffers are poisoned before each start, so every byte compared was
 * written by that start.  The harness's result file gives the cycles, the
 * beats of every channel and the PERF words.
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/internal.h"

long sim_job_get(const char *res, const char *key, double *wall)
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

/* Job lines that dump segment sg's output buffers (frames each) into
 * sd/<ch><suffix>.bin. */
static void dump_outputs(const Sim *s, int sg, const char *sd, int frames, const char *suffix,
                         FILE *j)
{
    int i;
    for (i = 0; i < s->map->nchan; i++)
        if (s->map->chan[i].segment == sg && !s->map->chan[i].rd)
            fprintf(j, "dump 0x%" PRIx64 " %" PRId64 " %s/%s%s.bin\n", s->map->chan[i].addr,
                    s->map->chan[i].frame_bytes * frames, sd, s->map->chan[i].name, suffix);
}

void sim_harness_argv(const Sim *s, const char *job, const char *res, char **argv)
{
    int k = 0;
    argv[k++] = (char *)s->exe;
    argv[k++] = (char *)job;
    argv[k++] = (char *)res;
    if (s->o->bp) {
        argv[k++] = gir_arena_printf(s->run, "+kiln_bp=%d", s->o->bp);
        argv[k++] = gir_arena_printf(s->run, "+kiln_bp_seed=%lu", s->o->bp_seed);
    }
    argv[k] = NULL;
}

/* The job of segment sg into sd/job.txt. */
static int write_job(Sim *s, int sg, const char *sd, const char *job, GirError *e)
{
    SimMap *m = s->map;
    SimDdr d = {SIM_DDR_BASE, 0, 0};
    FILE *j = fopen(job, "w");
    int i, rc;
    if (!j)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot write: %s", job, strerror(errno));
    fprintf(j, "# kiln simulate: segment %d\nlatency %ld\ncap %ld\n", sg, s->o->latency, s->cap);
    if ((rc = sim_ddr_weights(s, sg, &d, j, e))) {
        fclose(j);
        return rc;
    }
    fprintf(j, "write 0x%x %d\n", m->reg_segment, sg);
    if ((rc = sim_ddr_buffers(s, sg, &d, sd, j, e))) {
        fclose(j);
        return rc;
    }
    sim_ddr_poison(s, sg, j);
    fprintf(j, "write 0x%x 1\nstart cold 3\nread cold.cycles 0x0c\nread cold.error 0x08\n",
            m->reg_frames);
    dump_outputs(s, sg, sd, 1, "-cold", j);
    fprintf(j, "start lat 1\nread lat.cycles 0x0c\n");
    sim_ddr_poison(s, sg, j);
    fprintf(j, "write 0x%x %d\nstart warm 1\nread warm.cycles 0x0c\nread warm.error 0x08\n",
            m->reg_frames, s->o->frames);
    for (i = 0; i < m->nperf; i++)
        fprintf(j, "read perf%d.first 0x%x\nread perf%d.last 0x%x\n", i, m->perf[i].offset, i,
                m->perf[i].offset + 4);
    dump_outputs(s, sg, sd, s->o->frames, "", j);
    if (fclose(j) != 0)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot write", job);
    return SIM_OK;
}

int sim_harness_run(const Sim *s, const char *sd, const char *job, const char *what, char **text,
                    double *wall_s, GirError *e)
{
    const char *res = gir_arena_printf(s->run, "%s/result.txt", sd);
    const char *log = gir_arena_printf(s->run, "%s/harness.log", sd);
    char *argv[6];
    const char *l;
    double t0 = sim_now();
    int status, rc = SIM_OK;
    sim_harness_argv(s, job, res, argv);
    unlink(res);
    unlink(log);
    status = sim_run_logged(s, argv, log, "simulating");
    if (wall_s)
        *wall_s = sim_now() - t0;
    *text = gir_read_file(res, NULL);
    if (!*text)
        return sim_error(e, SIM_BAD_INPUT, "simulate: the harness wrote no result (%s/harness.log)",
                         sd);
    for (l = *text; l && *l && strncmp(l, "error ", 6) != 0;) { /* the harness's error line */
        l = strchr(l, '\n');
        l = l ? l + 1 : NULL;
    }
    if (l && *l) {
        const char *nl = strchr(l, '\n');
        rc = sim_error(e, SIM_FAILED, "simulate: %s: %.*s", what,
                       (int)(nl ? nl - l - 6 : (long)strlen(l + 6)), l + 6);
    } else if (status != 0) {
        rc = sim_error(e, SIM_FAILED, "simulate: %s: the harness failed (%s/harness.log)", what, sd);
    }
    if (rc) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

/* Run the harness on segment sg's job; *text gets its result file. */
static int run_job(Sim *s, int sg, const char *sd, const char *job, char **text, GirError *e)
{
    sim_log(s, "simulate: segment %d: cold start, 1 warm frame, %d frames back to back\n", sg,
            s->o->frames);
    return sim_harness_run(s, sd, job, gir_arena_printf(s->run, "segment %d", sg), text, NULL, e);
}

/* The cycles, wall times and PERF words of segment sg from the result text;
 * the ERROR registers must read 0. */
static int measure(const Sim *s, int sg, const char *text, SimSegment *r, long *pf, long *pl,
                   GirError *e)
{
    double w1 = 0, w2 = 0, w3 = 0;
    long ce, we;
    int i;
    r->cold_cycles = sim_job_get(text, "cold.cycles", NULL);
    r->lat_cycles = sim_job_get(text, "lat.cycles", NULL);
    r->warm_cycles = sim_job_get(text, "warm.cycles", NULL);
    r->sim_cycles = sim_job_get(text, "cycles", NULL);
    sim_job_get(text, "cold", &w1);
    sim_job_get(text, "lat", &w2);
    sim_job_get(text, "warm", &w3);
    r->wall_s = w1 + w2 + w3;
    r->interval = -1;
    for (i = 0; i < s->map->nperf; i++) {
        char k1[64], k2[64];
        const cJSON *st = sim_plan_stage(s, s->map->perf[i].stage);
        double seg;
        if (sim_json_num(st, "segment", &seg) == 0 && (int)seg != sg)
            continue;
        snprintf(k1, sizeof k1, "perf%d.first", i);
        snprintf(k2, sizeof k2, "perf%d.last", i);
        pf[i] = sim_job_get(text, k1, NULL);
        pl[i] = sim_job_get(text, k2, NULL);
        if (s->o->frames > 1 && pf[i] >= 0 && pl[i] >= 0) {
            double iv = (double)(pl[i] - pf[i]) / (s->o->frames - 1);
            if (iv > r->interval)
                r->interval = iv;
        }
    }
    ce = sim_job_get(text, "cold.error", NULL);
    we = sim_job_get(text, "warm.error", NULL);
    if (ce != 0 || we != 0)
        return sim_error(e, SIM_FAILED, "simulate: segment %d: ERROR register 0x%lx after the %s "
                         "run (an AXI response error on a DMA channel)", sg, ce ? ce : we,
                         ce ? "cold" : "warm");
    return SIM_OK;
}

int sim_job_segment(Sim *s, int sg, SimSegment *r, long *pf, long *pl, GirError *e)
{
    const char *sd = gir_arena_printf(s->run, "%s/sim/seg%d", s->dir, sg);
    const char *job = gir_arena_printf(s->run, "%s/job.txt", sd);
    char *text = NULL;
    int rc;
    if (mkdir(sd, 0777) != 0 && errno != EEXIST)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot create: %s", sd, strerror(errno));
    if ((rc = write_job(s, sg, sd, job, e)) || (rc = run_job(s, sg, sd, job, &text, e)) ||
        (rc = measure(s, sg, text, r, pf, pl, e)) ||
        (rc = sim_check_beats(s, sg, text, "cold", 1, 1, e)) ||
        (rc = sim_check_beats(s, sg, text, "lat", 1, 0, e)) ||
        (rc = sim_check_beats(s, sg, text, "warm", s->o->frames, 0, e))) {
        free(text);
        return rc;
    }
    free(text);
    r->mismatches = 0;
    return sim_compare_segment(s, sg, sd, &r->mismatches, e);
}
