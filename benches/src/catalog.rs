//! The schemas this crate benchmarks: `(module, path under the shared folder)`.
//!
//! Read by `build.rs` (which compiles each into a generated validator module, and wraps
//! each in a `jsonschema-macros` validator for the peers) and by the library (which pairs
//! each with its instances). The module name is also the benchmark workload's stem.

/// Every benchmarked schema: the Rust module name of its generated validator, and its
/// path relative to the shared folder.
pub const SCHEMAS: &[(&str, &str)] = &[
    ("w1_mcp_tool", "bench-mcp/w1-mcp-tool/schema.json"),
    ("w2_tree", "bench-mcp/w2-tree/schema.json"),
    ("w3_unevaluated", "bench-mcp/w3-unevaluated/schema.json"),
    ("w4_patterns", "bench-mcp/w4-patterns/schema.json"),
    ("ansible_meta", "bench-corpus/ansible-meta/schema.json"),
    ("babelrc", "bench-corpus/babelrc/schema.json"),
    ("cmake_presets", "bench-corpus/cmake-presets/schema.json"),
    ("cql2", "bench-corpus/cql2/schema.json"),
    ("cypress", "bench-corpus/cypress/schema.json"),
    ("dependabot", "bench-corpus/dependabot/schema.json"),
    (
        "gitpod_configuration",
        "bench-corpus/gitpod-configuration/schema.json",
    ),
    ("importmap", "bench-corpus/importmap/schema.json"),
    ("jsconfig", "bench-corpus/jsconfig/schema.json"),
    ("krakend", "bench-corpus/krakend/schema.json"),
    ("lerna", "bench-corpus/lerna/schema.json"),
    ("omnisharp", "bench-corpus/omnisharp/schema.json"),
    ("pulumi", "bench-corpus/pulumi/schema.json"),
    ("stale", "bench-corpus/stale/schema.json"),
    ("tmuxinator", "bench-corpus/tmuxinator/schema.json"),
    ("ui5", "bench-corpus/ui5/schema.json"),
    ("vercel", "bench-corpus/vercel/schema.json"),
    (
        "citm_catalog",
        "jsonschema-rs-bench-data/citm_catalog_schema.json",
    ),
    ("geojson", "jsonschema-rs-bench-data/geojson.json"),
];

/// The meta-schemas registered offline with every schemac compiler (none of the schemas
/// above references one today; registering them keeps a schema that starts to from
/// failing with `RemoteRef`): `(URI, path under the shared folder)`.
pub const METASCHEMAS: &[(&str, &str)] = &[
    (
        "http://json-schema.org/draft-07/schema",
        "metaschemas/draft7.json",
    ),
    (
        "https://json-schema.org/draft/2020-12/schema",
        "metaschemas/draft2020-12/schema.json",
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/applicator",
        "metaschemas/draft2020-12/meta/applicator.json",
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/content",
        "metaschemas/draft2020-12/meta/content.json",
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/core",
        "metaschemas/draft2020-12/meta/core.json",
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-annotation",
        "metaschemas/draft2020-12/meta/format-annotation.json",
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/format-assertion",
        "metaschemas/draft2020-12/meta/format-assertion.json",
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/meta-data",
        "metaschemas/draft2020-12/meta/meta-data.json",
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/unevaluated",
        "metaschemas/draft2020-12/meta/unevaluated.json",
    ),
    (
        "https://json-schema.org/draft/2020-12/meta/validation",
        "metaschemas/draft2020-12/meta/validation.json",
    ),
];
