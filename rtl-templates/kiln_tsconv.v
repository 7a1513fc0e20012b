// kiln_tsconv: a time-shared conv engine.  One kiln_conv runs a sequence of
// layers, each configured at run time from a descriptor table in DDR; the
// layer's weights stream from DDR once per layer (per weight tile) and serve
// its whole feature map; input and output maps live in DDR.
//
// Ports
//   clk, rst                  clock, active-high synchronous reset
//   clk2x                     DSP2X > 0: kiln_conv's DSP clock, twice clk,
//                             synchronous and edge-aligned (one MMCM);
//                             unused with DSP2X = 0 (kiln_conv checks the
//                             ratio in simulation)
//   cfg_desc_base             byte address of descriptor 0 (a multiple of 128)
//   cfg_layers                layers to run (descriptors 0 .. cfg_layers-1;
//                             0: done at once)
//   cfg_frames                frames to run (0 counts as 1): the table runs
//                             once a frame, descriptor 0 again after the last
//   cfg_tbl_base, cfg_tbl_len the whole table (its first descriptor's byte
//                             address, its descriptors; len 0: no run-end
//                             prefetch), sampled at start: a run's range is
//                             a part of it (a host runs parts one by one)
//   avail                     frames whose input the producer has written
//                             (another channel's `finished`): frame f's first
//                             descriptor fetch waits until avail > f; all
//                             ones: no gate
//   finished                  frames whose last layer is done since start
//   start                     one-cycle pulse, taken while !busy; samples cfg_*
//   busy                      from the cycle after start until done
//   done                      set when the last frame's last layer's last B
//                             response arrived, cleared by start
//   error                     sticky (cleared by start): an RRESP/BRESP !=
//                             OKAY on any master, or a descriptor whose
//                             transfer counts exceed the channels' CNT_W
//   layer                     index of the layer running (status)
//   m0_axi_ar*, m0_axi_r*     read master 0: descriptors and weight streams
//                             (never both at once): a layer's weights, then
//                             the next layer's descriptor and weights (WCH
//                             2: the first half of each layer's weights)
//   m3_axi_ar*, m3_axi_r*     read master 3 (WCH 2): the second half of each
//                             layer's weights, beside master 0's (WCH 1: no
//                             AR, RREADY low)
//   m1_axi_ar*, m1_axi_r*     read master 1: the layer's input map
//   m2_axi_aw*, w*, b*        write master: the layer's output map
//
// Descriptor (128 bytes, 32 little-endian words; unused words 0):
//   w0   [15:0] H, [31:16] W                    input map
//   w1   [15:0] ICG, [31:16] OCG                cfg_icg, cfg_ocg of kiln_conv
//   w2   [15:0] TOG, [19:16] K, [21:20] stride, [27:24] pad
//   w3   [7:0] QLO, [15:8] QHI (int8)           the layer's activation clamp
//   w4,5   input base (64 bit)   w6,7 weight base   w8,9 output base
//   w10  input bytes per pass (a multiple of DATA_W/8 and of PE_IC)
//   w11  input beats per pass (H*W*ICG; PE_IC lanes)
//   w12  passes NT = ceil(OCG/TOG) (the input is read NT times)
//   w13  weight bytes (a multiple of DATA_W/8 and of PE_IC), w14 weight
//        beats (kiln_conv's weight stream, all tiles)
//   w21  weight beats of the first tile (not read: the input map starts
//        with the weights, and kiln_conv's first pass waits for its bank)
//   w15  output bytes per sub-run, w16 output beats per sub-run (PE_OC
//        lanes), w17 sub-runs, w18 bytes between sub-runs, w19 row beats,
//        w20 row stride (kiln_wr_chan: NT = 1 is one sub-run, contiguous;
//        tile-major passes go to their channel offset in rows)
// The driver (or the compiler's image) fills these; the channels' byte
// counts let the map buffers be padded to the bus width.  The activation
// clamp of kiln_conv stays [-128, 127]: the layer's [QLO, QHI] clamps the
// output lanes here, which equals kiln_requant's clamp(clamp(r, -128, 127),
// QLO, QHI).
//
// Schedule.  A frame's first layer: fetch the descriptor (kiln_axi_rd on
// master 0, 128 bytes) into wdesc, copy it to desc (the running layer's)
// and reset kiln_conv for two cycles (its cfg_* stable from the second),
// start the weight, input and output channels in the second.  The input map's first rows fill the line buffer while the
// first tile's weights load (kiln_conv's first op waits for the tile's
// bank, its input for a free line-buffer row); with WBANKS = 2 each later
// tile streams into the free bank while the pass before it computes.
// Prefetch: once kiln_conv has taken the running layer's last weight beat
// (the weight channel then has every R beat, master 0 is free), the next
// layer of the frame has its descriptor read into a second register
// (wdesc) and its weight channel started: kiln_conv's loader (WLSEP, its
// own reset and layer) streams its tile 0 into the free bank and, with
// WBANKS = 2, its tile 1 into the running layer's last bank LAT cycles
// after that layer's last op, while the running layer computes and
// writes.  When the running layer's input and output channels are done
// (its last B) and the prefetch has started, the next layer takes wdesc,
// kiln_conv's sequencer (not its loader) is reset for two cycles and the
// input and output channels start: its input is the map the layer before
// it wrote, so only weights run ahead.  The next frame's first layer waits
// as before (avail), with no prefetch across frames.
// Run-end prefetch (cfg_tbl_len > 0).  Weights do not depend on the frame:
// once the engine has been idle PF_IDLE (256) cycles after a run's done
// (a host that starts again sooner finds nothing prefetched, nothing in
// flight), it guesses the next run
// starts at the descriptor after the run's last (the table's first after
// its last, cfg_tbl_base + 128 * cfg_tbl_len), reads it into wdesc and
// starts its weight channel as a layer's prefetch does; kiln_conv's loader
// (not reset) takes its tile 0 and, with WBANKS = 2, tile 1 into the
// banks no pass holds, then holds the stream (full banks: the channel's
// bursts in flight end, it issues no AR past its FIFO).  A start at that
// descriptor (cfg_desc_base equal; the host may have taken any time):
// S_PW waits until the prefetch's weight channel runs and the frame's
// avail, then starts as a prefetched layer (kiln_conv's sequencer reset,
// the input and output channels started).  A start elsewhere: S_DROP lets
// a descriptor read in flight end (its beats discarded), holds the weight
// channel's AR once none is shown untaken, takes and discards the R beats
// of its bursts in flight until none is left, resets the channel, and the
// run fetches as from idle (kiln_conv's loader reset): no AXI transaction
// is left open, whatever the start's timing.  A start the cycle done is
// seen, or within PF_IDLE cycles of it, prefetches nothing.  An error
// response to the idle engine's prefetch (or a dropped one's bursts) does
// not set `error`: the prefetch is not used (perr), the start fetches.  The guess is right when the host runs the
// parts in table order, each once a frame (kiln_sched.h's cyclic order);
// the table and weights in DDR must not change while the engine is idle
// after a run (a new table: reset, or a start elsewhere first).
//
// Parameters
//   PE_IC, PE_OC, KMAX, WMAX, CIMAX, COMAX, WDEPTH, PIPE, RQ_PIPE, PACK,
//   TOGMAX, WURAM, LBURAM   kiln_conv's (the largest layer bounds them)
//   LBROWS          kiln_conv's line-buffer rows beyond KMAX + 1 (0: none;
//                   R = 2^ceil(log2(max(KMAX + 1, LBROWS)))): with SPAN a
//                   3x3 layer's rows run ahead of the groups that span two
//                   output rows (K + S = 4 rows for them alone), so R = 8
//                   (LBROWS 5) takes an input row while a row of the
//                   map's next group is still in use; LBBANK must then
//                   hold ceil(R*W/PP) << ceil(log2 ICG) words
//   LBBANK          kiln_conv's: 0, PP replicated line buffers; > 0, PP
//                   banks of LBBANK words (every layer stride 1, PP a power
//                   of two; the planner sizes it for the largest layer)
//   RQS             kiln_conv's results per requant lane (every layer's
//                   K*K*ICG >= RQS)
//   RQ_DSP          kiln_conv's DSP48E2 a requant lane (2, or 1: kiln_requant.v)
//   DATA_W, ADDR_W, BURST_MAX, MAX_OUT   the AXI masters (kiln_axi_rd/_wr)
//   CNT_W           beat counter bits of the channels (kiln_chan_reps)
//   PP              kiln_conv's pixel parallelism: PP adjacent output pixels
//                   an op share the weight word (PP*PE_OC*PE_IC MACs a
//                   cycle from the weight memory of PE_OC x PE_IC); every
//                   layer needs K*K*ICG >= PP for the exact cycles below
//   SPAN            kiln_conv's SPAN (PP > 1): pixel groups run across row
//                   ends in every layer whose window takes it (K + S <= R,
//                   Wout >= PP; kiln_conv checks it on the layer's cfg), the
//                   others row by row (the last group of a row partial
//                   where PP does not divide Wout)
//   MAP_STRIDE      bytes from one frame's maps to the next (0: every
//                   frame at the table's addresses): frame f reads and
//                   writes its maps at the descriptor's x and y bases + f *
//                   MAP_STRIDE, as a DMA channel's cfg_stride places the
//                   repetitions of a batch; the weights and the table stay.
//                   A multiple of 4 KiB gives every frame the first
//                   frame's write bursts, so its cycles
//   WBANKS          1, or 2: kiln_conv's two weight banks in one memory of
//                   2*WDEPTH words a lane (WBMERGE), tile t+1 loading
//                   while pass t computes
//   WCH             1, or 2: the weights on two read masters (masters 0
//                   and 3, each on its own HP port), PE_IC even and PE_IC/2
//                   a multiple or a divisor of DATA_W/8.  A layer's weight
//                   bytes (w13, WB) are two halves of WB/2 bytes, half j
//                   holding lanes [j*PE_IC/2, (j+1)*PE_IC/2) of every
//                   stream beat in order (hls_tsconv_wsplit; the descriptor
//                   gives both halves whole bus beats); each master's
//                   kiln_rd_chan streams its half and kiln_conv takes a
//                   beat when both have theirs, so a beat of PE_IC > DATA_W/8
//                   bytes comes every ceil(PE_IC / (2*DATA_W/8)) cycles, not
//                   ceil(PE_IC / (DATA_W/8)).  The prefetch starts both;
//                   S_DROP holds both ARs and drains both masters' bursts
//   DSP2X           kiln_conv's DSP2X: 0; 1 (PE_IC even): the
//                   multipliers on clk2x, each DSP48E2 summing two input
//                   lanes a fabric cycle; 2 (PP even): each DSP48E2 taking
//                   two pixels a fabric cycle on one weight operand.  Half
//                   the multiplier DSPs, the same cycles but for kiln_conv's
//                   LAT (2 more)
//
// Cycles (no back-pressure, a memory that takes every AR/AW at once, returns
// a burst's beats back to back LAT cycles after its AR and answers B LAT
// cycles after a burst's last W beat; PE_IC <= DATA_W/8, so each stream
// takes a beat a cycle; avail never holds a frame back): a run is the sum
// over its frames of their layers', and a layer from the cycle after the
// one before it ended (a frame's first: its fetch's start; layer 0: from
// the start cycle, one more) to the cycle the next starts (`layer` then
// changes; the last: the cycle done is seen) takes, exactly,
//   [Tdesc +] 2 + (4 + LAT + FL) + Tconv + 5 + Bend [+ Wait]
//   Tdesc  a frame's first layer only (its fetch); a run's first layer on
//          the run-end prefetch, G > PF_IDLE idle cycles after the run
//          before it (done seen to start), g = G - PF_IDLE: Go = max(1,
//          Tdesc + 3 - g) in its place, its weight channel's first beat as
//          a prefetched layer's from tw = -g (hls_tsconv_idle); a dropped
//          prefetch: 3 more once settled (HLS_TS_DROP), else as its
//          bursts drain
//   Wait   when a layer of the frame follows: max(0, Tw + Tdesc + 3 - E),
//          E = Tconv + 5 + Bend - 1 the cycle it ends and Tw =
//          max(kiln_conv's last weight beat + 1, -(4 + LAT + FL)) (the
//          cycles from its first input beat): the next descriptor read
//          from Tw + 1, the next weight channel's start Tdesc + 1 later
//   Tdesc  kiln_axi_rd's cycles for the 128-byte descriptor
//   FL     kiln_axi_rd's FIFO latency (3: BRAM from MAX_OUT*BURST_MAX+8 = 128)
//   Tconv  kiln_conv's cycles of the layer (first input beat to last output
//          beat) with the first tile's W0 weight beats arriving one a
//          cycle from the first input beat on (a frame's first layer: both
//          channels started in the same cycle, tile 0's load ends W0
//          cycles after the first input beat, and the first op waits for
//          it) or, prefetched, from max(the next weight channel's first
//          beat, its bank free: the layer before it's second-last pass's
//          end + LAT), tile 1 no earlier than the last pass's end + LAT;
//          later tiles load as its model says (with WBANKS = 2 tile 1's
//          beats follow tile 0's).  hls_tsconv_layer carries these times
//          from a layer to the next
//   Bend   the last B response after the conv's last beat: kiln_axi_wr's
//          recurrence over the last sub-run's bursts (BURST_MAX, 4 KiB and,
//          for tiles, row ends cut them; a burst's AW waits for all of its
//          beats), each bus beat entering with its last stream beat: PP = 1
//          every max(1, K*K*ICG*(DATA_W/8)/PE_OC) cycles up to the last;
//          PP > 1 at the cycles kiln_conv's model gives its reorder
//          buffer's beats (a pixel group's results one a cycle, groups
//          apart: hls_conv_out_tail); a bus beat the payload does not fill
//          takes kiln_wr_chan's zero beats, one a cycle after the last
// hls/desc_tsconv.c evaluates it; the bench checks it layer by layer.
// Resources: kiln_conv + 2 kiln_rd_chan (WCH 2: 3) + kiln_wr_chan + kiln_axi_rd +
//   a 1024-bit descriptor shift register and the running layer's copy of
//   it (~1,000 FF in all: the bits kept), a weight beat counter, the
//   run-end prefetch's addresses (2 x ADDR_W FF, ~3 x ADDR_W LUT) and the
//   output clamp
//   (2 x 8-bit compare a lane, ~16 LUT a lane).  No DSP besides kiln_conv's
//   (with DSP2X its multipliers' DSP48E2 halve).
module kiln_tsconv #(
    parameter integer PE_IC     = 8,
    parameter integer PE_OC     = 8,
    parameter integer KMAX      = 3,
    parameter integer WMAX      = 32,
    parameter integer CIMAX     = 64,
    parameter integer COMAX     = 64,
    parameter integer WDEPTH    = ((CIMAX + PE_IC - 1) / PE_IC) * ((COMAX + PE_OC - 1) / PE_OC) * KMAX * KMAX,
    parameter integer PIPE      = 1,
    parameter integer RQ_PIPE   = 2,
    parameter integer PACK      = 1,
    parameter integer TOGMAX    = 0,
    parameter integer WURAM     = 0,
    parameter integer LBURAM    = 0,
    parameter integer LBBANK    = 0,
    parameter integer LBROWS    = 0,
    parameter integer RQS       = 1,
    parameter integer DATA_W    = 128,
    parameter integer ADDR_W    = 40,
    parameter integer BURST_MAX = 64,
    parameter integer MAX_OUT   = 4,
    parameter integer CNT_W     = 24,
    parameter integer PP        = 1,
    parameter integer MAP_STRIDE = 0,
    parameter integer SPAN      = 0,
    parameter integer WBANKS    = 1,
    parameter integer DSP2X     = 0,
    parameter integer RQ_DSP    = 2,
    parameter integer WCH       = 1
) (
    input  wire                 clk,
    /* verilator lint_off UNUSEDSIGNAL */ // DSP2X = 0
    input  wire                 clk2x,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire                 rst,
    input  wire [ADDR_W-1:0]    cfg_desc_base,
    input  wire [15:0]          cfg_layers,
    input  wire [31:0]          cfg_frames,
    input  wire [ADDR_W-1:0]    cfg_tbl_base,
    input  wire [15:0]          cfg_tbl_len,
    input  wire [31:0]          avail,
    output wire [31:0]          finished,
    input  wire                 start,
    output wire                 busy,
    output wire                 done,
    output wire                 error,
    output wire [15:0]          layer,
    // master 0: descriptors + weights (read)
    output wire                 m0_axi_arvalid,
    input  wire                 m0_axi_arready,
    output wire [ADDR_W-1:0]    m0_axi_araddr,
    output wire [7:0]           m0_axi_arlen,
    output wire [2:0]           m0_axi_arsize,
    output wire [1:0]           m0_axi_arburst,
    input  wire                 m0_axi_rvalid,
    output wire                 m0_axi_rready,
    input  wire [DATA_W-1:0]    m0_axi_rdata,
    input  wire [1:0]           m0_axi_rresp,
    input  wire                 m0_axi_rlast,
    // master 1: input map (read)
    output wire                 m1_axi_arvalid,
    input  wire                 m1_axi_arready,
    output wire [ADDR_W-1:0]    m1_axi_araddr,
    output wire [7:0]           m1_axi_arlen,
    output wire [2:0]           m1_axi_arsize,
    output wire [1:0]           m1_axi_arburst,
    input  wire                 m1_axi_rvalid,
    output wire                 m1_axi_rready,
    input  wire [DATA_W-1:0]    m1_axi_rdata,
    input  wire [1:0]           m1_axi_rresp,
    input  wire                 m1_axi_rlast,
    // master 2: output map (write)
    output wire                 m2_axi_awvalid,
    input  wire                 m2_axi_awready,
    output wire [ADDR_W-1:0]    m2_axi_awaddr,
    output wire [7:0]           m2_axi_awlen,
    output wire [2:0]           m2_axi_awsize,
    output wire [1:0]           m2_axi_awburst,
    output wire                 m2_axi_wvalid,
    input  wire                 m2_axi_wready,
    output wire [DATA_W-1:0]    m2_axi_wdata,
    output wire [DATA_W/8-1:0]  m2_axi_wstrb,
    output wire                 m2_axi_wlast,
    input  wire                 m2_axi_bvalid,
    output wire                 m2_axi_bready,
    input  wire [1:0]           m2_axi_bresp,
    // master 3: the weights' second half (WCH = 2; with WCH = 1 idle:
    // ARVALID and RREADY low, its inputs unused)
    output wire                 m3_axi_arvalid,
    /* verilator lint_off UNUSEDSIGNAL */ // WCH = 1
    input  wire                 m3_axi_arready,
    /* verilator lint_on UNUSEDSIGNAL */
    output wire [ADDR_W-1:0]    m3_axi_araddr,
    output wire [7:0]           m3_axi_arlen,
    output wire [2:0]           m3_axi_arsize,
    output wire [1:0]           m3_axi_arburst,
    output wire                 m3_axi_rready,
    /* verilator lint_off UNUSEDSIGNAL */ // WCH = 1
    input  wire                 m3_axi_rvalid,
    input  wire [DATA_W-1:0]    m3_axi_rdata,
    input  wire [1:0]           m3_axi_rresp,
    input  wire                 m3_axi_rlast
    /* verilator lint_on UNUSEDSIGNAL */
);
    localparam integer DBITS  = 1024;           // descriptor bits
    // the run-end prefetch starts once the engine has been idle this many
    // cycles after a run (hls.h HLS_TS_PF_IDLE): a host that starts again at
    // once (a part run alone frame after frame) finds nothing in flight
    localparam [11:0] PF_IDLE = 12'd256;
    localparam integer DBEATS = DBITS / DATA_W; // its bus beats
    localparam integer DLAST  = DBEATS - 1;

    localparam [3:0] S_IDLE = 4'd0, S_FGO = 4'd1, S_FETCH = 4'd2, S_CFG = 4'd3,
                     S_GO = 4'd4, S_RUN = 4'd5, S_WAIT = 4'd6,
                     S_PW = 4'd7,    // a run's start on the prefetched descriptor
                     S_DROP = 4'd8;  // a run's start elsewhere: the prefetch dropped
    // the prefetch: the next layer's descriptor fetch and weight start
    localparam [2:0] P_IDLE = 3'd0, P_FGO = 3'd1, P_FETCH = 3'd2, P_CFG = 3'd3,
                     P_GO = 3'd4, P_RUN = 3'd5;
    reg  [3:0]        state;
    reg  [2:0]        pst;        // prefetch state
    reg  [DBITS-1:0]  wdesc;      // descriptor of the weight channel's layer
    reg  [CNT_W-1:0]  wcnt;       // weight beats kiln_conv took since the channel's start
    reg               cwrst;      // kiln_conv's loader reset (a frame's first layer)
    reg               gow;        // the weight channel's start pulse (prefetch)
    reg  [ADDR_W-1:0] daddr;      // the current descriptor's address
    reg  [15:0]       nlayers;    // cfg_layers sampled at start
    reg  [15:0]       li;         // layer index
    reg  [ADDR_W-1:0] dbase;      // cfg_desc_base sampled at start
    reg  [31:0]       nframes;    // frames to run
    reg  [31:0]       fi;         // frame index (frames finished)
    wire [ADDR_W-1:0] x_base, y_base; // this frame's map addresses
    reg  [DBITS-1:0]  desc;       // descriptor, filled beat by beat
    reg  [7:0]        dcount;     // descriptor beats in
    reg               done_r, err_r;
    reg               crst;       // kiln_conv's per-layer reset
    reg               go;         // the channels' start pulse
    reg               x_fin, y_fin; // a channel done in this layer
    reg  [ADDR_W-1:0] paddr;      // the prefetch's descriptor address
    reg  [ADDR_W-1:0] tbase;      // cfg_tbl_base sampled at start
    reg  [15:0]       tlen;       // cfg_tbl_len sampled at start (0: no run-end prefetch)
    reg               arm;        // a run ended: prefetch the guessed next run's first layer
    reg  [11:0]       icnt;       // idle cycles since the run ended (to PF_IDLE)
    reg               perr;       // the idle engine's prefetch saw an error: not used
    reg               wblk;       // dropping: the weight channel's AR held off the bus
    reg               wrst;       // the weight channel's reset (a dropped prefetch)
    reg  [7:0]        wout;       // weight bursts whose AR was taken and RLAST not seen

    // the descriptor's words (wires, not a function of `desc`: a function
    // call in a continuous assignment is sensitive to its arguments only)
    wire [31:0] dw [0:21];
    genvar gi;
    generate
        for (gi = 0; gi < 22; gi = gi + 1) begin : g_dw
            assign dw[gi] = desc[32*gi +: 32];
        end
    endgenerate

    // descriptor fields
    wire [15:0] d_h     = desc[15:0];
    wire [15:0] d_w     = desc[31:16];
    wire [15:0] d_icg   = desc[47:32];
    wire [15:0] d_ocg   = desc[63:48];
    wire [15:0] d_tog   = desc[79:64];
    wire [3:0]  d_k     = desc[83:80];
    wire [1:0]  d_str   = desc[85:84];
    wire [3:0]  d_pad   = desc[91:88];
    wire signed [7:0] d_qlo = desc[103:96];
    wire signed [7:0] d_qhi = desc[111:104];
    wire [63:0] d_xbase = {dw[5], dw[4]};
    wire [63:0] d_wbase = {dw[7], dw[6]};  // (wdesc's p_wbase starts the channel)
    wire [63:0] d_ybase = {dw[9], dw[8]};
    // the weight channel's layer (wdesc): kiln_conv's loader, the channel
    wire [15:0] p_icg   = wdesc[47:32];
    wire [15:0] p_ocg   = wdesc[63:48];
    wire [15:0] p_tog   = wdesc[79:64];
    wire [3:0]  p_k     = wdesc[83:80];
    wire [63:0] p_wbase = wdesc[255:192];
    wire [31:0] p_wbytes = wdesc[447:416];
    wire [31:0] p_wbeats = wdesc[479:448];

    // ---- descriptor read (master 0 while fetching) ----
    wire              d_pre = (pst == P_FGO) || (pst == P_FETCH); // the prefetch's
    wire              d_sel = (state == S_FGO) || (state == S_FETCH) || d_pre;
    // a frame's first fetch waits for its input
    wire              fgo = ((state == S_FGO) && (li != 16'd0 || avail > fi)) || (pst == P_FGO);
    wire [ADDR_W-1:0] faddr = d_pre ? paddr : daddr;
    wire              dr_arvalid, dr_rready, dr_tvalid, dr_err;
    wire [ADDR_W-1:0] dr_araddr;
    wire [7:0]        dr_arlen;
    wire [2:0]        dr_arsize;
    wire [1:0]        dr_arburst;
    wire [DATA_W-1:0] dr_tdata;
    /* verilator lint_off UNUSEDSIGNAL */
    wire              dr_busy, dr_done;
    /* verilator lint_on UNUSEDSIGNAL */
    kiln_axi_rd #(.DATA_W(DATA_W), .ADDR_W(ADDR_W), .BURST_MAX(BURST_MAX),
                  .MAX_OUT(MAX_OUT), .CNT_W(12)) u_drd (
        .clk(clk), .rst(rst), .cfg_base(faddr), .cfg_bytes(32'd128),
        .start(fgo), .busy(dr_busy), .done(dr_done), .error(dr_err),
        .m_axi_arvalid(dr_arvalid), .m_axi_arready(d_sel & m0_axi_arready),
        .m_axi_araddr(dr_araddr), .m_axi_arlen(dr_arlen), .m_axi_arsize(dr_arsize),
        .m_axi_arburst(dr_arburst),
        .m_axi_rvalid(d_sel & m0_axi_rvalid), .m_axi_rready(dr_rready),
        .m_axi_rdata(m0_axi_rdata), .m_axi_rresp(m0_axi_rresp), .m_axi_rlast(m0_axi_rlast),
        .m_tvalid(dr_tvalid), .m_tready(1'b1), .m_tdata(dr_tdata));

    // ---- weight channel (master 0 while a layer runs; WCH = 2: and 3) ----
    // WCH = 2: a layer's weight bytes are two halves of WB/2 bytes, half j
    // from p_wbase + j*WB/2 holding lanes [j*PE_IC/2, (j+1)*PE_IC/2) of
    // every stream beat (hls_tsconv_wsplit); master 0 reads half 0, master 3
    // half 1, each through its own kiln_rd_chan of PE_IC/2 lanes, and a
    // stream beat leaves when both halves have theirs (in order: each
    // channel's beats are)
    localparam integer WL = PE_IC / WCH;  // lanes a weight channel
    wire              w_arvalid, w_rready, w_busy, w_done, w_err;
    wire              wa_busy, wa_done, wa_err;
    wire [ADDR_W-1:0] w_araddr;
    wire [7:0]        w_arlen;
    wire [2:0]        w_arsize;
    wire [1:0]        w_arburst;
    wire              ws_tvalid, ws_tready;
    wire [8*PE_IC-1:0] ws_tdata;
    wire              wa_tvalid, wa_tready;
    wire [8*WL-1:0]   wa_tdata;
    wire [31:0]       wh_bytes = (WCH == 2) ? {1'b0, p_wbytes[31:1]} : p_wbytes;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0]       w_finished, x_finished, y_finished;
    /* verilator lint_on UNUSEDSIGNAL */
    kiln_rd_chan #(.DATA_W(DATA_W), .ADDR_W(ADDR_W), .BURST_MAX(BURST_MAX),
                   .MAX_OUT(MAX_OUT), .LANES(WL), .CNT_W(CNT_W)) u_wch (
        .clk(clk), .rst(rst | wrst), .cfg_base(p_wbase[ADDR_W-1:0]), .cfg_bytes(wh_bytes),
        .cfg_stride(32'd0), .cfg_beats(p_wbeats), .cfg_reps(32'd1), .cfg_subs(32'd1),
        .cfg_sub_stride(32'd0), .start(gow), .busy(wa_busy), .done(wa_done), .error(wa_err),
        .avail(32'hffffffff), .finished(w_finished),
        .m_axi_arvalid(w_arvalid), .m_axi_arready(!d_sel & !wblk & m0_axi_arready),
        .m_axi_araddr(w_araddr), .m_axi_arlen(w_arlen), .m_axi_arsize(w_arsize),
        .m_axi_arburst(w_arburst),
        .m_axi_rvalid(!d_sel & !wblk & m0_axi_rvalid), .m_axi_rready(w_rready),
        .m_axi_rdata(m0_axi_rdata), .m_axi_rresp(m0_axi_rresp), .m_axi_rlast(m0_axi_rlast),
        .m_tvalid(wa_tvalid), .m_tready(wa_tready), .m_tdata(wa_tdata));

    wire              w3_idle;     // no weight burst in flight on master 3
    wire              w3_arshown;  // master 3 shows an AR the interconnect has not taken
    generate
        if (WCH == 2) begin : g_wch2
            wire              wb_tvalid, wb_tready, wb_busy, wb_done, wb_err, wb_arvalid;
            wire              wb_rready;
            wire [8*WL-1:0]   wb_tdata;
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0]       wb_finished;
            /* verilator lint_on UNUSEDSIGNAL */
            reg  [7:0]        wout3;
            kiln_rd_chan #(.DATA_W(DATA_W), .ADDR_W(ADDR_W), .BURST_MAX(BURST_MAX),
                           .MAX_OUT(MAX_OUT), .LANES(WL), .CNT_W(CNT_W)) u_wch3 (
                .clk(clk), .rst(rst | wrst),
                .cfg_base(p_wbase[ADDR_W-1:0] + {{(ADDR_W-32){1'b0}}, wh_bytes}),
                .cfg_bytes(wh_bytes),
                .cfg_stride(32'd0), .cfg_beats(p_wbeats), .cfg_reps(32'd1), .cfg_subs(32'd1),
                .cfg_sub_stride(32'd0), .start(gow), .busy(wb_busy), .done(wb_done),
                .error(wb_err), .avail(32'hffffffff), .finished(wb_finished),
                .m_axi_arvalid(wb_arvalid), .m_axi_arready(!wblk & m3_axi_arready),
                .m_axi_araddr(m3_axi_araddr), .m_axi_arlen(m3_axi_arlen),
                .m_axi_arsize(m3_axi_arsize), .m_axi_arburst(m3_axi_arburst),
                .m_axi_rvalid(!wblk & m3_axi_rvalid), .m_axi_rready(wb_rready),
                .m_axi_rdata(m3_axi_rdata), .m_axi_rresp(m3_axi_rresp),
                .m_axi_rlast(m3_axi_rlast),
                .m_tvalid(wb_tvalid), .m_tready(wb_tready), .m_tdata(wb_tdata));
            assign m3_axi_arvalid = wb_arvalid & !wblk;
            assign m3_axi_rready  = wblk | wb_rready;
            // the two halves of each stream beat leave together
            assign ws_tvalid = wa_tvalid & wb_tvalid;
            assign wa_tready = ws_tready & wb_tvalid;
            assign wb_tready = ws_tready & wa_tvalid;
            assign ws_tdata  = {wb_tdata, wa_tdata};
            assign w_busy = wa_busy | wb_busy;
            assign w_done = wa_done & wb_done;
            assign w_err  = wa_err | wb_err;
            // dropping: the AR held once none is shown untaken on either
            // master, the bursts of both drained
            wire w3_ar_take = !wblk && wb_arvalid && m3_axi_arready;
            wire w3_r_last  = m3_axi_rvalid && m3_axi_rready && m3_axi_rlast;
            always @(posedge clk)
                if (rst || gow)
                    wout3 <= 8'd0;
                else if (w3_ar_take != w3_r_last)
                    wout3 <= w3_ar_take ? wout3 + 8'd1 : wout3 - 8'd1;
            assign w3_idle = (wout3 == 8'd0);
            assign w3_arshown = wb_arvalid && !m3_axi_arready;
        end else begin : g_wch1
            assign ws_tvalid = wa_tvalid;
            assign wa_tready = ws_tready;
            assign ws_tdata  = wa_tdata;
            assign w_busy = wa_busy;
            assign w_done = wa_done;
            assign w_err  = wa_err;
            assign m3_axi_arvalid = 1'b0;
            assign m3_axi_araddr  = {ADDR_W{1'b0}};
            assign m3_axi_arlen   = 8'd0;
            assign m3_axi_arsize  = 3'd0;
            assign m3_axi_arburst = 2'd0;
            assign m3_axi_rready  = 1'b0;
            assign w3_idle = 1'b1;
            assign w3_arshown = 1'b0;
        end
    endgenerate

    assign m0_axi_arvalid = d_sel ? dr_arvalid : (w_arvalid & !wblk);
    assign m0_axi_araddr  = d_sel ? dr_araddr  : w_araddr;
    assign m0_axi_arlen   = d_sel ? dr_arlen   : w_arlen;
    assign m0_axi_arsize  = d_sel ? dr_arsize  : w_arsize;
    assign m0_axi_arburst = d_sel ? dr_arburst : w_arburst;
    assign m0_axi_rready  = d_sel ? dr_rready  : (wblk | w_rready);
    // weight bursts in flight on master 0 (a dropped prefetch drains them:
    // its R beats taken and discarded until none is left)
    wire w_ar_take = !d_sel && !wblk && w_arvalid && m0_axi_arready;
    wire w_r_last  = !d_sel && m0_axi_rvalid && m0_axi_rready && m0_axi_rlast;
    always @(posedge clk)
        if (rst || gow)
            wout <= 8'd0;
        else if (w_ar_take != w_r_last)
            wout <= w_ar_take ? wout + 8'd1 : wout - 8'd1;

    // ---- input map channel (master 1): NT passes over the same map ----
    wire              x_busy, x_done, x_err;
    wire              xs_tvalid, xs_tready;
    wire [8*PE_IC-1:0] xs_tdata;
    kiln_rd_chan #(.DATA_W(DATA_W), .ADDR_W(ADDR_W), .BURST_MAX(BURST_MAX),
                   .MAX_OUT(MAX_OUT), .LANES(PE_IC), .CNT_W(CNT_W)) u_xch (
        .clk(clk), .rst(rst), .cfg_base(x_base), .cfg_bytes(dw[10]),
        .cfg_stride(32'd0), .cfg_beats(dw[11]), .cfg_reps(32'd1), .cfg_subs(dw[12]),
        .cfg_sub_stride(32'd0), .start(go), .busy(x_busy), .done(x_done), .error(x_err),
        .avail(32'hffffffff), .finished(x_finished),
        .m_axi_arvalid(m1_axi_arvalid), .m_axi_arready(m1_axi_arready),
        .m_axi_araddr(m1_axi_araddr), .m_axi_arlen(m1_axi_arlen),
        .m_axi_arsize(m1_axi_arsize), .m_axi_arburst(m1_axi_arburst),
        .m_axi_rvalid(m1_axi_rvalid), .m_axi_rready(m1_axi_rready),
        .m_axi_rdata(m1_axi_rdata), .m_axi_rresp(m1_axi_rresp), .m_axi_rlast(m1_axi_rlast),
        .m_tvalid(xs_tvalid), .m_tready(xs_tready), .m_tdata(xs_tdata));

    // ---- the conv engine ----
    wire              cv_tvalid, cv_tready;
    wire [8*PE_OC-1:0] cv_tdata;
    kiln_conv #(.PE_IC(PE_IC), .PE_OC(PE_OC), .KMAX(KMAX), .WMAX(WMAX), .CIMAX(CIMAX),
                .COMAX(COMAX), .WDEPTH(WDEPTH), .WBANKS(WBANKS), .WBMERGE(WBANKS == 2 ? 1 : 0), .PIPE(PIPE), .RQ_PIPE(RQ_PIPE),
                .PACK(PACK), .TOGMAX(TOGMAX), .WURAM(WURAM), .LBURAM(LBURAM), .LBBANK(LBBANK), .LBROWS(LBROWS), .RQS(RQS), .PP(PP),
                .SPAN(SPAN), .DSP2X(DSP2X), .RQ_DSP(RQ_DSP), .WLSEP(1)) u_conv (
        .clk(clk), .clk2x(clk2x), .rst(rst | crst),
        .wl_rst(rst | cwrst), .wl_icg(p_icg), .wl_ocg(p_ocg), .wl_tog(p_tog), .wl_k(p_k),
        .cfg_h(d_h), .cfg_w(d_w), .cfg_icg(d_icg), .cfg_ocg(d_ocg), .cfg_tog(d_tog),
        .cfg_k(d_k), .cfg_stride(d_str), .cfg_pad(d_pad), .cfg_wreload(1'b1),
        .cfg_band(16'd0),
        .s_tvalid(xs_tvalid), .s_tready(xs_tready), .s_tdata(xs_tdata),
        .w_tvalid(ws_tvalid), .w_tready(ws_tready), .w_tdata(ws_tdata),
        .m_tvalid(cv_tvalid), .m_tready(cv_tready), .m_tdata(cv_tdata));

    // the layer's activation clamp, lane by lane
    reg [8*PE_OC-1:0] clamped;
    integer ci;
    always @* begin
        for (ci = 0; ci < PE_OC; ci = ci + 1) begin
            if ($signed(cv_tdata[8*ci +: 8]) < d_qlo)
                clamped[8*ci +: 8] = d_qlo;
            else if ($signed(cv_tdata[8*ci +: 8]) > d_qhi)
                clamped[8*ci +: 8] = d_qhi;
            else
                clamped[8*ci +: 8] = cv_tdata[8*ci +: 8];
        end
    end

    // ---- output map channel (master 2) ----
    wire y_busy, y_done, y_err;
    kiln_wr_chan #(.DATA_W(DATA_W), .ADDR_W(ADDR_W), .BURST_MAX(BURST_MAX),
                   .MAX_OUT(MAX_OUT), .LANES(PE_OC), .CNT_W(CNT_W)) u_ych (
        .clk(clk), .rst(rst), .cfg_base(y_base), .cfg_bytes(dw[15]),
        .cfg_stride(32'd0), .cfg_beats(dw[16]), .cfg_reps(32'd1), .cfg_subs(dw[17]),
        .cfg_sub_stride(dw[18]), .cfg_row_beats(dw[19]), .cfg_row_stride(dw[20]),
        .start(go), .busy(y_busy), .done(y_done), .error(y_err),
        .avail(32'hffffffff), .finished(y_finished),
        .s_tvalid(cv_tvalid), .s_tready(cv_tready), .s_tdata(clamped),
        .m_axi_awvalid(m2_axi_awvalid), .m_axi_awready(m2_axi_awready),
        .m_axi_awaddr(m2_axi_awaddr), .m_axi_awlen(m2_axi_awlen),
        .m_axi_awsize(m2_axi_awsize), .m_axi_awburst(m2_axi_awburst),
        .m_axi_wvalid(m2_axi_wvalid), .m_axi_wready(m2_axi_wready),
        .m_axi_wdata(m2_axi_wdata), .m_axi_wstrb(m2_axi_wstrb), .m_axi_wlast(m2_axi_wlast),
        .m_axi_bvalid(m2_axi_bvalid), .m_axi_bready(m2_axi_bready),
        .m_axi_bresp(m2_axi_bresp));

    // the weight channel's layer: all its beats in kiln_conv (the channel
    // has then had every R beat: m0 is free for the next descriptor; its
    // done follows a few cycles on, before the next start)
    wire w_all = (wcnt == p_wbeats[CNT_W-1:0]);
    always @(posedge clk)
        if (rst || gow)
            wcnt <= {CNT_W{1'b0}};
        else if (ws_tvalid && ws_tready)
            wcnt <= wcnt + {{(CNT_W-1){1'b0}}, 1'b1};
    // a layer's channels are all done (S_RUN): the next layer, or frame;
    // with a prefetch started its weights were all in before it
    wire layer_end = (pst != P_IDLE || (w_all && w_done)) && (x_fin || x_done) &&
                     (y_fin || y_done);

    // ---- the frame's map offset (MAP_STRIDE) ----
    generate
        if (MAP_STRIDE != 0) begin : g_moff
            localparam [ADDR_W+31:0] MSX = {{ADDR_W{1'b0}}, MAP_STRIDE[31:0]};
            localparam [ADDR_W-1:0] MSTRIDE = MSX[ADDR_W-1:0];
            reg [ADDR_W-1:0] moff; // fi * MAP_STRIDE
            always @(posedge clk)
                if (rst || (state == S_IDLE && start))
                    moff <= {ADDR_W{1'b0}};
                else if (state == S_RUN && layer_end && li + 16'd1 == nlayers)
                    moff <= moff + MSTRIDE;
            assign x_base = d_xbase[ADDR_W-1:0] + moff;
            assign y_base = d_ybase[ADDR_W-1:0] + moff;
        end else begin : g_nomoff
            assign x_base = d_xbase[ADDR_W-1:0];
            assign y_base = d_ybase[ADDR_W-1:0];
        end
    endgenerate

    // ---- sequencer ----
    wire last_layer = (li + 16'd1 == nlayers);
    // the next layer's descriptor is in wdesc and its weights started
    wire pf_ready = (pst == P_RUN);
    // the guess of the next run's first descriptor: the one after the run's
    // last, the table's first after its last
    wire [ADDR_W-1:0] d_next = daddr + {{(ADDR_W-8){1'b0}}, 8'd128};
    wire [ADDR_W-1:0] t_end  = tbase + {{(ADDR_W-23){1'b0}}, tlen, 7'd0};
    // a start on the prefetched descriptor: its weights are loading or in
    wire hit = (pst != P_IDLE) && !perr && (cfg_desc_base == paddr) && (cfg_layers != 16'd0);
    always @(posedge clk) begin
        if (rst) begin
            state  <= S_IDLE;
            pst    <= P_IDLE;
            daddr  <= {ADDR_W{1'b0}};
            nlayers <= 16'd0;
            dbase  <= {ADDR_W{1'b0}};
            nframes <= 32'd0;
            fi     <= 32'd0;
            li     <= 16'd0;
            desc   <= {DBITS{1'b0}};
            wdesc  <= {DBITS{1'b0}};
            dcount <= 8'd0;
            done_r <= 1'b0;
            err_r  <= 1'b0;
            crst   <= 1'b0;
            cwrst  <= 1'b0;
            go     <= 1'b0;
            gow    <= 1'b0;
            x_fin  <= 1'b0;
            y_fin  <= 1'b0;
            paddr  <= {ADDR_W{1'b0}};
            tbase  <= {ADDR_W{1'b0}};
            tlen   <= 16'd0;
            arm    <= 1'b0;
            icnt   <= 12'd0;
            perr   <= 1'b0;
            wblk   <= 1'b0;
            wrst   <= 1'b0;
        end else begin
            crst  <= 1'b0;
            cwrst <= 1'b0;
            go    <= 1'b0;
            gow   <= 1'b0;
            wrst  <= 1'b0;
            // an error of the idle engine's prefetch is the next run's
            // only if it takes the prefetch, and then it fetches instead
            // (a dropped one's not at all)
            if (state != S_IDLE && state != S_DROP &&
                ((dr_err && (state == S_FETCH || pst == P_FETCH)) || w_err || x_err || y_err))
                err_r <= 1'b1;
            if ((state == S_IDLE || state == S_DROP) && ((dr_err && pst == P_FETCH) || w_err))
                perr <= 1'b1;
            // the prefetch: once the running layer's weights are all in
            // kiln_conv (the weight master idle), the next layer's
            // descriptor into wdesc and its weights into the free bank
            case (pst)
            P_IDLE: if ((state == S_RUN || state == S_WAIT) && w_all && !last_layer) begin
                paddr <= d_next;
                pst   <= P_FGO;
            end else if (state == S_IDLE && arm && !start) begin
                // the engine idle PF_IDLE cycles after a run: the guessed
                // next run's first descriptor and weights (paddr set at
                // the run's end)
                icnt <= icnt + 12'd1;
                if (icnt == PF_IDLE) begin
                    arm <= 1'b0;
                    pst <= P_FGO;
                end
            end
            P_FGO: begin  // fgo: the descriptor read starts
                dcount <= 8'd0;
                pst    <= P_FETCH;
            end
            P_FETCH: if (dr_tvalid) begin
                wdesc  <= {dr_tdata, wdesc[DBITS-1:DATA_W]};
                dcount <= dcount + 8'd1;
                if ({24'd0, dcount} == DLAST[31:0])
                    pst <= P_CFG;
            end
            P_CFG: if (state == S_DROP) begin  // a start elsewhere: no weights
                pst <= P_IDLE;
            end else if (!w_busy) begin  // the loader's layer is wdesc's now
                gow <= 1'b1;
                pst <= P_GO;
            end
            P_GO: pst <= P_RUN;  // the weight channel took the start pulse
            default: ;           // P_RUN: until the layer before it ends
            endcase
            case (state)
            S_IDLE: if (start) begin
                daddr   <= cfg_desc_base;
                dbase   <= cfg_desc_base;
                nlayers <= cfg_layers;
                nframes <= (cfg_frames == 32'd0) ? 32'd1 : cfg_frames;
                tbase   <= cfg_tbl_base;
                tlen    <= cfg_tbl_len;
                arm     <= 1'b0;
                fi      <= 32'd0;
                li      <= 16'd0;
                done_r  <= cfg_layers == 16'd0;
                err_r   <= 1'b0;
                // the run-end prefetch guessed this run: use it; guessed
                // another: drop it first; none: fetch
                state   <= (cfg_layers == 16'd0) ? S_IDLE : hit ? S_PW :
                           (pst != P_IDLE) ? S_DROP : S_FGO;
            end
            S_PW: if (pf_ready && avail > fi) begin
                // as a prefetched later layer: the sequencer reset, the
                // loader (its tiles of this layer) kept
                crst  <= 1'b1;
                pst   <= P_IDLE;
                state <= S_CFG;
            end
            S_DROP: begin
                // no AXI transaction left open: a descriptor read ends (its
                // beats discarded), the weight channel's AR is held off the
                // bus once none waits on it, its bursts in flight drain,
                // then it is reset and the run fetches as from idle
                if (pst == P_IDLE) begin
                    state <= S_FGO;
                end else if (pst == P_RUN) begin
                    if (wrst) begin
                        wblk  <= 1'b0;
                        pst   <= P_IDLE;
                        state <= S_FGO;
                    end else if (!wblk) begin
                        if (!(w_arvalid && !m0_axi_arready) && !w3_arshown)
                            wblk <= 1'b1;
                    end else if (wout == 8'd0 && w3_idle) begin
                        wrst <= 1'b1;
                    end
                end
            end
            S_FGO: if (fgo) begin
                dcount <= 8'd0;
                state  <= S_FETCH;
            end
            S_FETCH: if (dr_tvalid) begin
                // a frame's first layer: kiln_conv's loader reset too, all
                // three channels started together
                wdesc  <= {dr_tdata, wdesc[DBITS-1:DATA_W]};
                dcount <= dcount + 8'd1;
                if ({24'd0, dcount} == DLAST[31:0]) begin
                    crst  <= 1'b1;
                    cwrst <= 1'b1;
                    state <= S_CFG;
                end
            end
            S_CFG: begin
                // kiln_conv's sequencer (a frame's first layer: all of it)
                // in reset this cycle and the next, its cfg_* from the
                // next on: desc is only ever a copy of wdesc
                desc  <= wdesc;
                crst  <= 1'b1;
                cwrst <= cwrst;
                x_fin <= 1'b0;
                y_fin <= 1'b0;
                go    <= 1'b1;
                gow   <= cwrst;  // a frame's first layer: its weights too
                state <= S_GO;
            end
            S_GO: state <= S_RUN;  // the channels took the start pulse
            S_RUN, S_WAIT: begin
                if (x_done) x_fin <= 1'b1;
                if (y_done) y_fin <= 1'b1;
                if (state == S_WAIT || layer_end) begin
                    if (last_layer) begin
                        fi <= fi + 32'd1;
                        li <= 16'd0;
                        daddr <= dbase;
                        if (fi + 32'd1 == nframes) begin
                            done_r <= 1'b1;
                            state  <= S_IDLE;
                            arm    <= tlen != 16'd0;
                            icnt   <= 12'd0;
                            perr   <= 1'b0;
                            paddr  <= (d_next == t_end) ? tbase : d_next;
                        end else begin
                            state  <= S_FGO;
                        end
                    end else if (pf_ready) begin
                        // the next layer: its weights are loading or in;
                        // kiln_conv's sequencer reset, its input and output
                        // channels started
                        crst  <= 1'b1;
                        pst   <= P_IDLE;
                        li    <= li + 16'd1;
                        daddr <= daddr + {{(ADDR_W-8){1'b0}}, 8'd128};
                        state <= S_CFG;
                    end else begin
                        state <= S_WAIT;
                    end
                end
            end
            default: state <= S_IDLE;
            endcase
        end
    end

    assign busy  = (state != S_IDLE);
    assign done  = done_r;
    assign error = err_r;
    assign layer = li;
    assign finished = fi;

    /* verilator lint_off UNUSEDSIGNAL */
    // (desc's weight words and wdesc's map words serve the other side)
    wire unused = x_busy | y_busy | (|desc) | (|wdesc) | (|p_wbase) | (|d_xbase[63:ADDR_W]) |
                  (|d_wbase) | (|d_ybase[63:ADDR_W]);
    /* verilator lint_on UNUSEDSIGNAL */
endmodule
