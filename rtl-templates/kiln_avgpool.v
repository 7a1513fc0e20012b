// kiln_avgpool: average pooling over KH x KW windows with stride = window
// (no padding; trailing rows/columns that fill no window are dropped), and
// global average pooling (kh = h, kw = w).  The window sum is requantized by
// graphir/requant.h kiln_requant(sum, m_pos, m_neg, shift); the compiler folds
// 1/(kh*kw) and the scales into the multipliers.
//
// Ports:      clk, rst (sync, active high)
//             cfg_h, cfg_w, cfg_cg   input height, width, channel groups
//             cfg_kh, cfg_kw         window (>= 1)
//             cfg_oh, cfg_ow         h / kh, w / kw (>= 1)
//             cfg_m_pos, cfg_m_neg   signed 16-bit multipliers
//             cfg_shift              0..47
//             s_* input pixels (y, x, cg); m_* output pixels (oy, ox, cg)
// Parameters: LANES (int8 lanes per beat), CG_MAX (largest cfg_cg),
//             ROW_MAX (largest cfg_ow * cfg_cg), ACC_W (sum width: kh*kw*128
//             must fit, 24 covers windows up to 65536 pixels), PIPE (0..2:
//             registers in the rounding shift; 2 for 300 MHz).
// Structure:  a per-group running sum along x (LUTRAM, CG_MAX words), a
//             per-(ox, group) running sum along y (BRAM when ROW_MAX >= 128,
//             synchronous read with write forwarding), then one
//             ACC_W x 16 multiply per lane and the rounding shift (as in
//             kiln_requant: (2*p) >>> shift, then add bit 0, so no wide
//             rounding adder), split in a shift by 8*shift[5:3] and one by
//             shift[2:0]; PIPE 1 registers between them, PIPE 2 also after.
// Latency:    3 + PIPE cycles.
// Cycles per frame (no back-pressure): t + 4 + PIPE, t = ((oh*kh-1)*w +
//             ow*kw-1)*cg + cg - 1 (the slot of the last input a window uses).
// Resources:  DSP = LANES; bram36 = RAMB36E2 for ROW_MAX x LANES*ACC_W;
//             LUT ~ 12.45*ACC_W*LANES + 240 (mostly the rounding shifters);
//             FF ~ LANES*(4*ACC_W + 4) + 47 + PIPE*(LANES*(ACC_W + 17) + 4).
module kiln_avgpool #(
    parameter LANES   = 16,
    parameter CG_MAX  = 16,
    parameter ROW_MAX = 256,
    parameter ACC_W   = 24,
    parameter PIPE    = 2
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [15:0]          cfg_h,
    input  wire [15:0]          cfg_w,
    input  wire [15:0]          cfg_cg,
    input  wire [15:0]          cfg_kh,
    input  wire [15:0]          cfg_kw,
    input  wire [15:0]          cfg_oh,
    input  wire [15:0]          cfg_ow,
    input  wire [15:0]          cfg_m_pos,
    input  wire [15:0]          cfg_m_neg,
    input  wire [5:0]           cfg_shift,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*LANES-1:0]   s_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*LANES-1:0]   m_tdata
);
    localparam DW  = 8 * LANES;
    localparam SW  = LANES * ACC_W;         // one word of sums
    localparam AW  = ROW_MAX > 1 ? $clog2(ROW_MAX) : 1;
    localparam GW  = CG_MAX > 1 ? $clog2(CG_MAX) : 1;
    localparam PW  = ACC_W + 16;            // product width
    localparam TW  = PW + 1;                // 2 * product
    localparam FD  = 4 + PIPE;              // output FIFO entries
    localparam FW  = $clog2(FD + 1);

    // ---- issue: counters of the current beat ----
    reg [15:0]   y, x, g, dx, dy, ox, oy;
    reg [AW-1:0] abase;

    wire [FW-1:0] fcnt;
    reg           v1, v2;
    wire          vc_w, vf_w;           // valids inside the requant pipeline
    wire [FW:0]   inflight = {1'b0, fcnt} + {{FW{1'b0}}, v1} + {{FW{1'b0}}, v2}
                           + (PIPE >= 1 ? {{FW{1'b0}}, vc_w} : {(FW+1){1'b0}})
                           + (PIPE >= 2 ? {{FW{1'b0}}, vf_w} : {(FW+1){1'b0}});
    wire          credit = inflight < FD[FW:0];
    wire       go = credit && s_tvalid;
    assign s_tready = credit;

    wire last_g  = g == cfg_cg - 16'd1;
    wire last_x  = x == cfg_w - 16'd1;
    wire last_y  = y == cfg_h - 16'd1;
    wire last_dx = dx == cfg_kw - 16'd1;
    wire last_dy = dy == cfg_kh - 16'd1;
    wire col_on  = ox < cfg_ow;
    wire row_on  = oy < cfg_oh;
    wire [AW-1:0] a0 = abase + g[AW-1:0];

    always @(posedge clk) begin
        if (rst) begin
            y <= 16'd0; x <= 16'd0; g <= 16'd0; dx <= 16'd0; dy <= 16'd0;
            ox <= 16'd0; oy <= 16'd0; abase <= {AW{1'b0}};
        end else if (go) begin
            g <= last_g ? 16'd0 : g + 16'd1;
            if (last_g) begin
                if (last_x) begin
                    x <= 16'd0; dx <= 16'd0; ox <= 16'd0; abase <= {AW{1'b0}};
                    if (last_y) begin
                        y <= 16'd0; dy <= 16'd0; oy <= 16'd0;
                    end else begin
                        y <= y + 16'd1;
                        dy <= last_dy ? 16'd0 : dy + 16'd1;
                        if (last_dy)
                            oy <= oy + 16'd1;
                    end
                end else begin
                    x <= x + 16'd1;
                    dx <= last_dx ? 16'd0 : dx + 16'd1;
                    if (last_dx) begin
                        ox <= ox + 16'd1;
                        abase <= abase + cfg_cg[AW-1:0];
                    end
                end
            end
        end
    end

    // ---- x sums (read combinationally, written at issue) ----
    reg [SW-1:0] xacc [0:CG_MAX-1];
    wire [SW-1:0] xrd = xacc[g[GW-1:0]];
    reg  [SW-1:0] xs;
    integer l;
    always @(*) begin
        for (l = 0; l < LANES; l = l + 1)
            xs[ACC_W*l +: ACC_W] = (dx == 16'd0 ? {ACC_W{1'b0}} : xrd[ACC_W*l +: ACC_W])
                                 + {{(ACC_W-8){s_tdata[8*l+7]}}, s_tdata[8*l +: 8]};
    end
    always @(posedge clk) begin
        if (go && col_on && !last_dx)
            xacc[g[GW-1:0]] <= xs;
    end

    // ---- stage 1: y sums ----
    wire         iss1 = go && col_on && row_on && last_dx;
    reg          first1, last1;
    reg [AW-1:0] a1;
    reg [SW-1:0] xs1;
    reg          fwd;
    reg [SW-1:0] wq;
    wire         we1 = v1 && !last1;
    reg [SW-1:0] ymem [0:ROW_MAX-1];
    reg [SW-1:0] yrd;
    reg [SW-1:0] ys;
    wire [SW-1:0] yprev = fwd ? wq : yrd;
    always @(*) begin
        for (l = 0; l < LANES; l = l + 1)
            ys[ACC_W*l +: ACC_W] = (first1 ? {ACC_W{1'b0}} : yprev[ACC_W*l +: ACC_W])
                                 + xs1[ACC_W*l +: ACC_W];
    end
    always @(posedge clk) begin
        if (we1)
            ymem[a1] <= ys;
    end
    always @(posedge clk) begin
        yrd <= ymem[a0];
        if (we1)
            wq <= ys;
        fwd    <= iss1 && we1 && a0 == a1;
        first1 <= dy == 16'd0;
        last1  <= last_dy;
        a1     <= a0;
        xs1    <= xs;
    end

    // ---- stage 2: product, then rounding shift and saturation ----
    reg signed [PW-1:0] prod [0:LANES-1];
    always @(posedge clk) begin
        for (l = 0; l < LANES; l = l + 1)
            prod[l] <= $signed(ys[ACC_W*l +: ACC_W])
                     * $signed(ys[ACC_W*l + ACC_W - 1] ? cfg_m_neg : cfg_m_pos);
    end
    always @(posedge clk) begin
        if (rst) begin
            v1 <= 1'b0;
            v2 <= 1'b0;
        end else begin
            v1 <= iss1;
            v2 <= v1 && last1;
        end
    end

    // Rounding shift as in kiln_requant: t = (2*prod) >>> sh, result
    // (t >>> 1) + t[0] = (prod + 2^(sh-1)) >>> sh without a wide rounding
    // adder; t outside [-256, 254] saturates by its sign.  The shift runs in
    // two steps (by 8*sh[5:3], then by sh[2:0]); PIPE >= 1 registers between
    // them, PIPE >= 2 after the second step.
    wire [5:0] sh = cfg_shift > PW ? PW[5:0] : cfg_shift;
    reg [TW*LANES-1:0] tc;          // after the coarse shift
    always @(*) begin
        for (l = 0; l < LANES; l = l + 1)
            tc[TW*l +: TW] = $signed({{(TW-PW-1){prod[l][PW-1]}}, prod[l], 1'b0})
                             >>> {sh[5:3], 3'b000};
    end
    reg [TW*LANES-1:0] tc_p;        // tc, optionally registered
    reg [2:0]          shf_p;       // fine shift amount at that stage
    reg                vc;          // valid at the coarse-shift output
    generate
        if (PIPE >= 1) begin : g_p1
            always @(posedge clk) begin
                tc_p  <= tc;
                shf_p <= sh[2:0];
            end
            always @(posedge clk) begin
                if (rst)
                    vc <= 1'b0;
                else
                    vc <= v2;
            end
        end else begin : g_p1n
            always @(*) begin
                tc_p  = tc;
                shf_p = sh[2:0];
                vc    = v2;
            end
        end
    endgenerate
    reg [TW*LANES-1:0] tf;          // after the fine shift
    always @(*) begin
        for (l = 0; l < LANES; l = l + 1)
            tf[TW*l +: TW] = $signed(tc_p[TW*l +: TW]) >>> shf_p;
    end
    reg [TW*LANES-1:0] tf_p;
    reg                vf;          // valid at the saturation stage
    generate
        if (PIPE >= 2) begin : g_p2
            always @(posedge clk) tf_p <= tf;
            always @(posedge clk) begin
                if (rst)
                    vf <= 1'b0;
                else
                    vf <= vc;
            end
        end else begin : g_p2n
            always @(*) begin
                tf_p = tf;
                vf   = vc;
            end
        end
    endgenerate
    reg signed [TW-1:0] t;
    reg        [8:0]    r;
    reg [DW-1:0] q;
    always @(*) begin
        for (l = 0; l < LANES; l = l + 1) begin
            t = $signed(tf_p[TW*l +: TW]);
            r = t[9:1] + {8'd0, t[0]};
            q[8*l +: 8] = t > 254 ? 8'h7f : t < -256 ? 8'h80 : r[7:0];
        end
    end

    assign vc_w = vc;
    assign vf_w = vf;

    wire f_ready;
    wire unused_ok = &{1'b0, f_ready, r[8], g[15:GW] == 0 ? 1'b0 : 1'b0};

    kiln_fifo #(.WIDTH(DW), .DEPTH(FD)) u_out (
        .clk(clk), .rst(rst),
        .s_tvalid(vf), .s_tready(f_ready), .s_tdata(q),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata),
        .count(fcnt));
endmodule
