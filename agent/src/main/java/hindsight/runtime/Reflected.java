package hindsight.runtime;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

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

    private static final ClassValue<Field[]> FIELDS = new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> c) {
            return declared(c);
        }
    };

    private Reflected() {}

    static Field[] fields(Class<?> c) {
        return FIELDS.get(c);
    }

    /**
     * A field of the program's classes, opened for reading, or null (a JDK field, one of the
     * agent's own, one a module does not open).
     */
    static Field of(java.lang.reflect.Field f) {
        Class<?> k = f.getDeclaringClass();
        if (!Defs.isInstrumented(k.getName()) || f.getName().startsWith("hindsight$")) {
            return null;
        }
        try {
            f.setAccessible(true);
        } catch (RuntimeException e) {
            return null;
        }
        String desc = f.getType().descriptorString();
        int id = Defs.field(k.getName().replace('.', '/'), f.getName(), desc,
                Modifier.isStatic(f.getModifiers()));
        return new Field(f, id, desc.charAt(0));
    }

    private static Field[] declared(Class<?> c) {
        List<Field> out = new ArrayList<>();
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            if (!Defs.isInstrumented(k.getName())) {
                continue;
            }
            for (java.lang.reflect.Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.getName().startsWith("hindsight$")) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                } catch (RuntimeException e) {
                    continue; // a module that does not open its package: left unrecorded
                }
                String desc = f.getType().descriptorString(); // as bytecode names it
                int id = Defs.field(k.getName().replace('.', '/'), f.getName(), desc, false);
                out.add(new Field(f, id, desc.charAt(0)));
            }
        }
        return out.toArray(new Field[0]);
    }
}
