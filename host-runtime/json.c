/* The JSON reader of json.h: recursive descent over the text. */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "transport/transport.h"

#define MAX_DEPTH 32 /* nesting refused beyond this */

/* Parser state. */
typedef struct P {
    const char *s, *end; /* next character and the end */
    int line;            /* current line */
    int oom;             /* 1: an allocation failed */
} P;

static void ws(P *p)
{
    while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r')) {
        if (*p->s == '\n')
            p->line++;
        p->s++;
    }
}

static KJ *node(P *p, int type)
{
    KJ *j = krt_alloc(sizeof *j);
    if (!j) {
        p->oom = 1;
        return NULL;
    }
    memset(j, 0, sizeof *j);
    j->type = type;
    return j;
}

/* A string at p->s (after its opening quote) into a new buffer. */
static char *str(P *p)
{
    const char *a = p->s;
    char *out, *o;
    while (p->s < p->end && *p->s != '"') {
        if (*p->s == '\\')
            p->s++;
        p->s++;
    }
    if (p->s >= p->end)
        return NULL;
    out = krt_alloc((size_t)(p->s - a) + 1);
    if (!out) {
        p->oom = 1;
        return NULL;
    }
    for (o = out; a < p->s; a++) {
        if (*a == '\\') {
            a++;
            *o++ = *a == 'n' ? '\n' : *a;
        } else {
            *o++ = *a;
        }
    }
    *o = 0;
    p->s++;
    return out;
}

static KJ *value(P *p, int depth);

/* The elements (object: members) up to close, after the opening bracket. */
static int list(P *p, KJ *j, char close, int depth)
{
    KJ **tail = &j->kid;
    ws(p);
    if (p->s < p->end && *p->s == close) {
        p->s++;
        return 0;
    }
    for (;;) {
        char *key = NULL;
        KJ *k;
        ws(p);
        if (close == '}') {
            if (p->s >= p->end || *p->s != '"')
                return -1;
            p->s++;
            if (!(key = str(p)))
                return -1;
            ws(p);
            if (p->s >= p->end || *p->s != ':') {
                krt_free(key);
                return -1;
            }
            p->s++;
        }
        k = value(p, depth + 1);
        if (!k) {
            krt_free(key);
            return -1;
        }
        k->key = key;
        *tail = k;
        tail = &k->next;
        ws(p);
        if (p->s < p->end && *p->s == ',') {
            p->s++;
            continue;
        }
        if (p->s < p->end && *p->s == close) {
            p->s++;
            return 0;
        }
        return -1;
    }
}

static KJ *value(P *p, int depth)
{
    KJ *j;
    ws(p);
    if (p->s >= p->end || depth > MAX_DEPTH)
        return NULL;
    if (*p->s == '{' || *p->s == '[') {
        char close = *p->s == '{' ? '}' : ']';
        p->s++;
        if (!(j = node(p, close == '}' ? KJ_OBJ : KJ_ARR)))
            return NULL;
        if (list(p, j, close, depth) < 0) {
            krt_json_free(j);
            return NULL;
        }
        return j;
    }
    if (*p->s == '"') {
        p->s++;
        if (!(j = node(p, KJ_STR)))
            return NULL;
        if (!(j->str = str(p))) {
            krt_json_free(j);
            return NULL;
        }
        return j;
    }
    if (p->end - p->s >= 4 && !strncmp(p->s, "true", 4)) {
        p->s += 4;
        if ((j = node(p, KJ_BOOL)))
            j->num = 1;
        return j;
    }
    if (p->end - p->s >= 5 && !strncmp(p->s, "false", 5)) {
        p->s += 5;
        return node(p, KJ_BOOL);
    }
    if (p->end - p->s >= 4 && !strncmp(p->s, "null", 4)) {
        p->s += 4;
        return node(p, KJ_NULL);
    }
    if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9')) {
        char buf[64], *e;
        size_t n = 0;
        while (p->s + n < p->end && n < sizeof buf - 1 && strchr("+-.0123456789eE", p->s[n]))
            n++;
        memcpy(buf, p->s, n);
        buf[n] = 0;
        if (!(j = node(p, KJ_NUM)))
            return NULL;
        j->num = strtod(buf, &e);
        if (e != buf + n) {
            krt_json_free(j);
            return NULL;
        }
        p->s += n;
        return j;
    }
    return NULL;
}

KJ *krt_json_parse(const char *text, size_t len, int *line)
{
    P p = {text, text + len, 1, 0};
    KJ *j = value(&p, 0);
    if (j) {
        ws(&p);
        if (p.s != p.end) {
            krt_json_free(j);
            j = NULL;
        }
    }
    *line = p.oom ? 0 : p.line;
    return j;
}

void krt_json_free(KJ *j)
{
    while (j) {
        KJ *n = j->next;
        krt_json_free(j->kid);
        krt_free(j->str);
        krt_free(j->key);
        krt_free(j);
        j = n;
    }
}

const KJ *krt_json_get(const KJ *o, const char *key)
{
    const KJ *k;
    if (!o || o->type != KJ_OBJ)
        return NULL;
    for (k = o->kid; k; k = k->next)
        if (k->key && !strcmp(k->key, key))
            return k;
    return NULL;
}
