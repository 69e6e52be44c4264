//! Finding methods and source files by the names people type: `pkg.Class.method`,
//! `Class.method`, `*.put`; `Example.java`, `src/pkg/Example.java`.

use std::collections::HashMap;

use super::error::{QueryError, QueryResult};
use crate::glob::Glob;
use crate::ids::MethodId;
use crate::trace::store::TraceReader;
use crate::trace::wire::MethodDef;

/// A method of the trace with its qualified name.
#[derive(Clone, Debug)]
pub struct Named {
    pub id: MethodId,
    pub qualified: String,
    pub class: String,
    pub source_file: String,
    pub first_line: u32,
    pub last_line: u32,
    pub is_static: bool,
}

/// Every method the trace defines.
pub fn all_methods(reader: &TraceReader) -> QueryResult<Vec<Named>> {
    Ok(reader.rows(
        "SELECT m.id, c.name, m.name, c.source_file, m.first_line, m.last_line, m.access
         FROM methods m JOIN classes c ON c.id = m.class ORDER BY m.id",
        [],
        |r| {
            let class: String = r.get(1)?;
            let name: String = r.get(2)?;
            let access: u32 = r.get(6)?;
            Ok(Named {
                id: MethodId(r.get(0)?),
                qualified: format!("{class}.{name}"),
                class,
                source_file: r.get(3)?,
                first_line: r.get(4)?,
                last_line: r.get(5)?,
                is_static: access & crate::trace::wire::ACC_STATIC != 0,
            })
        },
    )?)
}

/// The methods `spec` names: `pkg.Class.method` exactly, `Class.method` or `method` as the
/// end of a qualified name, or a pattern with `*`, whole or as the end of one (`Main.check*`).
/// An error when none matches.
pub fn methods_matching(reader: &TraceReader, spec: &str) -> QueryResult<Vec<Named>> {
    let whole = Glob::new(spec);
    let end = Glob::new(&format!("*.{spec}"));
    let found: Vec<Named> = all_methods(reader)?
        .into_iter()
        .filter(|m| whole.matches(&m.qualified) || end.matches(&m.qualified))
        .collect();
    if found.is_empty() {
        return Err(QueryError::NotFound(format!(
            "no method of this trace is named `{spec}` (write pkg.Class.method, Class.method or a pattern with *; `hindsight sql TRACE \"SELECT DISTINCT method FROM calls\"` lists the methods called)"
        )));
    }
    Ok(found)
}

/// Whether the method is an instance method whose calls carry the receiver as argument 0.
pub fn has_receiver(def: &MethodDef) -> bool {
    !def.is_static() && !def.is_constructor()
}

/// Method definitions looked up once.
#[derive(Default)]
pub struct Defs(HashMap<MethodId, Option<MethodDef>>);

impl Defs {
    pub fn get(&mut self, reader: &TraceReader, id: MethodId) -> QueryResult<Option<&MethodDef>> {
        if let std::collections::hash_map::Entry::Vacant(slot) = self.0.entry(id) {
            slot.insert(reader.method(id)?);
        }
        Ok(self.0[&id].as_ref())
    }
}
