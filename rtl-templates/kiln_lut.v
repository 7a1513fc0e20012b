// kiln_lut: any function of one int8 value on an int8 stream, as the
// 256-entry table of graphir's LutI8 node (HardSwish, HardSigmoid, Sigmoid,
// Tanh and the scalar affine steps around them, quantized by the compiler),
// one table for every byte or one per channel of the stream:
//   CHANS = 0:  out = TABLE[x + 128]
//   CHANS > 0:  out = TABLE[256 c + x + 128], c the byte's channel
//
// Ports:      clk, rst (sync, active high)
//             s_tvalid/s_tready/s_tdata   input stream, LANES int8 lanes
//             m_tvalid/m_tready/m_tdata   output stream, same layout
// Parameters: LANES (int8 lanes per beat);
//             CHANS (0: one table; else the stream's channels, a pixel's
//             CG = ceil(CHANS / LANES) beats in a row, channel g*LANES + l
//             in lane l of its g-th beat, the lanes past CHANS padding);
//             BRAM_CG (CHANS > 0: from this many tables a lane the ROMs
//             are block RAM; the plan passes hls/hw.h HLS_HW_LUT_BRAM_CG);
//             TABLE (2048 x NT bits, NT = 1 or CG*LANES: entry k of table c,
//             the output for input k - 128, at bits [2048c + 8k +: 8]; the
//             padding channels' tables are the generator's, zeros), a
//             per-instance constant from the plan.
// Behaviour:  CHANS = 0: each lane has its own copy of the table as a ROM
//             in LUTs (a constant 8-bit function of 8 bits).  CHANS > 0: lane
//             l holds the CG tables of its channels l, LANES + l, ... as one
//             ROM of CG*256 bytes read synchronously at {g, x + 128}, g the
//             beat's place in its pixel (a counter of accepted beats,
//             0..CG-1, so frames are whole pixels); in logic below BRAM_CG
//             tables a lane, in block RAM (rom_style "block") from BRAM_CG.  Stage 1 registers the
//             looked-up bytes, the output FIFO (4 entries) takes them.  A
//             beat enters only while the FIFO has room for it and the one in
//             stage 1, so s_tready never depends on s_tvalid.
// Latency:    2 cycles.
// Cycles per frame of N beats: N + 2.
// Resources:  CHANS = 0: LUT ~ 30*LANES + ceil(8*LANES/14) + 13 (per output
//             bit up to four LUT6 and the F7/F8 muxes; fewer when the table
//             is simple), FF ~ 8*LANES + 12.  CHANS > 0: per lane a CG*256 x
//             8 ROM (hls/desc_stream.c: about 27 LUT a table below BRAM_CG,
//             block RAM from BRAM_CG) and the group counter.  No DSP; every byte of a beat goes
//             through a table, padding lanes too (hls/desc_stream.c).
module kiln_lut #(
    parameter integer LANES = 4,
    parameter integer CHANS = 0,
    parameter integer BRAM_CG = 8,
    parameter [2048*(CHANS == 0 ? 1 : (CHANS + LANES - 1) / LANES * LANES)-1:0] TABLE = 0
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*LANES-1:0]   s_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*LANES-1:0]   m_tdata
);
    localparam DW = 8 * LANES;
    localparam integer CG = CHANS == 0 ? 1 : (CHANS + LANES - 1) / LANES;
    localparam integer GW = CG > 1 ? $clog2(CG) : 1;

    wire [2:0] fcnt;
    reg        v1;
    wire credit = ({1'b0, fcnt} + {3'b0, v1}) < 4'd4;
    wire go     = credit && s_tvalid;
    assign s_tready = credit;

    always @(posedge clk) begin
        if (rst)
            v1 <= 1'b0;
        else
            v1 <= go;
    end

    wire [DW-1:0] q1;
    genvar gl;
    generate
        if (CHANS == 0) begin : g_one
            // The table entry of int8 x: index x + 128, the sign bit inverted.
            function [7:0] lookup;
                input [7:0] x;
                begin
                    lookup = TABLE[8 * {~x[7], x[6:0]} +: 8];
                end
            endfunction

            reg [DW-1:0] q;
            integer l;
            always @(posedge clk)
                for (l = 0; l < LANES; l = l + 1)
                    q[8*l +: 8] <= lookup(s_tdata[8*l +: 8]);
            assign q1 = q;
        end else begin : g_chan
            // The beat's channel group within its pixel.
            reg [GW-1:0] grp;
            always @(posedge clk) begin
                if (rst || (go && grp == CG[GW-1:0] - 1'b1))
                    grp <= {GW{1'b0}};
                else if (go)
                    grp <= grp + 1'b1;
            end
            for (gl = 0; gl < LANES; gl = gl + 1) begin : g_lane
                reg [7:0] q;
                integer i;
                wire [7:0] x = {~s_tdata[8*gl+7], s_tdata[8*gl +: 7]};
                if (CG >= BRAM_CG) begin : g_bram
                    (* rom_style = "block" *) reg [7:0] rom [0:CG*256-1];
                    initial
                        for (i = 0; i < CG * 256; i = i + 1)
                            rom[i] = TABLE[2048 * ((i / 256) * LANES + gl) + 8 * (i % 256) +: 8];
                    always @(posedge clk)
                        q <= rom[{grp, x}];
                end else begin : g_lut
                    reg [7:0] rom [0:CG*256-1];
                    initial
                        for (i = 0; i < CG * 256; i = i + 1)
                            rom[i] = TABLE[2048 * ((i / 256) * LANES + gl) + 8 * (i % 256) +: 8];
                    if (CG > 1) begin : g_addr
                        always @(posedge clk)
                            q <= rom[{grp, x}];
                    end else begin : g_addr1
                        always @(posedge clk)
                            q <= rom[x];
                    end
                end
                assign q1[8*gl +: 8] = q;
            end
        end
    endgenerate

    wire f_ready;
    wire unused_ok = &{1'b0, f_ready};

    kiln_fifo #(.WIDTH(DW), .DEPTH(4)) u_out (
        .clk(clk), .rst(rst),
        .s_tvalid(v1), .s_tready(f_ready), .s_tdata(q1),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata),
        .count(fcnt));
endmodule
