/* Stream-engine test driver: see tb_stream.h. */
#include "tb_stream.h"

#include <stdlib.h>
#include <string.h>

#include "hls/hls.h"

int tbs_run(const TbsDut *d, const int64_t *rt, TbsFrame *f, int bp_pct, uint64_t seed,
            long *cycles, TbCheck *chk)
{
    TbsPins p;
    TbBp vin[TBS_MAX_IN], rout[TBS_MAX_OUT];
    TbRng junk;
    long sent[TBS_MAX_IN] = {0}, got[TBS_MAX_OUT] = {0};
    long total = 0, cyc, first = -1, last = -1, done_at = -1, limit;
    int i, o, bad = 0;

    memset(&p, 0, sizeof p);
    tb_rng_seed(&junk, seed ^ 0x5bd1e995u);
    for (i = 0; i < d->n_in; i++) {
        tb_bp_init(&vin[i], seed * 7 + (uint64_t)i + 1, bp_pct);
        total += f->in_beats[i];
    }
    for (o = 0; o < d->n_out; o++) {
        tb_bp_init(&rout[o], seed * 13 + (uint64_t)o + 101, bp_pct);
        total += f->out_beats[o];
    }
    limit = 64 * total + 2000;
    if (bp_pct < 100)
        limit = limit * 100 / bp_pct * 100 / bp_pct;

    d->cfg(d->h, rt);
    p.rst = 1;
    for (cyc = 0; cyc < 3; cyc++)
        d->tick(d->h, &p);
    p.rst = 0;

    for (cyc = 0; cyc < limit; cyc++) {
        int all = 1;
        for (i = 0; i < d->n_in; i++) {
            int v = sent[i] < f->in_beats[i] && tb_bp_next(&vin[i]);
            p.in_valid[i] = v;
            if (v)
                memcpy(p.in_data[i], f->in[i] + sent[i] * d->in_bytes[i],
                       (size_t)d->in_bytes[i]);
            else
                for (int b = 0; b < d->in_bytes[i]; b++)
                    p.in_data[i][b] = (uint8_t)tb_rand64(&junk);
        }
        for (o = 0; o < d->n_out; o++)
            p.out_ready[o] = tb_bp_next(&rout[o]);
        d->tick(d->h, &p);
        for (i = 0; i < d->n_in; i++)
            if (p.in_valid[i] && p.in_ready[i]) {
                if (first < 0)
                    first = cyc;
                sent[i]++;
            }
        for (o = 0; o < d->n_out; o++)
            if (p.out_valid[o] && p.out_ready[o]) {
                if (got[o] < f->out_beats[o]) {
                    memcpy(f->out[o] + got[o] * d->out_bytes[o], p.out_data[o],
                           (size_t)d->out_bytes[o]);
                    last = cyc;
                } else if (!bad) {
                    tb_check_fail(chk, "output %d: extra beat after %ld", o, f->out_beats[o]);
                    bad = 1;
                }
                got[o]++;
            }
        for (i = 0; i < d->n_in; i++)
            all &= sent[i] == f->in_beats[i];
        for (o = 0; o < d->n_out; o++)
            all &= got[o] >= f->out_beats[o];
        if (all && done_at < 0)
            done_at = cyc;
        /* keep running a while with ready high to catch extra beats */
        if (done_at >= 0 && cyc > done_at + 40)
            break;
    }
    if (done_at < 0) {
        for (i = 0; i < d->n_in; i++)
            if (sent[i] != f->in_beats[i])
                tb_check_fail(chk, "input %d: %ld of %ld beats taken", i, sent[i],
                              f->in_beats[i]);
        for (o = 0; o < d->n_out; o++)
            if (got[o] != f->out_beats[o])
                tb_check_fail(chk, "output %d: %ld of %ld beats", o, got[o], f->out_beats[o]);
        bad = 1;
    }
    *cycles = (first >= 0 && last >= 0) ? last - first + 1 : -1;
    return bad ? -1 : 0;
}

