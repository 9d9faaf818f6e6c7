// atomport-sim, coverage builds only (cargo feature `rtl-coverage`, sim/build.rs):
// Verilator's line / toggle / user coverage of every model the process builds,
// summed point by point, written when the process exits to the file named by
// ATOMPORT_RTL_COVERAGE (default rtl-coverage.dat) for `verilator_coverage`.
//
// Every model has its own VerilatedContext, hence its own coverage context,
// whose counters live in the model: they are added to the process totals
// when the model is deleted (`add_coverage`, called by the generated shim).
// Verilator 5 has no API to read the points, so each model's data goes
// through its own `write` into a temporary file next to the output.
#include "verilated.h"
#include "verilated_cov.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

namespace atomport_sim {
namespace {

std::string output_path() {
    const char* p = std::getenv("ATOMPORT_RTL_COVERAGE");
    return (p && p[0]) ? p : "rtl-coverage.dat";
}

// The points of every model deleted so far: the quoted key as Verilator
// writes it (`C '<fields>'`) -> the summed count.
struct Totals {
    std::mutex lock;
    std::map<std::string, unsigned long long> counts;
    unsigned long long models = 0;
    ~Totals() {
        if (models == 0) return;
        std::string path = output_path();
        std::ofstream out(path);
        out << "# SystemC::Coverage-3\n";
        for (const auto& kv : counts) out << kv.first << ' ' << kv.second << '\n';
        out.close();
        if (!out) std::fprintf(stderr, "atomport-sim: cannot write RTL coverage to %s\n", path.c_str());
        else std::fprintf(stderr, "atomport-sim: RTL coverage of %llu models (%zu points) written to %s\n", models, counts.size(), path.c_str());
    }
};

Totals& totals() {
    static Totals t;
    return t;
}

}  // namespace

void add_coverage(VerilatedContext* context) {
    static std::atomic<unsigned long long> serial{0};
    Totals& t = totals();
    std::string part = output_path() + ".part-" + std::to_string(getpid()) + "-" + std::to_string(serial++);
    context->coveragep()->write(part.c_str());
    std::ifstream in(part);
    std::string line;
    std::map<std::string, unsigned long long> here;
    while (std::getline(in, line)) {
        if (line.compare(0, 3, "C '") != 0) continue;
        size_t close = line.rfind('\'');
        if (close == std::string::npos || close + 1 >= line.size()) continue;
        here[line.substr(0, close + 1)] += std::strtoull(line.c_str() + close + 1, nullptr, 10);
    }
    in.close();
    std::remove(part.c_str());
    std::lock_guard<std::mutex> g(t.lock);
    for (const auto& kv : here) t.counts[kv.first] += kv.second;
    t.models++;
}

}  // namespace atomport_sim
