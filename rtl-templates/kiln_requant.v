// kiln_requant: int32 accumulator -> int8 activation, LANES lanes in parallel.
//
// Exactly graphir/requant.h kiln_requant():
//   m    = acc >= 0 ? m_pos : m_neg                 (signed 16 bit)
//   prod = acc * m                                   (signed 48 bit, exact)
//   r    = shift == 0 ? prod : (prod + 2^(shift-1)) >>> shift
//   out  = clamp(clamp(r, -128, 127), QLO, QHI)
// Identity, ReLU (m_neg = 0) and LeakyReLU (m_neg = m_pos * alpha) are the
// same hardware; a Clip fused by the quantizer (ReLU6: QLO = the zero
// point, QHI = 6.0 in the output scale) narrows the final clamp, the
// act_min/act_max of the int8 node (graphir gir_chan_rq).  Bias is not added here: the engines add it when they start
// an accumulation (acc = bias + sum of products).
//
// Rounding without a wide carry chain: with t = (2*prod) >>> shift (floor),
// r = floor((t + 1) / 2) equals the rounded shift above for every shift
// (shift 0 gives t = 2*prod, r = prod), so the only adder is 10 bits wide:
// t outside [-512, 511] saturates by its sign, else r = (t >>> 1) + t[0]
// clamps to int8.
//
// Parameters
//   LANES  lanes (each lane has its own m_pos, m_neg, shift: per output
//          channel scales put the channel's multiplier on its lane)
//   QLO, QHI  output clamp, -128 <= QLO <= QHI <= 127 (default: none)
//   PIPE   register stages 0..4, each one shortens the longest path:
//          1 = output register; 2 = also after the multiply (DSP48E2 MREG/
//          PREG); 3 = also inside the shift (after the shift by 8*shift[5:3]);
//          4 = also at the multiplier input
//          (DSP48E2 AREG/BREG).  0 = combinational.
//   RQ_DSP DSP48E2 a lane's 32x16 product takes: 2 (default) = acc * m in
//          two 27x18 multipliers; 1 = acc[25:0] * m in one, acc[31:26] * m
//          as a 6x16 shift-add in LUTs (same result, same latency, more LUT)
// Ports (lane i at bit slice i of each bus)
//   i_valid, i_acc[32*LANES], i_mpos[16*LANES], i_mneg[16*LANES],
//   i_shift[6*LANES] (0..47)  ->  o_valid, o_q[8*LANES]
// Latency: PIPE cycles (o_valid is i_valid delayed by PIPE); one lane vector
// per cycle, no stall (the caller gates its valid).
// Cycles per frame: n lane vectors take n cycles (+ PIPE).
// Resources per lane: RQ_DSP DSP48E2 (32x16 multiply); LUT (49-bit shifter,
// range check, 10-bit round and clamp) ~365 (PIPE <= 2) or ~263 (PIPE >= 3)
// with RQ_DSP 2; with RQ_DSP 1 the 6x16 high product and its add besides
// (yosys synth_xilinx -family xcup, bench/synth/synth.py kiln_requant
// LANES=4 RQ_DSP=1: 2262 (PIPE 2), 2073 (PIPE 3), 1657 (PIPE 4) LUT against
// 1404, 1105, 1105 with RQ_DSP 2); FF the same: 8 (PIPE>=1) + 54 (>=2) +
// 52 (>=3) + 54 (>=4).
module kiln_requant #(
    parameter integer LANES = 4,
    parameter integer PIPE  = 2,
    parameter integer QLO   = -128,
    parameter integer QHI   = 127,
    parameter integer RQ_DSP = 2
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
    // sv[k]: stage k holds a valid vector (0: the inputs, k: after k
    // registers), the clock enable of the lane registers that load from it,
    // so o_q changes only with o_valid (a Verilator model skips idle lanes)
    /* verilator lint_off UNUSEDSIGNAL */ // PIPE = 0: no registers; sv[PIPE] is o_valid
    wire [PIPE:0] sv;
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (PIPE == 0) begin : g_v0
            assign o_valid = i_valid;
            assign sv = i_valid;
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
            assign sv = {vpipe, i_valid};
        end
    endgenerate

    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            // stage I: multiplier operands
            wire signed [31:0] acc_c = i_acc[32*l +: 32];
            wire signed [15:0] m_c   = acc_c[31] ? i_mneg[16*l +: 16] : i_mpos[16*l +: 16];
            wire signed [31:0] acc_i;
            wire signed [15:0] m_i;
            wire [5:0]         sh_i;
            if (PIPE >= 4) begin : g_ri
                reg signed [31:0] a_r;
                reg signed [15:0] m_r;
                reg [5:0]         s_r;
                always @(posedge clk)
                    if (sv[0]) begin
                        a_r <= acc_c;
                        m_r <= m_c;
                        s_r <= i_shift[6*l +: 6];
                    end
                assign acc_i = a_r;
                assign m_i   = m_r;
                assign sh_i  = s_r;
            end else begin : g_ci
                assign acc_i = acc_c;
                assign m_i   = m_c;
                assign sh_i  = i_shift[6*l +: 6];
            end

            // stage A: product
            wire signed [47:0] prod_c;
            if (RQ_DSP == 1) begin : g_p1
                // ONE DSP48E2: acc = hi * 2^26 + lo with lo = acc[25:0]
                // (unsigned, 27 bits signed: the A port) and hi = acc[31:26]
                // (signed 6 bits):
                //   prod = lo * m + ((hi * m) << 26)
                // lo * m is the DSP's 27x18 multiply; hi * m is six shifted,
                // masked copies of m summed in LUTs (no '*': no second DSP);
                // their sum, exact in 48 bits, adds hi * m to the product's
                // upper 22 bits (the DSP's post-adder could take it through
                // the C port; yosys 0.23 leaves it in fabric).
                wire signed [26:0] lo_i = {1'b0, acc_i[25:0]};
                wire signed [42:0] plo_c = lo_i * m_i;
                wire        [5:0]  hi_i = acc_i[31:26];
                wire signed [21:0] mx = {{6{m_i[15]}}, m_i};
                wire signed [21:0] phi_c = ((hi_i[0] ? mx        : 22'sd0) +
                                            (hi_i[1] ? mx <<< 1  : 22'sd0)) +
                                           ((hi_i[2] ? mx <<< 2  : 22'sd0) +
                                            (hi_i[3] ? mx <<< 3  : 22'sd0)) +
                                           ((hi_i[4] ? mx <<< 4  : 22'sd0) -
                                            (hi_i[5] ? mx <<< 5  : 22'sd0));
                assign prod_c = {{5{plo_c[42]}}, plo_c} + {phi_c, 26'd0};
            end else begin : g_p2
                assign prod_c = acc_i * m_i;
            end
            wire signed [47:0] prod_a;
            wire [5:0]         sh_a;
            if (PIPE >= 2) begin : g_ra
                reg signed [47:0] p_r;
                reg [5:0]         s_r;
                always @(posedge clk)
                    if (sv[(PIPE >= 4) ? 1 : 0]) begin
                        p_r <= prod_c;
                        s_r <= sh_i;
                    end
                assign prod_a = p_r;
                assign sh_a   = s_r;
            end else begin : g_ca
                assign prod_a = prod_c;
                assign sh_a   = sh_i;
            end

            // t = (2*prod) >>> shift in two steps: by 8*shift[5:3], then by
            // shift[2:0]; stage B sits between them
            wire signed [48:0] t1_c = $signed({prod_a, 1'b0}) >>> {sh_a[5:3], 3'b000};
            wire signed [48:0] t1;
            wire [2:0]         sf;
            if (PIPE >= 3) begin : g_rb
                reg signed [48:0] t_r;
                reg [2:0]         s_r;
                always @(posedge clk)
                    if (sv[(PIPE >= 4) ? 2 : 1]) begin
                        t_r <= t1_c;
                        s_r <= sh_a[2:0];
                    end
                assign t1 = t_r;
                assign sf = s_r;
            end else begin : g_cb
                assign t1 = t1_c;
                assign sf = sh_a[2:0];
            end
            wire signed [48:0] t = t1 >>> sf;
            // reduced to 10 bits + out-of-range flag
            wire       big_b = (t[48:9] != {40{t[48]}});
            wire [9:0] t10_b = t[9:0];
            wire       neg_b = t[48];

            // round: r = floor((t + 1) / 2) = (t >>> 1) + t[0], in [-256, 256]
            wire [9:0] r  = {t10_b[9], t10_b[9:1]} + {9'd0, t10_b[0]};
            wire       hi = big_b ? !neg_b : (!r[9] && (r[8:7] != 2'b00));
            wire       lo = big_b ?  neg_b : ( r[9] && (r[8:7] != 2'b11));
            wire [7:0] q_s = hi ? 8'h7f : lo ? 8'h80 : r[7:0];
            // the activation's clamp (constants: nothing when the bounds are
            // the int8 range)
            localparam [7:0] QL = QLO[7:0];
            localparam [7:0] QH = QHI[7:0];
            wire [7:0] q_c = (QLO > -128 && $signed(q_s) < $signed(QL)) ? QL :
                             (QHI < 127 && $signed(q_s) > $signed(QH)) ? QH : q_s;

            // stage C: output register
            if (PIPE >= 1) begin : g_rc
                reg [7:0] q_r;
                always @(posedge clk)
                    if (sv[PIPE-1])
                        q_r <= q_c;
                assign o_q[8*l +: 8] = q_r;
            end else begin : g_cc
                assign o_q[8*l +: 8] = q_c;
            end
        end
    endgenerate
endmodule
