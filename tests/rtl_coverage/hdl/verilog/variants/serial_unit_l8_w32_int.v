module serial_unit_l8_w32_int(wide);
  input [1:0] wide;
endmodule
