package hindsight.runtime;

import java.util.HashMap;
import java.util.Map;

/**
 * Ids and definitions of classes, methods, fields and threads. The instrumenter (in its own class
 * loader) calls the public methods while it transforms a class; the runtime calls the rest.
 * A definition is queued when its id is assigned, in id order, under this class's lock.
 */
public final class Defs {
    public static final int CLASS_INSTRUMENTED = 1, CLASS_INTERFACE = 2, CLASS_ENUM = 4,
            CLASS_RECORD = 8;

    /**
     * A class definition is serialised only when it is written, so that a class first named by a
     * call site or field reference and instrumented later is sent with its final flags.
     */
    static final class ClassDef {
        final int id;
        final String name;
        volatile String sourceFile = "";
        volatile int flags;

        ClassDef(int id, String name, int flags) {
            this.id = id;
            this.name = name;
            this.flags = flags;
        }

        byte[] frame() {
            Bytes b = new Bytes(64);
            b.varint(id);
            b.str(name);
            b.str(sourceFile);
            b.u8(flags);
            return Out.frame(Out.CLASS, b);
        }
    }

    private static final Map<String, ClassDef> CLASSES = new HashMap<>();
    private static final Map<String, Integer> EXT_METHODS = new HashMap<>();
    private static final Map<String, Integer> FIELDS = new HashMap<>();
    private static int methods;
    private static int threads;

    private static final ClassValue<Integer> RUNTIME_CLASS_IDS = new ClassValue<>() {
        @Override
        protected Integer computeValue(Class<?> c) {
            int flags = (c.isInterface() ? CLASS_INTERFACE : 0) | (isEnum(c) ? CLASS_ENUM : 0)
                    | (c.isRecord() ? CLASS_RECORD : 0);
            return runtimeClass(stableName(c), flags);
        }
    };

    /**
     * A class's name as the trace gives it: a hidden class's without what changes from one run
     * of the program to the next, its address ({@code /0x...}) and a lambda's number ({@code
     * Main$$Lambda$26} is {@code Main$$Lambda}), so that two runs compare equal.
     */
    static String stableName(Class<?> c) {
        String name = c.getTypeName();
        if (!c.isHidden()) {
            return name;
        }
        int slash = name.indexOf('/');
        if (slash >= 0) {
            name = name.substring(0, slash);
        }
        int lambda = name.indexOf("$$Lambda");
        return lambda >= 0 ? name.substring(0, lambda + "$$Lambda".length()) : name;
    }

    private Defs() {}

    /** An enum class or the class of an enum constant's body (ACC_ENUM, as the instrumenter reads it). */
    private static boolean isEnum(Class<?> c) {
        return (c.getModifiers() & 0x4000) != 0;
    }

    /** The id of a runtime class (the class of a value). */
    static int classOf(Class<?> c) {
        return RUNTIME_CLASS_IDS.get(c);
    }

    private static synchronized int classId(String dotted, int flags, boolean definitive) {
        ClassDef d = CLASSES.get(dotted);
        if (d == null) {
            d = new ClassDef(CLASSES.size() + 1, dotted, flags);
            CLASSES.put(dotted, d);
            Out.PENDING.add(d);
        } else if (definitive) {
            d.flags = flags;
        }
        return d.id;
    }

    /**
     * The id of the class of a value. Its flags are known now: a class named earlier by bytecode
     * (a field type, a call site) and defined with flags 0 is defined again with them, unless
     * it is instrumented (its definition is already final).
     */
    private static synchronized int runtimeClass(String dotted, int flags) {
        ClassDef d = CLASSES.get(dotted);
        if (d != null && (d.flags & CLASS_INSTRUMENTED) == 0 && d.flags != flags) {
            d.flags = flags;
            Out.PENDING.add(d);
        }
        return classId(dotted, flags, false);
    }

    /** Whether the agent instrumented the class {@code dotted} (a binary name). */
    static synchronized boolean isInstrumented(String dotted) {
        ClassDef d = CLASSES.get(dotted);
        return d != null && (d.flags & CLASS_INSTRUMENTED) != 0;
    }

    /** Defines an instrumented class (internal name) and returns its id. */
    public static synchronized int instrumentedClass(String internalName, String sourceFile,
            int flags) {
        String dotted = internalName.replace('/', '.');
        boolean named = CLASSES.containsKey(dotted);
        int id = classId(dotted, flags | CLASS_INSTRUMENTED, true);
        ClassDef d = CLASSES.get(dotted);
        d.sourceFile = sourceFile == null ? "" : sourceFile;
        if (named) {
            // Named earlier (a field type, a call site), its definition may already have been
            // written with flags 0: write it again with the final flags; the recorder keeps the
            // last definition of an id. (Whether it was already written depends on when the
            // event buffers were flushed, so without this the trace would vary run to run.)
            Out.PENDING.add(d);
        }
        return id;
    }

