// DSP48E2 for iverilog: the subset of UG579's DSP48E2 that kiln's templates
// instantiate (yosys 0.23 ships the primitive as a blackbox only).  Written
// from UG579's register and multiplexer tables, not a vendor model:
//   A1/A2 (AREG 1|2, A_INPUT DIRECT), B1/B2 likewise, M (MREG 1), P (PREG 1),
//   each with its clock enable; no INMODE/OPMODE/ALUMODE/CARRYIN registers;
//   multiplier A2[26:0] x B2 (INMODE 00000, AMULTSEL A, BMULTSEL B), signed;
//   ALU P = W + X + Y + Z + CARRYIN with ALUMODE 0000, CARRYINSEL 000,
//   CARRYIN 0, OPMODE W = 00, X = Y = 00 or 01 (X = Y = 01: the product,
//   sign-extended; the two partial products always go together), Z = 000
//   (0), 001 (PCIN) or 010 (P).
// Anything else (attributes, resets, control inputs) prints "FAIL" and
// stops the simulation, so a template outside the subset cannot pass.
// PCOUT = P (PREG 1).  The other outputs are 0.
`timescale 1ns / 1ps
module DSP48E2 #(
    parameter integer ACASCREG = 1,
    parameter integer ADREG = 1,
    parameter integer ALUMODEREG = 1,
    parameter AMULTSEL = "A",
    parameter integer AREG = 1,
    parameter A_INPUT = "DIRECT",
    parameter integer BCASCREG = 1,
    parameter BMULTSEL = "B",
    parameter integer BREG = 1,
    parameter B_INPUT = "DIRECT",
    parameter integer CARRYINREG = 1,
    parameter integer CARRYINSELREG = 1,
    parameter integer CREG = 1,
    parameter integer DREG = 1,
    parameter integer INMODEREG = 1,
    parameter integer MREG = 1,
    parameter integer OPMODEREG = 1,
    parameter PREADDINSEL = "A",
    parameter integer PREG = 1,
    parameter USE_MULT = "MULTIPLY",
    parameter USE_PATTERN_DETECT = "NO_PATDET",
    parameter USE_SIMD = "ONE48",
    parameter USE_WIDEXOR = "FALSE"
) (
    output wire [29:0] ACOUT,
    output wire [17:0] BCOUT,
    output wire        CARRYCASCOUT,
    output wire [3:0]  CARRYOUT,
    output wire        MULTSIGNOUT,
    output wire        OVERFLOW,
    output wire [47:0] P,
    output wire        PATTERNBDETECT,
    output wire        PATTERNDETECT,
    output wire [47:0] PCOUT,
    output wire        UNDERFLOW,
    output wire [7:0]  XOROUT,
    input  wire [29:0] A,
    input  wire [29:0] ACIN,
    input  wire [3:0]  ALUMODE,
    input  wire [17:0] B,
    input  wire [17:0] BCIN,
    input  wire [47:0] C,
    input  wire        CARRYCASCIN,
    input  wire        CARRYIN,
    input  wire [2:0]  CARRYINSEL,
    input  wire        CEA1, CEA2, CEAD, CEALUMODE, CEB1, CEB2, CEC,
    input  wire        CECARRYIN, CECTRL, CED, CEINMODE, CEM, CEP,
    input  wire        CLK,
    input  wire [26:0] D,
    input  wire [4:0]  INMODE,
    input  wire        MULTSIGNIN,
    input  wire [8:0]  OPMODE,
    input  wire [47:0] PCIN,
    input  wire        RSTA, RSTALLCARRYIN, RSTALUMODE, RSTB, RSTC,
    input  wire        RSTCTRL, RSTD, RSTINMODE, RSTM, RSTP
);
    reg [29:0] a1, a2;
    reg [17:0] b1, b2;
    reg [47:0] m, p;
    reg [47:0] z;
    wire [1:0] opx = OPMODE[1:0], opy = OPMODE[3:2], opw = OPMODE[8:7];
    wire [2:0] opz = OPMODE[6:4];

    initial begin
        if (!(AREG == 1 || AREG == 2) || ACASCREG < 1 || ACASCREG > AREG ||
            !(BREG == 1 || BREG == 2) || BCASCREG < 1 || BCASCREG > BREG ||
            MREG != 1 || PREG != 1 || INMODEREG != 0 || OPMODEREG != 0 ||
            ALUMODEREG != 0 || CARRYINREG != 0 || CARRYINSELREG != 0 ||
            A_INPUT != "DIRECT" || B_INPUT != "DIRECT" || AMULTSEL != "A" ||
            BMULTSEL != "B" || USE_MULT != "MULTIPLY" || USE_SIMD != "ONE48" ||
            USE_PATTERN_DETECT != "NO_PATDET" || USE_WIDEXOR != "FALSE") begin
            $display("FAIL: DSP48E2 %m: attributes outside the modelled subset");
            $finish;
        end
    end

    always @(posedge CLK) begin
        if (INMODE !== 5'b00000 || ALUMODE !== 4'b0000 || CARRYINSEL !== 3'b000 ||
            CARRYIN !== 1'b0 || opw !== 2'b00 || opx !== opy || opx[1] !== 1'b0 ||
            !(opz === 3'b000 || opz === 3'b001 || opz === 3'b010) ||
            {RSTA, RSTALLCARRYIN, RSTALUMODE, RSTB, RSTC, RSTCTRL, RSTD,
             RSTINMODE, RSTM, RSTP} !== 10'd0) begin
            $display("FAIL: DSP48E2 %m: controls outside the modelled subset (OPMODE %b INMODE %b ALUMODE %b)",
                     OPMODE, INMODE, ALUMODE);
            $finish;
        end
        if (CEA1) a1 <= A;
        if (CEA2) a2 <= (AREG == 2) ? a1 : A;
        if (CEB1) b1 <= B;
        if (CEB2) b2 <= (BREG == 2) ? b1 : B;
        if (CEM)  m  <= $signed(a2[26:0]) * $signed(b2);
        if (CEP)  p  <= ((opx == 2'b01) ? m : 48'd0) + z;
    end
    always @(*)
        case (opz)
            3'b001:  z = PCIN;
            3'b010:  z = p;
            default: z = 48'd0;
        endcase

    assign P = p;
    assign PCOUT = p;
    assign ACOUT = 30'd0;
    assign BCOUT = 18'd0;
    assign CARRYCASCOUT = 1'b0;
    assign CARRYOUT = 4'd0;
    assign MULTSIGNOUT = 1'b0;
    assign OVERFLOW = 1'b0;
    assign UNDERFLOW = 1'b0;
    assign PATTERNDETECT = 1'b0;
    assign PATTERNBDETECT = 1'b0;
    assign XOROUT = 8'd0;
endmodule
