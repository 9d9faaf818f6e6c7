// atomport-sim: vl_fatal that throws, and the thread-local last error.
#include "atomport_sim.h"

#include "verilated.h"

namespace atomport_sim {

static thread_local std::string t_last_error;

int set_error(const std::string& msg) {
    t_last_error = msg;
    return 1;
}

}  // namespace atomport_sim

extern "C" const char* atomport_sim_last_error() { return atomport_sim::t_last_error.c_str(); }

// Replaces Verilator's vl_fatal (which prints and calls std::abort): throw.
// It does not touch Verilated::threadContextp() as the original does: that
// is the last context built on this thread (or in the process), which may
// belong to a model already deleted. The Rust wrapper marks its model dead.
void vl_fatal(const char* filename, int linenum, const char* hier, const char* msg) VL_MT_UNSAFE {
    (void)hier;
    std::string where = (filename && filename[0]) ? std::string(filename) + ":" + std::to_string(linenum) + ": " : "";
    throw atomport_sim::AtomportFatal("Verilator fatal: " + where + (msg ? msg : ""));
}

// Raises a real Verilator fatal through vl_fatal, inside the guard, so the
// test suite can prove the fatal -> Err path.
extern "C" int atomport_sim_raise_fatal(const char* msg) {
    ATOMPORT_SIM_GUARD(vl_fatal(__FILE__, __LINE__, "", msg))
}