    /** The id of a class named by bytecode (internal name or array descriptor). */
    public static int namedClass(String internalName) {
        String dotted = internalName.startsWith("[")
                ? typeName(internalName) : internalName.replace('/', '.');
        return classId(dotted, 0, false);
    }

    /** Defines an instrumented method; vars are {slot, name, descriptor} triples. */
    public static synchronized int instrumentedMethod(int classId, String name, String desc,
            int access, byte[] hash, int firstLine, int lastLine, int[] varSlots,
            String[] varNames, String[] varDescs, int[] blockStarts, int[] blockLines,
            int[] blockEffectCounts, int[] effectKinds, int[] effectTargets,
            int[][] successors) {
        int id = ++methods;
        Bytes b = new Bytes(128);
        b.varint(id);
        b.varint(classId);
        b.str(name);
        b.str(desc);
        b.varint(access);
        b.u8(1);
        b.raw(hash, 0, 16);
        b.varint(firstLine);
        b.varint(lastLine);
        b.varint(varSlots.length);
        for (int i = 0; i < varSlots.length; i++) {
            b.varint(varSlots[i]);
            b.str(varNames[i]);
            b.str(varDescs[i]);
        }
        b.varint(blockStarts.length);
        int e = 0;
        for (int i = 0; i < blockStarts.length; i++) {
            b.varint(blockStarts[i]);
            b.varint(blockLines[i]);
            b.varint(blockEffectCounts[i]);
            for (int k = 0; k < blockEffectCounts[i]; k++, e++) {
                b.u8(effectKinds[e]);
                b.varint(effectTargets[e]);
            }
        }
        // Wire format 3: the successor table, one list per block.
        for (int[] succ : successors) {
            b.varint(succ.length);
            for (int s : succ) {
                b.varint(s);
            }
        }
        Out.PENDING.add(Out.frame(Out.METHOD, b));
        return id;
    }

    /** The id of a method of uninstrumented code named by a call site. */
    public static synchronized int externalMethod(String owner, String name, String desc,
            boolean isStatic, boolean isInterface) {
        String key = owner + '.' + name + desc;
        Integer known = EXT_METHODS.get(key);
        if (known != null) {
            return known;
        }
        int cls = namedClass(owner);
        if (isInterface) {
            CLASSES.get(owner.replace('/', '.')).flags |= CLASS_INTERFACE;
        }
        int id = ++methods;
        Bytes b = new Bytes(96);
        b.varint(id);
        b.varint(cls);
        b.str(name);
        b.str(desc);
        b.varint(isStatic ? 0x0008 : 0);
        b.u8(0);
        b.raw(new byte[16], 0, 16);
        b.varint(0);
        b.varint(0);
        b.varint(0);
        b.varint(0); // nblocks
        Out.PENDING.add(Out.frame(Out.METHOD, b));
        EXT_METHODS.put(key, id);
        return id;
    }

    /** The id of a field named by a field instruction. */
    public static synchronized int field(String owner, String name, String desc, boolean isStatic) {
        String key = owner + '.' + name + ':' + desc;
        Integer known = FIELDS.get(key);
        if (known != null) {
            return known;
        }
        int cls = namedClass(owner);
        int id = FIELDS.size() + 1;
        Bytes b = new Bytes(64);
        b.varint(id);
        b.varint(cls);
        b.str(name);
        b.str(desc);
        b.u8(isStatic ? 1 : 0);
        Out.PENDING.add(Out.frame(Out.FIELD, b));
        FIELDS.put(key, id);
        return id;
    }

    static synchronized int thread(Thread t) {
        int id = ++threads;
        Bytes b = new Bytes(64);
        b.varint(id);
        b.varint(t.getId());
        b.str(t.getName());
        Out.PENDING.add(Out.frame(Out.THREAD, b));
        return id;
    }

    /** A WARNING frame, queued in order with the definitions. */
    public static void warning(String message) {
        Bytes b = new Bytes(message.length() + 8);
        b.str(message);
        Out.PENDING.add(Out.frame(Out.WARNING, b));
    }

    /** "[[I" -> "int[][]", "[Ljava/lang/String;" -> "java.lang.String[]". */
    static String typeName(String desc) {
        int dims = 0;
        while (desc.charAt(dims) == '[') {
            dims++;
        }
        String base;
        switch (desc.charAt(dims)) {
            case 'Z': base = "boolean"; break;
            case 'C': base = "char"; break;
            case 'B': base = "byte"; break;
            case 'S': base = "short"; break;
            case 'I': base = "int"; break;
            case 'J': base = "long"; break;
            case 'F': base = "float"; break;
            case 'D': base = "double"; break;
            default: base = desc.substring(dims + 1, desc.length() - 1).replace('/', '.');
        }
        return base + "[]".repeat(dims);
    }
}
