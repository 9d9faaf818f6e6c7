//! The golden behavioral model.
