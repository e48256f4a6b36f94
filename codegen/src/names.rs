//! Rust identifiers for generated modules: one sanitizer for schema names, file stems and
//! MCP tool names, so every entry point names a module alike, and one check that no two
//! inputs claim the same module ([`ModuleNames`]).

use std::collections::BTreeMap;

/// Sanitizes `name` (a file stem such as `aws-cdk`, `getWeather` or `2fa.v1`, or an MCP
/// tool name) into a snake-case Rust module name (`aws_cdk`, `get_weather`, `_2fa_v1`):
/// camel-case humps become `_`, every character other than ASCII letters, digits and `_`
/// becomes `_`, letters are lowercased, a leading digit gets a `_` prefix, and a keyword
/// (or a lone `_`) gets a `_` suffix. `None` for an empty name.
pub fn module_name(name: &str) -> Option<String> {
    if name.is_empty() {
        return None;
    }
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase()
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_lower)
            {
                out.push('_');
            }
        }
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else {
            out.push('_');
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if out == "_" || is_keyword(&out) {
        out.push('_');
    }
    Some(out)
}

/// The module names handed out so far, each with what it was handed to (`T`: a tool
/// name, a file...): names are sanitized with [`module_name`], and a second claim on a
/// module is refused, naming the first claimant.
#[derive(Debug, Clone)]
pub struct ModuleNames<T> {
    taken: BTreeMap<String, T>,
}

impl<T> Default for ModuleNames<T> {
    fn default() -> Self {
        ModuleNames {
            taken: BTreeMap::new(),
        }
    }
}

/// Why [`ModuleNames::claim`] refused a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unclaimable<'a, T> {
    /// No module name can be made from the name (it is empty).
    Empty,
    /// The name sanitizes to `module`, which `first` claimed before.
    Taken {
        /// The module both would generate.
        module: String,
        /// Who claimed it first.
        first: &'a T,
    },
}

impl<T> ModuleNames<T> {
    /// No names handed out.
    pub fn new() -> Self {
        Self::default()
    }

    /// The module name for `name` ([`module_name`]), now taken by `owner`; refused when
    /// none can be made or when another owner took it before.
    pub fn claim(&mut self, name: &str, owner: T) -> Result<String, Unclaimable<'_, T>> {
        let module = module_name(name).ok_or(Unclaimable::Empty)?;
        match self.taken.entry(module) {
            std::collections::btree_map::Entry::Occupied(first) => {
                let module = first.key().clone();
                Err(Unclaimable::Taken {
                    module,
                    first: first.into_mut(),
                })
            }
            std::collections::btree_map::Entry::Vacant(slot) => {
                let module = slot.key().clone();
                slot.insert(owner);
                Ok(module)
            }
        }
    }
}

/// Whether `s` is a Rust keyword (strict, reserved or weak enough to refuse as a name).
fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "async"
            | "await"
            | "break"
            | "const"
            | "continue"
            | "crate"
            | "dyn"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "gen"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "try"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
    )
}

#[cfg(test)]
mod tests {
    use super::{module_name, ModuleNames, Unclaimable};

    #[test]
    fn module_names_are_identifiers() {
        assert_eq!(module_name("aws-cdk").as_deref(), Some("aws_cdk"));
        assert_eq!(module_name("get_weather").as_deref(), Some("get_weather"));
        assert_eq!(module_name("getWeather").as_deref(), Some("get_weather"));
        assert_eq!(
            module_name("search.files v2").as_deref(),
            Some("search_files_v2")
        );
        assert_eq!(module_name("3d").as_deref(), Some("_3d"));
        assert_eq!(module_name("type").as_deref(), Some("type_"));
        assert_eq!(module_name("gen").as_deref(), Some("gen_"));
        assert_eq!(module_name("_").as_deref(), Some("__"));
        assert_eq!(module_name(""), None);
    }

    #[test]
    fn a_module_is_claimed_once() {
        let mut names = ModuleNames::new();
        assert_eq!(names.claim("a-b", 1), Ok("a_b".to_string()));
        assert_eq!(
            names.claim("aB", 2),
            Err(Unclaimable::Taken {
                module: "a_b".to_string(),
                first: &1
            })
        );
        assert_eq!(names.claim("", 3), Err(Unclaimable::Empty));
        assert_eq!(names.claim("a_b_c", 4), Ok("a_b_c".to_string()));
        assert_eq!(
            names.claim("A_B", 5),
            Err(Unclaimable::Taken {
                module: "a_b".to_string(),
                first: &1
            }),
            "the first claimant stays"
        );
    }
}
