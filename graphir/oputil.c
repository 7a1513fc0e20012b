/*
 * Helpers that every shape rule and kernel of graphir/ uses and that use
 * nothing of them: the error of a node, row-major index arithmetic, the
 * sliding-window geometry of Conv and the pools, and the readers of the int8
 * form's requantize attributes.  The bottom of the op files' dependency
 * order (docs/ir.md): this file calls only graph.c and error.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "requant.h"

/* ---- errors ------------------------------------------------------------------ */

int gir_node_fail(const GirNode *n, GirError *e, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    GirLoc loc = n->loc;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!loc.node)
        loc.node = n->name;
    return gir_error_at(e, loc, "%s: %s", gir_op_name(n->op), msg);
}

/* ---- index arithmetic ----------------------------------------------------------- */

int64_t gir_dims_prod(const int64_t *d, int lo, int hi)
{
    int64_t p = 1;
    int i;
    for (i = lo; i < hi; i++)
        p *= d[i];
    return p;
}

int gir_next_index(int64_t *idx, const int64_t *dims, int r)
{
    int i;
    for (i = r - 1; i >= 0; i--) {
        if (++idx[i] < dims[i])
            return 1;
        idx[i] = 0;
    }
    return 0;
}

/* ---- sliding-window geometry (Conv and the pools) --------------------------------- */

void gir_window(const GirNode *n, const GirType *x, const GirType *y, const int64_t *k,
                GirWindow *g)
{
    const char *ap = gir_attr_string(n, "auto_pad", "NOTSET");
    int i, cnt;
    const int64_t *st = gir_attr_ints(n, "strides", &cnt);
    const int64_t *di = gir_attr_ints(n, "dilations", &cnt);
    const int64_t *pa = gir_attr_ints(n, "pads", &cnt);
    g->nsp = x->rank - 2;
    for (i = 0; i < g->nsp; i++) {
        int64_t ek, total;
        g->in[i] = x->dims[i + 2];
        g->out[i] = y->dims[i + 2];
        g->k[i] = k[i];
        g->s[i] = st ? st[i] : 1;
        g->d[i] = di ? di[i] : 1;
        ek = (g->k[i] - 1) * g->d[i] + 1;
        if (strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0) {
            total = (g->out[i] - 1) * g->s[i] + ek - g->in[i];
            if (total < 0)
                total = 0;
            g->pb[i] = ap[5] == 'U' ? total / 2 : total - total / 2;
            g->pe[i] = total - g->pb[i];
        } else if (strcmp(ap, "VALID") == 0 || !pa) {
            g->pb[i] = g->pe[i] = 0;
        } else {
            g->pb[i] = pa[i];
            g->pe[i] = pa[g->nsp + i];
        }
    }
}

void gir_convt_window(const GirNode *n, const GirType *x, const int64_t *k, GirWindow *g)
{
    const char *ap = gir_attr_string(n, "auto_pad", "NOTSET");
    int i, cnt, ns = 0, nop = 0, np = 0, nd = 0, nos = 0;
    const int64_t *st = gir_attr_ints(n, "strides", &ns);
    const int64_t *di = gir_attr_ints(n, "dilations", &nd);
    const int64_t *pa = gir_attr_ints(n, "pads", &np);
    const int64_t *op = gir_attr_ints(n, "output_padding", &nop);
    const int64_t *os = gir_attr_ints(n, "output_shape", &nos);
    int same = strcmp(ap, "SAME_UPPER") == 0 || strcmp(ap, "SAME_LOWER") == 0;
    g->nsp = x->rank - 2;
    cnt = g->nsp;
    if (os && nos == x->rank)
        os += 2; /* the whole shape given: its spatial part */
    else if (os && nos != cnt)
        os = NULL;
    for (i = 0; i < cnt; i++) {
        int64_t full, total, half;
        g->in[i] = x->dims[i + 2];
        g->k[i] = k[i];
        g->s[i] = st && ns == cnt ? st[i] : 1;
        g->d[i] = di && nd == cnt ? di[i] : 1;
        full = g->s[i] * (g->in[i] - 1) + (op && nop == cnt ? op[i] : 0) + (g->k[i] - 1) * g->d[i] + 1;
        if (os || same) {
            g->out[i] = os ? os[i] : g->in[i] * g->s[i];
            total = full - g->out[i];
            /* half rounded down, also when total is negative (output_shape
             * beyond the full output pads the end) */
            half = total >= 0 ? total / 2 : -((-total + 1) / 2);
            g->pe[i] = strcmp(ap, "SAME_UPPER") == 0 ? total - half : half;
            g->pb[i] = total - g->pe[i];
        } else {
            g->pb[i] = pa && np == 2 * cnt ? pa[i] : 0;
            g->pe[i] = pa && np == 2 * cnt ? pa[cnt + i] : 0;
            g->out[i] = full - g->pb[i] - g->pe[i];
        }
    }
}

