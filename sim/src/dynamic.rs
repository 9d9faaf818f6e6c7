//! Models verilated at run time: Verilog that is not checked in (a block
//! with its mutants behind a select input, `atomport mutate`) verilated and
//! compiled into a shared library in a folder of the caller's, loaded with
//! `dlopen`, its ports reached by name.
//!
//! The project's own models (`V<Top>`, `build.rs`) are untouched: a runtime
//! model carries its own copy of Verilator's runtime, with hidden symbols,
//! and its own `vl_fatal` that throws (cpp/atomport_sim.cpp), so a fatal in
//! it is an `Err` here too. A build is cached: the folder keeps the library
//! and a stamp of what it was built from, and the same inputs load it again
//! without verilating.

use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use crate::verilator_header::{parse_ports, HeaderPort};
use crate::{PortDir, SimError};

/// What went wrong building or loading a runtime model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DynError {
    /// A tool (verilator, the C++ compiler) is missing or failed; `log` is
    /// where its output went.
    Tool { what: String, log: PathBuf },
    /// A file of the build could not be read or written.
    Io { path: PathBuf, error: String },
    /// The library could not be loaded, or lacks an entry point.
    Load(String),
    /// A port that is missing, of the wrong direction or width.
    Port(String),
}

impl fmt::Display for DynError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DynError::Tool { what, log } => write!(f, "{what} (log: {})", log.display()),
            DynError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            DynError::Load(m) => write!(f, "loading the model: {m}"),
            DynError::Port(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for DynError {}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DynError + '_ {
    move |e| DynError::Io { path: path.to_path_buf(), error: e.to_string() }
}

/// One runtime build: which Verilog, which top, where.
#[derive(Clone, Debug)]
pub struct DynBuild {
    /// the Verilog files, the top's first
    pub sources: Vec<PathBuf>,
    /// the top module
    pub top: String,
    /// the build folder (created; the library, its objects and logs go here)
    pub dir: PathBuf,
    /// C++ compile jobs at once
    pub jobs: usize,
    /// Verilator's DFG optimizer on. Off (`-fno-dfg`) for a unit's netlist:
    /// Verilator 5.006's DFG miscomputes the full unit's flattened netlist (a
    /// bit of `left_lanes_two`'s lane count, 0 where Icarus and the RTL give
    /// 1, with the mutant select tied to 0); without it the netlist agrees
    /// with Icarus on every port. On for the ALU, whose model builds ~10x
    /// faster with it.
    pub dfg: bool,
}

/// Verilator's options for a runtime model: the project's (build.rs) less
/// tracing, and warnings off (the input is Yosys's netlist Verilog, whose
/// bit-level loops through wide vectors Verilator reports as UNOPTFLAT).
const VERILATOR_ARGS: &[&str] = &[
    "--cc",
    "--no-timing",
    "-O3",
    "--x-assign",
    "fast",
    "--x-initial",
    "fast",
    "-Wno-fatal",
    "-Wno-lint",
    "-Wno-style",
    "-Wno-UNOPTFLAT",
];

/// The C++ flags: position independent, every symbol hidden but the shim's
/// entry points, so this library's Verilator runtime never meets the
/// process's own.
const CXX_FLAGS: &[&str] = &[
    "-std=c++17",
    "-O2",
    "-fPIC",
    "-fvisibility=hidden",
    "-fvisibility-inlines-hidden",
    "-faligned-new",
    "-pthread",
    "-w",
    "-DVM_COVERAGE=0",
    "-DVM_SC=0",
    "-DVM_TRACE=0",
    "-DVL_USER_FATAL",
    "-DATOMPORT_SIM_X_UNIQUE=0",
];

const PREFIX: &str = "Vdyn";
const LIBRARY: &str = "libmodel.so";
const STAMP: &str = "stamp";
/// Bumped when the shim or the flags change, so old builds are not reused.
const SHIM_VERSION: &str = "1";

/// 64-bit FNV-1a: the build stamp (stable across runs and Rust versions).
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn tool_version(cmd: &str, arg: &str) -> String {
    Command::new(cmd).arg(arg).output().map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default()
}

fn cxx() -> String {
    std::env::var("CXX").unwrap_or_else(|_| "g++".into())
}

