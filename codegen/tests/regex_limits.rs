//! Hostile patterns (issue 9, items 2, 3, 6 and 9): regex work charged to the evaluation
//! budget in both backends' entry points, a DFA for counted repetitions, the per-schema
//! total regex size, the pattern-set prefilter, and the syntax that has two readings.
//! Bounded time is proved by outcomes (an `incomplete` verdict, a limit error) and by
//! counted budget units, never by timing.

use schemac::interp::Interpreter;
use schemac::regex::{compile, CompiledRegex, PatternSet, RegexError, RegexOptions};
use schemac::{CompileErrorKind, Compiler, Options};
use schemac_runtime::__private::{State, Stop};
use schemac_runtime::error::{IncompleteReason, Verdict};
use schemac_runtime::regex::STEPS_PER_UNIT;
use schemac_runtime::{Budget, Limits, Validate};
use serde_json::{json, Value};

fn re(p: &str) -> CompiledRegex {
    compile(p, &RegexOptions::default()).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn limits(budget: u64) -> Limits {
    Limits {
        budget,
        ..Limits::DEFAULT
    }
}

fn interpreter(schema: Value) -> Interpreter {
    let program = Compiler::new(Options::default())
        .compile_named("s.json", &schema)
        .unwrap_or_else(|e| panic!("{e:?}"));
    Interpreter::new(program)
}

/// A pattern with neither a fast path nor a DFA, whose Pike VM keeps thousands of threads
/// alive on `ca` repeated (every `c` starts one): the issue's "time × program size".
const HEAVY: &str = "c[ac]{0,3000}d";

#[test]
fn pike_vm_work_is_charged_and_stops_at_the_budget() {
    let r = re(HEAVY);
    assert!(
        !r.has_dfa() && r.fast_path().is_none(),
        "{HEAVY} must run on the Pike VM"
    );
    let hay = "ca".repeat(20_000);
    // Within a budget: the answer, and a charge of one unit per 16 steps.
    let mut budget = Budget::new(&limits(u64::MAX / 128));
    let before = budget.remaining();
    assert_eq!(
        r.as_runtime().is_match_budgeted(&hay, &mut budget),
        Ok(false)
    );
    let charged = before - budget.remaining();
    // At least one step per position, and thousands of threads per position.
    assert!(
        charged > 40_000 * 1000 / STEPS_PER_UNIT,
        "charged {charged}"
    );
    // Under a smaller budget: stopped, everything spent, no answer.
    let mut small = Budget::new(&limits(charged / 2));
    assert_eq!(
        r.as_runtime().is_match_budgeted(&hay, &mut small),
        Err(IncompleteReason::BudgetExceeded)
    );
    assert_eq!(small.remaining(), 0);
    // Exactly enough is enough.
    let mut exact = Budget::new(&limits(charged));
    assert_eq!(
        r.as_runtime().is_match_budgeted(&hay, &mut exact),
        Ok(false)
    );
    assert_eq!(exact.remaining(), 0);
}

#[test]
fn generated_code_entry_point_charges_alike() {
    // Generated code calls `State::is_match(&RE, text)?`; it must charge what the
    // interpreter's call charges, and stop the same way.
    let r = re(HEAVY);
    let hay = "ca".repeat(20_000);
    let mut budget = Budget::new(&limits(1 << 40));
    r.as_runtime().is_match_budgeted(&hay, &mut budget).unwrap();
    let charged = (1u64 << 40) - budget.remaining();
    let mut st = State::new(&limits(charged - 1));
    assert_eq!(st.is_match(&r.as_runtime(), &hay), Err(Stop));
    assert_eq!(
        st.verdict(Err(Stop)),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
    let mut st = State::new(&limits(charged));
    assert_eq!(st.is_match(&r.as_runtime(), &hay), Ok(false));
}

#[test]
fn interpreter_ends_incomplete_on_the_issue_class() {
    // `pattern` and `patternProperties` / `additionalProperties` both charge.
    let hay = "ca".repeat(50_000);
    let v = interpreter(json!({"type": "string", "maxLength": 1_000_000, "pattern": HEAVY}))
        .with_limits(limits(100_000));
    assert_eq!(
        v.check(&json!(hay)),
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
    assert_eq!(
        v.validate(&json!(hay)).verdict,
        Verdict::Incomplete(IncompleteReason::BudgetExceeded)
    );
    let keys = json!({ hay.clone(): 1 });
    for schema in [
        json!({"patternProperties": {HEAVY: {"type": "integer"}}}),
        json!({"patternProperties": {"^x": true, HEAVY: true}, "additionalProperties": false}),
        json!({"propertyNames": {"pattern": HEAVY}}),
    ] {
        let v = interpreter(schema.clone()).with_limits(limits(100_000));
        assert_eq!(
            v.check(&keys),
            Verdict::Incomplete(IncompleteReason::BudgetExceeded),
            "{schema}"
        );
    }
    // A pass that applies nothing but `true` has nothing to match (as in generated code).
    let v = interpreter(json!({"patternProperties": {HEAVY: true}})).with_limits(limits(100_000));
    assert_eq!(v.check(&keys), Verdict::Valid);
    // Under the default budget a short string is answered.
    let v = interpreter(json!({"pattern": HEAVY}));
    assert_eq!(v.check(&json!("xcaad")), Verdict::Valid);
    assert_eq!(v.check(&json!("xcaa")), Verdict::Invalid);
}

#[test]
fn the_issue_pattern_is_trimmed_to_a_literal() {
    // `a{0,33332}b` matches somewhere exactly when `b` does.
    let r = re("a{0,33332}b");
    assert!(r.program_size() < 10, "{}", r.program_size());
    assert_eq!(r.fast_path(), Some("literal"));
    let hay = "a".repeat(1_000_000);
    let mut budget = Budget::new(&Limits::DEFAULT);
    assert_eq!(
        r.as_runtime().is_match_budgeted(&hay, &mut budget),
        Ok(false)
    );
    // One unit per 16 bytes.
    assert_eq!(
        Limits::DEFAULT.budget - budget.remaining(),
        1_000_000u64.div_ceil(STEPS_PER_UNIT)
    );
    let v =
        interpreter(json!({"type": "string", "maxLength": 1_000_000, "pattern": "a{0,33332}b"}));
    assert_eq!(v.check(&json!(hay)), Verdict::Invalid);
    for (p, trimmed_agrees) in [
        ("x*ab+", "ab"),
        (".*foo.*", "foo"),
        ("\\d+px", "\\dpx"),
        ("(?:a{2,5}|b*)c", "(?:a{2,5}|b*)c"),
    ] {
        for hay in [
            "", "ab", "xxabbb", "foo", "afoob", "12px", "px", "aac", "c", "b",
        ] {
            assert_eq!(
                re(p).is_match(hay),
                re(trimmed_agrees).is_match(hay),
                "{p} {hay:?}"
            );
        }
    }
}

#[test]
fn counted_repetitions_get_a_dfa() {
    for p in [
        "x(ab){0,1000}y",
        "^(ab){1,1000}$",
        "^[a-z]{3,200}-[0-9]{1,50}$",
        "^(?:[A-Za-z0-9+/]{4}){1,100}$",
        "c[ab]{0,1000}d",
    ] {
        let r = re(p);
        assert!(r.has_dfa(), "{p}: no DFA");
        // The DFA (minimized or, past the refinement budget, as constructed) agrees
        // with the Pike VM.
        let rt = r.as_runtime();
        for hay in [
            String::new(),
            "xy".into(),
            format!("x{}y", "ab".repeat(1000)),
            format!("x{}y", "ab".repeat(1001)),
            "ab".repeat(1000),
            "ab".repeat(1001),
            format!("abc-{}", "1".repeat(50)),
            format!("{}-1", "a".repeat(200)),
            "QUJD".repeat(100),
            "QUJD".repeat(101),
            format!("c{}d", "ab".repeat(500)),
            format!("c{}d", "a".repeat(1001)),
        ] {
            let dfa = rt.dfa().map(|d| d.is_match(&hay));
            assert_eq!(
                dfa,
                Some(rt.program().is_match(&hay)),
                "{p} on {} bytes",
                hay.len()
            );
        }
    }
    let r = re("^(ab){1,1000}$");
    let hay = "ab".repeat(1000);
    assert!(r.is_match(&hay));
    assert!(!r.is_match(&(hay.clone() + "ab")));
    // The DFA is charged per byte, up front: 2000 bytes → 125 units.
    let mut budget = Budget::new(&Limits::DEFAULT);
    assert_eq!(
        r.as_runtime().is_match_budgeted(&hay, &mut budget),
        Ok(true)
    );
    assert_eq!(Limits::DEFAULT.budget - budget.remaining(), 125);
}

/// `^a{0,N}b`-like patterns: anchored, so nothing is trimmed, and each compiles to a
/// program of about 66,000 instructions.
fn big_patterns(n: usize) -> Value {
    let props: serde_json::Map<String, Value> = (0..n)
        .map(|i| {
            (
                format!("p{i:03}"),
                json!({"type": "string", "pattern": format!("^a{{0,{}}}b", 33_332 - i)}),
            )
        })
        .collect();
    json!({"type": "object", "properties": props})
}

#[test]
fn total_regex_size_is_a_compile_error_naming_the_pattern() {
    let errors = Compiler::new(Options::default())
        .compile_named("s.json", &big_patterns(500))
        .expect_err("over the total regex size");
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    assert_eq!(e.kind, CompileErrorKind::RegexTooLarge);
    assert_eq!(e.location.keyword.as_deref(), Some("pattern"));
    // 4 MiB / ~800 KB each: the sixth pattern compiled crosses it, and is named.
    let i: usize = e
        .location
        .pointer
        .strip_prefix("/properties/p")
        .and_then(|rest| rest.strip_suffix("/pattern"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{}", e.location.pointer));
    assert!(
        e.message.contains(&format!("^a{{0,{}}}b", 33_332 - i)),
        "{}",
        e.message
    );
    assert!(e.message.contains("regex.max_total_size"), "{}", e.message);
    // Under the limit it compiles; a smaller limit moves the error earlier.
    assert!(Compiler::new(Options::default())
        .compile_named("s.json", &big_patterns(5))
        .is_ok());
    let mut options = Options::default();
    options.regex.max_total_size = 1_000_000;
    let errors = Compiler::new(options)
        .compile_named("s.json", &big_patterns(3))
        .expect_err("over 1 MB");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].kind, CompileErrorKind::RegexTooLarge);
    // The issue's unanchored form trims to `b`: 500 of them are small, and compile.
    let props: serde_json::Map<String, Value> = (0..500)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"pattern": format!("a{{0,{}}}b", 33_332 - i)}),
            )
        })
        .collect();
    let program = Compiler::new(Options::default())
        .compile_named("s.json", &json!({"properties": props}))
        .expect("trimmed patterns are small");
    let total: usize = program
        .regexes
        .iter()
        .filter_map(|r| r.compiled.as_ref())
        .map(|r| r.size())
        .sum();
    assert!(total < 100_000, "{total}");
}

