//! The peak resident memory of this process, as Linux reports it.

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
