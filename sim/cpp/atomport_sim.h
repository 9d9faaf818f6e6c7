// atomport-sim: the C++ side of the Verilator binding, shared by every model.
//
// A Verilator fatal (vl_fatal, compiled with VL_USER_FATAL) throws
// AtomportFatal; every extern "C" entry point of a model's shim catches it,
// stores the message in a thread-local and returns an error code, so the
// Rust side gets an Err instead of an abort.
#pragma once

#include <csetjmp>
#include <stdexcept>
#include <string>

class VerilatedContext;

namespace atomport_sim {

/// Thrown by vl_fatal.
struct AtomportFatal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// If $ATOMPORT_VERILATOR_SEED is set (a decimal 1..=2^31-1), passes
/// `+verilator+rand+reset+2 +verilator+seed+N` to `context`: with the
/// x-unique build (`--x-initial unique --x-assign unique`, sim/build.rs) the
/// registers' initial values and X assignments are random, drawn from N.
/// Throws on a malformed value. Unset: seed 1 in the x-unique build,
/// nothing otherwise.
void apply_seed_from_env(VerilatedContext* context);

/// Stores `msg` as this thread's last error; returns 1 (the error code).
int set_error(const std::string& msg);

/// Where a bus error inside a guarded trace call on this thread jumps
/// (nullptr: not inside one).
extern thread_local sigjmp_buf* t_bus_escape;

/// Installs, once per process, the SIGBUS handler that jumps to
/// t_bus_escape; outside a guarded call it restores the previous action, so
/// any other bus error stays fatal.
void install_bus_handler();

}  // namespace atomport_sim

extern "C" {
/// This thread's last error message ("" if none).
const char* atomport_sim_last_error();
/// 1 when the models were verilated with `--x-initial unique --x-assign unique` (feature x-unique).
int atomport_sim_x_unique();
}

// Runs `body`; a C++ exception (a Verilator fatal or anything else) becomes
// error code 1 with the message in atomport_sim_last_error().
#define ATOMPORT_SIM_GUARD(body)                                                   \
    try {                                                                          \
        body;                                                                      \
        return 0;                                                                  \
    } catch (const atomport_sim::AtomportFatal& e) {                               \
        return atomport_sim::set_error(e.what());                                  \
    } catch (const std::exception& e) {                                            \
        return atomport_sim::set_error(std::string("C++ exception: ") + e.what()); \
    } catch (...) {                                                                \
        return atomport_sim::set_error("unknown C++ exception");                   \
    }

namespace atomport_sim {

/// Runs a call into a trace writer; a C++ exception (Verilator's VCD writer
/// raises a fatal when write() fails) becomes error code 1.
template <typename F>
int guard_trace(F&& body) {
    ATOMPORT_SIM_GUARD(body())
}

/// guard_trace for the FST writer, which also maps its files: a file that a
/// full file system (or a file size limit) kept shorter than fstapi believes
/// faults with SIGBUS when fstapi reads it back, which becomes error code 1
/// too. The writer is then in no state to be used again (the caller drops
/// it without closing it). Needs install_bus_handler().
template <typename F>
int guard_mapped_trace(F&& body) {
    sigjmp_buf escape;
    sigjmp_buf* const outer = t_bus_escape;
    // savemask 0: no system call per dump; the handler runs with SA_NODEFER,
    // so the jump leaves SIGBUS unblocked
    if (sigsetjmp(escape, 0) != 0) {
        t_bus_escape = outer;
        return set_error(
            "Verilator's FST writer stopped with a bus error reading back one of its own files (no space left on the "
            "trace's file system or in the temporary folder, or a file size limit)");
    }
    t_bus_escape = &escape;
    const int rc = guard_trace(body);
    t_bus_escape = outer;
    return rc;
}

}  // namespace atomport_sim
