//! Which methods start trusted. Names live in the trace, so the session receives a predicate
//! over method ids (built by the integrator from `--trust` patterns) or a set of ids.

use std::collections::HashSet;
use std::fmt;

use crate::ids::MethodId;

type Predicate = Box<dyn Fn(MethodId) -> bool + Send + Sync>;

/// Decides, once per method, whether its calls start trusted. External nodes (calls into
/// uninstrumented code) are trusted whatever the policy says.
#[derive(Default)]
pub struct TrustPolicy {
    predicate: Option<Predicate>,
}

impl TrustPolicy {
    /// Only external nodes start trusted.
    pub fn none() -> Self {
        TrustPolicy { predicate: None }
    }

    /// Methods for which `f` returns true start trusted (e.g. names matching `java.*`).
    pub fn from_fn(f: impl Fn(MethodId) -> bool + Send + Sync + 'static) -> Self {
        TrustPolicy {
            predicate: Some(Box::new(f)),
        }
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
        })
    }
}
