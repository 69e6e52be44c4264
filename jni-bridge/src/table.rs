//! The answers of the built-in queries and of SQL as one shape for the plugin's Queries view: a
//! table of text cells, and for each row where it leads (a call, an event, a source line).
//! Conversion only: the answers are the core's (`query::run_json`, `query::sql::run_json`), the
//! same JSON as `hindsight query --json` and `hindsight sql --json`.

use serde::Serialize;
use serde_json::{Map, Value};

/// Where a row leads: the call to select in the Computation Tree, the event to move the Node
/// view and the Event List to, the line to open.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Target {
    pub node: Option<u64>,
    pub event: Option<u64>,
    pub method: Option<String>,
    pub file: Option<String>,
    pub line: Option<u64>,
}

/// A query's answer as a table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct QueryTable {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// One per row.
    pub targets: Vec<Target>,
    /// The answer's own fields that are not rows (`total: 3`, `executed: true`...).
    pub summary: String,
    /// More rows exist than the table holds (the limit was reached).
    pub truncated: bool,
}

/// The arrays that hold an answer's rows, in order of preference (docs/cli.md's shapes).
const ROW_KEYS: &[&str] = &[
    "calls",
    "exceptions",
    "threads",
    "entries",
    "holders",
    "fields",
    "elements",
    "chain",
    "children",
    "nodes",
];

/// Columns shown first, in this order (serde_json's objects come with their keys sorted): what
/// the row is, then where it leads; the other columns follow in their own order.
const FIRST_COLUMNS: &[&str] = &[
    "node",
    "name",
    "method",
    "thread",
    "receiver",
    "args",
    "outcome",
    "result",
    "exception",
    "value",
    "count",
    "call_event",
    "exit_event",
    "timestamp",
    "file",
    "line",
    "site",
];

fn column_rank(column: &str) -> usize {
    FIRST_COLUMNS
        .iter()
        .position(|c| *c == column)
        .unwrap_or(FIRST_COLUMNS.len())
}

/// Event keys of a row, in order of preference: the moment the row is about.
const EVENT_KEYS: &[&str] = &[
    "call_event",
    "timestamp",
    "ts",
    "call_ts",
    "first",
    "first_ts",
    "event.timestamp",
    "thrown.timestamp",
    "write.timestamp",
    "written.timestamp",
    "start",
    "created_ts",
];

/// Node keys of a row, in order of preference: the call the row is about.
const NODE_KEYS: &[&str] = &[
    "node",
    "event.node",
    "environment.node",
    "thrown.node",
    "write.node",
    "written.node",
];

const FILE_KEYS: &[&str] = &[
    "file",
    "event.file",
    "thrown.file",
    "write.file",
    "written.file",
];
const LINE_KEYS: &[&str] = &[
    "line",
    "event.line",
    "thrown.line",
    "write.line",
    "written.line",
];
const METHOD_KEYS: &[&str] = &[
    "method",
    "environment.method",
    "write.method",
    "written.method",
];

/// A value as a cell: scalars as they read, a shown value as its text, a source line as
/// `file:line`, named values as `name=value, ...`, anything else as compact JSON.
fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Bool(_) | Value::Number(_) => v.to_string(),
        Value::Object(m) => {
            if let Some(value) = m.get("value").filter(|x| !x.is_object()) {
                return cell(value);
            }
            if m.len() <= 2 && m.contains_key("line") && m.contains_key("file") {
                return match (cell(&m["file"]), cell(&m["line"])) {
                    (f, l) if l.is_empty() => f,
                    (f, l) => format!("{f}:{l}"),
                };
            }
            v.to_string()
        }
        Value::Array(items) => {
            let named = items.iter().all(|i| {
                i.as_object()
                    .is_some_and(|o| o.contains_key("name") && o.contains_key("value"))
            });
            if named {
                items
                    .iter()
                    .map(|i| format!("{}={}", cell(&i["name"]), cell(&i["value"])))
                    .collect::<Vec<_>>()
                    .join(", ")
            } else {
                items.iter().map(cell).collect::<Vec<_>>().join(", ")
            }
        }
    }
}

