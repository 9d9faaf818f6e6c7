// atomport-sim: the C++ side of the Verilator binding, shared by every model.
//
// A Verilator fatal (vl_fatal, compiled with VL_USER_FATAL) throws
// AtomportFatal; every extern "C" entry point of a model's shim catches it,
// stores the message in a thread-local and returns an error code, so the
// Rust side gets an Err instead of an abort.
#pragma once

#include <stdexcept>
#include <string>

namespace atomport_sim {

/// Thrown by vl_fatal.
struct AtomportFatal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Stores `msg` as this thread's last error; returns 1 (the error code).
int set_error(const std::string& msg);

}  // namespace atomport_sim

extern "C" {
/// This thread's last error message ("" if none).
const char* atomport_sim_last_error();
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
