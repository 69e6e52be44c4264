package hindsight.instrument;

import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The runtime's entry points that instrumented code calls: the methods of
 * {@code hindsight.runtime.Buf} (on the thread's buffer, kept in a local) and of
 * {@code hindsight.runtime.R}. The only place that names them; {@link Code#call} emits a call.
 */
enum EntryPoint {
    // R: fetches the buffer once per call; notes System.exit's status.
    ENTER(Kind.R, "enter", "()" + EntryPoint.BUF_DESC),
    NOTE_EXIT(Kind.R, "noteExit", "(I)V"),

    // Events on the buffer; those with one value are Valued (below). CALL and EXT_CALL are
    // followed by their values as V_* calls.
    CALL("call", "(II)V"),
    RET_VOID("retVoid", "()V"),
    EXT_CALL("extCall", "(II)V"),
    EXT_RET_VOID("extRetV", "()V"),
    LINE("line", "(I)V"),
    BLOCK("block", "(I)V"),
    FIELD_READ("fieldRead", "(Ljava/lang/Object;I)V"),
    ARRAY_READ("arrayRead", "(Ljava/lang/Object;I)V"),
    STATIC_READ("staticRead", "(I)V"),
    FIELD_WRITE_UNINIT("fieldWriteUninit", "(I)V"),
    ARRAY_WRITE_B("arrayWriteB", "(Ljava/lang/Object;II)V"),
    ARRAY_RANGE("arrayRange", "(Ljava/lang/Object;II)V"),
    FIELDS_WRITTEN("fieldsWritten", "(Ljava/lang/Object;I)V"),
    FIELD_SET("fieldSet", "(Ljava/lang/Object;Ljava/lang/Object;)V"),
    SUPER_CALL("superCall", "(Z)V"),
    THIS_INIT("thisInit", "(Ljava/lang/Object;)V"),
    SEEN("seen", "(Ljava/lang/Object;)V"),
    PARK("park", "()V"),
    CONTENT("content", "(Ljava/lang/Object;Z)V"),
    ADDED("added", "(Ljava/lang/Object;I)V"),

    // Values of the current event.
    V_BOOLEAN("vZ", "(I)V"),
    V_CHAR("vC", "(I)V"),
    V_BYTE("vB", "(I)V"),
    V_SHORT("vS", "(I)V"),
    V_INT("vI", "(I)V"),
    V_LONG("vJ", "(J)V"),
    V_FLOAT("vF", "(F)V"),
    V_DOUBLE("vD", "(D)V"),
    V_OBJECT("vA", "(Ljava/lang/Object;)V"),
    /** An EXT_CALL value kept for the CONTENT after an EXT_UNWIND, and whether the call may change it. */
    V_OBJECT_KEPT("vAk", "(Ljava/lang/Object;Z)V"),

    // Events whose value is on the operand stack: static, value first, buffer last.
    S_UNWIND(Kind.STATIC, "sUnwind", "(Ljava/lang/Throwable;" + EntryPoint.BUF_DESC + ")V"),
    S_THROW(Kind.STATIC, "sThrow", "(Ljava/lang/Throwable;" + EntryPoint.BUF_DESC + ")V"),
    S_CATCH(Kind.STATIC, "sCatch", "(Ljava/lang/Throwable;" + EntryPoint.BUF_DESC + ")V"),
    S_NEW_ARRAY(Kind.STATIC, "sNewArray", "(Ljava/lang/Object;" + EntryPoint.BUF_DESC + ")V"),
    S_EXT_NEW(Kind.STATIC, "sExtNew", "(Ljava/lang/Object;" + EntryPoint.BUF_DESC + ")V"),
    S_CONTENT(Kind.STATIC, "sContent", "(Ljava/lang/Object;" + EntryPoint.BUF_DESC + ")V");

    static final String BUF = "hindsight/runtime/Buf";
    static final String BUF_DESC = "L" + BUF + ";";
    private static final String R_CLASS = "hindsight/runtime/R";

    private enum Kind { VIRTUAL, STATIC, R }

    final String owner;
    final int opcode;
    final String name;
    final String desc;

    EntryPoint(String name, String desc) {
        this(Kind.VIRTUAL, name, desc);
    }

    EntryPoint(Kind kind, String name, String desc) {
        this.owner = kind == Kind.R ? R_CLASS : BUF;
        this.opcode = kind == Kind.VIRTUAL ? Opcodes.INVOKEVIRTUAL : Opcodes.INVOKESTATIC;
        this.name = name;
        this.desc = desc;
    }

    /**
     * The events with one value: one entry point per value type, named by the event and the
     * type's letter (Z, C, B, S, I, J, F, D; A for a reference), the value last:
     * {@code localI(var, v)}, {@code fieldWriteA(o, field, v)}, {@code retJ(v)}, ... One call
     * per event, where a header and a value call made twice the calls to compile and run.
     */
    enum Valued {
        LOCAL("local", "I"),
        FIELD_WRITE("fieldWrite", "Ljava/lang/Object;I"),
        STATIC_WRITE("staticWrite", "I"),
        /** Not for a bastore, whose array decides between byte and boolean (ARRAY_WRITE_B). */
        ARRAY_WRITE("arrayWrite", "Ljava/lang/Object;I"),
        /** RETURN and the end of the call (RET_VOID for a void method). */
        RET("ret", ""),
        /** EXT_RETURN (EXT_RET_VOID for a void method). */
        EXT_RET("extRet", "");

        private final String prefix;
        private final String params;

        Valued(String prefix, String params) {
            this.prefix = prefix;
            this.params = params;
        }

        String name(Type t) {
            String letters = "ZCBSIFJD"; // by sort, BOOLEAN to DOUBLE
            int sort = t.getSort();
            return prefix + (sort >= Type.BOOLEAN && sort <= Type.DOUBLE
                    ? letters.charAt(sort - Type.BOOLEAN) : 'A');
        }

        String desc(Type t) {
            int sort = t.getSort();
            String param = sort == Type.LONG ? "J" : sort == Type.FLOAT ? "F"
                    : sort == Type.DOUBLE ? "D" : sort >= Type.BOOLEAN && sort <= Type.INT ? "I"
                    : "Ljava/lang/Object;";
            return "(" + params + param + ")V";
        }
    }

    /** The value method for a value of type t (sub-int types have their own tags). */
    static EntryPoint value(Type t) {
        switch (t.getSort()) {
            case Type.BOOLEAN: return V_BOOLEAN;
            case Type.CHAR: return V_CHAR;
            case Type.BYTE: return V_BYTE;
            case Type.SHORT: return V_SHORT;
            case Type.INT: return V_INT;
            case Type.LONG: return V_LONG;
            case Type.FLOAT: return V_FLOAT;
            case Type.DOUBLE: return V_DOUBLE;
            default: return V_OBJECT;
        }
    }
}