impl DynBuild {
    /// What the build is made of, as a stamp: the sources' contents, the
    /// top, the tools' versions, the flags and the shim.
    fn stamp(&self) -> Result<String, DynError> {
        let mut texts = vec![];
        for s in &self.sources {
            texts.push(std::fs::read(s).map_err(io(s))?);
        }
        let verilator = tool_version("verilator", "--version");
        let compiler = tool_version(&cxx(), "--version");
        let mut parts: Vec<&[u8]> = texts.iter().map(|t| t.as_slice()).collect();
        let flags = format!("{VERILATOR_ARGS:?}{CXX_FLAGS:?}{SHIM_VERSION}{}", self.dfg);
        parts.extend([self.top.as_bytes(), verilator.as_bytes(), compiler.as_bytes(), flags.as_bytes()]);
        Ok(format!("{:016x}", fnv1a(&parts)))
    }

    /// The library built before from the same inputs, if the folder has it.
    pub fn cached(&self) -> Result<Option<DynLibrary>, DynError> {
        let stamp = self.stamp()?;
        let library = self.dir.join(LIBRARY);
        match std::fs::read_to_string(self.dir.join(STAMP)) {
            Ok(s) if s.trim() == stamp && library.is_file() => DynLibrary::load(&library, &self.dir.join("obj")).map(Some),
            _ => Ok(None),
        }
    }

    /// Verilates and compiles the model into `dir` (or loads the cached
    /// build) and loads it.
    pub fn build(&self) -> Result<DynLibrary, DynError> {
        if let Some(lib) = self.cached()? {
            return Ok(lib);
        }
        let stamp = self.stamp()?;
        let obj = self.dir.join("obj");
        let _ = std::fs::remove_dir_all(&obj);
        let _ = std::fs::remove_file(self.dir.join(STAMP));
        std::fs::create_dir_all(&obj).map_err(io(&obj))?;
        let root = verilator_root()?;
        let include = root.join("include");

        let log = self.dir.join("verilator.log");
        let mut verilator = Command::new("verilator");
        verilator.args(VERILATOR_ARGS);
        if !self.dfg {
            verilator.arg("-fno-dfg");
        }
        verilator.args(["--prefix", PREFIX, "--top-module", &self.top, "-Mdir"]).arg(&obj);
        verilator.args(&self.sources);
        run_logged(verilator, &log, "verilator")?;

        let header_path = obj.join(format!("{PREFIX}.h"));
        let header = std::fs::read_to_string(&header_path).map_err(io(&header_path))?;
        let ports = parse_ports(&header).map_err(DynError::Port)?;
        for (name, text) in [("atomport_sim.h", crate::CPP_HEADER), ("atomport_sim.cpp", crate::CPP_RUNTIME)] {
            write_file(&obj.join(name), text)?;
        }
        write_file(&obj.join("shim.cpp"), &shim_cpp(&self.top, &ports))?;

        let mut units: Vec<PathBuf> = std::fs::read_dir(&obj)
            .map_err(io(&obj))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("cpp"))
            .collect();
        units.sort();
        units.extend(["verilated.cpp", "verilated_threads.cpp"].map(|f| include.join(f)));
        let includes = [include.clone(), include.join("vltstd"), obj.clone()];
        let objects = compile_all(&units, &obj, &includes, self.jobs.max(1))?;

        let library = self.dir.join(LIBRARY);
        let partial = self.dir.join(format!("{LIBRARY}.partial"));
        let mut link = Command::new(cxx());
        link.args(["-shared", "-pthread", "-Wl,-Bsymbolic", "-o"]).arg(&partial).args(&objects);
        run_logged(link, &self.dir.join("link.log"), "linking the model")?;
        std::fs::rename(&partial, &library).map_err(io(&library))?;
        write_file(&self.dir.join(STAMP), &stamp)?;
        DynLibrary::load(&library, &obj)
    }
}

