package hindsight.replay;

import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Builds a request's objects: program objects without running their constructors, arrays, and
 * the JDK collections whose iteration order a rebuild preserves.
 */
final class GraphBuilder {
    /** The JDK collections that can be rebuilt by adding their elements in iteration order. */
    private static final Map<String, Supplier<Collection<Object>>> SEQUENCES = Map.of(
            "java.util.ArrayList", ArrayList::new,
            "java.util.LinkedList", LinkedList::new,
            "java.util.ArrayDeque", ArrayDeque::new,
            "java.util.LinkedHashSet", LinkedHashSet::new);
    private static final String REBUILDABLE = "only program objects, java.lang.Object, Throwables, arrays,"
            + " java.util.ArrayList, LinkedList, ArrayDeque, LinkedHashSet, LinkedHashMap,"
            + " java.lang.StringBuilder and StringBuffer, enum constants, classes, fields, methods and constructors can be rebuilt";

    private final Request req;
    private final Map<Integer, Object> objects = new HashMap<>();
    private final Map<Integer, List<Request.FieldInit>> fieldsOf = new HashMap<>();
    private final Map<Class<?>, List<Field>> fieldCache = new HashMap<>();
    private final Set<Integer> underConstruction = new HashSet<>();
    private final Set<Integer> filled = new HashSet<>();
    /** The OBJ records of record classes: built by their canonical constructor, on demand. */
    private final Set<Integer> records = new HashSet<>();
    private final Map<String, Class<?>> classes = new HashMap<>();

    private GraphBuilder(Request req) {
        this.req = req;
    }

    /** Builds every object the request declares. */
    static GraphBuilder build(Request req) throws Failure {
        GraphBuilder b = new GraphBuilder(req);
        b.groupFields();
        for (Request.Decl d : req.decls.values()) {
            b.shell(d);
        }
        for (Request.Decl d : req.decls.values()) {
            if (d.kind().equals("OBJ")) {
                if (b.records.contains(d.id())) {
                    b.record(d);
                } else {
                    b.setFields(d);
                }
            } else if (d.kind().equals("ARR")) {
                b.fillArray(d);
            }
        }
        // Lists before hashed collections: an element's hash may depend on a list's content.
        for (Request.Decl d : req.decls.values()) {
            if (d.kind().equals("SEQ") && !(b.objects.get(d.id()) instanceof Set)) {
                b.fill(d);
            }
        }
        for (Request.Decl d : req.decls.values()) {
            if (d.kind().equals("SEQ") || d.kind().equals("MAP")) {
                b.fill(d);
            }
        }
        return b;
    }

    /** A value of the request as an object of type {@code type} (boxed for a primitive type). */
    Object value(Value v, Class<?> type, int line, String where) throws Failure {
        switch (v.kind()) {
            case PRIMITIVE:
                Class<?> box = MethodType.methodType(type).wrap().returnType();
                if (!type.isPrimitive() || box != v.plain().getClass()) {
                    throw Failure.at(line, where + " has type " + type.getTypeName() + ", not "
                            + primitiveName(v.plain()));
                }
                return v.plain();
            case NULL:
                if (type.isPrimitive()) {
                    throw Failure.at(line, where + " has type " + type.getTypeName() + ": it cannot be null");
                }
                return null;
            case BOXED:
            case STRING:
                return checked(v.plain(), type, line, where);
            case REF:
                return checked(object(v.ref(), line), type, line, where);
            default:
                throw Failure.at(line, where + ": V is not a value");
        }
    }

    private static String primitiveName(Object boxed) {
        return MethodType.methodType(boxed.getClass()).unwrap().returnType().getTypeName();
    }

    private static Object checked(Object o, Class<?> type, int line, String where) throws Failure {
        if (type.isPrimitive()) {
            throw Failure.at(line, where + " has type " + type.getTypeName() + ", not the object "
                    + o.getClass().getTypeName());
        }
        if (o != null && !type.isInstance(o)) {
            throw Failure.at(line, where + " has type " + type.getTypeName() + ": it cannot hold a "
                    + o.getClass().getTypeName());
        }
        return o;
    }

