//! The wrapper of one Verilated model: [`Model`], generic over the model's
//! C entry points ([`Entry`], from its shim), holds the handle, the port
//! pointers, simulation time and the trace state; [`verilated_model!`]
//! declares a model's typed wrapper (`V<Top>`) over it, one accessor pair
//! per port. `build.rs` emits one `verilated_model!` invocation per model,
//! from Verilator's header: the code is here, the build only names ports.

use std::os::raw::{c_char, c_int, c_void};
use std::path::{Path, PathBuf};

use crate::{Port, SimError};

/// A model's `extern "C"` entry points (`atomport_sim_<label>_*`, from the
/// shim build.rs writes for it).
#[doc(hidden)]
pub struct Entry {
    pub new: unsafe extern "C" fn(out: *mut *mut c_void) -> c_int,
    pub ports: unsafe extern "C" fn(handle: *mut c_void, out: *mut *mut c_void),
    pub eval: unsafe extern "C" fn(handle: *mut c_void) -> c_int,
    pub trace_open: unsafe extern "C" fn(handle: *mut c_void, path: *const c_char) -> c_int,
    pub trace_dump: unsafe extern "C" fn(handle: *mut c_void, time: u64) -> c_int,
    pub trace_flush: unsafe extern "C" fn(handle: *mut c_void) -> c_int,
    pub trace_close: unsafe extern "C" fn(handle: *mut c_void) -> c_int,
    pub finish: unsafe extern "C" fn(handle: *mut c_void) -> c_int,
    pub delete: unsafe extern "C" fn(handle: *mut c_void),
}

/// How Verilator stores a port: a C integer of 8, 16, 32 or 64 bits, or a
/// `VlWide` of `u32` words.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    Scalar(u32),
    Words(u32),
}

/// What [`Model`] knows of one Verilated top module (implemented by
/// [`verilated_model!`]). Constants, so every call is a direct one.
#[doc(hidden)]
pub trait Verilated {
    /// the top module's name
    const NAME: &'static str;
    /// the model writes FST (checked when its trace closes), else VCD
    const FST: bool;
    const ENTRY: Entry;
    /// the ports, in the header's order
    const PORTS: &'static [Port];
    /// each port's storage, in the same order
    const STORAGE: &'static [Storage];
}

/// A Verilated model with its own `VerilatedContext` (see the crate doc).
#[doc(hidden)]
pub struct Model<M: Verilated, const N: usize> {
    handle: *mut c_void,
    ports: [*mut c_void; N],
    time: u64,
    tracing: bool,
    /// the open trace file (the FST one is checked when closed)
    trace_path: Option<PathBuf>,
    /// why the trace stopped (a write that failed); every later trace call reports it
    trace_error: Option<String>,
    dead: Option<String>,
    model: std::marker::PhantomData<M>,
}

impl<M: Verilated, const N: usize> Model<M, N> {
    /// Builds the model (a new `VerilatedContext`, tracing enabled but no
    /// file open) and evaluates it once.
    pub fn new() -> Result<Self, SimError> {
        let mut handle = std::ptr::null_mut();
        if unsafe { (M::ENTRY.new)(&mut handle) } != 0 {
            return Err(SimError::Fatal(crate::last_error()));
        }
        let mut ports = [std::ptr::null_mut(); N];
        unsafe { (M::ENTRY.ports)(handle, ports.as_mut_ptr()) };
        let mut model = Model {
            handle,
            ports,
            time: 0,
            tracing: false,
            trace_path: None,
            trace_error: None,
            dead: None,
            model: std::marker::PhantomData,
        };
        model.eval()?;
        Ok(model)
    }

    /// Port `i`'s storage in the model.
    #[inline(always)]
    pub fn port(&self, i: usize) -> *mut c_void {
        self.ports[i]
    }

