//! The message engine, message kind by message kind, with hand-worked
//! expected values: lane order, enables, bounds, layouts, transactions.
//! Messages are built directly (no parser involved).

use super::helpers::*;
use crate::outcome::{Txn, TxnKind};
use crate::golden::Machine;
use crate::message::{Body, DwordSurface, MaskCtrl, PredRef, PtxSpace};
use crate::ops::{PtxOp, PtxType, VisaWidth};
use crate::program::{Space, Surface, TypedFormat, TypedKind, TypedSurface};

// ---------------------------------------------------------------- SVM_ATOMIC

#[test]
fn same_address_lanes_run_in_ascending_order_and_see_earlier_writes() {
    let mut m = machine(&[]);
    m.write(Space::Flat, 0x100, &10u32.to_le_bytes());
    let msg = svm("add", VisaWidth::W32, vec![0x100; 4], Some(vec![1, 2, 3, 4]), None);
    let (lanes, txns) = m.exec(3, &msg);
    assert_eq!(lanes, vec![Some(10), Some(11), Some(13), Some(16)]);
    assert_eq!(u32_at(&m, Space::Flat, 0x100), 20);
    // read then write per lane, lanes in order; txns carry the message index
    let expect: Vec<(u8, TxnKind, u128)> = vec![
        (0, TxnKind::Read, 10),
        (0, TxnKind::Write, 11),
        (1, TxnKind::Read, 11),
        (1, TxnKind::Write, 13),
        (2, TxnKind::Read, 13),
        (2, TxnKind::Write, 16),
        (3, TxnKind::Read, 16),
        (3, TxnKind::Write, 20),
    ];
    assert_eq!(txns.iter().map(|t| (t.lane, t.kind, t.data)).collect::<Vec<_>>(), expect);
    assert!(txns.iter().all(|t| t.msg == 3 && t.addr == 0x100 && t.bytes == 4 && t.space == Space::Flat));
}

#[test]
fn svm_64_bit_and_16_bit_widths() {
    let mut m = machine(&[]);
    m.write(Space::Flat, 0x200, &u64::MAX.to_le_bytes());
    let msg = svm("add", VisaWidth::W64, vec![0x200], Some(vec![2]), None);
    assert_eq!(m.exec(0, &msg).0, vec![Some(u64::MAX as u128)]);
    assert_eq!(m.read(Space::Flat, 0x200, 8), 1u64.to_le_bytes());
    // .16: a word access; bytes around it untouched; src high bits ignored
    m.write(Space::Flat, 0x300, &[0x11, 0x22, 0xff, 0xff, 0x33, 0x44]);
    let msg = svm("add", VisaWidth::W16, vec![0x302], Some(vec![0xabcd_0003]), None);
    let (lanes, txns) = m.exec(0, &msg);
    assert_eq!(lanes, vec![Some(0xffff)]);
    assert_eq!(m.read(Space::Flat, 0x300, 6), vec![0x11, 0x22, 0x02, 0x00, 0x33, 0x44]);
    assert_eq!(txns[0].bytes, 2);
    assert_eq!(txns[1].data, 0x0002);
}

#[test]
fn predec_returns_new_and_imin_is_signed_through_a_message() {
    let mut m = machine(&[]);
    m.write(Space::Flat, 0x10, &[5, 0, 0, 0, 0, 0, 0, 0]);
    let msg = svm("predec", VisaWidth::W32, vec![0x10, 0x14], None, None);
    // lane 0: 5 -> 4 returns 4; lane 1: 0 -> 0xffffffff returns it
    assert_eq!(m.exec(0, &msg).0, vec![Some(4), Some(0xffff_ffff)]);
    let msg = svm("imin", VisaWidth::W32, vec![0x10], Some(vec![0xffff_fffe]), None);
    assert_eq!(m.exec(0, &msg).0, vec![Some(4)]);
    assert_eq!(u32_at(&m, Space::Flat, 0x10), 0xffff_fffe);
}

#[test]
fn failed_cmpxchg_still_reads_and_writes() {
    let mut m = machine(&[]);
    m.write(Space::Flat, 0x40, &7u32.to_le_bytes());
    // lane 0 compares with 8 (fails), lane 1 with 7 (succeeds, writes 9)
    let msg = svm("cmpxchg", VisaWidth::W32, vec![0x40, 0x40], Some(vec![1, 9]), Some(vec![8, 7]));
    let (lanes, txns) = m.exec(0, &msg);
    assert_eq!(lanes, vec![Some(7), Some(7)]);
    assert_eq!(u32_at(&m, Space::Flat, 0x40), 9);
    let kinds: Vec<_> = txns.iter().map(|t| (t.lane, t.kind, t.data)).collect();
    assert_eq!(
        kinds,
        vec![(0, TxnKind::Read, 7), (0, TxnKind::Write, 7), (1, TxnKind::Read, 7), (1, TxnKind::Write, 9)]
    );
}

