// Helper invariants of the pipelined builds (hdl/src/unit.rs: the small
// build unit_l8_w32_int and the full unit share the register names), for
// k-induction: facts about their registers that hold in every reachable
// state, each asserted (so proven) with the property it helps. Included in
// unit_props.sv with INV_PIPELINED; run.py connects the probes.
    wire probe_reset_q, probe_w_valid, probe_w_writes;
    // the registered reset is high in boot cycles 1 and 2
    always @* if (boot != 2'd0) inv_reset_q: assert (probe_reset_q == !running);
    // the write stage writes only an operation it holds
    always @* if (boot >= 2'd2) inv_write_stage: assert (!probe_w_writes || probe_w_valid);
`ifdef CHECK_NO_ORPHAN
    // (the small build only: an integer build's X2 feeds W; run.py connects
    // these probes for unit_l8_w32_int's no_orphan)
    // the stages' valid flags and whether each holds a message's last
    // operation (its last lane in N and I, the operation with msg_last from
    // T on), the table's entries, the write skid's waiting write
    wire       probe_r_valid, probe_d_valid, probe_n_valid, probe_n_last, probe_i_valid, probe_i_last;
    wire       probe_t_valid, probe_t_last, probe_l_valid, probe_l_last, probe_a_valid, probe_a_last;
    wire       probe_x_valid, probe_x_last, probe_x2_valid, probe_x2_last, probe_w_last;
    wire       probe_s_full, probe_s_last, probe_rs_full;
    wire [7:0] probe_ent_valid, probe_ent_last;
    wire [3:0] probe_read_issue, probe_read_return;
    function automatic [3:0] count8(input [7:0] v);
        integer k;
        begin
            count8 = 4'd0;
            for (k = 0; k < 8; k = k + 1) count8 = count8 + v[k];
        end
    endfunction
    // a message is in flight from its take to its rsp_done: in the request
    // stage, the decode stage, or as its last operation in a later stage
    // (the decode stage hands a message on with its last lane)
    wire [5:0] pipe_messages = probe_r_valid + probe_d_valid + (probe_n_valid & probe_n_last)
        + (probe_i_valid & probe_i_last) + (probe_t_valid & probe_t_last) + (probe_l_valid & probe_l_last)
        + (probe_a_valid & probe_a_last) + count8(probe_ent_valid & probe_ent_last)
        + (probe_x_valid & probe_x_last) + (probe_x2_valid & probe_x2_last) + (probe_w_valid & probe_w_last)
        + (probe_s_full & probe_s_last) + rsp_done;
    always @* if (running) begin
        inv_messages: assert (in_flight == pipe_messages);
        // reads: issued (read_issue_seq) = accepted or waiting in the read
        // skid; accepted = returned (read_return_seq) or outstanding
        inv_reads: assert (probe_read_issue - probe_read_return == rd_out[3:0] + probe_rs_full);
    end
`endif
