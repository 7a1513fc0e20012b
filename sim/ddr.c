/*
 * The DDR side of a segment's job: the image of a tensor in the layout of
 * the contract (raster order, per pixel ceil(C/L) beats of L int8 lanes,
 * channels innermost, unused lanes 0, zero padded to frame_bytes), and the
 * placement of the segment's buffers: the weight image at one base, one
 * buffer of every frame per tensor channel, each 4 KiB aligned with a gap,
 * all above 4 GiB (SIM_DDR_BASE) so the _BASE_HI registers matter.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/internal.h"

/* The next free address after a buffer of size bytes at a. */
static uint64_t after(uint64_t a, uint64_t size)
{
    return a + (size + 4095) / 4096 * 4096 + 4096;
}

int sim_ddr_image(const Sim *s, const SimChan *c, const GirValue *val, const GirTensor *t,
                  uint8_t *out, GirError *e)
{
    const int64_t *d = t->type.dims;
    int nhwc = val->layout == GIR_LAYOUT_NHWC, cg = (c->c + c->lanes - 1) / c->lanes;
    int64_t H = nhwc ? d[1] : d[2], W = nhwc ? d[2] : d[3], C = nhwc ? d[3] : d[1];
    int64_t y, x, ch;
    char ty[128];
    if (t->type.dtype != GIR_DT_I8 || t->type.rank != 4 || d[0] != 1 || H != c->h || W != c->w ||
        C != c->c)
        return sim_error(e, SIM_BAD_INPUT, "%s: channel %s: value '%s' is %s, not i8 %dx%dx%d "
                         "(HxWxC)", s->rpath, c->name, c->value,
                         gir_type_str(&t->type, ty, sizeof ty), c->h, c->w, c->c);
    memset(out, 0, (size_t)c->frame_bytes);
    for (y = 0; y < H; y++)
        for (x = 0; x < W; x++)
            for (ch = 0; ch < C; ch++) {
                int64_t src = nhwc ? (y * W + x) * C + ch : (ch * H + y) * W + x;
                out[(y * W + x) * cg * c->lanes + ch] = (uint8_t)((const int8_t *)t->data)[src];
            }
    return SIM_OK;
}

int sim_ddr_weights(const Sim *s, int sg, SimDdr *d, FILE *job, GirError *e)
{
    const char *wpath;
    struct stat st;
    int i, have_w = 0;
    for (i = 0; i < s->map->nchan; i++)
        if (s->map->chan[i].segment == sg && s->map->chan[i].weight)
            have_w = 1;
    if (!have_w)
        return SIM_OK;
    wpath = gir_arena_printf(s->run, "%s/rtl/weights.bin", s->dir);
    if (stat(wpath, &st) != 0)
        return sim_error(e, SIM_BAD_INPUT, "%s: cannot read: %s (segment %d has weight channels)",
                         wpath, strerror(errno), sg);
    d->wlen = (size_t)st.st_size;
    d->wbase = d->next;
    fprintf(job, "region 0x%" PRIx64 " %zu\nload 0x%" PRIx64 " %s\n", d->wbase, d->wlen, d->wbase,
            wpath);
    d->next = after(d->next, d->wlen);
    return SIM_OK;
}

/* Every frame's image of input channel c, back to back, into path. */
static int write_input(const Sim *s, const SimChan *c, const char *path, GirError *e)
{
    uint8_t *img = malloc((size_t)c->frame_bytes);
    int vid = gir_find_value(s->ref.g, c->value), f, rc = SIM_OK;
    FILE *b;
    if (!img)
        gir_die("out of memory");
    b = fopen(path, "wb");
    for (f = 0; f < s->o->frames && rc == SIM_OK; f++) {
        const GirTensor *t = sim_ref_value(&s->ref, f, c->value);
        if (!t || vid < 0)
            rc = sim_error(e, SIM_BAD_INPUT, "%s: channel %s: value '%s' is not a value of "
                           "model.gir", s->rpath, c->name, c->value);
        else if ((rc = sim_ddr_image(s, c, &s->ref.g->vals[vid], t, img, e)) == SIM_OK &&
                 (!b || fwrite(img, 1, (size_t)c->frame_bytes, b) != (size_t)c->frame_bytes))
            rc = sim_error(e, SIM_BAD_INPUT, "%s: cannot write", path);
    }
    free(img);
    if (b && fclose(b) != 0 && rc == SIM_OK)
        rc = sim_error(e, SIM_BAD_INPUT, "%s: cannot write", path);
    return rc;
}

int sim_ddr_buffers(Sim *s, int sg, SimDdr *d, const char *sd, FILE *job, GirError *e)
{
    SimMap *m = s->map;
    int i, rc;
    for (i = 0; i < m->nchan; i++) {
        SimChan *c = &m->chan[i];
        if (c->segment != sg || c->source >= 0)
            continue; /* a reader of a writer's buffer: given below */
        if (c->weight) {
            if ((uint64_t)(c->offset + c->bytes) > d->wlen)
                return sim_error(e, SIM_BAD_INPUT, "%s: channel %s: bytes %" PRId64 "..%" PRId64
                                 " past the end of weights.bin (%zu bytes)", s->rpath, c->name,
                                 c->offset, c->offset + c->bytes, d->wlen);
            c->addr = d->wbase + (uint64_t)c->offset;
        } else {
            uint64_t size = (uint64_t)c->frame_bytes * (uint64_t)s->o->frames;
            c->addr = d->next;
            fprintf(job, "region 0x%" PRIx64 " %" PRIu64 "\n", d->next, size);
            d->next = after(d->next, size);
            if (c->rd) { /* every frame's tensor, back to back */
                const char *path = gir_arena_printf(s->run, "%s/%s.bin", sd, c->name);
                if ((rc = write_input(s, c, path, e)))
                    return rc;
                fprintf(job, "load 0x%" PRIx64 " %s\n", c->addr, path);
            }
        }
        fprintf(job, "write 0x%x 0x%" PRIx32 "\nwrite 0x%x 0x%" PRIx32 "\n", c->base_lo,
                (uint32_t)c->addr, c->base_hi, (uint32_t)(c->addr >> 32));
    }
    for (i = 0; i < m->nchan; i++) /* its base registers are the writer's */
        if (m->chan[i].segment == sg && m->chan[i].source >= 0)
            m->chan[i].addr = m->chan[m->chan[i].source].addr;
    return SIM_OK;
}

void sim_ddr_poison(const Sim *s, int sg, FILE *job)
{
    int i;
    for (i = 0; i < s->map->nchan; i++)
        if (s->map->chan[i].segment == sg && !s->map->chan[i].rd)
            fprintf(job, "fill 0x%" PRIx64 " %" PRId64 " 0x5a\n", s->map->chan[i].addr,
                    s->map->chan[i].frame_bytes * s->o->frames);
}
