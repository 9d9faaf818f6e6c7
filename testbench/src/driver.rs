//! The driver: a message's encoded descriptor, its payload and the state of
//! the surface it names, laid onto the unit's `req_*` pins
//! (docs/microarchitecture.md, "Request"; docs/descriptors.md).
//!
//! The descriptor comes from the script-wide [`Encoder`] (the bytes
//! `atomport encode` prints); the lane values are the payload's, which are
//! the message's own values (docs/descriptors.md, "Payload"). The driver
//! resolves what a real binding table would: the surface state behind a
//! Surface byte, the SLM size, and SVM_SCATTER's seed src layout into each
//! lane's 256 payload bits ("Scatter payload").

use atomport_core::descriptor::{EncodeError, Encoder};
use atomport_core::message::{Body, DwordSurface, Message};
use atomport_core::program::{Program, Surface, TypedFormat};

use super::pins::{PinRequest, SURF_KIND_BUFFER, SURF_KIND_NONE};

/// The surface-state pins for a surface number (buffer or typed).
fn surface_state(req: &mut PinRequest, surface: Option<&Surface>) {
    match surface {
        None => req.surf_kind = SURF_KIND_NONE,
        Some(Surface::Buffer { base, size }) => {
            req.surf_kind = SURF_KIND_BUFFER;
            req.surf_base = *base;
            req.surf_size = *size;
        }
        Some(Surface::Typed(t)) => {
            req.surf_kind = t.kind as u8;
            req.surf_base = t.base;
            req.surf_width = t.width;
            req.surf_height = t.height;
            req.surf_depth = t.depth;
            req.surf_array = t.array;
            req.surf_levels = t.levels;
            req.surf_u16 = t.format == TypedFormat::U16;
        }
    }
}

/// Lane values of an optional source (V0 drives zeros).
fn lane(v: &Option<Vec<u128>>, i: usize) -> u128 {
    v.as_ref().map_or(0, |v| v[i])
}

/// The pin image of one message: descriptor from `encoder` (which numbers
/// predicates script-wide), payload and surface state from `program`.
#[allow(clippy::needless_range_loop)] // lane i of several parallel lane vectors
pub fn request(program: &Program, encoder: &mut Encoder, msg: &Message) -> Result<PinRequest, EncodeError> {
    let encoded = encoder.encode(msg)?;
    let mut req = PinRequest::default();
    req.set_desc_bytes(&encoded.desc);
    req.dmask = encoded.payload.dmask;
    req.pred_mask = encoded.payload.pred_mask;
    req.slm_size = program.slm_size;
    let n = msg.exec_size as usize;
    match &msg.body {
        Body::SvmAtomic { addrs, src0, src1, .. } => {
            for i in 0..n {
                req.set_addr(i, addrs[i]);
                req.set_src0(i, lane(src0, i));
                req.set_src1(i, lane(src1, i));
            }
        }
        Body::DwordAtomic { surface, offsets, src0, src1, .. } => {
            if let DwordSurface::Buffer(s) = surface {
                surface_state(&mut req, program.surfaces.get(s));
            }
            for i in 0..n {
                req.set_addr(i, offsets[i] as u64);
                req.set_src0(i, lane(src0, i));
                req.set_src1(i, lane(src1, i));
            }
        }
        Body::TypedAtomic { surface, u, v, r, lod, src0, src1, .. } => {
            surface_state(&mut req, program.surfaces.get(surface));
            let at = |x: &Option<Vec<u32>>, i: usize| x.as_ref().map_or(0, |x| x[i]);
            for i in 0..n {
                req.set_coord(i, u[i], at(v, i), at(r, i), at(lod, i));
                req.set_src0(i, lane(src0, i));
                req.set_src1(i, lane(src1, i));
            }
        }
        Body::SvmScatter { block_size, num_blocks, addrs, src } => {
            let (bs, nb) = (*block_size as usize, *num_blocks as usize);
            for i in 0..n {
                req.set_addr(i, addrs[i]);
                // lane i's 256 bits {src1[i], src0[i]}: block j at byte j*bs;
                // seed SVM_SCATTER.md Semantics: 1-byte blocks take
                // src[i*max(4, nb) + j], wider ones src[j*exec + i]
                let mut bytes = [0u8; 32];
                for j in 0..nb {
                    let value = if bs == 1 { src[i * nb.max(4) + j] } else { src[j * n + i] };
                    bytes[j * bs..(j + 1) * bs].copy_from_slice(&value.to_le_bytes()[..bs]);
                }
                req.set_src0(i, u128::from_le_bytes(bytes[..16].try_into().unwrap()));
                req.set_src1(i, u128::from_le_bytes(bytes[16..].try_into().unwrap()));
            }
        }
        Body::PtxAtom { addrs, b, c, .. } => {
            for i in 0..n {
                req.set_addr(i, addrs[i]);
                req.set_src0(i, b[i]);
                req.set_src1(i, lane(c, i));
            }
        }
    }
    Ok(req)
}

/// Elements one lane of `msg` moves through memory at most (PTX vector
/// elements, scatter blocks; 1 for the other atomics): for the watchdog.
pub fn elements_per_lane(msg: &Message) -> u32 {
    match &msg.body {
        Body::SvmScatter { num_blocks, .. } => *num_blocks as u32,
        Body::PtxAtom { vec, .. } => *vec as u32,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(text: &str) -> Program {
        atomport_core::script::parse("t.atom", text).expect("script")
    }

    #[test]
    fn scatter_blocks_follow_the_seed_layouts() {
        // 4-byte blocks: src[j*exec + i]
        let p = program("SVM_SCATTER.4.2 (2) [0x100 0x200] [0x11 0x22 0x33 0x44]\n");
        let msg = p.messages().next().unwrap();
        let req = request(&p, &mut Encoder::new(), msg).unwrap();
        // lane 0: blocks 0x11, 0x33; lane 1: blocks 0x22, 0x44
        assert_eq!(&req.src0[0..2], &[0x11, 0x33]);
        assert_eq!(&req.src0[4..6], &[0x22, 0x44]);
        assert_eq!(req.addr[0..4], [0x100, 0, 0x200, 0]);
        // 1-byte blocks: src[i*4 + j]
        let p = program("SVM_SCATTER.1.2 (2) [0x100 0x200] [1 2 3 4 5 6 7 8]\n");
        let req = request(&p, &mut Encoder::new(), p.messages().next().unwrap()).unwrap();
        assert_eq!(req.src0[0] & 0xffff, 0x0201);
        assert_eq!(req.src0[4] & 0xffff, 0x0605);
        assert_eq!(req.desc_bytes()[..2], [0x4e, 0x04]);
    }

    #[test]
    fn surface_state_and_coordinates_reach_the_pins() {
        let p = program(
            "surface 3 2d_array base=0x4000 width=4 height=2 array=3 levels=2 format=u16\n\
             TYPED_ATOMIC.add.16 (8) 3 [0 1 2 3 0 1 2 3] [1 1 1 1 0 0 0 0] [2 2 2 2 2 2 2 2] V0 [1 1 1 1 1 1 1 1] V0 d\n",
        );
        let req = request(&p, &mut Encoder::new(), p.messages().next().unwrap()).unwrap();
        assert_eq!((req.surf_kind, req.surf_base, req.surf_width, req.surf_height), (3, 0x4000, 4, 2));
        assert_eq!((req.surf_array, req.surf_levels, req.surf_u16), (3, 2, true));
        assert_eq!(&req.coord[4..8], &[1, 1, 2, 0]);
        assert_eq!(req.desc & 0xff, 0x73);
    }
}
