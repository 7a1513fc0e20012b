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
