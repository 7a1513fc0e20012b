// kiln_axi_rd: AXI4 burst read master, DDR -> stream.
//
// Ports:      clk, rst (sync, active high)
//             cfg_base     byte address of the first byte, a multiple of
//                          DATA_W/8 (the bus width); any 4 KiB offset
//             cfg_bytes    bytes to read (>= 1; 0 sets done at once)
//             start        one-cycle pulse, taken while !busy; samples cfg_*
//             busy         from the cycle after start until the last beat
//                          left on m_*
//             done         set when a transfer finished, cleared by start
//             error        sticky: some RRESP != OKAY in this transfer
//                          (cleared by start); the beat's data is still sent;
//                          or, set at start with done and nothing read, a
//                          transfer of 2^CNT_W beats or more
//             m_axi_ar*    AR channel: INCR bursts, ARSIZE = log2(DATA_W/8),
//                          ARLEN + 1 <= BURST_MAX, never crossing 4 KiB
//             m_axi_r*     R channel (single ID, in-order data)
//             m_tvalid/m_tready/m_tdata  ceil(cfg_bytes / (DATA_W/8)) beats of
//                          DATA_W/8 int8 lanes (lane i = byte i of the beat,
//                          little-endian as in DDR); the bytes of the last
//                          beat past cfg_bytes are 0.
// Parameters: DATA_W (16, 32, 64 or 128; the stream has DATA_W/8 lanes: use
//             kiln_width to convert to another lane count), ADDR_W (address
//             bits), BURST_MAX (beats per burst, 1..256), MAX_OUT (bursts
//             in flight, >= 1), CNT_W (bits of the beat counters, 12..32 and
//             more than log2(MAX_OUT*BURST_MAX + 8): a transfer holds fewer
//             than 2^CNT_W beats; the generated top sets it to what its
//             channel needs).
// Structure:  the next burst's length is min(beats left, BURST_MAX, beats to
//             the next 4 KiB boundary).  An AR is issued while fewer than
//             MAX_OUT bursts are in flight and the data FIFO
//             (MAX_OUT*BURST_MAX + 8 beats, kiln_fifo: BRAM from 128 entries)
//             has room for the whole burst counting every beat already
//             requested, so RREADY never drops for lack of space and a slow
//             stream sink never stalls the interconnect.
// Latency:    FL = 3 (FIFO in BRAM) or 1 (LUTRAM) cycles from an R beat to
//             its stream beat (the last beat's bytes past cfg_bytes are
//             cleared on the FIFO's output side); the first AR is valid 2
//             cycles after start.
// Cycles (start cycle to the last m_* beat inclusive, m_tready high, a
//             memory that takes every AR at once and returns the beats of
//             each burst back to back LAT cycles after its AR, in order):
//             burst j (lengths len_j as above) is loaded into the AR register
//             at l_j = max(l_{j-1} + 1, e_{j-MAX_OUT} + 1), l_0 = 1, taken at
//             a_j = l_j + 1; its data occupies r_j = max(a_j + LAT, e_{j-1} +
//             1) .. e_j = r_j + len_j - 1; cycles = e_last + FL + 1.  With
//             MAX_OUT*BURST_MAX well above LAT this is
//             3 + LAT + ceil(bytes / (DATA_W/8)) + FL - 1 (one beat a cycle);
//             hls/desc_stream.c evaluates the recurrence.
// Resources:  FIFO of MAX_OUT*BURST_MAX + 8 entries: from 128 entries
//             bram36 = fewest RAMB36E2 (512x72, 1Kx36, ...) for it; with
//             cfg_bytes constant (as the generated top has it) LUT and FF
//             as kiln_axi_rd's descriptor (hls/desc_stream.c) counts them:
//             the address and beat-counter registers with their adders,
//             the last beat's byte mask, the FIFO (BRAM form: 2*DATA_W
//             FF and DATA_W LUT beside it; below, LUTRAM).  No DSP.
module kiln_axi_rd #(
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
    input  wire              start,
    output wire              busy,
    output wire              done,
    output wire              error,
    output reg               m_axi_arvalid,
    input  wire              m_axi_arready,
    output reg  [ADDR_W-1:0] m_axi_araddr,
    output reg  [7:0]        m_axi_arlen,
    output wire [2:0]        m_axi_arsize,
    output wire [1:0]        m_axi_arburst,
    input  wire              m_axi_rvalid,
    output wire              m_axi_rready,
    input  wire [DATA_W-1:0] m_axi_rdata,
    input  wire [1:0]        m_axi_rresp,
    input  wire              m_axi_rlast,
    output wire              m_tvalid,
    input  wire              m_tready,
    output wire [DATA_W-1:0] m_tdata
);
    localparam NB    = DATA_W / 8;                  // bytes per beat
    localparam LB    = $clog2(NB);                  // log2 bytes per beat
    localparam DEPTH = MAX_OUT * BURST_MAX + 8;     // data FIFO entries
    localparam CW    = $clog2(DEPTH + 1);
    localparam OW    = $clog2(MAX_OUT + 1);
    localparam PW    = 14 - LB;                     // holds 4096/NB
    localparam integer  B4K_I    = 4096 / NB;
    localparam [PW-1:0] BEATS_4K = B4K_I[PW-1:0];
    localparam [31:0]   BMAX     = BURST_MAX;
    localparam [8:0]    BMAX9    = BMAX[8:0];
    localparam [CNT_W-1:0] BMAXC = BMAX[CNT_W-1:0];
    localparam [CNT_W-1:0] ONE   = {{(CNT_W-1){1'b0}}, 1'b1};
    localparam [OW-1:0] OMAX     = MAX_OUT[OW-1:0];
    localparam [CW:0]   DMAX     = DEPTH[CW:0];

    assign m_axi_arsize  = LB[2:0];
    assign m_axi_arburst = 2'b01;

    reg              busy_r;     // transfer running
    reg              done_r;     // last transfer finished
    reg              err_r;      // sticky RRESP error
    reg [ADDR_W-1:0] addr;       // address of the next burst
    reg [CNT_W-1:0]  rem;        // beats not yet requested
    reg [CNT_W-1:0]  out_left;   // beats not yet sent on m_*
    reg [OW-1:0]     nout;       // bursts loaded into AR and not yet complete
    reg [CW-1:0]     inflight;   // beats requested and not yet received
    reg [NB-1:0]     keep_last;  // byte enables of the last beat

    assign busy  = busy_r;
    assign done  = done_r;
    assign error = err_r;

    // length of the next burst: min(beats left, BURST_MAX, beats to the
    // next 4 KiB boundary), at most 256, in 9 bits
    wire [PW-1:0] to4k   = BEATS_4K - {{(PW-(12-LB)){1'b0}}, addr[11:LB]};
    wire [8:0]    lim    = rem >= BMAXC ? BMAX9 : rem[8:0];
    wire [8:0]    blen9  = to4k < {{(PW-9){1'b0}}, lim} ? to4k[8:0] : lim;
    wire [CNT_W-1:0] blen = {{(CNT_W-9){1'b0}}, blen9};

    wire [CW-1:0] fcount;
    wire          f_sready;
    wire [CW:0]   reserved = {1'b0, inflight} + {1'b0, fcount} + blen[CW:0];
    wire          load = busy_r && rem != {CNT_W{1'b0}} && nout < OMAX && reserved <= DMAX
                         && (!m_axi_arvalid || m_axi_arready);

    wire r_hs = m_axi_rvalid && m_axi_rready;
    wire m_hs = m_tvalid && m_tready;

    wire [32:0] beats_all = ({1'b0, cfg_bytes} + (NB - 1)) >> LB;
    wire        too_long  = (beats_all >> CNT_W) != 33'd0; // beyond the counters
    wire [LB-1:0] tail = cfg_bytes[LB-1:0];

    always @(posedge clk) begin
        if (rst) begin
            busy_r        <= 1'b0;
            done_r        <= 1'b0;
            err_r         <= 1'b0;
            m_axi_arvalid <= 1'b0;
            rem           <= {CNT_W{1'b0}};
            out_left      <= {CNT_W{1'b0}};
            nout          <= {OW{1'b0}};
            inflight      <= {CW{1'b0}};
        end else begin
            if (start && !busy_r) begin
                addr      <= cfg_base;
                rem       <= too_long ? {CNT_W{1'b0}} : beats_all[CNT_W-1:0];
                out_left  <= beats_all[CNT_W-1:0];
                keep_last <= tail == {LB{1'b0}} ? {NB{1'b1}}
                           : ~({NB{1'b1}} << tail);
                busy_r    <= beats_all != 33'd0 && !too_long;
                done_r    <= beats_all == 33'd0 || too_long;
                err_r     <= too_long;
            end
            if (load) begin
                m_axi_arvalid <= 1'b1;
                m_axi_araddr  <= addr;
                m_axi_arlen   <= blen[7:0] - 8'd1;
                addr          <= addr + ({{(ADDR_W-9){1'b0}}, blen9} << LB);
                rem           <= rem - blen;
            end else if (m_axi_arready) begin
                m_axi_arvalid <= 1'b0;
            end
            nout <= nout + {{(OW-1){1'b0}}, load} - {{(OW-1){1'b0}}, r_hs && m_axi_rlast};
            inflight <= inflight + (load ? blen[CW-1:0] : {CW{1'b0}})
                      - {{(CW-1){1'b0}}, r_hs};
            if (r_hs && m_axi_rresp != 2'b00)
                err_r <= 1'b1;
            if (m_hs) begin
                out_left <= out_left - 1'b1;
                if (out_left == ONE) begin
                    busy_r <= 1'b0;
                    done_r <= 1'b1;
                end
            end
        end
    end

    // the bytes of the last beat past cfg_bytes are cleared on the way out
    wire [DATA_W-1:0] f_data;
    reg  [DATA_W-1:0] omask;
    integer b;
    always @(*) begin
        for (b = 0; b < NB; b = b + 1)
            omask[8*b +: 8] = (out_left != ONE || keep_last[b]) ? 8'hff : 8'h00;
    end
    assign m_tdata = f_data & omask;

    assign m_axi_rready = f_sready;

    kiln_fifo #(.WIDTH(DATA_W), .DEPTH(DEPTH)) u_data (
        .clk(clk), .rst(rst),
        .s_tvalid(m_axi_rvalid), .s_tready(f_sready), .s_tdata(m_axi_rdata),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(f_data),
        .count(fcount));
endmodule