/// Writes `path` whole: a temporary file beside it, then a rename.
fn write_file(path: &Path, text: &str) -> Result<(), DynError> {
    let tmp = path.with_extension("tmp-write");
    std::fs::write(&tmp, text).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

fn verilator_root() -> Result<PathBuf, DynError> {
    let out = Command::new("verilator").args(["--getenv", "VERILATOR_ROOT"]).output();
    match out {
        Ok(o) if o.status.success() => Ok(PathBuf::from(String::from_utf8_lossy(&o.stdout).trim())),
        _ => Err(DynError::Tool {
            what: "verilator not found on PATH (install: `apt-get install -y verilator`, or `make deps`)".into(),
            log: PathBuf::from("-"),
        }),
    }
}

/// Runs `cmd` with its output in `log`; an error names `what` and the log.
fn run_logged(mut cmd: Command, log: &Path, what: &str) -> Result<(), DynError> {
    let file = std::fs::File::create(log).map_err(io(log))?;
    let err = file.try_clone().map_err(io(log))?;
    let status = cmd.stdout(file).stderr(err).status();
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(DynError::Tool { what: format!("{what} failed ({s})"), log: log.to_path_buf() }),
        Err(e) => Err(DynError::Tool { what: format!("cannot run {what}: {e}"), log: log.to_path_buf() }),
    }
}

/// Compiles every unit to an object in `obj`, `jobs` at a time.
fn compile_all(units: &[PathBuf], obj: &Path, includes: &[PathBuf], jobs: usize) -> Result<Vec<PathBuf>, DynError> {
    let mut objects = vec![];
    let mut running: Vec<(std::process::Child, PathBuf)> = vec![];
    let mut pending = units.iter().enumerate();
    loop {
        while running.len() < jobs {
            let Some((k, unit)) = pending.next() else { break };
            let stem = unit.file_stem().unwrap_or_default().to_string_lossy();
            let object = obj.join(format!("{k:03}_{stem}.o"));
            let log = obj.join(format!("{k:03}_{stem}.log"));
            let file = std::fs::File::create(&log).map_err(io(&log))?;
            let err = file.try_clone().map_err(io(&log))?;
            let mut cmd = Command::new(cxx());
            cmd.args(CXX_FLAGS);
            for i in includes {
                cmd.arg("-I").arg(i);
            }
            cmd.arg("-c").arg(unit).arg("-o").arg(&object).stdout(file).stderr(err);
            let child = cmd.spawn().map_err(|e| DynError::Tool { what: format!("cannot run {}: {e}", cxx()), log: log.clone() })?;
            running.push((child, log));
            objects.push(object);
        }
        if running.is_empty() {
            return Ok(objects);
        }
        let (mut child, log) = running.remove(0);
        let status = child.wait().map_err(io(&log))?;
        if !status.success() {
            for (mut c, _) in running {
                let _ = c.kill();
                let _ = c.wait();
            }
            return Err(DynError::Tool { what: format!("compiling the model failed ({status})"), log });
        }
    }
}

/// The shim's C++: `extern "C"` entry points with default visibility
/// (everything else in the library is hidden), one port pointer per port
/// in the header's order.
fn shim_cpp(top: &str, ports: &[HeaderPort]) -> String {
    let mut pointers = String::new();
    for (i, p) in ports.iter().enumerate() {
        let data = if p.storage == 0 { ".data()" } else { "" };
        let amp = if p.storage == 0 { "" } else { "&" };
        pointers.push_str(&format!("    out[{i}] = static_cast<void*>({amp}m->{}{data});\n", p.name));
    }
    format!(
        r#"// Generated by atomport-sim (dynamic.rs): the entry points of a runtime model of `{top}`.
#include "atomport_sim.h"
#include "{PREFIX}.h"
#include "verilated.h"

#include <memory>

#define ATOMPORT_DYN_EXPORT extern "C" __attribute__((visibility("default")))

namespace {{
struct Handle {{
    std::unique_ptr<VerilatedContext> context;
    std::unique_ptr<{PREFIX}> model;
}};
}}  // namespace

ATOMPORT_DYN_EXPORT int atomport_dyn_new(void** out) {{
    ATOMPORT_SIM_GUARD({{
        auto h = std::make_unique<Handle>();
        h->context = std::make_unique<VerilatedContext>();
        h->context->fatalOnError(true);
        Verilated::threadContextp(h->context.get());
        atomport_sim::apply_seed_from_env(h->context.get());
        h->model = std::make_unique<{PREFIX}>(h->context.get(), "{top}");
        *out = h.release();
    }})
}}

ATOMPORT_DYN_EXPORT void atomport_dyn_ports(void* handle, void** out) {{
    {PREFIX}* m = static_cast<Handle*>(handle)->model.get();
{pointers}}}

ATOMPORT_DYN_EXPORT int atomport_dyn_eval(void* handle) {{
    Handle* h = static_cast<Handle*>(handle);
    Verilated::threadContextp(h->context.get());
    ATOMPORT_SIM_GUARD(h->model->eval())
}}

ATOMPORT_DYN_EXPORT int atomport_dyn_final(void* handle) {{
    Handle* h = static_cast<Handle*>(handle);
    Verilated::threadContextp(h->context.get());
    ATOMPORT_SIM_GUARD(h->model->final())
}}

ATOMPORT_DYN_EXPORT void atomport_dyn_delete(void* handle) {{
    Handle* h = static_cast<Handle*>(handle);
    Verilated::threadContextp(h->context.get());
    delete h;
}}

ATOMPORT_DYN_EXPORT const char* atomport_dyn_last_error() {{ return atomport_sim_last_error(); }}
"#
    )
}

