// kiln_chan_reps: the repetition sequencer of a DMA channel (kiln_rd_chan,
// kiln_wr_chan): runs its AXI master cfg_reps times, repetition r at
// cfg_base + r * cfg_stride, and counts the stream beats of a repetition so
// the channel can drop (read) or add (write) the padding beats past cfg_beats.
//
// Ports:      clk, rst (sync, active high)
//             cfg_base, cfg_bytes, cfg_stride, cfg_beats, cfg_reps, start,
//             busy, done, error   as kiln_rd_chan / kiln_wr_chan
//             go, addr, bytes     the AXI master's start pulse, cfg_base and
//                                 cfg_bytes for the current repetition
//             dma_busy, dma_done, dma_err  the AXI master's status
//             beat                a stream beat of the channel's LANES side moved
//             keep                that side's beat counter is below cfg_beats
// Parameters: ADDR_W, LANES (stream beats per repetition = cfg_bytes / LANES).
// Timing:     repetition r+1 starts the cycle after repetition r's done; error
//             pulses one cycle when the master's error first rises in a run.
// Resources:  ~6 x 32 + ADDR_W FF, ~200 LUT.  No DSP/BRAM.
module kiln_chan_reps #(
    parameter ADDR_W = 40,
    parameter LANES  = 8
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [ADDR_W-1:0] cfg_base,
    input  wire [31:0]       cfg_bytes,
    input  wire [31:0]       cfg_stride,
    input  wire [31:0]       cfg_beats,
    input  wire [31:0]       cfg_reps,
    input  wire              start,
    output wire              busy,
    output wire              done,
    output wire              error,
    output reg               go,
    output reg  [ADDR_W-1:0] addr,
    output reg  [31:0]       bytes,
    input  wire              dma_busy,
    input  wire              dma_done,
    input  wire              dma_err,
    input  wire              beat,
    output wire              keep
);
    localparam LL = $clog2(LANES);

    reg        busy_r;  // repetitions running
    reg        done_r;  // all repetitions finished
    reg        err_r;   // master error since start
    reg        err_p;   // err_r rose in the previous cycle
    reg        issued;  // the master started, its done not yet seen
    reg [31:0] left;    // repetitions not yet started
    reg [31:0] stride;  // sampled cfg_stride
    reg [31:0] beats;   // sampled cfg_beats
    reg [31:0] tc;      // stream beat within the repetition
    wire [31:0] tot = bytes >> LL; // stream beats per repetition

    assign busy  = busy_r;
    assign done  = done_r;
    assign error = err_p;
    assign keep  = tc < beats;

    always @(posedge clk) begin
        if (rst) begin
            busy_r <= 1'b0; done_r <= 1'b0; err_r <= 1'b0; issued <= 1'b0; go <= 1'b0;
            err_p <= 1'b0;
            left <= 32'd0;
        end else begin
            go <= 1'b0;
            err_p <= 1'b0;
            if (start && !busy_r) begin
                addr   <= cfg_base;
                bytes  <= cfg_bytes;
                stride <= cfg_stride;
                beats  <= cfg_beats;
                err_r  <= 1'b0;
                done_r <= cfg_reps == 32'd0;
                busy_r <= cfg_reps != 32'd0;
                left   <= cfg_reps;
                issued <= 1'b0;
            end else if (busy_r) begin
                if (dma_err && !err_r) begin
                    err_r <= 1'b1;
                    err_p <= 1'b1;
                end
                if (!issued && !go) begin
                    if (left == 32'd0) begin
                        busy_r <= 1'b0;
                        done_r <= 1'b1;
                    end else begin
                        go     <= 1'b1;
                        issued <= 1'b1;
                        left   <= left - 32'd1;
                    end
                end else if (issued && !go && dma_done && !dma_busy) begin
                    issued <= 1'b0;
                    addr   <= addr + {{(ADDR_W-32){1'b0}}, stride};
                end
            end
        end
    end

    always @(posedge clk) begin
        if (rst || (start && !busy_r))
            tc <= 32'd0;
        else if (beat)
            tc <= tc + 32'd1 == tot ? 32'd0 : tc + 32'd1;
    end
endmodule
