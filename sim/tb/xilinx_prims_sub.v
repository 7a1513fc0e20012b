// LUT6_2 and CARRY8 for iverilog: the UltraScale primitives kiln_add3
// instantiates under `define KILN_XILINX_PRIMS (rtl-templates/kiln_add3.v),
// written from UG574 (CLB user guide) and UG974 (libraries guide), not a
// vendor model:
//   LUT6_2: O6 = INIT[{I5, I4, I3, I2, I1, I0}], O5 = INIT[{1'b0, I4..I0}]
//           (the low half).
//   CARRY8: CARRY_TYPE "SINGLE_CY8" only (anything else prints "FAIL" and
//           stops): one 8-bit chain from CI, carry out of bit i
//           CO_i = S_i ? CO_{i-1} : DI_i (CO_{-1} = CI), O_i = S_i ^ CO_{i-1};
//           CI_TOP is unused.
// An X or Z on an input gives X on the outputs (4-state), so an unconnected
// input cannot pass a check.
`timescale 1ns / 1ps
module LUT6_2 #(
    parameter [63:0] INIT = 64'h0
) (
    output wire O6,
    output wire O5,
    input  wire I0,
    input  wire I1,
    input  wire I2,
    input  wire I3,
    input  wire I4,
    input  wire I5
);
    wire [5:0] idx = {I5, I4, I3, I2, I1, I0};
    assign O6 = (^idx === 1'bx) ? 1'bx : INIT[idx];
    assign O5 = (^idx[4:0] === 1'bx) ? 1'bx : INIT[{1'b0, idx[4:0]}];
endmodule

module CARRY8 #(
    parameter CARRY_TYPE = "SINGLE_CY8"
) (
    output wire [7:0] CO,
    output wire [7:0] O,
    input  wire       CI,
    input  wire       CI_TOP,
    input  wire [7:0] DI,
    input  wire [7:0] S
);
    wire [8:0] c;
    assign c[0] = CI;
    genvar i;
    generate
        for (i = 0; i < 8; i = i + 1) begin : g_c
            assign c[i+1] = S[i] ? c[i] : DI[i];
        end
    endgenerate
    assign CO = c[8:1];
    assign O = S ^ c[7:0];
    initial
        if (CARRY_TYPE != "SINGLE_CY8") begin
            $display("FAIL: CARRY8 CARRY_TYPE %0s outside the model", CARRY_TYPE);
            $finish;
        end
    // CI_TOP is read by DUAL_CY4 only
    wire unused_ci_top = CI_TOP;
endmodule
