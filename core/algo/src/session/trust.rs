//! Which methods start trusted. Names live in the trace, so the session receives a predicate
//! over method ids (built by the integrator from `--trust` patterns) or a set of ids.

use std::collections::HashSet;
use std::fmt;

use crate::glob::GlobSet;
use crate::ids::MethodId;

type Predicate = Box<dyn Fn(MethodId) -> bool + Send + Sync>;

/// Decides, once per method, whether its calls start trusted. External nodes (calls into
/// uninstrumented code) are trusted whatever the policy says. It also says whether the session
/// leaves loop and iteration nodes out (`--no-loops`).
#[derive(Default)]
pub struct TrustPolicy {
    predicate: Option<Predicate>,
    skip_loops: bool,
}

impl TrustPolicy {
    /// Only external nodes start trusted.
    pub fn none() -> Self {
        TrustPolicy::default()
    }

    /// Methods for which `f` returns true start trusted (e.g. names matching `java.*`).
    pub fn from_fn(f: impl Fn(MethodId) -> bool + Send + Sync + 'static) -> Self {
        TrustPolicy {
            predicate: Some(Box::new(f)),
            skip_loops: false,
        }
    }

    /// The same policy, and the session never asks about loops and iterations: it looks
    /// through them to the calls below, as through a trusted node, so questions and verdicts
    /// are those of the tree of calls alone.
    pub fn without_loops(mut self) -> Self {
        self.skip_loops = true;
        self
    }

    /// Whether loop and iteration nodes are left out of the session.
    pub fn skips_loops(&self) -> bool {
        self.skip_loops
    }

    /// Methods whose fully qualified name (`pkg.Class.method`, looked up by `name`) matches one
    /// of `patterns` (`--trust 'java.*,org.slf4j.*'`) start trusted.
    pub fn from_patterns(
        patterns: GlobSet,
        name: impl Fn(MethodId) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        Self::from_fn(move |m| name(m).is_some_and(|n| patterns.matches(&n)))
    }

    /// These methods start trusted.
    pub fn methods(ids: impl IntoIterator<Item = MethodId>) -> Self {
        let set: HashSet<MethodId> = ids.into_iter().collect();
        Self::from_fn(move |m| set.contains(&m))
    }

    pub fn trusts(&self, method: MethodId) -> bool {
        self.predicate.as_ref().is_some_and(|p| p(method))
    }
}

impl fmt::Debug for TrustPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.predicate.is_some() {
            "TrustPolicy(predicate)"
        } else {
            "TrustPolicy(none)"
        })?;
        if self.skip_loops {
            f.write_str(" without loops")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_trust_methods_by_qualified_name() {
        let names = [
            "java.util.List.add",
            "org.slf4j.Logger.info",
            "app.Main.main",
        ];
        let policy = TrustPolicy::from_patterns(GlobSet::parse("java.*,org.slf4j.*"), move |m| {
            names.get(m.0 as usize).map(|s| s.to_string())
        });
        assert!(policy.trusts(MethodId(0)));
        assert!(policy.trusts(MethodId(1)));
        assert!(!policy.trusts(MethodId(2)));
        assert!(!policy.trusts(MethodId(3)), "unknown names are not trusted");
        assert!(TrustPolicy::methods([MethodId(2)]).trusts(MethodId(2)));
        assert!(!TrustPolicy::none().trusts(MethodId(0)));
    }
}
