// kiln_conv: KxK convolution + bias + requant/activation on int8 streams.
//
// Ports
//   clk, rst                         clock, active-high synchronous reset
//   clk2x                            DSP2X = 1, 2: the MAC array's clock, twice clk,
//                                    synchronous and edge-aligned (one MMCM);
//                                    unused with DSP2X = 0
//   cfg_h, cfg_w                     input map height, width (1..WMAX)
//   cfg_icg  = ceil(CIN / PE_IC)     input channel groups (1..ceil(CIMAX/PE_IC))
//   cfg_ocg  = ceil(COUT / PE_OC)    output channel groups (1..ceil(COMAX/PE_OC))
//   cfg_tog                          output groups per weight tile (>= 1;
//                                    >= cfg_ocg: the whole layer is one tile)
//   cfg_k (1..KMAX), cfg_stride (1|2), cfg_pad (0..K-1, zero padding all sides)
//   cfg_wreload                      1: a new weight set precedes every frame
//   wl_rst, wl_icg, wl_ocg, wl_tog, wl_k   WLSEP = 1: the weight loader's own
//                                    reset and its layer's cfg_icg, cfg_ocg,
//                                    cfg_tog, cfg_k (unused with WLSEP = 0)
//   s_tvalid/s_tready/s_tdata[8*PE_IC]   input map, raster order, cfg_icg beats/pixel
//   w_tvalid/w_tready/w_tdata[8*PE_IC]   weight stream (order below)
//   m_tvalid/m_tready/m_tdata[8*PE_OC]   output map (order below)
//   All cfg_* are held stable while a frame (and its weight set) is processed
//   and set at least one cycle before its first beat (some are registered).
//
// Weight tiles.  The output groups split into NT = ceil(cfg_ocg / cfg_tog)
// tiles of cfg_tog groups (the last one may be smaller).  The engine makes one
// pass over the frame per tile: the input map is streamed NT times (once per
// tile, re-read from DDR) and the output stream carries, per pass, every pixel
// in raster order with that tile's groups (tile-major: a writer places the
// pass at the tile's channel offset).  NT = 1 is the plain layout.
// Weight stream order, per tile (og counts from the tile's first group):
//   parameters: for og < tile groups, lane o < PE_OC, three beats:
//     [31:0] bias (int32);  [15:0] m_pos, [31:16] m_neg;  [5:0] shift
//   weights: for og, ky < K, kx < K, ig < cfg_icg, lane o: one beat,
//     lane i = w[c][ig*PE_IC+i][ky][kx], c = channel of og, lane o (zero for
//     padded channels).  The parameters of og precede its weights.
// Beats per tile = groups * PE_OC * (3 + K*K*cfg_icg).
// The output buffer (PP = 1: FIFO of 8..32 beats) grants ops with a
// registered credit.
// WBANKS = 2 double-buffers the weight memory: the next tile (or, with one
// tile and cfg_wreload, the next frame's set) streams into the free bank while
// the current pass computes; the sequencer gives a bank up at the last op of
// its pass and the loader may refill it LAT cycles later (its parameters are
// read until then).  WBANKS = 1 loads a tile only after that release.  One tile without cfg_wreload keeps the weights resident: the set
// is loaded once and serves every following frame.
//
// Parameters
//   PE_IC, PE_OC   MAC array (PE_OC x PE_IC int8 MACs, int32 accumulators)
//   PP             pixel parallelism (1..8): PP horizontally adjacent output
//                  pixels per op share the weight word (PP*PE_OC*PE_IC MACs)
//   KMAX           largest K; line buffer rows R = 2^ceil(log2(KMAX+1))
//   WMAX, CIMAX, COMAX  widest map, most input / output channels
//   WDEPTH         weight words per output lane and bank (>= tile groups*K*K*cfg_icg)
//   WBANKS         weight banks 1|2 (2 = load the next tile while computing)
//   WBMERGE        1 (WBANKS = 2): both banks in one memory of 2*WDEPTH words
//                  a lane, the bank its address's top part, so a URAM288
//                  4096 deep holds two banks of 2048 (0: a memory a bank)
//   PIPE           register levels in the adder tree (0..ceil(log3 leaves);
//                  a larger value registers every level), spread evenly over the tree
//                  adders + accumulator.  The tree is ternary: each node
//                  sums up to three of the level below (kiln_add3, one LUT
//                  a result bit with `define KILN_XILINX_PRIMS), so a lane
//                  of n leaves has ceil(log3 n) levels
//   RQ_PIPE        requant register stages (0..4, see kiln_requant.v)
//   QLO, QHI       the fused activation's output clamp (kiln_requant.v)
//   RQ_DSP         DSP48E2 a requant lane: 2, or 1 with its high product
//                  in LUTs (kiln_requant.v; same results and latency)
//   PACK           1, or 2 = two MACs per DSP48E2 (kiln_mac2; PE_OC even)
//   TOGMAX         most output groups per tile (0: ceil(COMAX/PE_OC)); sizes
//                  the per-channel parameter memories: WBANKS x 2^ceil(log2
//                  TOGMAX) words per output lane
//   WURAM          1: the weight memories are UltraRAM (URAM288, 4K x 72;
//                  ram_style "ultra"), 0: the synthesis tool picks block
//                  RAM or LUTRAM
//   LBURAM         1: the line buffers are UltraRAM (ram_style "ultra"), 0:
//                  the synthesis tool picks (kiln_conv_window.v)
//   LBBANK         0: PP replicated line buffers; > 0: one line buffer in PP
//                  banks of LBBANK words, rows packed at W pixels
//                  (kiln_conv_window.v; PP a power of two, stride 1 only)
//   RQS            results per requant lane: PP*PE_OC/RQS requant lanes take
//                  an op group's PP*PE_OC accumulators RQS at a time (1: one
//                  lane per result; > 1 needs K*K*cfg_icg >= RQS, so that
//                  results complete at most once every RQS cycles; RQS
//                  divides PP*PE_OC)
//   SPAN           1: pixel groups run across row ends (PP > 1; see
//                  kiln_conv_window.v): ceil(Hout*Wout/PP) groups per tile
//                  instead of Hout*ceil(Wout/PP), where K + S <= R and
//                  Wout >= PP
//   DSP2X          1: the multipliers run on clk2x (kiln_mac2x), each DSP48E2
//                  summing two input lanes' products a fabric cycle: half
//                  the DSPs, PE_IC/2 tree leaves a lane, 2 more cycles of
//                  latency (PE_IC even).  Only the DSPs, their registers and
//                  lane multiplexers are in the clk2x domain; simulation
//                  checks that clk2x alternates mid/aligned edges and is
//                  high at every clk edge (stops with a message otherwise).
//                  2 (PP even): pixel pairs on clk2x (kiln_mac2p): each
//                  DSP48E2 multiplies one (PACK 2: packed) weight operand by
//                  two pixels' activations a fabric cycle, the even pixel at
//                  the edge after the op, the odd one at the mid edge: half
//                  the DSPs, the products back to the clk domain separately
//                  (PE_IC tree leaves a lane, as DSP2X 0), 2 more cycles of
//                  latency; the clk2x domain holds the DSPs, the activation
//                  multiplexers and one product hold register a DSP
//   WLSEP          1: the weight loader (its counters, the banks' full and
//                  pending flags, the bank pointers, the releases in flight)
//                  is reset by wl_rst only and walks the layer wl_* gives,
//                  while rst resets the rest and cfg_* configure the window
//                  and sequencer: a host may reset and reconfigure the
//                  sequencer between two layers while the next layer's
//                  first tiles stream into the banks the last passes
//                  released (WBANKS = 2 and cfg_wreload: its tile 0 into
//                  the free bank, its tile 1 into the last pass's bank LAT
//                  cycles after that pass's last op), the tiles still in
//                  the order of the passes (kiln_tsconv's prefetch)
//   CASC           1 (with PACK 1, DSP2X 0): each output lane sums its PE_IC
//                  products in a DSP48E2 PCOUT -> PCIN chain (kiln_dsp_chain,
//                  the operand skew in its input delay lines) in place of
//                  the multipliers and the LUT adder tree; PIPE is unused
//                  and LAT grows to PE_IC + 2 product-to-sum stages.
//                  Synthesis with `define KILN_DSP48E2 (the primitive)
//
// Latency (issue of the last MAC of an output pixel group to its output beat):
//   LAT = 4 + min(PIPE, ceil(log3 PE_IC)) + RQ_PIPE (+ RQS when RQS > 1);
//   DSP2X = 1: LAT = 6 + min(PIPE, ceil(log3 (PE_IC/2))) + RQ_PIPE (+ RQS)
//   DSP2X = 2: LAT = 6 + min(PIPE, ceil(log3 PE_IC)) + RQ_PIPE (+ RQS)
//   CASC = 1:  LAT = 5 + PE_IC + RQ_PIPE (+ RQS)
// Cycles per frame (no back-pressure, first input beat to last output beat
// inclusive): a row-level recurrence, exact, in hls/desc_conv.c:
//   n_in = W*ICG cycles per input row, n_out = ceil(Wout/PP)*TG*K*K*ICG per
//   output row (TG = the tile's groups); output row oy starts when its last
//   input row min(H, oy*S-P+K)-1 is in and row oy-1 is done; input row iy
//   starts when iy < max(0, oy*S-P) + R; a pass's first row also waits for its
//   weight bank (loading bound when a tile loads slower than a pass computes);
//   the next pass's input starts the cycle after the last op of a pass and
//   the last input beat.  PP = 2: the two pixels' results leave in raster
//   order through a reorder buffer; exact while K*K*ICG >= PP.
//   ~ NT*Hout*ceil(Wout/PP)*TG*ICG*K*K + (K-P)*W*ICG + LAT when compute bound.
// Resources: DSP48E2 = PP*PE_OC*PE_IC/PACK/(DSP2X ? 2 : 1) + RQ_DSP*PP*PE_OC/RQS (requant);
//   BRAM: PP line buffers R*2^ceil(log2 WMAX)*2^ceil(log2 ICGMAX) x 8*PE_IC
//   bits, weights WBANKS*PE_OC x WDEPTH x 8*PE_IC bits, parameters PE_OC x
//   WBANKS*2^ceil(log2 TOGMAX) x (32+16+16+6) bits; LUT/FF ~ adder trees (one LUT a
//   result bit of each two- or three-input node, the nodes LW + flog2(n)
//   bits over n leaves) +
//   accumulators (see hls/desc_conv.c for the fitted formula); CASC = 1: no
//   tree; the skew in 8*(PE_IC-4) shift-register LUT a lane (weights) and a
//   pixel (activations, the lanes' equal delay lines merged by synthesis).
module kiln_conv #(
    parameter integer PE_IC   = 4,
    parameter integer PE_OC   = 4,
    parameter integer PP      = 1,
    parameter integer KMAX    = 3,
    parameter integer WMAX    = 64,
    parameter integer CIMAX   = 64,
    parameter integer COMAX   = 64,
    parameter integer WDEPTH  = ((CIMAX + PE_IC - 1) / PE_IC) * ((COMAX + PE_OC - 1) / PE_OC) * KMAX * KMAX,
    parameter integer WBANKS  = 1,
    parameter integer WBMERGE = 0,
    parameter integer PIPE    = 1,
    parameter integer RQ_PIPE = 2,
    parameter integer PACK    = 1,
    parameter integer TOGMAX  = 0,
    parameter integer WURAM   = 0,
    parameter integer RQS     = 1,
    parameter integer SPAN    = 0,
    parameter integer BANDMAX = 0,
    parameter integer LBROWS  = 0,
    parameter integer LBURAM  = 0,
    parameter integer LBBANK  = 0,
    parameter integer QLO     = -128,
    parameter integer QHI     = 127,
    parameter integer RQ_DSP  = 2,
    parameter integer DSP2X   = 0,
    parameter integer CASC    = 0,
    parameter integer WLSEP   = 0
) (
    input  wire                 clk,
    /* verilator lint_off UNUSEDSIGNAL */ // DSP2X = 0
    input  wire                 clk2x,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                 rst,
    input  wire [15:0]          cfg_h,
    input  wire [15:0]          cfg_w,
    input  wire [15:0]          cfg_icg,
    input  wire [15:0]          cfg_ocg,
    input  wire [15:0]          cfg_tog,
    input  wire [3:0]           cfg_k,
    input  wire [1:0]           cfg_stride,
    input  wire [3:0]           cfg_pad,
    input  wire                 cfg_wreload,
    input  wire [15:0]          cfg_band,
    /* verilator lint_off UNUSEDSIGNAL */ // WLSEP = 0
    input  wire                 wl_rst,
    input  wire [15:0]          wl_icg,
    input  wire [15:0]          wl_ocg,
    input  wire [15:0]          wl_tog,
    input  wire [3:0]           wl_k,
    /* verilator lint_on UNUSEDSIGNAL */
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
    // ceil(log3 v): levels of a ternary tree over v leaves (0 for v = 1)
    function integer clog3;
        input integer v;
        integer t;
        begin
            clog3 = 0;
            t = 1;
            while (t < v) begin
                t = t * 3;
                clog3 = clog3 + 1;
            end
        end
    endfunction
    function integer pow3;
        input integer e;
        integer k;
        begin
            pow3 = 1;
            for (k = 0; k < e; k = k + 1)
                pow3 = pow3 * 3;
        end
    endfunction
    // depth of node n of the heap-ordered ternary tree (root 1 at depth 0;
    // the nodes of depth d are (3^d + 1)/2 .. (3^(d+1) - 1)/2)
    function integer depth3;
        input integer n;
        integer t;
        begin
            depth3 = 0;
            t = 3;
            while (n > (t - 1) / 2) begin
                t = t * 3;
                depth3 = depth3 + 1;
            end
        end
    endfunction
    // products under node n of a tree of ll levels over lv leaves (filled
    // from the left, the rest zero)
    function integer tcount;
        input integer n, ll, lv;
        integer d, span, c;
        begin
            d = depth3(n);
            span = pow3(ll - d);
            c = lv - (n - (pow3(d) + 1) / 2) * span;
            tcount = (c < 0) ? 0 : (c > span) ? span : c;
        end
    endfunction

    localparam integer ICGMAX = (CIMAX + PE_IC - 1) / PE_IC;
    localparam integer OCGMAX = (COMAX + PE_OC - 1) / PE_OC;
    localparam integer WAB    = ($clog2(WDEPTH) < 1) ? 1 : $clog2(WDEPTH);
    localparam integer TGM    = (TOGMAX > 0 && TOGMAX < OCGMAX) ? TOGMAX : OCGMAX;
    localparam integer OGB    = ($clog2(TGM) < 1) ? 1 : $clog2(TGM); // group within a tile
    localparam integer LV     = (DSP2X == 1) ? PE_IC / 2 : PE_IC; // tree inputs a lane
    localparam integer LW     = (DSP2X == 1) ? 17 : 16; // their width (products, pair sums)
    localparam integer PD     = (DSP2X != 0) ? 3 : 1;   // op to registered products, cycles
    localparam integer L      = clog3(LV);             // adder tree levels (ternary)
    localparam integer NP     = pow3(L);               // leaves
    localparam integer FL     = (NP + 1) / 2;          // first leaf (heap index)
    localparam integer CS     = (CASC != 0 && PACK == 1 && DSP2X == 0) ? 1 : 0; // chains
    // registered tree levels; CS: the chain's stages after the product's
    localparam integer TL     = (CS != 0) ? PE_IC + 1 : (PIPE < L) ? PIPE : L;
    localparam integer TW     = LW + 1 + $clog2(LV);   // tree array width (> every node)
    localparam integer NL     = PP * PE_OC;            // results per op group
    localparam integer RL     = NL / RQS;              // requant lanes
    // LATB sizes the output buffer: with RQS > 1 results complete at most
    // once every RQS cycles, so the RQS cycles of serial requant add at most
    // one result in flight
    localparam integer LATB   = 3 + PD + TL + RQ_PIPE;
    localparam integer LAT    = LATB + (RQS > 1 ? RQS : 0);
    localparam integer PBB    = (WBANKS == 2) ? 1 : 0;
    // ram_style of the weight memories (an attribute, which lint does not count as a use)
    /* verilator lint_off UNUSEDPARAM */
    localparam         WSTYLE = (WURAM != 0) ? "ultra" : "auto";
    /* verilator lint_on UNUSEDPARAM */
    localparam integer PA     = OGB + PBB; // parameter address {bank (WBANKS = 2), og}

    // Register placement in the chain of L tree adders + the accumulator
    // adder (position q = 1 nearest the products, L + 1 the accumulator,
    // always registered): TL registers spread evenly so the segments between
    // registers differ by at most one adder.
    function treg;
        input integer q;
        begin
            treg = ((q * (TL + 1)) / (L + 1)) > (((q - 1) * (TL + 1)) / (L + 1));
        end
    endfunction
    // registers up to position q (the register at a treg() position q is
    // number treg_k(q) from the products, 1 ..  TL)
    function integer treg_k;
        input integer q;
        begin
            treg_k = (q * (TL + 1)) / (L + 1);
        end
    endfunction


    // ================= weight tiles: loader and banks =================
    reg  [WBANKS-1:0] full;       // bank holds a complete tile the sequencer may use
    reg  [WBANKS-1:0] pend;       // bank released, its last results still read it
    reg         lb;               // bank being loaded
    reg         cb;               // bank the sequencer reads
    reg         wl_stop;          // resident set loaded: take no more beats
    reg [15:0]  lt_base, ct_base; // first group of the tile loading / computing
    reg         wl_ph;            // 0 parameters of og, 1 weights of og
    reg [1:0]   wl_pw;            // parameter beat 0..2
    reg [15:0]  wl_lane;          // output lane
    reg [15:0]  wl_og, wl_ig;     // group within the tile, input group
    reg [3:0]   wl_ky, wl_kx;
    reg [WAB-1:0] wl_addr;        // weight word address
    reg [31:0]  wl_bias;          // first parameter beat of the lane
    reg [31:0]  wl_m;             // second parameter beat

    // the loader's reset and layer (WLSEP: its own, else the frame's)
    wire        rst_l = (WLSEP != 0) ? wl_rst : rst;
    wire [15:0] l_icg = (WLSEP != 0) ? wl_icg : cfg_icg;
    wire [15:0] l_ocg = (WLSEP != 0) ? wl_ocg : cfg_ocg;
    wire [15:0] l_tog = (WLSEP != 0) ? wl_tog : cfg_tog;
    wire [3:0]  l_k   = (WLSEP != 0) ? wl_k : cfg_k;

    wire        frame_done;   // last op of a pass issues now
    // groups of a tile starting at base: min(tog, ocg - base), registered
    // (a loader base changes many cycles before its count is first used;
    // the sequencer's count is taken for the next base at a pass's last
    // op, since with bands the next pass may issue the cycle after)
    wire [15:0] ct_next = (ct_base + cfg_tog >= cfg_ocg) ? 16'd0 : ct_base + cfg_tog;
    wire [15:0] lt_rem = l_ocg - lt_base;
    wire [15:0] ct_rem = cfg_ocg - (frame_done ? ct_next : ct_base);
    reg  [15:0] lt_cnt, ct_cnt;
    always @(posedge clk) begin
        lt_cnt <= (l_tog < lt_rem) ? l_tog : lt_rem;
        ct_cnt <= (cfg_tog < ct_rem) ? cfg_tog : ct_rem;
    end
    wire        one_tile = cfg_tog >= cfg_ocg;
    wire        release_banks = !one_tile || cfg_wreload;

    wire lb_full = (WBANKS == 2) ? (full[lb] || pend[lb]) : (full[0] || pend[0]);
    wire cb_full = (WBANKS == 2) ? full[cb] : full[0];
    assign w_tready = !lb_full && !wl_stop;
    wire wl_fire = w_tvalid && w_tready;
    localparam integer LANE_LAST_I = PE_OC - 1;
    localparam [15:0] LANE_LAST = LANE_LAST_I[15:0];
    wire wl_lane_last = wl_lane == LANE_LAST;
    wire wl_tap_last  = (wl_ig == l_icg - 16'd1) && (wl_kx == l_k - 4'd1) && (wl_ky == l_k - 4'd1);
    wire wl_p_we = wl_fire && !wl_ph && (wl_pw == 2'd2);
    wire wl_w_we = wl_fire && wl_ph;
    wire wl_tile_end = wl_fire && wl_ph && wl_lane_last && wl_tap_last && (wl_og == lt_cnt - 16'd1);

    // results issued, not yet in the output buffer (at most the buffer size,
    // so a short counter keeps its adder off the issue path)
    localparam integer IB = 1 + $clog2(2 * OCGMAX + 2 * LAT + 36);
    reg [IB-1:0] inflight;
    wire [15:0]  inflight16 = {{(16-IB){1'b0}}, inflight};

    // bank release: the sequencer stops using it at the last op of a pass,
    // the loader may overwrite it LAT cycles later (its parameters are read
    // until then)
    reg [LAT-1:0] rel_v, rel_b;
    always @(posedge clk) begin
        if (rst_l) begin
            rel_v <= {LAT{1'b0}};
            rel_b <= {LAT{1'b0}};
        end else begin
            rel_v <= {rel_v[LAT-2:0], frame_done && release_banks};
            rel_b <= {rel_b[LAT-2:0], cb};
        end
    end

    always @(posedge clk) begin
        if (rst_l) begin
            full <= {WBANKS{1'b0}}; pend <= {WBANKS{1'b0}}; lb <= 1'b0; cb <= 1'b0; wl_stop <= 1'b0;
            lt_base <= 16'd0; ct_base <= 16'd0;
            wl_ph <= 1'b0; wl_pw <= 2'd0;
            wl_lane <= 16'd0; wl_og <= 16'd0; wl_ig <= 16'd0; wl_ky <= 4'd0; wl_kx <= 4'd0;
            wl_addr <= {WAB{1'b0}};
        end else begin
            if (rel_v[LAT-1]) begin
                pend[(WBANKS == 2) ? rel_b[LAT-1] : 1'b0] <= 1'b0;
                wl_stop <= 1'b0;  // a frame with cfg_wreload drops a resident set
            end
            if (frame_done && release_banks) begin
                full[(WBANKS == 2) ? cb : 1'b0] <= 1'b0;
                pend[(WBANKS == 2) ? cb : 1'b0] <= 1'b1;
            end
            if (frame_done) begin
                ct_base <= ct_next;
                if (release_banks && WBANKS == 2)
                    cb <= !cb;
            end
            if (wl_tile_end) begin
                full[(WBANKS == 2) ? lb : 1'b0] <= 1'b1;
                if (WBANKS == 2)
                    lb <= !lb;
                lt_base <= (lt_base + l_tog >= l_ocg) ? 16'd0 : lt_base + l_tog;
                if (one_tile && !cfg_wreload)
                    wl_stop <= 1'b1;
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
                        wl_ig <= (wl_ig == l_icg - 16'd1) ? 16'd0 : wl_ig + 16'd1;
                        if (wl_ig == l_icg - 16'd1) begin
                            wl_kx <= (wl_kx == l_k - 4'd1) ? 4'd0 : wl_kx + 4'd1;
                            if (wl_kx == l_k - 4'd1)
                                wl_ky <= (wl_ky == l_k - 4'd1) ? 4'd0 : wl_ky + 4'd1;
                        end
                        if (wl_tap_last) begin
                            wl_ph <= 1'b0;
                            wl_og <= (wl_og == lt_cnt - 16'd1) ? 16'd0 : wl_og + 16'd1;
                            if (wl_og == lt_cnt - 16'd1)
                                wl_addr <= {WAB{1'b0}};
                        end
                    end
                end
            end
        end
    end

    // ================= output buffer credit =================
    wire               rq_valid;
    wire [8*PP*PE_OC-1:0] rq_q;
    wire               credit;

    // ================= sliding window =================
    wire               iss, iss_last;
    wire               band_done, span_on;
    wire [15:0]        hout, wout;
    // the pass issuing now is its band's last (its tile the layer's last)
    wire               tile_last = ({1'b0, ct_base} + {1'b0, cfg_tog}) >= {1'b0, cfg_ocg};
    wire               band_ok;  // bands: the band buffer has room for the next band
    wire [WAB-1:0]     iss_wa;
    wire               d_valid, d_first, d_last, d_oglast;
    wire [8*PE_IC*PP-1:0] d_data;
    wire [PP-1:0]      d_pv;
    /* verilator lint_off UNUSEDSIGNAL */ // groups above OCGMAX do not occur
    wire [15:0]        d_og;
    /* verilator lint_on UNUSEDSIGNAL */

    kiln_conv_window #(
        .LANES(PE_IC), .KMAX(KMAX), .WMAX(WMAX), .GMAX(ICGMAX), .DW(0), .WAB(WAB), .PP(PP), .SPAN(SPAN),
        .LBROWS(LBROWS), .LBURAM(LBURAM), .LBBANK(LBBANK)
    ) u_win (
        .clk(clk), .rst(rst),
        .cfg_h(cfg_h), .cfg_w(cfg_w), .cfg_icg(cfg_icg), .cfg_ocg(ct_cnt),
        .cfg_k(cfg_k), .cfg_stride(cfg_stride), .cfg_pad(cfg_pad),
        .cfg_band(BANDMAX > 0 ? cfg_band : 16'd0), .tile_last(tile_last),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .go(cb_full && credit && band_ok),
        .iss(iss), .iss_wa(iss_wa), .iss_last(iss_last),
        .d_valid(d_valid), .d_data(d_data), .d_first(d_first), .d_last(d_last), .d_og(d_og),
        .d_pv(d_pv), .d_oglast(d_oglast),
        .frame_done(frame_done), .band_done(band_done), .span_out(span_on), .hout_out(hout), .wout_out(wout)
    );

    always @(posedge clk) begin
        if (rst)
            inflight <= {IB{1'b0}};
        else
            inflight <= inflight + {{(IB-1){1'b0}}, iss && iss_last} - {{(IB-1){1'b0}}, rq_valid};
    end

    // bank of the op beside d_* (cb flips on the edge after a pass's last op)
    reg d_bk;
    reg d_pl;  // the op beside d_* is its pass's last
    always @(posedge clk) begin
        d_bk <= (WBANKS == 2) && cb;
        d_pl <= frame_done;
    end

    // ================= weight memories, products =================
    /* verilator lint_off UNDRIVEN */ /* verilator lint_off UNUSEDSIGNAL */ // CASC: one of the two
    wire signed [LW-1:0] prod [0:PP*PE_OC*LV-1];  // registered products (stage P)
    wire signed [31:0]   csum [0:PP*PE_OC-1];     // CASC: the chains' sums (stage T)
    /* verilator lint_on UNDRIVEN */ /* verilator lint_on UNUSEDSIGNAL */
    wire [8*PE_IC-1:0] wrd  [0:PE_OC-1];           // weight words (stage D)

    genvar o, i, n, x;
    generate
        for (o = 0; o < PE_OC; o = o + 1) begin : g_wm
            wire wsel = wl_w_we && wl_lane == o[15:0];
            if (WBANKS == 2 && WBMERGE != 0) begin : g_bm
                // both banks in one memory: bank b at words b*WDEPTH ..
                localparam [WAB:0] WOFF = WDEPTH[WAB:0];
                wire [WAB:0] wa = lb ? WOFF + {1'b0, wl_addr} : {1'b0, wl_addr};
                wire [WAB:0] ra = cb ? WOFF + {1'b0, iss_wa} : {1'b0, iss_wa};
                (* ram_style = WSTYLE *) reg [8*PE_IC-1:0] wm [0:2*WDEPTH-1];
                reg [8*PE_IC-1:0] rm;
                always @(posedge clk)
                    if (wsel)
                        wm[wa] <= w_tdata;
                always @(posedge clk)
                    if (iss)
                        rm <= wm[ra];
                assign wrd[o] = rm;
            end else begin : g_bs
                (* ram_style = WSTYLE *) reg [8*PE_IC-1:0] wm0 [0:WDEPTH-1];
                reg [8*PE_IC-1:0] r0;
                always @(posedge clk)
                    if (wsel && (WBANKS == 1 || !lb))
                        wm0[wl_addr] <= w_tdata;
                always @(posedge clk)
                    if (iss)
                        r0 <= wm0[iss_wa];
                if (WBANKS == 2) begin : g_b2
                    (* ram_style = WSTYLE *) reg [8*PE_IC-1:0] wm1 [0:WDEPTH-1];
                    reg [8*PE_IC-1:0] r1;
                    always @(posedge clk)
                        if (wsel && lb)
                            wm1[wl_addr] <= w_tdata;
                    always @(posedge clk)
                        if (iss)
                            r1 <= wm1[iss_wa];
                    assign wrd[o] = d_bk ? r1 : r0;
                end else begin : g_b1
                    assign wrd[o] = r0;
                end
            end
        end

        if (DSP2X != 0) begin : g_2x
            // clk2x: mid is 1 at the clk2x edges between two clk edges (tg
            // toggles at clk edges; tg2 is its value one clk2x edge ago)
            reg tg, tg2;
            always @(posedge clk)
                tg <= rst ? 1'b0 : !tg;
            always @(posedge clk2x)
                tg2 <= tg;
            wire mid = tg ^ tg2;
`ifndef SYNTHESIS
            // clock check: clk2x edges alternate mid / aligned, and clk2x is
            // high at every clk edge (edge-aligned at twice the rate)
            reg mid_q;
            reg [1:0] ck_arm;
            always @(posedge clk2x) begin
                mid_q <= mid;
                ck_arm <= rst ? 2'd0 : (ck_arm == 2'd3 ? ck_arm : ck_arm + 2'd1);
                if (ck_arm == 2'd3 && mid == mid_q) begin
                    $display("kiln_conv: clk2x is not twice clk with aligned edges (%m)");
                    $stop;
                end
            end
            always @(posedge clk)
                if (!rst && clk2x !== 1'b1) begin
                    $display("kiln_conv: clk2x is not high at a clk edge (%m)");
                    $stop;
                end
            initial
                if (DSP2X == 2 && PP % 2 != 0) begin
                    $display("kiln_conv: DSP2X = 2 (pixel pairs) needs an even PP, not %0d (%m)", PP);
                    $stop;
                end
`endif
            // an op's valid 1 and 2 cycles on: the sums (DSP2X 1) reach h
            // 2.5 cycles after the op, the products (DSP2X 2) h0, h1 by then,
            // and the clk domain takes them at the next edge
            reg dv1, dv2;
            always @(posedge clk) begin
                dv1 <= d_valid && !rst;
                dv2 <= dv1 && !rst;
            end
            if (DSP2X == 2) begin : g_pix
                // pixel pairs: the odd pixels' activations one fabric cycle
                // on, shared by the output lanes
                for (x = 0; x < PP; x = x + 2) begin : g_x
                    reg [8*PE_IC-1:0] a1d;
                    always @(posedge clk)
                        if (d_valid)
                            a1d <= d_data[8*(x+1)*PE_IC +: 8*PE_IC];
                    for (o = 0; o < PE_OC; o = o + PACK) begin : g_o
                        for (i = 0; i < PE_IC; i = i + 1) begin : g_i
                            localparam integer WW = (PACK == 2) ? 27 : 8;
                            localparam integer QW = (PACK == 2) ? 34 : 16;
                            wire signed [WW-1:0] wp;
                            if (PACK == 2) begin : g_wp2
                                // (w[o+1] << 18) + w[o], formed in the clk domain
                                assign wp = {wrd[o+1][8*i+7], wrd[o+1][8*i +: 8], 18'd0} +
                                            {{19{wrd[o][8*i+7]}}, wrd[o][8*i +: 8]};
                            end else begin : g_wp1
                                assign wp = wrd[o][8*i +: 8];
                            end
                            wire signed [QW-1:0] h0, h1;
                            kiln_mac2p #(.WW(WW), .QW(QW)) u_mac (
                                .clk2x(clk2x), .mid(mid), .v(d_valid), .v1(dv1),
                                .a0(d_data[8*(x*PE_IC + i) +: 8]), .a1(a1d[8*i +: 8]),
                                .wp(wp), .h0(h0), .h1(h1));
                            // back in the clk domain; the low field of a packed
                            // product is signed, so the high one takes its sign
                            // as a carry
                            /* verilator lint_off UNUSEDSIGNAL */ // PACK 2: bit 16
                            reg signed [QW-1:0] pc0, pc1;
                            /* verilator lint_on UNUSEDSIGNAL */
                            always @(posedge clk)
                                if (dv2) begin
                                    pc0 <= h0;
                                    pc1 <= h1;
                                end
                            assign prod[(x*PE_OC + o)*LV + i]       = pc0[15:0];
                            assign prod[((x+1)*PE_OC + o)*LV + i]   = pc1[15:0];
                            if (PACK == 2) begin : g_hi
                                assign prod[(x*PE_OC + o + 1)*LV + i]     = pc0[33:18] + {15'd0, pc0[17]};
                                assign prod[((x+1)*PE_OC + o + 1)*LV + i] = pc1[33:18] + {15'd0, pc1[17]};
                            end
                        end
                    end
                end
            end else begin : g_sum
            for (o = 0; o < PE_OC; o = o + PACK) begin : g_o
                for (i = 0; i < PE_IC; i = i + 2) begin : g_i
                    // packed weights of lanes i, i+1 (clk domain): (w[o+1] << 18) + w[o]
                    wire signed [26:0] wp [0:1];
                    if (PACK == 2) begin : g_wp2
                        assign wp[0] = {wrd[o+1][8*i+7], wrd[o+1][8*i +: 8], 18'd0} +
                                       {{19{wrd[o][8*i+7]}}, wrd[o][8*i +: 8]};
                        assign wp[1] = {wrd[o+1][8*i+15], wrd[o+1][8*i+8 +: 8], 18'd0} +
                                       {{19{wrd[o][8*i+15]}}, wrd[o][8*i+8 +: 8]};
                    end else begin : g_wp1
                        assign wp[0] = {{19{wrd[o][8*i+7]}}, wrd[o][8*i +: 8]};
                        assign wp[1] = {{19{wrd[o][8*i+15]}}, wrd[o][8*i+8 +: 8]};
                    end
                    for (x = 0; x < PP; x = x + 1) begin : g_x
                        wire signed [35:0] h;
                        kiln_mac2x u_mac (
                            .clk2x(clk2x), .mid(mid), .v(d_valid),
                            .a0(d_data[8*(x*PE_IC + i) +: 8]), .a1(d_data[8*(x*PE_IC + i + 1) +: 8]),
                            .wp0(wp[0]), .wp1(wp[1]), .h(h));
                        // back in the clk domain; the low field of a packed sum is
                        // signed, so the high one takes its sign as a carry
                        /* verilator lint_off UNUSEDSIGNAL */ // pc[35], and PACK = 1: pc[35:17]
                        reg signed [35:0] pc;
                        /* verilator lint_on UNUSEDSIGNAL */
                        always @(posedge clk)
                            if (dv2)
                                pc <= h;
                        assign prod[(x*PE_OC + o)*LV + i/2] = pc[16:0];
                        if (PACK == 2) begin : g_hi
                            assign prod[(x*PE_OC + o + 1)*LV + i/2] = pc[34:18] + {16'd0, pc[17]};
                        end
                    end
                end
            end
            end
        end else begin : g_1x
        for (x = 0; x < PP; x = x + 1) begin : g_px
            if (PACK == 2) begin : g_pk
                for (o = 0; o < PE_OC; o = o + 2) begin : g_pair
                    for (i = 0; i < PE_IC; i = i + 1) begin : g_i
                        wire signed [15:0] p1, p2;
                        kiln_mac2 #(.PACK(2)) u_mac (
                            .clk(clk), .ce(d_valid), .a(d_data[8*(x*PE_IC + i) +: 8]),
                            .w1(wrd[o+1][8*i +: 8]), .w2(wrd[o][8*i +: 8]),
                            .p1(p1), .p2(p2));
                        assign prod[(x*PE_OC + o)*PE_IC + i]     = p2;
                        assign prod[(x*PE_OC + o + 1)*PE_IC + i] = p1;
                    end
                end
            end else if (CS != 0) begin : g_casc
                // one DSP48E2 chain a lane: the products and their sum,
                // PE_IC + 2 cycles after the op (stage T); the chain runs
                // free (its sums outside ops are not taken)
                for (o = 0; o < PE_OC; o = o + 1) begin : g_o
                    /* verilator lint_off UNUSEDSIGNAL */ // m_valid: t_meta carries the op
                    wire m_valid_unused;
                    /* verilator lint_on UNUSEDSIGNAL */
                    kiln_dsp_chain #(.N(PE_IC), .PW(32), .ISKEW(1)) u_chain (
                        .clk(clk), .rst(rst), .ce(1'b1), .s_valid(1'b0),
                        .a(d_data[8*x*PE_IC +: 8*PE_IC]), .b(wrd[o]),
                        .m_valid(m_valid_unused), .p(csum[x*PE_OC + o]));
                end
            end else begin : g_np
                for (o = 0; o < PE_OC; o = o + 1) begin : g_o
                    for (i = 0; i < PE_IC; i = i + 1) begin : g_i
                        reg signed [15:0] p;
                        always @(posedge clk)
                            if (d_valid)
                                p <= $signed(d_data[8*(x*PE_IC + i) +: 8]) * $signed(wrd[o][8*i +: 8]);
                        assign prod[(x*PE_OC + o)*PE_IC + i] = p;
                    end
                end
            end
        end
        end
    endgenerate

    // control beside the products (stage P), then through the tree (stage T)
    // tail: {oglast, pixels PP-1 .. 1 exist} (PP > 1) or {oglast} (PP = 1)
    wire [PP-1:0] d_tail;
    generate
        if (PP == 1) begin : g_t1
            assign d_tail = d_oglast;
            /* verilator lint_off UNUSEDSIGNAL */ // one pixel always exists
            wire unused_pv = d_pv[0];
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : g_t2
            assign d_tail = {d_oglast, d_pv[PP-1:1]};
            /* verilator lint_off UNUSEDSIGNAL */ // pixel 0 always exists
            wire unused_pv = d_pv[0];
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
    localparam integer MW = 4 + PA + PP;  // valid, first, last, {bank, og}, pass last, tail
    wire [PA-1:0] d_pa;
    generate
        if (PBB == 1) begin : g_pa2
            assign d_pa = {d_bk, d_og[OGB-1:0]};
        end else begin : g_pa1
            assign d_pa = d_og[OGB-1:0];
            /* verilator lint_off UNUSEDSIGNAL */
            wire unused_bk = d_bk; // one bank: always 0
            /* verilator lint_on UNUSEDSIGNAL */
        end
    endgenerate
    wire [MW-1:0] d_meta = {d_valid && !rst, d_first, d_last, d_pa, d_pl, d_tail};
    reg  [MW-1:0] p_meta;
    generate
        if (PD == 1) begin : g_pm1
            always @(posedge clk)
                p_meta <= rst ? {MW{1'b0}} : d_meta;
        end else begin : g_pmn
            // the clk2x products come PD cycles after the op
            reg [MW-1:0] pm [0:PD-2];
            integer k;
            always @(posedge clk) begin
                pm[0] <= rst ? {MW{1'b0}} : d_meta;
                for (k = 1; k < PD - 1; k = k + 1)
                    pm[k] <= rst ? {MW{1'b0}} : pm[k-1];
                p_meta <= rst ? {MW{1'b0}} : pm[PD-2];
            end
        end
    endgenerate

    // sv[k]: stage k holds an op (0: the products, k: k tree registers on),
    // the clock enable of the registers that load from stage k: products and
    // tree registers change only with an op (outputs as if always clocked;
    // a Verilator model skips the adders of idle lanes)
    wire [MW-1:0] t_meta;
    /* verilator lint_off UNUSEDSIGNAL */ // no tree registers with TL = 0
    wire [TL:0]   sv;
    /* verilator lint_on UNUSEDSIGNAL */
    generate
        if (TL == 0) begin : g_c0
            assign t_meta = p_meta;
            assign sv = p_meta[MW-1];
        end else begin : g_cn
            reg [MW-1:0] m_s [0:TL-1];
            integer k;
            always @(posedge clk) begin
                m_s[0] <= rst ? {MW{1'b0}} : p_meta;
                for (k = 1; k < TL; k = k + 1)
                    m_s[k] <= rst ? {MW{1'b0}} : m_s[k-1];
            end
            assign t_meta = m_s[TL-1];
            assign sv[0] = p_meta[MW-1];
            for (n = 1; n <= TL; n = n + 1) begin : g_sv
                assign sv[n] = m_s[n-1][MW-1];
            end
        end
    endgenerate
    wire           t_valid = t_meta[MW-1];
    wire           t_first = t_meta[MW-2];
    wire           t_last  = t_meta[MW-3];
    wire [PA-1:0]  t_pa    = t_meta[MW-4 -: PA];     // {bank, og}: parameter address
    wire [PP-1:0]  t_tail  = t_meta[PP-1:0];         // oglast, pixels 1.. valid
    wire           t_pl    = t_meta[PP];             // pass last

    // ================= adder trees, accumulators, parameters =================
    reg a_valid;
    reg [PA-1:0] a_pa;
    reg [PP-1:0] a_tail;
    reg          a_pl;
    always @(posedge clk) begin
        a_valid <= t_valid && t_last && !rst;
        a_pa    <= t_pa;
        a_tail  <= t_tail;
        a_pl    <= t_pl;
    end

    wire [32*PP*PE_OC-1:0] rq_acc;
    wire [16*PP*PE_OC-1:0] rq_mpos, rq_mneg;
    wire [6*PP*PE_OC-1:0]  rq_shift;

    generate
        for (o = 0; o < PE_OC; o = o + 1) begin : g_oc
            // per-channel parameters, written by the loader, read at stage T / A
            reg [31:0] bias [0:(1<<PA)-1];
            reg [15:0] mpos [0:(1<<PA)-1];
            reg [15:0] mneg [0:(1<<PA)-1];
            reg [5:0]  shft [0:(1<<PA)-1];
            wire [PA-1:0] wpa;
            if (PBB == 1) begin : g_wpa2
                assign wpa = {lb, wl_og[OGB-1:0]};
            end else begin : g_wpa1
                assign wpa = wl_og[OGB-1:0];
            end
            always @(posedge clk)
                if (wl_p_we && wl_lane == o[15:0]) begin
                    bias[wpa] <= wl_bias;
                    mpos[wpa] <= wl_m[15:0];
                    mneg[wpa] <= wl_m[31:16];
                    shft[wpa] <= w_tdata[5:0];
                end
            wire signed [31:0] b_t = bias[t_pa];

            for (x = 0; x < PP; x = x + 1) begin : g_x
                wire signed [31:0] sum;
                if (CS != 0) begin : g_cs
                    assign sum = csum[x*PE_OC + o];
                end else begin : g_tree
                    // heap-ordered ternary tree: node n sums nodes 3n-1, 3n, 3n+1,
                    // leaves FL..FL+NP-1 (the first LV the products, the rest 0),
                    // root 1.  A leaf is at most 2^(LW-2) in magnitude (an int8
                    // product 2^14, a DSP2X pair sum 2^15), so a node over c of
                    // them fits LW + flog2(c) bits; it is kiln_add3 with 3
                    // children that hold products, a plain add with 2, a wire
                    // with 1 (0 past the products).  Node n is adder L - depth3(n)
                    // of the chain, registered per treg()
                    wire signed [TW-1:0] nd [1:FL+NP-1] /* verilator split_var */;
                    for (n = FL; n < FL + NP; n = n + 1) begin : g_leaf
                        if (n - FL < LV) begin : g_p
                            wire signed [LW-1:0] pr = prod[(x*PE_OC + o)*LV + n - FL];
                            assign nd[n] = {{(TW-LW){pr[LW-1]}}, pr};
                        end else begin : g_z
                            assign nd[n] = {TW{1'b0}};
                        end
                    end
                    for (n = 1; n < FL; n = n + 1) begin : g_add
                        localparam integer Q  = L - depth3(n);       // chain position
                        localparam integer C  = tcount(n, L, LV);    // products under it
                        localparam integer CS3 = pow3(Q - 1);        // products a child
                        localparam integer K  = (C + CS3 - 1) / CS3; // children with products
                        localparam integer NW = LW + flog2(C);
                        wire signed [NW-1:0] s;
                        if (K == 0) begin : g_0
                            assign s = {NW{1'b0}};
                        end else if (K == 1) begin : g_1
                            assign s = nd[3*n-1][NW-1:0];
                        end else if (K == 2) begin : g_2
                            assign s = nd[3*n-1][NW-1:0] + nd[3*n][NW-1:0];
                        end else begin : g_3
                            kiln_add3 #(.W(NW)) u_add (
                                .a(nd[3*n-1][NW-1:0]), .b(nd[3*n][NW-1:0]), .c(nd[3*n+1][NW-1:0]),
                                .s(s));
                        end
                        if (K > 0 && treg(Q)) begin : g_r
                            localparam integer RK = treg_k(Q);  // register number
                            reg signed [NW-1:0] r;
                            always @(posedge clk)
                                if (sv[RK-1])
                                    r <= s;
                            assign nd[n] = {{(TW-NW){r[NW-1]}}, r};
                        end else begin : g_c
                            assign nd[n] = {{(TW-NW){s[NW-1]}}, s};
                        end
                    end
                    assign sum = {{(32-TW){nd[1][TW-1]}}, nd[1]};
                end

                reg signed [31:0] acc;
                wire signed [31:0] base = t_first ? b_t : acc;
                always @(posedge clk)
                    if (t_valid)
                        acc <= base + sum;
                assign rq_acc[32*(x*PE_OC + o) +: 32]  = acc;
                assign rq_mpos[16*(x*PE_OC + o) +: 16] = mpos[a_pa];
                assign rq_mneg[16*(x*PE_OC + o) +: 16] = mneg[a_pa];
                assign rq_shift[6*(x*PE_OC + o) +: 6]  = shft[a_pa];
            end
        end
    endgenerate

    // ================= requant: one lane per result, or RQS results a lane =================
    // beside the requant pipeline: {pass last, last slice of a result vector, tail}
    wire [PP+1:0] side_in, side_out;
    wire [PP-1:0] rq_tail = side_out[PP-1:0];
    wire          rq_pl   = side_out[PP+1];
    generate
        if (RQ_PIPE == 0) begin : g_sd0
            assign side_out = side_in;
        end else begin : g_sdn
            reg [PP+1:0] sd [0:RQ_PIPE-1];
            integer k;
            always @(posedge clk) begin
                sd[0] <= side_in;
                for (k = 1; k < RQ_PIPE; k = k + 1)
                    sd[k] <= sd[k-1];
            end
            assign side_out = sd[RQ_PIPE-1];
        end
    endgenerate
    generate
        if (RQS == 1) begin : g_rq_par
            kiln_requant #(.LANES(NL), .PIPE(RQ_PIPE), .QLO(QLO), .QHI(QHI),
                           .RQ_DSP(RQ_DSP)) u_rq (
                .clk(clk), .rst(rst), .i_valid(a_valid),
                .i_acc(rq_acc), .i_mpos(rq_mpos), .i_mneg(rq_mneg), .i_shift(rq_shift),
                .o_valid(rq_valid), .o_q(rq_q));
            assign side_in = {a_pl, 1'b1, a_tail};
            /* verilator lint_off UNUSEDSIGNAL */ // every result is a last slice
            wire unused_side = side_out[PP];
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : g_rq_ser
            // The accumulators and their parameters are captured when they
            // complete and shifted through RL = NL / RQS requant lanes, RL
            // results a cycle, lane 0 first; the outputs gather in a shift
            // register and the last slice completes the vector.  A new
            // capture may come with the last slice: results complete at most
            // once every K*K*cfg_icg >= RQS cycles (checked in simulation).
            localparam integer SB = ($clog2(RQS) < 1) ? 1 : $clog2(RQS);
            localparam integer SLAST_I = RQS - 1;
            localparam [SB-1:0] SLAST = SLAST_I[SB-1:0];
            reg [32*NL-1:0] c_acc;
            reg [16*NL-1:0] c_mpos, c_mneg;
            reg [6*NL-1:0]  c_shift;
            reg [PP-1:0]    c_tail;
            reg             c_pl;
            reg             c_busy;
            reg [SB-1:0]    c_n;
            wire            c_last = c_busy && c_n == SLAST;
            always @(posedge clk) begin
                if (a_valid) begin
                    c_acc   <= rq_acc;
                    c_mpos  <= rq_mpos;
                    c_mneg  <= rq_mneg;
                    c_shift <= rq_shift;
                    c_tail  <= a_tail;
                    c_pl    <= a_pl;
                end else if (c_busy) begin
                    c_acc   <= c_acc >> (32 * RL);
                    c_mpos  <= c_mpos >> (16 * RL);
                    c_mneg  <= c_mneg >> (16 * RL);
                    c_shift <= c_shift >> (6 * RL);
                end
            end
            always @(posedge clk) begin
                if (rst) begin
                    c_busy <= 1'b0;
                    c_n <= {SB{1'b0}};
                end else if (a_valid) begin
                    c_busy <= 1'b1;
                    c_n <= {SB{1'b0}};
                end else if (c_busy) begin
                    c_busy <= !c_last;
                    c_n <= c_n + 1'b1;
                end
            end
            // synthesis translate_off
            always @(posedge clk)
                if (!rst && a_valid && c_busy && !c_last) begin
                    $display("kiln_conv: results complete faster than RQS = %0d cycles apart (K*K*cfg_icg < RQS)", RQS);
                    $stop;
                end
            // synthesis translate_on
            wire          s_valid;
            wire [8*RL-1:0] s_q;
            kiln_requant #(.LANES(RL), .PIPE(RQ_PIPE), .QLO(QLO), .QHI(QHI),
                           .RQ_DSP(RQ_DSP)) u_rq (
                .clk(clk), .rst(rst), .i_valid(c_busy),
                .i_acc(c_acc[32*RL-1:0]), .i_mpos(c_mpos[16*RL-1:0]), .i_mneg(c_mneg[16*RL-1:0]),
                .i_shift(c_shift[6*RL-1:0]), .o_valid(s_valid), .o_q(s_q));
            assign side_in = {c_pl, c_last, c_tail};
            wire s_last = side_out[PP];
            // slices 0 .. RQS-2, the newest on top
            reg [8*(NL-RL)-1:0] g_q;
            if (RQS == 2) begin : g_g2
                always @(posedge clk)
                    if (s_valid)
                        g_q <= s_q;
            end else begin : g_gn
                always @(posedge clk)
                    if (s_valid)
                        g_q <= {s_q, g_q[8*(NL-RL)-1:8*RL]};
            end
            assign rq_valid = s_valid && s_last;
            assign rq_q = {s_q, g_q};
        end
    endgenerate

    generate
        if (BANDMAX > 0) begin : g_band
            // ================= band buffer (bands) =================
            // Two halves, each holding one band of every output group:
            // results of a band's passes (tile by tile) go to entry
            // {half, pixel group k of the band, the tile's first group + og}
            // of pixel bank p (pixel p of the group); the reader sends a
            // full half in raster order, every group of a pixel, while the
            // next band computes into the other half.  Pixel groups are
            // numbered within the band: row by row ceil(Wout/PP) a row, or
            // (SPAN) across row ends.
            localparam integer WGM = (WMAX + PP - 1) / PP;
            localparam integer GA  = BANDMAX * WGM;       // group slots of a half
            localparam integer HD  = GA * OCGMAX;         // entries of a half
            localparam integer BAB = $clog2(2 * HD);
            localparam integer PXB = ($clog2(PP) < 1) ? 1 : $clog2(PP);
            localparam integer PPM = PP - 1;
            localparam [BAB-1:0] HDA  = HD[BAB-1:0];
            localparam [BAB-1:0] OCGA = OCGMAX[BAB-1:0];
            localparam [PXB-1:0] PXL  = PPM[PXB-1:0];
            assign credit = 1'b1;
            // ---- result side ----
            reg [BAB-1:0] r_kb;          // entry of the group's first output group
            reg [15:0]    r_og, r_tb, r_by0;
            reg           r_h;
            reg [1:0]     h_full;
            reg [15:0]    h_rows0, h_rows1;
            wire [BAB-1:0] r_addr = (r_h ? HDA : {BAB{1'b0}}) + r_kb + r_tb[BAB-1:0] + r_og[BAB-1:0];
            wire          r_oglast = rq_tail[PP-1];
            wire [16:0]   r_bend = {1'b0, r_by0} + {1'b0, cfg_band};
            wire          r_blast = r_bend >= {1'b0, hout};
            wire [15:0]   r_rows = r_blast ? hout - r_by0 : cfg_band;
            wire          r_bdone = rq_valid && rq_pl &&
                                    ({1'b0, r_tb} + {1'b0, cfg_tog} >= {1'b0, cfg_ocg});
            // ---- reader ----
            reg           rh;            // half being read
            reg [15:0]    rd_row, rd_x, rd_og;
            reg [BAB-1:0] rd_kb;         // entry of the pixel group being read
            reg [PXB-1:0] rd_px;
            reg [1:0]     ib, db;        // bands issued, drained (mod 4)
            wire [15:0]   rd_rows = rh ? h_rows1 : h_rows0;
            wire          rd_last_og  = rd_og == cfg_ocg - 16'd1;
            wire          rd_last_x   = rd_x == wout - 16'd1;
            wire          rd_last_row = rd_row == rd_rows - 16'd1;
            // output FIFO of 4 beats behind the registered read
            reg [8*PE_OC-1:0] fq [0:3];
            reg [1:0]     fq_wp, fq_rp;
            reg [2:0]     fq_cnt;
            reg           rd_pend;
            reg [PXB-1:0] rd_pxq;
            wire          rd_go = h_full[rh] && ({1'b0, fq_cnt} + {3'b0, rd_pend}) < 4'd3;
            wire          rd_bend = rd_go && rd_last_og && rd_last_x && rd_last_row;
            wire [BAB-1:0] rd_addr = (rh ? HDA : {BAB{1'b0}}) + rd_kb + rd_og[BAB-1:0];
            wire [8*PE_OC-1:0] bbr [0:PP-1];
            for (x = 0; x < PP; x = x + 1) begin : g_bb
                reg [8*PE_OC-1:0] bb [0:2*HD-1];
                reg [8*PE_OC-1:0] bq;
                always @(posedge clk)
                    if (rq_valid)
                        bb[r_addr] <= rq_q[8*PE_OC*x +: 8*PE_OC];
                always @(posedge clk)
                    if (rd_go)
                        bq <= bb[rd_addr];
                assign bbr[x] = bq;
            end
            assign band_ok = (ib - db) != 2'd2;
            always @(posedge clk) begin
                if (rst) begin
                    r_kb <= {BAB{1'b0}}; r_og <= 16'd0; r_tb <= 16'd0; r_by0 <= 16'd0;
                    r_h <= 1'b0; h_full <= 2'b00;
                    rh <= 1'b0; rd_row <= 16'd0; rd_x <= 16'd0; rd_og <= 16'd0;
                    rd_kb <= {BAB{1'b0}}; rd_px <= {PXB{1'b0}};
                    ib <= 2'd0; db <= 2'd0;
                end else begin
                    if (band_done)
                        ib <= ib + 2'd1;
                    if (rq_valid) begin
                        if (rq_pl) begin
                            r_kb <= {BAB{1'b0}};
                            r_og <= 16'd0;
                            if (r_bdone) begin
                                r_tb <= 16'd0;
                                r_h <= !r_h;
                                r_by0 <= r_blast ? 16'd0 : r_bend[15:0];
                                if (r_h)
                                    h_rows1 <= r_rows;
                                else
                                    h_rows0 <= r_rows;
                            end else begin
                                r_tb <= r_tb + cfg_tog;
                            end
                        end else if (r_oglast) begin
                            r_og <= 16'd0;
                            r_kb <= r_kb + OCGA;
                        end else begin
                            r_og <= r_og + 16'd1;
                        end
                    end
                    if (rd_go) begin
                        rd_og <= rd_last_og ? 16'd0 : rd_og + 16'd1;
                        if (rd_last_og) begin
                            // the next pixel: the next bank of the group, or
                            // the next group (a row's end ends a group
                            // unless groups run across row ends)
                            rd_x <= rd_last_x ? 16'd0 : rd_x + 16'd1;
                            if (rd_px == PXL || (rd_last_x && !span_on)) begin
                                rd_px <= {PXB{1'b0}};
                                rd_kb <= rd_kb + OCGA;
                            end else begin
                                rd_px <= rd_px + 1'b1;
                            end
                            if (rd_last_x)
                                rd_row <= rd_row + 16'd1;
                        end
                        if (rd_bend) begin
                            rd_row <= 16'd0; rd_x <= 16'd0; rd_og <= 16'd0;
                            rd_kb <= {BAB{1'b0}}; rd_px <= {PXB{1'b0}};
                            rh <= !rh;
                            db <= db + 2'd1;
                        end
                    end
                    // a half fills when its band's last result is in, and
                    // empties when its last beat is read
                    h_full <= (h_full | (r_bdone ? (r_h ? 2'b10 : 2'b01) : 2'b00)) &
                              ~(rd_bend ? (rh ? 2'b10 : 2'b01) : 2'b00);
                end
            end
            always @(posedge clk) begin
                rd_pend <= rd_go && !rst;
                rd_pxq  <= rd_px;
            end
            wire fq_rd = m_tvalid && m_tready;
            always @(posedge clk) begin
                if (rst) begin
                    fq_wp <= 2'd0; fq_rp <= 2'd0; fq_cnt <= 3'd0;
                end else begin
                    if (rd_pend)
                        fq_wp <= fq_wp + 2'd1;
                    if (fq_rd)
                        fq_rp <= fq_rp + 2'd1;
                    fq_cnt <= fq_cnt + {2'b0, rd_pend} - {2'b0, fq_rd};
                end
            end
            always @(posedge clk)
                if (rd_pend)
                    fq[fq_wp] <= bbr[rd_pxq];
            assign m_tvalid = fq_cnt != 3'd0;
            assign m_tdata  = fq[fq_rp];
            /* verilator lint_off UNUSEDSIGNAL */ // the result count is not needed here
            wire [15:0]   unused_if = inflight16;
            wire [PP-1:0] unused_tl = rq_tail;
            /* verilator lint_on UNUSEDSIGNAL */
        end else if (PP == 1) begin : g_fifo
            // ================= output FIFO =================
            localparam integer FD = (LATB + 3 <= 8) ? 8 : (LATB + 3 <= 16) ? 16 : 32;
            localparam integer FB = $clog2(FD);
            localparam [15:0] FD16 = FD[15:0];
            reg  [8*PE_OC-1:0] fq [0:FD-1];
            reg  [FB-1:0]      fq_wp, fq_rp;
            reg  [FB:0]        fq_cnt;
            wire [15:0] fq_cnt16 = {{(15-FB){1'b0}}, fq_cnt};
            // registered: results held can grow by one a cycle, so room
            // for one more seen a cycle late still leaves room
            reg cr;
            always @(posedge clk)
                cr <= (inflight16 + fq_cnt16 + 16'd1) < FD16;
            assign credit = cr;
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
            assign band_ok = 1'b1;
            /* verilator lint_off UNUSEDSIGNAL */ // no reorder with one pixel, no bands
            wire unused_tail = rq_tail[0];
            wire unused_band = band_done ^ span_on ^ rq_pl ^ (^hout) ^ (^wout);
            /* verilator lint_on UNUSEDSIGNAL */
        end else begin : g_reo
            // ================= output reorder buffer (PP pixels) =================
            // Result e of the op group stream goes to entry e of every pixel
            // bank; the reader walks one pixel group: bank 0 over the group's
            // output groups (entries up to the one marked oglast), then bank 1
            // over the same entries if pixel 1 exists, and so on to the last
            // pixel of the group, then frees them.
            localparam integer DB = 1 << $clog2(2 * OCGMAX + 2 * LATB + 4);
            localparam integer BB = $clog2(DB);
            localparam [15:0] DB16 = DB[15:0];
            localparam integer PXB = ($clog2(PP) < 1) ? 1 : $clog2(PP);
            localparam integer NPX = 1 << PXB;
            reg [BB:0]    ob_w;          // entries written
            reg [BB:0]    ob_r;          // entry read next
            reg [BB:0]    ob_base;       // first entry of the group being read
            reg [PXB-1:0] ob_px;         // pixel bank being read
            reg [PP-1:0]  ob_tail [0:DB-1];
            wire [8*PE_OC-1:0] obr [0:NPX-1];
            for (x = 0; x < NPX; x = x + 1) begin : g_ob
                if (x < PP) begin : g_bank
                    reg [8*PE_OC-1:0] ob [0:DB-1];
                    always @(posedge clk)
                        if (rq_valid)
                            ob[ob_w[BB-1:0]] <= rq_q[8*PE_OC*x +: 8*PE_OC];
                    assign obr[x] = ob[ob_r[BB-1:0]];
                end else begin : g_none
                    assign obr[x] = {8*PE_OC{1'b0}};
                end
            end
            always @(posedge clk)
                if (rq_valid)
                    ob_tail[ob_w[BB-1:0]] <= rq_tail;
            wire [BB:0]   ob_occ = ob_w - ob_base;
            wire [15:0]   ob_occ16 = {{(15-BB){1'b0}}, ob_occ};
            reg cr;  // registered as in the FIFO case
            always @(posedge clk)
                cr <= (inflight16 + ob_occ16 + 16'd1) < DB16;
            assign credit = cr;
            wire [PP-1:0]  tl = ob_tail[ob_r[BB-1:0]];
            wire           ob_last = tl[PP-1];                    // oglast of this entry
            // pixel ob_px + 1 exists (tl[j]: pixel j + 1)
            wire [NPX-1:0] more = {{(NPX-PP+1){1'b0}}, tl[PP-2:0]};
            wire           ob_next_px = more[ob_px];
            assign band_ok = 1'b1;
            /* verilator lint_off UNUSEDSIGNAL */ // no bands
            wire unused_band = band_done ^ span_on ^ rq_pl ^ (^hout) ^ (^wout);
            /* verilator lint_on UNUSEDSIGNAL */
            assign m_tvalid = ob_r != ob_w;
            assign m_tdata  = obr[ob_px];
            always @(posedge clk) begin
                if (rst) begin
                    ob_w <= {(BB+1){1'b0}};
                    ob_r <= {(BB+1){1'b0}};
                    ob_base <= {(BB+1){1'b0}};
                    ob_px <= {PXB{1'b0}};
                end else begin
                    if (rq_valid)
                        ob_w <= ob_w + 1'b1;
                    if (m_tvalid && m_tready) begin
                        if (!ob_last) begin
                            ob_r <= ob_r + 1'b1;
                        end else if (ob_next_px) begin
                            ob_px <= ob_px + 1'b1;
                            ob_r <= ob_base;
                        end else begin
                            ob_px <= {PXB{1'b0}};
                            ob_r <= ob_r + 1'b1;
                            ob_base <= ob_r + 1'b1;
                        end
                    end
                end
            end
        end
    endgenerate
endmodule
