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

int hls_board_load(const char *name_or_path, HlsBoard *b, GirError *e)
{
    char path[1024];
    xmlParserCtxt *ctx;
    xmlDoc *doc;
    xmlNode *root, *n, *p;
    XmlDiag d = {e, 0, NULL};
    GirLoc loc;

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
    snprintf(b->path, sizeof b->path, "%s", path);
    d.path = b->path;

    ctx = xmlNewParserCtxt();
    if (!ctx)
        gir_die("out of memory");
    xmlSetStructuredErrorFunc(&d, diag_structured_cb);
    doc = xmlCtxtReadFile(ctx, path, NULL, XML_PARSE_NONET);
    xmlSetStructuredErrorFunc(NULL, NULL);
    xmlFreeParserCtxt(ctx);
    if (!doc) {
        if (!d.have)
            gir_error_at(e, gir_loc_file(path, -1), "not a well-formed XML file");
        return -1;
    }
    if (validate(doc, &d) < 0) {
        xmlFreeDoc(doc);
        return -1;
    }

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
    n = child(root, "resources");
    b->dsp = attr_int(n, "dsp48e2");
    b->bram36 = attr_int(n, "bram36");
    b->uram = attr_int(n, "uram");
    b->lut = attr_int(n, "lut");
    b->ff = attr_int(n, "ff");
    n = child(root, "clocks");
    b->default_mhz = attr_num(n, "default-mhz");
    b->max_mhz = attr_num(n, "max-mhz");
    loc = gir_loc_file(path, -1);
    loc.line = (int)xmlGetLineNo(n);
    if (b->default_mhz > b->max_mhz || b->max_mhz > 1000) {
        xmlFreeDoc(doc);
        return gir_error_at(e, loc, "clocks: default-mhz %.1f must not exceed max-mhz %.1f (at most 1000)",
                            b->default_mhz, b->max_mhz);
    }
    n = child(root, "ddr");
    attr_str(n, "type", b->ddr_type, sizeof b->ddr_type);
    b->ddr_bytes = attr_int(n, "bytes");
    b->ddr_gbps = attr_num(n, "pl-gbps");
    n = child(root, "axi");
    for (p = n->children; p; p = p->next) {
        if (p->type != XML_ELEMENT_NODE)
            continue;
        if (b->nports == HLS_MAX_AXI_PORTS) {
            loc.line = (int)xmlGetLineNo(p);
            xmlFreeDoc(doc);
            return gir_error_at(e, loc, "more than %d AXI ports", HLS_MAX_AXI_PORTS);
        }
        attr_str(p, "name", b->ports[b->nports].name, sizeof b->ports[0].name);
        attr_str(p, "kind", b->ports[b->nports].kind, sizeof b->ports[0].kind);
        b->ports[b->nports].width = (int)attr_int(p, "width-bits");
        b->nports++;
    }
    xmlFreeDoc(doc);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
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
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    *count = n;
    return names;
}
