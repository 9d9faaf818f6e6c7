// WriteAlign (`write_align`) in the serial integer 32-bit unit, as its parent
// drives and reads it (hdl/src/serial_unit.rs).
//
// Inputs: the element's registers. Its byte enables (`e_byte_enables`, which
// drives `mem_rd_be`) are the element's bytes: 1, 2 or 4 of them, naturally
// aligned (a misaligned lane makes no memory access, so it never writes), and
// its bit offset is 8 x its lowest byte. The value (`new_value`, 0 at power-up)
// is 0 above the element's bytes: a scatter block's is masked by the element's
// mask, an atomic's is the ALU's result, masked to the ALU's width, which the
// decoder takes from the same type as the element's size (16-bit types: 2
// bytes; the others: 4; 64-bit types are illegal in this build). Its bytes
// within the element are left free.
//
// Outputs: read only as `data & mask`, the memory port's write data (a design
// output, every bit compared).
module context(input [127:0] value, input [6:0] bit_offset, input [15:0] byte_enables);
  wire [127:0] data_gold, mask_gold, data_gate, mask_gate;
  gold gold(.\new_value.q (value), .\e_bit_offset.q (bit_offset), .mem_rd_be (byte_enables),
            .\write_align.data (data_gold), .\write_align.mask (mask_gold));
  gate gate(.\new_value.q (value), .\e_bit_offset.q (bit_offset), .mem_rd_be (byte_enables),
            .\write_align.data (data_gate), .\write_align.mask (mask_gate));

  reg legal;
  reg [6:0] low_bit;
  reg [127:0] element;
  integer i;
  always @* begin
    legal = 0;
    low_bit = 0;
    element = 0;
    for (i = 0; i < 16; i = i + 1) if (byte_enables == (16'h1 << i)) begin legal = 1; low_bit = 8 * i; element = 128'hff; end
    for (i = 0; i < 16; i = i + 2) if (byte_enables == (16'h3 << i)) begin legal = 1; low_bit = 8 * i; element = 128'hffff; end
    for (i = 0; i < 16; i = i + 4) if (byte_enables == (16'hf << i)) begin legal = 1; low_bit = 8 * i; element = 128'hffffffff; end
  end
  always @* if (legal && bit_offset == low_bit && (value & ~element) == 0) assert ((data_gate & mask_gate) == (data_gold & mask_gold));
endmodule
