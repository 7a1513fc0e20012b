/*
 * Tuning records: one JSON object per line (cJSON), one per measured
 * schedule of a workload, appended as they are measured so that an
 * interrupted search leaves whole lines and resumes from them:
 *
 *   {"workload": KEY, "schedule": {"owb":13,"vl":16,"order":1,"unroll":1,
 *    "out":1,"threads":2,"ocb":1}, "ok": true, "min_ms": 1.2, "median_ms": 1.3,
 *    "runs_ms": [1.2, ...]}
 *   {"workload": KEY, "schedule": {...}, "ok": false, "error": "crashed: ..."}
 *
 * The best schedule of a workload is its successful record of least
 * median_ms (on a shared machine the median carries over to the whole
 * model where the minimum favours what got lucky once); a failed record
 * is never taken.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "llvm.h"

struct KlvRecords {
    KlvRecord *r; /* the records, in file order */
    int n, cap;   /* count and allocated */
};

/* The schedule fields in the order they are written; the last ones
 * (from NSCHED_REQUIRED on) came later and may be absent (0: the default),
 * so older records still read. */
#define NSCHED 7
#define NSCHED_REQUIRED 6
static const char *const sched_names[NSCHED] = {"owb", "vl", "order", "unroll", "out", "threads", "ocb"};

static int *sched_field(KlvSchedule *s, int k)
{
    int *f[NSCHED];
    f[0] = &s->owb, f[1] = &s->vl, f[2] = &s->order, f[3] = &s->unroll, f[4] = &s->out,
    f[5] = &s->threads, f[6] = &s->ocb;
    return f[k];
}

KlvRecords *klv_records_new(void)
{
    return calloc(1, sizeof(KlvRecords));
}

int klv_records_count(const KlvRecords *r)
{
    return r->n;
}

const KlvRecord *klv_records_get(const KlvRecords *r, int i)
{
    return &r->r[i];
}

int klv_records_add(KlvRecords *r, const KlvRecord *rec, GirError *e)
{
    if (r->n == r->cap) {
        int cap = r->cap ? r->cap * 2 : 64;
        KlvRecord *p = realloc(r->r, (size_t)cap * sizeof *p);
        if (!p)
            return gir_error_at(e, gir_loc_none(), "out of memory");
        r->r = p;
        r->cap = cap;
    }
    r->r[r->n++] = *rec;
    return 0;
}

void klv_records_free(KlvRecords *r)
{
    if (!r)
        return;
    free(r->r);
    free(r);
}

static int same_sched(const KlvSchedule *a, const KlvSchedule *b)
{
    return a->owb == b->owb && a->vl == b->vl && a->order == b->order && a->unroll == b->unroll &&
           a->out == b->out && a->threads == b->threads && a->ocb == b->ocb;
}

const KlvRecord *klv_records_best(const KlvRecords *r, const char *key)
{
    const KlvRecord *best = NULL;
    int i;
    for (i = 0; r && i < r->n; i++)
        if (r->r[i].ok && strcmp(r->r[i].key, key) == 0 &&
            (!best || r->r[i].median_ms < best->median_ms ||
             (r->r[i].median_ms == best->median_ms && r->r[i].min_ms < best->min_ms)))
            best = &r->r[i];
    return best;
}

int klv_records_has(const KlvRecords *r, const char *key, const KlvSchedule *s)
{
    int i;
    for (i = 0; i < r->n; i++)
        if (strcmp(r->r[i].key, key) == 0 && same_sched(&r->r[i].sched, s))
            return 1;
    return 0;
}

/* A non-negative finite number member; 0 when absent or of another kind. */
static int get_time(const cJSON *o, const char *name, double *v)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(it) || !(it->valuedouble >= 0) || it->valuedouble > 1e9)
        return 0;
    *v = it->valuedouble;
    return 1;
}

/* Parse one line into rec; NULL, or what is wrong with it. */
static const char *parse_line(const char *line, KlvRecord *rec)
{
    cJSON *o = cJSON_Parse(line), *it, *sc, *runs;
    const char *why = NULL;
    int k;
    memset(rec, 0, sizeof *rec);
    if (!o)
        return "not a JSON object";
    if (!cJSON_IsObject(o)) {
        why = "not a JSON object";
        goto out;
    }
    it = cJSON_GetObjectItemCaseSensitive(o, "workload");
    if (!cJSON_IsString(it) || !it->valuestring[0] || strlen(it->valuestring) >= sizeof rec->key) {
        why = "\"workload\" must be a non-empty string (at most 511 bytes)";
        goto out;
    }
    strcpy(rec->key, it->valuestring);
    sc = cJSON_GetObjectItemCaseSensitive(o, "schedule");
    if (!cJSON_IsObject(sc)) {
        why = "\"schedule\" must be an object";
        goto out;
    }
    for (k = 0; k < NSCHED; k++) {
        it = cJSON_GetObjectItemCaseSensitive(sc, sched_names[k]);
        if (!it && k >= NSCHED_REQUIRED)
            continue;
        if (!cJSON_IsNumber(it) || !(it->valuedouble >= 1 && it->valuedouble <= 64) ||
            it->valuedouble != (double)(int)it->valuedouble) {
            static char msg[NSCHED][64];
            snprintf(msg[k], sizeof msg[k], "schedule \"%s\" must be a whole number from 1 to 64",
                     sched_names[k]);
            why = msg[k];
            goto out;
        }
        *sched_field(&rec->sched, k) = it->valueint;
    }
    it = cJSON_GetObjectItemCaseSensitive(o, "ok");
    if (!cJSON_IsBool(it)) {
        why = "\"ok\" must be true or false";
        goto out;
    }
    rec->ok = cJSON_IsTrue(it);
    if (!rec->ok) {
        it = cJSON_GetObjectItemCaseSensitive(o, "error");
        if (!cJSON_IsString(it)) {
            why = "a failed record (\"ok\": false) needs an \"error\" string";
            goto out;
        }
        snprintf(rec->error, sizeof rec->error, "%s", it->valuestring);
        goto out;
    }
    if (!get_time(o, "min_ms", &rec->min_ms) || !get_time(o, "median_ms", &rec->median_ms)) {
        why = "a measured record (\"ok\": true) needs \"min_ms\" and \"median_ms\" numbers >= 0";
        goto out;
    }
    runs = cJSON_GetObjectItemCaseSensitive(o, "runs_ms");
    if (runs) {
        if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) > 16) {
            why = "\"runs_ms\" must be an array of at most 16 numbers";
            goto out;
        }
        cJSON_ArrayForEach(it, runs)
        {
            if (!cJSON_IsNumber(it) || !(it->valuedouble >= 0)) {
                why = "\"runs_ms\" must be an array of at most 16 numbers";
                goto out;
            }
            rec->runs_ms[rec->nruns++] = it->valuedouble;
        }
    }