    private Object object(int id, int line) throws Failure {
        Object o = objects.get(id);
        if (o != null) {
            return o;
        }
        Request.Decl d = req.decls.get(id);
        if (d == null) {
            throw Failure.at(line, "object @" + id + " is not declared");
        }
        return record(d);
    }

    private void groupFields() throws Failure {
        for (Request.FieldInit f : req.fields) {
            Request.Decl d = req.decls.get(f.id());
            if (d == null || !d.kind().equals("OBJ")) {
                throw Failure.at(f.line(), "FIELD of object " + f.id() + ", which no OBJ record declares");
            }
            fieldsOf.computeIfAbsent(f.id(), k -> new ArrayList<>()).add(f);
        }
    }

    /** Creates the object of {@code d}, still empty (records are built later, from their fields). */
    private void shell(Request.Decl d) throws Failure {
        int line = d.line();
        switch (d.kind()) {
            case "OBJ": {
                Class<?> c = classOf(d.type(), d.line());
                checkObjectClass(c, line);
                if (c.isRecord()) {
                    records.add(d.id());
                } else {
                    objects.put(d.id(), Allocator.allocate(c, line));
                }
                break;
            }
            case "ARR": {
                Class<?> c = classOf(d.type(), d.line());
                if (!c.isArray()) {
                    throw Failure.at(line, "ARR of " + d.type() + ", which is not an array class");
                }
                objects.put(d.id(), Array.newInstance(c.getComponentType(), d.items().size()));
                break;
            }
            case "SEQ": {
                Supplier<Collection<Object>> s = SEQUENCES.get(d.type());
                if (s == null) {
                    throw unrebuildable(d);
                }
                objects.put(d.id(), s.get());
                break;
            }
            case "MAP":
                if (!d.type().equals("java.util.LinkedHashMap")) {
                    throw unrebuildable(d);
                }
                objects.put(d.id(), new LinkedHashMap<Object, Object>());
                break;
            case "TEXT": {
                String text = (String) d.items().get(0).plain();
                if (d.type().equals("java.lang.StringBuilder")) {
                    objects.put(d.id(), new StringBuilder(text));
                } else if (d.type().equals("java.lang.StringBuffer")) {
                    objects.put(d.id(), new StringBuffer(text));
                } else if (d.type().equals("java.lang.Class")) {
                    objects.put(d.id(), typeOf(text, d.line()));
                } else if (d.type().equals("java.lang.reflect.Field")) {
                    objects.put(d.id(), field(text, d.line()));
                } else if (d.type().equals("java.lang.reflect.Method")
                        || d.type().equals("java.lang.reflect.Constructor")) {
                    objects.put(d.id(), executable(text, d.line()));
                } else if (Enum.class.isAssignableFrom(classOf(d.type(), d.line()))) {
                    objects.put(d.id(), constant(classOf(d.type(), d.line()), text, d.line()));
                } else {
                    throw unrebuildable(d);
                }
                break;
            }
            default:
                throw new IllegalStateException(d.kind());
        }
    }

    /** The enum constant named {@code name} of {@code c} (an enum or a constant's body). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object constant(Class<?> c, String name, int line) throws Failure {
        Class<?> e = c.isEnum() ? c : c.getSuperclass();
        try {
            return Enum.valueOf((Class) e, name);
        } catch (IllegalArgumentException x) {
            throw Failure.at(line, e.getTypeName() + " has no constant " + name);
        }
    }

    /** The field named {@code pkg.Class.name}. */
    private java.lang.reflect.Field field(String name, int line) throws Failure {
        int dot = name.lastIndexOf('.');
        if (dot < 0) {
            throw Failure.at(line, "'" + name + "' does not name a field");
        }
        Class<?> c = classOf(name.substring(0, dot), line);
        try {
            return c.getDeclaredField(name.substring(dot + 1));
        } catch (NoSuchFieldException e) {
            throw Failure.at(line, c.getTypeName() + " has no field " + name.substring(dot + 1));
        }
    }

