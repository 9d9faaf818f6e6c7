// An independent reference of the atomic ALU's integer ops, written from
// the op table (isa/src/lib.rs `AluOp`, `ElemType`) and the golden model's
// op function (core/src/golden/atomic_ops.rs `apply`, `int_op`), not from
// the rust-hdl ALU. Combinational: the element's op, type and sources (as
// the ALU's operand stage took them) and its old value in, the value
// written back and the value returned out.
//
// BITS is the build's widest element (32, 64 or 128), as `AtomicAlu::new(BITS,
// false)`: an integer build has no float datapath.
// What the golden model leaves to the build (hdl/src/alu.rs, module doc):
//  * a type wider than the build, or a type code outside `ElemType`, has
//    no width: both outputs are 0;
//  * the float ops (fmax, fmin, fcmpwr, PTX fmin/fmax, and add at a float
//    type) are not built: memory is unchanged (new = old); the unit
//    rejects such messages in an integer build;
//  * an op code outside `AluOp` leaves memory unchanged.
`default_nettype none
module ref_alu #(parameter BITS = 32) (
    input  wire [4:0]   op,
    input  wire [3:0]   ty,
    input  wire [127:0] old_value,
    input  wire [127:0] src0,
    input  wire [127:0] src1,
    output reg  [127:0] new_value,
    output reg  [127:0] ret_value
);
    // ElemType codes and their widths (ElemType::bits)
    localparam [3:0] B16 = 4'd0, B32 = 4'd1, B64 = 4'd2, B128 = 4'd3, F16 = 4'd4, BF16 = 4'd5,
                     F32 = 4'd6, F64 = 4'd7, F16X2 = 4'd8, BF16X2 = 4'd9;
    // AluOp codes
    localparam [4:0] ADD = 5'h00, SUB = 5'h01, INC = 5'h02, DEC = 5'h03, MIN = 5'h04, MAX = 5'h05,
                     XCHG = 5'h06, CMPXCHG = 5'h07, AND = 5'h08, OR = 5'h09, XOR = 5'h0a,
                     IMIN = 5'h0b, IMAX = 5'h0c, PREDEC = 5'h0d, FMAX = 5'h10, FMIN = 5'h11,
                     FCMPWR = 5'h12, INC_BOUND = 5'h13, DEC_BOUND = 5'h14, FMIN_PTX = 5'h16,
                     FMAX_PTX = 5'h17;

    reg [7:0]   type_width; // the type's width; 0: no such type
    reg [7:0]   width;      // 0: no width in this build
    reg [127:0] mask;
    reg [127:0] o, a, b, sign, r;
    reg         is_float_type, float_op, bitwise, known;

    always @* begin
        // (a chain of conditions, not a case: Yosys turns a constant case
        // into a ROM, whose contents induction would not assume)
        if (ty == B16 || ty == F16 || ty == BF16)                  type_width = 8'd16;
        else if (ty == B32 || ty == F32 || ty == F16X2 || ty == BF16X2) type_width = 8'd32;
        else if (ty == B64 || ty == F64)                           type_width = 8'd64;
        else if (ty == B128)                                       type_width = 8'd128;
        else                                                       type_width = 8'd0;
        width = (type_width > BITS) ? 8'd0 : type_width;
        mask = (width == 8'd128) ? {128{1'b1}} : ((128'd1 << width) - 128'd1);
        sign = (width == 8'd0) ? 128'd0 : (128'd1 << (width - 8'd1));
        o = old_value & mask;
        a = src0 & mask;
        b = src1 & mask;
        is_float_type = (ty == F16) || (ty == BF16) || (ty == F32) || (ty == F64) || (ty == F16X2) || (ty == BF16X2);
        float_op = (op == FMAX) || (op == FMIN) || (op == FCMPWR) || (op == FMIN_PTX) || (op == FMAX_PTX)
                   || (op == ADD && is_float_type);
        bitwise = (op == XCHG) || (op == CMPXCHG) || (op == AND) || (op == OR) || (op == XOR);
        // the ops that add or order take at most 64 bits (ALU_ARITH_BITS)
        r = o;
        if (!float_op && (bitwise || width <= 8'd64)) begin
            case (op)
                ADD:       r = o + a;
                SUB:       r = o - a;
                INC:       r = o + 128'd1;
                DEC:       r = o - 128'd1;
                MIN:       r = (a < o) ? a : o;
                MAX:       r = (a > o) ? a : o;
                XCHG:      r = a;
                CMPXCHG:   r = (o == b) ? a : o;
                AND:       r = o & a;
                OR:        r = o | a;
                XOR:       r = o ^ a;
                // signed order at the width: compare with the sign bit flipped
                IMIN:      r = ((a ^ sign) < (o ^ sign)) ? a : o;
                IMAX:      r = ((a ^ sign) > (o ^ sign)) ? a : o;
                PREDEC:    r = o - 128'd1;
                INC_BOUND: r = (o >= a) ? 128'd0 : o + 128'd1;
                DEC_BOUND: r = (o == 128'd0 || o > a) ? a : o - 128'd1;
                default:   r = o;
            endcase
        end
        new_value = r & mask;
        ret_value = (op == PREDEC) ? new_value : o;
    end
endmodule
