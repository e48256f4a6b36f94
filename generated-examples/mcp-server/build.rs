//! Compiles every tool schema of `tools/tools.json` into Rust validators
//! (`OUT_DIR/schemac.rs`, included by `src/lib.rs`), each with `apply_defaults`.

fn main() -> Result<(), schemac_build::Error> {
    schemac_build::Builder::new()
        .mcp_tools("tools/tools.json")
        .defaults(true)
        .compile()
}
