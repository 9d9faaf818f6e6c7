//! Binary descriptors and payloads.
