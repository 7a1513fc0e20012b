// kiln_dwconv: depthwise KxK convolution (one filter per channel) + bias +
// requant/activation on int8 streams (MobileNet / tiny-YOLO face detector).
//
// Ports
//   clk, rst                          clock, active-high synchronous reset
//   cfg_h, cfg_w                      map height, width (1..WMAX)
//   cfg_cg = ceil(C / LANES)          channel groups (1..ceil(CMAX/LANES))
//   cfg_k (1..KMAX), cfg_stride (1|2), cfg_pad (0..K-1)
//   cfg_wreload                       1: a new weight set precedes every frame
//   s_tvalid/s_tready/s_tdata[8*LANES]  input map, raster order, cfg_cg beats/pixel
//   w_tvalid/w_tready/w_tdata[8*LANES]  weight stream (order below)
//   m_tvalid/m_tready/m_tdata[8*LANES]  output map, same layout as the input
//   cfg_* are held stable while a frame (and its weight set) is processed.
//
// Weight stream order, for cg < cfg_cg:
//   parameters: for lane o < LANES (channel cg*LANES+o), three words:
//     [31:0] bias;  [15:0] m_pos, [31:16] m_neg;  [5:0] shift
//     each word PB = max(1, 4/LANES) beats, little-endian (LANES 2: a word
//     in two beats, bytes 0..1 first)
//   weights: for ky < K, kx < K: one beat, lane i = w[cg*LANES+i][ky][kx]
// Beats = cfg_cg * (3*PB*LANES + K*K).
//
// Parameters: LANES (MACs, one per channel lane), KMAX, WMAX, CMAX,
//   RQ_PIPE (requant stages 0..4), QLO/QHI (output clamp, kiln_requant.v),
//   RQ_DSP (DSP48E2 a requant lane, 2 or 1: kiln_requant.v),
//   LBURAM (1: the line buffer is UltraRAM, ram_style "ultra", as kiln_conv's;
//   0: block RAM or LUTRAM as synthesis picks).
// Latency (issue of the last MAC of a pixel group to its output beat):
//   LAT = 4 + RQ_PIPE
// Cycles per frame: the kiln_conv_window recurrence (hls/desc_conv.c) with
//   n_in = W*CG per input row, n_out = Wout*CG*K*K per output row;
//   ~ Hout*Wout*CG*K*K + (K-P)*W*CG + LAT when compute bound.
// Resources: LANES DSP48E2 (MACs) + RQ_DSP*LANES (requant); BRAM: line buffer as
//   kiln_conv with GMAX = CG, weights CGMAX*KMAX*KMAX x 8*LANES bits.
module kiln_dwconv #(
    parameter integer LANES   = 8,
    parameter integer KMAX    = 3,
    parameter integer WMAX    = 64,
    parameter integer CMAX    = 64,
    parameter integer RQ_PIPE = 2,
    parameter integer QLO     = -128,
    parameter integer QHI     = 127,
    parameter integer LBURAM  = 0,
    parameter integer RQ_DSP  = 2
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [15:0]          cfg_h,
    input  wire [15:0]          cfg_w,
    input  wire [15:0]          cfg_cg,
    input  wire [3:0]           cfg_k,
    input  wire [1:0]           cfg_stride,
    input  wire [3:0]           cfg_pad,
    input  wire                 cfg_wreload,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*LANES-1:0]   s_tdata,
    input  wire                 w_tvalid,
    output wire                 w_tready,
    input  wire [8*LANES-1:0]   w_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*LANES-1:0]   m_tdata
);

    localparam integer CGMAX  = (CMAX + LANES - 1) / LANES;
    localparam integer WDEPTH = CGMAX * KMAX * KMAX;
    localparam integer WAB    = ($clog2(WDEPTH) < 1) ? 1 : $clog2(WDEPTH);
    localparam integer CGB    = ($clog2(CGMAX) < 1) ? 1 : $clog2(CGMAX);
    localparam integer LAT    = 4 + RQ_PIPE;
    localparam integer FD     = (LAT + 2 <= 8) ? 8 : 16;
    localparam integer FB     = $clog2(FD);
    localparam integer LANE_LAST_I = LANES - 1;
    localparam [15:0]  LANE_LAST = LANE_LAST_I[15:0];
    localparam [15:0]  FD16 = FD[15:0];
    // beats per 32-bit parameter word, and the bits they assemble
    localparam integer PB  = (8 * LANES >= 32) ? 1 : 32 / (8 * LANES);
    localparam integer PWB = 8 * LANES * PB;
    localparam integer PBB = (PB > 1) ? $clog2(PB) : 1;
    localparam integer PB_LAST_I = PB - 1;
    localparam [PBB-1:0] PB_LAST = PB_LAST_I[PBB-1:0];

    // ================= weight / parameter loader =================
    reg         wl_done, wl_reload, wl_ph;
    reg [1:0]   wl_pw;
    reg [15:0]  wl_lane, wl_cg;
    reg [3:0]   wl_ky, wl_kx;
    reg [WAB-1:0] wl_addr;
    reg [31:0]  wl_bias, wl_m;
    /* verilator lint_off UNUSEDSIGNAL */ // wl_pb read at PB > 1; wl_word's top bits unread
    reg [PBB-1:0] wl_pb;          // beat within a parameter word
    wire [PWB-1:0] wl_word;       // the word with this beat as its last
    /* verilator lint_on UNUSEDSIGNAL */
    wire wl_word_end;

    assign w_tready = !wl_done;
    wire wl_fire = w_tvalid && w_tready;
    wire wl_lane_last = wl_lane == LANE_LAST;
    wire wl_tap_last  = (wl_kx == cfg_k - 4'd1) && (wl_ky == cfg_k - 4'd1);
    wire wl_p_we = wl_fire && !wl_ph && wl_word_end && (wl_pw == 2'd2);

    generate
        if (PB == 1) begin : g_pw1
            assign wl_word = w_tdata;
            assign wl_word_end = 1'b1;
        end else begin : g_pwn
            // earlier beats of the word, the first at the bottom
            reg [PWB-8*LANES-1:0] wl_prev;
            always @(posedge clk)
                if (wl_fire && !wl_ph)
                    wl_prev <= wl_word[PWB-1:8*LANES];
            assign wl_word = {w_tdata, wl_prev};
            assign wl_word_end = wl_pb == PB_LAST;
        end
    endgenerate
    wire wl_w_we = wl_fire && wl_ph;

    reg [15:0] inflight;
    wire       frame_done;

    always @(posedge clk) begin
        if (rst) begin
            wl_done <= 1'b0; wl_reload <= 1'b0; wl_ph <= 1'b0; wl_pw <= 2'd0;
            wl_lane <= 16'd0; wl_cg <= 16'd0; wl_ky <= 4'd0; wl_kx <= 4'd0;
            wl_pb <= {PBB{1'b0}};
            wl_addr <= {WAB{1'b0}};
        end else begin
            if (frame_done && cfg_wreload)
                wl_reload <= 1'b1;
            if (wl_reload && inflight == 16'd0 && !frame_done) begin
                wl_reload <= 1'b0;
                wl_done   <= 1'b0;
            end
            if (wl_fire) begin
                if (!wl_ph && !wl_word_end) begin
                    wl_pb <= wl_pb + 1'b1;
                end else if (!wl_ph) begin
                    wl_pb <= {PBB{1'b0}};
                    if (wl_pw == 2'd0) wl_bias <= wl_word[31:0];
                    if (wl_pw == 2'd1) wl_m <= wl_word[31:0];
                    wl_pw <= (wl_pw == 2'd2) ? 2'd0 : wl_pw + 2'd1;
                    if (wl_pw == 2'd2) begin
                        wl_lane <= wl_lane_last ? 16'd0 : wl_lane + 16'd1;
                        if (wl_lane_last)
                            wl_ph <= 1'b1;
                    end
                end else begin
                    wl_addr <= wl_addr + 1'b1;
                    wl_kx <= (wl_kx == cfg_k - 4'd1) ? 4'd0 : wl_kx + 4'd1;
                    if (wl_kx == cfg_k - 4'd1)
                        wl_ky <= (wl_ky == cfg_k - 4'd1) ? 4'd0 : wl_ky + 4'd1;
                    if (wl_tap_last) begin
                        wl_ph <= 1'b0;
                        wl_cg <= (wl_cg == cfg_cg - 16'd1) ? 16'd0 : wl_cg + 16'd1;
                        if (wl_cg == cfg_cg - 16'd1) begin
                            wl_done <= 1'b1;
                            wl_addr <= {WAB{1'b0}};
                        end
                    end
                end
            end
        end
    end

    // ================= output FIFO credit =================
    reg  [8*LANES-1:0] fq [0:FD-1];
    reg  [FB-1:0]      fq_wp, fq_rp;
    reg  [FB:0]        fq_cnt;
    wire               rq_valid;
    wire [8*LANES-1:0] rq_q;
    wire [15:0] fq_cnt16 = {{(15-FB){1'b0}}, fq_cnt};
    wire credit = (inflight + fq_cnt16) < FD16;

    // ================= sliding window (depthwise loop) =================
    wire               iss, iss_last;
    wire [WAB-1:0]     iss_wa;
    wire               d_valid, d_first, d_last;
    wire [8*LANES-1:0] d_data;
    /* verilator lint_off UNUSEDSIGNAL */ // groups above CGMAX do not occur
    wire [15:0]        d_og;
    wire               d_pv, d_oglast;   // single pixel, no output reorder
    /* verilator lint_on UNUSEDSIGNAL */

    /* verilator lint_off UNUSEDSIGNAL */ // no bands in the depthwise engine
    wire w_band_done, w_span;
    wire [15:0] w_hout, w_wout;
    /* verilator lint_on UNUSEDSIGNAL */
    kiln_conv_window #(
        .LANES(LANES), .KMAX(KMAX), .WMAX(WMAX), .GMAX(CGMAX), .DW(1), .WAB(WAB),
        .LBURAM(LBURAM)
    ) u_win (
        .clk(clk), .rst(rst),
        .cfg_h(cfg_h), .cfg_w(cfg_w), .cfg_icg(cfg_cg), .cfg_ocg(cfg_cg),
        .cfg_k(cfg_k), .cfg_stride(cfg_stride), .cfg_pad(cfg_pad),
        .cfg_band(16'd0), .tile_last(1'b1),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .go(wl_done && !wl_reload && credit),  // no op of the next frame on a dropped set
        .iss(iss), .iss_wa(iss_wa), .iss_last(iss_last),
        .d_valid(d_valid), .d_data(d_data), .d_first(d_first), .d_last(d_last), .d_og(d_og),
        .d_pv(d_pv), .d_oglast(d_oglast),
        .frame_done(frame_done), .band_done(w_band_done), .span_out(w_span), .hout_out(w_hout), .wout_out(w_wout)
    );

    always @(posedge clk) begin
        if (rst)
            inflight <= 16'd0;
        else
            inflight <= inflight + {15'd0, iss && iss_last} - {15'd0, rq_valid};
    end

    // ================= weights, products, accumulators =================
    reg [8*LANES-1:0] wm [0:WDEPTH-1];
    reg [8*LANES-1:0] wrd;
    always @(posedge clk)
        if (wl_w_we)
            wm[wl_addr] <= w_tdata;
    always @(posedge clk)
        wrd <= wm[iss_wa];

    reg           p_valid, p_first, p_last;
    reg [CGB-1:0] p_cg;
    always @(posedge clk) begin
        p_valid <= d_valid && !rst;
        p_first <= d_first;
        p_last  <= d_last;
        p_cg    <= d_og[CGB-1:0];
    end
    reg           a_valid;
    reg [CGB-1:0] a_cg;
    always @(posedge clk) begin
        a_valid <= p_valid && p_last && !rst;
        a_cg    <= p_cg;
    end

    wire [32*LANES-1:0] rq_acc;
    wire [16*LANES-1:0] rq_mpos, rq_mneg;
    wire [6*LANES-1:0]  rq_shift;

    genvar o;
    generate
        for (o = 0; o < LANES; o = o + 1) begin : g_l
            reg signed [15:0] p;
            always @(posedge clk)
                p <= $signed(d_data[8*o +: 8]) * $signed(wrd[8*o +: 8]);

            reg [31:0] bias [0:CGMAX-1];
            reg [15:0] mpos [0:CGMAX-1];
            reg [15:0] mneg [0:CGMAX-1];
            reg [5:0]  shft [0:CGMAX-1];
            always @(posedge clk)
                if (wl_p_we && wl_lane == o[15:0]) begin
                    bias[wl_cg[CGB-1:0]] <= wl_bias;
                    mpos[wl_cg[CGB-1:0]] <= wl_m[15:0];
                    mneg[wl_cg[CGB-1:0]] <= wl_m[31:16];
                    shft[wl_cg[CGB-1:0]] <= wl_word[5:0];
                end

            reg signed [31:0] acc;
            wire signed [31:0] base = p_first ? $signed(bias[p_cg]) : acc;
            always @(posedge clk)
                if (p_valid)
                    acc <= base + {{16{p[15]}}, p};
            assign rq_acc[32*o +: 32]  = acc;
            assign rq_mpos[16*o +: 16] = mpos[a_cg];
            assign rq_mneg[16*o +: 16] = mneg[a_cg];
            assign rq_shift[6*o +: 6]  = shft[a_cg];
        end
    endgenerate

    kiln_requant #(.LANES(LANES), .PIPE(RQ_PIPE), .QLO(QLO), .QHI(QHI),
                   .RQ_DSP(RQ_DSP)) u_rq (
        .clk(clk), .rst(rst), .i_valid(a_valid),
        .i_acc(rq_acc), .i_mpos(rq_mpos), .i_mneg(rq_mneg), .i_shift(rq_shift),
        .o_valid(rq_valid), .o_q(rq_q));

    // ================= output FIFO =================
    assign m_tvalid = fq_cnt != 0;
    assign m_tdata  = fq[fq_rp];
    wire fq_rd = m_tvalid && m_tready;
    always @(posedge clk)
        if (rq_valid)
            fq[fq_wp] <= rq_q;
    always @(posedge clk) begin
        if (rst) begin
            fq_wp <= {FB{1'b0}};
            fq_rp <= {FB{1'b0}};
            fq_cnt <= {(FB+1){1'b0}};
        end else begin
            if (rq_valid)
                fq_wp <= fq_wp + 1'b1;
            if (fq_rd)
                fq_rp <= fq_rp + 1'b1;
            fq_cnt <= fq_cnt + {{FB{1'b0}}, rq_valid} - {{FB{1'b0}}, fq_rd};
        end
    end
endmodule
