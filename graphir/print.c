/*
 * The printer of the graph IR's text form: gir_print.  parse.c reads what it
 * writes; text.h holds what the two share.
 *
 * The text exists so that a pass can be tested alone on a small hand-written
 * graph and so that dumps can be diffed, which means it must be exact: print
 * -> parse -> print is byte-identical, floats keep their bits and constants
 * their bytes.  docs/ir.md has the grammar.  One statement per line:
 *
 *   graph "tiny" opset 13 source "tiny.onnx"
 *   input %x : f32[1,3,8,8] nchw
 *   const %w : f32[4,3,3,3] = base64"AAAA..."
 *   %y = Conv(%x, %w, _) {pads=[1,1,1,1]} : f32[1,4,8,8] nchw @"conv0" loc("tiny.onnx" node "conv0")
 *   output %y
 *
 * The printer writes inputs, then constants, then nodes, then outputs, so a
 * parsed graph numbers its values in that order.  A node's output values take
 * the node's location; nothing else is lost.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

static const char b64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static const char *layout_name(GirLayout l)
{
    switch (l) {
    case GIR_LAYOUT_NCHW:
        return "nchw";
    case GIR_LAYOUT_NHWC:
        return "nhwc";
    default:
        return NULL;
    }
}

const char *gir_text_type(const GirType *t, char *buf, size_t size)
{
    size_t n = 0;
    int i, rank = t->rank;
    if ((unsigned)t->dtype < GIR_DT_COUNT)
        n += (size_t)snprintf(buf, size, "%s", gir_dtype_name(t->dtype));
    else
        n += (size_t)snprintf(buf, size, "dtype%d", (int)t->dtype);
    if (rank < 0 || rank > GIR_MAX_RANK) {
        /* An invalid rank above the limit prints as unknown rather than
         * reading past dims; gir_verify reports it. */
        if (n < size)
            snprintf(buf + n, size - n, "[*]");
        return buf;
    }
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, "[");
    for (i = 0; i < rank && n < size; i++) {
        if (t->dims[i] == -1)
            n += (size_t)snprintf(buf + n, size - n, "%s?", i ? "," : "");
        else
            n += (size_t)snprintf(buf + n, size - n, "%s%" PRId64, i ? "," : "", t->dims[i]);
    }
    if (n < size)
        snprintf(buf + n, size - n, "]");
    return buf;
}

/* ---- printer ---------------------------------------------------------------- */

/* A string literal: printable ASCII as is, everything else escaped, so the
 * text is 7-bit clean and every byte survives. */
static void print_string(FILE *f, const char *s)
{
    const unsigned char *p;
    fputc('"', f);
    for (p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') {
            fputc('\\', f);
            fputc(*p, f);
        } else if (*p == '\n') {
            fputs("\\n", f);
        } else if (*p == '\t') {
            fputs("\\t", f);
        } else if (*p < 0x20 || *p >= 0x7f) {
            fprintf(f, "\\x%02x", *p);
        } else {
            fputc(*p, f);
        }
    }
    fputc('"', f);
}

/* An identifier-shaped attribute name prints bare, anything else quoted. */
static int is_ident(const char *s)
{
    if (!s || !is_alpha((unsigned char)*s))
        return 0;
    for (s++; *s; s++)
        if (!is_alpha((unsigned char)*s) && !is_digit((unsigned char)*s))
            return 0;
    return 1;
}

static void print_value_ref(FILE *f, const GirGraph *g, int id)
{
    const char *name;
    if (id == -1) {
        fputc('_', f);
        return;
    }
    if (id < 0 || id >= g->nval) {
        /* Only a broken graph gets here; print something a reader can see
         * is wrong instead of reading out of bounds. */
        fprintf(f, "%%\"<bad value id %d>\"", id);
        return;
    }
    name = g->vals[id].name;
    fputc('%', f);
    if (is_bare_name(name))
        fputs(name, f);
    else
        print_string(f, name);
}

static void print_type(FILE *f, const GirType *t)
{
    char buf[32 + GIR_MAX_RANK * 22];
    fputs(gir_text_type(t, buf, sizeof buf), f);
}

static void print_layout(FILE *f, GirLayout l)
{
    const char *s = layout_name(l);
    if (s)
        fprintf(f, " %s", s);
}

static void print_float(FILE *f, float v);

/* The int8 scale of a value (docs/quant.md): scale(S), or per channel
 * scale(S0, S1, ...), then zp(Z) when its zero point is not 0; nothing when
 * not quantized. */
