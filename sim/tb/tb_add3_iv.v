// kiln_add3 under iverilog, self-checking: s against a + b + c modulo 2^W.
// W <= 6: every (a, b, c); wider: +n=N random triples (seed +seed=S) and
// the corners (all-ones, the sign bits alone).  Built with
// -DKILN_XILINX_PRIMS and sim/tb/xilinx_prims_sub.v it checks the LUT6_2 +
// CARRY8 instances; an X on s fails.  Prints "PASS" or "FAIL ...".
`timescale 1ns / 1ps
module tb_add3_iv;
    parameter integer W = 5;
    reg  [W-1:0] a, b, c;
    wire [W-1:0] s;
    reg  [W-1:0] want;
    integer seed, n, i, bad, checked;
    kiln_add3 #(.W(W)) dut (.a(a), .b(b), .c(c), .s(s));

    task check;
        begin
            #1;
            want = a + b + c;
            checked = checked + 1;
            if (s !== want) begin
                if (bad < 5)
                    $display("FAIL: W=%0d a=%h b=%h c=%h: s=%h, want %h", W, a, b, c, s, want);
                bad = bad + 1;
            end
        end
    endtask

    initial begin
        bad = 0;
        checked = 0;
        if (!$value$plusargs("seed=%d", seed))
            seed = 1;
        if (!$value$plusargs("n=%d", n))
            n = 20000;
        if (W <= 6) begin
            for (i = 0; i < (1 << (3 * W)); i = i + 1) begin
                {a, b, c} = i[3*W-1:0];
                check;
            end
        end else begin
            a = {W{1'b1}}; b = {W{1'b1}}; c = {W{1'b1}}; check;
            a = {1'b1, {(W-1){1'b0}}}; b = a; c = a; check;
            a = {W{1'b1}}; b = 1; c = 0; check;
            for (i = 0; i < n; i = i + 1) begin
                a = {$random(seed), $random(seed)};
                b = {$random(seed), $random(seed)};
                c = {$random(seed), $random(seed)};
                check;
            end
        end
        if (bad == 0)
            $display("PASS: kiln_add3 W=%0d, %0d sums", W, checked);
        else
            $display("FAIL: kiln_add3 W=%0d, %0d of %0d sums wrong", W, bad, checked);
        $finish;
    end
endmodule
