//! The peak resident memory and the CPU time of this process (or thread), as Linux reports
//! them.

/// CPU time of this process so far (user and system, all threads) in milliseconds, from
/// `/proc/self/stat` (clock ticks of 10 ms). `None` where `/proc` does not tell.
pub fn cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    parse_cpu_ms(&stat)
}

/// CPU time of the calling thread so far, in milliseconds, from `/proc/thread-self/stat`: what
/// one thread of a pipeline costs apart from the others.
pub fn thread_cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    parse_cpu_ms(&stat)
}

fn parse_cpu_ms(stat: &str) -> Option<u64> {
    // The fields after the command, which may hold spaces, in parentheses.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let f: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(ticks * 10)
}

/// `VmHWM` of `/proc/self/status` in bytes: the most resident memory this process has used.
/// `None` where `/proc` does not tell (not Linux).
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_vm_hwm(&status)
}

fn parse_vm_hwm(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let mut parts = line["VmHWM:".len()..].split_whitespace();
    let value: u64 = parts.next()?.parse().ok()?;
    match parts.next() {
        Some("kB") | None => Some(value * 1024),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_is_read_from_the_stat_line() {
        // utime 250 and stime 30 ticks; the command holds a space and a parenthesis.
        let line = "4242 (java (x) y) S 1 2 3 4 5 6 7 8 9 10 250 30 0 0 20 0 1 0";
        assert_eq!(parse_cpu_ms(line), Some(2800));
        assert_eq!(parse_cpu_ms("garbage"), None);
        assert!(cpu_ms().is_some());
        assert!(thread_cpu_ms().unwrap() <= cpu_ms().unwrap());
    }

    use super::*;

    #[test]
    fn vm_hwm_is_read_in_bytes() {
        let status =
            "Name:\thindsight\nVmPeak:\t  20000 kB\nVmHWM:\t    1234 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(parse_vm_hwm(status), Some(1234 * 1024));
        assert_eq!(parse_vm_hwm("Name: x\n"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_a_peak() {
        let peak = peak_rss_bytes().unwrap();
        assert!(peak > 0);
    }
}
