// The integer ALU against the independent reference (ref_alu.v), every op
// code, every type code, every operand: a proof of the ALU's two stages.
// The operand stage registers op, type and sources at a `pipe_advance`
// edge; in the cycle after, the execute stage's outputs, on whatever old
// value arrives, are the reference's on the operands of that edge. The
// wrapper keeps its own copy of the operands, so the claim needs no
// knowledge of the ALU's registers, and 1-step induction closes it (the
// state after an advance edge is a function of that edge's inputs alone).
//
// ALU: the emitted top (atomport_alu_w32_int, ...); BITS its width.
`default_nettype none
module alu_props #(parameter BITS = 32) (
    input wire         clock,
    input wire         pipe_advance,
    input wire [4:0]   op,
    input wire [3:0]   ty,
    input wire         ftz,
    input wire [127:0] src0,
    input wire [127:0] src1,
    input wire [127:0] old_value
);
    wire [127:0] new_true, new_false, ret_value, float_value;
    wire         new_cond, float_op;
    `ALU dut (.clock(clock), .pipe_advance(pipe_advance), .op(op), .ty(ty), .ftz(ftz), .src0(src0),
              .src1(src1), .old_value(old_value), .new_true(new_true), .new_false(new_false),
              .new_cond(new_cond), .ret_value(ret_value), .float_op(float_op), .float_value(float_value));

    reg         advanced = 1'b0;   // the last edge was a pipe_advance edge
    reg [4:0]   op_q;
    reg [3:0]   ty_q;
    reg [127:0] src0_q, src1_q;
    always @(posedge clock) begin
        advanced <= pipe_advance;
        if (pipe_advance) begin
            op_q <= op;
            ty_q <= ty;
            src0_q <= src0;
            src1_q <= src1;
        end
    end

    wire [127:0] ref_new, ref_ret;
    ref_alu #(.BITS(BITS)) reference (.op(op_q), .ty(ty_q), .old_value(old_value), .src0(src0_q),
                                      .src1(src1_q), .new_value(ref_new), .ret_value(ref_ret));
    wire [127:0] rtl_new = new_cond ? new_true : new_false;

    always @* if (advanced) begin
        alu_new: assert (rtl_new == ref_new);
        alu_ret: assert (ret_value == ref_ret);
        // an integer build never claims an op for the float datapath
        alu_no_float: assert (!float_op && float_value == 128'd0);
        // not vacuous: a signed min that takes src0, a PTX dec that wraps to src0, a cmpxchg that swaps
        alu_cover_imin: cover (op_q == 5'h0b && ty_q == 4'd1 && rtl_new == (src0_q & 32'hffffffff) && src0_q[31] && !old_value[31]);
        alu_cover_dec_bound: cover (op_q == 5'h14 && old_value[15:0] == 16'd0 && rtl_new[15:0] == src0_q[15:0] && src0_q[15:0] != 16'd0);
        alu_cover_cmpxchg: cover (op_q == 5'h07 && ty_q == 4'd0 && rtl_new[15:0] != old_value[15:0]);
    end
endmodule
