// Helper invariants of the serial build (hdl/src/serial_unit.rs), for
// k-induction: facts about its registers that hold in every reachable
// state, each asserted (so proven) with the property it helps. Included
// in unit_props.sv with INV_SERIAL; run.py connects the probes.
    wire [3:0]   probe_state;       // SerialState: Idle 0, Decode 1, Select 2, Read 7, Write 10, Done 12
    wire         probe_reset_q, probe_rd_valid, probe_wr_valid, probe_rsp_valid, probe_rsp_done, probe_rsp_error;
    wire         probe_obs_valid, probe_msg_error;
    wire [127:0] probe_r_desc;
    localparam [3:0] S_IDLE = 4'd0, S_DECODE = 4'd1, S_READ = 4'd7, S_WRITE = 4'd10, S_DONE = 4'd12;
    // the registered reset is high in boot cycles 1 and 2; from cycle 2
    // on, the registers hold what the reset left or what followed
    always @* if (boot != 2'd0) inv_reset_q: assert (probe_reset_q == !running);
    always @* if (boot >= 2'd2) begin
        inv_state_code: assert (probe_state <= S_DONE);
        // the request valids come from a register set on entering their state
        inv_read_state: assert (probe_rd_valid == (probe_state == S_READ));
        inv_write_state: assert (!probe_wr_valid || probe_state == S_WRITE);
        // the one-cycle outputs are registered from Next / Done / Write
        inv_done_idle: assert (!probe_rsp_done || probe_state == S_IDLE);
`ifdef CHECK_NO_ORPHAN
        // one message at a time: in flight from the take (Idle -> Decode)
        // until its rsp_done, which shows in the Idle after Done
        inv_in_flight: assert (in_flight == (probe_state != S_IDLE) + probe_rsp_done);
        inv_reads_out: assert (rd_out == (probe_state == 4'd8));   // Return waits for the one read
        inv_rsp_in_message: assert (!(probe_rsp_valid || probe_obs_valid) || probe_state != S_IDLE);
`endif
`ifdef CHECK_ILLEGAL
        // only illegal messages: the FSM never leaves Idle, Decode, Done
        inv_illegal_states: assert (probe_state == S_IDLE || probe_state == S_DECODE || probe_state == S_DONE);
        inv_illegal_decoding: assert (probe_state != S_DECODE || illegal_desc(probe_r_desc));
        inv_illegal_done_error: assert (probe_state != S_DONE || probe_msg_error);
        inv_illegal_quiet: assert (!probe_rsp_valid && !probe_obs_valid && (!probe_rsp_done || probe_rsp_error));
`endif
`ifdef CHECK_RESET_QUIET
        if (running) inv_quiet_idle: assert (taken_any || (probe_state == S_IDLE && !probe_rsp_valid && !probe_rsp_done
                                               && !probe_rsp_error && !probe_obs_valid));
`endif
    end