#[test]
fn fcmpwr_compares_src0_and_writes_src1() {
    let mut m = machine(&[]);
    m.write(Space::Flat, 0, &1.0f32.to_bits().to_le_bytes());
    m.write(Space::Flat, 4, &(-0.0f32).to_bits().to_le_bytes());
    let one = 1.0f32.to_bits() as u128;
    let two = 2.0f32.to_bits() as u128;
    // lane 0: src0 = 2.0 != 1.0 -> unchanged; lane 1: src0 = +0 == -0 -> 2.0
    let msg = svm("fcmpwr", VisaWidth::W32, vec![0, 4], Some(vec![two, 0]), Some(vec![one, two]));
    m.exec(0, &msg);
    assert_eq!(u32_at(&m, Space::Flat, 0), 1.0f32.to_bits());
    assert_eq!(u32_at(&m, Space::Flat, 4), 2.0f32.to_bits());
}

#[test]
fn fmax_fmin_through_messages_with_nan_and_signed_zero() {
    let mut m = machine(&[]);
    let nan_a = 0x7fc0_0123u32;
    m.write(Space::Flat, 0, &[nan_a.to_le_bytes(), 0x8000_0000u32.to_le_bytes(), nan_a.to_le_bytes()].concat());
    let msg = svm("fmax", VisaWidth::W32, vec![0, 4, 8], Some(vec![0x3f80_0000, 0, 0xffc0_0456]), None);
    m.exec(0, &msg);
    assert_eq!(u32_at(&m, Space::Flat, 0), 0x3f80_0000); // NaN old is missing
    assert_eq!(u32_at(&m, Space::Flat, 4), 0); // -0 < +0
    assert_eq!(u32_at(&m, Space::Flat, 8), nan_a); // both NaN: old's bits
                                                   // FMIN .16 at a DWORD surface: half-precision min(1.0, -2.0) = -2.0
    m.write(Space::Flat, 0x20, &0x3c00u16.to_le_bytes());
    let msg = dword("fmin", true, DwordSurface::Stateless, vec![0x20], Some(vec![0x1234_c000]), None);
    assert_eq!(m.exec(0, &msg).0, vec![Some(0x3c00)]);
    assert_eq!(m.read(Space::Flat, 0x20, 2), 0xc000u16.to_le_bytes());
}

// ---------------------------------------------------------------- enables

#[test]
fn a_misaligned_lane_makes_no_access_and_returns_zero() {
    let mut m = machine(&[]);
    m.write(Space::Flat, 0x100, &10u32.to_le_bytes());
    m.write(Space::Flat, 0x104, &20u32.to_le_bytes());
    let msg = svm("add", VisaWidth::W32, vec![0x100, 0x104, 0x100, 0x104], Some(vec![1, 2, 3, 4]), None);
    let (lanes, txns) = m.exec_misaligned(0, &msg, 1);
    // lane 1 neither reads nor writes 0x104; lane 3 sees its old value
    assert_eq!(lanes, vec![Some(10), Some(0), Some(11), Some(20)]);
    assert_eq!(txns.iter().map(|t| (t.lane, t.kind)).collect::<Vec<_>>(), [(0, TxnKind::Read), (0, TxnKind::Write), (2, TxnKind::Read), (2, TxnKind::Write), (3, TxnKind::Read), (3, TxnKind::Write)]);
    assert_eq!((u32_at(&m, Space::Flat, 0x100), u32_at(&m, Space::Flat, 0x104)), (14, 24));
    // a scatter returns nothing, for the misaligned lane too
    let scatter = message(2, Body::SvmScatter { block_size: 4, num_blocks: 1, addrs: vec![0x200, 0x204], src: vec![5, 6] });
    let (lanes, txns) = m.exec_misaligned(1, &scatter, 0);
    assert_eq!(lanes, vec![None, None]);
    assert_eq!(txns.iter().map(|t| (t.lane, t.addr)).collect::<Vec<_>>(), [(1, 0x204)]);
}

