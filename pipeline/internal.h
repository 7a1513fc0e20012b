/* Folder-private declarations shared by the generator's files (pipeline/).
 * Not part of the pipeline/pipeline.h API. */
#ifndef KILN_PIPELINE_INTERNAL_H
#define KILN_PIPELINE_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "graphir/graphir.h"
#include "hls/chan.h"
#include "hls/plan.h"
#include "pipeline/pipeline.h"

#define RTL_MAX_SINKS 64 /* consumers of one stage's output */

/* Templates rtl_write may copy, in the order they are written (names in
 * write.c). */
enum { T_ADD, T_AXI_RD, T_AXI_WR, T_CHAN_REPS, T_CONCAT, T_CONV, T_CONV_WINDOW, T_DWCONV,
       T_FIFO, T_MAC2, T_MAXPOOL, T_RD_CHAN, T_REGFILE, T_REQUANT, T_RQ_STAGE, T_UPSAMPLE,
       T_WIDTH, T_WR_CHAN, T_COUNT };

/* Everything the emitters need about the design. */
typedef struct {
    const HlsPlan *p;    /* the plan */
    const GirGraph *g;   /* its graph (names, weights, requant attributes); may be NULL */
    HlsChans c;          /* the DMA channels (hls_plan_channels) */
    const char **value;  /* per channel: the graph value it moves (in, out), or NULL */
    int quant;           /* 1: the weight image can be written (int8 graph) */
    unsigned need;       /* bit t: template t is used (set by rtl_emit_top) */
    uint64_t hash;       /* plan hash */
} Gen;

/* One run-time configuration input of an engine. */
typedef struct {
    const char *port; /* cfg_* port name */
    int bits;         /* port width */
    int64_t value;    /* the constant */
} Cfg;

/* chan.c: the channel list of p with the graph values the channels move,
 * and the plan hash (free with rtl_gen_free). */
void rtl_gen_init(Gen *G, const HlsPlan *p, const GirGraph *g);
void rtl_gen_free(Gen *G);

/* stage.c: what the generator reads off a stage and its node. */
/* The cfg_* ports of stage s (returns the count, at most 16). */
int rtl_stage_cfg(const GirGraph *g, const HlsStage *s, Cfg *c);
/* Ints attribute name of stage s's node with at least one entry, else NULL. */
const int64_t *rtl_node_ints(const GirGraph *g, const HlsStage *s, const char *name);
/* The source location of stage s's node (none without a graph). */
GirLoc rtl_stage_loc(const GirGraph *g, const HlsStage *s);
/* The Verilog module of stage s. */
const char *rtl_stage_module(const HlsStage *s);
/* The plan's FIFO on the edge from -> to, or NULL. */
const HlsFifo *rtl_edge_fifo(const HlsPlan *p, int from, int to);
/* A name safe inside a Verilog or C comment and a JSON string. */
void rtl_safe_name(const char *in, char *out, size_t size);
/* The localparam spelling of a cfg port name (upper case). */
void rtl_upper(const char *in, char *out, size_t size);

/* weights.c: the weight image.  Is the planned graph int8 (every weight
 * stage's node quantized)?  1 yes, 0 no, -1 + e when a quantized node does
 * not fit its engine's stream. */
int rtl_graph_quantized(const HlsPlan *p, const GirGraph *g, GirError *e);
/* weights.bin (G->c.wbytes bytes, malloc'd into *img): every weight
 * channel's stream at its offset.  0, or -1 + e. */
int rtl_weight_image(const Gen *G, uint8_t **img, GirError *e);

/* top.c: kiln_top.v (sets G->need) and kiln_fork.v. */
void rtl_emit_top(Gen *G, FILE *f);
void rtl_emit_fork(Gen *G, FILE *f);

/* regmap.c: kiln_ports.h, regmap.h, regmap.json. */
void rtl_emit_ports_h(Gen *G, FILE *f);
void rtl_emit_regmap_h(Gen *G, FILE *f);
void rtl_emit_regmap_json(Gen *G, FILE *f);

#endif
