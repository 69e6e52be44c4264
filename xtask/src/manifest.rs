//! JAR manifests (`META-INF/MANIFEST.MF`): reading, editing the main section, writing with the
//! 72-byte line limit, and splitting OSGi header values into clauses.

use anyhow::{bail, Result};

/// A manifest: the main section's headers in order, and the per-entry sections kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manifest {
    headers: Vec<(String, String)>,
    entry_sections: Vec<u8>,
}

impl Manifest {
    /// A manifest with only `Manifest-Version: 1.0`.
    pub fn new() -> Self {
        Manifest {
            headers: vec![("Manifest-Version".into(), "1.0".into())],
            entry_sections: Vec::new(),
        }
    }

    /// Parses manifest bytes; continuation lines (starting with a space) are joined as bytes before
    /// decoding, as the JDK does, so a multi-byte character split over two lines survives.
    pub fn parse(bytes: &[u8]) -> Result<Self> {
        let text = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        let mut lines: Vec<Vec<u8>> = Vec::new();
        let mut rest = text;
        let mut entry_sections = Vec::new();
        while !rest.is_empty() {
            let (line, next) = split_line(rest);
            if line.is_empty() {
                entry_sections = next.to_vec();
                break;
            }
            if let Some(cont) = line.strip_prefix(b" ") {
                match lines.last_mut() {
                    Some(last) => last.extend_from_slice(cont),
                    None => bail!("manifest starts with a continuation line"),
                }
            } else {
                lines.push(line.to_vec());
            }
            rest = next;
        }
        let mut headers = Vec::with_capacity(lines.len());
        for line in lines {
            let line = String::from_utf8(line)
                .map_err(|e| anyhow::anyhow!("manifest header is not UTF-8: {e}"))?;
            let Some((name, value)) = line.split_once(':') else {
                bail!("manifest line without ':': {line:?}");
            };
            let value = value.strip_prefix(' ').unwrap_or(value);
            headers.push((name.to_string(), value.to_string()));
        }
        Ok(Manifest {
            headers,
            entry_sections,
        })
    }

    /// The value of a main-section header (names compare case-insensitively, as in the JDK).
    pub fn get(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a header, replacing it in place if present, appending it otherwise.
    pub fn set(&mut self, name: &str, value: &str) {
        match self
            .headers
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(h) => h.1 = value.to_string(),
            None => self.headers.push((name.to_string(), value.to_string())),
        }
    }

    /// The bundle symbolic name without its directives (`singleton:=true`).
    pub fn symbolic_name(&self) -> Option<&str> {
        self.get("Bundle-SymbolicName")
            .map(|v| v.split(';').next().unwrap_or("").trim())
            .filter(|s| !s.is_empty())
    }

    /// Serialises with CRLF line ends and lines of at most 72 bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, value) in &self.headers {
            let line = format!("{name}: {value}");
            let mut bytes = line.as_bytes();
            let mut first = true;
            while !bytes.is_empty() || first {
                let room = if first { 72 } else { 71 };
                let (chunk, rest) = bytes.split_at(room.min(bytes.len()));
                if !first {
                    out.push(b' ');
                }
                out.extend_from_slice(chunk);
                out.extend_from_slice(b"\r\n");
                bytes = rest;
                first = false;
            }
        }
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&self.entry_sections);
        out
    }
}

impl Default for Manifest {
    fn default() -> Self {
        Self::new()
    }
}

fn split_line(text: &[u8]) -> (&[u8], &[u8]) {
    match text.iter().position(|&b| b == b'\n' || b == b'\r') {
        Some(i) => {
            let skip = if text[i] == b'\r' && text.get(i + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
            (&text[..i], &text[i + skip..])
        }
        None => (text, &[]),
    }
}

/// One clause of an OSGi header: its names (packages or bundles) and its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clause {
    pub names: Vec<String>,
    /// `key=value` attributes and `key:=value` directives, as `(key, value)`; directives keep
    /// their `:` in the key (`resolution:`).
    pub params: Vec<(String, String)>,
}

