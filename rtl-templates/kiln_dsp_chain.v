// kiln_dsp_chain: dot product of N int8 x int8 products summed in a systolic
// chain of DSP48E2 slices (PCOUT -> PCIN), so the sum costs no fabric adders.
//
// Ports
//   clk                        clock
//   rst                        active-high synchronous reset (m_valid only;
//                              the datapath has none, as the DSP48E2's RST*
//                              are tied 0)
//   ce                         clock enable of every register (the DSP48E2's
//                              CEA*/CEB*/CEM/CEP): with ce 0 the chain holds
//   s_valid                    marks the operands of this cycle (ce 1)
//   a[8*N-1:0], b[8*N-1:0]     lane i = bits [8*i+7:8*i], signed int8, the
//                              operands of product i = a_i * b_i (kiln_conv's:
//                              activation x weight)
//   m_valid, p[PW-1:0]         the sum of the N products, signed, low PW bits
//                              of the 48-bit P (exact while N*2^14 < 2^(PW-1))
//
// Parameters
//   N       products (slices), >= 1
//   PW      output width (1..48; 32: kiln_conv's int32 accumulator)
//   ISKEW   1: the operands of all lanes arrive in the same cycle and the
//           module delays lane i by i cycles (lane i, i >= 1: i-1 fabric
//           registers + the DSP48E2's second A/B input register, AREG = BREG
//           = 2).  0: the caller skews them, lane i's operands i cycles after
//           lane 0's (ce cycles), e.g. one activation delay line shared by
//           several chains; every slice then has AREG = BREG = 1
//
// Slice i: A/B input registers, M (product) register, P = M + PCIN of slice
// i-1 (slice 0: P = M), OPMODE W=0 Z=PCIN|0 Y=M X=M, ALUMODE 0000 (add),
// fixed (no OPMODE/ALUMODE/INMODE/CARRYIN registers).  P of slice i holds
// the sum of products 0..i of one operand set one cycle after slice i-1's.
//
// Latency: lane 0's operands (s_valid, ce 1) in cycle t, their sum on p with
//   m_valid in cycle t + LAT, LAT = N + 2 (counting ce-1 cycles); one dot
//   product per cycle.
// Resources: DSP48E2 = N; LUT 0 for the sum (the adds are the DSPs' ALUs);
//   FF: ISKEW 1 16*(N-1)*(N-2)/2 for the input delay lines + LAT for
//   m_valid; ISKEW 0 LAT.  yosys (synth_xilinx -family xcup) maps the delays
//   of 3 and more to SRL16E/SRLC32E: N > 4, ISKEW 1: LUT 16*(N-4), FF 48 +
//   LAT (N = 8, 16; 64 + LAT at N = 32: a delay of 17 is an SRL16E and a
//   flip-flop) (bench/synth/dsp_chain_synth.py).
//
// `define KILN_DSP48E2 instantiates the DSP48E2 primitive (UG579) for
// synthesis; otherwise a behavioural model with the same registers and cycle
// behaviour serves Verilator and iverilog.  yosys 0.23 does not map a chain
// of registered post-adders to PCIN cascades for -family xcup (the adds stay
// in LUTs and CARRY chains), hence the instance.
module kiln_dsp_chain #(
    parameter integer N     = 8,
    parameter integer PW    = 32,
    parameter integer ISKEW = 1
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire                 ce,
    input  wire                 s_valid,
    input  wire [8*N-1:0]       a,
    input  wire [8*N-1:0]       b,
    output wire                 m_valid,
    output wire signed [PW-1:0] p
);
    localparam integer LAT = N + 2;

    reg [LAT-1:0] vpipe;
    always @(posedge clk)
        if (rst)
            vpipe <= {LAT{1'b0}};
        else if (ce)
            vpipe <= {vpipe[LAT-2:0], s_valid};
    assign m_valid = vpipe[LAT-1];

    // the cascade: pc[i] is slice i's PCOUT (pc[0] = 0 feeds slice 0's PCIN)
    wire [47:0] pc [0:N];
    assign pc[0] = 48'd0;
    assign p = pc[N][PW-1:0];

    genvar i;
    generate
        for (i = 0; i < N; i = i + 1) begin : g_slice
            // fabric delay (ISKEW 1, i >= 2: i-1 registers), then the DSP's
            // AR input registers
            localparam integer FD = (ISKEW != 0 && i >= 2) ? i - 1 : 0;
            localparam integer AR = (ISKEW != 0 && i >= 1) ? 2 : 1;
            wire [7:0] ai, bi;
            if (FD == 0) begin : g_nodl
                assign ai = a[8*i+7:8*i];
                assign bi = b[8*i+7:8*i];
            end else begin : g_dl
                // lane i's operands, newest in the low byte
                reg [8*FD-1:0] da, db;
                if (FD == 1) begin : g_one
                    always @(posedge clk)
                        if (ce) begin
                            da <= a[8*i+7:8*i];
                            db <= b[8*i+7:8*i];
                        end
                end else begin : g_more
                    always @(posedge clk)
                        if (ce) begin
                            da <= {da[8*FD-9:0], a[8*i+7:8*i]};
                            db <= {db[8*FD-9:0], b[8*i+7:8*i]};
                        end
                end
                assign ai = da[8*FD-1:8*FD-8];
                assign bi = db[8*FD-1:8*FD-8];
            end
`ifdef KILN_DSP48E2
            // OPMODE {W, Z, Y, X}: W = 00 (0), Z = 001 (PCIN) or 000 (0),
            // Y = 01 (M), X = 01 (M)
            localparam [8:0] OPM = (i == 0) ? 9'b00_000_01_01 : 9'b00_001_01_01;
            /* verilator lint_off PINCONNECTEMPTY */
            DSP48E2 #(
                .AREG(AR), .ACASCREG(AR), .BREG(AR), .BCASCREG(AR),
                .MREG(1), .PREG(1), .CREG(0), .DREG(0), .ADREG(0),
                .INMODEREG(0), .OPMODEREG(0), .ALUMODEREG(0),
                .CARRYINREG(0), .CARRYINSELREG(0),
                .A_INPUT("DIRECT"), .B_INPUT("DIRECT"),
                .AMULTSEL("A"), .BMULTSEL("B"), .PREADDINSEL("A"),
                .USE_MULT("MULTIPLY"), .USE_SIMD("ONE48"),
                .USE_PATTERN_DETECT("NO_PATDET"), .USE_WIDEXOR("FALSE")
            ) u_dsp (
                .CLK(clk),
                .A({{22{ai[7]}}, ai}), .B({{10{bi[7]}}, bi}),
                .C(48'd0), .D(27'd0),
                .ACIN(30'd0), .BCIN(18'd0), .PCIN(pc[i]),
                .CARRYCASCIN(1'b0), .MULTSIGNIN(1'b0),
                .CARRYIN(1'b0), .CARRYINSEL(3'b000),
                .OPMODE(OPM), .ALUMODE(4'b0000), .INMODE(5'b00000),
                .CEA1(ce), .CEA2(ce), .CEB1(ce), .CEB2(ce),
                .CEM(ce), .CEP(ce),
                .CEAD(1'b0), .CEC(1'b0), .CED(1'b0), .CECARRYIN(1'b0),
                .CECTRL(1'b0), .CEINMODE(1'b0), .CEALUMODE(1'b0),
                .RSTA(1'b0), .RSTB(1'b0), .RSTC(1'b0), .RSTD(1'b0),
                .RSTM(1'b0), .RSTP(1'b0), .RSTCTRL(1'b0),
                .RSTINMODE(1'b0), .RSTALUMODE(1'b0), .RSTALLCARRYIN(1'b0),
                .PCOUT(pc[i+1]), .P(),
                .ACOUT(), .BCOUT(), .CARRYCASCOUT(), .CARRYOUT(),
                .MULTSIGNOUT(), .OVERFLOW(), .UNDERFLOW(),
                .PATTERNDETECT(), .PATTERNBDETECT(), .XOROUT()
            );
            /* verilator lint_on PINCONNECTEMPTY */
`else
            // the same registers: A1/B1 (AR = 2 only), A2/B2, M, P
            reg signed [7:0]  ra2, rb2;
            reg signed [15:0] rm;
            reg        [47:0] rp;
            if (AR == 2) begin : g_ar2
                reg signed [7:0] ra1, rb1;
                always @(posedge clk)
                    if (ce) begin
                        ra1 <= ai;
                        rb1 <= bi;
                        ra2 <= ra1;
                        rb2 <= rb1;
                    end
            end else begin : g_ar1
                always @(posedge clk)
                    if (ce) begin
                        ra2 <= ai;
                        rb2 <= bi;
                    end
            end
            always @(posedge clk)
                if (ce) begin
                    rm <= ra2 * rb2;
                    rp <= {{32{rm[15]}}, rm} + pc[i];
                end
            assign pc[i+1] = rp;
`endif
        end
    endgenerate
endmodule
