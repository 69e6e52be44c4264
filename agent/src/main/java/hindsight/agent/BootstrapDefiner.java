package hindsight.agent;

import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Defines the runtime's classes directly in the bootstrap class loader. Appending the agent jar
 * to the bootstrap class path would do as well, but then a JVM with class data sharing prints a
 * warning on the program's stderr and application classes lose sharing.
 */
final class BootstrapDefiner {
    private static final String RUNTIME = "hindsight/runtime/";

    private BootstrapDefiner() {}

    /** Defines every class of hindsight.runtime in the bootstrap loader; false if not possible. */
    static boolean defineRuntime(Instrumentation inst, JarFile jar) {
        try {
            Module base = Object.class.getModule();
            inst.redefineModule(base, Set.of(), Map.of("jdk.internal.misc", Set.of(BootstrapDefiner.class.getModule())),
                    Map.of(), Set.of(), Map.of());
            Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
            Object unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
            Method define = unsafeClass.getMethod("defineClass", String.class, byte[].class, int.class,
                    int.class, ClassLoader.class, ProtectionDomain.class);
            List<JarEntry> classes = new ArrayList<>();
            for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (entry.getName().startsWith(RUNTIME) && entry.getName().endsWith(".class")) {
                    classes.add(entry);
                }
            }
            if (classes.isEmpty()) {
                return false;
            }
            // A class whose superclass is not defined yet fails (the bootstrap loader cannot
            // find it) and is tried again in the next pass.
            while (!classes.isEmpty()) {
                List<JarEntry> later = new ArrayList<>();
                for (JarEntry entry : classes) {
                    byte[] bytes;
                    try (InputStream in = jar.getInputStream(entry)) {
                        bytes = in.readAllBytes();
                    }
                    String name = entry.getName().substring(0, entry.getName().length() - 6);
                    try {
                        define.invoke(unsafe, name, bytes, 0, bytes.length, null, null);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        if (!(e.getCause() instanceof NoClassDefFoundError)) {
                            throw e;
                        }
                        later.add(entry);
                    }
                }
                if (later.size() == classes.size()) {
                    return false;
                }
                classes = later;
            }
            return true;
        } catch (Throwable e) {
            return false;
        }
    }
}
