//! Running a set through a backend, and comparing the failures with the expected list.
//!
//! A case passes when both `check` and `validate` give the expected verdict (an incomplete
//! verdict never passes) and `validate`'s report is consistent (`Invalid` exactly when it
//! holds errors). A panic anywhere — preparing the schema or validating — is caught and
//! fails the case with the panic's message.
//!
//! The expected-failures file (`tests/suite/expected-failures.txt`) lists the cases known
//! to fail, one per line: `[backend] <draft>/<set>/<file>/<group>/<test> :: reason`
//! (`#` starts a comment line). The harness fails on a failure that is not listed, and on a
//! listed case that passes or does not exist, so the list stays honest. Setting
//! `SCHEMAC_BLESS=1` rewrites the file from the failures seen (keeping the reasons of
//! cases still listed).

use crate::backend::{Backend, GroupContext, Prepared};
use crate::panics;
use crate::suite::{case_id, Set, SetSpec};
use schemac::Compiler;
use schemac_runtime::{Report, Verdict};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// One case that did not pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseFailure {
    /// `<draft>/<set>/<file>/<group>/<test>`.
    pub id: String,
    /// The file name.
    pub file: String,
    /// The group's description.
    pub group: String,
    /// The test's description.
    pub test: String,
    /// What went wrong (or why it was skipped).
    pub reason: String,
}

/// The result of one set through one backend.
#[derive(Debug, Clone)]
pub struct SetOutcome {
    /// The backend's name.
    pub backend: &'static str,
    /// The set.
    pub spec: SetSpec,
    /// Every case id of the set, passed or not.
    pub case_ids: BTreeSet<String>,
    /// How many cases passed.
    pub passed: usize,
    /// The cases that failed.
    pub failed: Vec<CaseFailure>,
    /// The cases the backend skipped.
    pub skipped: Vec<CaseFailure>,
}

impl SetOutcome {
    /// An outcome of `spec` through `backend` with no case run yet.
    pub fn new(backend: &'static str, spec: SetSpec) -> SetOutcome {
        SetOutcome {
            backend,
            spec,
            case_ids: BTreeSet::new(),
            passed: 0,
            failed: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// The summary line:
    /// `suite draft2020-12 required [interpreted]: 1299 passed, 0 failed, 0 skipped`.
    pub fn summary(&self) -> String {
        format!(
            "suite {} [{}]: {} passed, {} failed, {} skipped",
            self.spec.label(),
            self.backend,
            self.passed,
            self.failed.len(),
            self.skipped.len()
        )
    }
}

fn verdict_text(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Valid => "valid".to_string(),
        Verdict::Invalid => "invalid".to_string(),
        Verdict::Incomplete(reason) => format!("incomplete ({reason})"),
    }
}

/// Judges one test's results: `None` when it passes, else why not.
pub fn judge(expected_valid: bool, check: &Verdict, report: &Report) -> Option<String> {
    let expected = if expected_valid {
        Verdict::Valid
    } else {
        Verdict::Invalid
    };
    let mut problems = Vec::new();
    if *check != expected {
        problems.push(format!("check gave {}", verdict_text(check)));
    }
    if report.verdict != expected {
        problems.push(format!("validate gave {}", verdict_text(&report.verdict)));
    }
    let has_errors = !report.errors.is_empty();
    if (report.verdict == Verdict::Invalid) != has_errors {
        problems.push(format!(
            "validate's report is {} with {} errors",
            verdict_text(&report.verdict),
            report.errors.len()
        ));
    }
    if problems.is_empty() {
        None
    } else {
        Some(format!(
            "expected {}; {}",
            verdict_text(&expected),
            problems.join(", ")
        ))
    }
}

/// Runs every case of `set` through `backend`, with `compiler` (the set's options and the
/// offline registry).
pub fn run_set(set: &Set, backend: &dyn Backend, compiler: &Compiler) -> SetOutcome {
    let mut outcome = SetOutcome::new(backend.name(), set.spec);
    for file in &set.files {
        for group in &file.groups {
            let ctx = GroupContext {
                spec: &set.spec,
                file,
                group,
                compiler,
            };
            let prepared = match panics::catch(|| backend.prepare(&ctx)) {
                Ok(prepared) => prepared,
                Err(panic) => Prepared::Failed(format!("preparing the schema {panic}")),
            };
            for test in &group.tests {
                let id = case_id(&set.spec, file, group, test);
                outcome.case_ids.insert(id.clone());
                let failure = |reason: String| CaseFailure {
                    id: id.clone(),
                    file: file.name.clone(),
                    group: group.description.clone(),
                    test: test.description.clone(),
                    reason,
                };
                match &prepared {
                    Prepared::Skipped(reason) => outcome.skipped.push(failure(reason.clone())),
                    Prepared::Failed(reason) => outcome.failed.push(failure(reason.clone())),
                    Prepared::Ready(validator) => {
                        let result = panics::catch(|| {
                            (validator.check(&test.data), validator.validate(&test.data))
                        });
                        let problem = match result {
                            Ok((check, report)) => judge(test.valid, &check, &report),
                            Err(panic) => Some(format!("validating {panic}")),
                        };
                        match problem {
                            None => outcome.passed += 1,
                            Some(reason) => outcome.failed.push(failure(reason)),
                        }
                    }
                }
            }
        }
    }
    outcome
}

/// The checked-in list of cases known to fail: `(backend, case id) -> reason`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExpectedFailures {
    /// Each listed case, by backend and id, with its reason.
    pub entries: BTreeMap<(String, String), String>,
}

