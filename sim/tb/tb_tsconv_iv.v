// tb_tsconv_iv: iverilog (4-state) bench of kiln_tsconv (PE 8x8, KMAX 3,
// WMAX 16, CIMAX = COMAX = 32, DATA_W 128, BURST_MAX 16, MAX_OUT 4: the
// parameters of rtl_tsconv) from the vector file tb_tsconv --vec writes:
// the memory words up to the top, the expected cycles, the memory before the
// run (descriptors at 0x1000, weights, the first input) and after it.  A
// Verilog DDR answers each AR with its burst LAT = 24 cycles later, back to
// back, takes every AW at once and each W beat, and answers B LAT cycles
// after a burst's last W beat (the exact run of tb_tsconv).  Checks: no X on
// any valid/ready/status output after reset nor on W data; at done the whole
// memory equals the C bench's, the cycles from start to done equal its
// (and so the descriptor's), no error, finished = 2.  Prints "PASS ..." or
// "FAIL ...".  Plusargs: +vec=FILE.  Parameters (iverilog -P): PP, RQS,
// SPAN, CIMAX, COMAX, WBANKS, PACK, DSP2X, LBBANK of the engine (those of
// tb_tsconv's build that wrote the vectors; rtl_tsconv's by default).
// clk2x runs at twice clk, both rising together (synchronous,
// edge-aligned); the engine takes it with DSP2X > 0.
`timescale 1ns/1ps
module tb_tsconv_iv #(
    parameter integer PP    = 1,
    parameter integer RQS   = 1,
    parameter integer SPAN  = 0,
    parameter integer CIMAX = 32,
    parameter integer COMAX = 32,
    parameter integer WBANKS = 1,
    parameter integer PACK  = 1,
    parameter integer DSP2X = 0,
    parameter integer LBBANK = 0
);
    localparam integer DW = 128, NB = DW / 8, NW = 1 << 15, QN = 64, LAT = 24;
    reg clk = 0, clk2x = 0, rst = 1;
    reg [31:0] mem  [0:NW-1];
    reg [31:0] want [0:NW-1];
    reg start = 0;
    wire busy, done, error;
    wire [15:0] layer;
    wire [31:0] finished;
    // read masters 0 and 1
    wire       arvalid0, arvalid1, rready0, rready1;
    wire [39:0] araddr0, araddr1;
    wire [7:0] arlen0, arlen1;
    wire [2:0] arsize0, arsize1;
    wire [1:0] arburst0, arburst1;
    reg        rvalid0 = 0, rvalid1 = 0, rlast0 = 0, rlast1 = 0;
    reg [DW-1:0] rdata0 = 0, rdata1 = 0;
    // write master
    wire       awvalid, wvalid, wlast, bready;
    wire [39:0] awaddr;
    wire [7:0] awlen;
    wire [2:0] awsize;
    wire [1:0] awburst;
    wire [DW-1:0] wdata;
    wire [NB-1:0] wstrb;
    reg        bvalid = 0;

    kiln_tsconv #(.PE_IC(8), .PE_OC(8), .KMAX(3), .WMAX(16), .CIMAX(CIMAX), .COMAX(COMAX),
                  .PIPE(1), .RQ_PIPE(2), .DATA_W(DW), .BURST_MAX(16), .MAX_OUT(4), .PP(PP),
                  .RQS(RQS), .SPAN(SPAN), .WBANKS(WBANKS), .PACK(PACK),
                  .DSP2X(DSP2X), .LBBANK(LBBANK)) dut (
        .clk(clk), .clk2x(clk2x), .rst(rst), .cfg_desc_base(40'h1000), .cfg_layers(16'd5),
        .cfg_frames(32'd2),
        .cfg_tbl_base(40'h1000), .cfg_tbl_len(16'd0), .avail(32'hffffffff), .finished(finished),
        .start(start), .busy(busy), .done(done), .error(error), .layer(layer),
        .m0_axi_arvalid(arvalid0), .m0_axi_arready(1'b1), .m0_axi_araddr(araddr0),
        .m0_axi_arlen(arlen0), .m0_axi_arsize(arsize0), .m0_axi_arburst(arburst0),
        .m0_axi_rvalid(rvalid0), .m0_axi_rready(rready0), .m0_axi_rdata(rdata0),
        .m0_axi_rresp(2'b00), .m0_axi_rlast(rlast0),
        .m1_axi_arvalid(arvalid1), .m1_axi_arready(1'b1), .m1_axi_araddr(araddr1),
        .m1_axi_arlen(arlen1), .m1_axi_arsize(arsize1), .m1_axi_arburst(arburst1),
        .m1_axi_rvalid(rvalid1), .m1_axi_rready(rready1), .m1_axi_rdata(rdata1),
        .m1_axi_rresp(2'b00), .m1_axi_rlast(rlast1),
        .m2_axi_awvalid(awvalid), .m2_axi_awready(1'b1), .m2_axi_awaddr(awaddr),
        .m2_axi_awlen(awlen), .m2_axi_awsize(awsize), .m2_axi_awburst(awburst),
        .m2_axi_wvalid(wvalid), .m2_axi_wready(1'b1), .m2_axi_wdata(wdata),
        .m2_axi_wstrb(wstrb), .m2_axi_wlast(wlast), .m2_axi_bvalid(bvalid),
        .m2_axi_bready(bready), .m2_axi_bresp(2'b00),
        // master 3 (WCH 2's second weight master): idle at WCH 1
        .m3_axi_arvalid(), .m3_axi_arready(1'b0), .m3_axi_araddr(), .m3_axi_arlen(),
        .m3_axi_arsize(), .m3_axi_arburst(), .m3_axi_rvalid(1'b0), .m3_axi_rready(),
        .m3_axi_rdata(128'd0), .m3_axi_rresp(2'b00), .m3_axi_rlast(1'b0));

    // clk: period 10, rising at 5, 15, ...; clk2x rises with each clk edge
    always begin
        #2.5 clk2x = 0;
        #2.5 clk2x = 1;
        clk = !clk;
    end

    // read queues: next beat's word address, beats left, cycle its data may go
    reg [31:0] qa0 [0:QN-1], qa1 [0:QN-1];
    integer    ql0 [0:QN-1], ql1 [0:QN-1];
    integer    qt0 [0:QN-1], qt1 [0:QN-1];
    integer    qh0 = 0, qn0 = 0, qh1 = 0, qn1 = 0;
    // write: AW queue, B queue
    reg [31:0] wa [0:QN-1];
    integer    wl [0:QN-1];
    integer    wh = 0, wn = 0;
    integer    bt [0:QN-1];
    integer    bh = 0, bn = 0;
    integer    t = 0, t_done = -1, errors = 0, xs = 0, fd, top, cycles, i, j, k, r;
    reg [8*256-1:0] vfile;

    function [DW-1:0] line;
        input [31:0] wad;
        integer m;
        begin
            for (m = 0; m < NB / 4; m = m + 1)
                line[32*m +: 32] = mem[wad + m];
        end
    endfunction

    initial begin
        if (!$value$plusargs("vec=%s", vfile)) begin
            $display("FAIL no +vec=FILE");
            $finish;
        end
        fd = $fopen(vfile, "r");
        if (fd == 0) begin
            $display("FAIL cannot open %0s", vfile);
            $finish;
        end
        r = $fscanf(fd, "%h\n", top);
        r = $fscanf(fd, "%h\n", cycles);
        if (top > NW) begin
            $display("FAIL %0s: %0d words, the memory holds %0d", vfile, top, NW);
            $finish;
        end
        for (i = 0; i < NW; i = i + 1) begin
            mem[i] = 0;
            want[i] = 0;
        end
        for (i = 0; i < top; i = i + 1)
            r = $fscanf(fd, "%h\n", mem[i]);
        for (i = 0; i < top; i = i + 1)
            r = $fscanf(fd, "%h\n", want[i]);
        $fclose(fd);
        repeat (3) @(posedge clk);
        rst <= 0;
        @(posedge clk);
        start <= 1;
        @(posedge clk);
        start <= 0;
    end

    // the DDR model: handshakes of the cycle that ends at this edge, then
    // the inputs of the next cycle (t counts from the start cycle, 0)
    always @(posedge clk) begin
        if (!rst && (start || t > 0)) begin
            // 4-state: outputs known after reset
            if (^{arvalid0, arvalid1, rready0, rready1, awvalid, wvalid, bready, busy, done,
                  error} === 1'bx) begin
                xs = xs + 1;
                if (xs < 4) $display("X on a handshake or status output at cycle %0d", t);
            end
            if (wvalid === 1'b1 && (^wdata === 1'bx || ^wstrb === 1'bx)) begin
                xs = xs + 1;
                if (xs < 4) $display("X in W data at cycle %0d", t);
            end
            if (done === 1'b1 && t > 0 && t_done < 0)
                t_done = t;
            // AR
            if (arvalid0 === 1'b1) begin
                qa0[(qh0 + qn0) % QN] = araddr0[31:0] / 4;
                ql0[(qh0 + qn0) % QN] = arlen0 + 1;
                qt0[(qh0 + qn0) % QN] = t + LAT;
                qn0 = qn0 + 1;
            end
            if (arvalid1 === 1'b1) begin
                qa1[(qh1 + qn1) % QN] = araddr1[31:0] / 4;
                ql1[(qh1 + qn1) % QN] = arlen1 + 1;
                qt1[(qh1 + qn1) % QN] = t + LAT;
                qn1 = qn1 + 1;
            end
            // R beats taken
            if (rvalid0 && rready0 === 1'b1) begin
                qa0[qh0] = qa0[qh0] + NB / 4;
                ql0[qh0] = ql0[qh0] - 1;
                if (ql0[qh0] == 0) begin
                    qh0 = (qh0 + 1) % QN;
                    qn0 = qn0 - 1;
                end
            end
            if (rvalid1 && rready1 === 1'b1) begin
                qa1[qh1] = qa1[qh1] + NB / 4;
                ql1[qh1] = ql1[qh1] - 1;
                if (ql1[qh1] == 0) begin
                    qh1 = (qh1 + 1) % QN;
                    qn1 = qn1 - 1;
                end
            end
            // AW (always ready), then W into the oldest burst
            if (awvalid === 1'b1) begin
                wa[(wh + wn) % QN] = awaddr[31:0] / 4;
                wl[(wh + wn) % QN] = awlen + 1;
                wn = wn + 1;
            end
            if (wvalid === 1'b1) begin
                if (wn == 0) begin
                    errors = errors + 1;
                    $display("W beat without an AW at cycle %0d", t);
                end else begin
                    for (k = 0; k < NB; k = k + 1)
                        if (wstrb[k])
                            mem[wa[wh] + k / 4][8*(k%4) +: 8] = wdata[8*k +: 8];
                    wa[wh] = wa[wh] + NB / 4;
                    wl[wh] = wl[wh] - 1;
                    if ((wl[wh] == 0) != (wlast === 1'b1)) begin
                        errors = errors + 1;
                        $display("WLAST at the wrong beat at cycle %0d", t);
                    end
                    if (wl[wh] == 0) begin
                        bt[(bh + bn) % QN] = t + LAT;
                        bn = bn + 1;
                        wh = (wh + 1) % QN;
                        wn = wn - 1;
                    end
                end
            end
            if (bvalid && bready === 1'b1) begin
                bh = (bh + 1) % QN;
                bn = bn - 1;
            end
            t = t + 1;
            // inputs of cycle t
            rvalid0 <= qn0 > 0 && qt0[qh0] <= t;
            rlast0  <= qn0 > 0 && ql0[qh0] == 1;
            rdata0  <= qn0 > 0 ? line(qa0[qh0]) : {DW{1'b0}};
            rvalid1 <= qn1 > 0 && qt1[qh1] <= t;
            rlast1  <= qn1 > 0 && ql1[qh1] == 1;
            rdata1  <= qn1 > 0 ? line(qa1[qh1]) : {DW{1'b0}};
            bvalid  <= bn > 0 && bt[bh] <= t;
            if (t_done >= 0 || t > 4 * cycles + 1000) begin
                for (j = 0; j < top; j = j + 1)
                    if (mem[j] !== want[j]) begin
                        errors = errors + 1;
                        if (errors < 5)
                            $display("mem[%h]: got %h want %h", 4 * j, mem[j], want[j]);
                    end
                if (t_done != cycles) begin
                    errors = errors + 1;
                    $display("cycles %0d, the Verilator run and the descriptor: %0d", t_done,
                             cycles);
                end
                if (error !== 1'b0 || finished !== 32'd2)
                    errors = errors + 1;
                if (errors == 0 && xs == 0)
                    $display("PASS %0d words, %0d cycles", top, t_done);
                else
                    $display("FAIL %0d mismatches, %0d X", errors, xs);
                $finish;
            end
        end
    end
endmodule
