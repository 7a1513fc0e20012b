// kiln_upsample: nearest-neighbour upsampling by an integer factor (x2 in YOLO).
//
// Ports:      clk, rst (sync, active high)
//             cfg_w      input width (>= 1)
//             cfg_cg     channel groups per pixel, ceil(C / LANES)
//             cfg_f      scale factor (>= 1; 2 for YOLO's upsample)
//             s_tvalid/s_tready/s_tdata   input pixels (y, x, cg)
//             m_tvalid/m_tready/m_tdata   output pixels (f*y+i, f*x+j, cg)
// Parameters: LANES (int8 lanes per beat), ROW_MAX (largest cfg_w * cfg_cg).
// Behaviour:  the output is issued one beat per cycle; the first copy of each
//             input beat comes straight from the input (and is written to a
//             one-row buffer), the other f*f-1 copies are read back from it.
//             Rows need no count: the frame is h rows of this pattern.
// Latency:    2 cycles.
// Cycles per frame: f*f*h*w*cg + 2.
// Resources:  bram36 = block RAM cover of ROW_MAX x 8*LANES (RAMB18E2 counts
//             0.5; LUTRAM when small); LUT ~ 8*LANES + LUTRAM cells + 104;
//             FF ~ 8*LANES (x2 with a LUTRAM buffer) + 69; no DSP
//             (hls/desc_stream.c).
module kiln_upsample #(
    parameter LANES   = 16,
    parameter ROW_MAX = 512
) (
    input  wire                 clk,
    input  wire                 rst,
    input  wire [15:0]          cfg_w,
    input  wire [15:0]          cfg_cg,
    input  wire [3:0]           cfg_f,
    input  wire                 s_tvalid,
    output wire                 s_tready,
    input  wire [8*LANES-1:0]   s_tdata,
    output wire                 m_tvalid,
    input  wire                 m_tready,
    output wire [8*LANES-1:0]   m_tdata
);
    localparam DW = 8 * LANES;
    localparam AW = ROW_MAX > 1 ? $clog2(ROW_MAX) : 1;

    reg [3:0]  sy, sx;       // copy index along y and x
    reg [15:0] x, g;         // input column and channel group
    reg [AW-1:0] addr;       // x * cg + g
    reg [AW-1:0] base;       // x * cg

    wire take   = sy == 4'd0 && sx == 4'd0;
    wire [2:0] fcnt;
    reg  v1;
    wire credit = ({1'b0, fcnt} + {3'b0, v1}) < 4'd4;
    wire go     = credit && (!take || s_tvalid);
    assign s_tready = credit && take;

    wire last_g = g == cfg_cg - 16'd1;
    wire last_x = x == cfg_w - 16'd1;
    wire last_sx = sx == cfg_f - 4'd1;
    wire last_sy = sy == cfg_f - 4'd1;

    always @(posedge clk) begin
        if (rst) begin
            sy <= 4'd0; sx <= 4'd0; x <= 16'd0; g <= 16'd0;
            addr <= {AW{1'b0}}; base <= {AW{1'b0}};
        end else if (go) begin
            if (!last_g) begin
                g <= g + 16'd1;
                addr <= addr + 1'b1;
            end else begin
                g <= 16'd0;
                if (!last_sx) begin
                    sx <= sx + 4'd1;
                    addr <= base;
                end else begin
                    sx <= 4'd0;
                    if (!last_x) begin
                        x <= x + 16'd1;
                        base <= addr + 1'b1;
                        addr <= addr + 1'b1;
                    end else begin
                        x <= 16'd0;
                        base <= {AW{1'b0}};
                        addr <= {AW{1'b0}};
                        sy <= last_sy ? 4'd0 : sy + 4'd1;
                    end
                end
            end
        end
    end

    reg [DW-1:0] mem [0:ROW_MAX-1];
    reg [DW-1:0] rd;
    reg [DW-1:0] d1;
    reg          take1;
    always @(posedge clk) begin
        if (go && take)
            mem[addr] <= s_tdata;
    end
    always @(posedge clk) begin
        rd <= mem[addr];
    end
    always @(posedge clk) begin
        if (rst)
            v1 <= 1'b0;
        else
            v1 <= go;
        d1    <= s_tdata;
        take1 <= take;
    end

    wire f_ready;
    wire unused_ok = &{1'b0, f_ready};

    kiln_fifo #(.WIDTH(DW), .DEPTH(4)) u_out (
        .clk(clk), .rst(rst),
        .s_tvalid(v1), .s_tready(f_ready), .s_tdata(take1 ? d1 : rd),
        .m_tvalid(m_tvalid), .m_tready(m_tready), .m_tdata(m_tdata),
        .count(fcnt));
endmodule
