#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| atomport_fuzz::fst(data));
