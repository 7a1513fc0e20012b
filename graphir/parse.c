/*
 * The reader of the graph IR's text form: gir_parse, with its lexer (as in
 * QBE's parse.c, the tokens exist only for this parser).  print.c writes the
 * text; text.h holds what the two share; docs/ir.md has the grammar.
 *
 * The parser reads untrusted text.  It checks every count, length and number
 * before using it, stops at the first problem with one line
 * "PATH:LINE: expected ..., got ..." (or another message naming the line),
 * and checks everything gir_verify would, so that a bad graph is reported at
 * its line rather than at the model location the text carries.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* ---- characters ------------------------------------------------------------ */

static int is_hex(int c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int hex_val(int c)
{
    if (is_digit(c))
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return c - 'A' + 10;
}

/* The value of a character of the base64 alphabet print.c writes; -1 for
 * any other character. */
static int b64_val(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (is_digit(c))
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

/* ---- lexer ------------------------------------------------------------------- */

typedef enum {
    TK_EOF,    /* end of the text */
    TK_EOL,    /* a newline: statements are one per line */
    TK_IDENT,  /* [A-Za-z_][A-Za-z0-9_]*: keywords, ops, dtypes, attribute names */
    TK_NUMBER, /* starts with a digit or '-': integer, decimal float, -inf, hex */
    TK_STRING, /* "..." with escapes decoded */
    TK_VALUE,  /* %name or %"name" */
    TK_BASE64, /* base64"...": payload kept as a span, decoded by its reader */
    TK_PUNCT,  /* one of = , ( ) { } [ ] : @ ? * + */
    TK_BAD,    /* a byte that starts no token */
} TokKind;

typedef struct {
    TokKind kind;      /* what it is */
    const char *start; /* raw text, for "got ..." */
    size_t len;        /* raw length */
    int line;          /* line it starts on */
    const char *str;   /* IDENT, NUMBER, STRING, VALUE: NUL-terminated text */
    const char *b64;   /* BASE64: the payload between the quotes */
    size_t b64len;     /* BASE64: payload length */
} Token;

/* Name -> id, open addressing.  Keys live in the parser's scratch arena. */
typedef struct {
    const char *key; /* NULL: empty slot */
    int id;          /* value id or node id */
    int line;        /* line that defined it */
} Slot;

typedef struct {
    Slot *slots;  /* cap entries */
    size_t cap;   /* a power of two, or 0 */
    size_t count; /* occupied entries */
} NameMap;

typedef struct {
    const char *path;      /* names the text in diagnostics */
    const char *p;         /* next unread byte */
    const char *end;       /* one past the text */
    int line;              /* line of p */
    Token tok;             /* the current token */
    GirError *e;           /* where the one error goes */
    GirArena *tmp;         /* token text, maps, lists: freed when parsing ends */
    GirGraph *g;           /* the graph being built; NULL before the header */
    NameMap vals;          /* value name -> value id */
    NameMap nodes;         /* node name -> node id */
    const char *last_file; /* loc file strings repeat on most lines: share one */
} Parser;

static int errorf(Parser *P, int line, const char *fmt, ...) GIR_PRINTF(3, 4);

static int errorf(Parser *P, int line, const char *fmt, ...)
{
    char msg[900];
    va_list ap;
    GirLoc loc = {P->path, line, -1, NULL};
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return gir_error_at(P->e, loc, "%s", msg);
}

/* Up to 40 raw bytes of text quoted, unprintable ones escaped. */
static const char *quote_raw(const char *s, size_t len, char *buf, size_t size)
{
    size_t i, k = 0;
    buf[k++] = '\'';
    for (i = 0; i < len && i < 40 && k + 8 < size; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            buf[k++] = (char)c;
        else
            k += (size_t)snprintf(buf + k, size - k, "\\x%02x", c);
    }
    if (i < len && k + 5 < size) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k++] = '\'';
    buf[k] = '\0';
    return buf;
}

static const char *describe(const Token *t, char *buf, size_t size)
{
    if (t->kind == TK_EOF)
        return "end of file";
    if (t->kind == TK_EOL)
        return "end of line";
    return quote_raw(t->start, t->len, buf, size);
}

/* A value name as the text writes it, for messages: %x or %"a b". */
static const char *value_text(const char *name, char *buf, size_t size)
{
    if (is_bare_name(name)) {
        snprintf(buf, size, "%%%s", name);
        return buf;
    }
    buf[0] = '%';
    quote_raw(name, strlen(name), buf + 1, size - 1);
    buf[1] = '"';
    buf[strlen(buf) - 1] = '"';
    return buf;
}

static int expected(Parser *P, const char *what)
{
    char got[160];
    return errorf(P, P->tok.line, "expected %s, got %s", what, describe(&P->tok, got, sizeof got));
}

static char *tmp_copy(Parser *P, const char *s, size_t len)
{
    char *p = gir_arena_alloc(P->tmp, len + 1);
    memcpy(p, s, len);
    return p;
}

/* Decode the string literal whose opening quote is at q; sets *endp past the
 * closing quote and *out to the decoded text. */
static int lex_string(Parser *P, const char *q, const char **endp, const char **out)
{
    const char *r = q + 1, *s;
    char *buf, *w, got[32];
    while (r < P->end && *r != '"' && *r != '\n') {
        if (*r == '\\' && r + 1 < P->end && r[1] != '\n')
            r++;
        r++;
    }
    if (r >= P->end || *r != '"')
        return errorf(P, P->line, "expected '\"' closing the string, got %s",
                      r >= P->end ? "end of file" : "end of line");
    buf = w = gir_arena_alloc(P->tmp, (size_t)(r - q));
    for (s = q + 1; s < r; s++) {
        if (*s == '\0')
            return errorf(P, P->line, "expected a string character, got '\\x00'");
        if (*s != '\\') {
            *w++ = *s;
            continue;
        }
        s++;
        switch (*s) {
        case 'n':
            *w++ = '\n';
            break;
        case 't':
            *w++ = '\t';
            break;
        case '"':
        case '\\':
            *w++ = *s;
            break;
        case 'x':
            if (s + 2 < r && is_hex((unsigned char)s[1]) && is_hex((unsigned char)s[2])) {
                int c = hex_val((unsigned char)s[1]) * 16 + hex_val((unsigned char)s[2]);
                if (c == 0)
                    return errorf(P, P->line, "expected a non-zero byte, got '\\x00'");
                *w++ = (char)c;
                s += 2;
                break;
            }
            return errorf(P, P->line, "expected \\x and two hex digits, got %s",
                          quote_raw(s - 1, (size_t)(r - s + 1) < 4 ? (size_t)(r - s + 1) : 4,
                                    got, sizeof got));
        default:
            return errorf(P, P->line, "expected an escape (\\n \\t \\\" \\\\ \\xHH), got %s",
                          quote_raw(s - 1, 2, got, sizeof got));
        }
    }
    *endp = r + 1;
    *out = buf;
    return 0;
}

/* An identifier at p, or base64"..." data; sets *endp past it. */
static int lex_word(Parser *P, const char *p, const char **endp)
{
    const char *q = p, *end = P->end;
    Token *t = &P->tok;
    while (q < end && (is_alpha((unsigned char)*q) || is_digit((unsigned char)*q)))
        q++;
    t->kind = TK_IDENT;
    t->str = tmp_copy(P, p, (size_t)(q - p));
    if (strcmp(t->str, "base64") == 0 && q < end && *q == '"') {
        const char *r = q + 1;
        while (r < end && *r != '"' && *r != '\n')
            r++;
        if (r >= end || *r != '"')
            return errorf(P, P->line, "expected '\"' closing the base64 data, got %s",
                          r >= end ? "end of file" : "end of line");
        t->kind = TK_BASE64;
        t->b64 = q + 1;
        t->b64len = (size_t)(r - q - 1);
        q = r + 1;
    }
    *endp = q;
    return 0;
}

/* The end of the number word starting at p (a digit or '-'): one maximal
 * word, its reader decides what it is.  A sign may follow the exponent 'e'
 * of a decimal, not a hex digit 'e'. */
static const char *number_end(const char *p, const char *end)
{
    const char *q = p + 1;
    int hex = 0;
    if (*p == '-' && q < end && *q == '0' && q + 1 < end && (q[1] == 'x' || q[1] == 'X'))
        hex = 1;
    if (*p == '0' && q < end && (*q == 'x' || *q == 'X'))
        hex = 1;
    while (q < end) {
        if (is_alpha((unsigned char)*q) || is_digit((unsigned char)*q) || *q == '.')
            q++;
        else if ((*q == '+' || *q == '-') && !hex && (q[-1] == 'e' || q[-1] == 'E'))
            q++;
        else
            break;
    }
    return q;
}

/* Read the next token into P->tok. */
static int next(Parser *P)
{
    const char *p = P->p, *end = P->end, *q;
    Token *t = &P->tok;
    memset(t, 0, sizeof *t);
    for (;;) {
        if (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) {
            p++;
        } else if (p < end && *p == '#') {
            while (p < end && *p != '\n')
                p++;
        } else {
            break;
        }
    }
    t->start = p;
    t->line = P->line;
    if (p == end) {
        t->kind = TK_EOF;
        P->p = p;
        return 0;
    }
    q = p;
    if (*p == '\n') {
        t->kind = TK_EOL;
        q = p + 1;
        P->line++;
    } else if (is_alpha((unsigned char)*p)) {
        if (lex_word(P, p, &q) < 0)
            return -1;
    } else if (is_digit((unsigned char)*p) || *p == '-') {
        q = number_end(p, end);
        t->kind = TK_NUMBER;
        t->str = tmp_copy(P, p, (size_t)(q - p));
    } else if (*p == '"') {
        t->kind = TK_STRING;
        if (lex_string(P, p, &q, &t->str) < 0)
            return -1;
    } else if (*p == '%') {
        t->kind = TK_VALUE;
        q = p + 1;
        if (q < end && *q == '"') {
            if (lex_string(P, q, &q, &t->str) < 0)
                return -1;
        } else {
            while (q < end && is_bare_char((unsigned char)*q))
                q++;
            while (q > p + 1 && q[-1] == ':')
                q--;
            t->str = tmp_copy(P, p + 1, (size_t)(q - p - 1));
        }
        if (!t->str[0]) {
            t->len = (size_t)(q - p);
            return expected(P, "a value name");
        }
    } else if (*p && strchr("=,(){}[]:@?*+", *p)) {
        t->kind = TK_PUNCT;
        q = p + 1;
    } else {
        t->kind = TK_BAD;
        q = p + 1;
    }
    t->len = (size_t)(q - p);
    P->p = q;
    return 0;
}

/* ---- parser helpers ----------------------------------------------------------- */

static int at_punct(const Parser *P, char c)
{
    return P->tok.kind == TK_PUNCT && P->tok.start[0] == c;
}

static int at_ident(const Parser *P, const char *s)
{
    return P->tok.kind == TK_IDENT && strcmp(P->tok.str, s) == 0;
}

static int eat_punct(Parser *P, char c, const char *what)
{
    if (!at_punct(P, c))
        return expected(P, what);
    return next(P);
}

/* A statement ends at a newline or at the end of the text. */
static int eat_eol(Parser *P)
{
    if (P->tok.kind == TK_EOF)
        return 0;
    if (P->tok.kind != TK_EOL)
        return expected(P, "end of line");
    return next(P);
}

/* Lists grow in the scratch arena; the cap keeps counts far from int
 * overflow whatever the text says. */
#define LIST_MAX (1 << 26)

static void *grow_list(Parser *P, void *items, int n, int *cap, size_t elem)
{
    void *p;
    int ncap;
    if (n < *cap)
        return items;
    if (n >= LIST_MAX) {
        errorf(P, P->tok.line, "expected at most %d list entries, got more", LIST_MAX);
        return NULL;
    }
    ncap = *cap ? *cap * 2 : 8;
    p = gir_arena_alloc(P->tmp, (size_t)ncap * elem);
    if (n)
        memcpy(p, items, (size_t)n * elem);
    *cap = ncap;
    return p;
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

/* The slot holding key, or the empty slot where it would go. */
static Slot *map_slot(NameMap *m, const char *key)
{
    size_t i = (size_t)hash_name(key) & (m->cap - 1);
    while (m->slots[i].key && strcmp(m->slots[i].key, key) != 0)
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

static const Slot *map_find(NameMap *m, const char *key)
{
    const Slot *s;
    if (!m->cap)
        return NULL;
    s = map_slot(m, key);
    return s->key ? s : NULL;
}

static void map_put(Parser *P, NameMap *m, const char *key, int id, int line)
{
    Slot *s;
    size_t i;
    if (2 * (m->count + 1) > m->cap) {
        NameMap bigger = {NULL, m->cap ? 2 * m->cap : 64, 0};
        bigger.slots = gir_arena_alloc(P->tmp, bigger.cap * sizeof *bigger.slots);
        for (i = 0; i < m->cap; i++)
            if (m->slots[i].key) {
                *map_slot(&bigger, m->slots[i].key) = m->slots[i];
                bigger.count++;
            }
        *m = bigger;
    }
    s = map_slot(m, key);
    if (!s->key)
        m->count++;
    s->key = key;
    s->id = id;
    s->line = line;
}

/* ---- numbers, types, data, locations ------------------------------------------ */

/* The current token as an integer in [lo, hi]. */
static int parse_int(Parser *P, const char *what, int64_t lo, int64_t hi, int64_t *out)
{
    const char *s;
    uint64_t v = 0, limit;
    int neg = 0;
    if (P->tok.kind != TK_NUMBER)
        return expected(P, what);
    s = P->tok.str;
    if (*s == '-') {
        neg = 1;
        s++;
    }
    if (!*s)
        return expected(P, what);
    limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    for (; *s; s++) {
        unsigned d;
        if (!is_digit((unsigned char)*s))
            return expected(P, what);
        d = (unsigned)(*s - '0');
        if (v > (limit - d) / 10)
            return expected(P, what);
        v = v * 10 + d;
    }
    if (neg)
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    if (*out < lo || *out > hi)
        return expected(P, what);
    return next(P);
}

static int is_int_text(const char *s)
{
    if (*s == '-')
        s++;
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!is_digit((unsigned char)*s))
            return 0;
    return 1;
}

/* -?D+(.D*)?([eE][+-]?D+)? with a '.' or an exponent: what format_float
 * writes for finite floats, and nothing strtof would read differently
 * (hex floats, "infinity", locale forms). */
static int is_decimal_text(const char *s)
{
    int frac = 0, expo = 0;
    if (*s == '-')
        s++;
    if (!is_digit((unsigned char)*s))
        return 0;
    while (is_digit((unsigned char)*s))
        s++;
    if (*s == '.') {
        frac = 1;
        s++;
        while (is_digit((unsigned char)*s))
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        expo = 1;
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!is_digit((unsigned char)*s))
            return 0;
        while (is_digit((unsigned char)*s))
            s++;
    }
    return !*s && (frac || expo);
}

static int parse_float(Parser *P, float *out)
{
    const char *what = "a float (1.5, 2e-3, inf, nan)";
    if (at_ident(P, "inf")) {
        *out = INFINITY;
        return next(P);
    }
    if (at_ident(P, "nan")) {
        uint32_t bits = 0x7fc00000u;
        const char *s;
        if (next(P) < 0)
            return -1;
        if (at_punct(P, '(')) {
            /* nan(0xHHHHHHHH): a NaN whose bits are not the default's. */
            const char *bits_what = "the bits of a NaN (0x7fc00001)";
            if (next(P) < 0)
                return -1;
            if (P->tok.kind != TK_NUMBER)
                return expected(P, bits_what);
            s = P->tok.str;
            if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || !s[2] || strlen(s) > 10)
                return expected(P, bits_what);
            bits = 0;
            for (s += 2; *s; s++) {
                if (!is_hex((unsigned char)*s))
                    return expected(P, bits_what);
                bits = bits * 16 + (uint32_t)hex_val((unsigned char)*s);
            }
            if ((bits & 0x7f800000u) != 0x7f800000u || !(bits & 0x007fffffu))
                return expected(P, bits_what);
            if (next(P) < 0 || eat_punct(P, ')', "')'") < 0)
                return -1;
        }
        memcpy(out, &bits, sizeof *out);
        return 0;
    }
    if (P->tok.kind != TK_NUMBER)
        return expected(P, what);
    if (strcmp(P->tok.str, "-inf") == 0) {
        *out = -INFINITY;
        return next(P);
    }
    if (!is_decimal_text(P->tok.str))
        return expected(P, what);
    *out = strtof(P->tok.str, NULL);
    if (isinf(*out))
        return expected(P, "a float within the range of f32");
    return next(P);
}