out:
    cJSON_Delete(o);
    return why;
}

KlvRecords *klv_records_parse(const char *text, size_t len, const char *path, GirError *e)
{
    KlvRecords *r = klv_records_new();
    char *line = malloc(len + 1);
    size_t at = 0;
    int lineno = 0;
    if (!r || !line) {
        klv_records_free(r);
        free(line);
        gir_error_at(e, gir_loc_none(), "out of memory");
        return NULL;
    }
    while (at < len) {
        KlvRecord rec;
        const char *why = NULL, *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        GirLoc loc = gir_loc_none();
        lineno++;
        loc.file = path;
        loc.line = lineno;
        memcpy(line, text + at, n);
        at += n + (nl != NULL);
        while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' '))
            n--;
        line[n] = '\0';
        if (n == 0)
            continue;
        if (strlen(line) != n)
            why = "a NUL byte in the line";
        else
            why = parse_line(line, &rec);
        if (why || klv_records_add(r, &rec, e) < 0) {
            if (why)
                gir_error_at(e, loc, "bad tuning record: %s", why);
            free(line);
            klv_records_free(r);
            return NULL;
        }
    }
    free(line);
    return r;
}

KlvRecords *klv_records_load(const char *path, int missing_ok, GirError *e)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    KlvRecords *r;
    if (!f) {
        if (errno == ENOENT && missing_ok)
            return klv_records_new();
        gir_error_at(e, gir_loc_none(), "cannot read records file %s: %s", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        if (len == cap) {
            char *p = realloc(text, cap = cap ? cap * 2 : 65536);
            if (!p) {
                free(text);
                fclose(f);
                gir_error_at(e, gir_loc_none(), "out of memory reading %s", path);
                return NULL;
            }
            text = p;
        }
        if ((got = fread(text + len, 1, cap - len, f)) == 0)
            break;
        len += got;
    }
    if (ferror(f)) {
        free(text);
        fclose(f);
        gir_error_at(e, gir_loc_none(), "cannot read records file %s: %s", path, strerror(errno));
        return NULL;
    }
    fclose(f);
    r = klv_records_parse(text, len, path, e);
    free(text);
    return r;
}

int klv_records_append(const char *path, const KlvRecord *rec, GirError *e)
{
    cJSON *o = cJSON_CreateObject(), *sc = cJSON_CreateObject();
    char *text = NULL;
    FILE *f;
    int k, rc = 0;
    if (!o || !sc) {
        cJSON_Delete(o);
        cJSON_Delete(sc);
        return gir_error_at(e, gir_loc_none(), "out of memory");
    }
    cJSON_AddStringToObject(o, "workload", rec->key);
    for (k = 0; k < NSCHED; k++)
        if (k < NSCHED_REQUIRED || *sched_field((KlvSchedule *)&rec->sched, k))
            cJSON_AddNumberToObject(sc, sched_names[k], *sched_field((KlvSchedule *)&rec->sched, k));
    cJSON_AddItemToObject(o, "schedule", sc);
    cJSON_AddBoolToObject(o, "ok", rec->ok);
    if (rec->ok) {
        cJSON *runs = cJSON_CreateArray();
        cJSON_AddNumberToObject(o, "min_ms", rec->min_ms);
        cJSON_AddNumberToObject(o, "median_ms", rec->median_ms);
        for (k = 0; runs && k < rec->nruns; k++)
            cJSON_AddItemToArray(runs, cJSON_CreateNumber(rec->runs_ms[k]));
        if (runs)
            cJSON_AddItemToObject(o, "runs_ms", runs);
    } else
        cJSON_AddStringToObject(o, "error", rec->error);
    text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text)
        return gir_error_at(e, gir_loc_none(), "out of memory");
    if (!(f = fopen(path, "a"))) {
        rc = gir_error_at(e, gir_loc_none(), "cannot write records file %s: %s", path, strerror(errno));
    } else {
        fprintf(f, "%s\n", text);
        if (ferror(f) | fclose(f))
            rc = gir_error_at(e, gir_loc_none(), "cannot write records file %s: %s", path,
                              strerror(errno));
    }
    cJSON_free(text);
    return rc;
}
