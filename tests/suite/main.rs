//! The JSON Schema Test Suite through every backend.
//!
//! For each backend and each set (draft2020-12, draft2019-09, draft7, draft6 and draft4:
//! `required`, `optional`,
//! `format` with format assertion on) every case runs, one summary line prints per set and
//! backend, exactly
//! `suite draft2020-12 required [interpreted]: 1299 passed, 0 failed, 0 skipped`,
//! followed by each failure and skip (file, group, test, reason). The run fails on a
//! missing suite, on a failure not in `expected-failures.txt`, and on a listed case that
//! passes or does not exist. `SCHEMAC_BLESS=1` rewrites the list from what failed.
//!
//! Then the annotation tests per dialect (`suite draft2020-12 annotations [interpreted]`)
//! and the output tests of 2020-12 and 2019-09 (`suite draft2020-12 output
//! [interpreted]`), through `evaluate` of the interpreter and of generated code built with
//! it; any failure there fails the run.

use schemac::{Dialect, Options};
use schemac_tests::backend::{self, interpret, Backend, Generated, Interpreted, Prepare};
use schemac_tests::output::OutputSet;
use schemac_tests::runner::{run_set, ExpectedFailures, SetOutcome};
use schemac_tests::suite::{Set, SetSpec, SETS};
use schemac_tests::{annotations, evaluation_cases, output, paths, registry};
use std::path::PathBuf;
use std::process::ExitCode;

/// The backends every case runs through.
fn backends() -> Vec<Box<dyn Backend>> {
    vec![Box::new(Interpreted), Box::new(Generated)]
}

fn expected_failures_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("suite")
        .join("expected-failures.txt")
}

fn print_outcome(outcome: &SetOutcome, expected: &ExpectedFailures) {
    println!("{}", outcome.summary());
    for failure in &outcome.failed {
        let tag = if expected.contains(outcome.backend, &failure.id) {
            "FAIL (expected)"
        } else {
            "FAIL"
        };
        println!(
            "    {tag} {} / {} / {}: {}",
            failure.file, failure.group, failure.test, failure.reason
        );
    }
    for skip in &outcome.skipped {
        println!(
            "    SKIP {} / {} / {}: {}",
            skip.file, skip.group, skip.test, skip.reason
        );
    }
}

fn run() -> Result<Vec<String>, String> {
    let suite = paths::suite_dir()?;
    let list_path = expected_failures_path();
    let list_text = std::fs::read_to_string(&list_path)
        .map_err(|e| format!("cannot read {}: {e}", list_path.display()))?;
    let expected = ExpectedFailures::parse(&list_text)?;

    let backends = backends();
    let mut outcomes = Vec::new();
    for spec in SETS {
        let set = Set::load(&suite, spec)?;
        let compiler = registry::compiler(spec.options())?;
        for backend in &backends {
            let outcome = run_set(&set, backend.as_ref(), &compiler);
            print_outcome(&outcome, &expected);
            outcomes.push(outcome);
        }
    }

    let evaluated = run_evaluations(&suite)?;
    for outcome in &evaluated {
        print_outcome(outcome, &expected);
    }

    if std::env::var_os("SCHEMAC_BLESS").is_some_and(|v| !v.is_empty() && v != "0") {
        let blessed = expected.blessed(&outcomes);
        std::fs::write(&list_path, blessed.render())
            .map_err(|e| format!("cannot write {}: {e}", list_path.display()))?;
        println!(
            "blessed {} with {} expected failures",
            list_path.display(),
            blessed.entries.len()
        );
        return Ok(Vec::new());
    }
    let mut problems = expected.problems(&outcomes);
    problems.extend(
        evaluated
            .iter()
            .flat_map(|o| &o.failed)
            .map(|f| format!("{}: {}", f.id, f.reason)),
    );
    Ok(problems)
}

/// The annotation tests per dialect and the output tests of 2020-12 and 2019-09, through
/// the interpreter and generated code.
fn run_evaluations(suite: &std::path::Path) -> Result<Vec<SetOutcome>, String> {
    let cases = evaluation_cases::load(&suite.join("annotations").join("tests"))?;
    let spec = |draft: &'static str, name: &'static str, dialect: Dialect| SetSpec {
        draft,
        name,
        folder: "",
        default_dialect: dialect,
        assert_format: false,
        assert_content: false,
    };
    let compiler = |dialect: Dialect| {
        registry::compiler(Options {
            default_dialect: dialect,
            annotations: true,
            ..Options::default()
        })
    };
    let backends: [(&'static str, Prepare<'_>); 2] = [
        ("interpreted", &interpret),
        ("generated", &backend::generated),
    ];
    let mut outcomes = Vec::new();
    for set in SETS.iter().filter(|s| s.name == "required") {
        let dialect = set.default_dialect;
        let spec = spec(set.draft, "annotations", dialect);
        let compiler = compiler(dialect)?;
        for (name, prepare) in backends {
            outcomes.push(annotations::run(spec, &cases, &compiler, name, prepare));
        }
    }
    for (draft, dialect) in [
        ("draft2020-12", Dialect::Draft2020_12),
        ("draft2019-09", Dialect::Draft2019_09),
    ] {
        let spec = spec(draft, "output", dialect);
        let set = OutputSet::load(suite, &spec)?;
        let compiler = compiler(dialect)?;
        for (name, prepare) in backends {
            outcomes.push(output::run(spec, &set, &compiler, name, prepare));
        }
    }
    Ok(outcomes)
}

fn main() -> ExitCode {
    match run() {
        Ok(problems) if problems.is_empty() => ExitCode::SUCCESS,
        Ok(problems) => {
            eprintln!(
                "\nsuite: {} problem(s) against {}:",
                problems.len(),
                expected_failures_path().display()
            );
            for problem in &problems {
                eprintln!("  {problem}");
            }
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!("suite: {error}");
            ExitCode::FAILURE
        }
    }
}
