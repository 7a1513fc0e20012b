// kiln_add3: s = a + b + c (W bits, modulo 2^W), combinational, one LUT a
// result bit: the ternary adder of kiln_conv's adder trees.
//
// Ports
//   a, b, c [W-1:0]   addends (the caller sign-extends them to W bits; W
//                     must hold the sum, so nothing is lost modulo 2^W)
//   s [W-1:0]         the sum
// Parameters
//   W                 width (>= 1)
// Latency: 0 (no registers).
// Resources: `define KILN_XILINX_PRIMS: W LUT6_2 + ceil(W/8) CARRY8, placed
//   as instances (synthesis keeps them as written, so W is the width the
//   caller asks for).  Bit i's LUT6_2 takes I0..I2 = a_i, b_i, c_i, I3 =
//   y_{i-1} (bit i-1's O5; 0 at bit 0), I4 = 0, I5 = 1 and gives
//     O5 = y_i = maj(a_i, b_i, c_i)        (INIT[31:0])
//     O6 = p_i = a_i ^ b_i ^ c_i ^ y_{i-1} (INIT[63:32]),
//   so a + b + c = x + 2y with x_i = a_i ^ b_i ^ c_i, and the carry chain
//   (CARRY_TYPE "SINGLE_CY8", CI = 0) adds x to 2y: S_i = p_i, DI_i =
//   y_{i-1}, s_i = O_i.  Without the define, the behavioural a + b + c
//   (simulation; a synthesis tool maps it as it likes: yosys makes two
//   adders of it, 2W LUT).
module kiln_add3 #(
    parameter integer W = 8
) (
    input  wire [W-1:0] a,
    input  wire [W-1:0] b,
    input  wire [W-1:0] c,
    output wire [W-1:0] s
);
`ifdef KILN_XILINX_PRIMS
    localparam integer NC = (W + 7) / 8; // CARRY8 blocks
    localparam [63:0] INIT = 64'h69966996_E8E8E8E8;
    wire [8*NC-1:0] y;        // majorities, 0 above W
    wire [8*NC-1:0] p;        // propagates, 0 above W
    wire [8*NC-1:0] o;        // chain sums
    wire [8*NC:0]   co;       // carry into block k at co[8k]
    wire [8*NC-1:0] di = {y[8*NC-2:0], 1'b0};
    genvar i, k;
    generate
        for (i = 0; i < 8 * NC; i = i + 1) begin : g_bit
            if (i < W) begin : g_l
                LUT6_2 #(.INIT(INIT)) u_lut (
                    .O6(p[i]), .O5(y[i]),
                    .I0(a[i]), .I1(b[i]), .I2(c[i]), .I3(di[i]), .I4(1'b0), .I5(1'b1));
            end else begin : g_z
                assign p[i] = 1'b0;
                assign y[i] = 1'b0;
            end
        end
        assign co[0] = 1'b0;
        for (k = 0; k < NC; k = k + 1) begin : g_cy
            wire [7:0] cok;
            CARRY8 #(.CARRY_TYPE("SINGLE_CY8")) u_cy (
                .CO(cok), .O(o[8*k +: 8]), .CI(co[8*k]), .CI_TOP(1'b0),
                .DI(di[8*k +: 8]), .S(p[8*k +: 8]));
            assign co[8*k+8] = cok[7];
            /* verilator lint_off UNUSEDSIGNAL */ // the chain's inner carries
            wire [6:0] unused_co = cok[6:0];
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
    assign s = o[W-1:0];
    /* verilator lint_off UNUSEDSIGNAL */ // the carry out, the padding
    wire unused_top = co[8*NC] ^ (^o) ^ y[8*NC-1];
    /* verilator lint_on UNUSEDSIGNAL */
`else
    assign s = a + b + c;
`endif
endmodule
