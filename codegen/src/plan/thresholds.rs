//! The thresholds that shape how the backends evaluate a node below the first level of
//! the plan (how a check is run, never whether it passes; what it charges only where one
//! constant decides it for both backends: [`INLINE_COMPOSITE_VALUES`]), each with the
//! reason it has its value. Both backends' are here, side by side, so that a reader
//! sees where they decide alike and where not yet.
//!
//! Where the two backends decide the same thing with different constants, the entries
//! say so. Deciding such a thing once would change the generated code or the
//! interpreter's work, each tuned on its own measurements; that is left to the work of
//! issue 36 that moves these decisions into the plan as data.
//!
//! - `required` found in one pass over the object rather than by a lookup per name: the
//!   interpreter from 2 names on ([`REQUIRED_IN_PASS`], on an object of at most
//!   [`KEYS_PER_NAME`] keys per name), generated code from [`REQUIRED_IN_LOOP`] names on,
//!   on any object.
//! - `properties` alone: the interpreter looks its names up in a large object (more than
//!   [`KEYS_PER_NAME`] keys per name), generated code always iterates the object's keys.

/// Interpreter: up to this many `properties` (or `required`) names, an instance key is
/// found by a scan of the names' heads (length and first and last eight bytes) rather
/// than by hashing it into a bucket (af3498a, the head index; a length-prefiltered scan
/// up to 16 names before it, 3c2c9f4): below it, hashing the key costs more than
/// comparing a few heads.
pub const SCANNED_NAMES: usize = 12;

/// Interpreter: an object with more than this many keys per name is searched by a lookup
/// of each name (`properties` alone, `required`) rather than by a pass over its keys:
/// past it, the pass reads more keys than the lookups cost (a8625a6: jsconfig, tmuxinator
/// and dependabot −9 to −10% instructions with the pass on small objects).
pub const KEYS_PER_NAME: usize = 4;

/// Interpreter: a `required` of up to this many names (one bit each in a `u64`) is
/// found in one pass over a small object ([`KEYS_PER_NAME`]), stopping once all are seen;
/// one name is looked up. The bound is the width of the pass's bit set.
pub const REQUIRED_IN_PASS: usize = 64;

/// Interpreter: a `required` folded into the closed `properties` pass before it is
/// decided from that pass's lookups on objects of at most this many keys (one lookup
/// per key finds both the entry and the required name, e24c82f); on a larger object
/// the `required` looks its names up once the pass is done.
pub const FOLDED_REQUIRED_KEYS: usize = 16;

/// Interpreter: consecutive one-property steps (spliced `allOf` members of one property
/// each) find their names in one pass over an object of up to this many keys, the
/// entries found kept on the stack; a larger object looks each name up (77c394f:
/// jsconfig −13% instructions, every other workload within 0.1%).
pub const FOUND_IN_PASS: usize = 8;

/// Interpreter: the most steps a short-circuit lane holds once the lanes of the inline
/// nodes it applies in place are spliced into it (4166af7): splicing saves an
/// application per target, and the bound keeps a node's lanes from growing with the
/// product of nested inline nodes.
pub const MAX_SPLICED: usize = 64;

/// Generated code: from this many `required` names on, short-circuit code finds them in
/// a pass over the object (seen flags, as when the object loop runs anyway) rather than
/// by a lookup each (06f54db: each lookup ~80 instructions with its `memcmp` calls on
/// ui5's objects; ui5 −11.4%, nothing slower). The interpreter decides the same thing
/// with [`REQUIRED_IN_PASS`] and [`KEYS_PER_NAME`].
pub const REQUIRED_IN_LOOP: usize = 3;

/// Generated code: the most leading items a short-circuit `items` loop is peeled by (the
/// node's `minItems`, which has failed shorter arrays): the compiler unrolls the peeled
/// tests (154f432: geojson-canada −28% instructions; the other workloads unchanged).
/// The interpreter does not peel.
pub const PEELED_ITEMS: usize = 4;

/// Generated code: the most checks an item's schema may have for its loop to be peeled
/// ([`PEELED_ITEMS`]): the item test is written twice.
pub const PEELED_ITEM_CHECKS: usize = 4;

/// Generated code: at most this many absorbed conditions (`if` discriminators comparing
/// one property with string constants) are decided by one `match`, each arm a tuple of
/// their verdicts, and each compares fewer than [`EnumTable::MIN_STRINGS`](super::lookup::EnumTable::MIN_STRINGS) strings, so
/// that the `match` stays small however many conditions a schema has (54b3878).
pub const MAX_DECIDED_TOGETHER: usize = 16;

/// Generated code: a prefiltered pattern list (`patternProperties`, or the patterns an
/// `additionalProperties` skips, with a `schemac_runtime::regex::PrefixSet`) whose
/// patterns run at least this many more bodies than there are distinct ones writes each
/// body once, behind a `static` of the patterns' regexes and body numbers, and searches
/// with the runtime's shared (not inlined) regex search; below it each pattern keeps its
/// own `match` arm with its fast path inlined. Size, not speed: issue 38's 5,000 patterns
/// of one subschema were `match` arms alike but for the regex, 2.9 MB of code that a
/// fuzzing build did not finish compiling in 40 minutes; no schema of `realworld/` or the
/// benchmark has a prefiltered list that repeats a body this often (ss-appsettings: 8
/// patterns, 6 bodies), so none changes.
pub const SHARED_PATTERN_BODIES: usize = 16;

/// Both backends: an `enum`'s arrays and objects (a `const`'s array or object) holding at
/// most this many values in all are compared with the instance one by one, uncharged;
/// past it they are found by their hash ([`EnumTable`](super::lookup::EnumTable),
/// `schemac_runtime::lookup::Composites`),
/// the instance hashed and the members of its hash compared, all of it charged (one unit
/// per 16 values, as `uniqueItems`). Below it, comparing reads at most this many pairs of
/// values per test (a comparison stops at the member's end), a bounded amount the
/// subschema's own unit stands for, as for a short string `enum` ([`EnumTable::MIN_STRINGS`](super::lookup::EnumTable::MIN_STRINGS));
/// generated code keeps its inline comparisons (a length test and a few field reads, no
/// call), where hashing would read the whole instance. Issue 38 item 3: 10,000 arrays
/// nested 60 deep compared with each of 8,000 other arrays took 17.5 s, uncharged.
pub const INLINE_COMPOSITE_VALUES: usize = 64;