impl Clause {
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// True for `resolution:=optional`.
    pub fn is_optional(&self) -> bool {
        self.param("resolution:") == Some("optional")
    }
}

/// The clauses of a header value as written, split at commas outside quotes.
pub fn raw_clauses(value: &str) -> Vec<String> {
    split_outside_quotes(value, ',')
        .into_iter()
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect()
}

/// Splits a header value into clauses at commas outside quotes.
pub fn clauses(value: &str) -> Vec<Clause> {
    raw_clauses(value)
        .into_iter()
        .map(|c| {
            let mut names = Vec::new();
            let mut params = Vec::new();
            for part in split_outside_quotes(&c, ';') {
                let part = part.trim();
                match part.split_once('=') {
                    Some((k, v)) => params.push((k.trim().to_string(), unquote(v.trim()))),
                    None if !part.is_empty() => names.push(part.to_string()),
                    None => {}
                }
            }
            Clause { names, params }
        })
        .collect()
}

fn unquote(v: &str) -> String {
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(v)
        .to_string()
}

fn split_outside_quotes(value: &str, sep: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in value.chars() {
        if c == '"' {
            quoted = !quoted;
        }
        if c == sep && !quoted {
            parts.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    parts.push(current);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_continuations_and_round_trips() {
        let text = b"Manifest-Version: 1.0\r\nBundle-SymbolicName: org.example.a;singleton:=tr\r\n ue\r\nImport-Package: a.b;version=\"[1.\r\n 0,2)\",c.d\r\n\r\nName: x/y.class\r\nSHA-256-Digest: abc\r\n\r\n";
        let m = Manifest::parse(text).unwrap();
        assert_eq!(m.symbolic_name(), Some("org.example.a"));
        assert_eq!(m.get("import-package"), Some("a.b;version=\"[1.0,2)\",c.d"));
        let again = Manifest::parse(&m.to_bytes()).unwrap();
        assert_eq!(again, m);
        assert!(m
            .to_bytes()
            .ends_with(b"Name: x/y.class\r\nSHA-256-Digest: abc\r\n\r\n"));
    }

    #[test]
    fn writes_lines_of_at_most_72_bytes() {
        let mut m = Manifest::new();
        let long = "p".repeat(300);
        m.set("Export-Package", &long);
        let bytes = m.to_bytes();
        for line in bytes.split(|&b| b == b'\n') {
            assert!(line.len() <= 73, "line of {} bytes", line.len());
        }
        assert_eq!(
            Manifest::parse(&bytes).unwrap().get("Export-Package"),
            Some(long.as_str())
        );
    }

    #[test]
    fn set_replaces_in_place() {
        let mut m =
            Manifest::parse(b"Manifest-Version: 1.0\nBundle-Version: 3.114.100\nX: y\n").unwrap();
        m.set("Bundle-Version", "3.122.0");
        assert_eq!(
            String::from_utf8(m.to_bytes()).unwrap(),
            "Manifest-Version: 1.0\r\nBundle-Version: 3.122.0\r\nX: y\r\n\r\n"
        );
    }

    #[test]
    fn splits_clauses_outside_quotes() {
        let c = clauses(
            "a.b;version=\"[1.0,2)\";resolution:=optional, c.d;e.f , org.x;bundle-version=\"1.2\"",
        );
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].names, vec!["a.b"]);
        assert_eq!(c[0].param("version"), Some("[1.0,2)"));
        assert!(c[0].is_optional());
        assert_eq!(c[1].names, vec!["c.d", "e.f"]);
        assert!(!c[1].is_optional());
        assert_eq!(c[2].param("bundle-version"), Some("1.2"));
    }

    #[test]
    fn rejects_garbage() {
        assert!(Manifest::parse(b" leading continuation\n").is_err());
        assert!(Manifest::parse(b"no colon here\n").is_err());
    }
}