#[test]
fn disabled_lanes_have_no_result_and_no_access() {
    let mut m = machine(&[]);
    // M2: lanes take dmask bits 4..7; dmask 0xa0 enables lanes 1 and 3
    let mut msg = svm("inc", VisaWidth::W32, vec![0x0, 0x4, 0x8, 0xc], None, None);
    msg.mask_ctrl = MaskCtrl { group: 1, no_mask: false };
    msg.dmask = 0xa0;
    let (lanes, txns) = m.exec(0, &msg);
    assert_eq!(lanes, vec![None, Some(0), None, Some(0)]);
    assert_eq!(txns.len(), 4);
    assert_eq!(m.read(Space::Flat, 0, 16), [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0]);
    // _NM ignores dmask; a negated predicate then disables lanes 0 and 2
    msg.mask_ctrl = MaskCtrl { group: 1, no_mask: true };
    msg.pred = Some(PredRef { name: "p".into(), negate: true, mask: 0b0101 });
    assert_eq!(m.exec(0, &msg).0, vec![None, Some(1), None, Some(1)]);
    // M8 with 4 lanes reads dmask bits 28..31
    msg.mask_ctrl = MaskCtrl { group: 7, no_mask: false };
    msg.pred = None;
    msg.dmask = 0x4000_0000;
    assert_eq!(m.exec(0, &msg).0, vec![None, None, Some(0), None]);
}

// ---------------------------------------------------------------- DWORD_ATOMIC

#[test]
fn dword_16_bit_unpacked_layout_on_slm() {
    let mut m = machine(&[]);
    m.write(Space::Slm, 0, &[0xff, 0xff, 0x05, 0x00, 0x77, 0x77]);
    // two words at offsets 0 and 2; only the low 16 bits of each src dword count
    let msg = dword("add", true, DwordSurface::Slm, vec![0, 2], Some(vec![0xdead_0001, 0xbeef_0002]), None);
    let (lanes, txns) = m.exec(0, &msg);
    assert_eq!(lanes, vec![Some(0xffff), Some(0x0005)]);
    assert_eq!(m.read(Space::Slm, 0, 6), vec![0x00, 0x00, 0x07, 0x00, 0x77, 0x77]);
    assert!(txns.iter().all(|t| t.space == Space::Slm && t.bytes == 2));
    // flat memory untouched: SLM is its own space
    assert_eq!(m.read(Space::Flat, 0, 6), vec![0; 6]);
}

#[test]
fn slm_out_of_bounds_reads_zero_and_drops_the_write() {
    let mut m = machine_with(16, &[]);
    // setup stores bypass bounds, so there is data past the end to not see
    m.write(Space::Slm, 12, &[1, 0, 0, 0, 9, 9, 9, 9]);
    let msg = dword("add", false, DwordSurface::Slm, vec![12, 16, 0xffff_fffc], Some(vec![5, 5, 5]), None);
    let (lanes, txns) = m.exec(0, &msg);
    // 12 + 4 <= 16 in bounds; 16 + 4 > 16 and the top offset are not
    assert_eq!(lanes, vec![Some(1), Some(0), Some(0)]);
    assert_eq!(txns.len(), 2);
    assert!(txns.iter().all(|t| t.lane == 0));
    assert_eq!(m.read(Space::Slm, 12, 8), vec![6, 0, 0, 0, 9, 9, 9, 9]);
    // .16 at 14: 14 + 2 <= 16 is in bounds
    let msg = dword("xchg", true, DwordSurface::Slm, vec![14], Some(vec![0xaaaa]), None);
    assert_eq!(m.exec(0, &msg).0, vec![Some(0)]);
    assert_eq!(m.read(Space::Slm, 14, 2), vec![0xaa, 0xaa]);
}

#[test]
fn buffer_surface_bounds_and_base() {
    let mut m = machine(&[(3, Surface::Buffer { base: 0x1000, size: 8 })]);
    m.write(Space::Flat, 0x1000, &[1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]);
    let msg = dword("add", false, DwordSurface::Buffer(3), vec![0, 4, 8], Some(vec![10, 10, 10]), None);
    let (lanes, txns) = m.exec(0, &msg);
    assert_eq!(lanes, vec![Some(1), Some(2), Some(0)]);
    assert_eq!(m.read(Space::Flat, 0x1000, 12), vec![11, 0, 0, 0, 12, 0, 0, 0, 3, 0, 0, 0]);
    assert_eq!(txns.iter().map(|t| t.addr).collect::<Vec<_>>(), vec![0x1000, 0x1000, 0x1004, 0x1004]);
    // .16 at offset 6: 6 + 2 <= 8 in bounds
    let msg = dword("or", true, DwordSurface::Buffer(3), vec![6], Some(vec![0x8000]), None);
    assert_eq!(m.exec(0, &msg).0, vec![Some(0)]);
    assert_eq!(m.read(Space::Flat, 0x1006, 2), vec![0x00, 0x80]);
    // an undeclared surface number is all out of bounds
    let msg = dword("add", false, DwordSurface::Buffer(9), vec![0], Some(vec![1]), None);
    assert_eq!(m.exec(0, &msg), (vec![Some(0)], vec![]));
}

