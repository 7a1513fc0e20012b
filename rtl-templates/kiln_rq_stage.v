// kiln_rq_stage: a standalone Requantize on an int8 stream (one scale per
// tensor): kiln_requant with m_pos = m_neg = cfg_m on every lane, fed with
// the int8 values as accumulators, behind valid/ready.
//   out = clamp(round_shift(x * cfg_m, cfg_shift), -128, 127)
// exactly graphir/requant.h kiln_requant(x, m, m, shift).
//
// Ports:      clk, rst (sync, active high)
//             cfg_m        signed 16-bit multiplier; cfg_shift 0..47
//             s_*          input stream, LANES int8 lanes
//             m_*          output stream, same layout
// Parameters: LANES (lanes per beat), PIPE (kiln_requant register stages 0..4),
//             RQ_DSP (kiln_requant's DSP48E2 a lane, 2 or 1).
// Structure:  a beat enters kiln_requant only while the output FIFO (PIPE + 2
//             entries) has room for it and every beat already in the pipe,
//             so no result is ever lost; s_tready does not depend on s_tvalid.
// Latency:    PIPE + 1 cycles.
// Cycles per frame of N beats: N + PIPE + 1.
// Resources:  kiln_requant (RQ_DSP DSP48E2 and ~260-590 LUT per lane) + a
//             (PIPE+2)-entry LUTRAM FIFO of 8*LANES bits + ~10 FF.
module kiln_rq_stage #(
    parameter integer LANES = 4,
    parameter integer PIPE  = 2,
    parameter integer RQ_DSP = 2
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [15:0]          cfg_m,
    input  wire [5:0]           cfg_shift,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*LANES-1:0]   s_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*LANES-1:0]   m_tdata
);
    localparam DEPTH = PIPE + 2;
    localparam CW    = $clog2(DEPTH + 1);
    localparam [CW:0] DMAX = DEPTH[CW:0];

    reg  [CW-1:0] infl;     // beats inside kiln_requant
    wire [CW-1:0] fcount;   // beats in the output FIFO
    wire          o_valid;
    wire [8*LANES-1:0] o_q;
    wire          f_ready;
    assign s_tready = {1'b0, infl} + {1'b0, fcount} < DMAX;
    wire go = s_tvalid && s_tready;

    wire [32*LANES-1:0] acc;
    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            assign acc[32*l +: 32] = {{24{s_tdata[8*l+7]}}, s_tdata[8*l +: 8]};
        end
    endgenerate

    always @(posedge clk) begin
        if (rst)
            infl <= {CW{1'b0}};
        else
            infl <= infl + {{(CW-1){1'b0}}, go} - {{(CW-1){1'b0}}, o_valid};
    end

    kiln_requant #(.LANES(LANES), .PIPE(PIPE), .RQ_DSP(RQ_DSP)) u_rq (
        .clk(clk), .rst(rst),
        .i_valid(go), .i_acc(acc),
        .i_mpos({LANES{cfg_m}}), .i_mneg({LANES{cfg_m}}), .i_shift({LANES{cfg_shift}}),
        .o_valid(o_valid), .o_q(o_q));

    wire unused_ok = &{1'b0, f_ready};
    kiln_fifo #(.WIDTH(8 * LANES), .DEPTH(DEPTH)) u_out (
        .clk(clk), .rst(rst),
        .s_tvalid(o_valid), .s_tready(f_ready), .s_tdata(o_q),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata),
        .count(fcount));
endmodule
