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
