package hindsight.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads requests, one at a time, through their {@code END} line. A malformed request is still
 * read through its {@code END}, so the next request starts cleanly.
 */
final class RequestReader {
    private final BufferedReader in;
    private int lineNo;

    RequestReader(BufferedReader in) {
        this.in = in;
    }

    /** The next request, or null at the end of the input. */
    Request next() throws IOException, Failure {
        String line;
        do {
            line = read();
            if (line == null) {
                return null;
            }
        } while (line.isEmpty());
        Request req = new Request(lineNo);
        Failure first = null;
        if (line.equals("END")) {
            throw Failure.at(lineNo, "END without a request");
        }
        String[] t = line.split(" ", -1);
        if (t.length != 4 || !t[0].equals("CALL") || t[1].isEmpty() || t[2].isEmpty() || t[3].isEmpty()) {
            first = Failure.at(lineNo,
                    "expected 'CALL CLASS NAME DESCRIPTOR', got '" + Tokens.abbreviate(line) + "'");
        } else {
            req.owner = t[1];
            req.name = t[2];
            req.descriptor = t[3];
        }
        while (true) {
            line = read();
            if (line == null) {
                throw first != null ? first : Failure.at(lineNo,
                        "the input ends inside the request begun at line " + req.line + " (no END)");
            }
            if (line.equals("END")) {
                break;
            }
            if (first == null) {
                try {
                    record(req, line.split(" ", -1));
                } catch (Failure f) {
                    first = Failure.at(lineNo, f.getMessage());
                }
            }
        }
        if (first != null) {
            throw first;
        }
        if (req.args == null) {
            throw Failure.at(lineNo, "the request begun at line " + req.line + " has no ARGS record");
        }
        return req;
    }

    private String read() throws IOException {
        String line = in.readLine();
        if (line != null) {
            lineNo++;
            if (line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
        }
        return line;
    }

    private void record(Request req, String[] t) throws Failure {
        switch (t[0]) {
            case "OBJ":
                arity(t, 3);
                declare(req, new Request.Decl("OBJ", id(t[1]), type(t[2]), List.of(), lineNo));
                break;
            case "ARR":
            case "SEQ":
            case "MAP":
                if (t.length < 4) {
                    throw new Failure(t[0] + " needs a number, a class and a length");
                }
                List<Value> items = values(t, 3);
                if (t[0].equals("MAP") && items.size() % 2 != 0) {
                    throw new Failure("MAP length " + items.size() + " is odd: it counts keys and values");
                }
                declare(req, new Request.Decl(t[0], id(t[1]), type(t[2]), items, lineNo));
                break;
            case "TEXT":
                arity(t, 4);
                Value text = value(t[3]);
                if (text.kind() != Value.Kind.STRING) {
                    throw new Failure("TEXT needs a T token, got '" + t[3] + "'");
                }
                declare(req, new Request.Decl("TEXT", id(t[1]), type(t[2]), List.of(text), lineNo));
                break;
            case "FIELD":
                arity(t, 4);
                if (t[2].isEmpty()) {
                    throw new Failure("FIELD without a name");
                }
                req.fields.add(new Request.FieldInit(id(t[1]), t[2], value(t[3]), lineNo));
                break;
            case "OPAQUE":
                arity(t, 3);
                throw new Failure("object " + t[1] + " is OPAQUE (" + t[2]
                        + "): its content is unknown, it cannot be rebuilt");
            case "THIS":
                arity(t, 2);
                if (req.self != null) {
                    throw new Failure("a second THIS record");
                }
                req.self = value(t[1]);
                req.selfLine = lineNo;
                break;
            case "ARGS":
                if (t.length < 2) {
                    throw new Failure("ARGS needs a count");
                }
                if (req.args != null) {
                    throw new Failure("a second ARGS record");
                }
                req.args = values(t, 1);
                req.argsLine = lineNo;
                break;
            default:
                throw new Failure("unknown record '" + Tokens.abbreviate(t[0]) + "'");
        }
    }

    private static void declare(Request req, Request.Decl d) throws Failure {
        if (req.decls.putIfAbsent(d.id(), d) != null) {
            throw new Failure("object " + d.id() + " is declared twice (first at line "
                    + req.decls.get(d.id()).line() + ")");
        }
    }

    private static void arity(String[] t, int n) throws Failure {
        if (t.length != n) {
            throw new Failure(t[0] + " takes " + (n - 1) + " fields, got " + (t.length - 1));
        }
    }

    private static int id(String s) throws Failure {
        return Tokens.number(s, s);
    }

    private static String type(String s) throws Failure {
        if (s.isEmpty()) {
            throw new Failure("empty class name");
        }
        return s;
    }

    private static Value value(String token) throws Failure {
        Value v = Tokens.parse(token);
        if (v.kind() == Value.Kind.VOID) {
            throw new Failure("V (void) is not a value of the entry state");
        }
        return v;
    }

    /** The values after the count at {@code t[countAt]}, checking the count. */
    private static List<Value> values(String[] t, int countAt) throws Failure {
        int count = Tokens.number(t[countAt], t[countAt]);
        if (t.length - countAt - 1 != count) {
            throw new Failure(t[0] + " announces " + count + " values but has " + (t.length - countAt - 1));
        }
        List<Value> out = new ArrayList<>(count);
        for (String token : Arrays.asList(t).subList(countAt + 1, t.length)) {
            out.add(value(token));
        }
        return out;
    }
}
