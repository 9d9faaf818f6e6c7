// atomport-sim: the C++ side of the Verilator binding, shared by every model.
//
// A Verilator fatal (vl_fatal, compiled with VL_USER_FATAL) throws
// AtomportFatal; every extern "C" entry point of a model's shim catches it,
// stores the message in a thread-local and returns an error code, so the
// Rust side gets an Err instead of an abort.
#pragma once

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
