//! Per-tool validators: a tool name in, its `inputSchema` (and `outputSchema`) validators
//! out, from generated code or compiled by the interpreter under MCP's rules.

use rmcp::model::Tool;
use schemac::{CompileErrors, ValidatorOptions};
use schemac_runtime::{Report, Validate, Verdict};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// A validator shared between tasks: generated code or an interpreter.
pub type SharedValidator = Arc<dyn Validate + Send + Sync>;

/// The validators of one tool.
#[derive(Clone)]
pub struct ToolValidator {
    input: SharedValidator,
    output: Option<OutputValidator>,
    /// Whether valid arguments get the input schema's defaults
    /// ([`ToolValidator::with_defaults`]).
    defaults: bool,
}

#[derive(Clone)]
struct OutputValidator {
    validator: SharedValidator,
    /// Whether the schema's root says `"type": "object"` (rmcp strips other output
    /// schemas, and the structured content they describe, for peers before 2026-07-28).
    object_root: bool,
}

impl fmt::Debug for ToolValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolValidator")
            .field("has_output_schema", &self.output.is_some())
            .field("defaults", &self.defaults)
            .finish_non_exhaustive()
    }
}

impl ToolValidator {
    /// A tool with an input validator and no output schema.
    pub fn new(input: impl Validate + Send + Sync + 'static) -> ToolValidator {
        ToolValidator {
            input: Arc::new(input),
            output: None,
            defaults: false,
        }
    }

    /// The same tool, its valid arguments given the input schema's defaults before the
    /// handler sees them ([`Validate::apply_defaults`]: each missing property whose
    /// subschema applies for certain gets its `default`). The input validator must plan
    /// them: generated with the builder's `defaults(true)`, or compiled with
    /// [`ValidatorOptions::defaults`] ([`ToolValidator::compile`] turns this on then);
    /// any other inserts nothing.
    pub fn with_defaults(mut self) -> ToolValidator {
        self.defaults = true;
        self
    }

    /// The same tool with an output validator. `object_root` says whether the output
    /// schema's root is `"type": "object"`; see [`ToolValidator::output_object_root`].
    pub fn with_output(
        mut self,
        output: impl Validate + Send + Sync + 'static,
        object_root: bool,
    ) -> ToolValidator {
        self.output = Some(OutputValidator {
            validator: Arc::new(output),
            object_root,
        });
        self
    }

    /// Compiles a tool's schemas with the interpreter under MCP's rules (2020-12 default,
    /// draft-07 allowed, other dialects refused, nothing fetched): `options` plus
    /// [`ValidatorOptions::mcp`]. An `inputSchema` must have `"type": "object"` at its root.
    pub fn compile(tool: &Tool, options: &ValidatorOptions) -> Result<ToolValidator, ToolError> {
        let name = tool.name.as_ref();
        let options = options.clone().mcp();
        let input_schema = Value::Object(Map::clone(&tool.input_schema));
        // MCP's rules on the tool entry (root `"type": "object"` and the like).
        let entry = serde_json::json!([{"name": name, "inputSchema": &input_schema}]);
        let rules = schemac::mcp::tools(&format!("tool {name:?}"), &entry);
        if !rules.errors.is_empty() {
            return Err(ToolError::new(name, CompileErrors(rules.errors)));
        }
        let input = options
            .clone()
            .named(format!("tool {name:?} inputSchema"))
            .build(&input_schema)
            .map_err(|errors| ToolError::new(name, errors))?;
        let mut validator = ToolValidator::new(input);
        validator.defaults = options.compiler_options().defaults;
        if let Some(schema) = &tool.output_schema {
            let output_schema = Value::Object(Map::clone(schema));
            let output = options
                .named(format!("tool {name:?} outputSchema"))
                .build(&output_schema)
                .map_err(|errors| ToolError::new(name, errors))?;
            let object_root = output_schema.get("type").and_then(Value::as_str) == Some("object");
            validator = validator.with_output(output, object_root);
        }
        Ok(validator)
    }

    /// Whether the tool declares an output schema.
    pub fn has_output(&self) -> bool {
        self.output.is_some()
    }

    /// Whether the output schema's root is `"type": "object"` (`false` without one).
    pub fn output_object_root(&self) -> bool {
        self.output.as_ref().is_some_and(|o| o.object_root)
    }

    /// Checks a tool call's arguments, taken by value as rmcp holds them and handed back
    /// unchanged — but for the defaults of valid arguments, under
    /// [`ToolValidator::with_defaults`] (absent arguments that get one come back as an
    /// object): absent arguments validate as `{}`. The map is moved into a
    /// `Value::Object` and out again, never cloned. `Ok` when valid; otherwise the report
    /// with every error (an incomplete check is never valid).
    pub fn check_arguments(
        &self,
        arguments: Option<Map<String, Value>>,
    ) -> (Option<Map<String, Value>>, Result<(), Report>) {
        let was_absent = arguments.is_none();
        let mut value = Value::Object(arguments.unwrap_or_default());
        let outcome = full_check(self.input.as_ref(), &value);
        if self.defaults && outcome.is_ok() {
            // Validation bounded the depth the walk may go to: it reaches the bottom.
            self.input.apply_defaults(&mut value);
        }
        let arguments = match value {
            Value::Object(map) if !(was_absent && map.is_empty()) => Some(map),
            _ => None,
        };
        (arguments, outcome)
    }