type NewFn = unsafe extern "C" fn(*mut *mut c_void) -> c_int;
type PortsFn = unsafe extern "C" fn(*mut c_void, *mut *mut c_void);
type HandleFn = unsafe extern "C" fn(*mut c_void) -> c_int;
type DeleteFn = unsafe extern "C" fn(*mut c_void);
type ErrorFn = unsafe extern "C" fn() -> *const c_char;

/// One port of a runtime model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynPort {
    pub name: String,
    pub dir: PortDir,
    pub width: u32,
    storage: u32,
    words: u32,
}

/// A loaded runtime model library: make models of it with [`DynLibrary::model`].
pub struct DynLibrary {
    handle: *mut c_void,
    new: NewFn,
    ports_fn: PortsFn,
    eval: HandleFn,
    final_fn: HandleFn,
    delete: DeleteFn,
    last_error: ErrorFn,
    ports: Vec<DynPort>,
}

// The entry points are plain C functions over per-model handles (each with
// its own VerilatedContext, set as the thread's before every call).
unsafe impl Send for DynLibrary {}
unsafe impl Sync for DynLibrary {}

impl DynLibrary {
    /// Loads `library`; its ports come from the model header in `obj`.
    fn load(library: &Path, obj: &Path) -> Result<DynLibrary, DynError> {
        let header_path = obj.join(format!("{PREFIX}.h"));
        let header = std::fs::read_to_string(&header_path).map_err(io(&header_path))?;
        let ports = parse_ports(&header)
            .map_err(DynError::Port)?
            .into_iter()
            .map(|p| DynPort {
                name: p.name,
                dir: if p.input { PortDir::Input } else { PortDir::Output },
                width: p.width,
                storage: p.storage,
                words: p.words,
            })
            .collect();
        let path = CString::new(library.to_string_lossy().as_bytes()).map_err(|_| DynError::Load("NUL in the path".into()))?;
        let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            return Err(DynError::Load(format!("{}: {}", library.display(), dl_error())));
        }
        let sym = |name: &str| -> Result<*mut c_void, DynError> {
            let c = CString::new(name).unwrap();
            let p = unsafe { libc::dlsym(handle, c.as_ptr()) };
            if p.is_null() {
                Err(DynError::Load(format!("{}: no `{name}`", library.display())))
            } else {
                Ok(p)
            }
        };
        unsafe {
            Ok(DynLibrary {
                new: std::mem::transmute::<*mut c_void, NewFn>(sym("atomport_dyn_new")?),
                ports_fn: std::mem::transmute::<*mut c_void, PortsFn>(sym("atomport_dyn_ports")?),
                eval: std::mem::transmute::<*mut c_void, HandleFn>(sym("atomport_dyn_eval")?),
                final_fn: std::mem::transmute::<*mut c_void, HandleFn>(sym("atomport_dyn_final")?),
                delete: std::mem::transmute::<*mut c_void, DeleteFn>(sym("atomport_dyn_delete")?),
                last_error: std::mem::transmute::<*mut c_void, ErrorFn>(sym("atomport_dyn_last_error")?),
                handle,
                ports,
            })
        }
    }

    /// The ports, in the header's order.
    pub fn ports(&self) -> &[DynPort] {
        &self.ports
    }

    fn last_error(&self) -> String {
        unsafe { CStr::from_ptr((self.last_error)()) }.to_string_lossy().into_owned()
    }

    /// A new model (its own `VerilatedContext`), evaluated once.
    pub fn model(self: &Arc<Self>) -> Result<DynModel, SimError> {
        let mut handle = std::ptr::null_mut();
        if unsafe { (self.new)(&mut handle) } != 0 {
            return Err(SimError::Fatal(self.last_error()));
        }
        let mut pointers = vec![std::ptr::null_mut(); self.ports.len()];
        unsafe { (self.ports_fn)(handle, pointers.as_mut_ptr()) };
        let mut model = DynModel { lib: Arc::clone(self), handle, pointers, dead: None };
        model.eval()?;
        Ok(model)
    }
}