    /** The method or constructor named {@code pkg.C.m(int,java.lang.String)} or {@code pkg.C.<init>()}. */
    private java.lang.reflect.Executable executable(String name, int line) throws Failure {
        int open = name.indexOf('(');
        int dot = open < 0 ? -1 : name.lastIndexOf('.', open);
        if (dot < 0 || !name.endsWith(")")) {
            throw Failure.at(line, "'" + name + "' does not name a method or constructor");
        }
        Class<?> c = classOf(name.substring(0, dot), line);
        String params = name.substring(open + 1, name.length() - 1);
        List<Class<?>> types = new java.util.ArrayList<>();
        for (String p : params.isEmpty() ? new String[0] : params.split(",")) {
            types.add(typeOf(p, line));
        }
        Class<?>[] array = types.toArray(new Class<?>[0]);
        String method = name.substring(dot + 1, open);
        try {
            return method.equals("<init>") ? c.getDeclaredConstructor(array) : c.getDeclaredMethod(method, array);
        } catch (NoSuchMethodException e) {
            throw Failure.at(line, c.getTypeName() + " has no " + name.substring(dot + 1));
        }
    }

    private Class<?> typeOf(String typeName, int line) throws Failure {
        try {
            return Classes.typeOf(typeName);
        } catch (Failure f) {
            throw Failure.at(line, f.getMessage());
        }
    }

    private static Failure unrebuildable(Request.Decl d) {
        return Failure.at(d.line(), "object " + d.id() + " is a " + d.type()
                + ", which cannot be rebuilt: " + REBUILDABLE);
    }

    private static void checkObjectClass(Class<?> c, int line) throws Failure {
        String name = c.getTypeName();
        if (c.isArray() || c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            throw Failure.at(line, "OBJ of " + name + ", which is an array, interface or abstract class");
        }
        if (c.isEnum() || (c.getSuperclass() != null && c.getSuperclass().isEnum())) {
            // A fresh instance would be none of the constants (== and switch would fail), and
            // the protocol does not name the constant.
            throw Failure.at(line, name + " is an enum: its constants cannot be rebuilt");
        }
        if (c.isHidden()) {
            throw Failure.at(line, name + " is a hidden class (a lambda?): it cannot be rebuilt");
        }
        if (!Classes.isProgram(c) && c != Object.class && !Throwable.class.isAssignableFrom(c)) {
            throw Failure.at(line, "OBJ of the JDK class " + name + ", which cannot be rebuilt: " + REBUILDABLE);
        }
    }

    private Class<?> classOf(String typeName, int line) throws Failure {
        Class<?> c = classes.get(typeName);
        if (c == null) {
            try {
                c = Classes.forName(typeName);
            } catch (Failure f) {
                throw Failure.at(line, f.getMessage());
            }
            classes.put(typeName, c);
        }
        return c;
    }

    private List<Field> fields(Class<?> c) {
        return fieldCache.computeIfAbsent(c, Classes::instanceFields);
    }

    /**
     * Sets the fields of a program object. A name given twice means the field shadowed by the
     * first: the k-th FIELD of a name sets the k-th field of that name, from the object's class up.
     */
    private void setFields(Request.Decl d) throws Failure {
        Object o = objects.get(d.id());
        Map<String, Integer> seen = new HashMap<>();
        for (Request.FieldInit fi : fieldsOf.getOrDefault(d.id(), List.of())) {
            int nth = seen.merge(fi.name(), 1, Integer::sum);
            Field f = nthField(o.getClass(), fi.name(), nth);
            if (f == null) {
                throw Failure.at(fi.line(), d.type() + " has " + (nth == 1 ? "no" : "fewer than " + nth)
                        + " instance fields named '" + fi.name() + "' (in program classes)");
            }
            Object v = value(fi.value(), f.getType(), fi.line(), "field " + fi.name() + " of object " + d.id());
            try {
                f.set(o, v);
            } catch (IllegalAccessException | RuntimeException e) {
                throw Failure.at(fi.line(), "cannot set field " + fi.name() + " of " + d.type() + ": " + e);
            }
        }
    }