    #[inline]
    pub fn eval(&mut self) -> Result<(), SimError> {
        if self.dead.is_none() && unsafe { (M::ENTRY.eval)(self.handle) } == 0 {
            return Ok(());
        }
        Err(self.fatal())
    }

    /// The error for a failed eval: the fatal itself the first time, then
    /// `Dead` (a model is never evaluated again after a fatal).
    #[cold]
    fn fatal(&mut self) -> SimError {
        if let Some(msg) = &self.dead {
            return SimError::Dead(msg.clone());
        }
        let msg = crate::last_error();
        self.dead = Some(msg.clone());
        SimError::Fatal(msg)
    }

    #[inline]
    pub fn time(&self) -> u64 {
        self.time
    }

    #[inline]
    pub fn advance(&mut self, dt: u64) {
        self.time += dt;
    }

    #[inline]
    pub fn dump(&mut self) -> Result<(), SimError> {
        if self.tracing && unsafe { (M::ENTRY.trace_dump)(self.handle, self.time) } != 0 {
            return Err(self.trace_failed());
        }
        Ok(())
    }

    /// The trace's first failure, as an error; the trace is closed.
    #[cold]
    fn trace_failed(&mut self) -> SimError {
        let msg = self.trace_error.get_or_insert_with(crate::last_error).clone();
        self.tracing = false;
        SimError::Trace(msg)
    }

    #[inline]
    pub fn step(&mut self) -> Result<(), SimError> {
        self.eval()?;
        self.dump()?;
        self.time += crate::CLOCK_PERIOD;
        Ok(())
    }

    pub fn open_trace(&mut self, path: &Path) -> Result<(), SimError> {
        let c_path = std::ffi::CString::new(path.to_string_lossy().as_bytes())
            .map_err(|_| SimError::Trace(format!("{}: path contains NUL", path.display())))?;
        self.trace_error = None;
        if unsafe { (M::ENTRY.trace_open)(self.handle, c_path.as_ptr()) } != 0 {
            self.tracing = false;
            return Err(SimError::Trace(crate::last_error()));
        }
        self.tracing = true;
        self.trace_path = Some(path.to_path_buf());
        Ok(())
    }

    pub fn tracing(&self) -> bool {
        self.tracing
    }

    pub fn flush_trace(&mut self) -> Result<(), SimError> {
        if self.tracing && unsafe { (M::ENTRY.trace_flush)(self.handle) } != 0 {
            return Err(self.trace_failed());
        }
        Ok(())
    }

    pub fn close_trace(&mut self) -> Result<(), SimError> {
        if let Some(e) = &self.trace_error {
            return Err(SimError::Trace(e.clone()));
        }
        if !self.tracing {
            return Ok(());
        }
        if unsafe { (M::ENTRY.trace_close)(self.handle) } != 0 {
            return Err(self.trace_failed());
        }
        self.tracing = false;
        match self.trace_path.take() {
            Some(path) if M::FST => crate::check_fst_file(&path).map_err(|e| {
                self.trace_error = Some(e.clone());
                SimError::Trace(e)
            }),
            _ => Ok(()),
        }
    }

    /// The index of input `name` of at most 128 bits.
    fn input_index(name: &str) -> Result<usize, SimError> {
        M::PORTS
            .iter()
            .position(|p| p.name == name && p.dir == crate::PortDir::Input && p.width <= 128)
            .ok_or_else(|| SimError::Port(format!("{} has no input port `{name}` of at most 128 bits", M::NAME)))
    }

    pub fn set_port(&mut self, name: &str, value: u128) -> Result<(), SimError> {
        let i = Self::input_index(name)?;
        unsafe { store(self.ports[i], M::STORAGE[i], M::PORTS[i].width, value) };
        Ok(())
    }

    pub fn get_port(&self, name: &str) -> Option<u128> {
        let i = M::PORTS.iter().position(|p| p.name == name && p.width <= 128)?;
        Some(unsafe { load(self.ports[i], M::STORAGE[i]) })
    }

