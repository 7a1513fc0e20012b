/*
 * Board models: the resources, clocks, DDR bandwidth and AXI ports of a Zynq
 * UltraScale+ board, read from boards/zynq-ultrascale/NAME.xml (validated
 * against board.xsd with libxml2).
 */
#ifndef KILN_HLS_BOARD_H
#define KILN_HLS_BOARD_H

#include <stddef.h>
#include <stdint.h>

#include "graphir/graphir.h"

#define HLS_MAX_AXI_PORTS 16 /* more than any Zynq UltraScale+ PS offers */

/* One AXI port between the PS and the PL. */
typedef struct {
    char name[48]; /* PS port name, e.g. S_AXI_HP0_FPD */
    char kind[8];  /* hp, hpc, acp or lite */
    int width;     /* data width in bits */
} HlsAxiPort;

/* What the planner may spend on one board. */
typedef struct {
    char name[32];         /* short name: zcu104 */
    char description[128]; /* one line for people */
    char part[48];         /* FPGA part number */
    char speed_grade[8];   /* speed grade */
    char board_part[64];   /* Vivado board part (xilinx.com:zcu104:part0:1.1), or "" */
    int64_t dsp;           /* DSP48E2 slices */
    int64_t bram36;        /* RAMB36E2 blocks (a RAMB18E2 is half) */
    int64_t uram;          /* URAM288 blocks */
    int64_t lut;           /* CLB LUTs */
    int64_t ff;            /* CLB flip-flops */
    double default_mhz;    /* PL clock the compiler plans for by default */
    double max_mhz;        /* fastest PL clock a plan may ask for */
    double dsp_max_mhz;    /* DSP48E2 FMAX of the speed grade (data sheet); 0: not given,
                            * no clk2x MAC arrays */
    char dsp_max_source[200]; /* where that figure comes from */
    char ddr_type[16];     /* ddr4, lpddr4 */
    int64_t ddr_bytes;     /* PS DDR size */
    double ddr_gbps;       /* bandwidth the PL can draw from DDR, GB/s */
    HlsAxiPort ports[HLS_MAX_AXI_PORTS]; /* PS-PL AXI ports */
    int nports;            /* count of ports */
    char path[512];        /* file it was read from */
} HlsBoard;

/* Load a board by short name (looked up in the boards folder) or by path to
 * an XML file.  The file is validated against board.xsd; errors name the file
 * and line.  Returns 0 or -1 + e. */
int hls_board_load(const char *name_or_path, HlsBoard *b, GirError *e);
/* The same for a board file's text (size bytes, no terminator needed); path
 * names it in errors. */
int hls_board_parse(const char *text, size_t size, const char *path, HlsBoard *b, GirError *e);
/* The folder holding the bundled board files and board.xsd. */
const char *hls_board_dir(void);
/* Short names of the bundled boards, sorted; *n gets the count.  The caller
 * frees each string and the array. */
char **hls_board_names(int *n);

#endif
