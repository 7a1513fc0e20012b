// kiln_fifo: stream FIFO.
//
// Ports:      clk, rst (sync, active high); s_tvalid/s_tready/s_tdata in;
//             m_tvalid/m_tready/m_tdata out; count = entries held.
// Parameters: WIDTH (bits per beat), DEPTH (entries, >= 2),
//             BRAM_MIN (DEPTH >= BRAM_MIN selects the BRAM-backed form).
// Behaviour:  s_tready = (count != DEPTH) and m_tvalid = (count != 0) come
//             from registers only; one push and one pop per cycle.
//   Small form (DEPTH < BRAM_MIN): register/LUTRAM array read
//             asynchronously; latency 1 (push at cycle c, valid at c+1).
//   BRAM form: synchronous-read RAM of DEPTH words plus a two-entry output
//             buffer refilled by prefetch; latency 3.
// Cycles per frame of N beats: N + latency.
// Resources:  small: LUT ~ ceil(WIDTH/14)*ceil(DEPTH/32) (RAM32M16) + 5*log2(DEPTH) + 3,
//             FF ~ 3*log2(DEPTH) + 5;  BRAM form: bram36 = fewest RAMB36E2
//             (512x72, 1Kx36, ...) for DEPTH x WIDTH, FF ~ 2*WIDTH +
//             4*log2(DEPTH) + 8, LUT ~ WIDTH + 4*log2(DEPTH) + 22.
module kiln_fifo #(
    parameter WIDTH    = 128,
    parameter DEPTH    = 4,
    parameter BRAM_MIN = 128
) (
    input  wire             clk,
    input  wire             rst,
    input  wire             s_tvalid,
    output wire             s_tready,
    input  wire [WIDTH-1:0] s_tdata,
    output wire             m_tvalid,
    input  wire             m_tready,
    output wire [WIDTH-1:0] m_tdata,
    output wire [$clog2(DEPTH+1)-1:0] count
);
    localparam AW = $clog2(DEPTH);
    localparam CW = $clog2(DEPTH + 1);

    reg [CW-1:0] cnt;
    wire push = s_tvalid && s_tready;
    wire pop  = m_tvalid && m_tready;

    assign s_tready = cnt != DEPTH[CW-1:0];
    assign count    = cnt;

    always @(posedge clk) begin
        if (rst)
            cnt <= {CW{1'b0}};
        else
            cnt <= cnt + {{(CW-1){1'b0}}, push} - {{(CW-1){1'b0}}, pop};
    end

    reg [WIDTH-1:0] mem [0:DEPTH-1];
    reg [AW-1:0]    wptr;
    reg [AW-1:0]    rptr;

    function [AW-1:0] inc;
        input [AW-1:0] p;
        begin
            inc = (p == DEPTH[AW-1:0] - 1'b1) ? {AW{1'b0}} : p + 1'b1;
        end
    endfunction

    always @(posedge clk) begin
        if (push)
            mem[wptr] <= s_tdata;
    end

    always @(posedge clk) begin
        if (rst)
            wptr <= {AW{1'b0}};
        else if (push)
            wptr <= inc(wptr);
    end

    generate
        if (DEPTH < BRAM_MIN) begin : g_small
            assign m_tvalid = cnt != {CW{1'b0}};
            assign m_tdata  = mem[rptr];
            always @(posedge clk) begin
                if (rst)
                    rptr <= {AW{1'b0}};
                else if (pop)
                    rptr <= inc(rptr);
            end
        end else begin : g_bram
            // Words in the RAM not yet read out; a read issued last cycle;
            // a two-entry output buffer.
            reg [CW-1:0]    mcnt;
            reg             rd_pend;
            reg [WIDTH-1:0] rdata;
            reg [WIDTH-1:0] ob0;
            reg [WIDTH-1:0] ob1;
            reg [1:0]       ocnt;
            wire opop = pop;
            wire [2:0] room = {1'b0, ocnt} + {2'b0, rd_pend} - {2'b0, opop};
            wire issue = (mcnt != {CW{1'b0}}) && (room < 3'd2);

            assign m_tvalid = ocnt != 2'd0;
            assign m_tdata  = ob0;

            always @(posedge clk) begin
                if (issue)
                    rdata <= mem[rptr];
            end

            always @(posedge clk) begin
                if (rst) begin
                    rptr    <= {AW{1'b0}};
                    mcnt    <= {CW{1'b0}};
                    rd_pend <= 1'b0;
                    ocnt    <= 2'd0;
                end else begin
                    if (issue)
                        rptr <= inc(rptr);
                    mcnt    <= mcnt + {{(CW-1){1'b0}}, push} - {{(CW-1){1'b0}}, issue};
                    rd_pend <= issue;
                    ocnt    <= room[1:0];
                    // Output buffer: ob0 is the head.
                    if (opop) begin
                        if (ocnt == 2'd2) begin
                            ob0 <= ob1;
                            if (rd_pend)
                                ob1 <= rdata;
                        end else if (rd_pend) begin
                            ob0 <= rdata;
                        end
                    end else if (rd_pend) begin
                        if (ocnt == 2'd0)
                            ob0 <= rdata;
                        else
                            ob1 <= rdata;
                    end
                end
            end
        end
    endgenerate
endmodule