/// Inside a class, u-mode reads `[` and `&&` as literals and `--` as a range (v-mode's set
/// syntax is not read); what u-mode refuses there stays refused: a property escape as a
/// range end, and (beyond the Annex B `[\w-.]`) a class escape beside `--`.
#[test]
fn u_mode_class_syntax_and_property_range_ends() {
    for (p, at) in [
        ("[\\p{L}--\\p{Lu}]", 6),
        ("[\\p{L}-z]", 1),
        ("[a-\\p{L}]", 3),
        ("[x\\P{Lu}-.]", 2),
        ("[\\w--\\d]", 3),
        ("[\\w--]", 3),
        ("[\\--\\s]", 3),
        ("[--\\d]", 2),
        ("[a--]", 1),
        ("[a-z--+]", 4),
    ] {
        match compile(p, &RegexOptions::default()) {
            Err(RegexError::Invalid { offset, message }) => {
                assert_eq!(offset, at, "{p}: {message}")
            }
            other => panic!("{p}: {other:?}"),
        }
        assert!(!schemac_runtime::regex::is_valid_syntax(p), "{p}");
    }
    for (p, hay, want) in [
        // cspell's DictionaryId: `[` literal, `\]` escaped, in a negated class.
        ("^[^!*,;{}[\\]~\\n]+$", "cspell-words x", true),
        ("^[^!*,;{}[\\]~\\n]+$", "a[b", false),
        ("^[^!*,;{}[\\]~\\n]+$", "a]b", false),
        ("^[^!*,;{}[\\]~\\n]+$", "a\nb", false),
        ("^[a&&b]+$", "a&b&&", true),
        ("^[a&&b]+$", "c", false),
        ("^[[a]]$", "[]", true),
        ("^[[a]]$", "a", false),
        ("^[a[b]]$", "[]", true),
        ("^[!--]+$", "!#+-,", true),
        ("^[!--]+$", ".", false),
        ("^[a-z--x]+$", "q-.x", true),
        ("^[a-z--x]+$", "{", false),
        ("^[\\w-.]+$", "a-b.c", true),
        ("^[.-\\d]+$", "-.5", true),
        ("^[\\s-\\d]$", "-", true),
        ("^[\\w-\\-]+$", "a-", true),
        ("^[a\\-]+$", "a-", true),
        ("^[\\[\\]]+$", "[]", true),
        ("^[-a]$", "-", true),
        ("^[a-]$", "-", true),
        ("^[\\p{Lu}\\-x]+$", "A-x", true),
        ("^[\\p{Lu}\\-x]+$", "a", false),
    ] {
        let compiled = re(p);
        let rt = compiled.as_runtime();
        assert_eq!(rt.is_match(hay), want, "{p} {hay:?}");
        assert_eq!(rt.program().is_match(hay), want, "{p} {hay:?}: Pike VM");
        if let Some(dfa) = rt.dfa() {
            assert_eq!(dfa.is_match(hay), want, "{p} {hay:?}: DFA");
        }
    }
}

