// tb_stream_iv: iverilog bench of one stream engine (kiln_maxpool, kiln_concat
// or kiln_add, chosen by -DKILN_IV_MAXPOOL / -DKILN_IV_CONCAT / -DKILN_IV_ADD)
// driven by a vector file its C bench writes (tb_<engine> --vec FILE, format
// in sim/tb/tb_stream.h tbs_write_vec).  4-state checks: every output beat
// equals the reference and has no X/Z bit; valid/ready are never X after
// reset; random valid/ready back-pressure from $random(seed) when +bp=1.
// Prints "PASS n beats" or "FAIL ...".  Plusargs: +vec=FILE, +seed=N, +bp=0|1.
// Parameters must match the Verilator build that wrote the file (LANES 8).
`timescale 1ns/1ps
module tb_stream_iv;
    localparam integer LANES = 8, W = 8 * LANES, NMAX = 1 << 16, D0 = 16;
    reg clk = 0, rst = 1;
    reg [63:0] vec [0:NMAX-1];
    reg a_valid = 0, b_valid = 0, m_ready = 0;
    reg [W-1:0] a_data = 0, b_data = 0;
    wire a_ready, b_ready, m_valid;
    wire [W-1:0] m_data;
    integer n_a, n_b, n_o, ai, bi, oi, errors, cyc, seed, bp;
    reg [1023:0] file;

`ifdef KILN_IV_MAXPOOL
    kiln_maxpool #(.LANES(LANES), .K_MAX(3), .CG_MAX(8), .ROW_MAX(256)) dut (
        .clk(clk), .rst(rst),
        .cfg_h(vec[0][15:0]), .cfg_w(vec[1][15:0]), .cfg_cg(vec[2][15:0]),
        .cfg_k(vec[3][7:0]), .cfg_s(vec[4][7:0]), .cfg_pad(vec[5][7:0]),
        .cfg_oh(vec[6][15:0]), .cfg_ow(vec[7][15:0]),
        .s_tvalid(a_valid), .s_tready(a_ready), .s_tdata(a_data),
        .m_tvalid(m_valid), .m_tready(m_ready), .m_tdata(m_data));
    assign b_ready = 1'b0;
`elsif KILN_IV_CONCAT
    kiln_concat #(.LANES(LANES)) dut (
        .clk(clk), .rst(rst), .cfg_ca(vec[1][15:0]), .cfg_cb(vec[2][15:0]),
        .s_a_tvalid(a_valid), .s_a_tready(a_ready), .s_a_tdata(a_data),
        .s_b_tvalid(b_valid), .s_b_tready(b_ready), .s_b_tdata(b_data),
        .m_tvalid(m_valid), .m_tready(m_ready), .m_tdata(m_data));
`else
    kiln_add #(.LANES(LANES)) dut (
        .clk(clk), .rst(rst), .cfg_ma(vec[1][15:0]), .cfg_mb(vec[2][15:0]),
        .cfg_shift(vec[3][5:0]),
        .s_a_tvalid(a_valid), .s_a_tready(a_ready), .s_a_tdata(a_data),
        .s_b_tvalid(b_valid), .s_b_tready(b_ready), .s_b_tdata(b_data),
        .m_tvalid(m_valid), .m_tready(m_ready), .m_tdata(m_data));
`endif

    always #5 clk = !clk;

    initial begin
        if (!$value$plusargs("vec=%s", file)) begin
            $display("FAIL no +vec=FILE");
            $finish;
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("bp=%d", bp)) bp = 0;
        $readmemh(file, vec);
        n_a = vec[12]; n_b = vec[13]; n_o = vec[14];
        ai = 0; bi = 0; oi = 0; errors = 0; cyc = 0;
        repeat (3) @(posedge clk);
        #1 rst = 0;
        while ((oi < n_o || ai < n_a || bi < n_b) && cyc < 200000) begin
            a_valid = (ai < n_a) && (!bp || ($random(seed) & 1));
            a_data  = a_valid ? vec[D0 + ai] : {W{1'bx}};
            b_valid = (bi < n_b) && (!bp || ($random(seed) & 1));
            b_data  = b_valid ? vec[D0 + n_a + bi] : {W{1'bx}};
            m_ready = !bp || ($random(seed) & 1);
            #1;
            if (^{m_valid, a_ready, b_ready} === 1'bx) begin
                $display("FAIL X on a handshake at cycle %0d", cyc);
                errors = errors + 1;
            end
            @(posedge clk);
            if (a_valid && a_ready) ai = ai + 1;
            if (b_valid && b_ready) bi = bi + 1;
            if (m_valid && m_ready) begin
                if (oi >= n_o || ^m_data === 1'bx || m_data !== vec[D0 + n_a + n_b + oi]) begin
                    if (errors < 8)
                        $display("FAIL out[%0d] got %h want %h", oi, m_data,
                                 vec[D0 + n_a + n_b + oi]);
                    errors = errors + 1;
                end
                oi = oi + 1;
            end
            #1;
            cyc = cyc + 1;
        end
        // a few idle cycles: no extra beat may appear
        m_ready = 1;
        a_valid = 0;
        b_valid = 0;
        repeat (20) begin
            #1;
            if (m_valid !== 1'b0) begin
                $display("FAIL extra or X output beat after the frame");
                errors = errors + 1;
            end
            @(posedge clk);
        end
        if (oi != n_o || ai != n_a || bi != n_b) begin
            $display("FAIL timeout: out %0d of %0d, in %0d/%0d %0d/%0d", oi, n_o, ai, n_a, bi, n_b);
            errors = errors + 1;
        end
        if (errors == 0)
            $display("PASS %0d beats %0d cycles bp %0d", n_o, cyc, bp);
        $finish;
    end
endmodule
