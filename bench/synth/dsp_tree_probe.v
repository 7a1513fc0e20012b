// dsp_tree_probe: the LUT adder tree kiln_conv sums an output lane's PE_IC
// products with (its g_add heap: 16-bit products, TW = 17 + L bits, L =
// ceil(log2 N) levels), here with every level registered, beside
// kiln_dsp_chain for bench/synth/dsp_chain_synth.py.  The N products are
// registered multiplies (one DSP48E2 each, as kiln_mac2 PACK 1 maps); the
// tree's adders are what LUT and CARRY8 pay for.
module dsp_tree_probe #(
    parameter integer N = 8
) (
    input  wire              clk,
    input  wire [8*N-1:0]    a,
    input  wire [8*N-1:0]    b,
    output wire signed [31:0] p
);
    localparam integer L  = (N > 1) ? $clog2(N) : 1;
    localparam integer NP = 1 << L;
    localparam integer TW = 17 + L;
    wire signed [TW-1:0] nd [1:2*NP-1];
    genvar n;
    generate
        for (n = NP; n < 2 * NP; n = n + 1) begin : g_leaf
            if (n - NP < N) begin : g_p
                reg signed [15:0] pr;
                always @(posedge clk)
                    pr <= $signed(a[8*(n-NP) +: 8]) * $signed(b[8*(n-NP) +: 8]);
                assign nd[n] = {{(TW-16){pr[15]}}, pr};
            end else begin : g_z
                assign nd[n] = {TW{1'b0}};
            end
        end
        for (n = 1; n < NP; n = n + 1) begin : g_add
            reg signed [TW-1:0] r;
            always @(posedge clk)
                r <= nd[2*n] + nd[2*n+1];
            assign nd[n] = r;
        end
    endgenerate
    assign p = {{(32-TW){nd[1][TW-1]}}, nd[1]};
endmodule
