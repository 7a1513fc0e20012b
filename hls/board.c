/*
 * Board files: libxml2 reads boards/zynq-ultrascale/NAME.xml with line
 * numbers, validates it against board.xsd, and the values are copied into an
 * HlsBoard.  The schema does the checking of structure and types; this file
 * only adds the checks a schema cannot say (sane magnitudes).
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlschemas.h>

#include "hls/board.h"

#ifndef KILN_BOARDS_DIR
#error "KILN_BOARDS_DIR must name the folder of the board files"
#endif

const char *hls_board_dir(void)
{
    const char *env = getenv("KILN_BOARDS_DIR");
    return env && env[0] ? env : KILN_BOARDS_DIR;
}

/* Collects the first libxml2 diagnostic as "file:line: message". */
typedef struct {
    GirError *e;   /* where the first error goes */
    int have;      /* an error was recorded */
    const char *path; /* file being read */
} XmlDiag;

static void diag_structured(void *ctx, const xmlError *err)
{
    XmlDiag *d = ctx;
    char msg[512];
    size_t n;
    GirLoc loc;
    if (d->have || !err || err->level < XML_ERR_ERROR)
        return;
    snprintf(msg, sizeof msg, "%s", err->message ? err->message : "XML error");
    n = strlen(msg);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' '))
        msg[--n] = '\0';
    loc = gir_loc_file(d->path, -1);
    loc.line = err->line > 0 ? err->line : 0;
    gir_error_at(d->e, loc, "%s", msg);
    d->have = 1;
}

