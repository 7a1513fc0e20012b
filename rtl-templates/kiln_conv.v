// kiln_conv: KxK convolution + bias + requant/activation on int8 streams.
//
// Ports
//   clk, rst                         clock, active-high synchronous reset
//   cfg_h, cfg_w                     input map height, width (1..WMAX)
//   cfg_icg  = ceil(CIN / PE_IC)     input channel groups (1..ceil(CIMAX/PE_IC))
//   cfg_ocg  = ceil(COUT / PE_OC)    output channel groups (1..ceil(COMAX/PE_OC))
//   cfg_k (1..KMAX), cfg_stride (1|2), cfg_pad (0..K-1, zero padding all sides)
//   cfg_wreload                      1: a new weight set precedes every frame
//   s_tvalid/s_tready/s_tdata[8*PE_IC]   input map, raster order, cfg_icg beats/pixel
//   w_tvalid/w_tready/w_tdata[8*PE_IC]   weight stream (order below)
//   m_tvalid/m_tready/m_tdata[8*PE_OC]   output map, raster order, cfg_ocg beats/pixel
//   All cfg_* are held stable while a frame (and its weight set) is processed.
//
// Weight stream order (one set; 8*PE_IC >= 32), for og < cfg_ocg:
//   parameters: for lane o < PE_OC (channel og*PE_OC+o), three beats:
//     [31:0] bias (int32);  [15:0] m_pos, [31:16] m_neg;  [5:0] shift
//   weights: for ky < K, kx < K, ig < cfg_icg, lane o < PE_OC: one beat,
//     lane i = w[og*PE_OC+o][ig*PE_IC+i][ky][kx]  (zero for padded channels)
// Beats = cfg_ocg * PE_OC * (3 + K*K*cfg_icg).  The set is accepted into on-chip
// memories while no frame computes; input beats may arrive meanwhile.
//
// Parameters
//   PE_IC, PE_OC   MAC array (PE_OC x PE_IC int8 MACs, int32 accumulators)
//   KMAX           largest K; line buffer rows R = 2^ceil(log2(KMAX+1))
//   WMAX, CIMAX, COMAX  widest map, most input / output channels
//   WDEPTH         weight words per output lane (>= cfg_ocg*K*K*cfg_icg)
//   PIPE           register levels in the adder tree (0..ceil(log2 PE_IC))
//   RQ_PIPE        requant register stages (0..3)
//   PACK           1, or 2 = two MACs per DSP48E2 (kiln_mac2; PE_OC even)
//
// Latency (issue of the last MAC of an output pixel group to its output beat):
//   LAT = 4 + min(PIPE, ceil(log2 PE_IC)) + RQ_PIPE
// Cycles per frame (no back-pressure, weights loaded, first input beat to last
// output beat inclusive): a row-level recurrence, exact, in hls/desc_conv.c:
//   n_in = W*ICG cycles per input row, n_out = Wout*OCG*K*K*ICG per output row;
//   output row oy starts when its last input row min(H, oy*S-P+K)-1 is in and
//   row oy-1 is done; input row iy starts when iy < max(0, oy*S-P) + R.
//   ~ Hout*Wout*OCG*ICG*K*K + (K-P)*W*ICG + LAT when compute bound.
// Resources: DSP48E2 = PE_OC*PE_IC/PACK + 2*PE_OC (requant);
//   BRAM: line buffer R*2^ceil(log2 WMAX)*2^ceil(log2 ICGMAX) x 8*PE_IC bits,
//   weights PE_OC x WDEPTH x 8*PE_IC bits; LUT/FF ~ adder trees + accumulators
//   (see hls/desc_conv.c for the fitted formula).
module kiln_conv #(
    parameter integer PE_IC   = 4,
    parameter integer PE_OC   = 4,
    parameter integer KMAX    = 3,
    parameter integer WMAX    = 64,
    parameter integer CIMAX   = 64,
    parameter integer COMAX   = 64,
    parameter integer WDEPTH  = ((CIMAX + PE_IC - 1) / PE_IC) * ((COMAX + PE_OC - 1) / PE_OC) * KMAX * KMAX,
    parameter integer PIPE    = 1,
    parameter integer RQ_PIPE = 2,
    parameter integer PACK    = 1
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [15:0]          cfg_h,
    input  wire [15:0]          cfg_w,
    input  wire [15:0]          cfg_icg,
    input  wire [15:0]          cfg_ocg,
    input  wire [3:0]           cfg_k,
    input  wire [1:0]           cfg_stride,
    input  wire [3:0]           cfg_pad,
    input  wire                 cfg_wreload,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*PE_IC-1:0]   s_tdata,
    input  wire                 w_tvalid,
    output wire                 w_tready,
    input  wire [8*PE_IC-1:0]   w_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*PE_OC-1:0]   m_tdata
);
    function integer clog2;
        input integer v;
        integer t;
        begin
            clog2 = 0;
            t = 1;
            while (t < v) begin
                t = t * 2;
                clog2 = clog2 + 1;
            end
        end
    endfunction
    function integer flog2;
        input integer v;
        integer t;
        begin
            flog2 = 0;
            t = v;
            while (t > 1) begin
                t = t / 2;
                flog2 = flog2 + 1;
            end
        end
    endfunction

    localparam integer ICGMAX = (CIMAX + PE_IC - 1) / PE_IC;
    localparam integer OCGMAX = (COMAX + PE_OC - 1) / PE_OC;
    localparam integer WAB    = (clog2(WDEPTH) < 1) ? 1 : clog2(WDEPTH);
    localparam integer OGB    = (clog2(OCGMAX) < 1) ? 1 : clog2(OCGMAX);
    localparam integer L      = clog2(PE_IC);          // adder tree levels
    localparam integer NP     = 1 << L;                // leaves
    localparam integer TL     = (PIPE < L) ? PIPE : L; // registered tree levels
    localparam integer TW     = 17 + L;                // tree width
    localparam integer LAT    = 4 + TL + RQ_PIPE;
    localparam integer FD     = (LAT + 2 <= 8) ? 8 : (LAT + 2 <= 16) ? 16 : 32;
    localparam integer FB     = clog2(FD);

    // ================= weight / parameter loader =================
    reg         wl_done;      // the weight set is complete
    reg         wl_reload;    // frame finished with cfg_wreload: drop the set
    reg         wl_ph;        // 0 parameters, 1 weights
    reg [1:0]   wl_pw;        // parameter beat 0..2
    reg [15:0]  wl_lane;      // output lane
    reg [15:0]  wl_og, wl_ig;
    reg [3:0]   wl_ky, wl_kx;
    reg [WAB-1:0] wl_addr;    // weight word address
    reg [31:0]  wl_bias;      // first parameter beat of the lane
    reg [31:0]  wl_m;         // second parameter beat

    assign w_tready = !wl_done;
    wire wl_fire = w_tvalid && w_tready;
    localparam integer LANE_LAST_I = PE_OC - 1;
    localparam [15:0] LANE_LAST = LANE_LAST_I[15:0];
    wire wl_lane_last = wl_lane == LANE_LAST;
    wire wl_tap_last  = (wl_ig == cfg_icg - 16'd1) && (wl_kx == cfg_k - 4'd1) && (wl_ky == cfg_k - 4'd1);
    wire wl_p_we = wl_fire && !wl_ph && (wl_pw == 2'd2);
    wire wl_w_we = wl_fire && wl_ph;

    reg [15:0] inflight;      // results issued, not yet in the output FIFO
    wire       frame_done;

    always @(posedge clk) begin
        if (rst) begin
            wl_done <= 1'b0; wl_reload <= 1'b0; wl_ph <= 1'b0; wl_pw <= 2'd0;
            wl_lane <= 16'd0; wl_og <= 16'd0; wl_ig <= 16'd0; wl_ky <= 4'd0; wl_kx <= 4'd0;
            wl_addr <= {WAB{1'b0}};
        end else begin
            if (frame_done && cfg_wreload)
                wl_reload <= 1'b1;
            if (wl_reload && inflight == 16'd0 && !frame_done) begin
                wl_reload <= 1'b0;
                wl_done   <= 1'b0;
            end
            if (wl_fire) begin
                if (!wl_ph) begin
                    if (wl_pw == 2'd0) wl_bias <= w_tdata[31:0];
                    if (wl_pw == 2'd1) wl_m <= w_tdata[31:0];
                    wl_pw <= (wl_pw == 2'd2) ? 2'd0 : wl_pw + 2'd1;
                    if (wl_pw == 2'd2) begin
                        wl_lane <= wl_lane_last ? 16'd0 : wl_lane + 16'd1;
                        if (wl_lane_last)
                            wl_ph <= 1'b1;
                    end
                end else begin
                    wl_lane <= wl_lane_last ? 16'd0 : wl_lane + 16'd1;
                    if (wl_lane_last) begin
                        wl_addr <= wl_addr + 1'b1;
                        wl_ig <= (wl_ig == cfg_icg - 16'd1) ? 16'd0 : wl_ig + 16'd1;
                        if (wl_ig == cfg_icg - 16'd1) begin
                            wl_kx <= (wl_kx == cfg_k - 4'd1) ? 4'd0 : wl_kx + 4'd1;
                            if (wl_kx == cfg_k - 4'd1)
                                wl_ky <= (wl_ky == cfg_k - 4'd1) ? 4'd0 : wl_ky + 4'd1;
                        end
                        if (wl_tap_last) begin
                            wl_ph <= 1'b0;
                            wl_og <= (wl_og == cfg_ocg - 16'd1) ? 16'd0 : wl_og + 16'd1;
                            if (wl_og == cfg_ocg - 16'd1) begin
                                wl_done <= 1'b1;
                                wl_addr <= {WAB{1'b0}};
                            end
                        end
                    end
                end
            end
        end
    end

    // ================= output FIFO credit =================
    reg  [8*PE_OC-1:0] fq [0:FD-1];
    reg  [FB-1:0]      fq_wp, fq_rp;
    reg  [FB:0]        fq_cnt;
    wire               rq_valid;
    wire [8*PE_OC-1:0] rq_q;
    wire [15:0] fq_cnt16 = {{(15-FB){1'b0}}, fq_cnt};
    localparam [15:0] FD16 = FD[15:0];
    wire credit = (inflight + fq_cnt16) < FD16;

    // ================= sliding window =================
    wire               iss, iss_last;
    wire [WAB-1:0]     iss_wa;
    wire               d_valid, d_first, d_last;
    wire [8*PE_IC-1:0] d_data;
    /* verilator lint_off UNUSEDSIGNAL */ // groups above OCGMAX do not occur
    wire [15:0]        d_og;
    /* verilator lint_on UNUSEDSIGNAL */

    kiln_conv_window #(
        .LANES(PE_IC), .KMAX(KMAX), .WMAX(WMAX), .GMAX(ICGMAX), .DW(0), .WAB(WAB)
    ) u_win (
        .clk(clk), .rst(rst),
        .cfg_h(cfg_h), .cfg_w(cfg_w), .cfg_icg(cfg_icg), .cfg_ocg(cfg_ocg),
        .cfg_k(cfg_k), .cfg_stride(cfg_stride), .cfg_pad(cfg_pad),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .go(wl_done && credit),
        .iss(iss), .iss_wa(iss_wa), .iss_last(iss_last),
        .d_valid(d_valid), .d_data(d_data), .d_first(d_first), .d_last(d_last), .d_og(d_og),
        .frame_done(frame_done)
    );

    always @(posedge clk) begin
        if (rst)
            inflight <= 16'd0;
        else
            inflight <= inflight + {15'd0, iss && iss_last} - {15'd0, rq_valid};
    end

    // ================= weight memories, products =================
    wire signed [15:0] prod [0:PE_OC*PE_IC-1];  // registered products (stage P)
    wire [8*PE_IC-1:0] wrd  [0:PE_OC-1];        // weight words (stage D)

    genvar o, i, n;
    generate
        for (o = 0; o < PE_OC; o = o + 1) begin : g_wm
            reg [8*PE_IC-1:0] wm [0:WDEPTH-1];
            reg [8*PE_IC-1:0] r;
            always @(posedge clk)
                if (wl_w_we && wl_lane == o[15:0])
                    wm[wl_addr] <= w_tdata;
            always @(posedge clk)
                r <= wm[iss_wa];
            assign wrd[o] = r;
        end

        if (PACK == 2) begin : g_pk
            for (o = 0; o < PE_OC; o = o + 2) begin : g_pair
                for (i = 0; i < PE_IC; i = i + 1) begin : g_i
                    wire signed [15:0] p1, p2;
                    kiln_mac2 #(.PACK(2)) u_mac (
                        .clk(clk), .a(d_data[8*i +: 8]),
                        .w1(wrd[o+1][8*i +: 8]), .w2(wrd[o][8*i +: 8]),
                        .p1(p1), .p2(p2));
                    assign prod[o*PE_IC + i]     = p2;
                    assign prod[(o+1)*PE_IC + i] = p1;
                end
            end
        end else begin : g_np
            for (o = 0; o < PE_OC; o = o + 1) begin : g_o
                for (i = 0; i < PE_IC; i = i + 1) begin : g_i
                    reg signed [15:0] p;
                    always @(posedge clk)
                        p <= $signed(d_data[8*i +: 8]) * $signed(wrd[o][8*i +: 8]);
                    assign prod[o*PE_IC + i] = p;
                end
            end
        end
    endgenerate

    // control beside the products (stage P), then through the tree (stage T)
    reg        p_valid, p_first, p_last;
    reg [OGB-1:0] p_og;
    always @(posedge clk) begin
        p_valid <= d_valid && !rst;
        p_first <= d_first;
        p_last  <= d_last;
        p_og    <= d_og[OGB-1:0];
    end

    wire          t_valid, t_first, t_last;
    wire [OGB-1:0] t_og;
    generate
        if (TL == 0) begin : g_c0
            assign t_valid = p_valid;
            assign t_first = p_first;
            assign t_last  = p_last;
            assign t_og    = p_og;
        end else begin : g_cn
            reg [TL-1:0] v_s, f_s, l_s;
            reg [OGB-1:0] og_s [0:TL-1];
            integer k;
            always @(posedge clk) begin
                v_s[0]  <= p_valid && !rst;
                f_s[0]  <= p_first;
                l_s[0]  <= p_last;
                og_s[0] <= p_og;
                for (k = 1; k < TL; k = k + 1) begin
                    v_s[k]  <= v_s[k-1] && !rst;
                    f_s[k]  <= f_s[k-1];
                    l_s[k]  <= l_s[k-1];
                    og_s[k] <= og_s[k-1];
                end
            end
            assign t_valid = v_s[TL-1];
            assign t_first = f_s[TL-1];
            assign t_last  = l_s[TL-1];
            assign t_og    = og_s[TL-1];
        end
    endgenerate

    // ================= adder trees, accumulators, parameters =================
    reg a_valid;
    reg [OGB-1:0] a_og;
    always @(posedge clk) begin
        a_valid <= t_valid && t_last && !rst;
        a_og    <= t_og;
    end

    wire [32*PE_OC-1:0] rq_acc;
    wire [16*PE_OC-1:0] rq_mpos, rq_mneg;
    wire [6*PE_OC-1:0]  rq_shift;

    generate
        for (o = 0; o < PE_OC; o = o + 1) begin : g_oc
            // heap-ordered tree: node n = node 2n + node 2n+1, leaves NP..2NP-1,
            // root 1; nodes of depth < TL are registered
            wire signed [TW-1:0] nd [1:2*NP-1] /* verilator split_var */;
            for (n = NP; n < 2 * NP; n = n + 1) begin : g_leaf
                if (n - NP < PE_IC) begin : g_p
                    assign nd[n] = {{(TW-16){prod[o*PE_IC + n - NP][15]}}, prod[o*PE_IC + n - NP]};
                end else begin : g_z
                    assign nd[n] = {TW{1'b0}};
                end
            end
            for (n = 1; n < NP; n = n + 1) begin : g_add
                wire signed [TW-1:0] s = nd[2*n] + nd[2*n+1];
                if (flog2(n) < TL) begin : g_r
                    reg signed [TW-1:0] r;
                    always @(posedge clk)
                        r <= s;
                    assign nd[n] = r;
                end else begin : g_c
                    assign nd[n] = s;
                end
            end
            wire signed [TW-1:0] sum = nd[1];

            // per-channel parameters, written by the loader, read at stage T / A
            reg [31:0] bias [0:OCGMAX-1];
            reg [15:0] mpos [0:OCGMAX-1];
            reg [15:0] mneg [0:OCGMAX-1];
            reg [5:0]  shft [0:OCGMAX-1];
            always @(posedge clk)
                if (wl_p_we && wl_lane == o[15:0]) begin
                    bias[wl_og[OGB-1:0]] <= wl_bias;
                    mpos[wl_og[OGB-1:0]] <= wl_m[15:0];
                    mneg[wl_og[OGB-1:0]] <= wl_m[31:16];
                    shft[wl_og[OGB-1:0]] <= w_tdata[5:0];
                end

            reg signed [31:0] acc;
            wire signed [31:0] base = t_first ? $signed(bias[t_og]) : acc;
            always @(posedge clk)
                if (t_valid)
                    acc <= base + {{(32-TW){sum[TW-1]}}, sum};
            assign rq_acc[32*o +: 32]  = acc;
            assign rq_mpos[16*o +: 16] = mpos[a_og];
            assign rq_mneg[16*o +: 16] = mneg[a_og];
            assign rq_shift[6*o +: 6]  = shft[a_og];
        end
    endgenerate

    kiln_requant #(.LANES(PE_OC), .PIPE(RQ_PIPE)) u_rq (
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