#[test]
fn t255_is_flat_memory_at_the_offset_without_bounds() {
    let mut m = machine_with(16, &[]);
    m.write(Space::Flat, 0xffff_fff0, &4u32.to_le_bytes());
    let msg = dword("sub", false, DwordSurface::Stateless, vec![0xffff_fff0], Some(vec![5]), None);
    assert_eq!(m.exec(0, &msg).0, vec![Some(4)]);
    assert_eq!(u32_at(&m, Space::Flat, 0xffff_fff0), 0xffff_ffff);
}

// ---------------------------------------------------------------- TYPED_ATOMIC

fn typed_surface(kind: TypedKind, w: u32, h: u32, d: u32, array: u32, levels: u32, format: TypedFormat) -> Surface {
    Surface::Typed(TypedSurface { kind, base: 0x10_000, width: w, height: h, depth: d, array, levels, format })
}

#[test]
fn typed_2d_levels_layout_and_bounds() {
    // 2d 4x4 u32, 3 levels: level 0 is 64 bytes, level 1 (2x2) 16 bytes at +64,
    // level 2 (1x1) at +80
    let mut m = machine(&[(1, typed_surface(TypedKind::D2, 4, 4, 1, 1, 3, TypedFormat::U32))]);
    let msg =
        typed("add", false, 1, [3, 1, 0, 0, 1, 0, 0, 4], [3, 1, 0, 0, 0, 0, 0, 0], None, [0, 1, 2, 3, 1, 1, 0, 0]);
    let (lanes, txns) = m.exec(0, &msg);
    // lanes: (3,3)@0 ok, (1,1)@1 ok, (0,0)@2 ok, (0,0)@3 lod OOB, (1,0)@1 ok,
    //        (0,0)@1 ok, (0,0)@0 ok, (4,0)@0 u OOB
    assert_eq!(lanes, vec![Some(0), Some(0), Some(0), Some(0), Some(0), Some(0), Some(0), Some(0)]);
    let addrs: Vec<u64> = txns.iter().filter(|t| t.kind == TxnKind::Write).map(|t| t.addr - 0x10_000).collect();
    assert_eq!(addrs, vec![(3 * 4 + 3) * 4, 64 + (2 + 1) * 4, 80, 64 + 4, 64, 0]);
    let data: Vec<u128> = txns.iter().filter(|t| t.kind == TxnKind::Write).map(|t| t.data).collect();
    assert_eq!(data, vec![1, 2, 3, 5, 6, 7]);
}

#[test]
fn typed_level_2_of_a_2d_surface_is_1x1() {
    let mut m = machine(&[(1, typed_surface(TypedKind::D2, 4, 4, 1, 1, 3, TypedFormat::U32))]);
    let msg = typed("inc", false, 1, [0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0, 0, 0], None, [2; 8]);
    let (lanes, txns) = m.exec(0, &msg);
    // only (0,0) is inside level 2; lanes 0 and 3..7 hit it in order
    assert_eq!(lanes, vec![Some(0), Some(0), Some(0), Some(1), Some(2), Some(3), Some(4), Some(5)]);
    assert_eq!(txns.len(), 12);
    assert_eq!(u32_at(&m, Space::Flat, 0x10_000 + 80), 6);
}

#[test]
fn typed_array_kinds_carry_the_index_in_v_or_r_and_3d_halves_depth() {
    // 1d_array: width 4, array 3, 2 levels: level 0 is 4*3 elements, level 1 (2 wide) follows
    let s1 = typed_surface(TypedKind::D1Array, 4, 1, 1, 3, 2, TypedFormat::U32);
    // 2d_array: 2x2, array 2: level 0 is 2*2*2 elements
    let s2 = typed_surface(TypedKind::D2Array, 2, 2, 1, 2, 1, TypedFormat::U32);
    // 3d: 2x2x4, 2 levels: level 1 is 1x1x2 at +16 elements
    let s3 = typed_surface(TypedKind::D3, 2, 2, 4, 1, 2, TypedFormat::U32);
    let target =
        |s: Surface, u, v, r, lod| machine(&[(1, s)]).surfaces.typed(1, u, v, r, lod).map(|(_, a)| a - 0x10_000);
    assert_eq!(target(s1, 1, 2, 0, 0), Some((2 * 4 + 1) * 4));
    assert_eq!(target(s1, 1, 3, 0, 0), None); // array index past 3
    assert_eq!(target(s1, 1, 2, 0, 1), Some((12 + 2 * 2 + 1) * 4)); // array size unchanged at level 1
    assert_eq!(target(s1, 2, 0, 0, 1), None); // width 2 at level 1
    assert_eq!(target(s1, 0, 0, 1, 0), None); // R is not a dimension of 1d_array
    assert_eq!(target(s2, 1, 1, 1, 0), Some(((2 + 1) * 2 + 1) * 4));
    assert_eq!(target(s2, 0, 0, 2, 0), None);
    assert_eq!(target(s3, 1, 1, 3, 0), Some(((3 * 2 + 1) * 2 + 1) * 4));
    assert_eq!(target(s3, 0, 0, 1, 1), Some((16 + 1) * 4));
    assert_eq!(target(s3, 0, 0, 2, 1), None); // depth 2 at level 1
    assert_eq!(target(s3, 0, 0, 0, 2), None); // lod past levels
}