    /// A Debug view: the time and every port up to 128 bits.
    pub fn debug(&self, f: &mut std::fmt::Formatter<'_>, ty: &str) -> std::fmt::Result {
        let mut d = f.debug_struct(ty);
        d.field("time", &self.time);
        for p in M::PORTS {
            if let Some(v) = self.get_port(p.name) {
                d.field(p.name, &format_args!("{v:#x}"));
            }
        }
        d.finish()
    }
}

impl<M: Verilated, const N: usize> Drop for Model<M, N> {
    /// Finalizes the model (`final()`), closes the trace, frees the model
    /// and its context.
    fn drop(&mut self) {
        unsafe {
            if self.dead.is_none() {
                let _ = (M::ENTRY.finish)(self.handle);
            }
            (M::ENTRY.delete)(self.handle);
        }
    }
}

/// `width`'s low bits set, in a `u128`.
#[inline(always)]
pub const fn mask(width: u32) -> u128 {
    u128::MAX >> (128 - width)
}

/// Writes `value` (masked to `width`) into a port stored as `storage`.
///
/// # Safety
/// `ptr` is the port's storage in a live model, of that class and width
/// (at most 128 bits).
#[inline]
pub unsafe fn store(ptr: *mut c_void, storage: Storage, width: u32, value: u128) {
    let value = value & mask(width);
    match storage {
        Storage::Scalar(8) => *(ptr as *mut u8) = value as u8,
        Storage::Scalar(16) => *(ptr as *mut u16) = value as u16,
        Storage::Scalar(32) => *(ptr as *mut u32) = value as u32,
        Storage::Scalar(_) => *(ptr as *mut u64) = value as u64,
        Storage::Words(n) => {
            for k in 0..n as usize {
                *(ptr as *mut u32).add(k) = (value >> (32 * k)) as u32;
            }
        }
    }
}

/// Reads a port stored as `storage` (at most 128 bits).
///
/// # Safety
/// As for [`store`].
#[inline]
pub unsafe fn load(ptr: *mut c_void, storage: Storage) -> u128 {
    match storage {
        Storage::Scalar(8) => *(ptr as *const u8) as u128,
        Storage::Scalar(16) => *(ptr as *const u16) as u128,
        Storage::Scalar(32) => *(ptr as *const u32) as u128,
        Storage::Scalar(_) => *(ptr as *const u64) as u128,
        Storage::Words(n) => (0..n as usize).fold(0, |v, k| v | (*(ptr as *const u32).add(k) as u128) << (32 * k)),
    }
}

