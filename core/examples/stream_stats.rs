use hindsight_core::trace::wire::{Decoder, EventKind, Frame};
fn main() {
    let f = std::env::args().nth(1).unwrap();
    let d = Decoder::new(std::io::BufReader::new(std::fs::File::open(f).unwrap())).unwrap();
    let mut kinds = std::collections::BTreeMap::<&str, u64>::new();
    let (mut frames, mut evframes, mut events, mut args, mut payload) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut threads = std::collections::BTreeSet::new();
    let mut strbytes = 0u64;
    for fr in d {
        let fr = fr.unwrap();
        frames += 1;
        if let Frame::Events {
            thread,
            events: evs,
            ..
        } = fr
        {
            evframes += 1;
            threads.insert(thread);
            for e in &evs {
                events += 1;
                *kinds.entry(e.kind.name()).or_default() += 1;
                if let EventKind::Call { args: a, .. } | EventKind::ExtCall { args: a, .. } =
                    &e.kind
                {
                    args += a.len() as u64;
                }
                if let EventKind::String { text, .. } = &e.kind {
                    strbytes += text.len() as u64;
                }
                if let EventKind::Content { values, .. } = &e.kind {
                    payload += values.len() as u64;
                }
            }
        }
    }
    println!("frames {frames} event frames {evframes} events {events} threads {} call args {args} content values {payload} string bytes {strbytes}", threads.len());
    for (k, n) in kinds {
        println!("{k:20} {n:>12} {:5.1}%", 100.0 * n as f64 / events as f64);
    }
}
