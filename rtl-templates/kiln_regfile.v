// kiln_regfile: AXI-Lite slave register file of an accelerator.
//
// Register map (byte addresses, 32-bit registers):
//   0x00 CTRL      W: bit0 = start (ignored while busy).  Reads 0.
//   0x04 STATUS    R: bit0 busy, bit1 done (set by done_in, cleared by start)
//   0x08 ERROR     R: sticky OR of err_in; W: write-one-to-clear
//   0x0C CYCLES    R: cycles counted while busy (cleared by start)
//   0x10 HASH_LO   R: PLAN_HASH[31:0]
//   0x14 HASH_HI   R: PLAN_HASH[63:32]
//   0x18 NCFG      R: N_CFG
//   0x40 + 4*i     CFG[i], i < N_CFG: read/write (byte strobes honoured)
//   other          reads 0, writes ignored (OKAY response)
// Ports:      clk, rst (sync, active high); s_axil_* AXI4-Lite slave (32-bit
//             data, ADDR_W-bit address); start (one-cycle pulse), busy;
//             done_in (pulse: the frame finished); err_in (error bits, ORed
//             in while high); cfg (N_CFG registers, CFG[i] at [32*i +: 32]).
// Parameters: N_CFG (>= 1), PLAN_HASH (64 bits), ADDR_W (>= 8).
// Latency:    a read answers one cycle after its address handshake; a write
//             answers one cycle after both address and data were taken.
// Cycles:     back-to-back reads with rready high take 2 cycles each.
// Resources:  FF ~ 32*N_CFG + 150; LUT ~ 26.3*N_CFG + 125; no DSP/BRAM.
module kiln_regfile #(
    parameter N_CFG     = 8,
    parameter PLAN_HASH = 64'h0,
    parameter ADDR_W    = 8
) (
    input  wire                clk,
    input  wire                rst,
    input  wire [ADDR_W-1:0]   s_axil_awaddr,
    input  wire                s_axil_awvalid,
    output wire                s_axil_awready,
    input  wire [31:0]         s_axil_wdata,
    input  wire [3:0]          s_axil_wstrb,
    input  wire                s_axil_wvalid,
    output wire                s_axil_wready,
    output wire [1:0]          s_axil_bresp,
    output wire                s_axil_bvalid,
    input  wire                s_axil_bready,
    input  wire [ADDR_W-1:0]   s_axil_araddr,
    input  wire                s_axil_arvalid,
    output wire                s_axil_arready,
    output wire [31:0]         s_axil_rdata,
    output wire [1:0]          s_axil_rresp,
    output wire                s_axil_rvalid,
    input  wire                s_axil_rready,
    output reg                 start,
    output reg                 busy,
    input  wire                done_in,
    input  wire [31:0]         err_in,
    output wire [32*N_CFG-1:0] cfg
);
    localparam NW = N_CFG > 1 ? $clog2(N_CFG) : 1;
    reg [31:0] regs [0:N_CFG-1];
    reg        done;
    reg [31:0] error;
    reg [31:0] cycles;

    genvar gi;
    generate
        for (gi = 0; gi < N_CFG; gi = gi + 1) begin : g_cfg
            assign cfg[32*gi +: 32] = regs[gi];
        end
    endgenerate

    // ---- write channel: hold address and data until both are in ----
    reg              aw_v, w_v, b_v;
    reg [ADDR_W-1:0] aw_a;
    reg [31:0]       w_d;
    reg [3:0]        w_s;
    assign s_axil_awready = !aw_v;
    assign s_axil_wready  = !w_v;
    assign s_axil_bvalid  = b_v;
    assign s_axil_bresp   = 2'b00;
    wire do_w = aw_v && w_v && !b_v;
    wire [ADDR_W-1:0] wa = aw_a;
    wire is_cfg_w = wa >= 8'h40 && ((wa - 8'h40) >> 2) < N_CFG;
    wire [ADDR_W-1:0] wi = (wa - 8'h40) >> 2;

    wire [31:0] wmask = {{8{w_s[3]}}, {8{w_s[2]}}, {8{w_s[1]}}, {8{w_s[0]}}};

    wire start_w = do_w && wa == 8'h00 && w_s[0] && w_d[0] && !busy;

    always @(posedge clk) begin
        if (rst) begin
            aw_v <= 1'b0; w_v <= 1'b0; b_v <= 1'b0;
            start <= 1'b0; busy <= 1'b0; done <= 1'b0;
            error <= 32'd0; cycles <= 32'd0;
        end else begin
            if (s_axil_awvalid && !aw_v) begin
                aw_v <= 1'b1;
                aw_a <= s_axil_awaddr;
            end
            if (s_axil_wvalid && !w_v) begin
                w_v <= 1'b1;
                w_d <= s_axil_wdata;
                w_s <= s_axil_wstrb;
            end
            if (do_w) begin
                aw_v <= 1'b0;
                w_v  <= 1'b0;
                b_v  <= 1'b1;
            end else if (b_v && s_axil_bready) begin
                b_v <= 1'b0;
            end
            start <= start_w;
            if (start_w) begin
                busy <= 1'b1;
                done <= 1'b0;
                cycles <= 32'd0;
            end else if (busy) begin
                cycles <= cycles + 32'd1;
                if (done_in) begin
                    busy <= 1'b0;
                    done <= 1'b1;
                end
            end
            error <= (do_w && wa == 8'h08 ? error & ~(w_d & wmask) : error) | err_in;
        end
    end

    always @(posedge clk) begin
        if (do_w && is_cfg_w)
            regs[wi[NW-1:0]] <= (regs[wi[NW-1:0]] & ~wmask) | (w_d & wmask);
    end

    // ---- read channel ----
    wire unused_ok = &{1'b0, wi, ri};
    reg        r_v;
    reg [31:0] r_d;
    assign s_axil_arready = !r_v;
    assign s_axil_rvalid  = r_v;
    assign s_axil_rdata   = r_d;
    assign s_axil_rresp   = 2'b00;
    wire [ADDR_W-1:0] ra = s_axil_araddr;
    wire [ADDR_W-1:0] ri = (ra - 8'h40) >> 2;
    wire is_cfg_r = ra >= 8'h40 && ri < N_CFG;
    reg [31:0] rmux;
    always @(*) begin
        case (ra)
        8'h04:   rmux = {30'd0, done, busy};
        8'h08:   rmux = error;
        8'h0C:   rmux = cycles;
        8'h10:   rmux = PLAN_HASH[31:0];
        8'h14:   rmux = PLAN_HASH[63:32];
        8'h18:   rmux = N_CFG;
        default: rmux = is_cfg_r ? regs[ri[NW-1:0]] : 32'd0;
        endcase
    end
    always @(posedge clk) begin
        if (rst) begin
            r_v <= 1'b0;
        end else if (s_axil_arvalid && !r_v) begin
            r_v <= 1'b1;
            r_d <= rmux;
        end else if (r_v && s_axil_rready) begin
            r_v <= 1'b0;
        end
    end
endmodule
