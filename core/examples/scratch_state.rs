use hindsight_core::debugger::TraceRun;
use hindsight_core::ids::NodeId;
use hindsight_core::omniscient::canonical_state;
use hindsight_core::oracle::RecordedRun;
use hindsight_core::oracle::reference::Outcome;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let run = TraceRun::open(std::path::Path::new(&a[1])).unwrap();
    for n in a[2..].iter() {
        let node = NodeId(n.parse().unwrap());
        let call = run.call(node).unwrap();
        println!("node {n}: {:?} statics {:?}", call.method, call.statics);
        let roots: Vec<_> = call.this.iter().copied().chain(call.args.iter().copied()).collect();
        let at = call.entry.saturating_sub(1);
        println!(" entry {:?}", canonical_state(&run, &roots, at, 100000).unwrap());
        let at = call.exit.unwrap();
        let mut roots = roots.clone();
        if let Some(Outcome::Returned(v)) = call.outcome { roots.push(v) }
        println!(" exit {:?}", canonical_state(&run, &roots, at, 100000).unwrap());
        println!(" output {:?}", call.output);
    }
}
