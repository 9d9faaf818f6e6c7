//! The Verilator binding itself: port access, eval, tracing, the fatal path.
//! (The ALU's semantics are checked against the golden model in
//! testbench/tests/rtl_alu.rs.)

use atomport_isa::{AluOp, ElemType};
use atomport_sim::{PortDir, SimError, VAtomicAlu, CLOCK_PERIOD};

#[test]
fn ports_come_from_the_verilog() {
    let names: Vec<(&str, PortDir, u32)> = VAtomicAlu::PORTS.iter().map(|p| (p.name, p.dir, p.width)).collect();
    assert_eq!(
        names,
        [
            ("clock", PortDir::Input, 1),
            ("pipe_advance", PortDir::Input, 1),
            ("op", PortDir::Input, 5),
            ("ty", PortDir::Input, 4),
            ("ftz", PortDir::Input, 1),
            ("new_cond", PortDir::Output, 1),
            ("float_op", PortDir::Output, 1),
            ("src0", PortDir::Input, 128),
            ("src1", PortDir::Input, 128),
            ("old_value", PortDir::Input, 128),
            ("new_true", PortDir::Output, 128),
            ("new_false", PortDir::Output, 128),
            ("ret_value", PortDir::Output, 128),
            ("float_value", PortDir::Output, 128),
        ]
    );
    assert!(atomport_sim::TOPS.contains(&VAtomicAlu::NAME));
}

#[test]
fn setters_write_and_mask_getters_read_back() {
    let mut m = VAtomicAlu::new().unwrap();
    m.set_op(0xff);
    assert_eq!(m.op(), 0x1f, "5-bit port keeps 5 bits");
    m.set_ty(0x13);
    assert_eq!(m.ty(), 0x3);
    let v = 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210u128;
    m.set_old_value(v);
    assert_eq!(m.old_value(), v);
    assert_eq!(m.old_value_words(), [0x7654_3210, 0xfedc_ba98, 0x89ab_cdef, 0x0123_4567], "little-endian words");
    m.set_src0_words(&[1, 2, 3, 4]);
    assert_eq!(m.src0(), 1 | (2 << 32) | (3 << 64) | (4 << 96));
}

#[test]
fn eval_drives_outputs() {
    let mut m = VAtomicAlu::new().unwrap();
    // the ALU's operand stage loads op, type and sources at a clock edge
    // with `pipe_advance`; the old value is read in the cycle after
    m.set_op(AluOp::Xchg.code());
    m.set_ty(ElemType::B128.code());
    m.set_src0(u128::MAX - 5);
    m.set_pipe_advance(1);
    m.tick().unwrap();
    // (xchg has no condition: its new value is the false candidate)
    assert_eq!((m.new_cond(), m.new_false()), (0, u128::MAX - 5));
    // outputs change only on eval
    m.set_old_value(7);
    let before = m.ret_value();
    assert_eq!(before, 0);
    m.eval().unwrap();
    assert_eq!(m.ret_value(), 7);
    // a new type is the operand stage's: it takes effect at the next edge
    m.set_ty(ElemType::B32.code());
    m.eval().unwrap();
    assert_eq!(m.new_false(), u128::MAX - 5, "registered: not yet");
    m.tick().unwrap();
    assert_eq!(m.new_false(), 0xffff_fffa, "masked to 32 bits");
}

#[test]
fn ports_by_name() {
    let mut m = VAtomicAlu::new().unwrap();
    m.set_port("op", AluOp::Add.code() as u128).unwrap();
    m.set_port("ty", ElemType::B64.code() as u128).unwrap();
    m.set_port("src0", 2).unwrap();
    m.set_port("pipe_advance", 1).unwrap();
    m.tick().unwrap();
    m.set_port("old_value", u64::MAX as u128).unwrap();
    m.eval().unwrap();
    assert_eq!(m.get_port("new_false"), Some(1), "wraps at 64 bits");
    assert_eq!(m.get_port("op"), Some(AluOp::Add.code() as u128));
    assert_eq!(m.get_port("nonsense"), None);
    assert!(matches!(m.set_port("new_false", 1), Err(SimError::Port(_))), "outputs cannot be set");
    assert!(matches!(m.set_port("nonsense", 1), Err(SimError::Port(_))));
}

#[test]
fn verilator_fatal_is_an_error_not_an_abort() {
    let err = atomport_sim::raise_verilator_fatal("deliberate test fatal").unwrap_err();
    match err {
        SimError::Fatal(msg) => {
            assert!(msg.contains("deliberate test fatal"), "{msg}");
            assert!(msg.starts_with("Verilator fatal"), "{msg}");
        }
        other => panic!("expected Fatal, got {other:?}"),
    }
    // the process and other models live on
    let mut m = VAtomicAlu::new().unwrap();
    m.eval().unwrap();
}