/* ---- NonMaxSuppression ------------------------------------------------------------ */

/* One candidate box of a class: its score and index. */
typedef struct {
    float score; /* the class score */
    int64_t i;   /* box index */
} NmsCand;

static int nms_order(const void *a, const void *b)
{
    const NmsCand *x = a, *y = b;
    if (x->score != y->score)
        return x->score > y->score ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Box b as [y1, x1, y2, x2] with y1 <= y2, x1 <= x2. */
static void nms_corners(const float *b, int center, float *c)
{
    if (center) {
        c[0] = b[1] - b[3] / 2;
        c[2] = b[1] + b[3] / 2;
        c[1] = b[0] - b[2] / 2;
        c[3] = b[0] + b[2] / 2;
    } else {
        c[0] = b[0] < b[2] ? b[0] : b[2];
        c[2] = b[0] < b[2] ? b[2] : b[0];
        c[1] = b[1] < b[3] ? b[1] : b[3];
        c[3] = b[1] < b[3] ? b[3] : b[1];
    }
}

static float nms_iou(const float *a, const float *b)
{
    float h = (a[2] < b[2] ? a[2] : b[2]) - (a[0] > b[0] ? a[0] : b[0]);
    float w = (a[3] < b[3] ? a[3] : b[3]) - (a[1] > b[1] ? a[1] : b[1]);
    float inter, uni;
    if (h <= 0 || w <= 0)
        return 0;
    inter = h * w;
    uni = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
    return uni > 0 ? inter / uni : 0;
}

int64_t gir_nms(const float *boxes, const float *scores, int64_t B, int64_t C, int64_t N,
                int64_t max_out, float iou, float sthr, int center, int64_t *out)
{
    GirArena *a = gir_arena_new();
    NmsCand *cand = gir_arena_alloc(a, sizeof *cand * (size_t)(N + 1));
    int64_t *kept = gir_arena_alloc(a, sizeof *kept * (size_t)(N + 1));
    float *corners = gir_arena_alloc(a, sizeof(float) * 4 * (size_t)(N + 1));
    int64_t b, c, i, j, nc, nk, total = 0;
    for (b = 0; b < B; b++) {
        for (i = 0; i < N; i++)
            nms_corners(boxes + (b * N + i) * 4, center, corners + i * 4);
        for (c = 0; c < C; c++) {
            const float *sc = scores + (b * C + c) * N;
            for (i = 0, nc = 0; i < N; i++) {
                if (sc[i] > sthr) {
                    cand[nc].score = sc[i];
                    cand[nc++].i = i;
                }
            }
            qsort(cand, (size_t)nc, sizeof *cand, nms_order);
            for (i = 0, nk = 0; i < nc && nk < max_out; i++) {
                int keep = 1;
                for (j = 0; j < nk && keep; j++)
                    keep = !(nms_iou(corners + cand[i].i * 4, corners + kept[j] * 4) > iou);
                if (!keep)
                    continue;
                kept[nk++] = cand[i].i;
                if (out) {
                    out[total * 3] = b;
                    out[total * 3 + 1] = c;
                    out[total * 3 + 2] = cand[i].i;
                }
                total++;
            }
        }
    }
    gir_arena_free(a);
    return total;
}

/* ---- Einsum equations --------------------------------------------------------------- */

static int einsum_letter(char c)
{
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= 'A' && c <= 'Z')
        return 26 + c - 'A';
    return -1;
}

