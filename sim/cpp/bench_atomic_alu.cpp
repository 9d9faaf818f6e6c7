// The C++ speed baseline for the Rust-driven loop over the atomic ALU
// (sim/benches/alu_speed.rs): the same stimulus loop as the Rust side, as a
// C++ main() harness would write it, on the same Verilated model, compiled
// with the same flags. Both loops return the same checksum of every result.
#include <cstdint>

#include "Vatomic_alu.h"
#include "verilated.h"

// splitmix64: the stimulus generator both loops use.
static inline uint64_t next_random(uint64_t& state) {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void set_wide(VlWide<4>& port, uint64_t lo, uint64_t hi) {
    port[0] = static_cast<uint32_t>(lo);
    port[1] = static_cast<uint32_t>(lo >> 32);
    port[2] = static_cast<uint32_t>(hi);
    port[3] = static_cast<uint32_t>(hi >> 32);
}

// Per vector: r picks the op (from `ops`) and the width (ty 0..3 = B16..B128);
// old, src0, src1 are two random words each; the checksum folds all eight
// result words.
extern "C" uint64_t atomport_cpp_bench_atomic_alu(uint64_t vectors, uint64_t seed, const uint8_t* ops,
                                                  uint32_t op_count) {
    VerilatedContext context;
    context.traceEverOn(true);
    Vatomic_alu model(&context, "atomic_alu");
    model.pipe_advance = 1;
    uint64_t state = seed;
    uint64_t checksum = 0;
    for (uint64_t i = 0; i < vectors; ++i) {
        const uint64_t r = next_random(state);
        model.op = ops[r % op_count];
        model.ty = (r >> 32) & 3;
        const uint64_t a = next_random(state), b = next_random(state);
        const uint64_t c = next_random(state), d = next_random(state);
        const uint64_t e = next_random(state), f = next_random(state);
        set_wide(model.old_value, a, b);
        set_wide(model.src0, c, d);
        set_wide(model.src1, e, f);
        // one clock cycle per vector, as the Rust loop does
        model.clock = 0;
        model.eval();
        uint32_t fold = 0;
        for (int w = 0; w < 4; ++w)
            fold ^= (model.new_true[w] ^ (model.new_false[w] * 5u)) ^ ((model.ret_value[w] * 3u) ^ model.new_cond);
        checksum = checksum * 31 + fold;
        model.clock = 1;
        model.eval();
    }
    model.final();
    return checksum;
}
