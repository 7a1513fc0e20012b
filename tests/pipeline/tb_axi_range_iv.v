// RUN: iverilog -g2005 tb_axi_range_iv.v kiln_axi_rd.v kiln_axi_wr.v kiln_fifo.v && vvp a.out
// kiln_axi_rd and kiln_axi_wr with CNT_W = 12 (DATA_W 64): a transfer of
// 2^12 - 1 beats starts (busy, no error); one of 2^12 beats, or a writer row
// of 2^12 beats, is refused: done and error the cycle after start, never
// busy, no AR or AW, the writer's s_tready never high.  Prints "PASS".
`timescale 1ns/1ps
module tb_axi_range;
    localparam integer NB = 8, CW = 12;
    reg clk = 1'b0, rst = 1'b1;
    always #5 clk = ~clk;
    reg  [31:0] bytes = 32'd0, row_beats = 32'd0;
    reg  start = 1'b0;
    wire r_busy, r_done, r_err, w_busy, w_done, w_err;
    wire arvalid, awvalid, wvalid, wlast, rready, bready, s_tready;
    wire [39:0] araddr, awaddr;
    wire [7:0]  arlen, awlen;
    wire [2:0]  arsize, awsize;
    wire [1:0]  arburst, awburst;
    wire [63:0] m_tdata, wdata;
    wire [7:0]  wstrb;
    wire        m_tvalid;
    kiln_axi_rd #(.DATA_W(64), .ADDR_W(40), .BURST_MAX(16), .MAX_OUT(4), .CNT_W(CW)) u_rd (
        .clk(clk), .rst(rst), .cfg_base(40'h1000), .cfg_bytes(bytes), .start(start),
        .busy(r_busy), .done(r_done), .error(r_err),
        .m_axi_arvalid(arvalid), .m_axi_arready(1'b0), .m_axi_araddr(araddr),
        .m_axi_arlen(arlen), .m_axi_arsize(arsize), .m_axi_arburst(arburst),
        .m_axi_rvalid(1'b0), .m_axi_rready(rready), .m_axi_rdata(64'd0),
        .m_axi_rresp(2'b00), .m_axi_rlast(1'b0),
        .m_tvalid(m_tvalid), .m_tready(1'b1), .m_tdata(m_tdata));
    kiln_axi_wr #(.DATA_W(64), .ADDR_W(40), .BURST_MAX(16), .MAX_OUT(4), .CNT_W(CW)) u_wr (
        .clk(clk), .rst(rst), .cfg_base(40'h8000), .cfg_bytes(bytes),
        .cfg_row_beats(row_beats), .cfg_row_stride(32'd0), .start(start),
        .busy(w_busy), .done(w_done), .error(w_err),
        .s_tvalid(1'b1), .s_tready(s_tready), .s_tdata(64'd0),
        .m_axi_awvalid(awvalid), .m_axi_awready(1'b0), .m_axi_awaddr(awaddr),
        .m_axi_awlen(awlen), .m_axi_awsize(awsize), .m_axi_awburst(awburst),
        .m_axi_wvalid(wvalid), .m_axi_wready(1'b0), .m_axi_wdata(wdata),
        .m_axi_wstrb(wstrb), .m_axi_wlast(wlast),
        .m_axi_bvalid(1'b0), .m_axi_bready(bready), .m_axi_bresp(2'b00));

    integer errors = 0, k;
    reg rd_moved, wr_moved;
    always @(posedge clk) begin
        if (arvalid || r_busy) rd_moved <= 1'b1;
        if (awvalid || s_tready || w_busy) wr_moved <= 1'b1;
    end

    // one start after a reset; a refused master must show done + error and
    // have moved nothing, one that takes the transfer must be busy, no error
    task check;
        input refused, done, err, busy, moved;
        input [8*2-1:0] who;
        begin
            if (refused ? !(done && err && !moved) : !(busy && !err && !done)) begin
                $display("FAIL: %s %0d bytes, row %0d: done %b error %b busy %b moved %b, expected %s",
                         who, bytes, row_beats, done, err, busy, moved, refused ? "refused" : "running");
                errors = errors + 1;
            end
        end
    endtask
    task run;
        input [31:0] b, rb;
        input rd_refused, wr_refused;
        begin
            rst <= 1'b1; bytes <= b; row_beats <= rb;
            repeat (2) @(posedge clk);
            rst <= 1'b0; rd_moved <= 1'b0; wr_moved <= 1'b0;
            @(posedge clk);
            start <= 1'b1;
            @(posedge clk);
            start <= 1'b0;
            for (k = 0; k < 20; k = k + 1) @(posedge clk);
            check(rd_refused, r_done, r_err, r_busy, rd_moved, "rd");
            check(wr_refused, w_done, w_err, w_busy, wr_moved, "wr");
        end
    endtask

    initial begin
        run(((1 << CW) - 1) * NB, 0, 0, 0);    // the most beats that fit
        run((1 << CW) * NB, 0, 1, 1);          // one beat more
        run((1 << CW) * NB - 1, 0, 1, 1);      // its last beat partial
        run(64 * NB, 1 << CW, 0, 1);           // a writer row beyond the counters
        run(64 * NB, (1 << CW) - 1, 0, 0);     // the longest row that fits
        if (errors == 0)
            $display("PASS: CNT_W %0d: %0d beats start, %0d are refused", CW, (1 << CW) - 1, 1 << CW);
        $finish;
    end
endmodule