static int parse_dtype(Parser *P, GirDType *out)
{
    int i;
    if (P->tok.kind == TK_IDENT)
        for (i = 0; i < GIR_DT_COUNT; i++)
            if (strcmp(P->tok.str, gir_dtype_name((GirDType)i)) == 0) {
                *out = (GirDType)i;
                return next(P);
            }
    return expected(P, "an element type (f32, f64, f16, i8, i16, i32, i64, u8, u16, u32, u64, bool, undef)");
}

static int is_dtype_ident(const Parser *P)
{
    int i;
    if (P->tok.kind != TK_IDENT)
        return 0;
    for (i = 0; i < GIR_DT_COUNT; i++)
        if (strcmp(P->tok.str, gir_dtype_name((GirDType)i)) == 0)
            return 1;
    return 0;
}

/* DTYPE '[' ( '*' | [DIM {',' DIM}] ) ']'  with DIM = INT | '?' */
static int parse_type(Parser *P, GirType *t)
{
    memset(t, 0, sizeof *t);
    if (parse_dtype(P, &t->dtype) < 0 || eat_punct(P, '[', "'[' starting the shape") < 0)
        return -1;
    if (at_punct(P, '*')) {
        t->rank = -1;
        if (next(P) < 0)
            return -1;
        return eat_punct(P, ']', "']' after '*'");
    }
    if (at_punct(P, ']'))
        return next(P);
    for (;;) {
        if (t->rank == GIR_MAX_RANK)
            return errorf(P, P->tok.line, "expected at most %d dimensions, got more",
                          GIR_MAX_RANK);
        if (at_punct(P, '?')) {
            t->dims[t->rank++] = -1;
            if (next(P) < 0)
                return -1;
        } else if (parse_int(P, "a dimension (a size or '?')", 0, INT64_MAX,
                             &t->dims[t->rank++]) < 0) {
            return -1;
        }
        if (at_punct(P, ']'))
            return next(P);
        if (eat_punct(P, ',', "',' or ']' in the shape") < 0)
            return -1;
    }
}