/// Whether an object reads as one cell: a shown value, or a source line.
fn is_one_value(m: &Map<String, Value>) -> bool {
    let shown = m.get("value").is_some_and(|v| !v.is_object());
    let line = m.len() <= 2 && m.contains_key("file") && m.contains_key("line");
    shown || line
}

/// A row object as `(column, value)` pairs: nested objects that are not one value are spread
/// one level deep as `key.field`.
fn spread(row: &Map<String, Value>) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for (k, v) in row {
        match v {
            Value::Object(m) if !is_one_value(m) => {
                for (k2, v2) in m {
                    out.push((format!("{k}.{k2}"), v2.clone()));
                }
            }
            _ => out.push((k.clone(), v.clone())),
        }
    }
    out
}

fn first_u64(fields: &[(String, Value)], keys: &[&str]) -> Option<u64> {
    keys.iter().find_map(|k| {
        fields
            .iter()
            .find(|(c, _)| c == k)
            .and_then(|(_, v)| v.as_u64())
    })
}

fn first_str(fields: &[(String, Value)], keys: &[&str]) -> Option<String> {
    keys.iter().find_map(|k| {
        fields
            .iter()
            .find(|(c, _)| c == k)
            .and_then(|(_, v)| v.as_str())
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    })
}

/// Where a row leads, read from its (spread) fields.
fn target(fields: &[(String, Value)]) -> Target {
    let mut t = Target {
        node: first_u64(fields, NODE_KEYS),
        event: first_u64(fields, EVENT_KEYS),
        method: first_str(fields, METHOD_KEYS),
        file: first_str(fields, FILE_KEYS),
        line: first_u64(fields, LINE_KEYS),
    };
    // A line given as text (`executed`'s `FILE:LINE`).
    if t.line.is_none() {
        if let Some((file, line)) = first_str(fields, &["site", "where"])
            .as_deref()
            .and_then(|s| s.rsplit_once(':'))
            .and_then(|(f, l)| l.parse().ok().map(|l| (f.to_string(), l)))
        {
            t.file.get_or_insert(file);
            t.line = Some(line);
        }
    }
    t
}

/// Rows of objects into a table (columns in the order first seen).
fn objects_table(rows: &[Value], table: &mut QueryTable) {
    let spread_rows: Vec<Vec<(String, Value)>> = rows
        .iter()
        .map(|r| match r {
            Value::Object(m) => spread(m),
            other => vec![("value".to_string(), other.clone())],
        })
        .collect();
    for fields in &spread_rows {
        for (c, _) in fields {
            if !table.columns.contains(c) {
                table.columns.push(c.clone());
            }
        }
    }
    // Stable: the columns not named keep the order they came in.
    table.columns.sort_by_key(|c| column_rank(c));
    for fields in &spread_rows {
        let row = table
            .columns
            .iter()
            .map(|c| {
                fields
                    .iter()
                    .find(|(k, _)| k == c)
                    .map(|(_, v)| cell(v))
                    .unwrap_or_default()
            })
            .collect();
        table.rows.push(row);
        table.targets.push(target(fields));
    }
}

/// A built-in query's answer (`query::run_json`) as a table: the rows are its main list (the
/// calls, exceptions, threads, changes...), or the answer itself when it has none; its other
/// scalar fields make the summary.
pub fn from_answer(answer: &Value, limit: Option<usize>) -> QueryTable {
    let mut table = QueryTable::default();
    let Value::Object(m) = answer else {
        objects_table(std::slice::from_ref(answer), &mut table);
        return table;
    };
    let key = ROW_KEYS
        .iter()
        .copied()
        .find(|k| m.get(*k).is_some_and(Value::is_array))
        .map(str::to_string)
        .or_else(|| {
            m.iter()
                .filter(|(_, v)| v.as_array().is_some_and(|a| a.iter().any(Value::is_object)))
                .max_by_key(|(_, v)| v.as_array().map_or(0, Vec::len))
                .map(|(k, _)| k.clone())
        });
    let mut summary = Vec::new();
    for (k, v) in m {
        if Some(k) == key.as_ref() {
            continue;
        }
        match v {
            Value::Object(_) if key.is_none() => {}
            Value::Object(o) if o.contains_key("value") || o.contains_key("file") => {
                summary.push(format!("{k}: {}", cell(v)))
            }
            Value::Object(_) => {}
            Value::Array(a) if a.iter().any(Value::is_object) => {}
            _ => summary.push(format!("{k}: {}", cell(v))),
        }
    }
    table.summary = summary.join(", ");
    match key {
        Some(k) => {
            let rows = m[&k].as_array().map(Vec::as_slice).unwrap_or_default();
            objects_table(rows, &mut table);
            let total = ["total", "total_calls"]
                .iter()
                .find_map(|t| m.get(*t).and_then(Value::as_u64));
            table.truncated = total.is_some_and(|t| t > rows.len() as u64)
                || limit.is_some_and(|l| rows.len() >= l);
        }
        None => objects_table(std::slice::from_ref(answer), &mut table),
    }
    table
}

