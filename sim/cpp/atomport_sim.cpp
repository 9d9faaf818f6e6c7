// atomport-sim: vl_fatal that throws, and the thread-local last error.
#include "atomport_sim.h"

#include "verilated.h"

#include <csignal>
#include <cstdlib>
#include <mutex>

namespace atomport_sim {

static thread_local std::string t_last_error;

thread_local sigjmp_buf* t_bus_escape = nullptr;

static struct sigaction s_previous_bus_action;

static void on_bus_error(int sig, siginfo_t*, void*) {
    if (t_bus_escape) siglongjmp(*t_bus_escape, 1);
    // not a trace writer's: put the previous action back; returning re-runs
    // the faulting access, which then gets it (by default, a core dump)
    (void)sig;
    sigaction(SIGBUS, &s_previous_bus_action, nullptr);
}

void install_bus_handler() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = on_bus_error;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        sigaction(SIGBUS, &action, &s_previous_bus_action);
    });
}

int set_error(const std::string& msg) {
    t_last_error = msg;
    return 1;
}

void apply_seed_from_env(VerilatedContext* context) {
    const char* seed = std::getenv("ATOMPORT_VERILATOR_SEED");
    // The x-unique build always randomizes (seed 1 unless told): with
    // Verilator's default +verilator+rand+reset+0 its "unique" values are zeros.
    if (!seed) seed = ATOMPORT_SIM_X_UNIQUE ? "1" : nullptr;
    if (!seed) return;
    std::string text(seed);
    bool digits = !text.empty() && text.size() <= 10;
    for (char c : text) digits = digits && c >= '0' && c <= '9';
    if (!digits || std::stoull(text) < 1 || std::stoull(text) > 2147483647ull)
        throw std::runtime_error("ATOMPORT_VERILATOR_SEED=" + text + ": not a seed (1..=2147483647)");
    const std::string seed_arg = "+verilator+seed+" + text;
    const char* argv[] = {"atomport", "+verilator+rand+reset+2", seed_arg.c_str()};
    context->commandArgs(3, argv);
}

}  // namespace atomport_sim

extern "C" const char* atomport_sim_last_error() { return atomport_sim::t_last_error.c_str(); }

extern "C" int atomport_sim_x_unique() { return ATOMPORT_SIM_X_UNIQUE; }

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