/* Layouts describe 4-D feature maps only (graphir.h), so a layout on another
 * rank is a mistake in the text. */
static int parse_layout(Parser *P, const GirType *t, GirLayout *out)
{
    char buf[64 + GIR_MAX_RANK * 22];
    *out = GIR_LAYOUT_ANY;
    if (at_ident(P, "nchw"))
        *out = GIR_LAYOUT_NCHW;
    else if (at_ident(P, "nhwc"))
        *out = GIR_LAYOUT_NHWC;
    else
        return 0;
    if (t->rank != 4 && t->rank != -1)
        return errorf(P, P->tok.line, "expected a 4-D type for layout %s, got %s",
                      P->tok.str, gir_text_type(t, buf, sizeof buf));
    return next(P);
}

/* A value's int8 scale as parsed: one entry per tensor, or one per channel. */
typedef struct {
    float *s; /* the entries (in P->tmp) */
    int n;    /* their count; 0 when left out */
    int zp;   /* the zero point (zp(Z) after the scale; 0 when left out) */
} Scale;

/* [ 'scale' '(' FLOAT {',' FLOAT} ')' [ 'zp' '(' INT ')' ] ]: the int8
 * scale of a value (docs/quant.md), one per tensor or one per channel, and
 * its zero point (-128..0); n 0 when left out. */
