//! Generates the validators of `schemas/` into `OUT_DIR/schemac.rs`, and their
//! check-only form into `OUT_DIR/check_only.rs`.

fn main() -> Result<(), schemac_build::Error> {
    schemac_build::Builder::new()
        .schema_dir("schemas")
        .assert_format(true)
        .compile()?;
    // The same validators without `validate`, as an embedded target that only needs a
    // verdict builds them: `OUT_DIR/check_only.rs`.
    schemac_build::Builder::new()
        .schema_dir("schemas")
        .assert_format(true)
        .validate(false)
        .out_file("check_only.rs")
        .compile()
}