#[test]
fn typed_16_bit_on_a_u16_surface_and_oob_write_dropped() {
    let mut m = machine(&[(2, typed_surface(TypedKind::D1, 4, 1, 1, 1, 1, TypedFormat::U16))]);
    m.write(Space::Flat, 0x10_000, &[1, 0, 2, 0, 3, 0, 4, 0, 0x55, 0x55]);
    let msg = typed("max", true, 2, [0, 1, 2, 3, 4, 0, 0, 0], [0; 8], None, [0; 8]);
    let mut msg = msg;
    if let Body::TypedAtomic { src0, .. } = &mut msg.body {
        *src0 = Some(vec![0x1_0009, 0, 0, 0, 0xffff, 0, 0, 0]);
    }
    msg.dmask = 0x1f; // lanes 0..4
    let (lanes, _) = m.exec(0, &msg);
    assert_eq!(lanes, vec![Some(1), Some(2), Some(3), Some(4), Some(0), None, None, None]);
    // u = 4 is past width 4: the bytes after the surface keep 0x5555
    assert_eq!(m.read(Space::Flat, 0x10_000, 10), vec![9, 0, 2, 0, 3, 0, 4, 0, 0x55, 0x55]);
}

// ---------------------------------------------------------------- SVM_SCATTER

#[test]
fn scatter_4_and_8_byte_blocks_take_src_by_block_then_lane() {
    let mut m = machine(&[]);
    // 2 lanes x 2 blocks of 4 bytes: src[j * 2 + i]
    let msg = scatter(4, 2, vec![0x100, 0x200], vec![0xa0, 0xa1, 0xb0, 0xb1]);
    let (lanes, txns) = m.exec(0, &msg);
    assert_eq!(lanes, vec![None, None]);
    assert_eq!(u32_at(&m, Space::Flat, 0x100), 0xa0);
    assert_eq!(u32_at(&m, Space::Flat, 0x104), 0xb0);
    assert_eq!(u32_at(&m, Space::Flat, 0x200), 0xa1);
    assert_eq!(u32_at(&m, Space::Flat, 0x204), 0xb1);
    let order: Vec<(u8, u64)> = txns.iter().map(|t| (t.lane, t.addr)).collect();
    assert_eq!(order, vec![(0, 0x100), (0, 0x104), (1, 0x200), (1, 0x204)]);
    assert!(txns.iter().all(|t| t.kind == TxnKind::Write && t.bytes == 4));
    // 8-byte blocks
    let msg = scatter(8, 1, vec![0x300, 0x308], vec![u64::MAX, 0x0102_0304_0506_0708]);
    m.exec(0, &msg);
    assert_eq!(
        m.read(Space::Flat, 0x300, 16),
        [u64::MAX.to_le_bytes(), 0x0102_0304_0506_0708u64.to_le_bytes()].concat()
    );
}

#[test]
fn scatter_1_byte_blocks_take_src_by_lane_then_block() {
    let mut m = machine(&[]);
    // 2 lanes x 2 blocks of 1 byte: src[i * 4 + j] (slots j >= 2 are unused)
    let msg = scatter(1, 2, vec![0x10, 0x20], vec![0x01, 0x02, 0xee, 0xee, 0x11, 0x12, 0xee, 0xee]);
    let (_, txns) = m.exec(0, &msg);
    assert_eq!(m.read(Space::Flat, 0x10, 3), vec![0x01, 0x02, 0]);
    assert_eq!(m.read(Space::Flat, 0x20, 3), vec![0x11, 0x12, 0]);
    assert_eq!(txns.len(), 4);
    assert!(txns.iter().all(|t| t.bytes == 1));
    // overlapping lanes: the later lane's bytes win
    let msg = scatter(1, 1, vec![0x30, 0x30], vec![0xaa, 0, 0, 0, 0xbb, 0, 0, 0]);
    m.exec(0, &msg);
    assert_eq!(m.read(Space::Flat, 0x30, 1), vec![0xbb]);
}

#[test]
fn scatter_disabled_lane_writes_nothing() {
    let mut m = machine(&[]);
    let mut msg = scatter(4, 1, vec![0x10, 0x20], vec![7, 8]);
    msg.dmask = 0b10;
    let (_, txns) = m.exec(0, &msg);
    assert_eq!(txns.len(), 1);
    assert_eq!(u32_at(&m, Space::Flat, 0x10), 0);
    assert_eq!(u32_at(&m, Space::Flat, 0x20), 8);
}

