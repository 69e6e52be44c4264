package hindsight.replay;

import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Class names, program classes and their instance fields. */
final class Classes {
    private static final ClassLoader LOADER = ClassLoader.getSystemClassLoader();
    private static final Map<String, Class<?>> PRIMITIVES = Map.of(
            "boolean", boolean.class, "char", char.class, "byte", byte.class, "short", short.class,
            "int", int.class, "long", long.class, "float", float.class, "double", double.class);

    private Classes() {}

    /**
     * A class by its {@code Class.getTypeName()} ({@code pkg.Outer$Inner}, {@code int[][]}),
     * loaded from the program's class path without initialising it.
     */
    static Class<?> forName(String typeName) throws Failure {
        int dims = 0;
        String base = typeName;
        while (base.endsWith("[]")) {
            base = base.substring(0, base.length() - 2);
            dims++;
        }
        Class<?> c = PRIMITIVES.get(base);
        if (c == null) {
            try {
                c = Class.forName(base, false, LOADER);
            } catch (ClassNotFoundException | LinkageError e) {
                throw new Failure("class " + typeName + " not found on the class path (" + e + ")");
            }
        } else if (dims == 0) {
            throw new Failure(typeName + " is a primitive type, not a class");
        }
        for (int i = 0; i < dims; i++) {
            c = c.arrayType();
        }
        return c;
    }

    /** A type by its {@code getTypeName()}, a primitive type ({@code int}) included. */
    static Class<?> typeOf(String typeName) throws Failure {
        Class<?> p = PRIMITIVES.get(typeName);
        return p != null ? p : forName(typeName);
    }

    /**
     * What a reflective object stands for, as the agent names it (docs/wire-format.md, "Content
     * of JDK objects"): {@code pkg.C}, {@code pkg.C.f}, {@code pkg.C.m(int,java.lang.String)},
     * {@code pkg.C.<init>()}; null for any other object.
     */
    static String reflectiveName(Object o) {
        if (o instanceof Class<?> k) {
            return k.getTypeName();
        }
        if (o instanceof Field f) {
            return f.getDeclaringClass().getTypeName() + "." + f.getName();
        }
        if (o instanceof java.lang.reflect.Method m) {
            return executableName(m.getDeclaringClass(), m.getName(), m.getParameterTypes());
        }
        if (o instanceof java.lang.reflect.Constructor<?> k) {
            return executableName(k.getDeclaringClass(), "<init>", k.getParameterTypes());
        }
        return null;
    }

    private static String executableName(Class<?> owner, String name, Class<?>[] params) {
        StringBuilder b = new StringBuilder(owner.getTypeName()).append('.').append(name).append('(');
        for (int i = 0; i < params.length; i++) {
            b.append(i > 0 ? "," : "").append(params[i].getTypeName());
        }
        return b.append(')').toString();
    }

    /** A method's type from its JVM descriptor, classes resolved on the program's class path. */
    static MethodType methodType(String descriptor) throws Failure {
        try {
            return MethodType.fromMethodDescriptorString(descriptor, LOADER);
        } catch (IllegalArgumentException | TypeNotPresentException e) {
            throw new Failure("bad descriptor " + descriptor + ": " + e.getMessage());
        }
    }

    /** A program class is one that is not from the JDK: loaded by neither the boot nor the platform loader. */
    static boolean isProgram(Class<?> c) {
        ClassLoader l = c.getClassLoader();
        return l != null && l != ClassLoader.getPlatformClassLoader();
    }

    /**
     * The instance fields of a program object, the class's own first, then those of its program
     * superclasses (JDK superclasses' fields are never described), each made accessible.
     */
    static List<Field> instanceFields(Class<?> c) {
        List<Field> out = new ArrayList<>();
        for (Class<?> k = c; k != null && isProgram(k); k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    out.add(f);
                }
            }
        }
        return out;
    }
}