void tbs_check_bytes(TbCheck *c, const char *what, const uint8_t *got, const uint8_t *want,
                     long n)
{
    long k;
    for (k = 0; k < n; k++)
        if (got[k] != want[k])
            tb_check_int(c, what, k, (int8_t)got[k], (int8_t)want[k]);
}

void tbs_check_cycles(TbCheck *c, const char *name, const int64_t *hw, const int64_t *rt,
                      long measured)
{
    const HlsEngineDesc *d = hls_engine_find(name);
    int64_t want;
    if (!d) {
        tb_check_fail(c, "no descriptor for %s", name);
        return;
    }
    want = d->cycles(hw, rt);
    if (want != measured)
        tb_check_fail(c, "%s cycles: measured %ld, descriptor %lld (%+lld)", name, measured,
                      (long long)want, (long long)(measured - want));
}

void tbs_pack(const int8_t *t, long pixels, int c, int lanes, uint8_t *beats)
{
    int cg = (c + lanes - 1) / lanes;
    long p;
    int ch;
    memset(beats, 0, (size_t)(pixels * cg * lanes));
    for (p = 0; p < pixels; p++)
        for (ch = 0; ch < c; ch++)
            beats[p * cg * lanes + ch] = (uint8_t)t[p * c + ch];
}

const char *tbs_vec_path;

static void vec_word(FILE *fp, const uint8_t *b, int n)
{
    int k;
    for (k = n - 1; k >= 0; k--)
        fprintf(fp, "%02x", b[k]);
    fprintf(fp, "\n");
}

void tbs_write_vec(const char *path, const TbsDut *d, const int64_t *rt, int nrt,
                   const TbsFrame *f, const uint8_t *want)
{
    FILE *fp = fopen(path, "w");
    uint8_t w[8];
    int i, k, nb = d->in_bytes[0];
    long b;
    if (!fp)
        return;
    for (i = 0; i < 15; i++) {
        uint64_t v = i < nrt && i < 12 ? (uint64_t)rt[i]
                   : i == 12 ? (uint64_t)f->in_beats[0]
                   : i == 13 ? (d->n_in > 1 ? (uint64_t)f->in_beats[1] : 0)
                   : i == 14 ? (uint64_t)f->out_beats[0] : 0;
        for (k = 0; k < 8; k++)
            w[k] = (uint8_t)(v >> (8 * k));
        vec_word(fp, w, 8);
    }
    memset(w, 0, sizeof w);
    vec_word(fp, w, 8); /* word 15: reserved */
    for (i = 0; i < d->n_in; i++)
        for (b = 0; b < f->in_beats[i]; b++)
            vec_word(fp, f->in[i] + b * nb, nb);
    for (b = 0; b < f->out_beats[0]; b++)
        vec_word(fp, want + b * d->out_bytes[0], d->out_bytes[0]);
    fclose(fp);
}

void tbs_case(TbCheck *chk, const TbsDut *d, const char *engine, const int64_t *hw,
              const int64_t *rt, TbsFrame *f, uint8_t *const *want, uint64_t seed,
              const char *desc)
{
    int bp, o, nrt = 0;
    char line[256];
    const HlsEngineDesc *ed = hls_engine_find(engine);
    if (tbs_vec_path) {
        while (ed && ed->rt_params[nrt])
            nrt++;
        tbs_write_vec(tbs_vec_path, d, rt, nrt, f, want[0]);
        tbs_vec_path = NULL;
    }
    for (bp = 0; bp < 2; bp++) {
        long cyc = -1;
        for (o = 0; o < d->n_out; o++)
            memset(f->out[o], 0, (size_t)(f->out_beats[o] * d->out_bytes[o]));
        if (tbs_run(d, rt, f, bp ? 55 : 100, seed * 2 + (uint64_t)bp, &cyc, chk) == 0) {
            for (o = 0; o < d->n_out; o++)
                tbs_check_bytes(chk, "out", f->out[o], want[o],
                                f->out_beats[o] * d->out_bytes[o]);
            if (!bp)
                tbs_check_cycles(chk, engine, hw, rt, cyc);
        }
        snprintf(line, sizeof line, "%s %s cycles %ld", desc, bp ? "bp" : "free", cyc);
        tb_case_end(chk, line);
    }
}