/// Declares the typed wrapper of one Verilated model. build.rs emits one
/// invocation per model:
///
/// ```text
/// verilated_model! {
///     VAtomicAlu, label "atomic_alu", top "atomic_alu", file "atomic_alu.v", fst false,
///     clock set_clock,
///     ports {
///         0 Input "clock" clock [1] scalar u8 { set_clock },
///         7 Input "src0" src0 [128] wide 4 { set_src0 src0_words set_src0_words },
///         10 Output "ret_value" ret_value [128] wide 4 { ret_value_words },
///     }
/// }
/// ```
///
/// A port is `scalar` (u8/u16/u32/u64), `wide` (u32 words, at most 128
/// bits: also a `u128` getter and setter) or `words` (over 128 bits: words
/// only); an input names its setters after the getter. `clock` (a 1-bit
/// input named `clock` or `clk`) gives the model `tick` and `ticks`.
#[macro_export]
#[doc(hidden)]
macro_rules! verilated_model {
    (
        $ty:ident, label $label:literal, top $top:literal, file $file:literal, fst $fst:literal,
        $(clock $set_clock:ident,)?
        ports { $($i:tt $dir:ident $name:tt $get:ident [$w:tt] $kind:ident $store:tt { $($acc:ident)* },)* }
    ) => {
        #[doc = concat!("The Verilated model of top module `", $top, "` (`hdl/verilog/", $file, "`), with its own `VerilatedContext`.")]
        ///
        /// Port access is through raw pointers into the model: setters write the
        /// input, getters read the port as last evaluated; call `eval` (or
        /// a step/tick helper) after changing inputs. Ports over 64 bits are
        /// little-endian `u32` words (`*_words`), with `u128` helpers up to 128 bits.
        /// Setters mask the value to the port's width.
        pub struct $ty($crate::model::Model<$ty, { [$($i),*].len() }>);

        impl $crate::model::Verilated for $ty {
            const NAME: &'static str = $top;
            const FST: bool = $fst;
            const ENTRY: $crate::model::Entry = {
                extern "C" {
                    #[link_name = concat!("atomport_sim_", $label, "_new")]
                    fn new(out: *mut *mut std::os::raw::c_void) -> std::os::raw::c_int;
                    #[link_name = concat!("atomport_sim_", $label, "_ports")]
                    fn ports(handle: *mut std::os::raw::c_void, out: *mut *mut std::os::raw::c_void);
                    #[link_name = concat!("atomport_sim_", $label, "_eval")]
                    fn eval(handle: *mut std::os::raw::c_void) -> std::os::raw::c_int;
                    #[link_name = concat!("atomport_sim_", $label, "_trace_open")]
                    fn trace_open(handle: *mut std::os::raw::c_void, path: *const std::os::raw::c_char) -> std::os::raw::c_int;
                    #[link_name = concat!("atomport_sim_", $label, "_trace_dump")]
                    fn trace_dump(handle: *mut std::os::raw::c_void, time: u64) -> std::os::raw::c_int;
                    #[link_name = concat!("atomport_sim_", $label, "_trace_flush")]
                    fn trace_flush(handle: *mut std::os::raw::c_void) -> std::os::raw::c_int;
                    #[link_name = concat!("atomport_sim_", $label, "_trace_close")]
                    fn trace_close(handle: *mut std::os::raw::c_void) -> std::os::raw::c_int;
                    #[link_name = concat!("atomport_sim_", $label, "_final")]
                    fn finish(handle: *mut std::os::raw::c_void) -> std::os::raw::c_int;
                    #[link_name = concat!("atomport_sim_", $label, "_delete")]
                    fn delete(handle: *mut std::os::raw::c_void);
                }
                $crate::model::Entry { new, ports, eval, trace_open, trace_dump, trace_flush, trace_close, finish, delete }
            };
            const PORTS: &'static [$crate::Port] =
                &[$($crate::Port { name: $name, dir: $crate::PortDir::$dir, width: $w }),*];
            const STORAGE: &'static [$crate::model::Storage] =
                &[$($crate::verilated_model!(@storage $kind $store)),*];
        }

        impl $ty {
            /// The top module's name.
            pub const NAME: &'static str = $top;
            /// The ports, in declaration order.
            pub const PORTS: &'static [$crate::Port] = <$ty as $crate::model::Verilated>::PORTS;

            /// Builds the model (a new `VerilatedContext`, tracing enabled but no
            /// file open) and evaluates it once.
            pub fn new() -> Result<Self, $crate::SimError> {
                $crate::model::Model::new().map($ty)
            }

            /// Evaluates the model with the current inputs. A Verilator fatal is an
            /// `Err`, and the model refuses to run after one.
            #[inline]
            pub fn eval(&mut self) -> Result<(), $crate::SimError> {
                self.0.eval()
            }

            /// Current simulation time, in trace time units (1 ns).
            #[inline]
            pub fn time(&self) -> u64 {
                self.0.time()
            }

            /// Moves simulation time forward by `dt` time units.
            #[inline]
            pub fn advance(&mut self, dt: u64) {
                self.0.advance(dt)
            }

            /// Writes every signal's current value into the trace at the current
            /// time (no-op when no trace is open). A write that fails (a full disk)
            /// is `SimError::Trace` and stops the trace: the file is not whole and
            /// is for the caller to remove.
            #[inline]
            pub fn dump(&mut self) -> Result<(), $crate::SimError> {
                self.0.dump()
            }

            /// One cycle of a combinational model: eval, dump at the current time,
            /// advance one clock period (`CLOCK_PERIOD`).
            #[inline]
            pub fn step(&mut self) -> Result<(), $crate::SimError> {
                self.0.step()
            }

            /// Opens a trace at `path` (replacing any open one); every later
            /// dump / step / tick writes into it.
            pub fn open_trace(&mut self, path: impl AsRef<std::path::Path>) -> Result<(), $crate::SimError> {
                self.0.open_trace(path.as_ref())
            }

            /// Whether a trace file is open.
            pub fn tracing(&self) -> bool {
                self.0.tracing()
            }

            /// Flushes the open trace file to disk.
            pub fn flush_trace(&mut self) -> Result<(), $crate::SimError> {
                self.0.flush_trace()
            }

            /// Closes the trace file, if one is open; `Err` when it could not be
            /// written whole (now or at an earlier dump): then it is not a
            /// waveform to keep.
            pub fn close_trace(&mut self) -> Result<(), $crate::SimError> {
                self.0.close_trace()
            }

            /// Sets input `name` from a `u128` (masked to the port's width).
            /// `Err` for an unknown name, an output, or a port over 128 bits.
            pub fn set_port(&mut self, name: &str, value: u128) -> Result<(), $crate::SimError> {
                self.0.set_port(name, value)
            }

            /// Reads port `name` as a `u128`; `None` for an unknown name or a port
            /// over 128 bits.
            pub fn get_port(&self, name: &str) -> Option<u128> {
                self.0.get_port(name)
            }

            $($crate::verilated_model!(@port $i $dir $name $get [$w] $kind $store { $($acc)* });)*

            $($crate::verilated_model!(@clock $set_clock);)?
        }

        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.debug(f, stringify!($ty))
            }
        }
    };

    (@storage scalar $t:tt) => { $crate::model::Storage::Scalar($t) };
    (@storage wide $n:tt) => { $crate::model::Storage::Words($n) };
    (@storage words $n:tt) => { $crate::model::Storage::Words($n) };

    (@port $i:tt $dir:ident $name:tt $get:ident [$w:tt] scalar $bits:tt { $($set:ident)? }) => {
        $crate::verilated_model!(@scalar $i $dir $name $get [$w] $bits { $($set)? });
    };
    (@scalar $i:tt $dir:ident $name:tt $get:ident [$w:tt] 8 { $($set:ident)? }) => {
        $crate::verilated_model!(@typed $i $dir $name $get [$w] u8 { $($set)? });
    };
    (@scalar $i:tt $dir:ident $name:tt $get:ident [$w:tt] 16 { $($set:ident)? }) => {
        $crate::verilated_model!(@typed $i $dir $name $get [$w] u16 { $($set)? });
    };
    (@scalar $i:tt $dir:ident $name:tt $get:ident [$w:tt] 32 { $($set:ident)? }) => {
        $crate::verilated_model!(@typed $i $dir $name $get [$w] u32 { $($set)? });
    };
    (@scalar $i:tt $dir:ident $name:tt $get:ident [$w:tt] 64 { $($set:ident)? }) => {
        $crate::verilated_model!(@typed $i $dir $name $get [$w] u64 { $($set)? });
    };
    (@typed $i:tt $dir:ident $name:tt $get:ident [$w:tt] $t:ty { $($set:ident)? }) => {
        #[doc = concat!(stringify!($dir), " `", $name, "` (", $w, " bits).")]
        #[inline]
        pub fn $get(&self) -> $t {
            unsafe { *(self.0.port($i) as *const $t) }
        }
        $(
            #[doc = concat!("Sets input `", $name, "` (", $w, " bits; higher bits are dropped).")]
            #[inline]
            pub fn $set(&mut self, value: $t) {
                unsafe { *(self.0.port($i) as *mut $t) = value & (<$t>::MAX >> (<$t>::BITS - $w)) }
            }
        )?
    };
    (@port $i:tt $dir:ident $name:tt $get:ident [$w:tt] wide $n:tt { $set:ident $get_words:ident $set_words:ident }) => {
        $crate::verilated_model!(@port $i $dir $name $get [$w] words $n { $get_words $set_words });
        #[doc = concat!(stringify!($dir), " `", $name, "` (", $w, " bits) as a `u128`.")]
        #[inline]
        pub fn $get(&self) -> u128 {
            let w = self.$get_words();
            let mut v = 0u128;
            for (k, word) in w.iter().enumerate() {
                v |= (*word as u128) << (32 * k);
            }
            v
        }
        #[doc = concat!("Sets input `", $name, "` (", $w, " bits) from a `u128` (higher bits are dropped).")]
        #[inline]
        pub fn $set(&mut self, value: u128) {
            let mut w = [0u32; $n];
            for (k, word) in w.iter_mut().enumerate() {
                *word = (value >> (32 * k)) as u32;
            }
            self.$set_words(&w);
        }
    };
    (@port $i:tt $dir:ident $name:tt $get:ident [$w:tt] wide $n:tt { $get_words:ident }) => {
        $crate::verilated_model!(@port $i $dir $name $get [$w] words $n { $get_words });
        #[doc = concat!(stringify!($dir), " `", $name, "` (", $w, " bits) as a `u128`.")]
        #[inline]
        pub fn $get(&self) -> u128 {
            let w = self.$get_words();
            let mut v = 0u128;
            for (k, word) in w.iter().enumerate() {
                v |= (*word as u128) << (32 * k);
            }
            v
        }
    };
    (@port $i:tt $dir:ident $name:tt $get:ident [$w:tt] words $n:tt { $get_words:ident $($set_words:ident)? }) => {
        #[doc = concat!(stringify!($dir), " `", $name, "` (", $w, " bits) as ", $n, " little-endian `u32` words.")]
        #[inline]
        pub fn $get_words(&self) -> [u32; $n] {
            unsafe { *(self.0.port($i) as *const [u32; $n]) }
        }
        $(
            #[doc = concat!("Sets input `", $name, "` (", $w, " bits) from ", $n, " little-endian `u32` words (bits past the width are dropped).")]
            #[inline]
            pub fn $set_words(&mut self, words: &[u32; $n]) {
                let mut w = *words;
                w[$n - 1] &= u32::MAX >> (32 * $n - $w);
                unsafe { *(self.0.port($i) as *mut [u32; $n]) = w }
            }
        )?
    };

    (@clock $set_clock:ident) => {
        /// One clock cycle of `CLOCK_PERIOD`: the clock low,
        /// eval, dump at the cycle's start; the clock high (the rising edge),
        /// eval, dump half a period later; time advances one period. Inputs set
        /// before `tick` are sampled at its rising edge; outputs read after it
        /// are the post-edge values.
        #[inline]
        pub fn tick(&mut self) -> Result<(), $crate::SimError> {
            self.$set_clock(0);
            self.0.eval()?;
            self.0.dump()?;
            self.$set_clock(1);
            self.0.eval()?;
            self.0.advance($crate::CLOCK_PERIOD / 2);
            self.0.dump()?;
            self.0.advance($crate::CLOCK_PERIOD - $crate::CLOCK_PERIOD / 2);
            Ok(())
        }

        /// `n` clock cycles.
        pub fn ticks(&mut self, n: u64) -> Result<(), $crate::SimError> {
            for _ in 0..n {
                self.tick()?;
            }
            Ok(())
        }
    };
}
