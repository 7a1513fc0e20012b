// kiln_width: lane-count converter between engines of different parallelism.
//
// Ports:      clk, rst (sync, active high)
//             cfg_cg_in    channel groups per pixel on the input, ceil(C / LI)
//             cfg_cg_out   channel groups per pixel on the output, ceil(C / LO)
//             s_*          LI int8 lanes per beat; m_* LO int8 lanes per beat
// Parameters: LI, LO (lanes in and out; one divides the other).
// Behaviour:  pack (LI < LO): R = LO/LI input beats fill one output beat; the
//             last beat of a pixel closes it (zero lanes above).  Unpack
//             (LI > LO): each input beat gives up to R = LI/LO output beats,
//             stopping at cg_out beats per pixel (pure padding is dropped).
//             Pixel counts need no configuration.
// Latency:    1 cycle.
// Cycles per frame of P pixels: P*cg_in + 1 (pack); P*cg_out + 2 - min(R, cg_out)
//             (unpack: the first input beat is taken with its last sub-beat).
// Resources:  pack: FF ~ 8*LO + 23, LUT ~ 20*LO + 22;
//             unpack: FF ~ 23, LUT ~ 2*LO*R + 41; no DSP/BRAM.
module kiln_width #(
    parameter LI = 4,
    parameter LO = 16
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [15:0]       cfg_cg_in,
    input  wire [15:0]       cfg_cg_out,
    input  wire              s_tvalid,
    output wire              s_tready,
    input  wire [8*LI-1:0]   s_tdata,
    output wire              m_tvalid,
    input  wire              m_tready,
    output wire [8*LO-1:0]   m_tdata
);
    localparam IW = 8 * LI;
    localparam OW = 8 * LO;

    wire          f_ready;
    wire          push;
    wire [OW-1:0] pdata;
    reg  [15:0]   g;          // input beat within the pixel
    wire          last_g = g == cfg_cg_in - 16'd1;

    generate
        if (LI < LO) begin : g_pack
            localparam R = LO / LI;
            localparam RB = R > 1 ? $clog2(R) : 1;
            reg [OW-1:0] acc;      // sub-beats 0..j-1 of the output beat
            reg [RB-1:0] j;
            wire         in_go = s_tvalid && f_ready;
            wire         close = j == R[RB-1:0] - 1'b1 || last_g;
            reg  [OW-1:0] ins;
            integer k;
            always @(*) begin
                ins = acc;
                for (k = 0; k < R; k = k + 1)
                    if (j == k[RB-1:0])
                        ins[IW*k +: IW] = s_tdata;
            end
            assign s_tready = f_ready;
            assign push  = in_go && close;
            assign pdata = ins;
            always @(posedge clk) begin
                if (rst) begin
                    g <= 16'd0;
                    j <= {RB{1'b0}};
                    acc <= {OW{1'b0}};
                end else if (in_go) begin
                    g <= last_g ? 16'd0 : g + 16'd1;
                    if (close) begin
                        j <= {RB{1'b0}};
                        acc <= {OW{1'b0}};
                    end else begin
                        j <= j + 1'b1;
                        acc <= ins;
                    end
                end
            end
            wire unused_ok = &{1'b0, cfg_cg_out};
        end else begin : g_unpack
            localparam R = LI / LO;
            localparam RB = R > 1 ? $clog2(R) : 1;
            reg [RB-1:0] j;        // output sub-beat of the current input beat
            reg [15:0]   k;        // output beat within the pixel
            wire         last_k = k == cfg_cg_out - 16'd1;
            wire         last_j = j == R[RB-1:0] - 1'b1 || last_k;
            wire         out_go = s_tvalid && f_ready;
            reg  [OW-1:0] sel;
            integer i;
            always @(*) begin
                sel = {OW{1'b0}};
                for (i = 0; i < R; i = i + 1)
                    if (j == i[RB-1:0])
                        sel = s_tdata[OW*i +: OW];
            end
            assign s_tready = f_ready && last_j;
            assign push  = out_go;
            assign pdata = sel;
            always @(posedge clk) begin
                if (rst) begin
                    g <= 16'd0;
                    j <= {RB{1'b0}};
                    k <= 16'd0;
                end else if (out_go) begin
                    k <= last_k ? 16'd0 : k + 16'd1;
                    if (last_j) begin
                        j <= {RB{1'b0}};
                        g <= last_g ? 16'd0 : g + 16'd1;
                    end else begin
                        j <= j + 1'b1;
                    end
                end
            end
        end
    endgenerate

    wire [1:0] fcnt;
    wire unused_w = &{1'b0, fcnt};

    kiln_fifo #(.WIDTH(OW), .DEPTH(2)) u_out (
        .clk(clk), .rst(rst),
        .s_tvalid(push), .s_tready(f_ready), .s_tdata(pdata),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata),
        .count(fcnt));
endmodule
