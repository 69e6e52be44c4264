package hindsight.runtime;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The instance fields the program's (instrumented) classes declare for a class, opened for
 * reading, with their field ids: what {@link Buf#fieldsWritten} records after a VarHandle,
 * field updater or Unsafe call. Computed once per class. And the one field a reflective
 * {@code Field.set} names ({@link Buf#fieldSet}).
 */
final class Reflected {
    static final class Field {
        final java.lang.reflect.Field field;
        final int id;
        /** The first character of its descriptor: its primitive type, or 'L' or '['. */
        final char kind;

        Field(java.lang.reflect.Field field, int id, char kind) {
            this.field = field;
            this.id = id;
            this.kind = kind;
        }
    }

    /** The fields a class of the program's declares, opened and named, by name. */
    private static final ClassValue<Map<String, Field>> OWN = new ClassValue<>() {
        @Override
        protected Map<String, Field> computeValue(Class<?> k) {
            Map<String, Field> out = new LinkedHashMap<>();
            if (!Defs.isInstrumented(k.getName())) {
                return out;
            }
            for (java.lang.reflect.Field f : k.getDeclaredFields()) {
                if (f.getName().startsWith("hindsight$")) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                } catch (RuntimeException e) {
                    continue; // a module that does not open its package: left unrecorded
                }
                String desc = f.getType().descriptorString(); // as bytecode names it
                int id = Defs.field(k.getName().replace('.', '/'), f.getName(), desc,
                        Modifier.isStatic(f.getModifiers()));
                out.put(f.getName(), new Field(f, id, desc.charAt(0)));
            }
            return out;
        }
    };

    private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> c) {
            List<Field> out = new ArrayList<>();
            for (Class<?> k = c; k != null; k = k.getSuperclass()) {
                for (Field f : OWN.get(k).values()) {
                    if (!Modifier.isStatic(f.field.getModifiers())) {
                        out.add(f);
                    }
                }
            }
            return out.toArray(new Field[0]);
        }
    };

    private Reflected() {}

    static Field[] fields(Class<?> c) {
        return FIELDS.get(c);
    }

    /**
     * A field of the program's classes, opened for reading, or null (a JDK field, one of the
     * agent's own, one a module does not open). Looked up, not opened again, at each call.
     */
    static Field of(java.lang.reflect.Field f) {
        return OWN.get(f.getDeclaringClass()).get(f.getName());
    }
}