// ---------------------------------------------------------------- PTX atom

#[test]
fn ptx_f32_add_flushes_on_global_but_not_on_shared() {
    let mut m = machine(&[]);
    // old = smallest subnormal, b = smallest subnormal
    m.write(Space::Flat, 0x40, &1u32.to_le_bytes());
    m.write(Space::Slm, 0x40, &1u32.to_le_bytes());
    let global = ptx(PtxSpace::Global, PtxOp::Add, PtxType::F32, 1, vec![0x40], vec![1], None);
    let (lanes, _) = m.exec(0, &global);
    assert_eq!(lanes, vec![Some(1)]); // returned old is never flushed
    assert_eq!(u32_at(&m, Space::Flat, 0x40), 0); // 0 + 0 after flushing
    let generic = ptx(PtxSpace::Generic, PtxOp::Add, PtxType::F32, 1, vec![0x40], vec![0x8000_0001], None);
    m.exec(0, &generic);
    assert_eq!(u32_at(&m, Space::Flat, 0x40), 0); // +0 + -0 = +0
    let shared = ptx(PtxSpace::SharedCta, PtxOp::Add, PtxType::F32, 1, vec![0x40], vec![1], None);
    m.exec(0, &shared);
    assert_eq!(u32_at(&m, Space::Slm, 0x40), 2); // subnormals kept
}

#[test]
fn ptx_f16_and_bf16_add_keep_subnormals() {
    let mut m = machine(&[]);
    m.write(Space::Flat, 0, &[1, 0, 1, 0]);
    let f16 = ptx(PtxSpace::Global, PtxOp::Add, PtxType::F16, 1, vec![0], vec![1], None);
    assert_eq!(m.exec(0, &f16).0, vec![Some(1)]);
    let bf16 = ptx(PtxSpace::Global, PtxOp::Add, PtxType::BF16, 1, vec![2], vec![0x0003], None);
    m.exec(0, &bf16);
    assert_eq!(m.read(Space::Flat, 0, 4), vec![2, 0, 4, 0]);
}

#[test]
fn ptx_cas_routes_b_as_compare_and_c_as_new() {
    let mut m = machine(&[]);
    m.write(Space::Flat, 0, &5u32.to_le_bytes());
    // b = 5 matches, c = 9 is written
    let cas = ptx(PtxSpace::Global, PtxOp::Cas, PtxType::B32, 1, vec![0], vec![5], Some(vec![9]));
    assert_eq!(m.exec(0, &cas).0, vec![Some(5)]);
    assert_eq!(u32_at(&m, Space::Flat, 0), 9);
    // b = 5 no longer matches: unchanged
    assert_eq!(m.exec(0, &cas).0, vec![Some(9)]);
    assert_eq!(u32_at(&m, Space::Flat, 0), 9);
    // b128: one 16-byte access
    let big = (0x0123_4567_89ab_cdefu128 << 64) | 0xfedc_ba98_7654_3210;
    let cas = ptx(PtxSpace::SharedCta, PtxOp::Cas, PtxType::B128, 1, vec![0x10], vec![0], Some(vec![big]));
    let (lanes, txns) = m.exec(0, &cas);
    assert_eq!(lanes, vec![Some(0)]);
    assert_eq!(m.read(Space::Slm, 0x10, 16), big.to_le_bytes());
    assert_eq!(txns.iter().map(|t| t.bytes).collect::<Vec<_>>(), vec![16, 16]);
    let exch = ptx(PtxSpace::Global, PtxOp::Exch, PtxType::B128, 1, vec![0x20], vec![big], None);
    m.exec(0, &exch);
    assert_eq!(m.read(Space::Flat, 0x20, 16), big.to_le_bytes());
}

#[test]
fn ptx_inc_dec_bounds_through_messages() {
    let mut m = machine(&[]);
    // inc with bound 2 from 0: 0 -> 1 -> 2 -> 0 (warp form, same address)
    let inc = ptx(PtxSpace::Global, PtxOp::Inc, PtxType::U32, 3, vec![0; 3], vec![2; 3], None);
    assert_eq!(m.exec(0, &inc).0, vec![Some(0), Some(1), Some(2)]);
    assert_eq!(u32_at(&m, Space::Flat, 0), 0);
    // dec with bound 2 from 0: 0 -> 2 -> 1 -> 0 -> 2
    let dec = ptx(PtxSpace::Global, PtxOp::Dec, PtxType::U32, 4, vec![0; 4], vec![2; 4], None);
    assert_eq!(m.exec(0, &dec).0, vec![Some(0), Some(2), Some(1), Some(0)]);
    assert_eq!(u32_at(&m, Space::Flat, 0), 2);
}

