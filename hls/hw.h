/*
 * hls/hw.h: the hardware contract, defined once.  The planner costs the
 * design with these numbers, pipeline/ generates the Verilog with them and
 * sim/ drives the Verilator model with them, so a change here changes all
 * three together.  Widths are bits, depths words, latencies fabric cycles.
 */
#ifndef KILN_HLS_HW_H
#define KILN_HLS_HW_H

/* Buses. */
#define HLS_HW_ADDR_W 40    /* DDR address bits of every AXI4 master */

/* Register file (kiln_regfile; docs/rtl-pipeline.md, "Register map"): the
 * fixed registers below HLS_HW_RF_CFG, the CFG block there (SEGMENT and
 * FRAMES, then each channel's base address pair), then the PERF words (a
 * pair per stage).  The map grows with the design (hls_plan_channels sets
 * HlsChans.rf_perf and rf_addr_w): a CFG block of HLS_HW_MAX_CFG registers
 * or fewer keeps the PERF words at HLS_HW_RF_PERF and 12 address bits, the
 * one map every design had before; a larger one moves them to the first
 * multiple of HLS_HW_RF_PERF past its last register, and the address
 * widens to hold the last PERF word, up to HLS_HW_RF_ADDR_W_MAX bits. */
#define HLS_HW_RF_ADDR_W 12     /* AXI-Lite address bits of the least map */
#define HLS_HW_RF_ADDR_W_MAX 16 /* the most: a 64 KiB register window */
#define HLS_HW_RF_CFG 0x40      /* byte offset of CFG register 0 (SEGMENT) */
#define HLS_HW_RF_PERF 0x200    /* PERF word 0 of the least map; PERF moves in these steps */
#define HLS_HW_CFG_FIXED 2   /* CFG registers before the channel bases: SEGMENT, FRAMES */
#define HLS_HW_MAX_CFG 112   /* CFG registers of the least map (0x40 up to 0x200) */
#define HLS_HW_ERR_SEGMENT 31 /* ERROR bit: a start named a SEGMENT the design does not have */
#define HLS_HW_ERR_CH_MAX 30  /* ERROR bit of channel c: min(c, HLS_HW_ERR_CH_MAX) */

/* DMA channels (kiln_rd_chan, kiln_wr_chan; hls/chan.c picks each one's
 * burst).  Maps stream at a beat a cycle, HLS_HW_MAX_OUT x 64 beats in
 * flight; weight sets are small or read once.  Maps read back inside a
 * segment and weight-tiled outputs take bursts short enough for a data FIFO
 * in LUTRAM (reader 4 x 14 + 8, writer 2 x 16 + 8 entries), still a beat a
 * cycle at HLS_HW_DDR_LAT. */
#define HLS_HW_MAX_OUT 4       /* bursts in flight per channel */
#define HLS_HW_BURST_MAP 64    /* burst beats of a map channel (segment input, output) */
#define HLS_HW_BURST_W 16      /* burst beats of a weight channel */
#define HLS_HW_BURST_EDGE_RD 14 /* a map read back inside a segment (its LUTRAM FIFO) */
#define HLS_HW_BURST_EDGE_WR 16 /* a map written for a reader inside a segment, or a tiled output */

/* DDR layout of the weight image and the frame buffers. */
#define HLS_HW_W_ALIGN 4096  /* weights.bin: each channel's offset is a multiple of this */
#define HLS_HW_FRAME_ALIGN 16 /* a map's frame-to-frame stride in DDR: a multiple of this (128 bits) */

/* Memories. */
#define HLS_HW_FIFO_BRAM_MIN 64   /* kiln_fifo (skip FIFOs): block RAM from this depth */
/* kiln_lut with a table per channel (its BRAM_CG): from this many tables a
 * lane (2 KiB, one RAMB18E2) the ROMs are block RAM; below, logic. */
#define HLS_HW_LUT_BRAM_CG 8
/* kiln_rq_stage's output FIFO as hls/infra.c costs it: PIPE + 2 entries, far
 * below this, so always its small form (the template keeps kiln_fifo's
 * default BRAM_MIN, also above any such depth). */
#define HLS_HW_RQ_BRAM_MIN 1024

/* The DDR read latency the timing model assumes and kiln simulate's DDR
 * model gives by default (cycles from an accepted AR to the first R beat). */
#define HLS_HW_DDR_LAT 40
/* The write response's latency the shared engine's model (hls/plan_fold.c)
 * assumes: kiln simulate's memory answers B the cycle after a burst's last
 * W beat.  Each folded layer waits for its last B once. */
#define HLS_HW_DDR_BLAT 1

#endif
