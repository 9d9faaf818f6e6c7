// WriteAlign (`write_align`) in the integer 32-bit unit, as its parent drives
// and reads it (hdl/src/unit.rs, hdl/src/head_select.rs).
//
// Inputs: the write stage's element. Its byte enables are the element's
// bytes: 1, 2 or 4 of them, naturally aligned (a misaligned lane makes no
// memory access, so it never writes), and its bit offset is 8 x its lowest
// byte. The value is left free.
//
// Outputs: `data` is the memory port's write data (a design output): every
// bit is compared. `mask` is read only by HeadSelect's `with_late`, when the
// write overlaps the head's element (`head.late_overlaps`), and only through the
// head's element bytes (`old_value`). Two naturally aligned elements of at
// most 4 bytes that overlap lie in one aligned 32-bit word, so the mask is
// compared on the word of the written bytes only.
module context(input [127:0] value, input [6:0] bit_offset, input [15:0] byte_enables);
  wire [127:0] data_gold, mask_gold, data_gate, mask_gate;
  gold gold(.\execute.w_new.q (value), .\execute.w_bit_offset.q (bit_offset), .\execute.w_byte_enables.q (byte_enables),
            .\head_select.late_data (data_gold), .\head_select.late_mask (mask_gold));
  gate gate(.\execute.w_new.q (value), .\execute.w_bit_offset.q (bit_offset), .\execute.w_byte_enables.q (byte_enables),
            .\head_select.late_data (data_gate), .\head_select.late_mask (mask_gate));

  reg legal;
  reg [6:0] low_bit;
  reg [127:0] word;
  integer i;
  always @* begin
    legal = 0;
    low_bit = 0;
    for (i = 0; i < 16; i = i + 1) if (byte_enables == (16'h1 << i)) begin legal = 1; low_bit = 8 * i; end
    for (i = 0; i < 16; i = i + 2) if (byte_enables == (16'h3 << i)) begin legal = 1; low_bit = 8 * i; end
    for (i = 0; i < 16; i = i + 4) if (byte_enables == (16'hf << i)) begin legal = 1; low_bit = 8 * i; end
    word = {96'h0, 32'hffffffff} << {low_bit[6:5], 5'b0};
  end
  always @* if (legal && bit_offset == low_bit) assert (data_gate == data_gold && ((mask_gate ^ mask_gold) & word) == 0);
endmodule