impl Drop for DynLibrary {
    fn drop(&mut self) {
        unsafe { libc::dlclose(self.handle) };
    }
}

fn dl_error() -> String {
    let e = unsafe { libc::dlerror() };
    if e.is_null() {
        "unknown dlopen error".into()
    } else {
        unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
    }
}

/// A port of a [`DynModel`], looked up once by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortId(usize);

/// One runtime model: ports by [`PortId`], `eval`.
pub struct DynModel {
    lib: Arc<DynLibrary>,
    handle: *mut c_void,
    pointers: Vec<*mut c_void>,
    dead: Option<String>,
}

// A model is used by one thread at a time; its context is its own.
unsafe impl Send for DynModel {}

impl DynModel {
    /// The port `name`, which must have direction `dir`; its width is checked
    /// when `width` is given.
    pub fn port(&self, name: &str, dir: PortDir, width: Option<u32>) -> Result<PortId, DynError> {
        let (k, p) = self
            .lib
            .ports
            .iter()
            .enumerate()
            .find(|(_, p)| p.name == name)
            .ok_or_else(|| DynError::Port(format!("the model has no port `{name}`")))?;
        if p.dir != dir {
            return Err(DynError::Port(format!("port `{name}` is an {:?}, not an {dir:?}", p.dir)));
        }
        if let Some(w) = width.filter(|&w| w != p.width) {
            return Err(DynError::Port(format!("port `{name}` is {} bits wide, not {w}", p.width)));
        }
        Ok(PortId(k))
    }

    /// The ports, in declaration order.
    pub fn ports(&self) -> &[DynPort] {
        &self.lib.ports
    }

    /// Sets input `id` from a `u128` (masked to the port's width; ports
    /// over 128 bits get their low 128).
    #[inline]
    pub fn set(&mut self, id: PortId, value: u128) {
        let p = &self.lib.ports[id.0];
        let ptr = self.pointers[id.0];
        let mask = |bits: u32| if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
        let v = value & mask(p.width);
        unsafe {
            match p.storage {
                8 => *(ptr as *mut u8) = v as u8,
                16 => *(ptr as *mut u16) = v as u16,
                32 => *(ptr as *mut u32) = v as u32,
                64 => *(ptr as *mut u64) = v as u64,
                _ => {
                    let words = std::slice::from_raw_parts_mut(ptr as *mut u32, p.words as usize);
                    for (k, w) in words.iter_mut().enumerate() {
                        *w = if k < 4 { (v >> (32 * k)) as u32 } else { 0 };
                    }
                }
            }
        }
    }

    /// Reads port `id` as a `u128` (the low 128 bits of a wider one).
    #[inline]
    pub fn get(&self, id: PortId) -> u128 {
        let p = &self.lib.ports[id.0];
        let ptr = self.pointers[id.0];
        unsafe {
            match p.storage {
                8 => *(ptr as *const u8) as u128,
                16 => *(ptr as *const u16) as u128,
                32 => *(ptr as *const u32) as u128,
                64 => *(ptr as *const u64) as u128,
                _ => {
                    let words = std::slice::from_raw_parts(ptr as *const u32, p.words as usize);
                    words.iter().take(4).enumerate().fold(0u128, |v, (k, w)| v | (*w as u128) << (32 * k))
                }
            }
        }
    }

    /// Evaluates the model; a Verilator fatal is an `Err`, and the model
    /// is not evaluated again after one.
    #[inline]
    pub fn eval(&mut self) -> Result<(), SimError> {
        if let Some(m) = &self.dead {
            return Err(SimError::Dead(m.clone()));
        }
        if unsafe { (self.lib.eval)(self.handle) } == 0 {
            return Ok(());
        }
        let msg = self.lib.last_error();
        self.dead = Some(msg.clone());
        Err(SimError::Fatal(msg))
    }
}

impl Drop for DynModel {
    fn drop(&mut self) {
        unsafe {
            if self.dead.is_none() {
                let _ = (self.lib.final_fn)(self.handle);
            }
            (self.lib.delete)(self.handle);
        }
    }
}
