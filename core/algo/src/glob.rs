//! Method-name patterns: `*` matches any run of characters (dots included), everything else
//! matches itself. Used by trust patterns (`java.*,org.slf4j.*`) and answer rules.

/// A compiled pattern over fully qualified method names (`pkg.Class.method`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glob {
    text: String,
    parts: Vec<String>,
}

impl Glob {
    pub fn new(pattern: &str) -> Self {
        Glob {
            text: pattern.to_string(),
            parts: pattern.split('*').map(str::to_string).collect(),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the whole of `name` matches.
    pub fn matches(&self, name: &str) -> bool {
        let (first, rest) = match self.parts.split_first() {
            Some(x) => x,
            None => return name.is_empty(),
        };
        let Some(mut tail) = name.strip_prefix(first.as_str()) else {
            return false;
        };
        let Some((last, middle)) = rest.split_last() else {
            return tail.is_empty();
        };
        for part in middle {
            match tail.find(part.as_str()) {
                Some(i) => tail = &tail[i + part.len()..],
                None => return false,
            }
        }
        tail.len() >= last.len() && tail.ends_with(last.as_str())
    }
}

/// A comma-separated list of globs, as given to `--trust`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobSet(Vec<Glob>);

impl GlobSet {
    /// Parses `java.*,org.slf4j.*`; blanks around commas and empty items are ignored.
    pub fn parse(list: &str) -> Self {
        GlobSet(
            list.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(Glob::new)
                .collect(),
        )
    }

    pub fn matches(&self, name: &str) -> bool {
        self.0.iter().any(|g| g.matches(name))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_matches_any_run_including_dots() {
        let g = Glob::new("java.*");
        assert!(g.matches("java.util.ArrayList.add"));
        assert!(!g.matches("javax.swing.JFrame.show"));
        assert!(Glob::new("*.isEven").matches("SumNumbers.isEven"));
        assert!(!Glob::new("*.isEven").matches("SumNumbers.isEvenOrOdd"));
        assert!(Glob::new("a*b*c").matches("aXbYc"));
        assert!(!Glob::new("a*b*c").matches("aXcYb"));
        assert!(!Glob::new("ab*ba").matches("aba"));
        assert!(Glob::new("*").matches(""));
        assert!(Glob::new("Exact.name").matches("Exact.name"));
        assert!(!Glob::new("Exact.name").matches("Exact.names"));
    }

    #[test]
    fn set_parses_comma_list() {
        let s = GlobSet::parse(" java.*, org.slf4j.* ,,");
        assert!(s.matches("org.slf4j.Logger.info"));
        assert!(s.matches("java.lang.String.valueOf"));
        assert!(!s.matches("com.acme.Main.main"));
        assert!(GlobSet::parse("").is_empty());
    }
}