static int parse_scale(Parser *P, Scale *out)
{
    int cap = 0;
    int64_t z;
    out->s = NULL;
    out->n = 0;
    out->zp = 0;
    if (!at_ident(P, "scale"))
        return 0;
    if (next(P) < 0 || eat_punct(P, '(', "'(' after scale") < 0)
        return -1;
    for (;;) {
        float v;
        if (out->n > 0 && eat_punct(P, ',', "',' or ')' in the scale") < 0)
            return -1;
        if (parse_float(P, &v) < 0)
            return -1;
        if (!(v > 0.0f) || isinf(v))
            return errorf(P, P->tok.line, "expected a positive finite scale");
        if (out->n == cap) {
            float *grown;
            cap = cap ? 2 * cap : 16;
            grown = gir_arena_alloc(P->tmp, sizeof *grown * (size_t)cap);
            if (out->n)
                memcpy(grown, out->s, sizeof *grown * (size_t)out->n);
            out->s = grown;
        }
        out->s[out->n++] = v;
        if (at_punct(P, ')'))
            break;
    }
    if (eat_punct(P, ')', "')' after the scale") < 0)
        return -1;
    if (!at_ident(P, "zp"))
        return 0;
    if (next(P) < 0 || eat_punct(P, '(', "'(' after zp") < 0 ||
        parse_int(P, "zero point", -128, 0, &z) < 0)
        return -1;
    out->zp = (int)z;
    return eat_punct(P, ')', "')' after the zero point");
}

/* Give value id the parsed scale; per-channel scales need an i8 value with
 * as many channels as entries. */
static int apply_scale(Parser *P, int line, int id, const Scale *sc, GirLayout layout)
{
    const GirType *t = &P->g->vals[id].type;
    int axis = layout == GIR_LAYOUT_NHWC ? t->rank - 1 : 1;
    char buf[128];
    if (sc->n > 1 && (t->dtype != GIR_DT_I8 || t->rank < 2 || t->dims[axis] != sc->n))
        return errorf(P, line, "%d per-channel scales for %%%s : %s (they need an i8 value with "
                      "%d channels)", sc->n, P->g->vals[id].name,
                      gir_text_type(t, buf, sizeof buf), sc->n);
    if (sc->zp && t->dtype != GIR_DT_I8)
        return errorf(P, line, "zero point %d for %%%s : %s (it needs an i8 value)", sc->zp,
                      P->g->vals[id].name, gir_text_type(t, buf, sizeof buf));
    gir_set_chscale(P->g, id, sc->s, sc->n);
    P->g->vals[id].zp = sc->zp;
    return 0;
}

