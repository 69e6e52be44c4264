//! The logic cache of the VET paper: rendered questions, evicted oldest first beyond a bound.

use std::collections::{HashMap, VecDeque};

use super::Question;
use crate::ids::NodeId;

pub(super) struct QuestionCache {
    bound: usize,
    map: HashMap<NodeId, Question>,
    order: VecDeque<NodeId>,
}

impl QuestionCache {
    pub(super) fn new(bound: usize) -> Self {
        QuestionCache {
            bound,
            map: HashMap::new(),
            order: VecDeque::new(),
        }
    }

    pub(super) fn get(&self, node: NodeId) -> Option<&Question> {
        self.map.get(&node)
    }

    pub(super) fn insert(&mut self, q: Question) {
        if self.bound == 0 {
            return;
        }
        while self.map.len() >= self.bound {
            match self.order.pop_front() {
                Some(old) => {
                    self.map.remove(&old);
                }
                None => break,
            }
        }
        self.order.push_back(q.node);
        self.map.insert(q.node, q);
    }
}
