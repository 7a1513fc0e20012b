// RUN: iverilog -g2005 -P tb_chan.LANES=4 ... tb_chan_iv.v kiln_rd_chan.v kiln_wr_chan.v kiln_chan_reps.v
//      kiln_axi_rd.v kiln_axi_wr.v kiln_width.v kiln_fifo.v && vvp a.out
// DMA channel loopback: kiln_rd_chan reads REPS repetitions of BYTES bytes
// (BEATS stream beats of LANES lanes, the rest padding) from a DDR model at
// SRC + r*STRIDE, each SUBS times (sub-runs at stride 0, as a weight-tiled
// conv reads its input); its stream feeds kiln_wr_chan, which writes sub-run
// s of repetition r to DST + r*SUBS*BYTES + s*BYTES, or, with ROWB > 0, in
// rows of ROWB bus beats at s*ROWB*NB, row to row SUBS*ROWB*NB bytes apart
// (a tile's channels into every pixel).  GATE = 1: the reader's `avail`
// rises one frame at a time at random moments and no frame may start
// before it; both channels must count REPS finished frames.  The memory model takes AR/AW, R/W and answers B with random
// ready/valid delays (BP percent) and checks WLAST against AWLEN.  Expected:
// each repetition's payload bytes copied, the bytes past the payload zero
// (the reader dropped the padding, the writer filled it), no byte outside
// the destination written, both channels done, no error pulse; with ERR,
// exactly one error pulse per channel and the data still copied.  CNT_W:
// the channels' counter bits; RANGE = 1: the transfer does not fit them and
// each channel must pulse error once, finish no frame and write nothing.
// Prints "PASS".
`timescale 1ns/1ps
module tb_chan;
    parameter LANES  = 4;
    parameter DATA_W = 64;
    parameter BYTES  = 48;     // DDR bytes per repetition
    parameter BEATS  = 10;     // stream beats per repetition
    parameter REPS   = 3;
    parameter STRIDE = 64;     // source stride (0: same buffer every time)
    parameter BP     = 60;     // percent of cycles a ready/valid is offered
    parameter SEED   = 1;
    parameter ERR    = 0;      // 1: R beat 2 answers SLVERR, the first B SLVERR
    parameter SUBS   = 1;      // sub-runs per repetition
    parameter ROWB   = 0;      // writer row beats (0: contiguous)
    parameter GATE   = 0;      // 1: the reader waits for avail
    parameter CNT_W  = 32;     // counter bits of both channels
    parameter RANGE  = 0;      // 1: BYTES is beyond CNT_W, expect the range error
    localparam NB  = DATA_W / 8;
    localparam SRC = 40'h1000;
    localparam DST = 40'h8000;
    localparam MEM = 65536;

    reg clk = 1'b0, rst = 1'b1;
    always #5 clk = ~clk;
    integer seed = SEED;
    reg [7:0] mem [0:MEM-1];
    reg [7:0] ref [0:MEM-1];

    // ---- read channel ----
    wire              arvalid, rready;
    reg               arready, rvalid, rlast;
    wire [39:0]       araddr;
    wire [7:0]        arlen;
    wire [2:0]        arsize;
    wire [1:0]        arburst;
    reg  [DATA_W-1:0] rdata;
    reg  [1:0]        rresp;
    wire               s_tvalid, s_tready;
    wire [8*LANES-1:0] s_tdata;
    wire rd_busy, rd_done, rd_err;
    wire [31:0] rd_fin, wr_fin;
    reg  [31:0] avail = 32'd0;
    reg  start = 1'b0;
    localparam [31:0] WSUB = ROWB > 0 ? ROWB * NB : BYTES;
    localparam [31:0] WROW = SUBS * ROWB * NB;

    kiln_rd_chan #(.DATA_W(DATA_W), .ADDR_W(40), .BURST_MAX(16), .MAX_OUT(2), .LANES(LANES),
                   .CNT_W(CNT_W)) u_rd (
        .clk(clk), .rst(rst), .cfg_base(SRC), .cfg_bytes(BYTES), .cfg_stride(STRIDE),
        .cfg_beats(BEATS), .cfg_reps(REPS), .cfg_subs(SUBS), .cfg_sub_stride(32'd0),
        .start(start), .busy(rd_busy), .done(rd_done), .error(rd_err),
        .avail(GATE ? avail : 32'hFFFFFFFF), .finished(rd_fin),
        .m_axi_arvalid(arvalid), .m_axi_arready(arready), .m_axi_araddr(araddr),
        .m_axi_arlen(arlen), .m_axi_arsize(arsize), .m_axi_arburst(arburst),
        .m_axi_rvalid(rvalid), .m_axi_rready(rready), .m_axi_rdata(rdata),
        .m_axi_rresp(rresp), .m_axi_rlast(rlast),
        .m_tvalid(s_tvalid), .m_tready(s_tready), .m_tdata(s_tdata));

    // ---- write channel ----
    wire              awvalid, wvalid, wlast, bready;
    reg               awready, wready, bvalid;
    wire [39:0]       awaddr;
    wire [7:0]        awlen;
    wire [2:0]        awsize;
    wire [1:0]        awburst;
    wire [DATA_W-1:0] wdata;
    wire [NB-1:0]     wstrb;
    reg  [1:0]        bresp;
    wire wr_busy, wr_done, wr_err;

    kiln_wr_chan #(.DATA_W(DATA_W), .ADDR_W(40), .BURST_MAX(16), .MAX_OUT(2), .LANES(LANES),
                   .CNT_W(CNT_W)) u_wr (
        .clk(clk), .rst(rst), .cfg_base(DST), .cfg_bytes(BYTES), .cfg_stride(SUBS * BYTES),
        .cfg_beats(BEATS), .cfg_reps(REPS), .cfg_subs(SUBS), .cfg_sub_stride(WSUB),
        .cfg_row_beats(ROWB), .cfg_row_stride(WROW), .start(start),
        .busy(wr_busy), .done(wr_done), .error(wr_err),
        .avail(32'hFFFFFFFF), .finished(wr_fin),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .m_axi_awvalid(awvalid), .m_axi_awready(awready), .m_axi_awaddr(awaddr),
        .m_axi_awlen(awlen), .m_axi_awsize(awsize), .m_axi_awburst(awburst),
        .m_axi_wvalid(wvalid), .m_axi_wready(wready), .m_axi_wdata(wdata),
        .m_axi_wstrb(wstrb), .m_axi_wlast(wlast),
        .m_axi_bvalid(bvalid), .m_axi_bready(bready), .m_axi_bresp(bresp));

    // ---- DDR model: bursts in order, random delays ----
    reg [39:0] ra_q [0:63];
    reg [8:0]  rl_q [0:63];
    reg [39:0] wa_q [0:63];
    reg [8:0]  wl_q [0:63];
    integer rh = 0, rt = 0, rbeat = 0, wh = 0, wt = 0, wbeat = 0, bpend = 0, errors = 0;
    integer rbeats = 0, bcount = 0, rd_pulses = 0, wr_pulses = 0;
    integer i, k, s, a;
    reg start_seen = 1'b0;
    always @(posedge clk) if (start) start_seen <= 1'b1;

    function chance;
        input integer pct;
        begin
            chance = ($random(seed) % 100 + 100) % 100 < pct;
        end
    endfunction

    always @(posedge clk) begin
        if (rst) begin
            arready <= 1'b0; rvalid <= 1'b0; rlast <= 1'b0; rresp <= 2'b00;
            awready <= 1'b0; wready <= 1'b0; bvalid <= 1'b0; bresp <= 2'b00;
        end else begin
            if (arvalid && arready) begin
                if (arsize != $clog2(NB) || arburst != 2'b01) errors = errors + 1;
                ra_q[rt % 64] = araddr; rl_q[rt % 64] = arlen + 9'd1; rt = rt + 1;
            end
            if (rd_err) rd_pulses = rd_pulses + 1;
            if (wr_err) wr_pulses = wr_pulses + 1;
            if (rvalid && rready) begin
                rbeats = rbeats + 1;
                rbeat = rbeat + 1;
                if (rbeat == rl_q[rh % 64]) begin rh = rh + 1; rbeat = 0; end
            end
            if (awvalid && awready) begin
                if (awsize != $clog2(NB) || awburst != 2'b01) errors = errors + 1;
                wa_q[wt % 64] = awaddr; wl_q[wt % 64] = awlen + 9'd1; wt = wt + 1;
            end
            if (wvalid && wready) begin
                for (k = 0; k < NB; k = k + 1)
                    if (wstrb[k])
                        mem[wa_q[wh % 64] + wbeat * NB + k] = wdata[8*k +: 8];
                if (wlast != (wbeat + 1 == wl_q[wh % 64])) errors = errors + 1;
                wbeat = wbeat + 1;
                if (wbeat == wl_q[wh % 64]) begin wh = wh + 1; wbeat = 0; bpend = bpend + 1; end
            end
            if (bvalid && bready) begin
                bpend = bpend - 1;
                bcount = bcount + 1;
            end
            if (u_rd.u_reps.started > (GATE ? avail : REPS)) begin
                if (errors < 5) $display("FAIL: frame %0d started with avail %0d", u_rd.u_reps.started - 1, avail);
                errors = errors + 1;
            end
            if (GATE && start_seen && avail < REPS && chance(2)) avail <= avail + 32'd1;
            arready <= chance(BP);
            awready <= chance(BP);
            wready  <= wh < wt && chance(BP);
            bvalid  <= bpend > 0 && chance(BP);
            bresp   <= ERR && bcount == 0 ? 2'b10 : 2'b00;
            if (!rvalid || rready) begin
                if (rh < rt && chance(BP)) begin
                    rvalid <= 1'b1;
                    rresp  <= ERR && rbeats == 2 ? 2'b10 : 2'b00;
                    rlast  <= rbeat + 1 == rl_q[rh % 64];
                    for (k = 0; k < NB; k = k + 1)
                        rdata[8*k +: 8] <= mem[ra_q[rh % 64] + rbeat * NB + k];
                end else begin
                    rvalid <= 1'b0;
                end
            end
        end
    end

    integer r, guard;
    initial begin
        for (i = 0; i < MEM; i = i + 1) begin
            mem[i] = $random(seed);
            ref[i] = mem[i];
        end
        for (r = 0; r < (RANGE ? 0 : REPS); r = r + 1)
            for (s = 0; s < SUBS; s = s + 1)
                for (i = 0; i < BYTES; i = i + 1) begin
                    if (ROWB > 0)
                        a = DST + r * SUBS * BYTES + (i / (ROWB * NB)) * WROW + s * ROWB * NB
                            + i % (ROWB * NB);
                    else
                        a = DST + r * SUBS * BYTES + s * BYTES + i;
                    ref[a] = i < BEATS * LANES ? mem[SRC + r * STRIDE + i] : 8'd0;
                end
        repeat (3) @(posedge clk);
        rst <= 1'b0;
        repeat (2) @(posedge clk);
        start <= 1'b1;
        @(posedge clk);
        start <= 1'b0;
        guard = 0;
        while (!(wr_done && rd_done && bpend == 0) && guard < 200000) begin
            @(posedge clk);
            guard = guard + 1;
        end
        if (guard >= 200000) begin
            $display("FAIL: timeout (rd_done %b wr_done %b)", rd_done, wr_done);
            $finish;
        end
        repeat (2) @(posedge clk); // the pulse counters sample the last cycle's outputs
        if (rd_fin != (RANGE ? 0 : REPS) || wr_fin != (RANGE ? 0 : REPS)) begin
            $display("FAIL: finished rd %0d wr %0d, expected %0d", rd_fin, wr_fin, RANGE ? 0 : REPS);
            errors = errors + 1;
        end
        if (rd_pulses != (RANGE ? 1 : ERR) || wr_pulses != (RANGE ? 1 : ERR)) begin
            $display("FAIL: error pulses rd %0d wr %0d, expected %0d", rd_pulses, wr_pulses,
                     RANGE ? 1 : ERR);
            errors = errors + 1;
        end
        if (RANGE && (rt != 0 || wt != 0)) begin
            $display("FAIL: %0d AR and %0d AW bursts of a refused transfer", rt, wt);
            errors = errors + 1;
        end
        for (i = 0; i < MEM; i = i + 1)
            if (mem[i] !== ref[i]) begin
                if (errors < 5)
                    $display("FAIL: byte 0x%0h is %0h, expected %0h", i, mem[i], ref[i]);
                errors = errors + 1;
            end
        if (errors == 0)
            $display("PASS: %0d repetitions x %0d sub-runs of %0d bytes (%0d beats of %0d lanes, DATA_W %0d, rows %0d, gate %0d, CNT_W %0d%s) in %0d cycles",
                     REPS, SUBS, BYTES, BEATS, LANES, DATA_W, ROWB, GATE, CNT_W,
                     RANGE ? ", refused" : "", guard);
        else
            $display("FAIL: %0d errors", errors);
        $finish;
    end
endmodule