/* Exactly the bytes of type t, as base64"...", into arena a.  what names the
 * owner for messages ("constant %w"). */
static int parse_data(Parser *P, const GirType *t, GirArena *a, void **out, const char *what)
{
    char buf[64 + GIR_MAX_RANK * 22], got[32];
    const char *s;
    unsigned char *d;
    int64_t bytes;
    size_t n, pad, dec, i;
    int j;
    if (at_ident(P, "elided"))
        return errorf(P, P->tok.line,
                      "expected base64 data for %s, got 'elided' (a dump printed without "
                      "data does not parse back)",
                      what);
    if (P->tok.kind != TK_BASE64)
        return expected(P, "base64\"...\" data");
    bytes = gir_type_bytes(t);
    if (bytes < 0)
        return errorf(P, P->tok.line, "expected a static type for the data of %s, got %s",
                      what, gir_text_type(t, buf, sizeof buf));
    s = P->tok.b64;
    n = P->tok.b64len;
    if (n % 4)
        return errorf(P, P->tok.line,
                      "expected base64 data in groups of 4 characters, got %zu characters", n);
    pad = n >= 2 && s[n - 1] == '=' ? (s[n - 2] == '=' ? 2 : 1) : 0;
    dec = n / 4 * 3 - pad;
    if ((uint64_t)bytes != dec)
        return errorf(P, P->tok.line, "expected %" PRId64 " bytes of data for %s %s, got %zu",
                      bytes, what, gir_text_type(t, buf, sizeof buf), dec);
    d = gir_arena_alloc(a, dec);
    for (i = 0; i < n; i += 4) {
        uint32_t v = 0;
        for (j = 0; j < 4; j++) {
            int c = b64_val((unsigned char)s[i + j]);
            if (c < 0 && !(s[i + j] == '=' && i + 4 == n && (size_t)j >= 4 - pad))
                return errorf(P, P->tok.line, "expected base64 characters, got %s",
                              quote_raw(s + i + j, 1, got, sizeof got));
            v = v << 6 | (uint32_t)(c < 0 ? 0 : c);
        }
        d[i / 4 * 3] = (unsigned char)(v >> 16);
        if (i / 4 * 3 + 1 < dec)
            d[i / 4 * 3 + 1] = (unsigned char)(v >> 8);
        if (i / 4 * 3 + 2 < dec)
            d[i / 4 * 3 + 2] = (unsigned char)v;
    }
    *out = d;
    return next(P);
}

/* A string owned by the graph: locations point into it for the graph's life. */
static const char *graph_file(Parser *P, const char *s)
{
    if (!P->last_file || strcmp(P->last_file, s) != 0)
        P->last_file = gir_arena_strdup(P->g->arena, s);
    return P->last_file;
}

/* [ 'loc' '(' [STRING | 'source'] [':' LINE] ['+' OFFSET] ['node' STRING] ')' ] */
static int parse_loc(Parser *P, GirLoc *loc)
{
    int64_t v;
    loc->file = NULL;
    loc->line = 0;
    loc->offset = -1;
    loc->node = NULL;
    if (!at_ident(P, "loc"))
        return 0;
    if (next(P) < 0 || eat_punct(P, '(', "'(' after loc") < 0)
        return -1;
    if (P->tok.kind == TK_STRING) {
        loc->file = graph_file(P, P->tok.str);
        if (next(P) < 0)
            return -1;
    } else if (at_ident(P, "source")) {
        if (!P->g->source)
            return expected(P, "a file name string (the header names no source)");
        loc->file = P->g->source;
        if (next(P) < 0)
            return -1;
    }
    if (at_punct(P, ':')) {
        if (next(P) < 0 || parse_int(P, "a line number", INT_MIN, INT_MAX, &v) < 0)
            return -1;
        loc->line = (int)v;
    }
    if (at_punct(P, '+')) {
        if (next(P) < 0 || parse_int(P, "a byte offset", INT64_MIN, INT64_MAX, &v) < 0)
            return -1;
        loc->offset = v;
    }
    if (at_ident(P, "node")) {
        if (next(P) < 0)
            return -1;
        if (P->tok.kind != TK_STRING)
            return expected(P, "a node name string after 'node'");
        loc->node = gir_arena_strdup(P->g->arena, P->tok.str);
        if (next(P) < 0)
            return -1;
    }
    return eat_punct(P, ')',
                     "')' closing loc, or one of \"file\" source :line +offset node \"name\"");
}

/* ---- statements ------------------------------------------------------------------ */

/* The current token must name a value not yet defined; returns its name. */
static int new_value_name(Parser *P, const char **name)
{
    char buf[128];
    const Slot *s;
    if (P->tok.kind != TK_VALUE)
        return expected(P, "a value name (%name)");
    s = map_find(&P->vals, P->tok.str);
    if (s)
        return errorf(P, P->tok.line, "redefinition of %s (first defined at line %d)",
                      value_text(P->tok.str, buf, sizeof buf), s->line);
    *name = P->tok.str;
    return next(P);
}

