// cascade_probe: four int8 MACs summed through a chain of registered
// post-adders, the form that maps to DSP PCOUT -> PCIN cascades
// (bench/clk2x_domain.sh asks yosys how it maps it for DSP48E1 and DSP48E2).
module cascade_probe (
    input  wire               clk,
    input  wire signed [7:0]  a0, a1, a2, a3,
    input  wire signed [7:0]  b0, b1, b2, b3,
    output reg  signed [31:0] p3
);
    reg signed [31:0] p0, p1, p2;
    always @(posedge clk) begin
        p0 <= a0 * b0;
        p1 <= p0 + a1 * b1;
        p2 <= p1 + a2 * b2;
        p3 <= p2 + a3 * b3;
    end
endmodule
