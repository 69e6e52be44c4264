//! Names of a trace's definitions as people read them, looked up once each: methods
//! (`pkg.Class.method`, [`MethodNames`], which the debugger and the oracle use too), their source
//! files, threads, fields and classes ([`Names`], for the queries).

use std::collections::HashMap;

use crate::ids::{ClassId, FieldId, MethodId, NodeId, ThreadId};
use crate::trace::store::{StoreError, TraceReader};
use crate::trace::wire::MethodDef;

type StoreResult<T> = Result<T, StoreError>;

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
    let simple = crate::omniscient::simple_class_name(&class_name);
    Ok(Some(MethodName {
        qualified: format!("{class_name}.{}", def.name),
        short: format!("{simple}.{}", def.name),
        class: class_name,
        source_file,
        def,
    }))
}

/// The names of one trace's methods, threads, fields and classes, for the queries.
pub struct Names<'r> {
    pub reader: &'r TraceReader,
    methods: MethodNames,
    threads: Option<HashMap<ThreadId, String>>,
    fields: HashMap<FieldId, String>,
    classes: HashMap<ClassId, String>,
    /// A node's method and thread.
    nodes: HashMap<NodeId, (Option<MethodId>, Option<ThreadId>)>,
}

impl<'r> Names<'r> {
    pub fn new(reader: &'r TraceReader) -> Self {
        Names {
            reader,
            methods: MethodNames::default(),
            threads: None,
            fields: HashMap::new(),
            classes: HashMap::new(),
            nodes: HashMap::new(),
        }
    }

    pub fn method(&mut self, id: MethodId) -> StoreResult<Option<&MethodName>> {
        self.methods.get(self.reader, id)
    }

    /// `pkg.Class.method`, or `#id`.
    pub fn qualified(&mut self, id: MethodId) -> StoreResult<String> {
        self.methods.qualified(self.reader, id)
    }

    /// `Class.method`, or `#id`.
    pub fn short(&mut self, id: MethodId) -> StoreResult<String> {
        Ok(self
            .method(id)?
            .map_or_else(|| format!("#{id}"), |m| m.short.clone()))
    }

    /// A node's method and thread, read once.
    fn node(&mut self, node: NodeId) -> StoreResult<(Option<MethodId>, Option<ThreadId>)> {
        if let Some(n) = self.nodes.get(&node) {
            return Ok(*n);
        }
        let n = self
            .reader
            .node(node)?
            .map_or((None, None), |r| (r.header.method, r.header.thread));
        self.nodes.insert(node, n);
        Ok(n)
    }

    /// The method a node calls (none for the root and thread nodes).
    pub fn node_method(&mut self, node: NodeId) -> StoreResult<Option<MethodId>> {
        Ok(self.node(node)?.0)
    }

    /// The name of the thread a node runs in (none for the root).
    pub fn node_thread(&mut self, node: NodeId) -> StoreResult<Option<String>> {
        match self.node(node)?.1 {
            Some(t) => Ok(Some(self.thread(t)?)),
            None => Ok(None),
        }
    }

    /// The qualified method and source file of a node's method.
    pub fn node_place(&mut self, node: NodeId) -> StoreResult<(Option<String>, Option<String>)> {
        let Some(m) = self.node_method(node)? else {
            return Ok((None, None));
        };
        Ok(match self.method(m)? {
            Some(name) => (Some(name.qualified.clone()), name.source_file.clone()),
            None => (Some(format!("#{m}")), None),
        })
    }

    pub fn thread(&mut self, id: ThreadId) -> StoreResult<String> {
        if self.threads.is_none() {
            self.threads = Some(
                self.reader
                    .threads()?
                    .into_iter()
                    .map(|(t, _)| (t.id, t.name))
                    .collect(),
            );
        }
        Ok(self
            .threads
            .as_ref()
            .and_then(|t| t.get(&id).cloned())
            .unwrap_or_else(|| format!("#{id}")))
    }

    pub fn field(&mut self, id: FieldId) -> StoreResult<String> {
        if let Some(n) = self.fields.get(&id) {
            return Ok(n.clone());
        }
        let name = self
            .reader
            .field(id)?
            .map_or_else(|| format!("#{id}"), |f| f.name);
        self.fields.insert(id, name.clone());
        Ok(name)
    }

    /// `Class.field` for a static field.
    pub fn static_field(&mut self, id: FieldId) -> StoreResult<String> {
        let Some(f) = self.reader.field(id)? else {
            return Ok(format!("#{id}"));
        };
        Ok(format!(
            "{}.{}",
            super::simple_class_name(&self.class(f.class)?),
            f.name
        ))
    }

    /// The dotted class name, or `#id`.
    pub fn class(&mut self, id: ClassId) -> StoreResult<String> {
        if let Some(n) = self.classes.get(&id) {
            return Ok(n.clone());
        }
        let name = self
            .reader
            .class(id)?
            .map_or_else(|| format!("#{id}"), |c| c.name);
        self.classes.insert(id, name.clone());
        Ok(name)
    }
}
