// kiln_rd_chan: one DDR read channel of the accelerator top: kiln_axi_rd run
// cfg_reps times, its DATA_W/8-byte beats cut into LANES-lane stream beats.
//
// Ports:      clk, rst (sync, active high)
//             cfg_base     byte address of repetition 0 (multiple of DATA_W/8)
//             cfg_bytes    DDR bytes per sub-run: a multiple of DATA_W/8
//                          and of LANES
//             cfg_stride   bytes from one repetition's base to the next
//                          (0: every repetition reads the same buffer)
//             cfg_beats    stream beats per sub-run (<= cfg_bytes/LANES);
//                          the beats past it (padding) are dropped
//             cfg_reps     repetitions (0: done at once)
//             cfg_subs, cfg_sub_stride  sub-runs per repetition (frame) and
//                          the bytes between their bases (kiln_chan_reps):
//                          e.g. a weight-tiled conv's input read once per
//                          tile (stride 0)
//             avail        frames the data's producer finished (another
//                          channel's `finished`); all ones: no gate
//             finished     frames this channel finished since start
//             start        one-cycle pulse, taken while !busy; samples cfg_*
//             busy, done   done set when the last repetition's last DDR beat
//                          left kiln_axi_rd, cleared by start
//             error        one-cycle pulse at the first RRESP != OKAY since
//                          start (a sticky register outside can be cleared)
//             m_axi_ar*, m_axi_r*   as kiln_axi_rd
//             m_tvalid/m_tready/m_tdata  LANES int8 lanes; byte j of the DDR
//                          stream (little-endian beats) is lane j % LANES
//                          of stream beat j / LANES
// Parameters: DATA_W (16, 32, 64 or 128), ADDR_W, BURST_MAX, MAX_OUT (kiln_axi_rd),
//             LANES (power of two; DATA_W/8 divides it or it divides DATA_W/8),
//             CNT_W (kiln_chan_reps: bits of the beat and sub-run counters;
//             a start beyond them pulses error and transfers nothing).
// Structure:  kiln_chan_reps (repetitions, beat count) around
//             kiln_axi_rd -> kiln_width (flat: one DDR beat is one "pixel"
//             when LANES < DATA_W/8, LANES*8/DATA_W beats one when larger)
//             -> beat counter that drops the padding beats of a repetition.
//             Repetition r+1 starts the cycle after repetition r's done.
// Latency:    kiln_axi_rd's + 1 (kiln_width) cycles.
// Cycles:     per repetition kiln_axi_rd's cycles for cfg_bytes + 1.
// Resources:  kiln_axi_rd + kiln_width + ~3*32 FF, ~200 LUT.
module kiln_rd_chan #(
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
    input  wire              start,
    output wire              busy,
    output wire              done,
    output wire              error,
    input  wire [31:0]       avail,
    output wire [31:0]       finished,
    output wire              m_axi_arvalid,
    input  wire              m_axi_arready,
    output wire [ADDR_W-1:0] m_axi_araddr,
    output wire [7:0]        m_axi_arlen,
    output wire [2:0]        m_axi_arsize,
    output wire [1:0]        m_axi_arburst,
    input  wire              m_axi_rvalid,
    output wire              m_axi_rready,
    input  wire [DATA_W-1:0] m_axi_rdata,
    input  wire [1:0]        m_axi_rresp,
    input  wire              m_axi_rlast,
    output wire              m_tvalid,
    input  wire              m_tready,
    output wire [8*LANES-1:0] m_tdata
);
    localparam NB = DATA_W / 8;

    wire               w_tvalid, w_tready;
    wire [8*LANES-1:0] w_tdata;
    wire              rd_busy, rd_done, rd_err;
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
        .dma_busy(rd_busy), .dma_done(rd_done), .dma_err(rd_err),
        .beat(w_tvalid && w_tready), .keep(keep));

    wire              a_tvalid, a_tready;
    wire [DATA_W-1:0] a_tdata;
    kiln_axi_rd #(
        .DATA_W(DATA_W), .ADDR_W(ADDR_W), .BURST_MAX(BURST_MAX), .MAX_OUT(MAX_OUT),
        .CNT_W(CNT_W)
    ) u_rd (
        .clk(clk), .rst(rst),
        .cfg_base(addr), .cfg_bytes(bytes), .start(go),
        .busy(rd_busy), .done(rd_done), .error(rd_err),
        .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready),
        .m_axi_araddr(m_axi_araddr), .m_axi_arlen(m_axi_arlen),
        .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst),
        .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready),
        .m_axi_rdata(m_axi_rdata), .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast),
        .m_tvalid(a_tvalid), .m_tready(a_tready), .m_tdata(a_tdata));

    generate
        if (NB == LANES) begin : g_same
            assign w_tvalid = a_tvalid;
            assign a_tready = w_tready;
            assign w_tdata  = a_tdata;
        end else begin : g_conv
            localparam integer CGI = NB < LANES ? LANES / NB : 1;
            localparam integer CGO = NB > LANES ? NB / LANES : 1;
            kiln_width #(.LI(NB), .LO(LANES)) u_width (
                .clk(clk), .rst(rst),
                .cfg_cg_in(CGI[15:0]), .cfg_cg_out(CGO[15:0]),
                .s_tvalid(a_tvalid), .s_tready(a_tready), .s_tdata(a_tdata),
                .m_tvalid(w_tvalid), .m_tready(w_tready), .m_tdata(w_tdata));
        end
    endgenerate

    // drop the padding beats at the end of each repetition
    assign m_tvalid = w_tvalid && keep;
    assign w_tready = keep ? m_tready : 1'b1;
    assign m_tdata  = w_tdata;
endmodule
