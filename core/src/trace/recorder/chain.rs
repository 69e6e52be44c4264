//! Chains (balanced-ET paper, Definition 7), decided where the events are: a call is marked
//! `chained` when it starts in the state its previous sibling left. Operationally, over the
//! recorded events (docs/ARCHITECTURE.md, "Execution forest"):
//!
//! - the *context* of a routine call is its receiver object (an instance method) or its class's
//!   static fields (a static method); a constructor starts a new object and has none, nor has a
//!   call into uninstrumented code (its effects are unknown);
//! - a call is linked to its previous sibling when both are routine calls with the same context
//!   and the parent's own code wrote no field, array element or static field between the
//!   sibling's exit and the call (writes of its locals do not count: a callee sees them only
//!   as arguments, which are part of the call, not of its context);
//! - with loop expansion a call's parent may be an iteration: a call is linked only to a
//!   sibling under the same parent (the first call of an iteration starts no chain). A loop or
//!   iteration between two calls breaks no link by itself: its code is the frame's own, so a heap
//!   write in it does.

use crate::ids::{ClassId, NodeId, ObjectId};
use crate::trace::wire::{MethodDef, Value};

/// What a call's context is, by method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rule {
    /// An instance method: the receiver, the call's first value.
    Receiver,
    /// A static method: its class's statics.
    Class(ClassId),
    /// A constructor: no context to share.
    None,
}

impl Rule {
    pub(super) fn of(m: &MethodDef) -> Rule {
        if m.is_static() {
            Rule::Class(m.class)
        } else if m.is_constructor() {
            Rule::None
        } else {
            Rule::Receiver
        }
    }

    /// The context of a routine call of this rule's method with these values.
    pub(super) fn context(self, args: &[Value]) -> Option<Context> {
        match (self, args.first()) {
            (Rule::Class(c), _) => Some(Context::Class(c)),
            (Rule::Receiver, Some(Value::Object(o))) => Some(Context::Object(*o)),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Context {
    Object(ObjectId),
    Class(ClassId),
}

/// Per frame (a call or the thread node): what its last child left, and whether the frame's
/// own code wrote the heap since.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Cursor {
    last: Option<Context>,
    /// The parent the last child call hangs below (the frame's call or one of its iterations).
    parent: Option<NodeId>,
    wrote: bool,
}

impl Cursor {
    /// Whether a child call with context `ctx` starting now below `parent` is linked to the
    /// previous child.
    pub(super) fn links(&self, ctx: Option<Context>, parent: NodeId) -> bool {
        ctx.is_some() && self.last == ctx && self.parent == Some(parent) && !self.wrote
    }

    /// Whether a child call with context `ctx` starting now is linked to the frame's previous
    /// child call, whatever parent (the frame's call or an iteration) each hangs below: the
    /// link of a session that leaves loops out.
    pub(super) fn links_in_frame(&self, ctx: Option<Context>) -> bool {
        ctx.is_some() && self.last == ctx && !self.wrote
    }

    /// A child call starts below `parent`: until it ends there is no previous sibling to link
    /// to.
    pub(super) fn child_started(&mut self, parent: NodeId) {
        self.last = None;
        self.parent = Some(parent);
    }

    /// A child call ended, leaving its context (`None` for calls that link nothing).
    pub(super) fn child_ended(&mut self, ctx: Option<Context>) {
        self.last = ctx;
        self.wrote = false;
    }

    /// The frame's own code wrote a field, an array element or a static field.
    pub(super) fn heap_write(&mut self) {
        self.wrote = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_needs_the_same_context_and_no_heap_write_between() {
        let a = Some(Context::Object(ObjectId(7)));
        let b = Some(Context::Object(ObjectId(8)));
        let p = NodeId(4);
        let mut c = Cursor::default();
        assert!(!c.links(a, p), "no previous sibling");
        c.child_started(p);
        c.child_ended(a);
        assert!(c.links(a, p));
        assert!(
            !c.links(a, NodeId(5)),
            "below another parent (an iteration)"
        );
        assert!(!c.links(b, p), "another receiver");
        assert!(!c.links(None, p), "a constructor or an external call");
        c.heap_write();
        assert!(!c.links(a, p), "the parent wrote the heap in between");
        assert!(!c.links_in_frame(a));
        c.child_ended(None);
        assert!(!c.links(a, p), "an external call in between");
    }

    #[test]
    fn contexts_by_method_kind() {
        let o = [Value::Object(ObjectId(3)), Value::Int(1)];
        assert_eq!(
            Rule::Receiver.context(&o),
            Some(Context::Object(ObjectId(3)))
        );
        assert_eq!(
            Rule::Class(ClassId(2)).context(&[]),
            Some(Context::Class(ClassId(2)))
        );
        assert_eq!(Rule::None.context(&o), None);
        assert_eq!(Rule::Receiver.context(&[Value::Null]), None);
    }
}
