// kiln_split: channel slice of a stream (YOLOv4-tiny route groups/group_id).
//
// Ports:      clk, rst (sync, active high)
//             cfg_cg_in   channel groups per input pixel, ceil(C / LANES)
//             cfg_off     first channel kept (groups=G, group_id=i: i*C/G)
//             cfg_cout    channels kept (C/G)
//             s_*         input pixels; m_* output pixels of ceil(cout/LANES)
//                         groups, channels off..off+cout-1, dense, zero padded
// Parameters: LANES (int8 lanes per beat, a power of two).
// Behaviour:  with r = off % LANES != 0 the lanes are shifted down by r, each
//             output beat joins two input beats; a flush beat follows the
//             pixel when the last output needs the (absent) next input beat.
// Latency:    1 cycle.
// Cycles per frame of P pixels: (P-1)*(cg_in + fl) + e + 2, where
//             q = off / LANES, go = ceil(cout/LANES), fl = (r != 0 && q+go ==
//             cg_in), e = cg_in when fl, else q+go-1 (r == 0) or q+go (r != 0).
// Resources:  LUT ~ 0.86*8*LANES^2 + 129 (one LANES:1 lane-select mux per
//             output lane), FF ~ 8*LANES + 38; no DSP/BRAM (hls/desc_stream.c).
module kiln_split #(
    parameter LANES = 16
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [15:0]          cfg_cg_in,
    input  wire [15:0]          cfg_off,
    input  wire [15:0]          cfg_cout,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*LANES-1:0]   s_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*LANES-1:0]   m_tdata
);
    localparam DW = 8 * LANES;
    localparam LB = LANES > 1 ? $clog2(LANES) : 1;

    wire [15:0] lmask = LANES - 1;
    wire [15:0] r     = cfg_off & lmask;
    wire [15:0] q     = cfg_off >> LB;
    wire [15:0] go_n  = (cfg_cout + lmask) >> LB;
    wire [15:0] rem   = cfg_cout & lmask;
    wire [31:0] r32   = {16'd0, r};
    wire [31:0] m32   = {16'd0, lmask};

    reg         flush;
    reg  [15:0] g;            // input beat within the pixel
    reg  [15:0] k;            // output beat within the pixel
    reg  [DW-1:0] carry;      // input lanes r.. of the previous beat, moved to 0..

    wire f_ready;
    assign s_tready = f_ready && !flush;
    wire in_go   = s_tvalid && s_tready;
    wire last_g  = g == cfg_cg_in - 16'd1;
    wire want    = k < go_n;
    wire last_k  = k == go_n - 16'd1;
    // This input beat completes output k.
    wire out_in  = want && (r == 16'd0 ? g >= q : g > q);

    reg [DW-1:0] joined, shifted, pdata;
    integer l;
    always @(*) begin
        for (l = 0; l < LANES; l = l + 1) begin
            shifted[8*l +: 8] = l < LANES - r32 ? s_tdata[8*((l + r32) & m32) +: 8] : 8'd0;
            joined[8*l +: 8]  = l < LANES - r32 ? carry[8*l +: 8]
                              : s_tdata[8*((l + r32) & m32) +: 8];
        end
        pdata = flush ? carry : r == 16'd0 ? s_tdata : joined;
        // The last output beat keeps rem lanes only.
        if (last_k && rem != 16'd0)
            for (l = 0; l < LANES; l = l + 1)
                if (l >= {16'd0, rem})
                    pdata[8*l +: 8] = 8'd0;
    end

    wire push = (in_go && out_in) || (flush && f_ready);

    always @(posedge clk) begin
        if (rst) begin
            flush <= 1'b0;
            g <= 16'd0;
            k <= 16'd0;
        end else if (flush) begin
            if (f_ready) begin
                flush <= 1'b0;
                k <= 16'd0;
            end
        end else if (in_go) begin
            carry <= shifted;
            if (last_g) begin
                g <= 16'd0;
                if (want && !(out_in && last_k)) begin
                    flush <= 1'b1;
                    if (out_in)
                        k <= k + 16'd1;
                end else begin
                    k <= 16'd0;
                end
            end else begin
                g <= g + 16'd1;
                if (out_in)
                    k <= k + 16'd1;
            end
        end
    end

    wire [1:0] fcnt;
    wire unused_ok = &{1'b0, fcnt};

    kiln_fifo #(.WIDTH(DW), .DEPTH(2)) u_out (
        .clk(clk), .rst(rst),
        .s_tvalid(push), .s_tready(f_ready), .s_tdata(pdata),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata),
        .count(fcnt));
endmodule
