// Properties of the unit's ports (docs/microarchitecture.md "Port table",
// "Memory ordering contract"; docs/formal.md lists them), around an
// emitted top: `DUT` names it (atomic_unit_l8_w32_int,
// serial_unit_l8_w32_int, atomic_unit), one wrapper for all, since the
// builds share their ports. Every DUT input is an input of this module,
// free in every cycle unless an environment `assume` below says otherwise.
//
// One property (or a property and its helper invariants) is checked per
// run: formal/run.py defines CHECK_<NAME>; the environment knobs are
// ENV_* defines (each explained where it is used). Helper invariants read
// the DUT's registers through `probe_*` wires, which run.py connects to
// the flattened design (`connect -set`), as Yosys has no hierarchical
// references; a helper invariant is itself asserted, so it is proven too.
//
// Timing: an immediate assertion in `always @*` checks the values of the
// cycle it is evaluated in; `*_q` registers hold the previous cycle's.
`default_nettype none
module unit_props #(
    parameter LANES = 8,        // lanes built (exec sizes above are rejected like an illegal descriptor)
    parameter ELEM_BYTES = 4,   // widest element or scatter block built
    parameter MAX_READS = 8,    // reads outstanding at most (in-flight table entries; 1 for the serial build)
    parameter LAT = 3,          // ENV_BOUNDED: memory answers a read within LAT cycles
    parameter STALL = 2,        // ENV_BOUNDED: a request is refused at most STALL cycles in a row
    parameter GAP = 16          // CHECK_PROGRESS: most cycles without a port event while a message is in flight
) (
    input wire         clock,
    input wire         reset,
    input wire         req_valid,
    input wire [127:0] req_desc,
    input wire [31:0]  req_dmask,
    input wire [31:0]  req_pred_mask,
    input wire [2:0]   req_surf_kind,
    input wire [63:0]  req_surf_base,
    input wire [63:0]  req_surf_size,
    input wire [31:0]  req_surf_width,
    input wire [31:0]  req_surf_height,
    input wire [31:0]  req_surf_depth,
    input wire [31:0]  req_surf_array,
    input wire [31:0]  req_surf_levels,
    input wire         req_surf_u16,
    input wire [31:0]  req_slm_size,
    input wire [63:0]  pay_addr,
    input wire [127:0] pay_src0,
    input wire [127:0] pay_src1,
    input wire [127:0] pay_coord,
    input wire         mem_rd_ready,
    input wire         mem_rdata_valid,
    input wire [127:0] mem_rdata,
    input wire         mem_wr_ready
);
    wire         req_ready, pay_valid, pay_slot, mem_rd_valid, mem_rd_space, mem_wr_valid, mem_wr_space;
    wire         rsp_valid, rsp_done, rsp_error, obs_valid;
    wire [4:0]   pay_lane, rsp_lane, obs_lane;
    wire [2:0]   obs_elem;
    wire [63:0]  mem_rd_addr, mem_wr_addr;
    wire [15:0]  mem_rd_be, mem_wr_be;
    wire [127:0] mem_wr_data, rsp_data, obs_old, obs_new;

`ifdef ENV_SMALL
    // ENV (the pipelined builds' bounded runs only, where the whole
    // datapath is past the solver at 40 cycles): operand and line data are
    // 0, addresses, bounds and SLM size fit in 8 bits (many lines alias,
    // which exercises the hazards), typed extents are 0. Control does not
    // depend on data values; the properties checked so are the data-free
    // ones (docs/formal.md says which).
    `define SMALL_DATA(x) 128'd0
    `define SMALL_ADDR(x) {56'd0, x[7:0]}
    `define SMALL_32(x) {24'd0, x[7:0]}
    `define SMALL_EXTENT(x) 32'd0
`elsif ENV_SMALL_ADDR
    // ENV (same-address ordering on the serial build): addresses, bounds
    // and SLM size fit in 8 bits (16 lines, which alias often); data and
    // typed extents stay free. Ordering depends on which accesses share a
    // line, not on how far apart the others are.
    `define SMALL_DATA(x) x
    `define SMALL_ADDR(x) {56'd0, x[7:0]}
    `define SMALL_32(x) {24'd0, x[7:0]}
    `define SMALL_EXTENT(x) x
`else
    `define SMALL_DATA(x) x
    `define SMALL_ADDR(x) x
    `define SMALL_32(x) x
    `define SMALL_EXTENT(x) x
`endif
    `DUT dut (
        .clock(clock), .reset(reset), .req_valid(req_valid), .req_ready(req_ready), .req_desc(req_desc),
        .req_dmask(req_dmask), .req_pred_mask(req_pred_mask), .req_surf_kind(req_surf_kind),
        .req_surf_base(`SMALL_ADDR(req_surf_base)), .req_surf_size(`SMALL_ADDR(req_surf_size)),
        .req_surf_width(`SMALL_EXTENT(req_surf_width)), .req_surf_height(`SMALL_EXTENT(req_surf_height)),
        .req_surf_depth(`SMALL_EXTENT(req_surf_depth)), .req_surf_array(`SMALL_EXTENT(req_surf_array)),
        .req_surf_levels(`SMALL_EXTENT(req_surf_levels)), .req_surf_u16(req_surf_u16),
        .req_slm_size(`SMALL_32(req_slm_size)),
        .pay_valid(pay_valid), .pay_lane(pay_lane), .pay_slot(pay_slot), .pay_addr(`SMALL_ADDR(pay_addr)),
        .pay_src0(`SMALL_DATA(pay_src0)), .pay_src1(`SMALL_DATA(pay_src1)), .pay_coord(`SMALL_DATA(pay_coord)),
        .mem_rd_valid(mem_rd_valid), .mem_rd_ready(mem_rd_ready), .mem_rd_addr(mem_rd_addr),
        .mem_rd_space(mem_rd_space), .mem_rd_be(mem_rd_be), .mem_rdata_valid(mem_rdata_valid),
        .mem_rdata(`SMALL_DATA(mem_rdata)), .mem_wr_valid(mem_wr_valid), .mem_wr_ready(mem_wr_ready),
        .mem_wr_addr(mem_wr_addr), .mem_wr_space(mem_wr_space), .mem_wr_data(mem_wr_data), .mem_wr_be(mem_wr_be),
        .rsp_valid(rsp_valid), .rsp_lane(rsp_lane), .rsp_data(rsp_data), .rsp_done(rsp_done), .rsp_error(rsp_error),
        .obs_valid(obs_valid), .obs_lane(obs_lane), .obs_elem(obs_elem), .obs_old(obs_old), .obs_new(obs_new));

    // ================= reset =================
    // boot: cycles since power-up, saturating at 3. The power-up state is
    // arbitrary (run.py removes the registers' initial values), so the
    // reset must bring the unit up: ENV: the pin is high in cycles 0 and 1
    // (it is registered: docs say hold it 2 cycles) and low from then on.
    // The unit is in reset until cycle 3 (`reset_q` high in cycle 2), so
    // the properties hold from cycle 3 (`running`); "after reset" ones from
    // cycle 2, the first cycle whose registers the reset has loaded.
    reg [1:0] boot = 2'd0;
    always @(posedge clock) if (boot != 2'd3) boot <= boot + 2'd1;
    wire running = boot == 2'd3;
    always @* assume (reset == (boot < 2'd2));

    // ================= the request channel =================
    // ENV: the driver holds every req_* input stable from raising req_valid
    // until req_ready takes the message (port table, req_ready).
    wire [708:0] req_bundle = {req_desc, req_dmask, req_pred_mask, req_surf_kind, req_surf_base, req_surf_size,
                               req_surf_width, req_surf_height, req_surf_depth, req_surf_array, req_surf_levels,
                               req_surf_u16, req_slm_size};
    reg         req_wait_q = 1'b0;
    reg [708:0] req_bundle_q;
    always @(posedge clock) begin
        req_wait_q <= req_valid && !req_ready;
        req_bundle_q <= req_bundle;
    end
    always @* if (req_wait_q) assume (req_valid && req_bundle == req_bundle_q);
    wire take = req_valid && req_ready;

    // ================= descriptors: an independent reading =================
    // From docs/descriptors.md, not from the RTL decoder. `illegal_desc`:
    // descriptors illegal by one of these rules (each one a row of the
    // document): an unknown opcode (byte 0, and byte 1 after 0x4e);
    // Exec_size's reserved bit 3 or reserved size codes 6, 7; an exec size
    // above the lanes built (the build rejects it like an illegal
    // descriptor); bytes past the kind's length; a reserved vISA op code
    // (0x0e, 0x0f, 0x13..0x1f) or reserved Op bit 7; the reserved SVM width
    // 3; a reserved PTX op code (10..15), type code (14, 15) or their
    // reserved bits 7..6.
    function automatic [3:0] desc_kind(input [127:0] d); // 1 SVM_ATOMIC 2 SVM_SCATTER 3 DWORD 4 TYPED 5 PTX 0 unknown
        desc_kind = (d[7:0] == 8'h4e && d[15:8] == 8'h05) ? 4'd1 :
                    (d[7:0] == 8'h4e && d[15:8] == 8'h04) ? 4'd2 :
                    (d[7:0] == 8'h7d) ? 4'd3 : (d[7:0] == 8'h73) ? 4'd4 : (d[7:0] == 8'ha7) ? 4'd5 : 4'd0;
    endfunction
    function automatic [7:0] desc_exec(input [127:0] d);
        desc_exec = (d[7:0] == 8'ha7) ? d[47:40] : d[23:16];
    endfunction
    function automatic visa_op_reserved(input [4:0] code);
        visa_op_reserved = code == 5'h0e || code == 5'h0f || code >= 5'h13;
    endfunction
    function automatic illegal_desc(input [127:0] d);
        reg [3:0] kind;
        reg [7:0] ex, op;
        reg [127:0] past_length;
        begin
            kind = desc_kind(d);
            ex = desc_exec(d);
            case (kind)
                4'd1:    past_length = d[127:80];
                4'd2:    past_length = d[127:72];
                4'd3:    past_length = d[127:80];
                default: past_length = d[127:104];
            endcase
            op = (kind == 4'd1) ? d[47:40] : d[15:8];
            illegal_desc = kind == 4'd0
                || ex[3] || ex[2:0] >= 3'd6 || (ex[2:0] > $clog2(LANES))
                || past_length != 128'd0
                || ((kind == 4'd1 || kind == 4'd3 || kind == 4'd4) && (op[7] || visa_op_reserved(op[4:0])))
                || (kind == 4'd1 && op[6:5] == 2'd3)
                || (kind == 4'd5 && (op[3:0] >= 4'd10 || op[7:6] != 2'd0 || d[19:16] >= 4'd14 || d[23:22] != 2'd0));
        end
    endfunction
    // the channel enables of a (legal) message: lanes(exec) & dispatch &
    // predicate (docs/microarchitecture.md "How a message flows", step 2),
    // over the lanes built
    function automatic [31:0] desc_enables(input [127:0] d, input [31:0] dmask, input [31:0] pred_mask);
        reg [7:0]  ex;
        reg [15:0] pred;
        reg [31:0] lanes, dispatch, predicate;
        begin
            ex = desc_exec(d);
            pred = (d[7:0] == 8'ha7) ? d[63:48] : d[39:24];
            lanes = (ex[2:0] >= 3'd5) ? 32'hffffffff : ((32'd1 << (32'd1 << ex[2:0])) - 32'd1);
            dispatch = ex[7] ? 32'hffffffff : (dmask >> (4 * ex[6:4]));
            predicate = (pred == 16'd0) ? 32'hffffffff : (pred[15] ? ~pred_mask : pred_mask);
            desc_enables = lanes & dispatch & predicate & ((LANES >= 32) ? 32'hffffffff : ((32'd1 << LANES) - 32'd1));
        end
    endfunction
    // the space a message's accesses are in: SLM for DWORD_ATOMIC T0 and PTX .shared*
    function automatic desc_slm(input [127:0] d);
        desc_slm = (d[7:0] == 8'h7d && d[47:40] == 8'd0) || (d[7:0] == 8'ha7 && d[26:24] >= 3'd2 && d[26:24] <= 3'd4);
    endfunction

`ifdef ENV_ILLEGAL
    // ENV: every descriptor presented is illegal by one of the rules above
    // (the surface state, payload and memory stay free).
    always @* if (req_valid) assume (illegal_desc(req_desc));
`endif
`ifdef ENV_NO_TYPED
    // ENV: no TYPED_ATOMIC: its address walk takes a data-dependent number
    // of cycles (up to 32 x 68 + 3 x 34 in the serial build), past any
    // bound worth stating in cycles; every other kind stays free.
    always @* if (req_valid) assume (req_desc[7:0] != 8'h73);
`endif

    // ================= messages in flight =================
    // taken: messages req_ready took; done: rsp_done pulses. Messages end
    // in order; a message is in flight from its take to its done.
    // (the wrapper's counters start when the reset is over: zero until then)
    reg [5:0] taken = 6'd0, done = 6'd0;
    wire [5:0] in_flight = taken - done;
    always @(posedge clock) begin
        taken <= running ? taken + take : 6'd0;
        done <= running ? done + rsp_done : 6'd0;
    end
    // what the wrapper read from each message as it was taken, by take count mod 32
    reg [31:0] msg_enables [0:31];
    reg        msg_slm [0:31];
    always @(posedge clock) if (running && take) begin
        msg_enables[taken[4:0]] <= desc_enables(req_desc, req_dmask, req_pred_mask);
        msg_slm[taken[4:0]] <= desc_slm(req_desc);
    end

    // ================= the memory channels =================
    wire rd_accept = mem_rd_valid && mem_rd_ready;
    wire wr_accept = mem_wr_valid && mem_wr_ready;
    // reads accepted in an earlier cycle and not yet returned
    reg [4:0] rd_out = 5'd0;
    always @(posedge clock) rd_out <= running ? rd_out + rd_accept - mem_rdata_valid : 5'd0;
    // ENV: memory returns one line per accepted read, at least one cycle
    // after its acceptance: no return without a read outstanding.
    always @* assume (!mem_rdata_valid || (running && rd_out != 5'd0));

`ifdef ENV_BOUNDED
    // ENV: memory answers the oldest outstanding read within LAT cycles
    // (of its acceptance, or of the return before it), and refuses a
    // request at most STALL cycles in a row.
    reg [7:0] rd_age = 8'd0, rd_stall = 8'd0, wr_stall = 8'd0;
    always @(posedge clock) begin
        if (rd_out != 5'd0 && !mem_rdata_valid) rd_age <= rd_age + 8'd1;
        else if (rd_out > 5'd1 || rd_accept) rd_age <= 8'd1;
        else rd_age <= 8'd0;
        rd_stall <= (mem_rd_valid && !mem_rd_ready) ? rd_stall + 8'd1 : 8'd0;
        wr_stall <= (mem_wr_valid && !mem_wr_ready) ? wr_stall + 8'd1 : 8'd0;
    end
    always @* begin
        if (rd_out != 5'd0 && rd_age >= LAT) assume (mem_rdata_valid);
        if (mem_rd_valid && rd_stall >= STALL) assume (mem_rd_ready);
        if (mem_wr_valid && wr_stall >= STALL) assume (mem_wr_ready);
    end
`endif

    // the previous cycle's requests
    reg         rd_wait_q = 1'b0, wr_wait_q = 1'b0;
    reg [63:0]  rd_addr_q, wr_addr_q;
    reg         rd_space_q, wr_space_q;
    reg [15:0]  rd_be_q, wr_be_q;
    reg [127:0] wr_data_q;
    always @(posedge clock) begin
        rd_wait_q <= mem_rd_valid && !mem_rd_ready;
        wr_wait_q <= mem_wr_valid && !mem_wr_ready;
        rd_addr_q <= mem_rd_addr;
        rd_space_q <= mem_rd_space;
        rd_be_q <= mem_rd_be;
        wr_addr_q <= mem_wr_addr;
        wr_space_q <= mem_wr_space;
        wr_be_q <= mem_wr_be;
        wr_data_q <= mem_wr_data;
    end

    // byte-enable shapes: non-empty, contiguous, a power of two bytes up to
    // ELEM_BYTES, aligned to its size
    function automatic be_ok(input [15:0] be);
        integer size, first;
        reg ok;
        begin
            ok = 1'b0;
            for (size = 1; size <= 16; size = size * 2)
                for (first = 0; first < 16; first = first + size)
                    if (size <= ELEM_BYTES && be == (((17'd1 << size) - 17'd1) << first)) ok = 1'b1;
            be_ok = ok;
        end
    endfunction
    function automatic [127:0] be_bits(input [15:0] be);
        integer k;
        for (k = 0; k < 16; k = k + 1) be_bits[8 * k +: 8] = {8{be[k]}};
    endfunction

    function automatic [3:0] first_byte(input [15:0] be);
        integer k;
        begin
            first_byte = 4'd0;
            for (k = 15; k >= 0; k = k - 1) if (be[k]) first_byte = k;
        end
    endfunction

    // ================= properties =================
`ifdef CHECK_RD_HOLD
    // A read request, once raised, stays on the port with the same line,
    // space and bytes until memory accepts it.
    always @* if (running && rd_wait_q) begin
        rd_hold: assert (mem_rd_valid && mem_rd_addr == rd_addr_q && mem_rd_space == rd_space_q && mem_rd_be == rd_be_q);
    end
    always @* if (running) rd_hold_cover: cover (rd_wait_q && rd_accept);
`endif

`ifdef CHECK_WR_HOLD
    // A write request, once raised, stays on the port unchanged (line,
    // space, bytes, data) until memory accepts it.
    always @* if (running && wr_wait_q) begin
        wr_hold: assert (mem_wr_valid && mem_wr_addr == wr_addr_q && mem_wr_space == wr_space_q
                         && mem_wr_be == wr_be_q && mem_wr_data == wr_data_q);
    end
    always @* if (running) wr_hold_cover: cover (wr_wait_q && wr_accept);
`endif

`ifdef CHECK_NO_ORPHAN
    // No output without a message: a payload read, a memory request, a
    // result, an observation or a done only while a message taken is not
    // done; rsp_error only with rsp_done; at most MAX_READS reads outstanding.
    always @* if (running) begin
        no_orphan_done: assert (!rsp_done || in_flight != 6'd0);
        no_orphan_error: assert (!rsp_error || rsp_done);
        no_orphan_outputs: assert (!(pay_valid || mem_rd_valid || mem_wr_valid || rsp_valid || obs_valid) || in_flight != 6'd0);
        no_orphan_reads: assert (rd_out <= MAX_READS);
        no_orphan_cover_result: cover (rsp_valid);
        no_orphan_cover_done: cover (rsp_done && !rsp_error);
        no_orphan_cover_refused: cover (req_valid && !req_ready && in_flight != 6'd0);
    end
`endif

`ifdef CHECK_ILLEGAL
    // (under ENV_ILLEGAL) an illegal descriptor makes no payload read, no
    // memory read or write and no result, and its message ends in rsp_done
    // with rsp_error.
    always @* if (running) begin
        illegal_no_access: assert (!pay_valid && !mem_rd_valid && !mem_wr_valid && !rsp_valid && !obs_valid);
        illegal_error: assert (!rsp_done || rsp_error);
        illegal_cover: cover (rsp_done && rsp_error);
    end
`endif

`ifdef CHECK_RESET_QUIET
    // After reset no valid is high until a request arrives: from the first
    // cycle after the reset (the registered reset is low) until req_ready
    // takes a message, every valid-like output is low and req_ready is up.
    // (Not from the cycle before, in which the registered reset is still
    // high: there the serial build can show rsp_error without rsp_done,
    // from a message its reset caught in Done; docs/formal.md.)
    reg taken_any = 1'b0;
    always @(posedge clock) taken_any <= running && (taken_any || take);
    always @* if (running && !taken_any) begin
        reset_quiet: assert (!pay_valid && !mem_rd_valid && !mem_wr_valid && !rsp_valid && !rsp_done && !rsp_error && !obs_valid);
    end
    always @* if (running && !taken_any) reset_ready: assert (req_ready);
    always @* if (running) reset_cover: cover (take && !taken_any);
`endif

`ifdef CHECK_PROGRESS
    // (under ENV_BOUNDED, ENV_NO_TYPED) every message taken ends: while one
    // is in flight, some port event (payload read, read or write accepted,
    // read data back, result, done) comes at least every GAP cycles; a
    // message of E memory elements thus ends within (3E + 2) x GAP cycles.
    reg [7:0] quiet = 8'd0;
    wire event_now = pay_valid || rd_accept || wr_accept || mem_rdata_valid || rsp_valid || rsp_done;
    always @(posedge clock) quiet <= (!running || in_flight == 6'd0 || event_now) ? 8'd0 : quiet + 8'd1;
    always @* if (running) begin
        progress: assert (quiet < GAP);
        progress_cover_stall: cover (rsp_done && rd_stall_seen && wr_stall_seen);
    end
    reg rd_stall_seen = 1'b0, wr_stall_seen = 1'b0;
    always @(posedge clock) begin
        if (mem_rd_valid && !mem_rd_ready && running) rd_stall_seen <= 1'b1;
        if (mem_wr_valid && !mem_wr_ready && running) wr_stall_seen <= 1'b1;
    end
`endif

`ifdef CHECK_WRITE_BYTES
    // Writes touch only enabled bytes of enabled lanes of the message in
    // flight, in the space its descriptor names: a write's line is 16-byte
    // aligned, its byte enables one aligned element of at most ELEM_BYTES,
    // its data zero outside them, its space the message's; an atomic write's
    // lane (obs_lane, the cycle after) is enabled in the message. A write
    // belongs to the oldest message not done after this cycle's done
    // (docs/testbench.md, monitor). Reads: the same line and byte shape.
    // (WRITE_PLACE checks a part: the lines and byte shapes, and that an
    // observation follows an accepted write, not the data, space or lane.)
    wire [5:0] write_msg = done + rsp_done;
    reg  [5:0] write_msg_q;
    reg        wr_accept_q = 1'b0;
    always @(posedge clock) begin
        write_msg_q <= write_msg;
        wr_accept_q <= wr_accept && running;
    end
    always @* if (running) begin
        if (mem_wr_valid) begin
            write_line: assert (mem_wr_addr[3:0] == 4'd0 && be_ok(mem_wr_be));
`ifndef WRITE_PLACE
            write_data_in_bytes: assert ((mem_wr_data & ~be_bits(mem_wr_be)) == 128'd0);
            write_space: assert (in_flight != 6'd0 && in_flight < 6'd32 && mem_wr_space == msg_slm[write_msg[4:0]]);
`endif
        end
        if (mem_rd_valid) read_line: assert (mem_rd_addr[3:0] == 4'd0 && be_ok(mem_rd_be));
        if (obs_valid) begin
            write_accepted_before_obs: assert (wr_accept_q);
`ifndef WRITE_PLACE
            write_lane: assert (msg_enables[write_msg_q[4:0]][obs_lane]);
`endif
        end
        write_bytes_cover: cover (wr_accept && mem_wr_be != 16'hf && mem_wr_space);
    end
`endif

`ifdef CHECK_ORDERING
    // The memory ordering contract for operations on the same address, on
    // one ELEM_BYTES-aligned chunk of one line that the solver picks
    // (`tracked_*`, any chunk of any line of either space; an element never
    // straddles a chunk): memory applies a write when it accepts it, and a
    // read returns the line as it was when the read was accepted (ENV
    // below); then every atomic's old value (obs_old, the cycle after its
    // write is accepted) is the element's bytes in memory just before its
    // write, i.e. each atomic on an element sees every earlier write to it
    // and no later one. Also: each atomic write goes to the line, space and
    // bytes of the oldest read not yet paired with a write (one read, then
    // one write, per element, both streams in order).
    localparam CHUNK_BITS = 8 * ELEM_BYTES;
    (* anyconst *) reg [59:0] tracked_line;
    (* anyconst *) reg        tracked_slm;
    (* anyconst *) reg [3:0]  tracked_chunk_any;
    wire [3:0] tracked_first = tracked_chunk_any & ~(ELEM_BYTES - 1);   // the chunk's first byte
    reg  [CHUNK_BITS-1:0] tracked_data;   // the chunk in memory; its power-up contents are free
    wire rd_tracked = mem_rd_addr[63:4] == tracked_line && mem_rd_space == tracked_slm;
    wire wr_tracked = mem_wr_addr[63:4] == tracked_line && mem_wr_space == tracked_slm
                      && ((mem_wr_be >> tracked_first) & ((1 << ELEM_BYTES) - 1)) != 16'd0;
    wire [CHUNK_BITS-1:0] wr_chunk_mask = be_bits(mem_wr_be) >> (8 * tracked_first);
    wire [CHUNK_BITS-1:0] wr_chunk_data = mem_wr_data >> (8 * tracked_first);
    wire [CHUNK_BITS-1:0] tracked_next = (tracked_data & ~wr_chunk_mask) | (wr_chunk_data & wr_chunk_mask);
    always @(posedge clock) if (running && wr_accept && wr_tracked) tracked_data <= tracked_next;
    // reads outstanding, in acceptance order: whether each is of the tracked
    // line and the chunk as memory held it then. ENV: a read and a write
    // accepted in the same cycle may be ordered either way (the unit
    // forwards the write itself): `read_after_write` picks, each cycle.
    (* anyseq *) reg read_after_write;
    // (FIFO depths: the reads a build may have outstanding, the reads it
    // may have unpaired: 8 and 16 for the pipelined builds, 2 and 2 for the
    // serial one, MAX_READS = 1; a deeper need fails ordering_reads)
    localparam RQ_BITS = (MAX_READS > 1) ? 3 : 1;
    localparam PQ_BITS = (MAX_READS > 1) ? 4 : 1;
    reg [CHUNK_BITS-1:0] rq_data [0:(1 << RQ_BITS) - 1];
    reg                  rq_tracked [0:(1 << RQ_BITS) - 1];
    reg [RQ_BITS-1:0]    rq_head = 0, rq_tail = 0;
    always @(posedge clock) if (!running) begin
        rq_head <= 0;
        rq_tail <= 0;
    end else begin
        if (rd_accept) begin
            rq_data[rq_tail] <= (read_after_write && wr_accept && wr_tracked) ? tracked_next : tracked_data;
            rq_tracked[rq_tail] <= rd_tracked;
            rq_tail <= rq_tail + 1'b1;
        end
        if (mem_rdata_valid) rq_head <= rq_head + 1'b1;
    end
    // ENV: a read of the tracked line returns the chunk as it was
    wire [CHUNK_BITS-1:0] rdata_chunk = mem_rdata >> (8 * tracked_first);
    always @* if (mem_rdata_valid && rq_tracked[rq_head]) assume (rdata_chunk == rq_data[rq_head]);

    // the reads not yet paired with an atomic write: line, space, bytes
    reg [76:0]        pq [0:(1 << PQ_BITS) - 1];
    reg [PQ_BITS-1:0] pq_head = 0, pq_tail = 0;
    reg [4:0]         pq_count = 5'd0;
    always @(posedge clock) pq_count <= running ? pq_count + (rd_accept ? 5'd1 : 5'd0) - (obs_valid ? 5'd1 : 5'd0) : 5'd0;
    reg         wr_tracked_q;
    reg [CHUNK_BITS-1:0] expect_old_q;
    // the old value memory holds for an element with these byte enables
    // (the tracked chunk's bytes under them, shifted down to bit 0)
    function automatic [CHUNK_BITS-1:0] chunk_old(input [15:0] be);
        chunk_old = (tracked_data & (be_bits(be) >> (8 * tracked_first))) >> (8 * (first_byte(be) - tracked_first));
    endfunction
    always @(posedge clock) begin
        wr_tracked_q <= wr_tracked;
        expect_old_q <= chunk_old(mem_wr_be);
    end
    always @(posedge clock) if (!running) begin
        pq_head <= 0;
        pq_tail <= 0;
    end else begin
        if (rd_accept) begin
            pq[pq_tail] <= {mem_rd_addr[63:4], mem_rd_space, mem_rd_be};
            pq_tail <= pq_tail + 1'b1;
        end
        if (obs_valid) pq_head <= pq_head + 1'b1;
    end
    reg [2:0] tracked_writes = 3'd0;
    always @(posedge clock)
        if (!running) tracked_writes <= 3'd0;
        else if (obs_valid && wr_tracked_q && tracked_writes != 3'd7) tracked_writes <= tracked_writes + 3'd1;
    // (a run may check a part: ORDERING_PAIRS the read/write pairing,
    // ORDERING_OLD the old values; the parts together are the property)
    always @* if (running) begin
`ifndef ORDERING_OLD
        ordering_reads: assert (rd_out <= MAX_READS && pq_count <= (1 << PQ_BITS));
        if (obs_valid) ordering_pairs: assert (pq_count != 5'd0 && pq[pq_head] == {wr_addr_q[63:4], wr_space_q, wr_be_q});
`endif
`ifndef ORDERING_PAIRS
        if (obs_valid && wr_tracked_q) ordering_old: assert (obs_old[CHUNK_BITS-1:0] == expect_old_q);
`endif
        // a same-address pair: a second atomic on the tracked chunk
        ordering_cover: cover (obs_valid && wr_tracked_q && tracked_writes == 3'd1);
    end
`endif

    // helper invariants of one build (probes of its registers), for k-induction
`ifdef INV_SERIAL
    `include "serial_invariants.svh"
`endif
`ifdef INV_PIPELINED
    `include "unit_invariants.svh"
`endif
endmodule
