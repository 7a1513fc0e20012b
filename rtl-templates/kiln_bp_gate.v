// kiln_bp_gate: random back-pressure on one stream, for simulation only.
//
// Ports:      clk, rst (sync, active high); s_tvalid/s_tready/s_tdata in;
//             m_tvalid/m_tready/m_tdata out.
// Parameters: WIDTH (bits per beat), SEED (this gate's seed, distinct per
//             gate so that gates are not in lock-step), PCT (1..99, the
//             percent of cycles a beat may pass when no plusarg says).
// Plusargs:   +kiln_bp=PCT overrides PCT; +kiln_bp_seed=N is mixed into
//             every gate's seed (kiln simulate --backpressure, --bp-seed).
// Behaviour:  a 32-bit xorshift LFSR draws a registered coin every cycle;
//             a beat passes on a cycle whose coin is heads (probability
//             PCT/100) or while this gate already shows it: m_tvalid, once
//             high, stays high with the same data until m_tready (AXI-Stream),
//             s_tready = m_tready && (coin || shown).  Data is not
//             registered: no beat is added, dropped or reordered.
// Latency:    0 cycles.  Cycles per frame of B beats: about B * 100 / PCT
//             when neither side stalls on its own.
// Resources:  none in a build: kiln_top instantiates it only under
//             `ifdef KILN_SIM_BP (kiln simulate --backpressure); never
//             synthesized ($value$plusargs, % are simulation constructs).
module kiln_bp_gate #(
    parameter WIDTH = 8,
    parameter SEED  = 1,
    parameter PCT   = 70
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             s_tvalid,
    output wire             s_tready,
    input  wire [WIDTH-1:0] s_tdata,
    output wire             m_tvalid,
    input  wire             m_tready,
    output wire [WIDTH-1:0] m_tdata
);
    reg  [31:0] lfsr;   // xorshift32 state, never 0
    reg  [31:0] seed0;  // state after reset
    reg  [31:0] pct;    // percent of heads
    reg         coin;   // this cycle's draw
    reg         shown;  // m_tvalid was high and not taken last cycle
    wire        go = coin || shown;
    wire [31:0] x1 = lfsr ^ (lfsr << 13);
    wire [31:0] x2 = x1 ^ (x1 >> 17);
    wire [31:0] x3 = x2 ^ (x2 << 5);

    initial begin : plusargs
        reg [31:0] s;
        pct = PCT;
        s = 32'd0;
        if (!$value$plusargs("kiln_bp=%d", pct))
            pct = PCT;
        if (!$value$plusargs("kiln_bp_seed=%d", s))
            s = 32'd0;
        // SEED spread over the word; a zero state would stay zero
        seed0 = (SEED * 32'h9E3779B9) ^ (s * 32'h85EBCA6B) ^ 32'h6A09E667;
        if (seed0 == 32'd0)
            seed0 = 32'd1;
    end

    assign m_tvalid = s_tvalid && go;
    assign s_tready = m_tready && go;
    assign m_tdata  = s_tdata;

    always @(posedge clk) begin
        if (rst) begin
            lfsr  <= seed0;
            coin  <= 1'b0;
            shown <= 1'b0;
        end else begin
            lfsr  <= x3;
            coin  <= {8'd0, x3[31:8]} % 32'd100 < pct;
            shown <= m_tvalid && !m_tready;
        end
    end
endmodule
