// kiln_dsp_chain under iverilog (4-state), self-checking: random operand
// vectors (1 in 8 all -128 x -128, 1 in 8 all -128 x 127), random ce and
// s_valid; each cycle m_valid and p are compared with a dot product in the
// bench and the exact latency LAT = N + 2 (enabled edges), as in
// tb_dsp_chain.c.  Compiled with -DKILN_DSP48E2 and sim/tb/dsp48e2_sub.v it
// runs the DSP48E2 instances, without it the behavioural model.  Prints one
// line with PASS or FAIL.
//   vvp tb_dsp_chain_iv.vvp [+seed=N] [+cycles=N]
`timescale 1ns / 1ps
module tb_dsp_chain_iv;
    parameter integer N = 8;
    parameter integer MAXC = 20000;
    localparam integer LAT = N + 2;

    reg               clk = 1'b0, rst = 1'b1, ce = 1'b1, s_valid = 1'b0;
    reg  [8*N-1:0]    a = 0, b = 0;
    wire              m_valid;
    wire signed [31:0] p;

    kiln_dsp_chain #(.N(N), .PW(32), .ISKEW(1)) dut (
        .clk(clk), .rst(rst), .ce(ce), .s_valid(s_valid), .a(a), .b(b),
        .m_valid(m_valid), .p(p));

    always #5 clk = ~clk;

    // per enabled edge (from 1): s_valid and the dot product presented
    reg               vals [0:MAXC];
    reg signed [31:0] sums [0:MAXC];
    reg signed [7:0]  ai, bi;
    reg signed [31:0] s;
    integer seed, cycles, cyc, e, k, i, kind, errs, outs, wv;

    initial begin
        seed = 1;
        cycles = 4000;
        if ($value$plusargs("seed=%d", seed)) ;
        if ($value$plusargs("cycles=%d", cycles)) ;
        if (cycles > MAXC - LAT) cycles = MAXC - LAT;
        errs = 0;
        outs = 0;
        e = 0;
        @(negedge clk);
        @(negedge clk);
        rst = 1'b0;
        for (cyc = 0; cyc < cycles; cyc = cyc + 1) begin
            ce = ($random(seed) & 3) != 0;
            s_valid = ($random(seed) & 3) != 0;
            kind = $random(seed) & 7;
            s = 0;
            for (i = 0; i < N; i = i + 1) begin
                if (kind == 0) begin
                    ai = -8'sd128;
                    bi = -8'sd128;
                end else if (kind == 1) begin
                    ai = -8'sd128;
                    bi = 8'sd127;
                end else begin
                    ai = $random(seed);
                    bi = $random(seed);
                end
                a[8*i +: 8] = ai;
                b[8*i +: 8] = bi;
                s = s + ai * bi;
            end
            #1;
            k = e - LAT + 1;
            wv = (k >= 1) ? vals[k] : 0;
            if (m_valid !== wv) begin
                errs = errs + 1;
                if (errs < 5) $display("cycle %0d: m_valid %b, want %0d", cyc, m_valid, wv);
            end else if (wv && p !== sums[k]) begin
                errs = errs + 1;
                if (errs < 5) $display("cycle %0d: p %0d, want %0d", cyc, p, sums[k]);
            end
            if (wv && ce) outs = outs + 1;
            if (ce) begin
                e = e + 1;
                vals[e] = s_valid;
                sums[e] = s;
            end
            @(negedge clk);
        end
`ifdef KILN_DSP48E2
        $write("kiln_dsp_chain N %0d (DSP48E2 instances): ", N);
`else
        $write("kiln_dsp_chain N %0d (behavioural): ", N);
`endif
        if (errs == 0 && outs > cycles / 4)
            $display("PASS, %0d sums in %0d cycles", outs, cycles);
        else
            $display("FAIL, %0d mismatches, %0d sums in %0d cycles", errs, outs, cycles);
        $finish;
    end
endmodule