/* The current token must name a defined value; returns its id. */
static int use_value(Parser *P, int *id)
{
    char buf[128];
    const Slot *s;
    if (P->tok.kind != TK_VALUE)
        return expected(P, "a value name (%name)");
    s = map_find(&P->vals, P->tok.str);
    if (!s)
        return errorf(P, P->tok.line, "undefined value %s",
                      value_text(P->tok.str, buf, sizeof buf));
    *id = s->id;
    return next(P);
}

/* 'graph' [STRING] ['opset' INT] ['source' STRING] */
static int parse_header(Parser *P)
{
    const char *name = NULL, *source = NULL;
    int64_t opset = -1;
    if (!at_ident(P, "graph"))
        return expected(P, "'graph' starting the text");
    if (next(P) < 0)
        return -1;
    if (P->tok.kind == TK_STRING) {
        name = P->tok.str;
        if (next(P) < 0)
            return -1;
    }
    if (at_ident(P, "opset")) {
        if (next(P) < 0 || parse_int(P, "an opset number", 0, INT_MAX, &opset) < 0)
            return -1;
    }
    if (at_ident(P, "source")) {
        if (next(P) < 0)
            return -1;
        if (P->tok.kind != TK_STRING)
            return expected(P, "a file name string after 'source'");
        source = P->tok.str;
        if (next(P) < 0)
            return -1;
    }
    if (eat_eol(P) < 0)
        return -1;
    P->g = gir_graph_new(name);
    if (opset >= 0)
        P->g->opset = (int)opset;
    if (source)
        P->g->source = gir_arena_strdup(P->g->arena, source);
    return 0;
}

/* 'input' VALUE ':' TYPE [LAYOUT] [LOC] */
static int parse_input(Parser *P)
{
    int line = P->tok.line, id;
    const char *name;
    GirType t;
    GirLayout layout;
    GirLoc loc;
    Scale scale;
    if (next(P) < 0 || new_value_name(P, &name) < 0 || eat_punct(P, ':', "':' and a type") < 0 ||
        parse_type(P, &t) < 0 || parse_layout(P, &t, &layout) < 0 ||
        parse_scale(P, &scale) < 0 || parse_loc(P, &loc) < 0 || eat_eol(P) < 0)
        return -1;
    id = gir_add_value(P->g, name, GIR_VAL_INPUT, t, loc);
    P->g->vals[id].layout = layout;
    if (apply_scale(P, line, id, &scale, layout) < 0)
        return -1;
    gir_add_input(P->g, id);
    map_put(P, &P->vals, name, id, line);
    return 0;
}

/* 'const' VALUE ':' TYPE [LAYOUT] '=' BASE64 [LOC] */
static int parse_const(Parser *P)
{
    int line = P->tok.line, id;
    const char *name;
    char what[160], buf[128];
    void *data;
    GirType t;
    GirLayout layout;
    GirLoc loc;
    Scale scale;
    if (next(P) < 0 || new_value_name(P, &name) < 0 || eat_punct(P, ':', "':' and a type") < 0 ||
        parse_type(P, &t) < 0 || parse_layout(P, &t, &layout) < 0 ||
        parse_scale(P, &scale) < 0 || eat_punct(P, '=', "'=' and the constant's data") < 0)
        return -1;
    snprintf(what, sizeof what, "constant %s", value_text(name, buf, sizeof buf));
    if (parse_data(P, &t, P->tmp, &data, what) < 0 || parse_loc(P, &loc) < 0 || eat_eol(P) < 0)
        return -1;
    id = gir_add_const(P->g, name, t, data, loc);
    P->g->vals[id].layout = layout;
    if (apply_scale(P, line, id, &scale, layout) < 0)
        return -1;
    map_put(P, &P->vals, name, id, line);
    return 0;
}

/* 'output' VALUE {',' VALUE} */
static int parse_output(Parser *P)
{
    int id = -1;
    if (next(P) < 0)
        return -1;
    for (;;) {
        if (use_value(P, &id) < 0)
            return -1;
        gir_add_output(P->g, id);
        if (!at_punct(P, ','))
            return eat_eol(P);
        if (next(P) < 0)
            return -1;
    }
}

/* NAME '=' VALUE, into a; its strings, lists and data live in the scratch
 * arena until the gir_set_attr_* setters copy them into the graph. */