/* One term (an input's or the output's subscripts) from p up to a ',' or
 * '-' or the end: its labels into lab, the count into *nl, whether it has
 * an ellipsis into *ell and where (label position) into *at. */
static const char *einsum_term(const char *p, int *lab, int *nl, int *ell, int *at, int *bad)
{
    *nl = 0;
    *ell = 0;
    *at = 0;
    while (*p && *p != ',' && *p != '-') {
        if (*p == ' ') {
            p++;
        } else if (p[0] == '.' && p[1] == '.' && p[2] == '.' && !*ell) {
            *ell = 1;
            *at = *nl;
            p += 3;
        } else if (einsum_letter(*p) >= 0 && *nl < GIR_MAX_RANK) {
            lab[(*nl)++] = einsum_letter(*p++);
        } else {
            *bad = 1;
            return p;
        }
    }
    return p;
}

int64_t gir_mvn_groups(const GirNode *n, const GirType *x, int64_t *gst)
{
    int cnt, d, mask[GIR_MAX_RANK] = {0};
    const int64_t *axes = gir_attr_ints(n, "axes", &cnt);
    int64_t st;
    if (axes) {
        for (d = 0; d < cnt; d++) {
            int64_t a = axes[d] < 0 ? axes[d] + x->rank : axes[d];
            if (a < 0 || a >= x->rank)
                return -1;
            mask[a] = 1;
        }
    } else {
        if (x->rank < 4)
            return -1;
        mask[0] = mask[2] = mask[3] = 1;
    }
    for (d = x->rank - 1, st = 1; d >= 0; d--) {
        gst[d] = mask[d] ? 0 : st;
        st *= mask[d] ? 1 : x->dims[d];
    }
    return st;
}

int gir_grid_sample_mode(const char *mode)
{
    if (!strcmp(mode, "nearest"))
        return 0;
    if (!strcmp(mode, "bilinear") || !strcmp(mode, "linear"))
        return 1;
    if (!strcmp(mode, "bicubic") || !strcmp(mode, "cubic"))
        return 2;
    return -1;
}