#[test]
fn regex_errors_show_a_caret_and_the_pointer() {
    let errors = Compiler::new(Options::default())
        .compile_named(
            "s.json",
            &json!({"properties": {"a": {"pattern": "[\\p{L}--\\p{Lu}]"}}}),
        )
        .expect_err("invalid");
    let e = &errors[0];
    assert_eq!(e.kind, CompileErrorKind::InvalidRegex);
    assert_eq!(e.location.pointer, "/properties/a/pattern");
    assert_eq!(e.location.keyword.as_deref(), Some("pattern"));
    let lines: Vec<&str> = e.message.lines().collect();
    assert_eq!(lines[1], "    \"[\\\\p{L}--\\\\p{Lu}]\"", "{}", e.message);
    // The caret is under the first `-` of `--` (after 8 columns of `"[\\p{L}`).
    assert_eq!(lines[2], format!("    {}^", " ".repeat(8)), "{}", e.message);
}

#[test]
fn pattern_set_prefilter_agrees_and_skips() {
    let sources: Vec<String> = (0..5000)
        .map(|i| format!("^x-{i}-"))
        .chain(["^ab".into(), "b$".into(), "^(c|d)".into(), "".into()])
        .collect();
    let compiled: Vec<CompiledRegex> = sources.iter().map(|p| re(p)).collect();
    let set = PatternSet::new(compiled.iter());
    // Only the patterns without a required literal start are always tried.
    assert_eq!(set.always_tried(), 3);
    for key in ["x-17-a", "x-1", "ab", "abx-1-", "zb", "c", "x-4999-", ""] {
        let want: Vec<usize> = compiled
            .iter()
            .enumerate()
            .filter(|(_, r)| r.is_match(key))
            .map(|(i, _)| i)
            .collect();
        let mut budget = Budget::new(&Limits::DEFAULT);
        let candidates = set.candidates(key, &mut budget).expect("within budget");
        let mut got = Vec::new();
        for i in candidates {
            let r = compiled[i as usize].as_runtime();
            if r.is_match_budgeted(key, &mut budget)
                .expect("within budget")
            {
                got.push(i as usize);
            }
        }
        assert_eq!(got, want, "{key:?}");
        // Tried: the candidates with a matching literal start, and the three others.
        let spent = Limits::DEFAULT.budget - budget.remaining();
        assert!(spent <= 3 + 2 + 1, "{key:?}: {spent}");
    }
}