    /// Checks structured content against the output schema (`Ok` without one).
    pub fn check_output(&self, structured: &Value) -> Result<(), Report> {
        match &self.output {
            Some(output) => full_check(output.validator.as_ref(), structured),
            None => Ok(()),
        }
    }
}

/// The fast check first (no error collection, no allocation on success); the full report
/// only for an instance that fails it.
fn full_check(validator: &(dyn Validate + Send + Sync), instance: &Value) -> Result<(), Report> {
    if validator.check(instance) == Verdict::Valid {
        return Ok(());
    }
    let report = validator.validate(instance);
    debug_assert!(!report.is_valid(), "check and validate disagree");
    Err(report)
}

/// The validators of a server's tools, by tool name.
#[derive(Debug, Clone, Default)]
pub struct ToolValidators {
    tools: BTreeMap<String, ToolValidator>,
}

impl ToolValidators {
    /// No tools yet.
    pub fn new() -> ToolValidators {
        ToolValidators::default()
    }

    /// Adds (or replaces) the validators of `name`, usually generated code:
    ///
    /// ```ignore
    /// ToolValidators::new().tool(
    ///     "get_weather",
    ///     ToolValidator::new(validators::get_weather_input::Validator)
    ///         .with_output(validators::get_weather_output::Validator, true),
    /// )
    /// ```
    pub fn tool(mut self, name: impl Into<String>, validator: ToolValidator) -> ToolValidators {
        self.tools.insert(name.into(), validator);
        self
    }

    /// The validators generated at build time for a tool list, in one call: `table` is the
    /// `TOOLS` that `schemac_build::Builder::mcp_tools` generates beside the modules, each
    /// tool under its name as listed (`github.get-me`, whose modules are
    /// `github_get_me_input` and `github_get_me_output`). Zero start-up cost: nothing is
    /// compiled or parsed.
    ///
    /// ```ignore
    /// mod validators {
    ///     schemac_runtime::include_validators!();
    /// }
    /// let validators = ToolValidators::from_table(validators::TOOLS);
    /// ```
    pub fn from_table(table: &'static [schemac_runtime::tools::Tool]) -> ToolValidators {
        let mut out = ToolValidators::new();
        for tool in table {
            let mut validator = ToolValidator::new(tool.input.validator);
            if let Some(output) = tool.output {
                validator = validator.with_output(output.validator, output.object_root);
            }
            out.tools.insert(tool.name.to_string(), validator);
        }
        out
    }

    /// Compiles every tool's schemas with the interpreter, under MCP's rules and the
    /// default options. Every tool whose schemas do not compile is reported.
    pub fn compile(tools: &[Tool]) -> Result<ToolValidators, ToolErrors> {
        ToolValidators::compile_with(tools, &ValidatorOptions::default())
    }

    /// [`ToolValidators::compile`] with options: offline documents that references may
    /// reach, limits, format assertion. MCP's dialect rules are applied on top.
    pub fn compile_with(
        tools: &[Tool],
        options: &ValidatorOptions,
    ) -> Result<ToolValidators, ToolErrors> {
        let mut out = ToolValidators::new();
        let mut errors = Vec::new();
        for tool in tools {
            match ToolValidator::compile(tool, options) {
                Ok(validator) => {
                    out.tools.insert(tool.name.to_string(), validator);
                }
                Err(error) => errors.push(error),
            }
        }
        if errors.is_empty() {
            Ok(out)
        } else {
            Err(ToolErrors(errors))
        }
    }

    /// [`ToolValidators::compile`] over a `ToolRouter`'s tools (`list_all()`), the usual
    /// source when the schemas come from `schemars`.
    pub fn from_router<S: Send + Sync + 'static>(
        router: &rmcp::handler::server::router::tool::ToolRouter<S>,
    ) -> Result<ToolValidators, ToolErrors> {
        ToolValidators::compile(&router.list_all())
    }

    /// The same validators, every tool's valid arguments given its input schema's
    /// defaults before the handler sees them ([`ToolValidator::with_defaults`]).
    pub fn with_defaults(mut self) -> ToolValidators {
        for tool in self.tools.values_mut() {
            tool.defaults = true;
        }
        self
    }

    /// The validators of `name`.
    pub fn get(&self, name: &str) -> Option<&ToolValidator> {
        self.tools.get(name)
    }

    /// The tool names, in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether there are no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// A tool whose schemas do not compile: its name and every compile error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    /// The tool's name.
    pub tool: String,
    /// The compiler's errors.
    pub errors: CompileErrors,
}

