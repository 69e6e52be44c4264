//! Recording: the wire format the agent speaks (`wire`), the recorder that turns decoded frames
//! into execution nodes (`recorder`), and the SQLite trace file (`store`) with its reader; the
//! priority of a live recording's threads (`priority`).

pub mod priority;
pub mod recorder;
pub mod store;
pub mod synthetic;
pub mod wire;
