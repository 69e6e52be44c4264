package hindsight.replay;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Allocates program objects without running any of the program's constructors, through {@code
 * sun.reflect.ReflectionFactory} (module jdk.unsupported), found by reflection: it is not part of
 * the Java API, and naming it would make javac warn.
 */
final class Allocator {
    private static final Object FACTORY;
    private static final Method NEW_CONSTRUCTOR;
    /** Why the factory is unavailable, or null. */
    private static final String FAILURE;
    /** Each constructor is a generated class: made once per program class. */
    private static final Map<Class<?>, Constructor<?>> CONSTRUCTORS = new ConcurrentHashMap<>();

    static {
        Object factory = null;
        Method method = null;
        String failure = null;
        try {
            Class<?> rf = Class.forName("sun.reflect.ReflectionFactory");
            factory = rf.getMethod("getReflectionFactory").invoke(null);
            method = rf.getMethod("newConstructorForSerialization", Class.class, Constructor.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            failure = e.toString();
        }
        FACTORY = factory;
        NEW_CONSTRUCTOR = method;
        FAILURE = failure;
    }

    private Allocator() {}

    /**
     * A new instance of {@code c} on which only the no-argument constructor of its nearest JDK
     * superclass ran ({@code Object()} for most; {@code Throwable()} sets up an exception's stack
     * trace), none of the program's.
     */
    static Object allocate(Class<?> c, int line) throws Failure {
        try {
            return constructor(c, line).newInstance();
        } catch (InvocationTargetException e) {
            throw Failure.at(line, "cannot allocate a " + c.getTypeName() + ": " + e.getCause());
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw Failure.at(line, "cannot allocate a " + c.getTypeName() + ": " + e);
        }
    }

    private static Constructor<?> constructor(Class<?> c, int line) throws Failure, ReflectiveOperationException {
        Constructor<?> known = CONSTRUCTORS.get(c);
        if (known != null) {
            return known;
        }
        if (FAILURE != null) {
            throw Failure.at(line, "cannot allocate objects without constructors: " + FAILURE);
        }
        Class<?> jdk = c;
        while (Classes.isProgram(jdk)) {
            jdk = jdk.getSuperclass();
        }
        Constructor<?> base = null;
        for (Class<?> k = jdk; base == null; k = k.getSuperclass()) {
            try {
                base = k.getDeclaredConstructor();
            } catch (NoSuchMethodException e) {
                // try the next superclass: Object has one
            }
        }
        Constructor<?> ctor = (Constructor<?>) NEW_CONSTRUCTOR.invoke(FACTORY, c, base);
        ctor.setAccessible(true);
        CONSTRUCTORS.put(c, ctor);
        return ctor;
    }
}