#[test]
fn candidates_merge_many_literal_groups_in_order() {
    // Ten literals of ten lengths all start the key: more groups than are merged without
    // allocating (`Candidates::LISTS`), listed in pattern order all the same.
    let sources: Vec<String> = (1..=10)
        .rev()
        .map(|n| format!("^{}", &"abcdefghijk"[..n]))
        .chain(["k$".to_string()])
        .collect();
    let compiled: Vec<CompiledRegex> = sources.iter().map(|p| re(p)).collect();
    let set = PatternSet::new(compiled.iter());
    for (key, want) in [
        ("abcdefghijk", (0..=10).collect::<Vec<u32>>()),
        ("abcx", vec![7, 8, 9, 10]),
        ("abcdefg", vec![3, 4, 5, 6, 7, 8, 9, 10]),
    ] {
        let got: Vec<u32> = set.as_runtime().candidates(key).collect();
        assert_eq!(got, want, "{key}");
    }
}

#[test]
fn many_pattern_properties_use_the_prefilter() {
    // 5,000 anchored-literal patterns against 20,000 keys: each key costs a lookup and
    // the few candidates, not 5,000 matches (which the budget would not allow).
    let props: serde_json::Map<String, Value> = (0..5000)
        .map(|i| (format!("^p{i}_"), json!({"type": "integer"})))
        .collect();
    let v = interpreter(json!({"patternProperties": props, "additionalProperties": false}))
        .with_limits(limits(200_000));
    let object: serde_json::Map<String, Value> = (0..20_000)
        .map(|i| (format!("p{}_{i}", i % 5000), json!(i)))
        .collect();
    assert_eq!(v.check(&Value::Object(object.clone())), Verdict::Valid);
    let mut bad = object;
    bad.insert("q".into(), json!(1));
    assert_eq!(v.check(&Value::Object(bad.clone())), Verdict::Invalid);
    bad.remove("q");
    bad.insert("p7_x".into(), json!("s"));
    assert_eq!(v.check(&Value::Object(bad)), Verdict::Invalid);
}