static int parse_attr(Parser *P, GirAttr *a)
{
    memset(a, 0, sizeof *a);
    if (P->tok.kind != TK_IDENT && P->tok.kind != TK_STRING)
        return expected(P, "an attribute name");
    a->name = P->tok.str;
    if (next(P) < 0 || eat_punct(P, '=', "'=' and the attribute's value") < 0)
        return -1;
    if (P->tok.kind == TK_STRING) {
        a->kind = GIR_ATTR_STRING;
        a->s = P->tok.str;
        return next(P);
    }
    if (P->tok.kind == TK_NUMBER && is_int_text(P->tok.str)) {
        a->kind = GIR_ATTR_INT;
        return parse_int(P, "a 64-bit integer", INT64_MIN, INT64_MAX, &a->i);
    }
    if (P->tok.kind == TK_NUMBER || at_ident(P, "inf") || at_ident(P, "nan")) {
        a->kind = GIR_ATTR_FLOAT;
        return parse_float(P, &a->f);
    }
    if (at_ident(P, "floats")) {
        a->kind = GIR_ATTR_FLOATS;
        if (next(P) < 0 || eat_punct(P, '[', "'[' after floats") < 0)
            return -1;
        return eat_punct(P, ']', "']' (floats[] is the empty float list)");
    }
    if (is_dtype_ident(P)) {
        GirType t;
        char what[160];
        a->kind = GIR_ATTR_TENSOR;
        if (parse_type(P, &t) < 0)
            return -1;
        snprintf(what, sizeof what, "attribute '%s'", a->name);
        a->t.type = t;
        return parse_data(P, &t, P->tmp, &a->t.data, what);
    }
    if (at_punct(P, '[')) {
        int cap = 0;
        if (next(P) < 0)
            return -1;
        a->kind = GIR_ATTR_INTS;
        if (at_punct(P, ']'))
            return next(P);
        /* The first entry decides the list's kind, as for a lone value. */
        if (!(P->tok.kind == TK_NUMBER && is_int_text(P->tok.str)))
            a->kind = GIR_ATTR_FLOATS;
        for (;;) {
            if (a->kind == GIR_ATTR_INTS) {
                if (!(a->ints = grow_list(P, a->ints, a->n, &cap, sizeof *a->ints)) ||
                    parse_int(P, "an integer list entry", INT64_MIN, INT64_MAX,
                              &a->ints[a->n]) < 0)
                    return -1;
            } else {
                if (!(a->floats = grow_list(P, a->floats, a->n, &cap, sizeof *a->floats)) ||
                    parse_float(P, &a->floats[a->n]) < 0)
                    return -1;
            }
            a->n++;
            if (at_punct(P, ']'))
                return next(P);
            if (eat_punct(P, ',', "',' or ']' in the list") < 0)
                return -1;
        }
    }
    return expected(P, "an attribute value (int, float, \"string\", [list], or tensor "
                       "f32[2] base64\"...\")");
}

static void apply_attr(GirGraph *g, int node, const GirAttr *a)
{
    switch (a->kind) {
    case GIR_ATTR_INT:
        gir_set_attr_int(g, node, a->name, a->i);
        break;
    case GIR_ATTR_FLOAT:
        gir_set_attr_float(g, node, a->name, a->f);
        break;
    case GIR_ATTR_STRING:
        gir_set_attr_string(g, node, a->name, a->s);
        break;
    case GIR_ATTR_INTS:
        gir_set_attr_ints(g, node, a->name, a->ints, a->n);
        break;
    case GIR_ATTR_FLOATS:
        gir_set_attr_floats(g, node, a->name, a->floats, a->n);
        break;
    case GIR_ATTR_TENSOR:
        gir_set_attr_tensor(g, node, a->name, &a->t);
        break;
    }
}

/* VALUE {',' VALUE}: the names a node statement defines, none twice. */
static int parse_out_names(Parser *P, int line, const char ***names, int *nout)
{
    int i, cap = 0;
    char buf[128];
    for (;;) {
        if (!(*names = grow_list(P, *names, *nout, &cap, sizeof **names)) ||
            new_value_name(P, &(*names)[*nout]) < 0)
            return -1;
        for (i = 0; i < *nout; i++)
            if (strcmp((*names)[i], (*names)[*nout]) == 0)
                return errorf(P, line, "redefinition of %s (first defined at line %d)",
                              value_text((*names)[*nout], buf, sizeof buf), line);
        (*nout)++;
        if (!at_punct(P, ','))
            return 0;
        if (next(P) < 0)
            return -1;
    }
}

/* '(' [IN {',' IN}] ')' with IN a value or '_' (absent, -1), as many as op
 * takes and its required ones present. */
static int parse_inputs(Parser *P, int line, GirOp op, int **in, int *nin)
{
    int i, lo, hi, cap = 0;
    if (eat_punct(P, '(', "'(' and the op's inputs") < 0)
        return -1;
    while (!at_punct(P, ')')) {
        if (*nin > 0 && eat_punct(P, ',', "',' or ')' in the inputs") < 0)
            return -1;
        if (!(*in = grow_list(P, *in, *nin, &cap, sizeof **in)))
            return -1;
        if (at_ident(P, "_")) {
            (*in)[(*nin)++] = -1;
            if (next(P) < 0)
                return -1;
        } else if (use_value(P, &(*in)[(*nin)++]) < 0) {
            return -1;
        }
    }
    if (next(P) < 0)
        return -1;
    lo = gir_op_min_inputs(op);
    hi = gir_op_max_inputs(op);
    if (*nin < lo || *nin > hi) {
        if (lo == hi)
            return errorf(P, line, "expected %d inputs for %s, got %d", lo, gir_op_name(op),
                          *nin);
        return errorf(P, line, "expected %d to %d inputs for %s, got %d", lo, hi,
                      gir_op_name(op), *nin);
    }
    for (i = 0; i < lo; i++)
        if ((*in)[i] == -1)
            return errorf(P, line, "expected a value for required input %d of %s, got _", i,
                          gir_op_name(op));
    return 0;
}

/* ['{' ATTR {',' ATTR} '}'], no name twice. */
static int parse_attrs(Parser *P, int line, GirAttr **attrs, int *nattr)
{
    int i, cap = 0;
    if (!at_punct(P, '{'))
        return 0;
    if (next(P) < 0)
        return -1;
    while (!at_punct(P, '}')) {
        if (*nattr > 0 && eat_punct(P, ',', "',' or '}' in the attributes") < 0)
            return -1;
        if (!(*attrs = grow_list(P, *attrs, *nattr, &cap, sizeof **attrs)) ||
            parse_attr(P, &(*attrs)[*nattr]) < 0)
            return -1;
        for (i = 0; i < *nattr; i++)
            if (strcmp((*attrs)[i].name, (*attrs)[*nattr].name) == 0)
                return errorf(P, line, "attribute '%s' given twice", (*attrs)[i].name);
        (*nattr)++;
    }
    return next(P);
}

