//! Message -> the seed Text form (canonical spelling).
