// kiln_regfile: AXI-Lite slave register file of an accelerator.
//
// Register map (byte addresses, 32-bit registers):
//   0x00 CTRL      W: bit0 = start (ignored while busy), bit1 = load (the
//                  value goes out on load with the start pulses of that
//                  write), bit u+1 = start of unit u, 1 <= u < UNITS
//                  (ignored while unit u is busy; bits set together start
//                  their units in the same cycle).  Reads 0.
//   0x04 STATUS    R: bit0 busy, bit1 done (set by done_in, cleared by start);
//                  bits 2u and 2u+1 the busy and done of unit u
//   0x08 ERROR     R: sticky OR of err_in; W: write-one-to-clear
//   0x0C CYCLES    R: cycles counted while busy (cleared by start)
//   0x10 HASH_LO   R: PLAN_HASH[31:0]
//   0x14 HASH_HI   R: PLAN_HASH[63:32]
//   0x18 NCFG      R: N_CFG
//   0x1C IER       R/W: bit0 = interrupt enable (0 after reset); bit u =
//                  unit u's done raises irq too
//   0x20 + 4*(u-1) CYCLES of unit u, 1 <= u < UNITS (R; 0x20 reads 0 at
//                  UNITS 1)
//   0x40 + 4*i     CFG[i], i < N_CFG: read/write (byte strobes honoured)
//   PERF_BASE + 4*j PERF word j, j < 2*N_PERF: R, perf[32*j +: 32]
//   other          reads 0, writes ignored (OKAY response)
//   (hls/hw.h: PERF_BASE is 0x200 while the CFG block ends there, else the
//   first multiple of 0x200 past it; ADDR_W holds the last PERF word)
// Ports:      clk, rst (sync, active high); s_axil_* AXI4-Lite slave (32-bit
//             data, ADDR_W-bit address); start (one-cycle pulse), busy;
//             done_in (pulse: the frame finished), one bit each a unit
//             (bit u: unit u); err_in (error bits, ORed in while high); cfg
//             (N_CFG registers, CFG[i] at [32*i +: 32], shared: a unit
//             samples what it needs at its start); load (CTRL bit1 of the last
//             CTRL write, held: what its start pulses go out with); perf (2*N_PERF read-only words from
//             the design); irq (level, active high: STATUS.done & IER.bit0,
//             or unit u's done & IER bit u, so a start clears it).
// Parameters: UNITS (1 .. 8 run units, each its own start, busy, done and
//             cycle counter, running at the same time),
//             N_CFG (1 .. (PERF_BASE - 0x40) / 4), PLAN_HASH (64 bits),
//             ADDR_W (12..16, PERF_BASE + 8*N_PERF <= 2^ADDR_W), N_PERF
//             (>= 1), PERF_BASE (a multiple of 0x200).  Addresses compare
//             on all ADDR_W bits.
// Latency:    a read answers one cycle after its address handshake; a write
//             answers one cycle after both address and data were taken.
// Cycles:     back-to-back reads with rready high take 2 cycles each.
// Resources:  FF ~ 32*N_CFG + 150; LUT ~ 27.5*N_CFG + 3.4*2*N_PERF + 143
//             (read mux and byte-strobe write enables, fitted in generated
//             tops: hls/desc_stream.c); no DSP/BRAM.
module kiln_regfile #(
    parameter UNITS     = 1,
    parameter N_CFG     = 8,
    parameter PLAN_HASH = 64'h0,
    parameter ADDR_W    = 12,
    parameter N_PERF    = 1,
    parameter PERF_BASE = 'h200
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
    output wire [UNITS-1:0]    start,
    output wire [UNITS-1:0]    busy,
    input  wire [UNITS-1:0]    done_in,
    input  wire [31:0]         err_in,
    output wire [32*N_CFG-1:0] cfg,
    output reg                 load,
    input  wire [64*N_PERF-1:0] perf,
    output wire                irq
);
    localparam NW = N_CFG > 1 ? $clog2(N_CFG) : 1;
    localparam integer NPW = 2 * N_PERF;
    localparam [31:0] NCFG32 = N_CFG;
    localparam [31:0] NPW32 = NPW;
    localparam [31:0] PB32 = PERF_BASE;
    // the addresses and counts compared, ADDR_W bits wide
    localparam [ADDR_W-1:0] NCFGA  = NCFG32[ADDR_W-1:0];  // CFG registers
    localparam [ADDR_W-1:0] NPERFA = NPW32[ADDR_W-1:0];   // PERF words
    localparam [ADDR_W-1:0] A_CFG  = 'h40;                // CFG[0]
    localparam [ADDR_W-1:0] A_PERF = PB32[ADDR_W-1:0];    // PERF word 0
    localparam [ADDR_W-1:0] A_CTRL = 'h00;
    localparam [ADDR_W-1:0] A_STATUS = 'h04;
    localparam [ADDR_W-1:0] A_ERROR = 'h08;
    localparam [ADDR_W-1:0] A_CYCLES = 'h0C;
    localparam [ADDR_W-1:0] A_HASH_LO = 'h10;
    localparam [ADDR_W-1:0] A_HASH_HI = 'h14;
    localparam [ADDR_W-1:0] A_NCFG = 'h18;
    localparam [ADDR_W-1:0] A_IER = 'h1C;
    localparam [ADDR_W-1:0] A_CYCLES1 = 'h20;
    reg [31:0] error;

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
    wire [ADDR_W-1:0] wi = (wa - A_CFG) >> 2;
    wire is_cfg_w = wa >= A_CFG && wa < A_PERF && wi < NCFGA;

    wire [31:0] wmask = {{8{w_s[3]}}, {8{w_s[2]}}, {8{w_s[1]}}, {8{w_s[0]}}};


    always @(posedge clk) begin
        if (rst) begin
            aw_v <= 1'b0; w_v <= 1'b0; b_v <= 1'b0;
            load <= 1'b0;
            error <= 32'd0;
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
            if (do_w && wa == A_CTRL && w_s[0])
                load <= w_d[1];
            error <= (do_w && wa == A_ERROR ? error & ~(w_d & wmask) : error) | err_in;
        end
    end

    // the run units: CTRL bit0 starts unit 0, bit u+1 unit u > 0; STATUS
    // bits 2u (busy) and 2u+1 (done); CYCLES of unit 0 at 0x0C, of unit u > 0
    // at 0x20 + 4*(u-1); IER bit u
    localparam integer NU = UNITS > 1 ? UNITS - 1 : 1; // units past the first
    wire [2*UNITS-1:0]  stu;  // {done, busy} of each unit
    wire [32*UNITS-1:0] cycu; // their cycles
    wire [UNITS-1:0]    irqu; // their done & IER bit
    wire [UNITS-1:0]    ieru; // their IER bits
    genvar gu;
    generate
        for (gu = 0; gu < UNITS; gu = gu + 1) begin : g_u
            localparam integer CBIT = gu > 0 ? gu + 1 : 0; // its CTRL bit
            reg        st_r, busy_r, done_r, ier_r;
            reg [31:0] cyc_r;
            wire go = do_w && wa == A_CTRL && w_s[CBIT / 8] && w_d[CBIT] && !busy_r;
            always @(posedge clk) begin
                if (rst) begin
                    st_r <= 1'b0; busy_r <= 1'b0; done_r <= 1'b0; ier_r <= 1'b0;
                    cyc_r <= 32'd0;
                end else begin
                    st_r <= go;
                    if (go) begin
                        busy_r <= 1'b1;
                        done_r <= 1'b0;
                        cyc_r <= 32'd0;
                    end else if (busy_r) begin
                        cyc_r <= cyc_r + 32'd1;
                        if (done_in[gu]) begin
                            busy_r <= 1'b0;
                            done_r <= 1'b1;
                        end
                    end
                    if (do_w && wa == A_IER && w_s[gu / 8])
                        ier_r <= w_d[gu];
                end
            end
            assign start[gu] = st_r;
            assign busy[gu] = busy_r;
            assign stu[2*gu +: 2] = {done_r, busy_r};
            assign cycu[32*gu +: 32] = cyc_r;
            assign irqu[gu] = done_r & ier_r;
            assign ieru[gu] = ier_r;
        end
    endgenerate

    // the STATUS and IER words
    wire [31:0] status_w = {{(32 - 2 * UNITS){1'b0}}, stu};
    wire [31:0] ier_w = {{(32 - UNITS){1'b0}}, ieru};

    assign irq = |irqu;

    // one register per CFG word (an array indexed by wi would make synthesis
    // keep 2^NW words)
    genvar gi;
    generate
        for (gi = 0; gi < N_CFG; gi = gi + 1) begin : g_cfg
            reg [31:0] r;
            wire we = do_w && is_cfg_w && wi[NW-1:0] == gi;
            // byte strobes as clock enables: no per-bit merge logic
            always @(posedge clk) begin
                if (we && w_s[0]) r[7:0]   <= w_d[7:0];
                if (we && w_s[1]) r[15:8]  <= w_d[15:8];
                if (we && w_s[2]) r[23:16] <= w_d[23:16];
                if (we && w_s[3]) r[31:24] <= w_d[31:24];
            end
            assign cfg[32*gi +: 32] = r;
        end
    endgenerate

    // ---- read channel ----
    wire unused_ok = &{1'b0, wi, ri, wa, ra, cu};
    reg        r_v;
    reg [31:0] r_d;
    assign s_axil_arready = !r_v;
    assign s_axil_rvalid  = r_v;
    assign s_axil_rdata   = r_d;
    assign s_axil_rresp   = 2'b00;
    wire [ADDR_W-1:0] ra = s_axil_araddr;
    wire [ADDR_W-1:0] ri = (ra - A_CFG) >> 2;
    wire [ADDR_W-1:0] pi = (ra - A_PERF) >> 2;
    wire is_cfg_r  = ra >= A_CFG && ra < A_PERF && ri < NCFGA;
    wire is_perf_r = ra >= A_PERF && pi < NPERFA;
    // CYCLES of units 1 .. UNITS-1: words from A_CYCLES1 (a word past the
    // last unit is selected only where is_cyc_r is 0)
    localparam [31:0] NU32 = NU;
    localparam [ADDR_W-1:0] NUA = NU32[ADDR_W-1:0];
    localparam CB = NU > 1 ? $clog2(NU) : 1;
    localparam [CB:0] NUC = NU32[CB:0];
    wire [ADDR_W-1:0] cu = (ra - A_CYCLES1) >> 2;
    wire is_cyc_r = UNITS > 1 && ra >= A_CYCLES1 && cu < NUA;
    // read muxes: word arrays padded to a power of two, indexed by the low
    // address bits (the is_*_r range checks cover the padding)
    localparam PW = $clog2(2 * N_PERF);
    localparam PB = PW > 0 ? PW : 1;
    wire [31:0] cword [0:(1 << NW) - 1];
    wire [31:0] pword [0:(1 << PB) - 1];
    genvar gr;
    generate
        for (gr = 0; gr < (1 << NW); gr = gr + 1) begin : g_cw
            if (gr < N_CFG) begin : g_u
                assign cword[gr] = cfg[32*gr +: 32];
            end else begin : g_z
                assign cword[gr] = 32'd0;
            end
        end
        for (gr = 0; gr < (1 << PB); gr = gr + 1) begin : g_pw
            if (gr < 2 * N_PERF) begin : g_u
                assign pword[gr] = perf[32*gr +: 32];
            end else begin : g_z
                assign pword[gr] = 32'd0;
            end
        end
    endgenerate
    wire [31:0] cmux = cword[ri[NW-1:0]];
    wire [31:0] pmux = pword[pi[PB-1:0]];
    wire [CB:0] cux = {1'b0, cu[CB-1:0]};
    wire [CB:0] cun = cux + {{CB{1'b0}}, 1'b1}; // the unit: cu + 1
    wire [31:0] cycmux = cux < NUC ? cycu[32*cun +: 32] : 32'd0;
    reg [31:0] rmux;
    always @(*) begin
        case (ra)
        A_STATUS:  rmux = status_w;
        A_ERROR:   rmux = error;
        A_CYCLES:  rmux = cycu[31:0];
        A_HASH_LO: rmux = PLAN_HASH[31:0];
        A_HASH_HI: rmux = PLAN_HASH[63:32];
        A_NCFG:    rmux = NCFG32;
        A_IER:     rmux = ier_w;
        default: rmux = is_cyc_r ? cycmux : is_cfg_r ? cmux : is_perf_r ? pmux : 32'd0;
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