#[test]
fn models_are_independent() {
    let mut a = VAtomicAlu::new().unwrap();
    let mut b = VAtomicAlu::new().unwrap();
    for m in [&mut a, &mut b] {
        m.set_op(AluOp::Xchg.code());
        m.set_ty(ElemType::B32.code());
        m.set_pipe_advance(1);
    }
    a.set_src0(1);
    b.set_src0(2);
    a.tick().unwrap();
    b.tick().unwrap();
    assert_eq!((a.new_false(), b.new_false()), (1, 2));
    // and in threads, each with its own context
    let handles: Vec<_> = (0..2u128)
        .map(|k| {
            std::thread::spawn(move || {
                let mut m = VAtomicAlu::new().unwrap();
                m.set_op(AluOp::Inc.code());
                m.set_ty(ElemType::B16.code());
                m.set_pipe_advance(1);
                m.tick().unwrap();
                let mut v = k;
                for _ in 0..1000 {
                    m.set_old_value(v);
                    m.eval().unwrap();
                    v = m.new_false();
                }
                v
            })
        })
        .collect();
    let results: Vec<u128> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    assert_eq!(results, [1000, 1001]);
}

#[test]
fn vcd_trace_has_timescale_signals_and_one_period_per_step() {
    let dir = std::env::temp_dir().join(format!("atomport-sim-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("alu.vcd");
    let mut m = VAtomicAlu::new().unwrap();
    assert!(!m.tracing());
    m.open_trace(&path).unwrap();
    assert!(m.tracing());
    m.set_op(AluOp::Xchg.code());
    m.set_ty(ElemType::B32.code());
    m.set_pipe_advance(1);
    for v in [0x11u128, 0x22, 0x33] {
        m.set_src0(v);
        m.tick().unwrap();
    }
    assert_eq!(m.time(), 3 * CLOCK_PERIOD);
    m.close_trace().unwrap();
    assert!(!m.tracing());
    drop(m);
    let vcd = std::fs::read_to_string(&path).unwrap();
    assert!(vcd.contains("$timescale"), "{vcd}");
    assert!(vcd.contains("1ns"), "time unit 1 ns");
    for port in ["op", "ty", "old_value", "src0", "src1", "new_true", "new_false", "new_cond", "ret_value"] {
        assert!(vcd.contains(&format!(" {port} ")), "signal {port} in the VCD");
    }
    for t in [0, CLOCK_PERIOD, 2 * CLOCK_PERIOD] {
        assert!(vcd.lines().any(|l| l == format!("#{t}")), "a sample at #{t}");
    }
    // 128-bit values are written in full: new_false = 0x33 at the third step
    assert!(vcd.contains(&format!("b{:0128b} ", 0x33)), "new_false = 0x33 appears");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn trace_to_an_unwritable_path_is_an_error() {
    let mut m = VAtomicAlu::new().unwrap();
    let err = m.open_trace("/nonexistent-dir/x/y.vcd").unwrap_err();
    assert!(matches!(err, SimError::Trace(_)), "{err:?}");
    assert!(!m.tracing());
    m.eval().unwrap();
}

mod clocked {
    use atomport_sim::fixtures::VSimCounter;
    use atomport_sim::{SimError, CLOCK_PERIOD};

    #[test]
    fn tick_is_one_rising_edge_per_period() {
        let mut m = VSimCounter::new().unwrap();
        assert_eq!(m.count(), 0);
        m.tick().unwrap();
        assert_eq!(m.count(), 1, "outputs after tick are post-edge");
        m.ticks(4).unwrap();
        assert_eq!(m.count(), 5);
        assert_eq!(m.time(), 5 * CLOCK_PERIOD);
    }

    #[test]
    fn vcd_shows_the_clock_low_then_high_each_period() {
        let path = std::env::temp_dir().join(format!("atomport-sim-counter-{}.vcd", std::process::id()));
        let mut m = VSimCounter::new().unwrap();
        m.open_trace(&path).unwrap();
        m.ticks(3).unwrap();
        drop(m); // closes the trace
        let vcd = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let times: Vec<&str> = vcd.lines().filter(|l| l.starts_with('#')).collect();
        assert_eq!(times, ["#0", "#5", "#10", "#15", "#20", "#25"], "{vcd}");
        // count reaches 3 (8-bit vector) by the last sample
        assert!(vcd.contains("b00000011 "), "{vcd}");
    }

    #[test]
    fn verilog_stop_is_a_fatal_error_and_the_model_is_dead_after_it() {
        let mut m = VSimCounter::new().unwrap();
        m.ticks(2).unwrap();
        m.set_stop(1);
        let err = m.tick().unwrap_err();
        match &err {
            SimError::Fatal(msg) => assert!(msg.contains("$stop"), "{msg}"),
            other => panic!("expected Fatal, got {other:?}"),
        }
        assert!(matches!(m.eval(), Err(SimError::Dead(_))), "no eval after a fatal");
        drop(m);
        // a fresh model on the same thread runs normally
        let mut fresh = VSimCounter::new().unwrap();
        fresh.tick().unwrap();
        assert_eq!(fresh.count(), 1);
    }
}

#[test]
fn new_value_is_the_candidate_the_condition_picks() {
    let mut m = VAtomicAlu::new().unwrap();
    // cmpxchg: old == src1 (the compare value) takes src0 (the swap value)
    m.set_op(AluOp::Cmpxchg.code());
    m.set_ty(ElemType::B32.code());
    m.set_src0(5);
    m.set_src1(7);
    m.set_pipe_advance(1);
    m.tick().unwrap();
    m.set_old_value(7);
    m.eval().unwrap();
    assert_eq!((m.new_cond(), m.new_true(), m.new_value()), (1, 5, 5), "equal: swapped");
    m.set_old_value(8);
    m.eval().unwrap();
    assert_eq!((m.new_cond(), m.new_false(), m.new_value()), (0, 8, 8), "not equal: old kept");
}
