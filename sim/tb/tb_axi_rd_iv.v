// tb_axi_rd_iv: iverilog bench of kiln_axi_rd (DATA_W 128, BURST_MAX 64,
// MAX_OUT 4) with a Verilog DDR responder, driven by the vector file that
// tb_axi_rd --vec writes: base, bytes, latency, the memory words from base
// on, the expected stream beats.  The responder takes ARs (random ARREADY
// when +bp=1), checks each burst (INCR, full-width size, <= 64 beats, no
// 4 KiB crossing, contiguous) and returns its beats in order after the
// latency, with random RVALID gaps when +bp=1 (valid and data held until
// taken).  4-state checks: stream beats equal the reference with no X/Z;
// no X on any valid/ready/status output after reset; done at the end.
// Prints "PASS n beats" or "FAIL ...".  Plusargs: +vec=FILE, +seed=N, +bp=0|1.
`timescale 1ns/1ps
module tb_axi_rd_iv;
    localparam integer DW = 128, NB = DW / 8, BMAX = 64, NMAX = 1 << 14, QN = 64;
    reg clk = 0, rst = 1;
    reg [DW-1:0] vec [0:NMAX-1];
    reg [39:0] cfg_base = 0;
    reg [31:0] cfg_bytes = 0;
    reg start = 0;
    wire busy, done, error;
    wire arvalid;
    reg  arready = 0;
    wire [39:0] araddr;
    wire [7:0] arlen;
    wire [2:0] arsize;
    wire [1:0] arburst;
    reg  rvalid = 0;
    wire rready;
    reg  [DW-1:0] rdata = 0;
    reg  [1:0] rresp = 0;
    reg  rlast = 0;
    wire m_tvalid;
    reg  m_tready = 0;
    wire [DW-1:0] m_tdata;

    kiln_axi_rd #(.DATA_W(DW), .ADDR_W(40), .BURST_MAX(BMAX), .MAX_OUT(4)) dut (
        .clk(clk), .rst(rst), .cfg_base(cfg_base), .cfg_bytes(cfg_bytes), .start(start),
        .busy(busy), .done(done), .error(error),
        .m_axi_arvalid(arvalid), .m_axi_arready(arready), .m_axi_araddr(araddr),
        .m_axi_arlen(arlen), .m_axi_arsize(arsize), .m_axi_arburst(arburst),
        .m_axi_rvalid(rvalid), .m_axi_rready(rready), .m_axi_rdata(rdata),
        .m_axi_rresp(rresp), .m_axi_rlast(rlast),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata));

    always #5 clk = !clk;

    reg [39:0] q_addr [0:QN-1];
    integer q_len [0:QN-1];
    integer q_t [0:QN-1];
    integer qh, qn, beat, n, oi, errors, cyc, seed, bp, lat, widx;
    reg [39:0] base, next_addr;
    reg [1023:0] file;

    initial begin
        if (!$value$plusargs("vec=%s", file)) begin
            $display("FAIL no +vec=FILE");
            $finish;
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("bp=%d", bp)) bp = 0;
        $readmemh(file, vec);
        base = vec[0][39:0];
        lat = vec[2];
        n = (vec[1] + NB - 1) / NB;
        next_addr = base;
        qh = 0; qn = 0; beat = 0; oi = 0; errors = 0; cyc = 0;
        repeat (3) @(posedge clk);
        #1 rst = 0;
        while ((oi < n || !done) && cyc < 100000) begin
            start     = cyc == 2;
            cfg_base  = base;
            cfg_bytes = vec[1][31:0];
            arready   = !bp || ($random(seed) & 1);
            if (!(rvalid && !rready)) begin
                rvalid = qn > 0 && cyc >= q_t[qh] && (!bp || ($random(seed) & 1));
                if (rvalid) begin
                    widx  = (q_addr[qh] - base) / NB + beat;
                    rdata = vec[3 + widx];
                    rlast = beat == q_len[qh] - 1;
                    rresp = 2'b00;
                end else begin
                    rdata = {DW{1'bx}};
                    rlast = 1'bx;
                    rresp = 2'bxx;
                end
            end
            m_tready = !bp || ($random(seed) & 1);
            #1;
            if (^{arvalid, rready, m_tvalid, busy, done, error} === 1'bx) begin
                $display("FAIL X on a handshake or status at cycle %0d", cyc);
                errors = errors + 1;
            end
            @(posedge clk);
            if (arvalid && arready) begin
                if (^{araddr, arlen} === 1'bx || arburst != 2'b01 || arsize != 3'd4
                    || arlen + 1 > BMAX || araddr != next_addr
                    || araddr[11:0] + (arlen + 1) * NB > 4096 || qn == QN) begin
                    $display("FAIL bad AR addr %h len %0d (want %h)", araddr, arlen + 1, next_addr);
                    errors = errors + 1;
                end
                next_addr = araddr + (arlen + 1) * NB;
                q_addr[(qh + qn) % QN] = araddr;
                q_len[(qh + qn) % QN] = arlen + 1;
                q_t[(qh + qn) % QN] = cyc + lat;
                qn = qn + 1;
            end
            if (rvalid && rready) begin
                beat = beat + 1;
                if (beat == q_len[qh]) begin
                    beat = 0;
                    qh = (qh + 1) % QN;
                    qn = qn - 1;
                end
            end
            if (m_tvalid && m_tready) begin
                if (oi >= n || ^m_tdata === 1'bx || m_tdata !== vec[3 + n + oi]) begin
                    if (errors < 8)
                        $display("FAIL out[%0d] got %h want %h", oi, m_tdata, vec[3 + n + oi]);
                    errors = errors + 1;
                end
                oi = oi + 1;
            end
            #1;
            cyc = cyc + 1;
        end
        if (oi != n || !done || error) begin
            $display("FAIL end: %0d of %0d beats, done %b error %b", oi, n, done, error);
            errors = errors + 1;
        end
        if (errors == 0)
            $display("PASS %0d beats %0d cycles bp %0d", n, cyc, bp);
        $finish;
    end
endmodule
