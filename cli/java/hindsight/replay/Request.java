package hindsight.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One parsed request: the method to call and its entry state, still as tokens. */
final class Request {
    /** An object record ({@code OBJ}, {@code ARR}, {@code SEQ}, {@code MAP}, {@code TEXT}). */
    record Decl(String kind, int id, String type, List<Value> items, int line) {}

    /** A {@code FIELD} record. */
    record FieldInit(int id, String name, Value value, int line) {}

    /** The input line of the {@code CALL} record. */
    final int line;

    String owner;
    String name;
    String descriptor;
    final Map<Integer, Decl> decls = new LinkedHashMap<>();
    final List<FieldInit> fields = new ArrayList<>();
    /** The receiver, null when the request has no {@code THIS}. */
    Value self;

    int selfLine;
    /** The arguments, null until the {@code ARGS} record is read. */
    List<Value> args;

    int argsLine;

    Request(int line) {
        this.line = line;
    }
}
