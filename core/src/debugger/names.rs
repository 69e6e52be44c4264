//! Names as people read them, cached per method: `pkg.Class.method`.

use std::collections::HashMap;

use crate::ids::MethodId;
use crate::trace::store::{StoreError, TraceReader};

type StoreResult<T> = Result<T, StoreError>;
use crate::trace::wire::MethodDef;

/// What the front ends show of a method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodName {
    /// `pkg.Class.method`; constructors are `pkg.Class.<init>`.
    pub qualified: String,
    /// `Class.method`, for questions.
    pub short: String,
    pub class: String,
    pub source_file: Option<String>,
    pub def: MethodDef,
}

/// Method names of one trace, looked up once each.
#[derive(Default)]
pub struct MethodNames {
    cache: HashMap<MethodId, Option<MethodName>>,
}

impl MethodNames {
    pub fn get(&mut self, reader: &TraceReader, id: MethodId) -> StoreResult<Option<&MethodName>> {
        // Not `entry().or_insert_with`: the lookup can fail, and a failure must not be cached.
        if let std::collections::hash_map::Entry::Vacant(slot) = self.cache.entry(id) {
            slot.insert(lookup(reader, id)?);
        }
        Ok(self.cache[&id].as_ref())
    }

    /// The qualified name, or `#id` for a method the trace does not define.
    pub fn qualified(&mut self, reader: &TraceReader, id: MethodId) -> StoreResult<String> {
        Ok(self
            .get(reader, id)?
            .map_or_else(|| format!("#{id}"), |m| m.qualified.clone()))
    }
}

/// The methods named `qualified` (`pkg.Class.method`, every overload), as the trace defines them.
pub fn methods_named(reader: &TraceReader, qualified: &str) -> StoreResult<Vec<MethodId>> {
    match qualified.rsplit_once('.') {
        Some((class, method)) => reader.methods_named(class, method),
        None => Ok(Vec::new()),
    }
}

fn lookup(reader: &TraceReader, id: MethodId) -> StoreResult<Option<MethodName>> {
    let Some(def) = reader.method(id)? else {
        return Ok(None);
    };
    let class = reader.class(def.class)?;
    let (class_name, source_file) = match class {
        Some(c) => (c.name, Some(c.source_file).filter(|s| !s.is_empty())),
        None => (format!("#{}", def.class), None),
    };
    let simple = class_name
        .rsplit('.')
        .next()
        .unwrap_or(&class_name)
        .replace('$', ".");
    Ok(Some(MethodName {
        qualified: format!("{class_name}.{}", def.name),
        short: format!("{simple}.{}", def.name),
        class: class_name,
        source_file,
        def,
    }))
}
