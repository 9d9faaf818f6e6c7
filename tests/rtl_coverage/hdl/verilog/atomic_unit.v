module atomic_unit(wide);
  input [63:0] wide;
  always @(*) begin
    if (wide[0]) x = 1; else x = 0;
  end
endmodule