static void print_scale(FILE *f, const GirValue *v)
{
    int c;
    if (v->scale == 0.0f)
        return;
    fputs(" scale(", f);
    if (!v->chscale)
        print_float(f, v->scale);
    for (c = 0; v->chscale && c < v->nchscale; c++) {
        if (c)
            fputs(", ", f);
        print_float(f, v->chscale[c]);
    }
    fputc(')', f);
    if (v->zp)
        fprintf(f, " zp(%d)", v->zp);
}

/* A file equal to the graph's source prints as the word source: most
 * locations name the model file, and its path on every line buries the rest. */
static void print_loc(FILE *f, const GirGraph *g, GirLoc loc)
{
    int any = 0;
    if (!loc.file && loc.line == 0 && loc.offset == -1 && !loc.node)
        return;
    fputs(" loc(", f);
    if (loc.file && g->source && strcmp(loc.file, g->source) == 0) {
        fputs("source", f);
        any = 1;
    } else if (loc.file) {
        print_string(f, loc.file);
        any = 1;
    }
    if (loc.line != 0) {
        fprintf(f, ":%d", loc.line);
        any = 1;
    }
    if (loc.offset != -1) {
        fprintf(f, "%s+%" PRId64, any ? " " : "", loc.offset);
        any = 1;
    }
    if (loc.node) {
        fputs(any ? " node " : "node ", f);
        print_string(f, loc.node);
    }
    fputc(')', f);
}

/* The shortest decimal that reads back to the same float, so 0.1f prints as
 * "0.1" and not "0.100000001"; nine significant digits always suffice.  NaNs
 * other than the default quiet NaN keep their bits in hex.  The result always
 * looks like a float (".", "e", "inf" or "nan") so the parser can tell a
 * float attribute from an int one. */
static void format_float(float v, char *buf, size_t size)
{
    uint32_t bits, back_bits;
    float back;
    int prec;
    memcpy(&bits, &v, sizeof bits);
    if (isnan(v)) {
        if (bits == 0x7fc00000u)
            snprintf(buf, size, "nan");
        else
            snprintf(buf, size, "nan(0x%08" PRIx32 ")", bits);
        return;
    }
    if (isinf(v)) {
        snprintf(buf, size, "%s", v < 0 ? "-inf" : "inf");
        return;
    }
    for (prec = 1; prec <= 9; prec++) {
        snprintf(buf, size, "%.*g", prec, (double)v);
        back = strtof(buf, NULL);
        memcpy(&back_bits, &back, sizeof back_bits);
        if (back_bits == bits)
            break;
    }
    if (!strpbrk(buf, ".e"))
        strncat(buf, ".0", size - strlen(buf) - 1);
}

static void print_float(FILE *f, float v)
{
    char buf[48];
    format_float(v, buf, sizeof buf);
    fputs(buf, f);
}

static void print_base64(FILE *f, const unsigned char *d, size_t n)
{
    char buf[4096]; /* a multiple of 4: quartets never straddle a flush */
    size_t i, k = 0;
    uint32_t v;
    fputs("base64\"", f);
    for (i = 0; i < n; i += 3) {
        v = (uint32_t)d[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)d[i + 1] << 8;
        if (i + 2 < n)
            v |= d[i + 2];
        buf[k++] = b64_alphabet[(v >> 18) & 63];
        buf[k++] = b64_alphabet[(v >> 12) & 63];
        buf[k++] = i + 1 < n ? b64_alphabet[(v >> 6) & 63] : '=';
        buf[k++] = i + 2 < n ? b64_alphabet[v & 63] : '=';
        if (k == sizeof buf) {
            fwrite(buf, 1, k, f);
            k = 0;
        }
    }
    fwrite(buf, 1, k, f);
    fputc('"', f);
}

/* Dense data in host byte order, which is little-endian on every machine
 * kiln runs on (x86-64, aarch64).  Data that cannot be printed exactly (a
 * broken constant) prints as "elided" like deliberately elided data. */
static void print_data(FILE *f, const GirType *t, const void *data, int elide)
{
    int64_t bytes = gir_type_bytes(t);
    if (elide || bytes < 0 || (bytes > 0 && !data))
        fputs("elided", f);
    else
        print_base64(f, data, (size_t)bytes);
}