impl ToolError {
    fn new(tool: &str, errors: CompileErrors) -> ToolError {
        ToolError {
            tool: tool.to_string(),
            errors,
        }
    }

    /// Whether any of the errors is of `kind`.
    pub fn has_kind(&self, kind: &schemac::CompileErrorKind) -> bool {
        self.errors.has_kind(kind)
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool {:?}: {}", self.tool, self.errors)
    }
}

impl std::error::Error for ToolError {}

/// Every tool whose schemas do not compile (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolErrors(pub Vec<ToolError>);

impl fmt::Display for ToolErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ToolErrors {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn forecast() -> ToolValidator {
        let tool: Tool = serde_json::from_value(json!({"name": "forecast",
            "inputSchema": {"type": "object", "required": ["city"],
                "properties": {"city": {"type": "string"}}},
            "outputSchema": {"oneOf": [{"type": "array"}, {"type": "string"}]}}))
        .unwrap();
        ToolValidator::compile(&tool, &ValidatorOptions::default()).unwrap()
    }

    #[test]
    fn arguments_come_back_as_they_went_in() {
        let tool = forecast();
        let map = json!({"city": "Oslo", "x": [1, 2]}).as_object().cloned();
        let (back, outcome) = tool.check_arguments(map.clone());
        assert_eq!(back, map);
        assert!(outcome.is_ok());

        let (back, outcome) = tool.check_arguments(None);
        assert_eq!(back, None, "absent arguments stay absent");
        let report = outcome.unwrap_err();
        assert_eq!(report.errors[0].keyword_location, "/required");

        let (back, outcome) = tool.check_arguments(Some(Map::new()));
        assert_eq!(back, Some(Map::new()));
        assert!(outcome.is_err());
    }

    #[test]
    fn a_generated_table_is_taken_in_one_call_under_the_listed_names() {
        use schemac_runtime::tools::{Tool as Entry, ToolSchema};
        fn leak(schema: Value) -> &'static (dyn Validate + Sync) {
            Box::leak(Box::new(schemac::validator_for(&schema).unwrap()))
        }
        let table: &'static [Entry] = Box::leak(Box::new([Entry {
            name: "github.get-me",
            input: ToolSchema {
                validator: leak(json!({"type": "object", "required": ["q"]})),
                text: "",
                object_root: true,
            },
            output: Some(ToolSchema {
                validator: leak(json!({"type": "array"})),
                text: "",
                object_root: false,
            }),
        }]));
        let validators = ToolValidators::from_table(table);
        assert_eq!(validators.names().collect::<Vec<_>>(), ["github.get-me"]);
        let tool = validators.get("github.get-me").expect("listed name");
        assert!(tool.check_arguments(None).1.is_err());
        assert!(
            tool.check_arguments(json!({"q": 1}).as_object().cloned())
                .1
                .is_ok()
        );
        assert!(tool.has_output() && !tool.output_object_root());
        assert!(tool.check_output(&json!([])).is_ok());
        assert!(tool.check_output(&json!({})).is_err());
    }

    #[test]
    fn valid_arguments_get_their_defaults_when_asked() {
        let tool: Tool = serde_json::from_value(json!({"name": "search",
            "inputSchema": {"type": "object",
                "properties": {"query": {"type": "string"},
                    "limit": {"type": "integer", "default": 10}}}}))
        .unwrap();
        let plain = ToolValidator::compile(&tool, &ValidatorOptions::default()).unwrap();
        let (back, outcome) = plain.check_arguments(None);
        assert!(outcome.is_ok());
        assert_eq!(back, None, "no defaults asked for: unchanged");

        let options = schemac::options().defaults(true);
        let filling = ToolValidator::compile(&tool, &options).unwrap();
        let (back, outcome) = filling.check_arguments(None);
        assert!(outcome.is_ok());
        assert_eq!(back, json!({"limit": 10}).as_object().cloned());
        let (back, _) = filling.check_arguments(json!({"limit": 3}).as_object().cloned());
        assert_eq!(back, json!({"limit": 3}).as_object().cloned());
        // Invalid arguments come back as they went in.
        let (back, outcome) = filling.check_arguments(json!({"query": 1}).as_object().cloned());
        assert!(outcome.is_err());
        assert_eq!(back, json!({"query": 1}).as_object().cloned());
        // A validator that plans no defaults inserts none, even when asked.
        let asked = plain.with_defaults();
        assert_eq!(asked.check_arguments(None).0, None);
    }

    #[test]
    fn output_schemas_may_be_any_schema() {
        let tool = forecast();
        assert!(tool.has_output());
        assert!(!tool.output_object_root());
        assert!(tool.check_output(&json!([1])).is_ok());
        assert!(tool.check_output(&json!({"a": 1})).is_err());
        let plain = ToolValidator::new(schemac::validator_for(&json!(true)).unwrap());
        assert!(plain.check_output(&json!({"anything": 1})).is_ok());
    }
}
