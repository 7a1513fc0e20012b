// kiln_axi_wr: AXI4 burst write master, stream -> DDR.
//
// Ports:      clk, rst (sync, active high)
//             cfg_base     byte address of the first byte, a multiple of
//                          DATA_W/8; any 4 KiB offset
//             cfg_bytes    bytes to write (>= 1; 0 sets done at once)
//             cfg_row_beats  0: the bytes go to [cfg_base, cfg_base +
//                          cfg_bytes).  Else rows: beat b of the stream goes
//                          to cfg_base + (b / cfg_row_beats) * cfg_row_stride
//                          + (b % cfg_row_beats) * DATA_W/8 (a strided 2-D
//                          write, e.g. one weight tile's channel groups into
//                          each pixel of a map); no burst crosses a row
//             cfg_row_stride  bytes from one row's start to the next (a
//                          multiple of DATA_W/8; used when cfg_row_beats > 0)
//             start        one-cycle pulse, taken while !busy; samples cfg_*
//             busy         from the cycle after start until every B response
//                          of the transfer arrived
//             done         set one cycle after the last B response, cleared
//                          by start
//             error        sticky: some BRESP != OKAY in this transfer;
//                          or, set at start with done and nothing written
//                          (s_tready stays low), a transfer or a row of
//                          2^CNT_W beats or more
//             s_tvalid/s_tready/s_tdata  ceil(cfg_bytes / (DATA_W/8)) beats of
//                          DATA_W/8 int8 lanes (lane i = byte i in DDR);
//                          s_tready is low outside a transfer and after its
//                          last beat, so a stream carries frame after frame
//             m_axi_aw*    AW channel: INCR bursts, AWSIZE = log2(DATA_W/8),
//                          AWLEN + 1 <= BURST_MAX, never crossing 4 KiB
//                          or a row
//             m_axi_w*     W channel: WSTRB all ones but on the last beat
//                          of the transfer (only the bytes below cfg_bytes)
//             m_axi_b*     B channel, BREADY always high
// Parameters: DATA_W (16, 32, 64 or 128; DATA_W/8 lanes per beat, kiln_width
//             converts other lane counts), ADDR_W, BURST_MAX (1..256),
//             MAX_OUT (bursts issued and not yet answered on B, >= 1),
//             CNT_W (bits of the beat counters, 12..32: a transfer holds
//             fewer than 2^CNT_W beats; the generated top sets it to what
//             its channel needs).
// Structure:  beats enter a FIFO of 2*BURST_MAX + 8 entries (kiln_fifo: BRAM
//             from 128).  A burst's AW is issued only when all of its beats
//             are in the FIFO, so W never waits for the stream; W of burst j
//             starts once its AW is valid (AXI lets W lead or follow AW) and
//             runs back to back with burst j-1 when AW j was valid before
//             burst j-1's last W beat.  The W side takes each burst's length
//             (and whether it is the transfer's last) from a MAX_OUT-entry
//             queue the AW side fills, so the lengths are worked out once.
// Latency:    AW valid 2 cycles after the burst's last beat entered.
// Cycles (start cycle to the last B handshake inclusive, s_tvalid high, a
//             memory with AWREADY and WREADY high that answers B LAT cycles
//             after a burst's last W beat, one B per cycle at most; exact
//             while the FIFO never fills, i.e. LAT well below
//             (MAX_OUT-1)*BURST_MAX): with P_j the beats of bursts 0..j, the
//             AW of burst j is loaded at c_j = max(c_{j-1} + 1, 1 + P_j,
//             b_{j-MAX_OUT} + 1); its W beats run from f_j = w_{j-1} + 1 if
//             c_j < w_{j-1}, else c_j + 2, to w_j = f_j + len_j - 1; its B is
//             taken at b_j = max(w_j + LAT, b_{j-1} + 1); cycles = b_last + 1.
//             Burst lengths: min(beats left, BURST_MAX, beats to the next
//             4 KiB boundary, beats left in the row).
//             For one burst: bytes/(DATA_W/8) + 4 + LAT.  hls/desc_stream.c
//             evaluates the recurrence.
// Resources:  FIFO of 2*BURST_MAX + 8 entries: from 128 entries bram36 =
//             fewest RAMB36E2 for it; with cfg_bytes and the row registers
//             constant (as the generated top has them) LUT and FF as
//             kiln_axi_wr's descriptor (hls/desc_stream.c) counts them;
//             below 128 entries LUTRAM as kiln_axi_rd.  No DSP.
module kiln_axi_wr #(
    parameter DATA_W    = 128,
    parameter ADDR_W    = 40,
    parameter BURST_MAX = 64,
    parameter MAX_OUT   = 4,
    parameter CNT_W     = 32
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [ADDR_W-1:0] cfg_base,
    input  wire [31:0]       cfg_bytes,
    input  wire [31:0]       cfg_row_beats,
    input  wire [31:0]       cfg_row_stride,
    input  wire              start,
    output wire              busy,
    output wire              done,
    output wire              error,
    input  wire              s_tvalid,
    output wire              s_tready,
    input  wire [DATA_W-1:0] s_tdata,
    output reg               m_axi_awvalid,
    input  wire              m_axi_awready,
    output reg  [ADDR_W-1:0] m_axi_awaddr,
    output reg  [7:0]        m_axi_awlen,
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
    localparam NB    = DATA_W / 8;
    localparam LB    = $clog2(NB);
    localparam DEPTH = 2 * BURST_MAX + 8;
    localparam CW    = $clog2(DEPTH + 1);
    localparam OW    = $clog2(MAX_OUT + 1);
    localparam QW    = MAX_OUT > 1 ? $clog2(MAX_OUT) : 1; // burst-length queue index
    localparam PW    = 14 - LB;
    localparam integer  B4K_I    = 4096 / NB;
    localparam [PW-1:0] BEATS_4K = B4K_I[PW-1:0];
    localparam [31:0]   BMAX     = BURST_MAX;
    localparam [8:0]    BMAX9    = BMAX[8:0];
    localparam [CNT_W-1:0] BMAXC = BMAX[CNT_W-1:0];
    localparam [OW-1:0] OMAX     = MAX_OUT[OW-1:0];
    localparam integer  QLAST_I  = MAX_OUT - 1;
    localparam [QW-1:0] QLAST    = QLAST_I[QW-1:0];

    assign m_axi_awsize  = LB[2:0];
    assign m_axi_awburst = 2'b01;
    assign m_axi_bready  = 1'b1;

    reg              busy_r;     // transfer running
    reg              done_r;     // last transfer finished
    reg              err_r;      // sticky BRESP error
    reg [CNT_W-1:0]  in_left;    // stream beats still to take
    reg [ADDR_W-1:0] addr;       // address of the next AW burst
    reg [CNT_W-1:0]  rem;        // beats not yet in an AW burst
    reg [CNT_W-1:0]  rowbeats;   // beats per row (the whole transfer when cfg_row_beats = 0)
    reg [31:0]       stride;     // bytes from row to row
    reg [CNT_W-1:0]  rowleft;    // beats of the current row not yet in an AW burst
    reg [ADDR_W-1:0] rowbase;    // address of the current row
    reg [OW-1:0]     nout;       // AW bursts loaded and not yet answered on B
    reg [CW-1:0]     committed;  // FIFO beats that belong to loaded AW bursts
    reg [OW-1:0]     wq;         // AW bursts loaded whose W has not started
    reg              wopen;      // a W burst is running
    reg [8:0]        wleft;      // its beats left
    reg              wfinal;     // it is the transfer's last burst
    reg [NB-1:0]     keep_last;  // WSTRB of the last beat
    // The W side replays the AW side's bursts: length and last-burst flag of
    // each loaded AW burst, in order (at most MAX_OUT are loaded, not answered).
    reg [9:0]        lq [0:MAX_OUT-1];
    reg [QW-1:0]     lq_wp;
    reg [QW-1:0]     lq_rp;

    assign busy  = busy_r;
    assign done  = done_r;
    assign error = err_r;

    // Length of the next AW burst: min(beats left, BURST_MAX, beats left in
    // the row, beats to the next 4 KiB boundary), at most 256, in 9 bits.
    wire [PW-1:0] to4k    = BEATS_4K - {{(PW-(12-LB)){1'b0}}, addr[11:LB]};
    wire [8:0]    lim_rem = rem >= BMAXC ? BMAX9 : rem[8:0];
    wire          row_lt  = rowleft[CNT_W-1:9] == {(CNT_W-9){1'b0}} && rowleft[8:0] < lim_rem;
    wire [8:0]    lim_row = row_lt ? rowleft[8:0] : lim_rem;
    wire          k4_lt   = to4k < {{(PW-9){1'b0}}, lim_row};
    wire [8:0]    alen    = k4_lt ? to4k[8:0] : lim_row;
    wire [CNT_W-1:0] alen32 = {{(CNT_W-9){1'b0}}, alen};
    wire          arow_end = rowleft == alen32;  // this AW burst ends its row
    wire          alast    = rem == alen32;      // and the transfer

    wire [CW-1:0]     fcount;
    wire              f_sready;
    wire              f_mvalid;
    wire [CW-1:0]     avail = fcount - committed;
    wire load = busy_r && rem != {CNT_W{1'b0}} && nout < OMAX
                && {{(CNT_W-CW){1'b0}}, avail} >= alen32
                && (!m_axi_awvalid || m_axi_awready);

    assign s_tready     = busy_r && in_left != {CNT_W{1'b0}} && f_sready;
    assign m_axi_wvalid = wopen && f_mvalid;
    assign m_axi_wlast  = wleft == 9'd1;
    assign m_axi_wstrb  = wfinal && wleft == 9'd1 ? keep_last : {NB{1'b1}};

    wire s_hs  = s_tvalid && s_tready;
    wire w_hs  = m_axi_wvalid && m_axi_wready;
    wire b_hs  = m_axi_bvalid;
    wire wopen_next = wq != {OW{1'b0}} && (!wopen || (w_hs && m_axi_wlast));
    wire [9:0] lq_head = lq[lq_rp];

    wire [32:0]   beats_all = ({1'b0, cfg_bytes} + (NB - 1)) >> LB;
    wire [LB-1:0] tail = cfg_bytes[LB-1:0];
    // beyond the counters: the transfer or a row
    wire          too_long  = (beats_all >> CNT_W) != 33'd0
                            || (cfg_row_beats >> CNT_W) != 32'd0;

    always @(posedge clk) begin
        if (load)
            lq[lq_wp] <= {alast, alen};
    end

    always @(posedge clk) begin
        if (rst) begin
            busy_r        <= 1'b0;
            done_r        <= 1'b0;
            err_r         <= 1'b0;
            in_left       <= {CNT_W{1'b0}};
            rem           <= {CNT_W{1'b0}};
            nout          <= {OW{1'b0}};
            committed     <= {CW{1'b0}};
            wq            <= {OW{1'b0}};
            wopen         <= 1'b0;
            lq_wp         <= {QW{1'b0}};
            lq_rp         <= {QW{1'b0}};
            m_axi_awvalid <= 1'b0;
        end else begin
            if (start && !busy_r) begin
                addr      <= cfg_base;
                rowbase   <= cfg_base;
                rowbeats  <= cfg_row_beats == 32'd0 ? beats_all[CNT_W-1:0]
                                                    : cfg_row_beats[CNT_W-1:0];
                rowleft   <= cfg_row_beats == 32'd0 ? beats_all[CNT_W-1:0]
                                                    : cfg_row_beats[CNT_W-1:0];
                stride    <= cfg_row_stride;
                rem       <= too_long ? {CNT_W{1'b0}} : beats_all[CNT_W-1:0];
                in_left   <= too_long ? {CNT_W{1'b0}} : beats_all[CNT_W-1:0];
                keep_last <= tail == {LB{1'b0}} ? {NB{1'b1}} : ~({NB{1'b1}} << tail);
                busy_r    <= beats_all != 33'd0 && !too_long;
                done_r    <= beats_all == 33'd0 || too_long;
                err_r     <= too_long;
            end else if (busy_r && rem == {CNT_W{1'b0}} && nout == {OW{1'b0}}) begin
                busy_r <= 1'b0;
                done_r <= 1'b1;
            end
            if (s_hs)
                in_left <= in_left - 1'b1;
            if (load) begin
                m_axi_awvalid <= 1'b1;
                m_axi_awaddr  <= addr;
                m_axi_awlen   <= alen[7:0] - 8'd1;
                rem           <= rem - alen32;
                lq_wp         <= lq_wp == QLAST ? {QW{1'b0}} : lq_wp + 1'b1;
                if (arow_end) begin
                    addr    <= rowbase + {{(ADDR_W-32){1'b0}}, stride};
                    rowbase <= rowbase + {{(ADDR_W-32){1'b0}}, stride};
                    rowleft <= rowbeats;
                end else begin
                    addr    <= addr + ({{(ADDR_W-9){1'b0}}, alen} << LB);
                    rowleft <= rowleft - alen32;
                end
            end else if (m_axi_awready) begin
                m_axi_awvalid <= 1'b0;
            end
            nout <= nout + {{(OW-1){1'b0}}, load} - {{(OW-1){1'b0}}, b_hs};
            committed <= committed + (load ? alen32[CW-1:0] : {CW{1'b0}})
                       - {{(CW-1){1'b0}}, w_hs};
            wq <= wq + {{(OW-1){1'b0}}, load} - {{(OW-1){1'b0}}, wopen_next};
            if (b_hs && m_axi_bresp != 2'b00)
                err_r <= 1'b1;
            if (w_hs)
                wleft <= wleft - 9'd1;
            if (wopen_next) begin
                wopen  <= 1'b1;
                wleft  <= lq_head[8:0];
                wfinal <= lq_head[9];
                lq_rp  <= lq_rp == QLAST ? {QW{1'b0}} : lq_rp + 1'b1;
            end else if (w_hs && m_axi_wlast) begin
                wopen <= 1'b0;
            end
        end
    end

    kiln_fifo #(.WIDTH(DATA_W), .DEPTH(DEPTH)) u_data (
        .clk(clk), .rst(rst),
        .s_tvalid(s_hs), .s_tready(f_sready), .s_tdata(s_tdata),
        .m_tvalid(f_mvalid), .m_tready(w_hs), .m_tdata(m_axi_wdata),
        .count(fcount));
endmodule
