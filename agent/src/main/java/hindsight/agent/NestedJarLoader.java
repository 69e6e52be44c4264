package hindsight.agent;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;

/**
 * Loads the classes of a jar held in memory. Its parent is the bootstrap loader, which sees the
 * JDK and the Hindsight runtime but no application class: the instrumenter and its ASM are
 * isolated from the program in both directions.
 */
final class NestedJarLoader extends ClassLoader {
    private final Map<String, byte[]> classes = new HashMap<>();

    NestedJarLoader(byte[] jar) throws IOException {
        super("hindsight-instrumenter", null);
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
            JarEntry e;
            while ((e = in.getNextJarEntry()) != null) {
                String n = e.getName();
                if (n.endsWith(".class") && !n.endsWith("module-info.class")) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    in.transferTo(out);
                    classes.put(n.substring(0, n.length() - 6).replace('/', '.'), out.toByteArray());
                }
            }
        }
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] b;
        synchronized (classes) {
            b = classes.remove(name);
        }
        if (b == null) {
            throw new ClassNotFoundException(name);
        }
        return defineClass(name, b, 0, b.length);
    }
}
