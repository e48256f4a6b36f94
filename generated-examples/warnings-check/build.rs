//! Generates the example server's tool list (`../mcp-server/tools/tools.json`) three
//! ways: with `validate` (`OUT_DIR/schemac.rs`), without (`check_only.rs`) and with
//! `evaluate` (`evaluate.rs`).

fn main() -> Result<(), schemac_build::Error> {
    let tools = "../mcp-server/tools/tools.json";
    schemac_build::Builder::new().mcp_tools(tools).compile()?;
    schemac_build::Builder::new()
        .mcp_tools(tools)
        .validate(false)
        .out_file("check_only.rs")
        .compile()?;
    schemac_build::Builder::new()
        .mcp_tools(tools)
        .evaluate(true)
        .out_file("evaluate.rs")
        .compile()
}
