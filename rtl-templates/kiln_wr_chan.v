// kiln_wr_chan: one DDR write channel of the accelerator top: LANES-lane
// stream beats packed into DATA_W/8-byte beats and written by kiln_axi_wr,
// cfg_reps x cfg_subs times.
//
// Ports:      clk, rst (sync, active high)
//             cfg_base     byte address of repetition 0 (multiple of DATA_W/8)
//             cfg_bytes    DDR bytes per sub-run: a multiple of DATA_W/8
//                          and of LANES
//             cfg_stride   bytes from one repetition's base to the next
//             cfg_beats    stream beats per sub-run (<= cfg_bytes/LANES);
//                          zero beats fill the rest of the repetition
//             cfg_reps     repetitions (0: done at once)
//             cfg_subs, cfg_sub_stride  sub-runs per repetition (frame) and
//                          the bytes between their bases (kiln_chan_reps):
//                          e.g. a weight-tiled conv's output, one sub-run
//                          per tile at the tile's channel offset
//             cfg_row_beats, cfg_row_stride  kiln_axi_wr's 2-D row mode
//                          within a sub-run (0: contiguous); a tile's
//                          channels of every pixel, pixel to pixel
//             avail        frames the data's producer finished (another
//                          channel's `finished`); all ones: no gate
//             finished     frames this channel finished since start
//             start        one-cycle pulse, taken while !busy; samples cfg_*
//             busy, done   done set when the last repetition's last B
//                          response arrived, cleared by start
//             error        one-cycle pulse at the first BRESP != OKAY since
//                          start (a sticky register outside can be cleared)
//             s_tvalid/s_tready/s_tdata  LANES int8 lanes; lane i of stream
//                          beat j is byte j*LANES + i of the repetition
//             m_axi_aw*, m_axi_w*, m_axi_b*   as kiln_axi_wr
// Parameters: DATA_W (16, 32, 64, 128), ADDR_W, BURST_MAX, MAX_OUT (kiln_axi_wr),
//             LANES (power of two; DATA_W/8 divides it or it divides DATA_W/8),
//             CNT_W (kiln_chan_reps: bits of the beat and sub-run counters;
//             a start beyond them pulses error and transfers nothing).
// Structure:  kiln_chan_reps (repetitions, beat count) around
//             zero-beat filler -> kiln_width (flat) -> kiln_axi_wr.  The
//             stream waits between repetitions (kiln_axi_wr takes beats only
//             during a transfer); repetition r+1 starts the cycle after
//             repetition r's done.
// Latency:    1 cycle (kiln_width) + kiln_axi_wr's.
// Cycles:     per repetition kiln_axi_wr's cycles for cfg_bytes + 1.
// Resources:  kiln_axi_wr + kiln_width + ~3*32 FF, ~200 LUT.
module kiln_wr_chan #(
    parameter DATA_W    = 64,
    parameter ADDR_W    = 40,
    parameter BURST_MAX = 64,
    parameter MAX_OUT   = 4,
    parameter LANES     = 8,
    parameter CNT_W     = 32
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [ADDR_W-1:0] cfg_base,
    input  wire [31:0]       cfg_bytes,
    input  wire [31:0]       cfg_stride,
    input  wire [31:0]       cfg_beats,
    input  wire [31:0]       cfg_reps,
    input  wire [31:0]       cfg_subs,
    input  wire [31:0]       cfg_sub_stride,
    input  wire [31:0]       cfg_row_beats,
    input  wire [31:0]       cfg_row_stride,
    input  wire              start,
    output wire              busy,
    output wire              done,
    output wire              error,
    input  wire [31:0]       avail,
    output wire [31:0]       finished,
    input  wire              s_tvalid,
    output wire              s_tready,
    input  wire [8*LANES-1:0] s_tdata,
    output wire              m_axi_awvalid,
    input  wire              m_axi_awready,
    output wire [ADDR_W-1:0] m_axi_awaddr,
    output wire [7:0]        m_axi_awlen,
    output wire [2:0]        m_axi_awsize,
    output wire [1:0]        m_axi_awburst,
    output wire              m_axi_wvalid,
    input  wire              m_axi_wready,
    output wire [DATA_W-1:0] m_axi_wdata,
    output wire [DATA_W/8-1:0] m_axi_wstrb,
    output wire              m_axi_wlast,
    input  wire              m_axi_bvalid,
    output wire              m_axi_bready,
    input  wire [1:0]        m_axi_bresp
);
    localparam NB = DATA_W / 8;

    wire               f_tvalid, f_tready;
    wire [8*LANES-1:0] f_tdata;
    wire              wr_busy, wr_done, wr_err;
    wire              go, keep;
    wire [ADDR_W-1:0] addr;
    wire [31:0]       bytes;
    kiln_chan_reps #(.ADDR_W(ADDR_W), .LANES(LANES), .DATA_W(DATA_W), .CNT_W(CNT_W)) u_reps (
        .clk(clk), .rst(rst),
        .cfg_base(cfg_base), .cfg_bytes(cfg_bytes), .cfg_stride(cfg_stride),
        .cfg_beats(cfg_beats), .cfg_reps(cfg_reps),
        .cfg_subs(cfg_subs), .cfg_sub_stride(cfg_sub_stride), .start(start),
        .busy(busy), .done(done), .error(error), .avail(avail), .finished(finished),
        .go(go), .addr(addr), .bytes(bytes),
        .dma_busy(wr_busy), .dma_done(wr_done), .dma_err(wr_err),
        .beat(f_tvalid && f_tready), .keep(keep));

    // zero beats after the payload of each repetition
    assign f_tvalid = keep ? s_tvalid : busy;
    assign s_tready = keep && f_tready;
    assign f_tdata  = keep ? s_tdata : {8*LANES{1'b0}};

    wire              a_tvalid, a_tready;
    wire [DATA_W-1:0] a_tdata;
    generate
        if (NB == LANES) begin : g_same
            assign a_tvalid = f_tvalid;
            assign f_tready = a_tready;
            assign a_tdata  = f_tdata;
        end else begin : g_conv
            localparam integer CGI = NB > LANES ? NB / LANES : 1;
            localparam integer CGO = NB < LANES ? LANES / NB : 1;
            kiln_width #(.LI(LANES), .LO(NB)) u_width (
                .clk(clk), .rst(rst),
                .cfg_cg_in(CGI[15:0]), .cfg_cg_out(CGO[15:0]),
                .s_tvalid(f_tvalid), .s_tready(f_tready), .s_tdata(f_tdata),
                .m_tvalid(a_tvalid), .m_tready(a_tready), .m_tdata(a_tdata));
        end
    endgenerate

    kiln_axi_wr #(
        .DATA_W(DATA_W), .ADDR_W(ADDR_W), .BURST_MAX(BURST_MAX), .MAX_OUT(MAX_OUT),
        .CNT_W(CNT_W)
    ) u_wr (
        .clk(clk), .rst(rst),
        .cfg_base(addr), .cfg_bytes(bytes),
        .cfg_row_beats(cfg_row_beats), .cfg_row_stride(cfg_row_stride), .start(go),
        .busy(wr_busy), .done(wr_done), .error(wr_err),
        .s_tvalid(a_tvalid), .s_tready(a_tready), .s_tdata(a_tdata),
        .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready),
        .m_axi_awaddr(m_axi_awaddr), .m_axi_awlen(m_axi_awlen),
        .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst),
        .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready),
        .m_axi_wdata(m_axi_wdata), .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
        .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp));
endmodule