#[test]
fn ptx_vector_forms_are_one_access_per_element() {
    let mut m = machine(&[]);
    let f = |x: f32| x.to_bits() as u128;
    m.write(Space::Flat, 0x100, &[1.0f32.to_bits().to_le_bytes(), 2.0f32.to_bits().to_le_bytes()].concat());
    // v2.f32 add {10, 20}: element k at a + 4k, each read then written
    let v2 = ptx(PtxSpace::Global, PtxOp::Add, PtxType::F32, 1, vec![0x100], vec![f(10.0) | f(20.0) << 32], None);
    let msg = with_vec(v2, 2);
    let (lanes, txns) = m.exec(0, &msg);
    assert_eq!(lanes, vec![Some(f(1.0) | f(2.0) << 32)]);
    assert_eq!(u32_at(&m, Space::Flat, 0x100), 11.0f32.to_bits());
    assert_eq!(u32_at(&m, Space::Flat, 0x104), 22.0f32.to_bits());
    let order: Vec<(TxnKind, u64)> = txns.iter().map(|t| (t.kind, t.addr)).collect();
    assert_eq!(
        order,
        vec![(TxnKind::Read, 0x100), (TxnKind::Write, 0x100), (TxnKind::Read, 0x104), (TxnKind::Write, 0x104)]
    );
    // v8.f16 max: 8 two-byte elements; each max(old_k, b_k)
    let olds: Vec<u16> = vec![0x3c00, 0xc000, 0x7e00, 0x0000, 0x4000, 0x8000, 0x7e00, 0x3c00];
    let bs: Vec<u16> = vec![0x4000, 0xc200, 0x3c00, 0x8000, 0x3c00, 0x0000, 0x7e01, 0xfc00];
    m.write(Space::Flat, 0x200, &olds.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>());
    let b = bs.iter().enumerate().fold(0u128, |acc, (k, &x)| acc | (x as u128) << (16 * k));
    let v8 = with_vec(ptx(PtxSpace::Global, PtxOp::Max, PtxType::F16, 1, vec![0x200], vec![b], None), 8);
    let (lanes, txns) = m.exec(0, &v8);
    let old_joined = olds.iter().enumerate().fold(0u128, |acc, (k, &x)| acc | (x as u128) << (16 * k));
    assert_eq!(lanes, vec![Some(old_joined)]);
    assert_eq!(txns.len(), 16);
    let want: Vec<u16> = vec![0x4000, 0xc000, 0x3c00, 0x0000, 0x4000, 0x0000, 0x7fff, 0x3c00];
    assert_eq!(m.read(Space::Flat, 0x200, 16), want.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>());
}

#[test]
fn ptx_f16x2_is_one_32_bit_access_with_both_halves() {
    let mut m = machine(&[]);
    m.write(Space::Flat, 0, &0x4000_3c00u32.to_le_bytes()); // {lo 1.0, hi 2.0}
    let msg = ptx(PtxSpace::Global, PtxOp::Add, PtxType::F16x2, 1, vec![0], vec![0x3c00_3c00], None);
    let (lanes, txns) = m.exec(0, &msg);
    assert_eq!(lanes, vec![Some(0x4000_3c00)]);
    assert_eq!(txns.len(), 2);
    assert_eq!(txns[0].bytes, 4);
    assert_eq!(u32_at(&m, Space::Flat, 0), 0x4200_4000);
}

#[test]
fn ptx_shared_out_of_bounds_and_predicate() {
    let mut m = machine_with(8, &[]);
    let msg = ptx(PtxSpace::Shared, PtxOp::Add, PtxType::U32, 1, vec![8], vec![1], None);
    assert_eq!(m.exec(0, &msg), (vec![Some(0)], vec![]));
    let mut msg = ptx(PtxSpace::Shared, PtxOp::Add, PtxType::U32, 1, vec![4], vec![1], None);
    msg.pred = Some(PredRef { name: "p".into(), negate: false, mask: 0 });
    assert_eq!(m.exec(0, &msg), (vec![None], vec![]));
    msg.pred = Some(PredRef { name: "p".into(), negate: false, mask: 1 });
    assert_eq!(m.exec(0, &msg).0, vec![Some(0)]);
    assert_eq!(u32_at(&m, Space::Slm, 4), 1);
}

