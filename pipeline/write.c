/*
 * write.c: rtl_write, the files of DIR/rtl: kiln_top.v and kiln_fork.v
 * (top.c), kiln_ports.h, regmap.h and regmap.json (regmap.c), weights.bin
 * (weights.c) and a copy of each template of rtl-templates/ the top
 * instantiates; then the Vivado package DIR/vivado (package.c);
 * rtl_remove; the plan hash.
 */
#define _POSIX_C_SOURCE 200809L

#include "pipeline/internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Templates rtl_write may copy, in T_* order (internal.h). */
static const char *const tpl_files[T_COUNT] = {
    "kiln_add.v",       "kiln_add3.v",     "kiln_axi_rd.v",   "kiln_axi_wr.v",  "kiln_chan_reps.v",
    "kiln_concat.v",    "kiln_conv.v",     "kiln_conv_window.v", "kiln_dwconv.v",
    "kiln_fifo.v",      "kiln_lut.v",      "kiln_mac2.v",     "kiln_maxpool.v", "kiln_rd_chan.v",
    "kiln_regfile.v",   "kiln_requant.v",  "kiln_rq_stage.v", "kiln_upsample.v",
    "kiln_width.v",     "kiln_wr_chan.v",  "kiln_tsconv.v"};
/* Files rtl_write generates. */
static const char *const gen_files[] = {"kiln_top.v", "kiln_fork.v", "kiln_ports.h",
                                        "regmap.h",   "regmap.json", "weights.bin"};

const char *rtl_template_file(int t)
{
    return tpl_files[t];
}

uint64_t rtl_plan_hash(const HlsPlan *p)
{
    char *json = hls_plan_json(p);
    const unsigned char *c;
    uint64_t h = 0xcbf29ce484222325ull;
    for (c = (const unsigned char *)json; *c; c++)
        h = (h ^ *c) * 0x100000001b3ull;
    free(json);
    return h;
}

int rtl_write_text(const char *dir, const char *name, const char *text, size_t len, GirError *e)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f)
        return gir_error_at(e, gir_loc_none(), "rtl: cannot write %s: %s", path, strerror(errno));
    if (fwrite(text, 1, len, f) != len) {
        fclose(f);
        return gir_error_at(e, gir_loc_none(), "rtl: cannot write %s", path);
    }
    if (fclose(f) != 0)
        return gir_error_at(e, gir_loc_none(), "rtl: cannot write %s: %s", path, strerror(errno));
    return 0;
}

static int copy_template(const char *dir, const char *name, GirError *e)
{
    char path[4096];
    size_t n;
    char *buf;
    int rc;
    snprintf(path, sizeof path, "%s/%s", KILN_RTL_TEMPLATES_DIR, name);
    buf = gir_read_file(path, &n);
    if (!buf)
        return gir_error_at(e, gir_loc_none(), "rtl: cannot read template %s: %s", path,
                            strerror(errno));
    rc = rtl_write_text(dir, name, buf, n, e);
    free(buf);
    return rc;
}

/* Run an emitter into a string and write it as dir/name. */
int rtl_write_emitted(const char *dir, const char *name, void (*fn)(Gen *, FILE *), Gen *G,
                      GirError *e)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int rc;
    if (!f)
        gir_die("out of memory");
    fn(G, f);
    fclose(f);
    rc = rtl_write_text(dir, name, buf, len, e);
    free(buf);
    return rc;
}

/* weights.bin: the weight image (rtl_weight_image). */
static int write_weights(const Gen *G, const char *dir, GirError *e)
{
    uint8_t *img;
    int rc;
    if (rtl_weight_image(G, &img, e) < 0)
        return -1;
    rc = rtl_write_text(dir, "weights.bin", (const char *)img, (size_t)G->c.wbytes, e);
    free(img);
    return rc;
}

/* Does channel c have a DDR buffer of its own (not a weight set, not an
 * input reading a writer's buffer inside its segment)? */
static int own_buffer(const HlsChan *c)
{
    return c->kind != HLS_CH_W && !(c->kind == HLS_CH_IN && c->src >= 0);
}

/* The frame buffers of the design's DDR: every buffer a writer fills and
 * every input the host fills, a value read or written by several channels
 * once. */
