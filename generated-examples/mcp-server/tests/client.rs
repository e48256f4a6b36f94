//! The client example against the stranger fixture, both as child processes: the
//! stranger's custom-dialect and remote-`$ref` tools are refused, its bad output caught.

use std::process::Command;

#[test]
fn the_client_refuses_bad_tools_and_catches_bad_output() {
    let output = Command::new(env!("CARGO_BIN_EXE_mcp-client"))
        .arg(env!("CARGO_BIN_EXE_stranger"))
        .output()
        .expect("run mcp-client");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let line = |prefix: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line starting {prefix:?} in\n{stdout}"))
    };
    assert!(
        line("tool \"custom_dialect\": refused (UnsupportedDialect)")
            .contains("https://example.com/custom")
    );
    assert!(line("tool \"remote_ref\": refused (RemoteRef)").contains("never fetches"));
    // The errors follow the heading, one line each: `location: message`.
    let caught = line("call \"lookup\": bad output caught");
    let next = stdout.lines().skip_while(|l| *l != caught).nth(1);
    assert!(next.is_some_and(|l| l.starts_with("/count: ")), "{stdout}");
    line("call \"echo\": result checked");
    assert!(
        !stdout.contains("call \"custom_dialect\""),
        "a refused tool was called"
    );
}
