// kiln_conv_window: sliding-window unit shared by kiln_conv and kiln_dwconv.
//
// Accepts a feature map on s_* (raster order, LANES int8 lanes per beat,
// cfg_icg beats per pixel), keeps it in a line buffer of R = 2^ceil(log2(KMAX+1))
// rows, and issues one "op" per cycle: one LANES-wide word of the KxK window,
// zero where the window hangs over the padded border.  Loop order of the ops
// (outermost first):
//   oy < Hout, ox < Wout, og < cfg_ocg, ky < K, kx < K, ig < (DW ? 1 : cfg_icg)
// The word read is input group ig (DW = 0) or og (DW = 1, depthwise: output
// group og is input group og).  iss_wa counts the ops of one output pixel from
// 0, so it is the weight address in the layout og, ky, kx, ig.
//
// Row flow control (row granularity, which keeps the cycle model exact):
//   - input row iy is accepted while iy < rel + R, where rel = max(0, oy*S-P) is
//     the first row the current output row still needs;
//   - output row oy starts when rows up to min(H, oy*S-P+K)-1 are complete;
//   - within a row, ops issue every cycle go is high.
// At the end of a frame the sequencer waits for the writer to finish the frame
// (rows below the last window may remain), then both restart.
//
// Bands (cfg_band > 0): the output rows run in bands of cfg_band rows
//   (the last one may be shorter), and each band is issued once per pass of
//   the sequencer's owner (tile_last low: again from the band's first row;
//   high at the end of a pass: the next band).  The input rows of a band
//   stay in the line buffer for all its passes: input row iy is accepted
//   while iy < rel + R with rel = the band's first input row, so the line
//   buffer must hold (cfg_band - 1) * S + K rows (LBROWS) and the input is
//   streamed once a frame however many passes a band takes.  Pixel groups
//   (SPAN) do not cross a band's last row.  cfg_band = 0: one band of the
//   whole frame, every pass streaming the input again (the plain order).
// Pixel parallelism PP: an op covers PP horizontally adjacent output pixels
//   ox .. ox+PP-1 (ox steps by PP, the last group of a row may be partial);
//   the line buffer is replicated PP times (one read port each, same writes)
//   and d_data carries PP words, pixel p at bits [8*LANES*p +: 8*LANES], zero
//   for padding and for pixels past the row end (d_pv clear).  d_data is
//   defined while d_valid is 1 (the reads are enabled by iss; between ops it
//   holds the last op's words).
// SPAN = 1 (PP > 1): pixel groups run across row ends.  Group n covers the
//   output pixels n*PP .. n*PP+PP-1 in raster order, so a group that starts
//   near the end of row oy takes its last pixels from the start of row oy+1
//   and only the frame's last group may be partial.  A group's rows are the
//   rows of both its output rows (K+S input rows), so this holds only while
//   K + S <= R and Wout >= PP; cfg outside that runs the groups row by row
//   as with SPAN = 0.  Row readiness is checked at every group start against
//   the rows of the group's last pixel; an output row's slot release is the
//   end of the last group that starts in it.
// Parameters: LANES, KMAX (1..15), WMAX (widest map), GMAX (most input groups),
//   DW (1 = depthwise loop), WAB (width of iss_wa), PP (pixels per op),
//   SPAN (0|1, pixel groups across row ends), LBROWS (line-buffer rows
//   wanted beyond KMAX + 1 for bands; 0: none), LBURAM (1: the line buffers
//   are UltraRAM, ram_style "ultra"; 0: the synthesis tool picks),
//   LBBANK (0: PP replicated line buffers, as above; > 0: one line buffer
//   banked by pixel, LBBANK words a bank, below).
// Banked line buffer (LBBANK > 0; PP a power of two >= 2, cfg_stride 1):
//   the input pixels in raster order n = iy*W + ix go to bank n mod PP at
//   word ((n / PP) << gsh) | g, gsh = ceil(log2 cfg_icg): the rows are
//   packed at W pixels (not 2^ceil(log2 WMAX)) and a pixel takes
//   2^ceil(log2 ICG) words of its own layer (not of GMAX).  An op's PP
//   pixels read the PP consecutive pixels m .. m+PP-1 (m: pixel 0's tap,
//   kept incrementally, adds only), so each bank is read once: bank b at
//   (m / PP + (b < m mod PP)), rotated by m mod PP into d_data.  Across a
//   row end (SPAN) the next row's pixels follow on only where Wout = W, so
//   SPAN runs there only.  The R rows a layer keeps are R*W pixels, whose
//   words in a bank are a contiguous range of at most
//   ceil(R*W/PP) << gsh: that must be <= LBBANK (the planner sizes it).
// Ports: cfg_h, cfg_w (map), cfg_icg (beats per input pixel), cfg_ocg (output
//   groups), cfg_k, cfg_stride (1|2), cfg_pad (< K); go (issue allowed);
//   iss, iss_wa, iss_last (the op issuing now); d_* the same op one cycle later
//   with its data word; d_pv: pixel p of the op exists; d_oglast: og is the
//   last output group; frame_done pulses with the last op of a pass (a
//   frame, or with bands a band's pass); cfg_band, tile_last (bands: the
//   pass now issuing is its band's last); band_done pulses with the last op
//   of a band's last pass; span_on: groups run across row ends; hout: the
//   output rows.
// cfg_k - cfg_pad is registered: cfg must be set a cycle before a frame.
// Latency: data one cycle after issue.
// Resources: PP line buffers of R * 2^ceil(log2 WMAX) * 2^ceil(log2 GMAX)
//   words of 8*LANES bits (BRAM, or URAM288 with LBURAM), ~250 LUT of
//   counters; banked: PP banks of 2^ceil(log2 LBBANK) words, the rotation
//   (8*LANES*PP bits of a PP:1 multiplexer) and PP bank address adders.
module kiln_conv_window #(
    parameter integer LANES = 4,
    parameter integer KMAX  = 3,
    parameter integer WMAX  = 64,
    parameter integer GMAX  = 16,
    parameter integer DW    = 0,
    parameter integer WAB   = 16,
    parameter integer PP    = 1,
    parameter integer SPAN  = 0,
    parameter integer LBROWS = 0,
    parameter integer LBURAM = 0,
    parameter integer LBBANK = 0
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
    input  wire [15:0]          cfg_band,
    input  wire                 tile_last,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*LANES-1:0]   s_tdata,
    input  wire                 go,
    output wire                 iss,
    output reg  [WAB-1:0]       iss_wa,
    output wire                 iss_last,
    output reg                  d_valid,
    output wire [8*LANES*PP-1:0] d_data,
    output reg  [PP-1:0]        d_pv,
    output reg                  d_oglast,
    output reg                  d_first,
    output reg                  d_last,
    output reg  [15:0]          d_og,
    output wire                 frame_done,
    output wire                 band_done,
    output wire                 span_out,
    output wire [15:0]          hout_out,
    output wire [15:0]          wout_out
);

    localparam integer RW = (LBROWS > KMAX + 1) ? LBROWS : KMAX + 1;
    localparam integer RB = $clog2(RW);
    localparam integer R  = 1 << RB;
    localparam integer XB = ($clog2(WMAX) < 1) ? 1 : $clog2(WMAX);
    localparam integer GB = ($clog2(GMAX) < 1) ? 1 : $clog2(GMAX);
    localparam integer AB = RB + XB + GB;

    // ---- static shape (cfg is stable during a frame) ----
    wire [15:0] kk16  = {12'd0, cfg_k};
    wire [15:0] pad16 = {12'd0, cfg_pad};
    wire        s2    = cfg_stride == 2'd2;
    wire [15:0] span_h = cfg_h + pad16 + pad16 - kk16;
    wire [15:0] span_w = cfg_w + pad16 + pad16 - kk16;
    wire [15:0] hout  = (s2 ? {1'b0, span_h[15:1]} : span_h) + 16'd1;
    wire [15:0] wout  = (s2 ? {1'b0, span_w[15:1]} : span_w) + 16'd1;
    wire [15:0] ign   = (DW != 0) ? 16'd1 : cfg_icg;

    localparam integer PPI = PP;
    localparam [15:0]  PP16 = PPI[15:0];
    localparam [16:0]  R17K = R[16:0];

    // ---- sequencer state ----
    reg [15:0] oy, ox, og, ig, ty, tx;
    reg [3:0]  ky, kx;
    reg        at_rs;     // next op starts an output row (SPAN: a group)
    reg        seq_wait;  // frame issued; waiting for the writer to finish it
    reg [15:0] by0, bty0; // bands: the band's first output row, its first window row
    wire       band_on = cfg_band != 16'd0;
    wire [16:0] bend = {1'b0, by0} + {1'b0, cfg_band};  // past the band's last row
    wire       b_last = !band_on || bend >= {1'b0, hout}; // the frame's last band
    wire [15:0] oy_last = b_last ? hout - 16'd1 : bend[15:0] - 16'd1;

    wire signed [17:0] top = $signed({2'b0, ty}) - $signed({2'b0, pad16});
    wire signed [17:0] xs  = $signed({2'b0, tx}) - $signed({2'b0, pad16});
    // the first row still needed: the current output row's, or with bands
    // the band's (its later passes start from it again)
    wire signed [17:0] btop = $signed({2'b0, bty0}) - $signed({2'b0, pad16});
    /* verilator lint_off UNUSEDSIGNAL */ // a row number below 2^16
    wire signed [17:0] ntop = band_on ? btop : top;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0] rel = ntop[17] ? 16'd0 : ntop[15:0];
    wire        l_oy_w = oy == oy_last;

    // ---- writer ----
    reg [15:0] wr_row, wr_x, wr_g;
    localparam [16:0] R17 = R[16:0];
    wire [16:0] wr_lim = {1'b0, rel} + R17;
    assign s_tready = (wr_row != cfg_h) && (seq_wait || ({1'b0, wr_row} < wr_lim));
    wire wr_fire = s_tvalid && s_tready;
    wire restart = seq_wait && (wr_row == cfg_h);


    always @(posedge clk) begin
        if (rst || restart) begin
            wr_row <= 16'd0;
            wr_x   <= 16'd0;
            wr_g   <= 16'd0;
        end else if (wr_fire) begin
            if (wr_g == cfg_icg - 16'd1) begin
                wr_g <= 16'd0;
                if (wr_x == cfg_w - 16'd1) begin
                    wr_x   <= 16'd0;
                    wr_row <= wr_row + 16'd1;
                end else begin
                    wr_x <= wr_x + 16'd1;
                end
            end else begin
                wr_g <= wr_g + 16'd1;
            end
        end
    end

    // ---- row readiness ----
    // K - P registered: cfg is stable for a frame, and it keeps a carry
    // chain off the issue path
    reg signed [17:0] kmp;
    always @(posedge clk)
        kmp <= $signed({2'b0, kk16}) - $signed({2'b0, pad16});
    // SPAN: groups run across row ends where the line buffer holds both
    // output rows' input rows (K + S <= R) and a group spans at most two
    // rows (Wout >= PP); registered, cfg is stable for a frame
    reg        span_on;
    reg [15:0] wout_s;  // Wout * stride: the column step back at a row end
    always @(posedge clk) begin
        span_on <= (SPAN != 0) && (PP > 1) && ({1'b0, wout} >= {1'b0, PP16}) &&
                   ({13'd0, cfg_k} + {15'd0, cfg_stride} <= R17K) &&
                   (LBBANK == 0 || wout == cfg_w);
        wout_s  <= s2 ? {wout[14:0], 1'b0} : wout;
    end
    // the group's last pixel is in the next output row (it exists unless oy
    // is the last row)
    wire [16:0] ox_lastp = {1'b0, ox} + {1'b0, PP16} - 17'd1;
    wire        g_wrap   = span_on && (ox_lastp >= {1'b0, wout}) && !l_oy_w;
    wire signed [17:0] need = $signed({2'b0, ty}) + kmp +
                              (g_wrap ? $signed({16'd0, cfg_stride}) : 18'sd0);
    wire row_ready = (need >= $signed({2'b0, cfg_h})) ? (wr_row == cfg_h)
                                                      : ($signed({2'b0, wr_row}) >= need);
    assign iss = !seq_wait && go && (!at_rs || row_ready);

    wire l_ig = ig == ign - 16'd1;
    wire l_kx = kx == cfg_k - 4'd1;
    wire l_ky = ky == cfg_k - 4'd1;
    wire l_og = og == cfg_ocg - 16'd1;
    wire [16:0] ox_next = {1'b0, ox} + {1'b0, PP16};
    wire l_ox = ox_next >= {1'b0, wout};
    wire l_oy = l_oy_w;
    wire op_first = (ky == 4'd0) && (kx == 4'd0) && (ig == 16'd0);
    wire op_last  = l_ky && l_kx && l_ig;
    wire pix_end  = op_last && l_og;
    wire row_end  = pix_end && l_ox;
    assign iss_last   = op_last;
    assign frame_done = iss && row_end && l_oy;
    assign band_done  = frame_done && (!band_on || tile_last);
    assign span_out   = span_on;
    assign hout_out   = hout;
    assign wout_out   = wout;

    // ---- read addresses of this op, one line buffer per pixel ----
    // ram_style of the line buffers (an attribute, which lint does not count as a use)
    /* verilator lint_off UNUSEDPARAM */
    localparam LBSTYLE = (LBURAM != 0) ? "ultra" : "auto";
    /* verilator lint_on UNUSEDPARAM */
    wire signed [17:0] iy = top + $signed({14'd0, ky});
    /* verilator lint_off UNUSEDSIGNAL */ // a layout uses its own bits of it
    wire [15:0] g16 = (DW != 0) ? og : ig;
    wire [GB-1:0] g = g16[GB-1:0];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [PP-1:0] pv_c;

    // ---- banked line buffer (LBBANK > 0) ----
    localparam integer PS  = (PP > 1) ? $clog2(PP) : 1;  // pixel bits of a bank index
    localparam integer BAB = (LBBANK > 1) ? $clog2(LBBANK) : 1; // word address bits of a bank
    localparam integer MB  = BAB + PS;                    // pixel index bits kept
    /* verilator lint_off UNUSEDSIGNAL */ // LBBANK 0: not read
    wire [8*LANES*PP-1:0] bk_rot;  // the banks' words rotated to pixel order
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (LBBANK == 0) begin : g_nobank
            assign bk_rot = {8*LANES*PP{1'b0}};
        end else begin : g_banked
            // gsh = ceil(log2 cfg_icg) and B0 = -(P*W + P), pixel 0's first
            // tap of a frame: registered from cfg (stable for a frame)
            reg [3:0]    gsh, gsh_c;
            reg [MB-1:0] b0, wm;  // B0; W (mod 2^MB)
            integer      gi;
            always @* begin
                gsh_c = 4'd0;
                for (gi = 1; gi < 16; gi = gi + 1)
                    if (cfg_icg > (16'd1 << (gi - 1)))
                        gsh_c = gi[3:0];
            end
            always @(posedge clk) begin
                gsh <= gsh_c;
                wm  <= cfg_w[MB-1:0];
                b0  <= {MB{1'b0}} - (({{(MB-4){1'b0}}, cfg_pad} * cfg_w[MB-1:0]) +
                                     {{(MB-4){1'b0}}, cfg_pad});
            end
            // the writer: pixel n of the frame, its bank and word
            reg [MB-1:0] wn;
            always @(posedge clk)
                if (rst || restart)
                    wn <= {MB{1'b0}};
                else if (wr_fire && wr_g == cfg_icg - 16'd1)
                    wn <= wn + 1'b1;
            wire [BAB-1:0] wq = wn[MB-1:PS];
            wire [BAB-1:0] wa = (wq << gsh) | wr_g[BAB-1:0];
            // the reader: m (pixel 0's tap), mtr (the tap row's first tap),
            // mg (the group's first tap), mrb (the output row's first
            // tap at ox 0), mbd (the band's); mfirst: the next op is a
            // frame's first, whose values are all B0
            reg [MB-1:0] m, mtr, mg, mrb, mbd;
            reg          mfirst;
            wire [MB-1:0] m_e   = mfirst ? b0 : m;
            wire [MB-1:0] mtr_e = mfirst ? b0 : mtr;
            wire [MB-1:0] mg_e  = mfirst ? b0 : mg;
            wire [MB-1:0] mrb_e = mfirst ? b0 : mrb;
            wire [MB-1:0] mbd_e = mfirst ? b0 : mbd;
            localparam integer PPM = PP;
            wire [MB-1:0] pp_m  = PPM[MB-1:0];
            always @(posedge clk) begin
                if (rst) begin
                    mfirst <= 1'b1;
                end else if (iss) begin
                    mfirst <= 1'b0;
                    m <= m_e; mtr <= mtr_e; mg <= mg_e; mrb <= mrb_e; mbd <= mbd_e;
                    if (!l_ig) begin
                        m <= m_e;
                    end else if (!l_kx) begin
                        m <= m_e + 1'b1;
                    end else if (!l_ky) begin
                        m   <= mtr_e + wm;
                        mtr <= mtr_e + wm;
                    end else if (!l_og) begin
                        m   <= mg_e;
                        mtr <= mg_e;
                    end else if (!l_ox || (span_on && !l_oy)) begin
                        // the next group: PP pixels on (across a row end
                        // Wout = W, so the same)
                        m   <= mg_e + pp_m;
                        mtr <= mg_e + pp_m;
                        mg  <= mg_e + pp_m;
                        if (l_ox)
                            mrb <= mrb_e + wm;
                    end else if (!l_oy) begin
                        m   <= mrb_e + wm;
                        mtr <= mrb_e + wm;
                        mg  <= mrb_e + wm;
                        mrb <= mrb_e + wm;
                    end else if (band_on && !tile_last) begin
                        // the band again
                        m   <= mbd_e;
                        mtr <= mbd_e;
                        mg  <= mbd_e;
                        mrb <= mbd_e;
                    end else if (!b_last) begin
                        // the next band
                        m   <= mrb_e + wm;
                        mtr <= mrb_e + wm;
                        mg  <= mrb_e + wm;
                        mrb <= mrb_e + wm;
                        mbd <= mrb_e + wm;
                    end else begin
                        mfirst <= 1'b1;
                    end
                end
            end
            wire [BAB-1:0] mq = m_e[MB-1:PS];
            wire [PS-1:0]  mc = m_e[PS-1:0];
            reg  [PS-1:0]  rot;
            always @(posedge clk)
                if (iss)
                    rot <= mc;
            wire [8*LANES*PP-1:0] bk_rd;
            genvar b;
            for (b = 0; b < PP; b = b + 1) begin : g_bk
                localparam integer BI = b;
                (* ram_style = LBSTYLE *) reg [8*LANES-1:0] lb [0:(1<<BAB)-1];
                reg [8*LANES-1:0] rd;
                always @(posedge clk)
                    if (wr_fire && wn[PS-1:0] == BI[PS-1:0])
                        lb[wa] <= s_tdata;
                // pixel (b - mc) mod PP: in the next slot where b < mc
                /* verilator lint_off CMPCONST */ // bank PP-1 never takes the next slot
                wire [BAB-1:0] q  = mq + ((BI[PS-1:0] < mc) ? {{(BAB-1){1'b0}}, 1'b1} : {BAB{1'b0}});
                /* verilator lint_on CMPCONST */
                wire [BAB-1:0] ra = (q << gsh) | g16[BAB-1:0];
                always @(posedge clk)
                    if (iss)
                        rd <= lb[ra];
                assign bk_rd[8*LANES*b +: 8*LANES] = rd;
            end
            // pixel p is bank (rot + p) mod PP
            for (b = 0; b < PP; b = b + 1) begin : g_rot
                localparam integer PI = b;
                wire [PS-1:0] sel = rot + PI[PS-1:0];
                assign bk_rot[8*LANES*b +: 8*LANES] = bk_rd[8*LANES*sel +: 8*LANES];
            end
        end
    endgenerate

    genvar p;
    generate
        for (p = 0; p < PP; p = p + 1) begin : g_px
            reg               pad;
            wire [8*LANES-1:0] rdw; // this pixel's word (replicated or rotated banks)
            // pixel ox+p starts at column xs + p*stride; past the row end
            // (SPAN) it is pixel ox+p-Wout of the next row: stride rows
            // down, Wout*stride columns back
            localparam integer PX1 = p;
            localparam integer PX2 = 2 * p;
            wire [17:0] off = s2 ? PX2[17:0] : PX1[17:0];
            wire [16:0] oxp = {1'b0, ox} + PX1[16:0];
            wire past = oxp >= {1'b0, wout};
            wire wrp  = span_on && past;
            wire signed [17:0] ix = xs + $signed({14'd0, kx}) + $signed(off) -
                                    (wrp ? $signed({2'b0, wout_s}) : 18'sd0);
            wire signed [17:0] iyp = iy + (wrp ? $signed({16'd0, cfg_stride}) : 18'sd0);
            wire pad_y = iyp[17] || (iyp >= $signed({2'b0, cfg_h}));
            assign pv_c[p] = wrp ? !l_oy_w : !past;
            wire pad_op = pad_y || ix[17] || (ix >= $signed({2'b0, cfg_w})) || !pv_c[p];
            if (LBBANK == 0) begin : g_rep
                (* ram_style = LBSTYLE *) reg [8*LANES-1:0] lb [0:(1<<AB)-1];
                reg [8*LANES-1:0] rd;
                always @(posedge clk)
                    if (wr_fire)
                        lb[{wr_row[RB-1:0], wr_x[XB-1:0], wr_g[GB-1:0]}] <= s_tdata;
                always @(posedge clk)
                    if (iss)
                        rd <= lb[{iyp[RB-1:0], ix[XB-1:0], g}];
                assign rdw = rd;
            end else begin : g_bank
                assign rdw = bk_rot[8*LANES*p +: 8*LANES];
            end
            always @(posedge clk)
                if (iss)
                    pad <= pad_op;
            assign d_data[8*LANES*p +: 8*LANES] = pad ? {8*LANES{1'b0}} : rdw;
        end
    endgenerate

    always @(posedge clk) begin
        d_valid  <= iss && !rst;
        d_first  <= op_first;
        d_last   <= op_last;
        d_og     <= og;
        d_pv     <= pv_c;
        d_oglast <= l_og;
    end

    always @(posedge clk) begin
        if (rst) begin
            oy <= 16'd0; ox <= 16'd0; og <= 16'd0; ig <= 16'd0;
            ky <= 4'd0; kx <= 4'd0; ty <= 16'd0; tx <= 16'd0;
            by0 <= 16'd0; bty0 <= 16'd0;
            iss_wa <= {WAB{1'b0}};
            at_rs <= 1'b1;
            seq_wait <= 1'b0;
        end else begin
            if (restart)
                seq_wait <= 1'b0;
            if (iss) begin
                ig <= l_ig ? 16'd0 : ig + 16'd1;
                if (l_ig)
                    kx <= l_kx ? 4'd0 : kx + 4'd1;
                if (l_ig && l_kx)
                    ky <= l_ky ? 4'd0 : ky + 4'd1;
                if (op_last)
                    og <= l_og ? 16'd0 : og + 16'd1;
                if (pix_end) begin
                    iss_wa <= {WAB{1'b0}};
                    if (l_ox && span_on && !l_oy) begin
                        // the next group starts at ox + PP - Wout of the next row
                        ox <= ox_next[15:0] - wout;
                        tx <= tx + (s2 ? {PP16[14:0], 1'b0} : PP16) - wout_s;
                    end else begin
                        ox <= l_ox ? 16'd0 : ox_next[15:0];
                        tx <= l_ox ? 16'd0 : tx + (s2 ? {PP16[14:0], 1'b0} : PP16);
                    end
                end else begin
                    iss_wa <= iss_wa + 1'b1;
                end
                at_rs <= span_on ? pix_end : row_end;
                if (row_end) begin
                    oy <= l_oy ? 16'd0 : oy + 16'd1;
                    ty <= l_oy ? 16'd0 : ty + {14'd0, cfg_stride};
                    if (l_oy && band_on && !tile_last) begin
                        // the band again for the next pass
                        oy <= by0;
                        ty <= bty0;
                    end else if (l_oy && !b_last) begin
                        // the next band; its rows are those after this one
                        by0  <= oy + 16'd1;
                        bty0 <= ty + {14'd0, cfg_stride};
                        oy   <= oy + 16'd1;
                        ty   <= ty + {14'd0, cfg_stride};
                    end else if (l_oy) begin
                        by0  <= 16'd0;
                        bty0 <= 16'd0;
                        seq_wait <= 1'b1;
                    end
                end
            end
        end
    end
endmodule
