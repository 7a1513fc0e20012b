// RUN: iverilog -g2005 -P tb_rq_stage.PIPE=2 tb_rq_stage_iv.v kiln_rq_stage.v kiln_requant.v
//      kiln_fifo.v && vvp a.out
// kiln_rq_stage against graphir/requant.h kiln_requant(x, m, m, shift),
// written out here in 64-bit integers: N beats of random int8 lanes with
// random valid and ready (BP percent), multipliers of both signs, shifts
// 8..23 or SHIFT (a new (m, shift) per run, SEED).  Every output lane equal, order
// kept, no beat lost or duplicated, no X.  Prints "PASS".
`timescale 1ns/1ps
module tb_rq_stage;
    parameter LANES = 4;
    parameter PIPE  = 2;
    parameter N     = 400;
    parameter BP    = 60;
    parameter SEED  = 1;
    parameter SHIFT = -1;      // -1: random in 8..23 (outputs spread over int8)

    reg clk = 1'b0, rst = 1'b1;
    always #5 clk = ~clk;
    integer seed = SEED;

    reg  [15:0]        m;
    reg  [5:0]         sh;
    reg                s_tvalid, m_tready;
    wire               s_tready, m_tvalid;
    reg  [8*LANES-1:0] s_tdata;
    wire [8*LANES-1:0] m_tdata;
    reg  [8*LANES-1:0] in_q [0:N-1];

    kiln_rq_stage #(.LANES(LANES), .PIPE(PIPE)) dut (
        .clk(clk), .rst(rst), .cfg_m(m), .cfg_shift(sh),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata));

    function chance;
        input integer pct;
        begin
            chance = ($random(seed) % 100 + 100) % 100 < pct;
        end
    endfunction

    // kiln_requant(x, m, m, shift): rounding right shift, saturate to int8
    function [7:0] rq;
        input [7:0] x;
        input [15:0] mm;
        input [5:0] s;
        reg signed [63:0] p, r;
        begin
            p = $signed({{56{x[7]}}, x}) * $signed({{48{mm[15]}}, mm});
            r = s == 0 ? p : (p + (64'sd1 <<< (s - 1))) >>> s;
            rq = r > 127 ? 8'd127 : r < -128 ? 8'h80 : r[7:0];
        end
    endfunction

    integer sent = 0, got = 0, errors = 0, k, guard = 0;
    always @(posedge clk) begin
        if (!rst) begin
            if (s_tvalid && s_tready)
                sent = sent + 1;
            if (m_tvalid && m_tready) begin
                if (^m_tdata === 1'bx) errors = errors + 1;
                for (k = 0; k < LANES; k = k + 1)
                    if (m_tdata[8*k +: 8] !== rq(in_q[got][8*k +: 8], m, sh)) begin
                        if (errors < 5)
                            $display("FAIL: beat %0d lane %0d: %0d, expected %0d", got, k,
                                     $signed(m_tdata[8*k +: 8]), $signed(rq(in_q[got][8*k +: 8], m, sh)));
                        errors = errors + 1;
                    end
                got = got + 1;
            end
            if (!s_tvalid || s_tready) begin
                s_tvalid <= sent < N && chance(BP);
                s_tdata  <= in_q[sent < N ? sent : 0];
            end
            m_tready <= chance(BP);
        end
    end

    integer i;
    initial begin
        for (i = 0; i < N; i = i + 1)
            in_q[i] = {$random(seed), $random(seed), $random(seed), $random(seed)};
        m  = $random(seed);
        sh = SHIFT >= 0 ? SHIFT : (($random(seed) % 16) + 16) % 16 + 8;
        s_tvalid = 1'b0;
        m_tready = 1'b0;
        s_tdata  = 0;
        repeat (3) @(posedge clk);
        rst <= 1'b0;
        while (got < N && guard < 100 * N) begin
            @(posedge clk);
            guard = guard + 1;
        end
        repeat (10) @(posedge clk);
        if (got != N || sent != N)
            $display("FAIL: sent %0d, received %0d of %0d beats", sent, got, N);
        else if (errors == 0)
            $display("PASS: %0d beats of %0d lanes, m %0d, shift %0d, PIPE %0d", N, LANES,
                     $signed(m), sh, PIPE);
        else
            $display("FAIL: %0d errors", errors);
        $finish;
    end
endmodule
