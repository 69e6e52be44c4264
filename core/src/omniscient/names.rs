//! Names of a trace's definitions as the queries print them, looked up once each: methods
//! (`pkg.Class.method`), their source files, threads, fields and classes.

use std::collections::HashMap;

use crate::debugger::names::{MethodName, MethodNames};
use crate::ids::{ClassId, FieldId, MethodId, NodeId, ThreadId};
use crate::trace::store::{StoreError, TraceReader};

type StoreResult<T> = Result<T, StoreError>;

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
