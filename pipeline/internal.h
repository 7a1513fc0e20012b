/* Folder-private declarations shared by the generator's files (pipeline/).
 * Not part of the pipeline/pipeline.h API. */
#ifndef KILN_PIPELINE_INTERNAL_H
#define KILN_PIPELINE_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "graphir/graphir.h"
#include "hls/chan.h"
#include "hls/hw.h"
#include "hls/plan.h"
#include "pipeline/pipeline.h"

#define RTL_MAX_SINKS 64 /* consumers of one stage's output */

/* Templates rtl_write may copy, in the order they are written (names in
 * write.c). */
enum { T_ADD, T_ADD3, T_AXI_RD, T_AXI_WR, T_CHAN_REPS, T_CONCAT, T_CONV, T_CONV_WINDOW, T_DWCONV,
       T_FIFO, T_LUT, T_MAC2, T_MAXPOOL, T_RD_CHAN, T_REGFILE, T_REQUANT, T_RQ_STAGE, T_UPSAMPLE,
       T_WIDTH, T_WR_CHAN, T_TSCONV, T_COUNT };

/* Everything the emitters need about the design. */
typedef struct {
    const HlsPlan *p;    /* the plan */
    const GirGraph *g;   /* its graph (names, weights, requant attributes); may be NULL */
    HlsChans c;          /* the DMA channels (hls_plan_channels) */
    const char **value;  /* per channel: the graph value it moves (in, out), or NULL */
    int quant;           /* 1: the weight image can be written (int8 graph) */
    unsigned need;       /* bit t: template t is used (set by rtl_emit_top) */
    int nbp;             /* kiln_bp_gate instances emitted so far (their SEEDs) */
    uint64_t hash;       /* plan hash */
} Gen;

/* One run-time configuration input of an engine. */
typedef struct {
    const char *port; /* cfg_* port name */
    int bits;         /* port width */
    int64_t value;    /* the constant */
} Cfg;

/* An AXI signal of one bus of kiln_top. */
typedef struct {
    const char *sig; /* signal name after the bus prefix (m_axi_<ch>_, s_axil_) */
    int out;         /* driven by the top */
    int width;       /* bits, or -1 DATA_W, -2 DATA_W/8 */
} AxiSig;

/* One port of kiln_top, in declaration order. */
typedef struct {
    char name[48];   /* Verilog port name */
    int out;         /* 1 output, 0 input */
    int width;       /* bits */
    const char *bus; /* "s_axil", the master's channel name, or NULL (clk, rst) */
    const char *sig; /* the AXI signal inside bus (lower case), or NULL */
} RtlPort;

/* One 32-bit register of kiln_regfile's AXI-Lite map. */
typedef struct {
    char name[40];      /* regmap.json name: CTRL, IN0_BASE_LO */
    int offset;         /* byte offset */
    const char *access; /* r, w, rw or rw1c */
} RtlReg;

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
/* Whether an engine's parameter is written in its instance: all but
 * LBBANK at 0, RQ_DSP at 2 and kiln_tsconv's WCH at 1 (the templates'
 * defaults), so the RTL of a plan without the banked line buffer, one-DSP
 * requant lanes or the second weight master is what it was before those
 * parameters existed. */
int rtl_param_shown(const char *name, int64_t value);

/* chan.c: the graph value stage s reads at input k, and the one it
 * writes (followed through the BatchNormalization / ReLU / LeakyReLU nodes
 * a conv absorbs). */
const char *rtl_stage_in_value(const GirGraph *g, const HlsStage *s, int k);
const char *rtl_stage_out_value(const GirGraph *g, const HlsStage *s);

/* tsconv.c: the shared engine (kiln_tsconv) of a plan that folds layers.
 * Its maps live in one DDR buffer the host places (the map region): one
 * map per value, each HLS_HW_W_ALIGN aligned, [h][w][ceil(c/PE)*PE] int8. */
typedef struct {
    const char *value; /* graph value */
    int64_t h, w, c;   /* map shape */
    int64_t offset;    /* byte offset in the map region */
    int64_t bytes;     /* bytes (whole bus beats) */
    int role;          /* 0 input (the host writes it), 1 output (read outside the engine),
                        * 2 scratch (only folded layers read it) */
} RtlTsMap;
typedef struct {
    RtlTsMap *map;  /* the maps */
    int nmap;       /* count */
    int *x, *y;     /* per folded layer: its input and output map */
    int *node;      /* per folded layer: its graph node */
    int64_t bytes;  /* the region's size */
} RtlTsMaps;
/* The maps of G's shared engine (G->c.ts >= 0, G->g set).  0, or -1 + e. */
int rtl_ts_maps(const Gen *G, RtlTsMaps *m, GirError *e);
void rtl_ts_maps_free(RtlTsMaps *m);
/* The engine's part of weights.bin at img + ts0's offset: the descriptor
 * table (map addresses relative to the map region, weight addresses
 * relative to weights.bin) and each layer's weight stream.  0, or -1 + e. */