#[cfg(feature = "emit")]
#[test]
fn pattern_set_tokens_form_a_prefix_set() {
    let compiled: Vec<CompiledRegex> = ["^ab", "^x-", "b$", "^ab[0-9]"]
        .iter()
        .map(|p| re(p))
        .collect();
    let set = PatternSet::new(compiled.iter());
    let ts = schemac::emit::tables::pattern_set(&set, &quote::quote!(::schemac_runtime));
    let text = ts.to_string();
    assert!(
        text.contains(":: schemac_runtime :: regex :: PrefixSet :: new"),
        "{text}"
    );
    syn::parse2::<syn::Expr>(ts).expect("an expression");
    let all = |key| set.as_runtime().candidates(key).collect::<Vec<u32>>();
    assert_eq!(all("abc"), vec![0, 2, 3]);
    assert_eq!(all("x-"), vec![1, 2]);
    assert_eq!(all("zz"), vec![2]);
    let mut st = State::new(&Limits::DEFAULT);
    let found = st
        .candidates(&set.as_runtime(), "x-1")
        .map(Iterator::collect::<Vec<u32>>);
    assert_eq!(found, Ok(vec![1, 2]));
    let mut st = State::new(&limits(0));
    assert!(st.candidates(&set.as_runtime(), "x-1").is_err());
}
