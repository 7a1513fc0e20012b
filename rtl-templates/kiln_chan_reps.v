// kiln_chan_reps: the repetition sequencer of a DMA channel (kiln_rd_chan,
// kiln_wr_chan): runs its AXI master cfg_reps times (frames) x cfg_subs
// times (sub-runs of a frame), frame r's sub-run s at cfg_base + r *
// cfg_stride + s * cfg_sub_stride, each frame's first sub-run only once
// `avail` says its producer finished that frame; counts the stream beats of
// a sub-run so the channel can drop (read) or add (write) the padding beats
// past cfg_beats.
//
// Ports:      clk, rst (sync, active high)
//             cfg_base, cfg_bytes, cfg_stride, cfg_beats, cfg_reps, start,
//             busy, done, error   as kiln_rd_chan / kiln_wr_chan
//             cfg_subs        sub-runs per frame (0 counts as 1), e.g. the
//                             passes of a weight-tiled conv over its input
//             cfg_sub_stride  bytes from one sub-run's base to the next (0:
//                             every sub-run reads the same frame again)
//             avail           frames the producer of the data has finished
//                             in this run (another channel's `finished`);
//                             frame r starts once avail > r.  All ones: no gate
//             finished        frames whose last sub-run is done since start
//             go, addr, bytes     the AXI master's start pulse, cfg_base and
//                                 cfg_bytes for the current sub-run
//             dma_busy, dma_done, dma_err  the AXI master's status
//             beat                a stream beat of the channel's LANES side moved
//             keep                that side's beat counter is below cfg_beats
// Parameters: ADDR_W, LANES (stream beats per sub-run = cfg_bytes / LANES),
//             DATA_W (the master's bus: DDR beats = cfg_bytes / (DATA_W/8)),
//             CNT_W (bits of the beat and sub-run counters, 12..32: the
//             stream and DDR beats of a sub-run and cfg_subs are below
//             2^CNT_W; a start that breaks this pulses error and sets done
//             with nothing transferred and no frame finished).
// Timing:     sub-run k+1 starts the cycle after sub-run k's done (a frame's
//             first sub-run also waits for avail); error pulses one cycle
//             when the master's error first rises in a run.
// Resources:  ~5 x 32 + 4 x CNT_W + 2 x ADDR_W FF after the constant cfg_*
//             fold.  No DSP/BRAM.
module kiln_chan_reps #(
    parameter ADDR_W = 40,
    parameter LANES  = 8,
    parameter DATA_W = 64,
    parameter CNT_W  = 32
) (
    input  wire              clk,
    input  wire              rst,
    input  wire [ADDR_W-1:0] cfg_base,
    input  wire [31:0]       cfg_bytes,
    input  wire [31:0]       cfg_stride,
    input  wire [31:0]       cfg_beats,
    input  wire [31:0]       cfg_reps,
    input  wire [31:0]       cfg_subs,
    input  wire [31:0]       cfg_sub_stride,
    input  wire              start,
    output wire              busy,
    output wire              done,
    output wire              error,
    input  wire [31:0]       avail,
    output reg  [31:0]       finished,
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
    localparam LB = $clog2(DATA_W / 8);
    localparam LS = LL < LB ? LL : LB; // the finer of stream and DDR beats
    localparam [CNT_W-1:0] ONE = {{(CNT_W-1){1'b0}}, 1'b1};

    reg        busy_r;   // sub-runs running
    reg        done_r;   // all frames finished
    reg        err_r;    // master error since start
    reg        err_p;    // err_r rose in the previous cycle
    reg        issued;   // the master started, its done not yet seen
    reg [31:0] left;     // frames not yet started
    reg [31:0] started;  // frames started
    reg [CNT_W-1:0] subs;    // sub-runs per frame (>= 1)
    reg [CNT_W-1:0] subleft; // sub-runs of the current frame not yet started
    reg [31:0] stride;   // sampled cfg_stride
    reg [31:0] sstride;  // sampled cfg_sub_stride
    reg [CNT_W-1:0] beats;   // sampled cfg_beats
    reg [CNT_W-1:0] tc;      // stream beat within the sub-run
    reg [ADDR_W-1:0] fbase; // base of the current frame
    /* verilator lint_off UNUSEDSIGNAL */ // tot < 2^CNT_W (too_long)
    wire [31:0] tot = bytes >> LL; // stream beats per sub-run
    /* verilator lint_on UNUSEDSIGNAL */
    // a sub-run or the sub-run count beyond the counters
    wire too_long = (cfg_bytes >> (LS + CNT_W)) != 32'd0
                 || (cfg_subs >> CNT_W) != 32'd0 || (cfg_beats >> CNT_W) != 32'd0;

    assign busy  = busy_r;
    assign done  = done_r;
    assign error = err_p;
    assign keep  = tc < beats;

    always @(posedge clk) begin
        if (rst) begin
            busy_r <= 1'b0; done_r <= 1'b0; err_r <= 1'b0; issued <= 1'b0; go <= 1'b0;
            err_p <= 1'b0;
            left <= 32'd0; started <= 32'd0; subleft <= {CNT_W{1'b0}}; finished <= 32'd0;
        end else begin
            go <= 1'b0;
            err_p <= 1'b0;
            if (start && !busy_r) begin
                addr     <= cfg_base;
                fbase    <= cfg_base;
                bytes    <= cfg_bytes;
                stride   <= cfg_stride;
                sstride  <= cfg_sub_stride;
                beats    <= cfg_beats[CNT_W-1:0];
                subs     <= cfg_subs == 32'd0 ? ONE : cfg_subs[CNT_W-1:0];
                err_r    <= too_long;
                err_p    <= too_long;
                done_r   <= cfg_reps == 32'd0 || too_long;
                busy_r   <= cfg_reps != 32'd0 && !too_long;
                left     <= cfg_reps;
                started  <= 32'd0;
                subleft  <= {CNT_W{1'b0}};
                finished <= 32'd0;
                issued   <= 1'b0;
            end else if (busy_r) begin
                if (dma_err && !err_r) begin
                    err_r <= 1'b1;
                    err_p <= 1'b1;
                end
                if (!issued && !go) begin
                    if (subleft != {CNT_W{1'b0}}) begin
                        go      <= 1'b1;
                        issued  <= 1'b1;
                        subleft <= subleft - ONE;
                    end else if (left == 32'd0) begin
                        busy_r <= 1'b0;
                        done_r <= 1'b1;
                    end else if (avail > started) begin
                        go      <= 1'b1;
                        issued  <= 1'b1;
                        left    <= left - 32'd1;
                        started <= started + 32'd1;
                        subleft <= subs - ONE;
                    end
                end else if (issued && !go && dma_done && !dma_busy) begin
                    issued <= 1'b0;
                    if (subleft == {CNT_W{1'b0}}) begin
                        fbase    <= fbase + {{(ADDR_W-32){1'b0}}, stride};
                        addr     <= fbase + {{(ADDR_W-32){1'b0}}, stride};
                        finished <= finished + 32'd1;
                    end else begin
                        addr <= addr + {{(ADDR_W-32){1'b0}}, sstride};
                    end
                end
            end
        end
    end

    always @(posedge clk) begin
        if (rst || (start && !busy_r))
            tc <= {CNT_W{1'b0}};
        else if (beat)
            tc <= tc + ONE == tot[CNT_W-1:0] ? {CNT_W{1'b0}} : tc + ONE; // tot < 2^CNT_W
    end
endmodule
