// kiln_concat: channel concatenation of two streams (YOLO route of two layers).
//
// Ports:      clk, rst (sync, active high)
//             cfg_ca, cfg_cb   channels of A and of B (>= 1 each)
//             s_a_*            stream A: pixels (y, x, ceil(ca/LANES) groups)
//             s_b_*            stream B: pixels (y, x, ceil(cb/LANES) groups)
//             m_*              output: per pixel channels of A then of B,
//                              ceil((ca+cb)/LANES) groups, dense
// Parameters: LANES (int8 lanes per beat, a power of two).
// Behaviour:  when ca is not a multiple of LANES, B's lanes are shifted up by
//             r = ca % LANES and the carry spills into the next beat (plus one
//             flush beat per pixel when the carry holds the last channels).
//             Padding lanes of the inputs must be zero (stream convention).
// Latency:    1 cycle.
// Cycles per frame of P pixels: P*(ga + gb + fl) + 1, ga = ceil(ca/LANES),
//             gb = ceil(cb/LANES), fl = (r != 0 && ceil((ca+cb)/LANES) == ga+gb).
// Resources:  LUT ~ 0.92*8*LANES^2 + 254 (one LANES:1 lane-select mux per
//             output lane), FF ~ 8*LANES + 24; no DSP/BRAM (hls/desc_stream.c).
module kiln_concat #(
    parameter LANES = 16
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [15:0]          cfg_ca,
    input  wire [15:0]          cfg_cb,
    input  wire                 s_a_tvalid,
    output wire                 s_a_tready,
    input  wire [8*LANES-1:0]   s_a_tdata,
    input  wire                 s_b_tvalid,
    output wire                 s_b_tready,
    input  wire [8*LANES-1:0]   s_b_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*LANES-1:0]   m_tdata
);
    localparam DW = 8 * LANES;
    localparam LB = LANES > 1 ? $clog2(LANES) : 1;

    wire [15:0] lmask = LANES - 1;
    wire [15:0] r   = cfg_ca & lmask;
    wire [15:0] ga  = (cfg_ca + lmask) >> LB;
    wire [15:0] gb  = (cfg_cb + lmask) >> LB;
    wire [16:0] gt  = ({1'b0, cfg_ca} + {1'b0, cfg_cb} + {1'b0, lmask}) >> LB;
    wire        fl  = r != 16'd0 && gt == {1'b0, ga} + {1'b0, gb};

    localparam ST_A = 2'd0, ST_B = 2'd1, ST_F = 2'd2;
    reg [1:0]    st;
    reg [15:0]   idx;
    reg [DW-1:0] carry;       // lanes 0..r-1 wait for the next beat

    wire f_ready;
    assign s_a_tready = f_ready && st == ST_A;
    assign s_b_tready = f_ready && st == ST_B;
    wire a_go = s_a_tvalid && s_a_tready;
    wire b_go = s_b_tvalid && s_b_tready;
    wire f_go = f_ready && st == ST_F;
    wire a_last = idx == ga - 16'd1;
    wire b_last = idx == gb - 16'd1;

    // B shifted up by r lanes under the carry; B's top lanes form the next carry.
    reg [DW-1:0] merged, spill, fdata;
    wire [31:0] r32 = {16'd0, r};
    wire [31:0] m32 = {16'd0, lmask};
    integer l;
    always @(*) begin
        for (l = 0; l < LANES; l = l + 1) begin
            merged[8*l +: 8] = l < r ? carry[8*l +: 8]
                             : s_b_tdata[8*((l - r32) & m32) +: 8];
            spill[8*l +: 8]  = l < r ? s_b_tdata[8*((l + LANES - r32) & m32) +: 8] : 8'd0;
            fdata[8*l +: 8]  = l < r ? carry[8*l +: 8] : 8'd0;
        end
    end

    wire         push  = (a_go && (r == 16'd0 || !a_last)) || b_go || f_go;
    wire [DW-1:0] pdata = st == ST_A ? s_a_tdata
                        : st == ST_B ? (r == 16'd0 ? s_b_tdata : merged) : fdata;

    always @(posedge clk) begin
        if (rst) begin
            st  <= ST_A;
            idx <= 16'd0;
        end else begin
            if (a_go) begin
                if (a_last) begin
                    st  <= ST_B;
                    idx <= 16'd0;
                    carry <= s_a_tdata;
                end else begin
                    idx <= idx + 16'd1;
                end
            end
            if (b_go) begin
                carry <= spill;
                if (b_last) begin
                    st  <= fl ? ST_F : ST_A;
                    idx <= 16'd0;
                end else begin
                    idx <= idx + 16'd1;
                end
            end
            if (f_go)
                st <= ST_A;
        end
    end

    wire [1:0] fcnt;
    wire unused_ok = &{1'b0, fcnt, gt[16]};

    kiln_fifo #(.WIDTH(DW), .DEPTH(2)) u_out (
        .clk(clk), .rst(rst),
        .s_tvalid(push), .s_tready(f_ready), .s_tdata(pdata),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata),
        .count(fcnt));
endmodule