/// An SQL result (`query::sql::run_json`: `columns`, `rows`, `truncated`) as a table; rows lead
/// by their columns `node`, `ts`/`call_ts`, `method`, `file`, `line`.
pub fn from_sql(result: &Value) -> QueryTable {
    let columns: Vec<String> = result["columns"]
        .as_array()
        .map(|c| c.iter().map(cell).collect())
        .unwrap_or_default();
    let mut table = QueryTable {
        columns: columns.clone(),
        truncated: result["truncated"].as_bool().unwrap_or(false),
        ..QueryTable::default()
    };
    for row in result["rows"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let values = row.as_array().map(Vec::as_slice).unwrap_or_default();
        let fields: Vec<(String, Value)> = columns
            .iter()
            .cloned()
            .zip(values.iter().cloned())
            .collect();
        table.rows.push(values.iter().map(cell).collect());
        table.targets.push(target(&fields));
    }
    table.summary = format!(
        "{} row{}{}",
        table.rows.len(),
        if table.rows.len() == 1 { "" } else { "s" },
        if table.truncated {
            " (more not shown)"
        } else {
            ""
        }
    );
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn calls_become_rows_leading_to_their_node_and_call_event() {
        let answer = json!({"methods": ["M.merge"], "total": 1, "calls": [{
            "node": 5, "method": "M.merge", "file": "M.java", "line": 15, "call_event": 80,
            "site": {"file": "M.java", "line": 33}, "receiver": null,
            "args": [{"name": "a", "value": "[4, 1]", "object": 3}, {"name": "la", "value": "0"}],
            "result": {"value": "void"}}]});
        let t = from_answer(&answer, None);
        assert_eq!(t.rows.len(), 1);
        let col = |c: &str| t.columns.iter().position(|x| x == c).unwrap();
        assert_eq!(t.rows[0][col("args")], "a=[4, 1], la=0");
        assert_eq!(t.rows[0][col("site")], "M.java:33");
        assert_eq!(t.rows[0][col("result")], "void");
        assert_eq!(t.columns[..4], ["node", "method", "receiver", "args"]);
        assert_eq!(t.targets[0].node, Some(5));
        assert_eq!(t.targets[0].event, Some(80));
        assert_eq!(t.targets[0].line, Some(15));
        assert_eq!(t.summary, "methods: M.merge, total: 1");
        assert!(!t.truncated);
    }

    #[test]
    fn an_answer_without_a_list_is_one_row_with_nested_fields_spread() {
        let answer = json!({"event": {"timestamp": 7, "node": 3, "file": "A.java", "line": 4},
            "environment": {"node": 3, "method": "A.f"}});
        let t = from_answer(&answer, None);
        assert_eq!(t.rows.len(), 1);
        assert!(t.columns.contains(&"event.timestamp".to_string()));
        assert_eq!(t.targets[0].node, Some(3));
        assert_eq!(t.targets[0].event, Some(7));
        assert_eq!(t.targets[0].method.as_deref(), Some("A.f"));
    }

    #[test]
    fn sql_rows_lead_by_their_columns() {
        let result = json!({"columns": ["node", "method", "call_ts"], "rows": [[3, "M.sort", 11], [4, null, 22]],
            "truncated": true});
        let t = from_sql(&result);
        assert_eq!(t.rows, vec![vec!["3", "M.sort", "11"], vec!["4", "", "22"]]);
        assert_eq!(t.targets[0].node, Some(3));
        assert_eq!(t.targets[0].event, Some(11));
        assert_eq!(t.summary, "2 rows (more not shown)");
    }
}
