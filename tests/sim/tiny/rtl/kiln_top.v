// A hand-written accelerator top with the generated top's interface
// (docs/simulate.md): one segment, in0 (kiln_axi_rd) -> 2x2 stride 2 max
// pooling of an 8x8x16 int8 map (kiln_maxpool, 8 lanes) -> out0 (kiln_axi_wr),
// both 64-bit.  Frames run one after the other.  Registers: kiln_regfile,
// CFG 0 SEGMENT, 1 FRAMES, 2/3 in0_BASE_LO/HI, 4/5 out0_BASE_LO/HI; PERF of
// stage 0 (the pool) at 0x200/0x204.  kiln_regfile.v here is a copy of the
// template, so the test does not follow changes of the real one.
// Used by the harness tests of tests/sim/.
module kiln_top (
    input  wire        clk,
    input  wire        rst,
    input  wire [11:0] s_axil_awaddr,
    input  wire        s_axil_awvalid,
    output wire        s_axil_awready,
    input  wire [31:0] s_axil_wdata,
    input  wire [3:0]  s_axil_wstrb,
    input  wire        s_axil_wvalid,
    output wire        s_axil_wready,
    output wire [1:0]  s_axil_bresp,
    output wire        s_axil_bvalid,
    input  wire        s_axil_bready,
    input  wire [11:0] s_axil_araddr,
    input  wire        s_axil_arvalid,
    output wire        s_axil_arready,
    output wire [31:0] s_axil_rdata,
    output wire [1:0]  s_axil_rresp,
    output wire        s_axil_rvalid,
    input  wire        s_axil_rready,
    output wire        m_axi_in0_arvalid,
    input  wire        m_axi_in0_arready,
    output wire [39:0] m_axi_in0_araddr,
    output wire [7:0]  m_axi_in0_arlen,
    output wire [2:0]  m_axi_in0_arsize,
    output wire [1:0]  m_axi_in0_arburst,
    input  wire        m_axi_in0_rvalid,
    output wire        m_axi_in0_rready,
    input  wire [63:0] m_axi_in0_rdata,
    input  wire [1:0]  m_axi_in0_rresp,
    input  wire        m_axi_in0_rlast,
    output wire        m_axi_out0_awvalid,
    input  wire        m_axi_out0_awready,
    output wire [39:0] m_axi_out0_awaddr,
    output wire [7:0]  m_axi_out0_awlen,
    output wire [2:0]  m_axi_out0_awsize,
    output wire [1:0]  m_axi_out0_awburst,
    output wire        m_axi_out0_wvalid,
    input  wire        m_axi_out0_wready,
    output wire [63:0] m_axi_out0_wdata,
    output wire [7:0]  m_axi_out0_wstrb,
    output wire        m_axi_out0_wlast,
    input  wire        m_axi_out0_bvalid,
    output wire        m_axi_out0_bready,
    input  wire [1:0]  m_axi_out0_bresp
);
    localparam IN_FB  = 1024; // 8*8 pixels, 2 beats of 8 lanes
    localparam OUT_FB = 256;  // 4*4 pixels, 2 beats of 8 lanes
    wire [32*6-1:0] cfg;
    wire start, busy, load;
    reg  done_in;
    wire rd_busy, rd_done, rd_err, wr_busy, wr_done, wr_err;
    kiln_regfile #(.N_CFG(6), .PLAN_HASH(64'h0), .ADDR_W(12), .N_PERF(1)) u_regs (
        .clk(clk), .rst(rst),
        .s_axil_awaddr(s_axil_awaddr), .s_axil_awvalid(s_axil_awvalid),
        .s_axil_awready(s_axil_awready), .s_axil_wdata(s_axil_wdata),
        .s_axil_wstrb(s_axil_wstrb), .s_axil_wvalid(s_axil_wvalid),
        .s_axil_wready(s_axil_wready), .s_axil_bresp(s_axil_bresp),
        .s_axil_bvalid(s_axil_bvalid), .s_axil_bready(s_axil_bready),
        .s_axil_araddr(s_axil_araddr), .s_axil_arvalid(s_axil_arvalid),
        .s_axil_arready(s_axil_arready), .s_axil_rdata(s_axil_rdata),
        .s_axil_rresp(s_axil_rresp), .s_axil_rvalid(s_axil_rvalid),
        .s_axil_rready(s_axil_rready),
        .start(start), .busy(busy), .done_in(done_in),
        .err_in({30'd0, wr_err, rd_err}), .cfg(cfg), .load(load), .perf({perf_last, perf_first}));

    // frame loop: start both DMAs, wait for both, next frame
    reg  [31:0] frame;
    reg  [1:0]  st;       // 0 idle, 1 launch, 2 wait
    reg         go;
    wire [31:0] frames = cfg[32*1 +: 32];
    wire [39:0] in_base  = {cfg[32*3 +: 8], cfg[32*2 +: 32]} + frame * IN_FB;
    wire [39:0] out_base = {cfg[32*5 +: 8], cfg[32*4 +: 32]} + frame * OUT_FB;
    always @(posedge clk) begin
        if (rst) begin
            st <= 2'd0; go <= 1'b0; done_in <= 1'b0; frame <= 32'd0;
        end else begin
            go <= 1'b0;
            done_in <= 1'b0;
            case (st)
            2'd0: if (start) begin frame <= 32'd0; st <= 2'd1; end
            2'd1: begin go <= 1'b1; st <= 2'd2; end
            default:
                if (!go && rd_done && wr_done && !rd_busy && !wr_busy) begin
                    if (frame + 32'd1 >= frames) begin
                        done_in <= 1'b1;
                        st <= 2'd0;
                    end else begin
                        frame <= frame + 32'd1;
                        st <= 2'd1;
                    end
                end
            endcase
        end
    end

    wire        a_valid, a_ready, b_valid, b_ready;
    wire [63:0] a_data, b_data;
    kiln_axi_rd #(.DATA_W(64), .ADDR_W(40), .BURST_MAX(16), .MAX_OUT(4)) u_in0 (
        .clk(clk), .rst(rst), .cfg_base(in_base), .cfg_bytes(IN_FB), .start(go),
        .busy(rd_busy), .done(rd_done), .error(rd_err),
        .m_axi_arvalid(m_axi_in0_arvalid), .m_axi_arready(m_axi_in0_arready),
        .m_axi_araddr(m_axi_in0_araddr), .m_axi_arlen(m_axi_in0_arlen),
        .m_axi_arsize(m_axi_in0_arsize), .m_axi_arburst(m_axi_in0_arburst),
        .m_axi_rvalid(m_axi_in0_rvalid), .m_axi_rready(m_axi_in0_rready),
        .m_axi_rdata(m_axi_in0_rdata), .m_axi_rresp(m_axi_in0_rresp),
        .m_axi_rlast(m_axi_in0_rlast),
        .m_tvalid(a_valid), .m_tready(a_ready), .m_tdata(a_data));
    kiln_maxpool #(.LANES(8), .K_MAX(2), .CG_MAX(4), .ROW_MAX(64), .PIPE(1)) u_pool (
        .clk(clk), .rst(rst),
        .cfg_h(16'd8), .cfg_w(16'd8), .cfg_cg(16'd2), .cfg_k(8'd2), .cfg_s(8'd2),
        .cfg_pad(8'd0), .cfg_oh(16'd4), .cfg_ow(16'd4),
        .s_tvalid(a_valid), .s_tready(a_ready), .s_tdata(a_data),
        .m_tvalid(b_valid), .m_tready(b_ready), .m_tdata(b_data));
    kiln_axi_wr #(.DATA_W(64), .ADDR_W(40), .BURST_MAX(16), .MAX_OUT(4)) u_out0 (
        .clk(clk), .rst(rst), .cfg_base(out_base), .cfg_bytes(OUT_FB), .start(go),
        .busy(wr_busy), .done(wr_done), .error(wr_err),
        .s_tvalid(b_valid), .s_tready(b_ready), .s_tdata(b_data),
        .m_axi_awvalid(m_axi_out0_awvalid), .m_axi_awready(m_axi_out0_awready),
        .m_axi_awaddr(m_axi_out0_awaddr), .m_axi_awlen(m_axi_out0_awlen),
        .m_axi_awsize(m_axi_out0_awsize), .m_axi_awburst(m_axi_out0_awburst),
        .m_axi_wvalid(m_axi_out0_wvalid), .m_axi_wready(m_axi_out0_wready),
        .m_axi_wdata(m_axi_out0_wdata), .m_axi_wstrb(m_axi_out0_wstrb),
        .m_axi_wlast(m_axi_out0_wlast), .m_axi_bvalid(m_axi_out0_bvalid),
        .m_axi_bready(m_axi_out0_bready), .m_axi_bresp(m_axi_out0_bresp));

    // PERF: cycle (start = 0) of the last output beat of the first and the
    // last frame of the run
    reg  [31:0] t, perf_first, perf_last;
    reg  [5:0]  nout;
    always @(posedge clk) begin
        if (rst || start) begin
            t <= 32'd1; nout <= 6'd0;
        end else begin
            t <= t + 32'd1;
            if (b_valid && b_ready) begin
                nout <= nout == 6'd31 ? 6'd0 : nout + 6'd1;
                if (nout == 6'd31) begin
                    if (frame == 32'd0)
                        perf_first <= t;
                    perf_last <= t;
                end
            end
        end
    end
    wire unused_ok = &{1'b0, busy, load, cfg[31:0], cfg[32*3+8 +: 24], cfg[32*5+8 +: 24]};
endmodule