    private Field nthField(Class<?> c, String name, int nth) {
        for (Field f : fields(c)) {
            if (f.getName().equals(name) && --nth == 0) {
                return f;
            }
        }
        return null;
    }

    /**
     * Builds a record through its canonical constructor: its fields are final, and the JVM lets
     * no reflection set them. Its components may reference objects whose content is not set yet.
     */
    private Object record(Request.Decl d) throws Failure {
        Object done = objects.get(d.id());
        if (done != null) {
            return done;
        }
        if (!underConstruction.add(d.id())) {
            throw Failure.at(d.line(), "record object " + d.id() + " references itself through other records");
        }
        Class<?> c = classOf(d.type(), d.line());
        RecordComponent[] components = c.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        Object[] values = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
            values[i] = types[i].isPrimitive() ? Array.get(Array.newInstance(types[i], 1), 0) : null;
        }
        for (Request.FieldInit fi : fieldsOf.getOrDefault(d.id(), List.of())) {
            int i = 0;
            while (i < components.length && !components[i].getName().equals(fi.name())) {
                i++;
            }
            if (i == components.length) {
                throw Failure.at(fi.line(), "record " + d.type() + " has no component '" + fi.name() + "'");
            }
            values[i] = value(fi.value(), types[i], fi.line(), "field " + fi.name() + " of object " + d.id());
        }
        try {
            Constructor<?> ctor = c.getDeclaredConstructor(types);
            ctor.setAccessible(true);
            Object o = ctor.newInstance(values);
            objects.put(d.id(), o);
            return o;
        } catch (InvocationTargetException e) {
            throw Failure.at(d.line(), "the canonical constructor of record " + d.type() + " threw " + e.getCause());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw Failure.at(d.line(), "cannot build record " + d.type() + ": " + e);
        }
    }

    private void fillArray(Request.Decl d) throws Failure {
        Object array = objects.get(d.id());
        Class<?> component = array.getClass().getComponentType();
        List<Value> items = d.items();
        for (int i = 0; i < items.size(); i++) {
            Array.set(array, i, value(items.get(i), component, d.line(), "element " + i + " of array " + d.id()));
        }
    }

    /**
     * Adds a collection's elements in order, after those of the hashed collections it directly
     * contains (their hash depends on their content).
     */
    private void fill(Request.Decl d) throws Failure {
        if (!filled.add(d.id())) {
            return;
        }
        List<Object> items = new ArrayList<>(d.items().size());
        for (Value v : d.items()) {
            Object o = value(v, Object.class, d.line(), "element of " + d.type() + " " + d.id());
            Request.Decl inner = v.kind() == Value.Kind.REF ? req.decls.get(v.ref()) : null;
            if (inner != null && (inner.kind().equals("SEQ") || inner.kind().equals("MAP"))) {
                fill(inner);
            }
            items.add(o);
        }
        Object target = objects.get(d.id());
        try {
            if (target instanceof Map) {
                @SuppressWarnings("unchecked") // built above as a LinkedHashMap<Object, Object>
                Map<Object, Object> map = (Map<Object, Object>) target;
                for (int i = 0; i < items.size(); i += 2) {
                    map.put(items.get(i), items.get(i + 1));
                }
            } else {
                @SuppressWarnings("unchecked") // built above from SEQUENCES
                Collection<Object> seq = (Collection<Object>) target;
                seq.addAll(items);
            }
        } catch (RuntimeException e) {
            throw Failure.at(d.line(), "cannot fill " + d.type() + " " + d.id() + ": " + e);
        }
    }
}