/* The outputs of a node statement as they are parsed, before the node exists. */
typedef struct {
    const char **names;  /* value names, nout of them */
    int nout;            /* outputs */
    GirType *types;      /* their types */
    GirLayout *layouts;  /* their layouts */
    Scale *scales;       /* their int8 scales (n 0: none) */
} Outs;

/* ':' TYPE [LAYOUT] [SCALE] {',' TYPE [LAYOUT] [SCALE]}, one per output. */
static int parse_out_types(Parser *P, Outs *o)
{
    int i;
    if (eat_punct(P, ':', "':' and the output types") < 0)
        return -1;
    o->types = gir_arena_alloc(P->tmp, sizeof *o->types * (size_t)o->nout);
    o->layouts = gir_arena_alloc(P->tmp, sizeof *o->layouts * (size_t)o->nout);
    o->scales = gir_arena_alloc(P->tmp, sizeof *o->scales * (size_t)o->nout);
    for (i = 0; i < o->nout; i++) {
        if (i > 0 && eat_punct(P, ',', "',' and the type of the next output") < 0)
            return -1;
        if (parse_type(P, &o->types[i]) < 0 || parse_layout(P, &o->types[i], &o->layouts[i]) < 0 ||
            parse_scale(P, &o->scales[i]) < 0)
            return -1;
    }
    return 0;
}

/* VALUE {',' VALUE} '=' OP '(' [IN {',' IN}] ')' ['{' ATTR {',' ATTR} '}']
 *     ':' TYPE [LAYOUT] {',' TYPE [LAYOUT]} ['@' STRING] [LOC]
 * IN is a value or '_' (absent).  Without '@', the node is named after its
 * first output (node and value names are separate name spaces). */
static int parse_node(Parser *P)
{
    int line = P->tok.line, nin = 0, nattr = 0, i, op, node, *in = NULL, *out;
    const char *node_name;
    GirAttr *attrs = NULL;
    Outs o = {NULL, 0, NULL, NULL, NULL};
    GirLoc loc;
    const Slot *s;
    char buf[128];

    if (parse_out_names(P, line, &o.names, &o.nout) < 0 ||
        eat_punct(P, '=', "'=' and an op") < 0)
        return -1;
    if (P->tok.kind != TK_IDENT)
        return expected(P, "an op name");
    op = gir_op_from_name(P->tok.str);
    if (op < 0)
        return errorf(P, P->tok.line, "unknown op %s",
                      quote_raw(P->tok.start, P->tok.len, buf, sizeof buf));
    if (next(P) < 0 || parse_inputs(P, line, (GirOp)op, &in, &nin) < 0 ||
        parse_attrs(P, line, &attrs, &nattr) < 0 || parse_out_types(P, &o) < 0)
        return -1;
    node_name = o.names[0];
    if (at_punct(P, '@')) {
        if (next(P) < 0)
            return -1;
        if (P->tok.kind != TK_STRING)
            return expected(P, "a node name string after '@'");
        node_name = P->tok.str;
        if (next(P) < 0)
            return -1;
    }
    s = map_find(&P->nodes, node_name);
    if (s)
        return errorf(P, line, "redefinition of node '%s' (first defined at line %d)",
                      node_name, s->line);
    if (parse_loc(P, &loc) < 0 || eat_eol(P) < 0)
        return -1;

    out = gir_arena_alloc(P->tmp, sizeof *out * (size_t)o.nout);
    for (i = 0; i < o.nout; i++) {
        out[i] = gir_add_value(P->g, o.names[i], GIR_VAL_NODE, o.types[i], loc);
        P->g->vals[out[i]].layout = o.layouts[i];
        if (apply_scale(P, line, out[i], &o.scales[i], o.layouts[i]) < 0)
            return -1;
    }
    node = gir_add_node(P->g, (GirOp)op, node_name, in, nin, out, o.nout, loc);
    for (i = 0; i < nattr; i++)
        apply_attr(P->g, node, &attrs[i]);
    for (i = 0; i < o.nout; i++)
        map_put(P, &P->vals, o.names[i], out[i], line);
    map_put(P, &P->nodes, node_name, node, line);
    return 0;
}

static int parse_text(Parser *P)
{
    if (next(P) < 0)
        return -1;
    while (P->tok.kind == TK_EOL)
        if (next(P) < 0)
            return -1;
    if (parse_header(P) < 0)
        return -1;
    for (;;) {
        int rc;
        if (P->tok.kind == TK_EOF)
            return 0;
        if (P->tok.kind == TK_EOL)
            rc = next(P);
        else if (at_ident(P, "input"))
            rc = parse_input(P);
        else if (at_ident(P, "const"))
            rc = parse_const(P);
        else if (at_ident(P, "output"))
            rc = parse_output(P);
        else if (P->tok.kind == TK_VALUE)
            rc = parse_node(P);
        else
            rc = expected(P, "a statement (input, const, output, or %name = Op(...))");
        if (rc < 0)
            return -1;
    }
}

GirGraph *gir_parse(const char *text, size_t len, const char *path, GirError *e)
{
    Parser P;
    int rc;
    memset(&P, 0, sizeof P);
    P.path = path ? path : "<text>";
    P.p = text;
    P.end = text + len;
    P.line = 1;
    P.e = e;
    P.tmp = gir_arena_new();
    rc = parse_text(&P);
    gir_arena_free(P.tmp);
    if (rc < 0) {
        gir_graph_free(P.g);
        return NULL;
    }
    /* The checks above cover what gir_verify checks; this is the backstop
     * that keeps the two from drifting apart silently. */
    if (gir_verify(P.g, e) < 0) {
        gir_graph_free(P.g);
        return NULL;
    }
    return P.g;
}
