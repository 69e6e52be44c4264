//! Build timestamps for OSGi qualifiers, without a date library.

use std::time::{SystemTime, UNIX_EPOCH};

/// `vYYYYMMDDhhmmss` in UTC, which sorts like the time it names.
pub fn qualifier_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    qualifier(secs)
}

/// The qualifier for `secs` seconds after the Unix epoch.
pub fn qualifier(secs: u64) -> String {
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!(
        "v{y:04}{m:02}{d:02}{:02}{:02}{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_known_instants() {
        assert_eq!(super::qualifier(0), "v19700101000000");
        // 2000-02-29 12:34:56 UTC (a leap day)
        assert_eq!(super::qualifier(951_827_696), "v20000229123456");
        // 2026-11-22 03:44:30 UTC
        assert_eq!(super::qualifier(1_795_319_070), "v20261122034430");
    }
}
