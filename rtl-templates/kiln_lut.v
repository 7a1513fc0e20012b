// kiln_lut: any function of one int8 value on an int8 stream, as the
// 256-entry table of graphir's LutI8 node (HardSwish, HardSigmoid, Sigmoid,
// Tanh and the scalar affine steps around them, quantized by the compiler):
//   out = TABLE[x + 128]
//
// Ports:      clk, rst (sync, active high)
//             s_tvalid/s_tready/s_tdata   input stream, LANES int8 lanes
//             m_tvalid/m_tready/m_tdata   output stream, same layout
// Parameters: LANES (int8 lanes per beat);
//             TABLE (2048 bits: entry k, the output for input k - 128, at
//             bits [8k +: 8]), a per-instance constant from the plan.
// Behaviour:  each lane has its own copy of the table as a ROM in LUTs (a
//             constant 8-bit function of 8 bits); stage 1 registers the
//             looked-up bytes, the output FIFO (4 entries) takes them.  A
//             beat enters only while the FIFO has room for it and the one in
//             stage 1, so s_tready never depends on s_tvalid.
// Latency:    2 cycles.
// Cycles per frame of N beats: N + 2.
// Resources:  LUT ~ 30*LANES + ceil(8*LANES/14) + 13 (per output bit up to
//             four LUT6 and the F7/F8 muxes; fewer when the table is
//             simple), FF ~ 8*LANES + 12, no DSP, no BRAM; every byte of a
//             beat goes through the table, padding lanes too
//             (hls/desc_stream.c).
module kiln_lut #(
    parameter integer LANES = 4,
    parameter [2047:0] TABLE = 2048'd0
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

    // The table entry of int8 x: index x + 128, the sign bit inverted.
    function [7:0] lookup;
        input [7:0] x;
        begin
            lookup = TABLE[8 * {~x[7], x[6:0]} +: 8];
        end
    endfunction

    wire [2:0] fcnt;
    reg        v1;
    wire credit = ({1'b0, fcnt} + {3'b0, v1}) < 4'd4;
    wire go     = credit && s_tvalid;
    assign s_tready = credit;

    reg [DW-1:0] q1;
    integer l;
    always @(posedge clk) begin
        if (rst)
            v1 <= 1'b0;
        else
            v1 <= go;
        for (l = 0; l < LANES; l = l + 1)
            q1[8*l +: 8] <= lookup(s_tdata[8*l +: 8]);
    end

    wire f_ready;
    wire unused_ok = &{1'b0, f_ready};

    kiln_fifo #(.WIDTH(DW), .DEPTH(4)) u_out (
        .clk(clk), .rst(rst),
        .s_tvalid(v1), .s_tready(f_ready), .s_tdata(q1),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata),
        .count(fcnt));
endmodule
