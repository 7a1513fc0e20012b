// tb_conv_iv: iverilog bench of kiln_conv driven by a vector file that the C
// bench writes from its reference (tb_conv --vec FILE).  4-state checks: every
// output beat equals the reference and carries no X/Z; m_tvalid, s_tready and
// w_tready are never X after reset; random valid/ready back-pressure from
// $random(seed).  Prints "PASS n beats" or "FAIL ...".
// Plusargs: +vec=FILE (required), +seed=N, +bp=1 (back-pressure on).
// PE_IC, PE_OC (4, 4) must match the build that wrote the file, KMAX and
// CIMAX (7, 16) hold its layers; PIPE (1), PACK, PP, DSP2X (-Ptb_conv_iv.DSP2X=1: the multipliers on clk2x, 2 with an
// even PP: pixel pairs on clk2x) and CASC
// (-Ptb_conv_iv.CASC=1, with kiln_dsp_chain.v; add -DKILN_DSP48E2 and
// dsp48e2_sub.v for the primitive instances) change the hardware, not the
// results; so does -DKILN_XILINX_PRIMS with xilinx_prims_sub.v (the adder
// trees' kiln_add3 on LUT6_2 and CARRY8 instances).  clk2x runs at twice clk, both rising
// together (synchronous, edge-aligned).
`timescale 1ns/1ps
module tb_conv_iv;
    parameter integer PACK = 1, PP = 1, DSP2X = 0, CASC = 0;
    parameter integer PE_IC = 4, PE_OC = 4, KMAX = 7, CIMAX = 16, PIPE = 1;
    localparam integer W = 8 * PE_IC, NMAX = 1 << 16;
    reg clk = 0, clk2x = 0, rst = 1;
    reg [W-1:0] vec [0:NMAX-1];
    reg [15:0] cfg_h, cfg_w, cfg_icg, cfg_ocg;
    reg [3:0] cfg_k, cfg_pad;
    reg [1:0] cfg_stride;
    reg s_tvalid = 0, w_tvalid = 0, m_tready = 0;
    reg [W-1:0] s_tdata = 0, w_tdata = 0;
    wire s_tready, w_tready, m_tvalid;
    wire [8*PE_OC-1:0] m_tdata;
    integer n_w, n_s, n_o, wi, si, oi, errors, cyc, seed, bp;
    reg [1023:0] file;

    kiln_conv #(.PE_IC(PE_IC), .PE_OC(PE_OC), .PP(PP), .KMAX(KMAX), .WMAX(16), .CIMAX(CIMAX), .COMAX(16),
                .PIPE(PIPE), .RQ_PIPE(2), .PACK(PACK), .DSP2X(DSP2X), .CASC(CASC)) dut (
        .clk(clk), .clk2x(clk2x), .rst(rst), .cfg_h(cfg_h), .cfg_w(cfg_w), .cfg_icg(cfg_icg),
        .cfg_ocg(cfg_ocg), .cfg_tog(cfg_ocg), .cfg_k(cfg_k), .cfg_stride(cfg_stride), .cfg_pad(cfg_pad),
        .cfg_wreload(1'b0), .cfg_band(16'd0),
        .wl_rst(1'b0), .wl_icg(16'd0), .wl_ocg(16'd0), .wl_tog(16'd0), .wl_k(4'd0),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .w_tvalid(w_tvalid), .w_tready(w_tready), .w_tdata(w_tdata),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata));

    // clk: period 10, rising at 5, 15, ...; clk2x rises with each clk edge
    always begin
        #2.5 clk2x = 0;
        #2.5 clk2x = 1;
        clk = !clk;
    end

    initial begin
        if (!$value$plusargs("vec=%s", file)) begin
            $display("FAIL no +vec=FILE");
            $finish;
        end
        if (!$value$plusargs("seed=%d", seed)) seed = 1;
        if (!$value$plusargs("bp=%d", bp)) bp = 0;
        $readmemh(file, vec);
        cfg_h = vec[0]; cfg_w = vec[1]; cfg_icg = vec[2]; cfg_ocg = vec[3];
        cfg_k = vec[4]; cfg_stride = vec[5]; cfg_pad = vec[6];
        n_w = vec[7]; n_s = vec[8]; n_o = vec[9];
        wi = 0; si = 0; oi = 0; errors = 0; cyc = 0;
        repeat (3) @(posedge clk);
        #1 rst = 0;
        while (oi < n_o && cyc < 2000000) begin
            // drive before the edge, sample handshakes at the edge
            w_tvalid = (wi < n_w) && (!bp || ($random(seed) & 1));
            w_tdata  = vec[10 + wi];
            s_tvalid = (wi >= n_w) && (si < n_s) && (!bp || ($random(seed) & 1));
            s_tdata  = vec[10 + n_w + si];
            m_tready = !bp || ($random(seed) & 1);
            #1;
            if (^{m_tvalid, s_tready, w_tready} === 1'bx) begin
                $display("FAIL X on a handshake at cycle %0d", cyc);
                errors = errors + 1;
            end
            @(posedge clk);
            if (w_tvalid && w_tready) wi = wi + 1;
            if (s_tvalid && s_tready) si = si + 1;
            if (m_tvalid && m_tready) begin
                if (^m_tdata === 1'bx || m_tdata !== vec[10 + n_w + n_s + oi][8*PE_OC-1:0]) begin
                    if (errors < 8)
                        $display("FAIL out[%0d] got %h want %h", oi, m_tdata,
                                 vec[10 + n_w + n_s + oi][8*PE_OC-1:0]);
                    errors = errors + 1;
                end
                oi = oi + 1;
            end
            #1;
            cyc = cyc + 1;
        end
        if (oi != n_o) begin
            $display("FAIL timeout: %0d of %0d beats", oi, n_o);
            errors = errors + 1;
        end
        if (errors == 0)
            $display("PASS %0d beats %0d cycles (%0dx%0d K%0d S%0d P%0d icg %0d ocg %0d bp %0d)",
                     n_o, cyc, cfg_h, cfg_w, cfg_k, cfg_stride, cfg_pad, cfg_icg, cfg_ocg, bp);
        $finish;
    end
endmodule