int rtl_ts_image(const Gen *G, uint8_t *img, GirError *e);
/* regmap.json's "tsconv" object (after a comma). */
void rtl_ts_json(const Gen *G, FILE *f);
/* kiln_top's kiln_tsconv instance, its nets into d, its unused nets into u. */
void rtl_ts_top(Gen *G, FILE *d, FILE *u, FILE *b);

/* weights.c: the weight image.  Is the planned graph int8 (every weight
 * stage's node quantized)?  1 yes, 0 no, -1 + e when a quantized node does
 * not fit its engine's stream. */
int rtl_graph_quantized(const HlsPlan *p, const GirGraph *g, GirError *e);
/* weights.bin (G->c.wbytes bytes, malloc'd into *img): every weight
 * channel's stream at its offset.  0, or -1 + e. */
int rtl_weight_image(const Gen *G, uint8_t **img, GirError *e);
/* weights.c: stage s's weight stream in kiln_conv order (s->pe_ic lanes) at
 * out; 0, or -1 + e (not an int8 conv). */
int rtl_conv_stream(const GirGraph *g, const HlsStage *s, uint8_t *out, GirError *e);

/* top.c: kiln_top.v (sets G->need) and kiln_fork.v. */
void rtl_emit_top(Gen *G, FILE *f);
void rtl_emit_fork(Gen *G, FILE *f);
/* kiln_top's ports as emit writes them (malloc'd; *n gets the count). */
RtlPort *rtl_top_ports(const Gen *G, int *n);

/* regmap.c: kiln_ports.h, regmap.h, regmap.json. */
void rtl_emit_ports_h(Gen *G, FILE *f);
void rtl_emit_regmap_h(Gen *G, FILE *f);
void rtl_emit_regmap_json(Gen *G, FILE *f);
/* regmap.json's "registers" in its order (malloc'd; *n gets the count). */
RtlReg *rtl_registers(const Gen *G, int *n);

/* write.c: dir/name holds len bytes of text.  0, or -1 + e. */
int rtl_write_text(const char *dir, const char *name, const char *text, size_t len, GirError *e);
/* write.c: remove folder/names[i] for each of the n names (what is not there
 * is skipped). */
void rtl_unlink_all(const char *folder, const char *const *names, size_t n);
/* write.c: run emitter fn into a string and write it as dir/name.  0, or
 * -1 + e. */
int rtl_write_emitted(const char *dir, const char *name, void (*fn)(Gen *, FILE *), Gen *G,
                      GirError *e);
/* The file name of template t (T_*). */
const char *rtl_template_file(int t);
/* Bytes of DDR the design's frame buffers take (the weight image aside):
 * the figure rtl_write checks against the board's DDR. */
int64_t rtl_ddr_frames(const Gen *G);

/* package.c: DIR/vivado, the Vivado package of the design (docs/package.md):
 * component.xml (ipxact.c), kiln_ip.v, build.tcl and package_ip.tcl
 * (bd_tcl.c), kiln.xdc, kiln.dtso, kiln.bif and for a Kria SOM
 * kv260/shell.json (overlay.c).  Needs rtl/ written.  0, or -1 + e. */
int rtl_package_write(Gen *G, const char *dir, GirError *e);
/* Remove DIR/vivado and the files rtl_package_write may have put there. */
void rtl_package_remove(const char *dir);
/* The Verilog files of rtl/ the package names, in file-set order (the
 * generated ones, then each template used); returns the count (at most
 * T_COUNT + 2). */
int rtl_package_rtl_files(const Gen *G, const char **files);
/* The AXI-Lite registers' base the block design assigns (and kiln.dtso
 * gives the uio node) and their span (the register map's, hls/hw.h). */
#define RTL_PKG_AXIL_BASE 0xA0000000u
#define RTL_PKG_AXIL_SPAN(G) (1u << (G)->c.rf_addr_w)
/* The IP's VLNV and the name of its cell in the block design. */
#define RTL_PKG_VENDOR "kiln"
#define RTL_PKG_LIBRARY "hls"
#define RTL_PKG_NAME "kiln_accel"
#define RTL_PKG_VERSION "1.0"
#define RTL_PKG_CELL "kiln_0"
/* The wrapper's active-low reset (kiln_top's rst inverted). */
#define RTL_PKG_RESETN "aresetn"

/* ipxact.c: component.xml (IP-XACT 1685-2009) into a malloc'd *text. */
void rtl_emit_component(const Gen *G, char **text, size_t *len);
/* bd_tcl.c: build.tcl (the block design, synthesis to kiln.bit.bin) and
 * package_ip.tcl.  build.tcl: 0, or -1 + e when the board has too few HP
 * ports for the design's masters. */
int rtl_emit_build_tcl(const Gen *G, FILE *f, GirError *e);
void rtl_emit_package_ip_tcl(Gen *G, FILE *f);
/* overlay.c: kiln.xdc, kiln.dtso, kiln.bif, shell.json. */
void rtl_emit_xdc(Gen *G, FILE *f);
void rtl_emit_dtso(Gen *G, FILE *f);
void rtl_emit_bif(Gen *G, FILE *f);
void rtl_emit_shell_json(Gen *G, FILE *f);
/* Is the board a Kria SOM (an app folder for xmutil loadapp)? */
int rtl_package_kria(const Gen *G);

#endif
