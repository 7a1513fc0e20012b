// kiln_requant: int32 accumulator -> int8 activation, LANES lanes in parallel.
//
// Exactly graphir/requant.h kiln_requant():
//   m    = acc >= 0 ? m_pos : m_neg                 (signed 16 bit)
//   prod = acc * m                                   (signed 48 bit, exact)
//   r    = shift == 0 ? prod : (prod + 2^(shift-1)) >>> shift
//   out  = clamp(r, -128, 127)
// Identity, ReLU (m_neg = 0) and LeakyReLU (m_neg = m_pos * alpha) are the
// same hardware.  Bias is not added here: the engines add it when they start
// an accumulation (acc = bias + sum of products).
//
// Parameters
//   LANES  lanes (each lane has its own m_pos, m_neg, shift: per output
//          channel scales put the channel's multiplier on its lane)
//   PIPE   register stages 0..3: 1 = output register; 2 = also after the
//          multiply; 3 = also after the rounding shift.  0 = combinational.
// Ports (lane i at bit slice i of each bus)
//   i_valid, i_acc[32*LANES], i_mpos[16*LANES], i_mneg[16*LANES],
//   i_shift[6*LANES] (0..47)  ->  o_valid, o_q[8*LANES]
// Latency: PIPE cycles (o_valid is i_valid delayed by PIPE); one lane vector
// per cycle, no stall (the caller gates its valid).
// Cycles per frame: n lane vectors take n cycles (+ PIPE).
// Resources per lane: 2 DSP48E2 (32x16 multiply), ~450 LUT (round-add, 49-bit
// barrel shift, saturation), ~60*PIPE FF.
module kiln_requant #(
    parameter integer LANES = 4,
    parameter integer PIPE  = 2
) (
    /* verilator lint_off UNUSEDSIGNAL */ // unused when PIPE == 0
    input  wire                  clk,
    input  wire                  rst,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                  i_valid,
    input  wire [32*LANES-1:0]   i_acc,
    input  wire [16*LANES-1:0]   i_mpos,
    input  wire [16*LANES-1:0]   i_mneg,
    input  wire [6*LANES-1:0]    i_shift,
    output wire                  o_valid,
    output wire [8*LANES-1:0]    o_q
);
    // valid travels beside the data
    generate
        if (PIPE == 0) begin : g_v0
            assign o_valid = i_valid;
        end else begin : g_vn
            reg [PIPE-1:0] vpipe;
            integer k;
            always @(posedge clk) begin
                if (rst) begin
                    vpipe <= {PIPE{1'b0}};
                end else begin
                    vpipe[0] <= i_valid;
                    for (k = 1; k < PIPE; k = k + 1)
                        vpipe[k] <= vpipe[k-1];
                end
            end
            assign o_valid = vpipe[PIPE-1];
        end
    endgenerate

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            wire signed [31:0] acc = i_acc[32*l +: 32];
            wire signed [15:0] mp  = i_mpos[16*l +: 16];
            wire signed [15:0] mn  = i_mneg[16*l +: 16];
            wire signed [15:0] m   = acc[31] ? mn : mp;
            wire signed [47:0] prod_c = acc * m;

            // stage A: product (+ shift carried along)
            wire signed [47:0] prod_a;
            wire [5:0]         sh_a;
            if (PIPE >= 2) begin : g_ra
                reg signed [47:0] p_r;
                reg [5:0]         s_r;
                always @(posedge clk) begin
                    p_r <= prod_c;
                    s_r <= i_shift[6*l +: 6];
                end
                assign prod_a = p_r;
                assign sh_a   = s_r;
            end else begin : g_ca
                assign prod_a = prod_c;
                assign sh_a   = i_shift[6*l +: 6];
            end

            // rounding right shift; 49 bits so the rounding add cannot overflow
            wire signed [48:0] rnd = (sh_a == 6'd0) ? 49'sd0
                                   : $signed({1'b0, 48'd1 << (sh_a - 6'd1)});
            wire signed [48:0] sum = {prod_a[47], prod_a} + rnd;
            wire signed [48:0] shr_c = sum >>> sh_a;

            // stage B: shifted value
            wire signed [48:0] shr_b;
            if (PIPE >= 3) begin : g_rb
                reg signed [48:0] r_r;
                always @(posedge clk)
                    r_r <= shr_c;
                assign shr_b = r_r;
            end else begin : g_cb
                assign shr_b = shr_c;
            end

            // saturation
            wire pos_ovf = !shr_b[48] && (shr_b[47:7] != 41'd0);
            wire neg_ovf =  shr_b[48] && (shr_b[47:7] != {41{1'b1}});
            wire [7:0] q_c = pos_ovf ? 8'h7f : neg_ovf ? 8'h80 : shr_b[7:0];

            // stage C: output register
            if (PIPE >= 1) begin : g_rc
                reg [7:0] q_r;
                always @(posedge clk)
                    q_r <= q_c;
                assign o_q[8*l +: 8] = q_r;
            end else begin : g_cc
                assign o_q[8*l +: 8] = q_c;
            end
        end
    endgenerate
endmodule
