package hindsight.agent;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.util.jar.JarFile;

/**
 * The {@code -javaagent} entry point. It defines the runtime, {@code hindsight.runtime}, in the
 * bootstrap class loader (so that it is visible from every class loader), starts it and
 * installs the instrumenter, which lives with its ASM in a nested jar loaded by a class loader of
 * its own: a program that ships its own ASM never sees ours.
 */
public final class Premain {
    private Premain() {}

    public static void premain(String options, Instrumentation inst) {
        try {
            File self = new File(Premain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            try (JarFile jar = new JarFile(self)) {
                if (!BootstrapDefiner.defineRuntime(inst, jar)) {
                    inst.appendToBootstrapClassLoaderSearch(new JarFile(self));
                }
            }
            Class<?> agent = Class.forName("hindsight.runtime.Agent", true, null);
            boolean recording = (Boolean) agent.getMethod("start", String.class).invoke(null, options);
            if (!recording) {
                return;
            }
            ClassLoader loader = new NestedJarLoader(readResource("hindsight/agent/instrumenter.jar"));
            Class<?> t = loader.loadClass("hindsight.instrument.Transformer");
            ClassFileTransformer transformer = (ClassFileTransformer) t
                    .getConstructor(Instrumentation.class).newInstance(inst);
            inst.addTransformer(transformer, false);
        } catch (Throwable e) {
            System.err.println("hindsight: the agent failed to start (" + e
                    + "); the program runs without recording");
        }
    }

    private static byte[] readResource(String name) throws Exception {
        try (InputStream in = Premain.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + name + " missing from the agent jar");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            in.transferTo(out);
            return out.toByteArray();
        }
    }
}
