// kiln_maxpool: K x K max pooling, stride S, Darknet padding semantics.
//
// Ports:      clk, rst (sync, active high)
//             cfg_h, cfg_w     input height, width (>= 1)
//             cfg_cg           channel groups per pixel, ceil(C / LANES)
//             cfg_k, cfg_s     window size (2..K_MAX), stride (>= 1)
//             cfg_pad          padding before row/column 0 (Darknet: padding/2)
//             cfg_oh, cfg_ow   output height, width (Darknet:
//                              (h + padding - k) / s + 1); every window must
//                              hold at least one real pixel
//             s_tvalid/s_tready/s_tdata   input pixels (y, x, cg), LANES int8
//             m_tvalid/m_tready/m_tdata   output pixels (oy, ox, cg)
// Parameters: LANES (int8 lanes per beat), K_MAX (largest window, >= 2),
//             CG_MAX (largest cfg_cg), ROW_MAX (largest cfg_ow * cfg_cg),
//             PIPE (0 or 1: a register after each stage's max; 1 for 300 MHz).
//             cfg_* must be stable from the cycle before the first beat.
// Semantics:  out[oy][ox] = max over window rows oy*S-pad .. +K-1 and columns
//             ox*S-pad .. +K-1 that fall inside the map; positions outside do
//             not take part (the same as -128 padding).  For YOLOv3-tiny's
//             2x2 stride 1 layer: pad = 0, oh = h, ow = w (pad on bottom/right).
// Structure:  max pooling is separable: a row stage pools along x (taps of
//             K_MAX-1 pixels per channel group), a column stage pools along y
//             (K_MAX-1 row buffers of ROW_MAX beats, BRAM).  Each stage issues
//             one beat per cycle; outputs whose window ends past the last
//             column/row are issued in a flush after it.
// Latency:    4 + 2*PIPE cycles (2 + PIPE per stage).
// Cycles per frame (first input to last output, no back-pressure):
//             h*cg*(w + fx) + fy*ow*cg + 4 + 2*PIPE, where fx (fy) is the number of
//             outputs along x (y) issued in the flush: see hls/desc_stream.c.
// Resources:  two line stages (along x: CG_MAX deep, along y: ROW_MAX deep),
//             each (K_MAX-1) tap memories of 8*LANES bits in block RAM
//             (RAMB18E2 counts 0.5) or LUTRAM when small, K_MAX-1 max units
//             of 8*LANES bits and PIPE registers; + ~937 LUT, ~212 FF of
//             window arithmetic; 1 DSP (cfg_ow * cfg_cg).  Exact formula:
//             maxpool_resources in hls/desc_stream.c.
module kiln_maxpool #(
    parameter LANES   = 16,
    parameter K_MAX   = 3,
    parameter CG_MAX  = 16,
    parameter ROW_MAX = 512,
    parameter PIPE    = 1
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [15:0]          cfg_h,
    input  wire [15:0]          cfg_w,
    input  wire [15:0]          cfg_cg,
    input  wire [7:0]           cfg_k,
    input  wire [7:0]           cfg_s,
    input  wire [7:0]           cfg_pad,
    input  wire [15:0]          cfg_oh,
    input  wire [15:0]          cfg_ow,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*LANES-1:0]   s_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*LANES-1:0]   m_tdata
);
    wire               x_valid;
    wire               x_ready;
    wire [8*LANES-1:0] x_data;
    wire [31:0]        row_beats = {16'd0, cfg_ow} * {16'd0, cfg_cg};

    kiln_maxpool_line #(.LANES(LANES), .K_MAX(K_MAX), .DEPTH(CG_MAX), .PIPE(PIPE)) u_x (
        .clk(clk), .rst(rst),
        .cfg_len(cfg_w), .cfg_olen(cfg_ow), .cfg_inner(cfg_cg),
        .cfg_k(cfg_k), .cfg_s(cfg_s), .cfg_pad(cfg_pad),
        .s_tvalid(s_tvalid), .s_tready(s_tready), .s_tdata(s_tdata),
        .m_tvalid(x_valid), .m_tready(x_ready), .m_tdata(x_data));

    kiln_maxpool_line #(.LANES(LANES), .K_MAX(K_MAX), .DEPTH(ROW_MAX), .PIPE(PIPE)) u_y (
        .clk(clk), .rst(rst),
        .cfg_len(cfg_h), .cfg_olen(cfg_oh), .cfg_inner(row_beats[15:0]),
        .cfg_k(cfg_k), .cfg_s(cfg_s), .cfg_pad(cfg_pad),
        .s_tvalid(x_valid), .s_tready(x_ready), .s_tdata(x_data),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata));

    wire unused_ok = &{1'b0, row_beats[31:16]};
endmodule

/* verilator lint_off DECLFILENAME */
// One-dimensional max pooling along the "position" axis of a stream ordered
// (line, position, inner).  Taps hold the last K_MAX-1 positions of every
// inner index; a synchronous-read memory per tap with write forwarding.
module kiln_maxpool_line #(
    parameter LANES = 16,
    parameter K_MAX = 3,
    parameter DEPTH = 16,
    parameter PIPE  = 1
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [15:0]          cfg_len,
    input  wire [15:0]          cfg_olen,
    input  wire [15:0]          cfg_inner,
    input  wire [7:0]           cfg_k,
    input  wire [7:0]           cfg_s,
    input  wire [7:0]           cfg_pad,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*LANES-1:0]   s_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*LANES-1:0]   m_tdata
);
    localparam DW = 8 * LANES;
    localparam AW = DEPTH > 1 ? $clog2(DEPTH) : 1;
    localparam NT = K_MAX - 1;
    localparam FD = 4 + PIPE;          // output FIFO entries
    localparam FW = $clog2(FD + 1);

    // ---- issue stage ----
    reg        flush;        // issuing the outputs left after the last position
    reg [15:0] pos;          // position of the current beat
    reg [15:0] idx;          // inner index of the current beat
    reg [15:0] onext;        // next output along the axis
    reg [17:0] obase;        // onext * S

    // k - 1 - pad from the previous cycle (cfg_* is stable during a frame),
    // so the window end needs one adder
    reg  signed [17:0] kp;
    always @(posedge clk)
        kp <= $signed({10'd0, cfg_k}) - 18'sd1 - $signed({10'd0, cfg_pad});
    wire signed [17:0] e      = $signed(obase) + kp;
    wire signed [17:0] st     = $signed(obase) - $signed({10'd0, cfg_pad});
    wire signed [17:0] st0    = st < 0 ? 18'sd0 : st;
    wire signed [17:0] spos   = $signed({2'b0, pos});
    wire signed [17:0] slen   = $signed({2'b0, cfg_len});
    wire               at_end = pos == cfg_len - 16'd1;
    wire               last_i = idx == cfg_inner - 16'd1;
    wire               more   = onext < cfg_olen;
    wire               emit   = more && (e == spos || (at_end && e > spos));
    wire signed [17:0] hi_run = spos - st0;
    wire signed [17:0] hi_fl  = slen - st0;

    wire [FW-1:0] fcnt;
    reg           v1;        // stage 1 holds an issued beat
    wire          vp_w;      // the PIPE register holds an output
    wire [FW:0]   inflight = {1'b0, fcnt} + {{FW{1'b0}}, v1}
                           + (PIPE >= 1 ? {{FW{1'b0}}, vp_w} : {(FW+1){1'b0}});
    wire          credit = inflight < FD[FW:0];
    wire       go     = credit && (flush || s_tvalid);
    assign s_tready = credit && !flush;

    always @(posedge clk) begin
        if (rst) begin
            flush <= 1'b0;
            pos   <= 16'd0;
            idx   <= 16'd0;
            onext <= 16'd0;
            obase <= 18'd0;
        end else if (go) begin
            idx <= last_i ? 16'd0 : idx + 16'd1;
            if (last_i) begin
                if (!flush) begin
                    if (emit) begin
                        onext <= onext + 16'd1;
                        obase <= obase + {10'd0, cfg_s};
                    end
                    if (at_end) begin
                        pos <= 16'd0;
                        if (onext + {15'd0, emit} < cfg_olen) begin
                            flush <= 1'b1;
                        end else begin
                            onext <= 16'd0;
                            obase <= 18'd0;
                        end
                    end else begin
                        pos <= pos + 16'd1;
                    end
                end else begin
                    onext <= onext + 16'd1;
                    obase <= obase + {10'd0, cfg_s};
                    if (onext + 16'd1 == cfg_olen) begin
                        flush <= 1'b0;
                        onext <= 16'd0;
                        obase <= 18'd0;
                    end
                end
            end
        end
    end

    // ---- stage 1: taps, max, tap shift ----
    reg          fl1;         // flush beat
    reg          emit1;       // produces an output
    reg [7:0]    lo1, hi1;    // candidates lo1..hi1 take part (0 = this beat)
    reg [AW-1:0] a1;          // inner index
    reg [DW-1:0] d1;          // this beat
    reg          fwd;         // the read raced the previous write: forward it
    wire [AW-1:0] a0 = idx[AW-1:0];
    wire          we = v1 && !fl1;

    always @(posedge clk) begin
        if (rst) begin
            v1 <= 1'b0;
        end else begin
            v1 <= go;
        end
        fl1   <= flush;
        emit1 <= flush || emit;
        lo1   <= flush ? 8'd1 : 8'd0;
        hi1   <= flush ? hi_fl[7:0] : hi_run[7:0];
        a1    <= a0;
        d1    <= s_tdata;
        fwd   <= go && we && a0 == a1;
    end

    reg  [DW-1:0] cand [0:K_MAX-1];   // cand[0] = beat, cand[j] = position -j
    reg  [DW-1:0] wq   [0:NT-1];      // last written tap words

    genvar g;
    generate
        for (g = 0; g < NT; g = g + 1) begin : tap
            reg [DW-1:0] mem [0:DEPTH-1];
            reg [DW-1:0] rd;
            wire [DW-1:0] wd = g == 0 ? d1 : cand[g];
            always @(posedge clk) begin
                if (we)
                    mem[a1] <= wd;
            end
            always @(posedge clk) begin
                rd <= mem[a0];
                if (we)
                    wq[g] <= wd;
            end
            always @(*) cand[g + 1] = fwd ? wq[g] : rd;
        end
    endgenerate
    always @(*) cand[0] = d1;

    reg [DW-1:0] mx;
    integer l, j;
    always @(*) begin
        for (l = 0; l < LANES; l = l + 1) begin
            mx[8*l +: 8] = 8'h80;
            for (j = 0; j < K_MAX; j = j + 1) begin
                if (j[7:0] >= lo1 && j[7:0] <= hi1
                    && $signed(cand[j][8*l +: 8]) > $signed(mx[8*l +: 8]))
                    mx[8*l +: 8] = cand[j][8*l +: 8];
            end
        end
    end

    // PIPE = 1: a register between the max and the output FIFO
    reg          vp;
    reg [DW-1:0] mxp;
    generate
        if (PIPE >= 1) begin : g_pipe
            always @(posedge clk) begin
                if (rst)
                    vp <= 1'b0;
                else
                    vp <= v1 && emit1;
                mxp <= mx;
            end
        end else begin : g_nopipe
            always @(*) begin
                vp  = v1 && emit1;
                mxp = mx;
            end
        end
    endgenerate
    assign vp_w = vp;

    wire f_ready;
    wire unused_ok = &{1'b0, fl1, f_ready, hi_run[17:8], hi_fl[17:8]};

    kiln_fifo #(.WIDTH(DW), .DEPTH(FD)) u_out (
        .clk(clk), .rst(rst),
        .s_tvalid(vp), .s_tready(f_ready), .s_tdata(mxp),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata),
        .count(fcnt));
endmodule
/* verilator lint_on DECLFILENAME */
