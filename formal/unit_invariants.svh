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
    // these probes for unit_l8_w32_int's no_orphan.) With these, no_orphan
    // on the pipelined build is 2-inductive: ABC's ind proves the step
    // (run.py engine "abc ind"; yices on the SMT model does not decide it).
    // the stages' valid flags and whether each holds a message's last
    // operation (its last lane in N and I, the operation with msg_last from
    // T on), the table's entries, the write skid's waiting write
    wire       probe_r_valid, probe_d_valid, probe_n_valid, probe_n_last, probe_i_valid, probe_i_last;
    wire       probe_t_valid, probe_t_last, probe_l_valid, probe_l_last, probe_a_valid, probe_a_last;
    wire       probe_x_valid, probe_x_last, probe_x2_valid, probe_x2_last, probe_w_last;
    wire       probe_s_full, probe_s_last, probe_rs_full;
    wire [7:0] probe_ent_valid, probe_ent_last;   // bit k: entry k (run.py connects each bit)
    wire       probe_t_error, probe_l_error, probe_a_error, probe_x_error, probe_x2_error, probe_w_error, probe_s_error;
    wire [7:0] probe_ent_error;
    // the reads: each entry's kind (2: read-modify-write, which reads), read
    // sequence number and returned flag (the head's: HeadLine's copy, hq_*)
    wire [7:0] probe_ent_returned;
    wire [1:0] probe_ent_kind0, probe_ent_kind1, probe_ent_kind2, probe_ent_kind3;
    wire [1:0] probe_ent_kind4, probe_ent_kind5, probe_ent_kind6, probe_ent_kind7;
    wire [3:0] probe_ent_seq0, probe_ent_seq1, probe_ent_seq2, probe_ent_seq3;
    wire [3:0] probe_ent_seq4, probe_ent_seq5, probe_ent_seq6, probe_ent_seq7;
    wire       probe_hq_valid, probe_hq_returned;
    wire [1:0] probe_hq_kind;
    wire [3:0] probe_hq_read_seq;
    wire       probe_n_marker, probe_i_marker;
    wire [1:0] ent_kind [0:7];
    wire [3:0] ent_seq [0:7];
    assign ent_kind[0] = probe_ent_kind0; assign ent_kind[1] = probe_ent_kind1;
    assign ent_kind[2] = probe_ent_kind2; assign ent_kind[3] = probe_ent_kind3;
    assign ent_kind[4] = probe_ent_kind4; assign ent_kind[5] = probe_ent_kind5;
    assign ent_kind[6] = probe_ent_kind6; assign ent_kind[7] = probe_ent_kind7;
    assign ent_seq[0] = probe_ent_seq0; assign ent_seq[1] = probe_ent_seq1;
    assign ent_seq[2] = probe_ent_seq2; assign ent_seq[3] = probe_ent_seq3;
    assign ent_seq[4] = probe_ent_seq4; assign ent_seq[5] = probe_ent_seq5;
    assign ent_seq[6] = probe_ent_seq6; assign ent_seq[7] = probe_ent_seq7;
    // an entry waits for its read: valid, read-modify-write, not returned
    // (the head's flag is HeadLine's)
    reg  [7:0] ent_waiting;
    reg  [3:0] waiting_count;
    reg        seq_ok;
    integer e, f;
    reg [3:0] younger;
    always @* begin
        waiting_count = 4'd0;
        seq_ok = 1'b1;
        for (e = 0; e < 8; e = e + 1) begin
            // reads go out as entries are allocated, in ring order: an
            // entry's sequence number plus the read-modify-write entries
            // from it to the tail is read_issue_seq
            younger = 4'd0;
            for (f = 0; f < 8; f = f + 1)
                if (probe_ent_valid[f] && ent_kind[f] == 2'd2 && 3'(f - probe_head_ptr) >= 3'(e - probe_head_ptr))
                    younger = younger + 4'd1;
            if (probe_ent_valid[e] && ent_kind[e] == 2'd2 && 4'(ent_seq[e] + younger) != probe_read_issue)
                seq_ok = 1'b0;
            ent_waiting[e] = probe_ent_valid[e] && ent_kind[e] == 2'd2
                             && !((e == probe_head_ptr) ? probe_hq_returned : probe_ent_returned[e]);
            waiting_count = waiting_count + ent_waiting[e];
            // a read-modify-write entry waits exactly when its read is
            // among those issued and not returned
            if (probe_ent_valid[e] && ent_kind[e] == 2'd2
                && ent_waiting[e] != (4'(ent_seq[e] - probe_read_return) < 4'(probe_read_issue - probe_read_return)))
                seq_ok = 1'b0;
            // (not the head: its flag there is HeadLine's copy)
            if (probe_ent_valid[e] && ent_kind[e] == 2'd2 && e != probe_head_ptr
                && probe_ent_returned[e] != (4'(ent_seq[e] - probe_read_return) >= 4'(probe_read_issue - probe_read_return)))
                seq_ok = 1'b0;
        end
    end
    wire [3:0] probe_read_issue, probe_read_return, probe_occupancy;
    wire [2:0] probe_head_ptr, probe_tail_ptr, probe_head_next_ptr;
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
    function automatic [7:0] ring_valid(input [2:0] head, input [3:0] occupancy);
        integer k;
        for (k = 0; k < 8; k = k + 1) ring_valid[k] = {1'b0, 3'(k - head)} < occupancy;
    endfunction
    // the operations in flight, youngest first: R, D (a message each), the
    // lanes in N and I, the operations in T, L, A, the table (its youngest
    // entry at tail - 1), X, X2, W, the write skid. Every operation belongs
    // to a message whose last operation is at it or younger, so the
    // youngest one is a last one (or a message in R or D)
    wire youngest_last = probe_r_valid ? 1'b1 : probe_d_valid ? 1'b1 : probe_n_valid ? probe_n_last
        : probe_i_valid ? probe_i_last : probe_t_valid ? probe_t_last : probe_l_valid ? probe_l_last
        : probe_a_valid ? probe_a_last : (probe_occupancy != 4'd0) ? probe_ent_last[3'(probe_tail_ptr - 3'd1)]
        : probe_x_valid ? probe_x_last : probe_x2_valid ? probe_x2_last : probe_w_valid ? probe_w_last
        : probe_s_full ? probe_s_last : 1'b1;
    always @* if (running) begin
        inv_youngest_last: assert (youngest_last);
        // a marker (an illegal message's or one without lanes) is its message's last lane
        inv_marker_last: assert (!(probe_n_valid && probe_n_marker && !probe_n_last) && !(probe_i_valid && probe_i_marker && !probe_i_last));
        // an error (rsp_error) rides only on a message's last operation
        inv_error_last: assert (!(probe_t_valid && probe_t_error && !probe_t_last) && !(probe_l_valid && probe_l_error && !probe_l_last)
            && !(probe_a_valid && probe_a_error && !probe_a_last) && (probe_ent_valid & probe_ent_error & ~probe_ent_last) == 8'd0
            && !(probe_x_valid && probe_x_error && !probe_x_last) && !(probe_x2_valid && probe_x2_error && !probe_x2_last)
            && !(probe_w_valid && probe_w_error && !probe_w_last) && !(probe_s_full && probe_s_error && !probe_s_last));
        inv_messages: assert (in_flight == pipe_messages);
        // reads: issued (read_issue_seq) = accepted or waiting in the read
        // skid; accepted = returned (read_return_seq) or outstanding
        inv_reads: assert (probe_read_issue - probe_read_return == rd_out[3:0] + probe_rs_full);
        // the table: its occupancy counts its valid entries; each entry's
        // read goes out as it is allocated and the entry leaves only after
        // its read returned, so the reads not returned fit in it
        inv_occupancy: assert (probe_occupancy <= 4'd8 && probe_tail_ptr == probe_head_ptr + probe_occupancy[2:0]);
        // the valid entries run from the head, in a ring
        inv_entry_valid: assert (probe_ent_valid == ring_valid(probe_head_ptr, probe_occupancy));
        inv_reads_in_table: assert (4'(probe_read_issue - probe_read_return) <= probe_occupancy);
        // the head registers copy the head entry
        inv_head: assert (probe_head_next_ptr == probe_head_ptr + 3'd1 && probe_hq_valid == (probe_occupancy != 4'd0)
                          && (probe_occupancy == 4'd0 || (probe_hq_kind == ent_kind[probe_head_ptr]
                                                          && probe_hq_read_seq == ent_seq[probe_head_ptr])));
        // the reads not returned are those of the entries waiting, one each
        inv_waiting: assert (4'(probe_read_issue - probe_read_return) == waiting_count && seq_ok);
    end
`endif
