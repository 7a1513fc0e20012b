// kiln_mac2: int8 multiplier cell; PACK=2 computes two products that share
// one operand in a single multiplier (one DSP48E2 for two MACs).
//
// PACK = 1: p1 = a * w1, p2 = a * w2 with two multipliers.
// PACK = 2: q  = ((w1 << 18) + w2) * a          (27 x 8 bit signed -> 35 bit)
//           p2 = q[17:0] as signed              (|a*w2| <= 2^14 fits 18 bits)
//           p1 = q[33:18] + q[17]               (sign correction: q = p1*2^18 + p2)
// The packed operand needs 27 bits (DSP48E2 A port 27), a is 8 bits (B port 18).
// Ports: a, w1, w2 signed int8 -> p1, p2 signed 16 bit, registered (1 cycle)
// when ce is 1; with ce 0 p1, p2 hold (the DSP48E2's CEP).  The products are
// computed inside the enabled register block, so a Verilator model skips the
// multiplications of idle cells.
// Resources: PACK=1 2 DSP48E2 (or LUTs), PACK=2 1 DSP48E2 + ~26 LUT.
module kiln_mac2 #(
    parameter integer PACK = 2
) (
    input  wire              clk,
    input  wire              ce,
    input  wire signed [7:0] a,
    input  wire signed [7:0] w1,
    input  wire signed [7:0] w2,
    output reg  signed [15:0] p1,
    output reg  signed [15:0] p2
);
    generate
        if (PACK == 2) begin : g_pack
            // 27 bits: w1 = -128 with w2 < 0 goes below -2^25
            reg signed [26:0] wp;
            /* verilator lint_off UNUSEDSIGNAL */ // q[16], q[34]: p2, p1 fit 16 bits
            reg signed [34:0] q;
            /* verilator lint_on UNUSEDSIGNAL */
            // wp, q: combinational (blocking), inside the enabled block
            /* verilator lint_off BLKSEQ */
            always @(posedge clk)
                if (ce) begin
                    wp = {w1[7], w1, 18'd0} + {{19{w2[7]}}, w2};
                    q  = wp * a;
                    p2 <= q[15:0];
                    p1 <= q[33:18] + {15'd0, q[17]};
                end
            /* verilator lint_on BLKSEQ */
        end else begin : g_two
            always @(posedge clk)
                if (ce) begin
                    p1 <= w1 * a;
                    p2 <= w2 * a;
                end
        end
    endgenerate
endmodule

// kiln_mac2x: one DSP48E2 at twice the fabric clock, summing the products of
// two input lanes each fabric cycle (the clk2x domain holds this module's
// registers, its lane multiplexers and the multiply-accumulate, nothing
// else).  clk and clk2x are synchronous and edge-aligned: every clk edge is
// a clk2x edge, and mid is 1 at the clk2x edges between two clk edges.
//
// An op's operands (a0, a1, wp0, wp1, v) come from the clk domain and stay
// a whole fabric cycle.  Lane 0 enters the input registers at the op's mid
// edge, lane 1 at the following clk edge; the multiplier register (MREG)
// takes their products one clk2x cycle later, the P register loads lane 0's
// product at a mid edge and adds lane 1's at the next clk edge, and h holds
// the sum from the following mid edge for a whole fabric cycle:
//   h = wp0 * a0 + wp1 * a1, stable at the clk edge 3 cycles after the op's.
// wp0, wp1: packed weights (kiln_mac2 PACK=2: (w1 << 18) + w2, formed in the
// clk domain), or a sign-extended int8 weight.  The registers load only
// after an op (v), so a Verilator model skips the multiplications of idle
// cells.  Resources: 1 DSP48E2 (AREG, BREG, MREG, PREG) + 36 FF (h).
/* verilator lint_off DECLFILENAME */ // kiln_mac2 and kiln_mac2x share the file
module kiln_mac2x (
/* verilator lint_on DECLFILENAME */
    input  wire               clk2x,
    input  wire               mid,
    input  wire               v,
    input  wire signed [7:0]  a0,
    input  wire signed [7:0]  a1,
    input  wire signed [26:0] wp0,
    input  wire signed [26:0] wp1,
    output reg  signed [35:0] h
);
    reg signed [7:0]  ar;
    reg signed [26:0] wr;
    reg signed [35:0] m;
    reg signed [35:0] p;
    reg v0, v1, v2;   // an op's operands in ar/wr, its products in m, its sum in p
    always @(posedge clk2x) begin
        v0 <= v;
        v1 <= v0;
        v2 <= v1;
        if (v) begin
            ar <= mid ? a0 : a1;
            wr <= mid ? wp0 : wp1;
        end
        if (v0)
            m <= wr * ar;
        if (v1)
            p <= mid ? m : p + m;
        if (mid && v2)
            h <= p;
    end
endmodule

// kiln_mac2p: one DSP48E2 at twice the fabric clock multiplying one weight
// operand by the activations of two pixels each fabric cycle (kiln_conv
// DSP2X = 2, pixel pairs).  clk and clk2x are synchronous and edge-aligned:
// every clk edge is a clk2x edge, and mid is 1 at the clk2x edges between two
// clk edges.
//
// An op's operands (a0, wp, v) come from the clk domain and stay a whole
// fabric cycle; a1 and v1 are the op's second pixel and valid one fabric
// cycle later (a clk-domain register, shared by the output lanes).  The
// weight register takes wp at the clk edge after the op and holds it for a
// fabric cycle, the activation register takes a0 at that edge and a1 at the
// next mid edge; the multiplier register (MREG) takes their products one
// clk2x cycle later, the P register each product the cycle after, and h0
// copies pixel 0's product from P at the mid edge where P takes pixel 1's:
//   h0 = wp * a0, h1 = wp * a1 (low QW bits), both stable at the clk edge
//   3 cycles after the op's.
// No adder and no weight multiplexer: the clk2x domain holds the DSP48E2
// (A/B, M and P registers), the activation multiplexer and h0.
// wp: a packed pair (kiln_mac2 PACK=2: (w1 << 18) + w2, WW 27, QW 34) or an
// int8 weight (WW 8, QW 16).  The registers load only after an op (v): a
// simulation model skips the multiplications of idle cells.
// Resources: 1 DSP48E2 + QW FF (h0) + 8 LUT (the activation multiplexer,
// shared by the DSPs of one pixel pair and input lane).
/* verilator lint_off DECLFILENAME */ // kiln_mac2 and kiln_mac2p share the file
module kiln_mac2p #(
/* verilator lint_on DECLFILENAME */
    parameter integer WW = 27,
    parameter integer QW = 34
) (
    input  wire                 clk2x,
    input  wire                 mid,
    input  wire                 v,
    input  wire                 v1,
    input  wire signed [7:0]    a0,
    input  wire signed [7:0]    a1,
    input  wire signed [WW-1:0] wp,
    output reg  signed [QW-1:0] h0,
    output reg  signed [QW-1:0] h1
);
    reg signed [7:0]    ar;
    reg signed [WW-1:0] wr;
    /* verilator lint_off UNUSEDSIGNAL */ // the bits above QW
    reg signed [WW+7:0] m;
    /* verilator lint_on UNUSEDSIGNAL */
    reg vm, vp;   // ar holds an operand, m its product
    always @(posedge clk2x) begin
        vm <= mid ? v1 : v;
        vp <= vm;
        if (!mid && v)
            wr <= wp;
        if (mid ? v1 : v)
            ar <= mid ? a1 : a0;
        if (vm)
            m <= wr * ar;
        if (vp)
            h1 <= m[QW-1:0];
        if (mid && vp)
            h0 <= h1;
    end
endmodule
