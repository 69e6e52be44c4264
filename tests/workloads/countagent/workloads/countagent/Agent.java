package workloads.countagent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * A javaagent that counts, in every class not of the JDK, method entries, line-number entries
 * reached and field and array stores, and prints the counts on stderr when the JVM exits. It
 * estimates how many events a workload gives a recorder.
 *
 * <p>Usage: {@code -javaagent:countagent.jar[=PATH_OF_ASM_JAR]} (default
 * /usr/share/java/asm.jar). The transformer and ASM are loaded in a class loader of their own, so
 * that an application's own ASM (cglib's) is not shared with the agent and is counted like the
 * rest of the application.
 */
public final class Agent {
    private static final String DEFAULT_ASM = "/usr/share/java/asm.jar";

    private Agent() {}

    public static void premain(String options, Instrumentation instrumentation) throws Exception {
        Path asm = Path.of(options == null || options.isEmpty() ? DEFAULT_ASM : options);
        URL self = Agent.class.getProtectionDomain().getCodeSource().getLocation();
        URLClassLoader loader = new URLClassLoader(
                new URL[] {self, asm.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
        ClassFileTransformer transformer = (ClassFileTransformer) loader
                .loadClass("workloads.countagent.impl.Transformer")
                .getDeclaredConstructor()
                .newInstance();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println(Counts.report())));
        instrumentation.addTransformer(transformer);
    }
}