/* libxml2 2.9 passes a non-const xmlError. */
static void diag_structured_cb(void *ctx, xmlErrorPtr err)
{
    diag_structured(ctx, err);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static xmlNode *child(xmlNode *parent, const char *name)
{
    xmlNode *c;
    for (c = parent->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
            return c;
    return NULL;
}

/* Copy attribute name of node into buf (schema-validated, so present). */
static void attr_str(xmlNode *node, const char *name, char *buf, size_t size)
{
    xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
    snprintf(buf, size, "%s", v ? (const char *)v : "");
    xmlFree(v);
}

static double attr_num(xmlNode *node, const char *name)
{
    char buf[64];
    attr_str(node, name, buf, sizeof buf);
    return strtod(buf, NULL);
}

static int64_t attr_int(xmlNode *node, const char *name)
{
    char buf[64];
    attr_str(node, name, buf, sizeof buf);
    return strtoll(buf, NULL, 10);
}

static int validate(xmlDoc *doc, XmlDiag *d)
{
    char xsd[1024];
    xmlSchemaParserCtxt *pc;
    xmlSchema *schema;
    xmlSchemaValidCtxt *vc;
    int rc;
    snprintf(xsd, sizeof xsd, "%s/board.xsd", hls_board_dir());
    pc = xmlSchemaNewParserCtxt(xsd);
    if (!pc)
        gir_die("cannot read the board schema %s", xsd);
    schema = xmlSchemaParse(pc);
    xmlSchemaFreeParserCtxt(pc);
    if (!schema)
        gir_die("the board schema %s does not parse", xsd);
    vc = xmlSchemaNewValidCtxt(schema);
    xmlSchemaSetValidStructuredErrors(vc, diag_structured_cb, d);
    rc = xmlSchemaValidateDoc(vc, doc);
    xmlSchemaFreeValidCtxt(vc);
    xmlSchemaFree(schema);
    if (rc != 0 && !d->have)
        gir_error_at(d->e, gir_loc_file(d->path, -1), "does not match board.xsd");
    return rc == 0 ? 0 : -1;
}

/* Reads an integer attribute into *out and checks lo <= value <= hi; the
 * schema says it is an integer, this adds the magnitudes the planner's
 * arithmetic needs (a 10^18 DSP count would overflow its products). */
static int attr_range(xmlNode *node, const char *name, int64_t lo, int64_t hi, int64_t *out,
                      GirLoc loc, GirError *e)
{
    *out = attr_int(node, name);
    if (*out < lo || *out > hi) {
        loc.line = (int)xmlGetLineNo(node);
        return gir_error_at(e, loc, "%s: %s %lld out of range %lld..%lld", (const char *)node->name,
                            name, (long long)*out, (long long)lo, (long long)hi);
    }
    return 0;
}

/* The board in doc (well-formed) into b: schema, then magnitudes.  0 or -1 + e. */
static int board_from_doc(xmlDoc *doc, XmlDiag *d, HlsBoard *b, GirError *e)
{
    xmlNode *root, *n, *p;
    GirLoc loc = gir_loc_file(b->path, -1);
    int64_t v;

    if (validate(doc, d) < 0)
        return -1;
    root = xmlDocGetRootElement(doc);
    attr_str(root, "name", b->name, sizeof b->name);
    n = child(root, "description");
    if (n) {
        xmlChar *t = xmlNodeGetContent(n);
        snprintf(b->description, sizeof b->description, "%s", t ? (const char *)t : "");
        xmlFree(t);
    }
    n = child(root, "part");
    attr_str(n, "name", b->part, sizeof b->part);
    attr_str(n, "speed-grade", b->speed_grade, sizeof b->speed_grade);
    attr_str(n, "board-part", b->board_part, sizeof b->board_part);
    n = child(root, "resources");
    /* ten times the largest UltraScale+ device of each kind */
    if (attr_range(n, "dsp48e2", 1, 120000, &b->dsp, loc, e) < 0 ||
        attr_range(n, "bram36", 1, 50000, &b->bram36, loc, e) < 0 ||
        attr_range(n, "uram", 0, 10000, &b->uram, loc, e) < 0 ||
        attr_range(n, "lut", 1, 50000000, &b->lut, loc, e) < 0 ||
        attr_range(n, "ff", 1, 100000000, &b->ff, loc, e) < 0)
        return -1;
    n = child(root, "clocks");
    b->default_mhz = attr_num(n, "default-mhz");
    b->max_mhz = attr_num(n, "max-mhz");
    loc.line = (int)xmlGetLineNo(n);
    if (b->default_mhz > b->max_mhz || b->max_mhz > 1000)
        return gir_error_at(e, loc, "clocks: default-mhz %.1f must not exceed max-mhz %.1f (at most 1000)",
                            b->default_mhz, b->max_mhz);
    if (b->default_mhz < 1)
        return gir_error_at(e, loc, "clocks: default-mhz %g below 1 MHz", b->default_mhz);
    b->dsp_max_mhz = attr_num(n, "dsp-max-mhz");
    attr_str(n, "dsp-max-source", b->dsp_max_source, sizeof b->dsp_max_source);
    if (b->dsp_max_mhz > 2000)
        return gir_error_at(e, loc, "clocks: dsp-max-mhz %g above 2000", b->dsp_max_mhz);
    n = child(root, "ddr");
    attr_str(n, "type", b->ddr_type, sizeof b->ddr_type);
    if (attr_range(n, "bytes", 1 << 20, (int64_t)1 << 48, &b->ddr_bytes, loc, e) < 0)
        return -1;
    b->ddr_gbps = attr_num(n, "pl-gbps");
    if (b->ddr_gbps < 0.01 || b->ddr_gbps > 10000) {
        loc.line = (int)xmlGetLineNo(n);
        return gir_error_at(e, loc, "ddr: pl-gbps %g out of range 0.01..10000", b->ddr_gbps);
    }
    n = child(root, "axi");
    for (p = n->children; p; p = p->next) {
        if (p->type != XML_ELEMENT_NODE)
            continue;
        if (b->nports == HLS_MAX_AXI_PORTS) {
            loc.line = (int)xmlGetLineNo(p);
            return gir_error_at(e, loc, "more than %d AXI ports", HLS_MAX_AXI_PORTS);
        }
        attr_str(p, "name", b->ports[b->nports].name, sizeof b->ports[0].name);
        attr_str(p, "kind", b->ports[b->nports].kind, sizeof b->ports[0].kind);
        if (attr_range(p, "width-bits", 32, 1024, &v, loc, e) < 0)
            return -1;
        b->ports[b->nports].width = (int)v;
        b->nports++;
    }
    return 0;
}

/* Parses text (size bytes, or from the file path when text is NULL). */
static int board_read(const char *text, size_t size, const char *path, HlsBoard *b, GirError *e)
{
    xmlParserCtxt *ctx;
    xmlDoc *doc;
    XmlDiag d = {e, 0, NULL};
    int rc;

    memset(b, 0, sizeof *b);
    snprintf(b->path, sizeof b->path, "%s", path);
    d.path = b->path;
    if (text && size > (size_t)1 << 24)
        return gir_error_at(e, gir_loc_file(path, -1), "board file larger than 16 MiB");
    ctx = xmlNewParserCtxt();
    if (!ctx)
        gir_die("out of memory");
    xmlSetStructuredErrorFunc(&d, diag_structured_cb);
    doc = text ? xmlCtxtReadMemory(ctx, text, (int)size, path, NULL, XML_PARSE_NONET) :
                 xmlCtxtReadFile(ctx, path, NULL, XML_PARSE_NONET);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlFreeParserCtxt(ctx);
    if (!doc) {
        if (!d.have)
            gir_error_at(e, gir_loc_file(path, -1), "not a well-formed XML file");
        return -1;
    }
    rc = board_from_doc(doc, &d, b, e);
    xmlFreeDoc(doc);
    return rc;
}

int hls_board_parse(const char *text, size_t size, const char *path, HlsBoard *b, GirError *e)
{
    return board_read(text, size, path, b, e);
}

int hls_board_load(const char *name_or_path, HlsBoard *b, GirError *e)
{
    char path[1024];

    memset(b, 0, sizeof *b);
    if (strchr(name_or_path, '/') || strstr(name_or_path, ".xml"))
        snprintf(path, sizeof path, "%s", name_or_path);
    else
        snprintf(path, sizeof path, "%s/%s.xml", hls_board_dir(), name_or_path);
    if (!is_file(path)) {
        if (!strchr(name_or_path, '/') && !strstr(name_or_path, ".xml"))
            return gir_error_at(e, gir_loc_none(),
                                "unknown board '%s' (kiln boards lists them; a board file "
                                "path works too)", name_or_path);
        return gir_error_at(e, gir_loc_file(path, -1), "cannot open board file");
    }
    return board_read(NULL, 0, path, b, e);
}

char **hls_board_names(int *count)
{
    DIR *dir = opendir(hls_board_dir());
    struct dirent *de;
    char **names = NULL;
    int n = 0;
    *count = 0;
    if (!dir)
        return NULL;
    while ((de = readdir(dir)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 5 || strcmp(de->d_name + len - 4, ".xml") != 0)
            continue;
        names = realloc(names, sizeof *names * (size_t)(n + 1));
        if (!names)
            gir_die("out of memory");
        names[n] = strdup(de->d_name);
        if (!names[n])
            gir_die("out of memory");
        names[n][len - 4] = '\0';
        n++;
    }
    closedir(dir);
    qsort(names, (size_t)n, sizeof *names, gir_cmp_str);
    *count = n;
    return names;
}
