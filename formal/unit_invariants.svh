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
`ifdef INV_MESSAGES
    // (the small build only: an integer build's X2 feeds W; run.py connects
    // these probes for unit_l8_w32_int's no_orphan and write_place.) With these, no_orphan
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
        inv_reads_out: assert (rd_out <= MAX_READS);
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
`ifdef CHECK_WRITE_BYTES
    // (the small build only; run.py connects these probes for
    // unit_l8_w32_int's write_place, after memory_map, so that the table's
    // line, byte-enable and lane rows are registers.) Every stage holding an
    // operation that touches memory (read-modify-write or write) holds a
    // legal one: its line 16-byte aligned, its byte enables one aligned
    // element of at most ELEM_BYTES, its space the message's, its lane
    // enabled in the message; the address stages hold an address aligned
    // to an element size the build has. With WRITE_PLACE (lines and byte
    // shapes) the space and lane parts are left out: so, with the message
    // counts of INV_MESSAGES, write_place is 2-inductive (ABC's ind).
    // Without it (the space and lane too) neither ABC's ind nor smtbmc
    // decided the step (docs/formal.md); the data part has no invariants
    // here. TYPED_ATOMIC's addresses (ENV_NO_TYPED excludes them) would
    // need invariants on the typed walk's products.
    localparam [1:0] K_NONE = 2'd1, K_RMW = 2'd2, K_WRITE = 2'd3;
    wire        probe_t_typed, probe_l_typed, probe_t_walk, probe_l_walk, probe_d_typed, probe_n_typed, probe_ctx_typed;
    wire [1:0]  probe_t_kind, probe_l_kind, probe_a_kind, probe_x_kind, probe_x2_kind, probe_w_kind;
    wire [2:0]  probe_t_size, probe_l_size, probe_ctx_elem_size, probe_n_elem_size, probe_d_elem_size;
    wire [63:0] probe_t_addr, probe_l_addr, probe_elem_offset;
    wire        probe_t_space, probe_l_space, probe_a_space, probe_x_space, probe_x2_space, probe_w_space, probe_s_space;
    wire        probe_r_space, probe_hq_space, probe_ctx_space, probe_n_space, probe_d_space;
    wire [7:0]  probe_ent_space;
    wire [63:0] probe_a_line, probe_x_line, probe_x2_line, probe_w_line, probe_s_line, probe_r_line, probe_hq_line;
    wire [15:0] probe_a_be, probe_x_be, probe_x2_be, probe_w_be, probe_s_be, probe_r_be, probe_hq_be;
    wire [4:0]  probe_t_lane, probe_l_lane, probe_a_lane, probe_x_lane, probe_x2_lane, probe_w_lane, probe_s_lane;
    wire [4:0]  probe_i_lane, probe_n_lane;
    wire        probe_x_writes, probe_x2_writes;
    wire        probe_i_illegal, probe_n_illegal, probe_d_illegal, probe_d_no_lanes;
    wire [31:0] probe_d_lanes, probe_lanes_left;
    wire        probe_left_few, probe_d_lanes_few;
    wire        probe_issue_next;   // issue_state: NextLane (lanes_left holds the lanes still to go)
    wire [127:0] probe_r_desc;
    wire [31:0] probe_r_dmask, probe_r_pred_mask;
    wire [63:0] probe_ent_line0, probe_ent_line1, probe_ent_line2, probe_ent_line3;
    wire [63:0] probe_ent_line4, probe_ent_line5, probe_ent_line6, probe_ent_line7;
    wire [15:0] probe_ent_be0, probe_ent_be1, probe_ent_be2, probe_ent_be3;
    wire [15:0] probe_ent_be4, probe_ent_be5, probe_ent_be6, probe_ent_be7;
    wire [4:0]  probe_ent_lane0, probe_ent_lane1, probe_ent_lane2, probe_ent_lane3;
    wire [4:0]  probe_ent_lane4, probe_ent_lane5, probe_ent_lane6, probe_ent_lane7;
    wire [63:0] ent_line [0:7];
    wire [15:0] ent_be [0:7];
    wire [4:0]  ent_lane [0:7];
    assign ent_line[0] = probe_ent_line0; assign ent_line[1] = probe_ent_line1; assign ent_line[2] = probe_ent_line2;
    assign ent_line[3] = probe_ent_line3; assign ent_line[4] = probe_ent_line4; assign ent_line[5] = probe_ent_line5;
    assign ent_line[6] = probe_ent_line6; assign ent_line[7] = probe_ent_line7;
    assign ent_be[0] = probe_ent_be0; assign ent_be[1] = probe_ent_be1; assign ent_be[2] = probe_ent_be2;
    assign ent_be[3] = probe_ent_be3; assign ent_be[4] = probe_ent_be4; assign ent_be[5] = probe_ent_be5;
    assign ent_be[6] = probe_ent_be6; assign ent_be[7] = probe_ent_be7;
    assign ent_lane[0] = probe_ent_lane0; assign ent_lane[1] = probe_ent_lane1; assign ent_lane[2] = probe_ent_lane2;
    assign ent_lane[3] = probe_ent_lane3; assign ent_lane[4] = probe_ent_lane4; assign ent_lane[5] = probe_ent_lane5;
    assign ent_lane[6] = probe_ent_lane6; assign ent_lane[7] = probe_ent_lane7;
    function automatic mem_kind(input [1:0] kind);
        mem_kind = kind == K_RMW || kind == K_WRITE;
    endfunction
    // an address of an element of 2^size bytes, aligned to it, the size one the build has
    function automatic addr_ok(input [63:0] addr, input [2:0] size);
        addr_ok = (1 << size) <= ELEM_BYTES && (addr[3:0] & ((4'd1 << size) - 4'd1)) == 4'd0;
    endfunction
    function automatic place_ok(input [63:0] line, input [15:0] be);
        place_ok = line[3:0] == 4'd0 && be_ok(be);
    endfunction
    // each operation's message, by take count: the oldest message not done
    // (after this cycle's rsp_done) plus the messages whose last operation
    // is older than the operation (the write skid, W, X2, X, the table from
    // its head, A, L, T, I, N, D, R)
    wire [5:0] m_s = done + rsp_done;
    wire [5:0] m_w = m_s + (probe_s_full & probe_s_last);
    wire [5:0] m_x2 = m_w + (probe_w_valid & probe_w_last);
    wire [5:0] m_x = m_x2 + (probe_x2_valid & probe_x2_last);
    wire [5:0] m_e = m_x + (probe_x_valid & probe_x_last);  // the head entry's
    // (entry h is 3'(h - head) places from the head)
    function automatic [5:0] m_entry(input [2:0] h);
        integer f;
        begin
            m_entry = m_e;
            for (f = 0; f < 8; f = f + 1)
                if (3'(f - probe_head_ptr) < 3'(h - probe_head_ptr)) m_entry = m_entry + (probe_ent_valid[f] & probe_ent_last[f]);
        end
    endfunction
    wire [5:0] m_a = m_e + count8(probe_ent_valid & probe_ent_last);
    wire [5:0] m_l = m_a + (probe_a_valid & probe_a_last);
    wire [5:0] m_t = m_l + (probe_l_valid & probe_l_last);
    wire [5:0] m_i = m_t + (probe_t_valid & probe_t_last);
    wire [5:0] m_n = m_i + (probe_i_valid & probe_i_last);
    wire [5:0] m_d = m_n + (probe_n_valid & probe_n_last);
    wire [5:0] m_r = m_d + probe_d_valid;
    function automatic lane_on(input [5:0] m, input [4:0] lane);
`ifdef WRITE_PLACE
        lane_on = 1'b1;
`else
        lane_on = msg_enables[m[4:0]][lane];
`endif
    endfunction
    function automatic slm_is(input space, input [5:0] m);
`ifdef WRITE_PLACE
        slm_is = 1'b1;
`else
        slm_is = space == msg_slm[m[4:0]];
`endif
    endfunction
    reg ent_ok;
    integer h;
    always @* begin
        ent_ok = 1'b1;
        for (h = 0; h < 8; h = h + 1)
            if (probe_ent_valid[h] && mem_kind(ent_kind[h])
                && !(place_ok(ent_line[h], ent_be[h]) && slm_is(probe_ent_space[h], m_entry(h)) && lane_on(m_entry(h), ent_lane[h])))
                ent_ok = 1'b0;
    end
    always @* if (running) begin
`ifdef ENV_NO_TYPED
        // (no TYPED_ATOMIC taken) no stage holds one or its address walk
        inv_wb_untyped: assert (!(probe_r_valid && probe_r_desc[7:0] == 8'h73) && !(probe_d_valid && probe_d_typed)
                                && !(probe_n_valid && probe_n_typed) && !(probe_i_valid && probe_ctx_typed)
                                && !(probe_t_valid && probe_t_typed) && !(probe_l_valid && probe_l_typed) && !probe_t_walk && !probe_l_walk);
`endif
        // the request and decode stages: the message's descriptor and its decoding
`ifndef WRITE_PLACE
        inv_wb_r: assert (!probe_r_valid || (desc_enables(probe_r_desc, probe_r_dmask, probe_r_pred_mask) == msg_enables[m_r[4:0]]
                                              && desc_slm(probe_r_desc) == msg_slm[m_r[4:0]]));
        inv_wb_d: assert (!probe_d_valid || probe_d_illegal || ((probe_d_lanes & ~msg_enables[m_d[4:0]]) == 32'd0
                                                                 && slm_is(probe_d_space, m_d)));
`endif
        // lanes go out one at a time from the decode stage's message: after
        // the first, it is a legal one with lanes (markers go alone)
        inv_wb_next: assert (!probe_issue_next || (probe_d_valid && !probe_d_illegal && !probe_d_no_lanes
                                                    && probe_lanes_left[7:0] != 8'd0 && (probe_lanes_left & ~probe_d_lanes) == 32'd0
                                                    && probe_left_few == (count8(probe_lanes_left[7:0]) <= 4'd1)));
        // the decode stage's lanes: none is a marker; one is a last lane
        inv_wb_d_lanes: assert (!probe_d_valid || probe_d_illegal || (probe_d_no_lanes == (probe_d_lanes[7:0] == 8'd0)
                                                                       && probe_d_lanes[31:8] == 24'd0
                                                                       && probe_d_lanes_few == (count8(probe_d_lanes[7:0]) <= 4'd1)));
        inv_wb_marker: assert (!(probe_n_valid && probe_n_illegal && !probe_n_marker) && !(probe_i_valid && probe_i_illegal && !probe_i_marker));
`ifndef WRITE_PLACE
        inv_wb_left: assert (!(probe_d_valid && probe_issue_next) || (probe_lanes_left & ~msg_enables[m_d[4:0]]) == 32'd0);
`endif
        // the lane stages
        inv_wb_n: assert (!probe_n_valid || probe_n_marker || (lane_on(m_n, probe_n_lane) && slm_is(probe_n_space, m_n)
                                                               && (1 << probe_n_elem_size) <= ELEM_BYTES));
        inv_wb_d_size: assert (!probe_d_valid || probe_d_illegal || (1 << probe_d_elem_size) <= ELEM_BYTES);
        // a lane's elements start at its address
        inv_wb_i_offset: assert (probe_i_valid || probe_elem_offset == 64'd0);
        inv_wb_i: assert (!probe_i_valid || probe_i_marker || (lane_on(m_i, probe_i_lane) && slm_is(probe_ctx_space, m_i)
                                                               && (1 << probe_ctx_elem_size) <= ELEM_BYTES
                                                               && (probe_elem_offset[3:0] & ((4'd1 << probe_ctx_elem_size) - 4'd1)) == 4'd0));
        // the address stages
        inv_wb_t: assert (!(probe_t_valid && mem_kind(probe_t_kind)) || ((probe_t_typed || addr_ok(probe_t_addr, probe_t_size))
                          && slm_is(probe_t_space, m_t) && lane_on(m_t, probe_t_lane)));
        inv_wb_l: assert (!(probe_l_valid && mem_kind(probe_l_kind)) || ((probe_l_typed || addr_ok(probe_l_addr, probe_l_size))
                          && slm_is(probe_l_space, m_l) && lane_on(m_l, probe_l_lane)));
        inv_wb_a: assert (!(probe_a_valid && mem_kind(probe_a_kind)) || (place_ok(probe_a_line, probe_a_be)
                          && slm_is(probe_a_space, m_a) && lane_on(m_a, probe_a_lane)));
        // the table, the head's copies
        inv_wb_ent: assert (ent_ok);
        inv_wb_hq: assert (probe_occupancy == 4'd0 || !mem_kind(probe_hq_kind) || (probe_hq_line == ent_line[probe_head_ptr] && probe_hq_be == ent_be[probe_head_ptr]
                                                      && probe_hq_space == probe_ent_space[probe_head_ptr]));
        // the execute stages, the write skid, the read skid
        inv_wb_x: assert (!probe_x_writes || (probe_x_valid && place_ok(probe_x_line, probe_x_be) && slm_is(probe_x_space, m_x)
                                               && lane_on(m_x, probe_x_lane)));
        inv_wb_x2: assert (!probe_x2_writes || (probe_x2_valid && place_ok(probe_x2_line, probe_x2_be) && slm_is(probe_x2_space, m_x2)
                                                 && lane_on(m_x2, probe_x2_lane)));
        inv_wb_w: assert (!probe_w_writes || (place_ok(probe_w_line, probe_w_be) && slm_is(probe_w_space, m_w)
                                               && lane_on(m_w, probe_w_lane)));
        inv_wb_s: assert (!probe_s_full || (place_ok(probe_s_line, probe_s_be) && slm_is(probe_s_space, m_s)
                                             && lane_on(m_s, probe_s_lane)));
        inv_wb_rs: assert (!probe_rs_full || place_ok(probe_r_line, probe_r_be));
    end
`endif
