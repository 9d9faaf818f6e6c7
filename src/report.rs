//! JSON and table reports of a RunOutput.