int64_t rtl_ddr_frames(const Gen *G)
{
    int i, j, dup;
    int64_t frames = 0;
    for (i = 0; i < G->c.nch; i++) {
        if (!own_buffer(&G->c.ch[i]))
            continue;
        for (dup = 0, j = 0; j < i && !dup; j++)
            dup = own_buffer(&G->c.ch[j]) && G->value[j] && G->value[i] &&
                  strcmp(G->value[j], G->value[i]) == 0;
        if (!dup)
            frames += G->c.ch[i].frame;
    }
    return frames;
}

/* The design's DDR buffers for one frame must fit the board's DDR: the
 * weight image and the frame buffers (rtl_ddr_frames).  0, or -1 + e naming
 * both sizes. */
static int check_ddr_size(const Gen *G, GirError *e)
{
    int64_t frames = rtl_ddr_frames(G);
    if (G->c.wbytes + frames <= G->p->board.ddr_bytes)
        return 0;
    return gir_error_at(e, gir_loc_none(),
                        "rtl: the design's DDR buffers take %" PRId64 " bytes (weights %" PRId64
                        ", frame buffers %" PRId64 "), more than the %" PRId64 " bytes of DDR of %s",
                        G->c.wbytes + frames, G->c.wbytes, frames, G->p->board.ddr_bytes,
                        G->p->board.name);
}

int rtl_write(const HlsPlan *p, const GirGraph *g, const char *dir, GirError *e)
{
    char rdir[4096];
    Gen G;
    int i, rc = 0;
    if (rtl_check(p, g, e) < 0)
        return -1;
    memset(&G, 0, sizeof G);
    rtl_gen_init(&G, p, g);
    G.quant = rtl_graph_quantized(p, g, e);
    if (G.c.ts >= 0) { /* the shared engine's maps are found through the graph */
        RtlTsMaps m;
        int bad = !g || !G.quant || rtl_ts_maps(&G, &m, e) < 0;
        if (g && G.quant)
            rtl_ts_maps_free(&m);
        if (bad) {
            if (!e || !e->msg[0] || !g || !G.quant)
                gir_error_at(e, gir_loc_none(), "rtl: the folded layers of '%s' need an int8 "
                             "graph (kiln_tsconv's descriptors and weights)", p->model);
            rtl_gen_free(&G);
            return -1;
        }
    }
    if (check_ddr_size(&G, e) < 0) {
        rtl_gen_free(&G);
        return -1;
    }
    snprintf(rdir, sizeof rdir, "%s/rtl", dir);
    if (mkdir(rdir, 0777) != 0 && errno != EEXIST)
        rc = gir_error_at(e, gir_loc_none(), "rtl: cannot create %s: %s", rdir, strerror(errno));
    if (rc == 0)
        rc = rtl_write_emitted(rdir, "kiln_top.v", rtl_emit_top, &G, e);
    if (rc == 0)
        rc = rtl_write_emitted(rdir, "kiln_fork.v", rtl_emit_fork, &G, e);
    if (rc == 0)
        rc = rtl_write_emitted(rdir, "kiln_ports.h", rtl_emit_ports_h, &G, e);
    if (rc == 0)
        rc = rtl_write_emitted(rdir, "regmap.h", rtl_emit_regmap_h, &G, e);
    if (rc == 0)
        rc = rtl_write_emitted(rdir, "regmap.json", rtl_emit_regmap_json, &G, e);
    if (rc == 0 && G.quant && G.c.wbytes > 0)
        rc = write_weights(&G, rdir, e);
    for (i = 0; rc == 0 && i < T_COUNT; i++)
        if (G.need & (1u << i))
            rc = copy_template(rdir, tpl_files[i], e);
    if (rc == 0)
        rc = rtl_package_write(&G, dir, e);
    rtl_gen_free(&G);
    return rc;
}

void rtl_unlink_all(const char *folder, const char *const *names, size_t n)
{
    char path[4096];
    size_t i;
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", folder, names[i]);
        unlink(path);
    }
}

void rtl_remove(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/rtl", dir);
    rtl_unlink_all(path, gen_files, sizeof gen_files / sizeof gen_files[0]);
    rtl_unlink_all(path, tpl_files, T_COUNT);
    rmdir(path);
    rtl_package_remove(dir);
}