static void print_attr(FILE *f, const GirAttr *a, int elide)
{
    int i;
    if (is_ident(a->name))
        fputs(a->name, f);
    else
        print_string(f, a->name);
    fputc('=', f);
    switch (a->kind) {
    case GIR_ATTR_INT:
        fprintf(f, "%" PRId64, a->i);
        break;
    case GIR_ATTR_FLOAT:
        print_float(f, a->f);
        break;
    case GIR_ATTR_STRING:
        print_string(f, a->s);
        break;
    case GIR_ATTR_INTS:
        fputc('[', f);
        for (i = 0; a->ints && i < a->n; i++)
            fprintf(f, "%s%" PRId64, i ? "," : "", a->ints[i]);
        fputc(']', f);
        break;
    case GIR_ATTR_FLOATS:
        /* "[]" alone reads as an empty ints list. */
        if (!a->floats || a->n <= 0) {
            fputs("floats[]", f);
            break;
        }
        fputc('[', f);
        for (i = 0; i < a->n; i++) {
            if (i)
                fputc(',', f);
            print_float(f, a->floats[i]);
        }
        fputc(']', f);
        break;
    case GIR_ATTR_TENSOR:
        print_type(f, &a->t.type);
        fputc(' ', f);
        print_data(f, &a->t.type, a->t.data, elide);
        break;
    default:
        fprintf(f, "<bad attribute kind %d>", (int)a->kind);
        break;
    }
}

static void print_node(FILE *f, const GirGraph *g, const GirNode *n, int elide)
{
    int i;
    for (i = 0; i < n->nout; i++) {
        if (i)
            fputs(", ", f);
        print_value_ref(f, g, n->out[i]);
    }
    if (n->nout > 0)
        fputs(" = ", f);
    if ((unsigned)n->op < GIR_OP_COUNT)
        fputs(gir_op_name(n->op), f);
    else
        fprintf(f, "<bad op %d>", (int)n->op);
    fputc('(', f);
    for (i = 0; i < n->nin; i++) {
        if (i)
            fputs(", ", f);
        print_value_ref(f, g, n->in[i]);
    }
    fputc(')', f);
    if (n->nattr > 0) {
        fputs(" {", f);
        for (i = 0; i < n->nattr; i++) {
            if (i)
                fputs(", ", f);
            print_attr(f, &n->attrs[i], elide);
        }
        fputc('}', f);
    }
    fputs(" :", f);
    for (i = 0; i < n->nout; i++) {
        int id = n->out[i];
        fputs(i ? ", " : " ", f);
        if (id < 0 || id >= g->nval) {
            fputs("undef[*]", f);
            continue;
        }
        print_type(f, &g->vals[id].type);
        print_layout(f, g->vals[id].layout);
        print_scale(f, &g->vals[id]);
    }
    /* The parser names a node after its first output when '@' is left out,
     * so that name needs no '@'. */
    if (n->name && !(n->nout > 0 && n->out[0] >= 0 && n->out[0] < g->nval &&
                     strcmp(n->name, g->vals[n->out[0]].name ? g->vals[n->out[0]].name : "") == 0)) {
        fputs(" @", f);
        print_string(f, n->name);
    }
    print_loc(f, g, n->loc);
    fputc('\n', f);
}

/* Needs nothing of g beyond readable arrays: a graph that fails gir_verify
 * still prints (unparsable where it is broken), which is what a dump after a
 * failed check wants. */
int gir_print(const GirGraph *g, FILE *f, int elide_data)
{
    int i;
    fputs("graph ", f);
    print_string(f, g->name);
    fprintf(f, " opset %d", g->opset);
    if (g->source) {
        fputs(" source ", f);
        print_string(f, g->source);
    }
    fputc('\n', f);
    for (i = 0; i < g->ninput; i++) {
        int id = g->inputs[i];
        fputs("input ", f);
        print_value_ref(f, g, id);
        if (id >= 0 && id < g->nval) {
            fputs(" : ", f);
            print_type(f, &g->vals[id].type);
            print_layout(f, g->vals[id].layout);
            print_scale(f, &g->vals[id]);
            print_loc(f, g, g->vals[id].loc);
        }
        fputc('\n', f);
    }
    for (i = 0; i < g->nval; i++) {
        const GirValue *v = &g->vals[i];
        if (v->kind != GIR_VAL_CONST)
            continue;
        fputs("const ", f);
        print_value_ref(f, g, i);
        fputs(" : ", f);
        print_type(f, &v->type);
        print_layout(f, v->layout);
        print_scale(f, v);
        fputs(" = ", f);
        print_data(f, &v->type, v->data, elide_data);
        print_loc(f, g, v->loc);
        fputc('\n', f);
    }
    for (i = 0; i < g->nnode; i++)
        print_node(f, g, &g->nodes[i], elide_data);
    for (i = 0; i < g->noutput; i++) {
        fputs("output ", f);
        print_value_ref(f, g, g->outputs[i]);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