int gir_einsum_parse(const char *eq, int nin, const int *ranks, GirEinsum *es, char *why,
                     size_t whysize)
{
    const char *p = eq;
    int i, j, k, bad = 0, maxell = 0, count[52] = {0};
    int lab[GIR_MAX_RANK], nl, ell, at, ells[GIR_EINSUM_MAX_IN];
    memset(es, 0, sizeof *es);
    if (nin < 1 || nin > GIR_EINSUM_MAX_IN) {
        snprintf(why, whysize, "takes 1 to %d inputs", GIR_EINSUM_MAX_IN);
        return -1;
    }
    es->nin = nin;
    for (i = 0; i < nin; i++) {
        int er;
        p = einsum_term(p, lab, &nl, &ell, &at, &bad);
        if (bad || (i < nin - 1 && *p != ',') || (i == nin - 1 && *p == ',')) {
            snprintf(why, whysize, "equation '%.100s' does not fit %d inputs", eq, nin);
            return -1;
        }
        if (*p == ',')
            p++;
        er = ranks[i] - nl;
        if (er < 0 || (!ell && er != 0)) {
            snprintf(why, whysize, "term %d of '%.100s' has %d subscripts for rank %d", i, eq, nl,
                     ranks[i]);
            return -1;
        }
        ells[i] = ell ? er : 0;
        maxell = ells[i] > maxell ? ells[i] : maxell;
        es->in_rank[i] = ranks[i];
        for (j = 0, k = 0; j < ranks[i]; j++) {
            if (ell && j >= at && j < at + er)
                es->in_lab[i][j] = 52 + (j - at); /* aligned below */
            else
                es->in_lab[i][j] = lab[k++];
        }
        for (j = 0; j < nl; j++)
            count[lab[j]]++;
    }
    /* Right-align each input's ellipsis axes among maxell. */
    for (i = 0; i < nin; i++)
        for (j = 0; j < ranks[i]; j++)
            if (es->in_lab[i][j] >= 52)
                es->in_lab[i][j] += maxell - ells[i];
    if (p[0] == '-' && p[1] == '>') {
        p = einsum_term(p + 2, lab, &nl, &ell, &at, &bad);
        if (bad || *p || nl + (ell ? maxell : 0) > GIR_MAX_RANK) {
            snprintf(why, whysize, "bad output term in '%.100s'", eq);
            return -1;
        }
        for (j = 0, k = 0; j < nl + (ell ? maxell : 0); j++)
            es->out_lab[j] = ell && j >= at && j < at + maxell ? 52 + (j - at) : lab[k++];
        es->out_rank = nl + (ell ? maxell : 0);
        for (j = 0; j < nl; j++) {
            if (count[lab[j]] == 0) {
                snprintf(why, whysize, "output subscript not in any input of '%.100s'", eq);
                return -1;
            }
        }
    } else if (*p) {
        snprintf(why, whysize, "bad equation '%.100s'", eq);
        return -1;
    } else {
        /* Implicit output: the ellipsis axes, then the letters used once,
         * in alphabetical order (capitals first, as in ASCII). */
        static const int order[52] = {26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
                                      40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 0,  1,
                                      2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15,
                                      16, 17, 18, 19, 20, 21, 22, 23, 24, 25};
        for (j = 0; j < maxell; j++)
            es->out_lab[es->out_rank++] = 52 + j;
        for (j = 0; j < 52; j++) {
            if (count[order[j]] != 1)
                continue;
            if (es->out_rank == GIR_MAX_RANK) {
                snprintf(why, whysize, "result rank above %d", GIR_MAX_RANK);
                return -1;
            }
            es->out_lab[es->out_rank++] = order[j];
        }
    }
    return 0;
}

/* ---- requantize attributes of the int8 form (docs/quant.md) ------------------------ */

/* An ints attribute of exactly count entries, each in [lo, hi].  Absent:
 * NULL with no error when optional, else an error. */
int gir_rq_attr(const GirNode *n, const char *name, int64_t count, int64_t lo, int64_t hi,
                   int optional, const int64_t **out, GirError *e)
{
    int cnt, i;
    const int64_t *v = gir_attr_ints(n, name, &cnt);
    *out = v;
    if (!v) {
        if (optional)
            return 0;
        return gir_node_fail(n, e, "int8 form needs ints attribute %s", name);
    }
    if (count >= 0 && cnt != count)
        return gir_node_fail(n, e, "attribute %s has %d entries; expected %lld", name, cnt,
                    (long long)count);
    for (i = 0; i < cnt; i++)
        if (v[i] < lo || v[i] > hi)
            return gir_node_fail(n, e, "attribute %s[%d] = %lld out of range [%lld, %lld]", name, i,
                        (long long)v[i], (long long)lo, (long long)hi);
    return 0;
}

int gir_chan_rq(const GirNode *n, int64_t count, GirChanRq *rq, GirError *e)
{
    const int64_t *amin, *amax;
    if (gir_rq_attr(n, "rq_m_pos", count, KILN_RQ_M_MIN, KILN_RQ_M_MAX, 0, &rq->m_pos, e) ||
        gir_rq_attr(n, "rq_m_neg", count, KILN_RQ_M_MIN, KILN_RQ_M_MAX, 0, &rq->m_neg, e) ||
        gir_rq_attr(n, "rq_shift", count, 0, KILN_RQ_MAX_SHIFT, 0, &rq->shift, e) ||
        gir_rq_attr(n, "act_min", 1, -128, 127, 1, &amin, e) ||
        gir_rq_attr(n, "act_max", 1, -128, 127, 1, &amax, e))
        return -1;
    rq->lo = amin ? (int8_t)amin[0] : -128;
    rq->hi = amax ? (int8_t)amax[0] : 127;
    return 0;
}