/// The separator between a case id and its reason (no suite description contains `::`).
const SEPARATOR: &str = " :: ";

impl ExpectedFailures {
    /// Parses the file's text; a malformed line is an error naming its line number.
    pub fn parse(text: &str) -> Result<ExpectedFailures, String> {
        let mut entries = BTreeMap::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            let parsed = line.strip_prefix('[').and_then(|rest| {
                let (backend, rest) = rest.split_once("] ")?;
                let (id, reason) = rest.split_once(SEPARATOR)?;
                Some((backend, id, reason))
            });
            let Some((backend, id, reason)) = parsed else {
                return Err(format!(
                    "expected-failures line {}: not `[backend] <case id> :: <reason>`: {line}",
                    n + 1
                ));
            };
            if reason.trim().is_empty() {
                return Err(format!("expected-failures line {}: no reason given", n + 1));
            }
            let key = (backend.to_string(), id.to_string());
            if entries.insert(key, reason.to_string()).is_some() {
                return Err(format!(
                    "expected-failures line {}: {id} listed twice",
                    n + 1
                ));
            }
        }
        Ok(ExpectedFailures { entries })
    }

    /// Whether `(backend, id)` is listed.
    pub fn contains(&self, backend: &str, id: &str) -> bool {
        self.entries
            .contains_key(&(backend.to_string(), id.to_string()))
    }

    /// The list's problems against the outcomes of a full run: failures not listed,
    /// listed cases that passed, listed cases that do not exist.
    pub fn problems(&self, outcomes: &[SetOutcome]) -> Vec<String> {
        let mut problems = Vec::new();
        let mut known = BTreeSet::new();
        for outcome in outcomes {
            let failed: BTreeSet<&str> = outcome.failed.iter().map(|f| f.id.as_str()).collect();
            for failure in &outcome.failed {
                if !self.contains(outcome.backend, &failure.id) {
                    problems.push(format!(
                        "unexpected failure [{}] {}: {}",
                        outcome.backend, failure.id, failure.reason
                    ));
                }
            }
            for id in &outcome.case_ids {
                let key = (outcome.backend.to_string(), id.clone());
                known.insert(key.clone());
                if self.entries.contains_key(&key) && !failed.contains(id.as_str()) {
                    problems.push(format!(
                        "listed as an expected failure but did not fail: [{}] {id} \
                         (remove it from the list)",
                        outcome.backend
                    ));
                }
            }
        }
        for (backend, id) in self.entries.keys() {
            if !known.contains(&(backend.clone(), id.clone())) {
                problems.push(format!(
                    "listed as an expected failure but no such case was run: [{backend}] {id}"
                ));
            }
        }
        problems
    }

    /// The list that matches `outcomes` exactly: every failure, with the reason already
    /// listed for it if any, else the reason seen.
    pub fn blessed(&self, outcomes: &[SetOutcome]) -> ExpectedFailures {
        let mut entries = BTreeMap::new();
        for outcome in outcomes {
            for failure in &outcome.failed {
                let key = (outcome.backend.to_string(), failure.id.clone());
                let reason = self
                    .entries
                    .get(&key)
                    .cloned()
                    .unwrap_or_else(|| one_line(&failure.reason));
                entries.insert(key, reason);
            }
        }
        ExpectedFailures { entries }
    }

    /// The file's text: a header comment, then one line per entry, sorted.
    pub fn render(&self) -> String {
        let mut out = String::from(HEADER);
        for ((backend, id), reason) in &self.entries {
            let _ = writeln!(out, "[{backend}] {id}{SEPARATOR}{reason}");
        }
        out
    }
}

/// The comment heading the expected-failures file.
pub const HEADER: &str = "\
# Suite cases known to fail, one per line: [backend] <draft>/<set>/<file>/<group>/<test> :: reason
# The suite harness (tests/suite/main.rs) fails on any failure not listed here and on any
# listed case that passes or does not exist. Regenerate with SCHEMAC_BLESS=1 cargo test -p
# schemac-tests --test suite (reasons already written are kept), then review the diff.
";

/// `reason` on one line, so that it fits the file's format.
fn one_line(reason: &str) -> String {
    reason.split_whitespace().collect::<Vec<_>>().join(" ")
}
