// kiln_skid: two-entry skid buffer; cuts the ready path and the data path.
//
// Ports:      clk, rst; s_tvalid/s_tready/s_tdata in; m_tvalid/m_tready/m_tdata out.
// Parameters: WIDTH (bits per beat).
// Behaviour:  s_tready and m_tvalid are registers; full throughput.
// Latency:    1 cycle.  Cycles per frame of N beats: N + 1.
// Resources:  FF = 2*WIDTH + 2, LUT ~ WIDTH + 4, no DSP/BRAM.
module kiln_skid #(
    parameter WIDTH = 128
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
    reg             ov;   // output register holds a beat
    reg [WIDTH-1:0] od;
    reg             sv;   // skid register holds a beat
    reg [WIDTH-1:0] sd;

    assign s_tready = !sv;
    assign m_tvalid = ov;
    assign m_tdata  = od;

    always @(posedge clk) begin
        if (rst) begin
            ov <= 1'b0;
            sv <= 1'b0;
        end else if (!ov || m_tready) begin
            if (sv) begin
                ov <= 1'b1;
                od <= sd;
                sv <= 1'b0;
            end else begin
                ov <= s_tvalid;
                od <= s_tdata;
            end
        end else if (s_tvalid && !sv) begin
            sv <= 1'b1;
            sd <= s_tdata;
        end
    end
endmodule
