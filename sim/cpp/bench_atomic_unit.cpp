// The C++ speed baseline for the Rust-driven loop over the atomic unit
// (`atomport bench`, testbench/bench.rs `rust_speed_loop`): the same loop,
// step for step, as a C++ main() harness would write it, on the same
// Verilated model compiled with the same flags. Both drive a fixed stream
// of pin images (descriptor, dmask, pred mask, every lane's addr, src0,
// src1) through `atomic_unit` with a 64 KiB memory that answers every read
// in one cycle and is always ready, answer the unit's payload reads from the
// image one cycle later (PAYLOAD_LATENCY), and fold every lane result into
// a checksum.
#include <cstdint>
#include <cstring>
#include <vector>

#include "Vatomic_unit.h"
#include "verilated.h"

namespace {
constexpr uint32_t kImageWords = 4 + 1 + 1 + 64 + 128 + 128;
constexpr size_t kMemory = 1 << 16;

template <size_t N>
inline void set_words(VlWide<N>& port, const uint32_t* words) {
    for (size_t k = 0; k < N; ++k) port[k] = words[k];
}
}  // namespace

// Runs `rounds` passes over `count` images; returns the checksum, stores
// cycles and finished messages. Stops after `max_cycles` (a unit that hangs
// leaves *messages_out short of count * rounds).
extern "C" uint64_t atomport_cpp_bench_atomic_unit(const uint32_t* images, uint32_t count, uint64_t rounds,
                                                   uint64_t max_cycles, uint64_t* cycles_out,
                                                   uint64_t* messages_out) {
    VerilatedContext context;
    context.traceEverOn(true);
    Vatomic_unit unit(&context, "atomic_unit");
    std::vector<uint8_t> memory(kMemory, 0);
    const uint64_t total = static_cast<uint64_t>(count) * rounds;

    unit.reset = 1;
    for (int i = 0; i < 2; ++i) {
        unit.clock = 0;
        unit.eval();
        unit.clock = 1;
        unit.eval();
    }
    unit.reset = 0;
    unit.mem_rd_ready = 1;
    unit.mem_wr_ready = 1;
    unit.req_slm_size = 65536;
    unit.req_surf_kind = 7;

    uint64_t issued = 0, done = 0, cycles = 0, checksum = 0;
    bool valid = false;
    bool have_ret = false;
    uint32_t ret[4] = {0, 0, 0, 0};
    const uint32_t* pay_img = nullptr;  // payload read last cycle: image and lane
    const uint32_t* slot_img[2] = {nullptr, nullptr};  // the k-th message taken is in slot k mod 2
    uint32_t pay_lane = 0;
    while (done < total && cycles < max_cycles) {
        if (!valid && issued < total) {
            const uint32_t* img = images + (issued % count) * kImageWords;
            set_words(unit.req_desc, img);
            unit.req_dmask = img[4];
            unit.req_pred_mask = img[5];
            valid = true;
        }
        unit.req_valid = valid;
        if (pay_img) {
            unit.pay_addr = static_cast<uint64_t>(pay_img[6 + 2 * pay_lane]) |
                            (static_cast<uint64_t>(pay_img[7 + 2 * pay_lane]) << 32);
            set_words(unit.pay_src0, pay_img + 70 + 4 * pay_lane);
            set_words(unit.pay_src1, pay_img + 198 + 4 * pay_lane);
        }
        unit.mem_rdata_valid = have_ret;
        if (have_ret) set_words(unit.mem_rdata, ret);
        unit.clock = 0;
        unit.eval();
        // the payload port reads a message taken before this cycle, named by its slot
        pay_img = unit.pay_valid ? slot_img[unit.pay_slot & 1] : nullptr;
        pay_lane = unit.pay_lane;
        if (valid && unit.req_ready) {
            slot_img[issued % 2] = images + (issued % count) * kImageWords;
            valid = false;
            ++issued;
        }
        if (unit.mem_wr_valid) {
            const size_t base = static_cast<size_t>(unit.mem_wr_addr) & (kMemory - 16);
            const uint32_t be = unit.mem_wr_be;
            uint8_t data[16];
            for (int w = 0; w < 4; ++w) std::memcpy(data + 4 * w, &unit.mem_wr_data[w], 4);
            for (int k = 0; k < 16; ++k)
                if ((be >> k) & 1) memory[base + k] = data[k];
        }
        if (unit.mem_rd_valid) {
            const size_t base = static_cast<size_t>(unit.mem_rd_addr) & (kMemory - 16);
            std::memcpy(ret, memory.data() + base, 16);
            have_ret = true;
        } else {
            have_ret = false;
        }
        if (unit.rsp_valid) {
            const uint32_t fold = unit.rsp_data[0] ^ (unit.rsp_data[1] * 3u) ^ unit.rsp_data[2] ^ unit.rsp_data[3];
            checksum = checksum * 31 + (static_cast<uint64_t>(fold) ^ unit.rsp_lane);
        }
        if (unit.rsp_done) ++done;
        unit.clock = 1;
        unit.eval();
        ++cycles;
    }
    unit.final();
    *cycles_out = cycles;
    *messages_out = done;
    return checksum;
}
