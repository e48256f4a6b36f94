//! Generates the validators of `schemas/` into `OUT_DIR/schemac.rs`.

fn main() -> Result<(), schemac_build::Error> {
    schemac_build::Builder::new()
        .schema_dir("schemas")
        .assert_format(true)
        .compile()
}
