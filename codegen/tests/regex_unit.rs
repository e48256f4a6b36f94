//! Unit tests of the regex engine: ECMA-262 semantics (including the Annex B forms
//! regress's u-mode cannot check), errors, limits, and agreement of every executor.

use schemac::regex::{compile, compile_with_work, CompiledRegex, RegexError, RegexOptions};

fn re(p: &str) -> CompiledRegex {
    compile(p, &RegexOptions::default()).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// Matches through the Pike VM, the DFA (when there is one) and the chosen path, and
/// demands they agree.
fn m(p: &str, hay: &str) -> bool {
    let r = re(p);
    let rt = r.as_runtime();
    let pike = rt.program().is_match(hay);
    if let Some(dfa) = rt.dfa() {
        assert_eq!(dfa.is_match(hay), pike, "DFA vs Pike VM on {p:?} / {hay:?}");
    }
    assert_eq!(
        rt.is_match(hay),
        pike,
        "fast path vs Pike VM on {p:?} / {hay:?}"
    );
    pike
}

#[test]
fn basics() {
    let cases: &[(&str, &str, bool)] = &[
        ("b", "abc", true),
        ("", "", true),
        ("^abc$", "abc", true),
        ("^abc$", "abc\n", false),
        ("a+", "xxaa", true),
        ("^a*$", "aaa", true),
        ("^a*$", "aab", false),
        ("^\\t$", "\t", true),
        ("^\\cC$", "\u{3}", true),
        ("^\\cc$", "\u{3}", true),
        ("^\\d$", "\u{0660}", false),
        ("^\\D$", "\u{0660}", true),
        ("^\\w$", "é", false),
        ("^\\W$", "é", true),
        ("^\\s$", "\u{3000}", true),
        ("^\\s$", "\u{feff}", true),
        ("^\\S$", "\u{3000}", false),
        ("\\p{Letter}cole", "école", true),
        ("\\wcole", "école", false),
        ("^\\p{digit}+$", "\u{0967}\u{0968}", true),
        ("^\\uD83D\\uDC32*$", "\u{1F432}\u{1F432}", true),
        ("^\\uD83D\\uDC32*$", "\u{1F432}\u{1F431}", false),
        ("^.$", "\u{1F432}", true),
        ("^..$", "\u{1F432}", false),
        ("^.$", "\n", false),
        ("^[^a]$", "\u{1F432}", true),
        ("^\\u{1F432}$", "\u{1F432}", true),
        ("^[\\u{1F400}-\\u{1F4FF}]+$", "\u{1F432}\u{1F401}", true),
        ("a{2,3}", "xaax", true),
        ("^a{2,3}$", "aaaa", false),
        ("^(?:ab|cd){2}$", "abcd", true),
        ("^(?<y>\\d{4})-\\d{2}$", "2024-01", true),
        ("\\bfoo\\b", "a foo b", true),
        ("\\bfoo\\b", "afoo", false),
        ("\\Bfoo", "afoo", true),
        ("^[]$", "a", false),
        ("[]", "", false),
        ("^[^]$", "\n", true),
        ("^\\p{Lu}+$", "ÀB", true),
        ("^\\p{Script=Greek}+$", "αβγ", true),
        ("^\\p{sc=Grek}+$", "αβγ", true),
        ("^\\p{scx=Grek}$", "a", false),
        ("^\\P{L}$", "1", true),
        ("^\\p{Any}$", "\u{10FFFF}", true),
        ("^\\p{ASCII}+$", "abc\u{7f}", true),
        ("^\\p{Emoji}$", "\u{1F600}", true),
        ("^\\x41\\u0042\\0$", "AB\0", true),
        ("^a|b$", "ax", true),
        ("^a|b$", "xb", true),
        ("^a|b$", "xbx", false),
        ("x*?y", "y", true),
        ("^(a*)*b$", "aaab", true),
        ("$^", "", true),
        ("$^", "a", false),
        ("a$^", "a", false),
    ];
    for &(p, h, want) in cases {
        assert_eq!(m(p, h), want, "{p:?} on {h:?}");
    }
}

#[test]
fn annex_b_forms() {
    let cases: &[(&str, &str, bool)] = &[
        ("^a{$", "a{", true),
        ("^a{1$", "a{1", true),
        ("^a{1,x}$", "a{1,x}", true),
        ("^{$", "{", true),
        ("^}$", "}", true),
        ("^]$", "]", true),
        ("^[\\w-.]+$", "a-b.c", true),
        ("^[\\w-.]+$", "a b", false),
        ("^[.-\\d]+$", "-.5", true),
        ("^[\\s-\\d]$", "-", true),
        ("^\\-\\@\\#\\%$", "-@#%", true),
        ("^\\é$", "é", true),
        ("^[\\-]$", "-", true),
        ("^[\\b]$", "\u{8}", true),
    ];
    for &(p, h, want) in cases {
        assert_eq!(m(p, h), want, "{p:?} on {h:?}");
    }
}

#[test]
fn lookarounds() {
    let cases: &[(&str, &str, bool)] = &[
        ("^(?=.*\\d)(?=.*[a-z]).{6,}$", "abc123", true),
        ("^(?=.*\\d)(?=.*[a-z]).{6,}$", "abcdef", false),
        ("^(?!.*--)[a-z-]+$", "a-b", true),
        ("^(?!.*--)[a-z-]+$", "a--b", false),
        ("(?<=\\$)\\d+", "cost $42", true),
        ("(?<=\\$)\\d+", "cost 42", false),
        ("(?<!\\$)\\b\\d+", "cost $42", false),
        ("(?<!\\$)\\b\\d+", "cost 42", true),
        ("(?<=a+)b", "aab", true),
        ("^(?=(a+)+$)a*$", "aaaa", true),
        ("^(?=(a+)+$)a*$", "aaab", false),
        ("a(?=b(?!c))", "abc abd", true),
        ("a(?=b(?!c))", "abc", false),
        ("(?<=(?<!x)a)b", "xab", false),
        ("(?<=(?<!x)a)b", "yab", true),
        ("(?=$)", "", true),
        ("x(?=$)", "ax", true),
        ("x(?=$)", "xa", false),
        ("(?<=^)a", "a", true),
        ("(?<=^)a", "ba", false),
        ("(?<=\\u{1F432})x", "\u{1F432}x", true),
        ("(?=\\u{1F432})", "a\u{1F432}", true),
    ];
    for &(p, h, want) in cases {
        assert_eq!(m(p, h), want, "{p:?} on {h:?}");
    }
}

#[test]
fn refused_constructs_are_typed_errors() {
    let opts = RegexOptions::default();
    for (p, what) in [
        ("(a)\\1", "backreference"),
        ("(?<n>a)\\k<n>", "named backreference"),
        ("(?i:a)", "modifier"),
        ("\\01", "legacy octal"),
        ("\\1", "legacy octal"),
        ("[\\1]", "legacy octal"),
        ("ab\\p{CWKCF}", "no table"),
    ] {
        match compile(p, &opts) {
            Err(RegexError::Unsupported { construct, .. }) => {
                assert!(construct.contains(what), "{p}: {construct}")
            }
            other => panic!("{p}: {other:?}"),
        }
    }
    for p in [
        "(",
        "\\a",
        "(?i)a",
        "\\p{Greek}",
        "a**",
        "[b-a]",
        "(?P<x>a)",
    ] {
        assert!(
            matches!(compile(p, &opts), Err(RegexError::Invalid { .. })),
            "{p}"
        );
    }
}

#[test]
fn limits_are_errors() {
    let opts = RegexOptions::default();
    for p in [
        "a{1000000}",
        "(?:a{1000}){1000}",
        "(?:){4000000000}",
        "[a-z]{100000}",
    ] {
        assert!(
            matches!(compile(p, &opts), Err(RegexError::TooLarge { .. })),
            "{p}"
        );
    }
    let deep = "(".repeat(129) + "a" + &")".repeat(129);
    assert!(matches!(
        compile(&deep, &opts),
        Err(RegexError::TooLarge { .. })
    ));
    let ok = "(".repeat(128) + "a" + &")".repeat(128);
    assert!(compile(&ok, &opts).is_ok());
    let small = RegexOptions {
        max_program_size: 10,
        ..RegexOptions::default()
    };
    assert!(matches!(
        compile("abcdefghijkl", &small),
        Err(RegexError::TooLarge { .. })
    ));
}

#[test]
fn dfa_is_built_for_typical_patterns_and_skipped_otherwise() {
    for p in [
        "^[A-Z]{3}$",
        "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
        "^[a-zA-Z0-9_-]{1,64}$",
        "^\\d{4}-\\d{2}-\\d{2}$",
        "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$",
        "\\p{L}+x",
    ] {
        assert!(re(p).has_dfa(), "{p} has no DFA");
    }
    assert!(!re("a(?=b)").has_dfa());
    assert!(!re("\\bx").has_dfa());
    let tiny = RegexOptions {
        max_dfa_states: 4,
        ..RegexOptions::default()
    };
    let r = compile("^[a-z]{10}$", &tiny).unwrap();
    assert!(!r.has_dfa());
    assert!(r.is_match("abcdefghij"));
}

#[test]
fn minimized_dfa_is_small() {
    // `^[A-Z]{3}$`: dead, match, and one state per position 0..=3.
    assert_eq!(re("^[A-Z]{3}$").dfa_states(), Some(6));
    // Both alternatives collapse.
    assert_eq!(re("^(?:a|a)b$").dfa_states(), re("^ab$").dfa_states());
}

#[cfg(feature = "emit")]
#[test]
fn tokens_name_the_runtime_constructors() {
    use schemac::emit::tables::regex;
    let r = re("^[a-z]+(?=x)");
    let rt = quote::quote!(::schemac_runtime);
    let ts = regex(&r, &rt).to_string();
    assert!(
        ts.contains(":: schemac_runtime :: regex :: Regex :: new"),
        "{ts}"
    );
    assert!(ts.contains("Program :: new"), "{ts}");
    syn::parse2::<syn::Expr>(regex(&r, &rt)).expect("tokens form an expression");
    let d = regex(&re("^[A-Z]{3}$"), &quote::quote!(::rt)).to_string();
    assert!(d.contains("Dfa :: new"), "{d}");
}

#[test]
fn large_programs_compile_and_run() {
    // Near the size limit, with and without a DFA; all must compile and answer.
    for (p, hay, want) in [
        ("^[\\s\\S]{0,30000}$", "abc", true),
        ("(?:\\p{L}|\\d){1,5000}x", "ab1x", true),
        (
            "^(?:a|b|c|d|e|f|g|h)*(?:[a-z]{40})$",
            "abcdefghijklmnopqrstuvwxyzabcdefghijklmn",
            true,
        ),
        ("(?:\\w+\\s?){1,500}!", "foo bar", false),
        ("^(?=(?:a+)+$)(?:(?<=a)a|a){1,300}$", "aaaa", true),
    ] {
        let t = std::time::Instant::now();
        assert_eq!(m(p, hay), want, "{p}");
        println!(
            "{p}: compiled and ran in {:?}, DFA: {}",
            t.elapsed(),
            re(p).has_dfa()
        );
    }
}

#[test]
fn compiled_regex_is_shareable() {
    fn assert_traits<T: std::fmt::Debug + Clone + Send + Sync>() {}
    assert_traits::<CompiledRegex>();
    assert_traits::<schemac_runtime::regex::Regex<'static>>();
    let r = re("^a+$");
    let copy = r.clone();
    assert!(copy.is_match("aaa") && !copy.is_match("ab"));
    assert_eq!(copy.source(), "^a+$");
}

/// `\p{Changes_When_NFKC_Casefolded}` is valid ECMA-262 but has no Unicode table in
/// regex-syntax (and cannot be derived from its tables): a typed `Unsupported` error that
/// says so, at the escape's offset, in every spelling.
#[test]
fn cwkcf_is_refused_with_its_reason() {
    for (p, at) in [
        ("ab\\p{CWKCF}", 2),
        ("[\\P{Changes_When_NFKC_Casefolded}]", 1),
    ] {
        let err = compile(p, &RegexOptions::default()).expect_err(p);
        match &err {
            RegexError::Unsupported { construct, offset } => {
                assert_eq!(*offset, at, "{p}");
                assert!(
                    construct.contains("Changes_When_NFKC_Casefolded"),
                    "{construct}"
                );
            }
            other => panic!("{p}: {other:?}"),
        }
        let text = err.to_string();
        assert!(
            text.contains("regex-syntax") && text.contains("no table"),
            "{text}"
        );
        assert!(!text.contains("linear time"), "{text}");
    }
    // The other properties of its family compile.
    assert!(m("^\\p{Changes_When_Casefolded}$", "A"));
    assert!(!m("^\\p{CWCF}$", "a"));
}

/// ECMA-262 Annex B allows a quantified lookahead (`(?=a)*`, `(?!a)+`) only outside u-mode
/// (`QuantifiableAssertion` is a `Term[~UnicodeMode]` production); in u-mode, which schemac
/// implements, every quantified assertion — lookahead, lookbehind, `^`, `$`, `\b` — is a
/// syntax error. regress with the `u` flag agrees (except on `\\b?`, which it lets through);
/// without the flag it accepts the quantified lookaheads.
#[test]
fn quantified_lookarounds_are_syntax_errors_in_u_mode() {
    let opts = RegexOptions::default();
    for p in [
        "(?=a)*",
        "(?!a)+",
        "x(?=a)?",
        "(?=a){2}",
        "(?<=a)*",
        "(?<!a){1,}",
        "^*",
        "a$+",
        "\\b?",
    ] {
        match compile(p, &opts) {
            Err(RegexError::Invalid { message, .. }) => {
                assert!(message.contains("nothing to repeat"), "{p}: {message}");
                if p.contains("(?") {
                    assert!(message.contains("u-mode"), "{p}: {message}");
                }
            }
            other => panic!("{p}: {other:?}"),
        }
        assert!(!schemac_runtime::regex::is_valid_syntax(p), "{p}");
        // regress is lenient about a quantified `\b` (V8 and the grammar are not).
        if p != "\\b?" {
            assert!(
                regress::Regex::with_flags(p, "u").is_err(),
                "regress u-mode: {p}"
            );
        }
    }
    // Outside u-mode (not what JSON Schema uses) Annex B accepts the quantified lookaheads.
    assert!(regress::Regex::with_flags("(?=a)*", "").is_ok());
    assert!(regress::Regex::with_flags("(?!a)+", "").is_ok());
    // A lookaround inside a quantified group is fine in u-mode.
    assert!(m("^(?:(?=a)a)*$", "aaa"));
    assert!(!m("^(?:(?!b).)*$", "aab"));
}

/// The Pike VM keeps its scratch on the stack for programs of up to 64 and 512
/// instructions and its lookaround marks there for up to 64 words, and allocates beyond:
/// every tier, and the boundaries between them, give the same answers.
#[test]
fn pike_vm_scratch_tiers_agree() {
    use schemac_runtime::regex::pikevm::{MEDIUM_PROGRAM, SMALL_PROGRAM, STACK_MARK_WORDS};
    // One lookaround: marks of `len / 64 + 1` words, on the stack up to 64.
    let limit = STACK_MARK_WORDS * 64;
    for len in [
        0,
        1,
        63,
        64,
        limit - 66,
        limit - 65,
        limit - 64,
        limit - 1,
        limit,
        20_000,
    ] {
        let hay = "a".repeat(len) + "b";
        assert_eq!(m("a(?=b)", &hay), len > 0, "{len}");
        assert_eq!(m("(?<=a)b$", &hay), len > 0, "{len}");
        assert_eq!(m("(?<!a)b", &hay), len == 0, "{len}");
        assert_eq!(m("^(?=a*b$)(?!.*c)(?=a)(?<=^)a", &hay), len > 0, "{len}");
    }
    let mut tiers = [false; 3];
    // Tier boundaries at 64, 256 and 512 instructions (`^(?=a)a{k}$` has k + 5 or so).
    for k in (50..80).chain(240..270).chain(490..530) {
        let p = format!("^(?=a)a{{{k}}}$");
        let r = re(&p);
        let n = r.as_runtime().program().len();
        tiers[usize::from(n > SMALL_PROGRAM) + usize::from(n > MEDIUM_PROGRAM)] = true;
        assert!(m(&p, &"a".repeat(k)), "{p}");
        assert!(!m(&p, &"a".repeat(k - 1)), "{p}");
        assert!(!m(&p, &"a".repeat(k + 1)), "{p}");
    }
    assert_eq!(tiers, [true; 3], "every scratch tier is exercised");
}

#[test]
fn a_schema_pattern_its_fast_path_decides_gets_no_dfa() {
    let options = RegexOptions::default();
    let in_schema = |p: &str| {
        let mut work = options.max_total_dfa_work;
        compile_with_work(p, &options, &mut work).unwrap_or_else(|e| panic!("{p}: {e}"))
    };
    // A class run, a literal, anchored ASCII runs: decided by the fast path alone.
    for p in ["^[a-z0-9_-]{1,64}$", "foo", "^(get|put)_[a-z]+$"] {
        let (schema, every) = (in_schema(p), re(p));
        assert!(schema.fast_path().is_some() && !schema.has_dfa(), "{p}");
        assert!(every.has_dfa(), "{p}: `compile` keeps every engine");
        for s in ["", "foo", "get_x", "put_", "abc-1", "ABC", "éfoo"] {
            assert_eq!(schema.is_match(s), every.is_match(s), "{p} on {s:?}");
        }
    }
    // A prefix or a leading set leaves inputs to the automaton: the DFA stays.
    for p in ["^abc.*x", "^[a-z].*x"] {
        let schema = in_schema(p);
        assert!(schema.fast_path().is_some() && schema.has_dfa(), "{p}");
    }
}