#[test]
fn ptx_warp_add_across_32_lanes() {
    let mut m = machine(&[]);
    // lanes 0..31 add lane+1 into two counters by parity
    let addrs: Vec<u64> = (0..32).map(|i| 0x80 + 4 * (i % 2)).collect();
    let b: Vec<u128> = (0..32).map(|i| i as u128 + 1).collect();
    let msg = ptx(PtxSpace::Global, PtxOp::Add, PtxType::U32, 32, addrs, b, None);
    let (lanes, txns) = m.exec(0, &msg);
    assert_eq!(txns.len(), 64);
    // lane 2k sees the sum of 1, 3, .., 2k-1 = k^2; lane 2k+1 sees 2 + 4 + .. + 2k = k(k+1)
    for k in 0..16u128 {
        assert_eq!(lanes[2 * k as usize], Some(k * k));
        assert_eq!(lanes[2 * k as usize + 1], Some(k * (k + 1)));
    }
    assert_eq!(u32_at(&m, Space::Flat, 0x80), 256);
    assert_eq!(u32_at(&m, Space::Flat, 0x84), 272);
}

// ---------------------------------------------------------------- memory

#[test]
fn untouched_memory_reads_zero_and_touched_pages_are_enumerated() {
    let mut m = machine(&[]);
    assert_eq!(m.read(Space::Flat, u64::MAX - 3, 8), vec![0; 8]);
    let msg = svm("xchg", VisaWidth::W64, vec![0xffff_ffff_ffff_f000, 0x2000], Some(vec![0x0102, 7]), None);
    m.exec(0, &msg);
    let pages: Vec<u64> = m.memory(Space::Flat).pages().iter().map(|(a, _)| *a).collect();
    assert_eq!(pages, vec![0x2000, 0xffff_ffff_ffff_f000]);
    assert_eq!(
        m.memory(Space::Flat).nonzero_bytes(),
        vec![(0x2000, 7), (0xffff_ffff_ffff_f000, 2), (0xffff_ffff_ffff_f001, 1)]
    );
    // an access straddling two pages (setup writes are not aligned)
    m.write(Space::Flat, 0x2ffe, &[1, 2, 3, 4]);
    assert_eq!(m.memory(Space::Flat).load(0x2ffe, 4), 0x0403_0201);
}

#[test]
fn txn_records_space_address_size_and_data() {
    let mut m = machine(&[]);
    let msg = dword("xor", false, DwordSurface::Slm, vec![8], Some(vec![0xf0f0]), None);
    let (_, txns) = m.exec(7, &msg);
    assert_eq!(
        txns,
        vec![
            Txn { msg: 7, lane: 0, kind: TxnKind::Read, space: Space::Slm, addr: 8, bytes: 4, data: 0 },
            Txn { msg: 7, lane: 0, kind: TxnKind::Write, space: Space::Slm, addr: 8, bytes: 4, data: 0xf0f0 },
        ]
    );
}

#[test]
fn run_reports_named_results_masked_to_width_and_dumps_after_all_messages() {
    use crate::program::Stmt;
    let mut p = program(65536, &[]);
    let mut a = svm("add", VisaWidth::W16, vec![0x10, 0x12], Some(vec![0x1_0001, 2]), None);
    a.line = 4;
    a.dst = Some("d0".into());
    let mut b = svm("inc", VisaWidth::W32, vec![0x10], None, None);
    b.line = 5;
    b.dst = None;
    p.stmts = vec![
        Stmt::Init { line: 1, space: Space::Flat, addr: 0x10, bytes: vec![0xff, 0xff, 0x05, 0x00] },
        Stmt::Dump { line: 2, space: Space::Flat, addr: 0x10, len: 4 },
        Stmt::Message(a),
        Stmt::Message(b),
    ];
    let out = crate::golden::run(&p);
    assert_eq!(out.engine, "golden");
    assert_eq!(out.results.len(), 1);
    assert_eq!(out.results[0].line, 4);
    assert_eq!(out.results[0].name, "d0");
    assert_eq!(out.results[0].width, 16);
    assert_eq!(out.results[0].lanes, vec![Some(0xffff), Some(5)]);
    // after both messages: word 0 = 0x0000 + inc on the dword -> 0x00070001
    assert_eq!(out.dumps.len(), 1);
    assert_eq!(out.dumps[0].bytes, vec![0x01, 0x00, 0x07, 0x00]);
    assert_eq!(out.txns.len(), 6);
    assert_eq!(out.txns[4].msg, 1);
}

#[test]
fn machine_exec_is_deterministic_from_a_clone() {
    // the lockstep bench clones state: a clone runs the same
    let mut m = machine(&[]);
    let msg = svm("add", VisaWidth::W32, vec![0, 0, 4], Some(vec![1, 2, 3]), None);
    let mut c = m.clone();
    assert_eq!(m.exec(0, &msg), c.exec(0, &msg));
    assert_eq!(m.read(Space::Flat, 0, 8), c.read(Space::Flat, 0, 8));
    let _ = Machine::new(&program(1, &[]));
}
