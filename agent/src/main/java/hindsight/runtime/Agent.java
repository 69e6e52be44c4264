package hindsight.runtime;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The runtime side of the agent: options, the stream, the registry of thread buffers, the
 * flusher thread and the shutdown hook. Loaded by the bootstrap class loader so that code of
 * every class loader can call it.
 */
public final class Agent {
    private static final String[] JDK_PACKAGES = {"java/", "javax/", "jdk/", "sun/", "com/sun/",
        "org/w3c/", "org/xml/", "org/ietf/", "hindsight/"};
    static final long FLUSH_INTERVAL_MS = 100;

    private static final List<WeakReference<Buf>> BUFS = new ArrayList<>();
    /** Buffers registered so far (under the BUFS lock). */
    private static int registered;
    private static String[] include = new String[0];
    private static String[] exclude = new String[0];
    static volatile int exitStatus;
    static volatile boolean exitNoted;

    private Agent() {}

    /**
     * Parses the options, opens the stream and sends HELLO. Returns false (after printing why)
     * when nothing should be recorded.
     */
    public static boolean start(String options) {
        Options o;
        try {
            o = Options.parse(options);
        } catch (IllegalArgumentException e) {
            System.err.println("hindsight: " + e.getMessage() + "; the program runs without recording");
            return false;
        }
        if (o.socket == null && o.file == null) {
            System.err.println("hindsight: no socket=PATH or file=PATH agent option;"
                    + " the program runs without recording");
            return false;
        }
        try {
            Out.open(o);
        } catch (Exception e) {
            String where = o.socket != null ? "recorder socket " + o.socket : "trace file " + o.file;
            System.err.println("hindsight: cannot open " + where + " (" + e + ");"
                    + " the program runs without recording");
            return false;
        }
        include = toInternal(o.include);
        exclude = toInternal(o.exclude);
        hello();
        // Threads of named classes, not method references: the runtime spins no classes.
        Runtime.getRuntime().addShutdownHook(new Task(Task.SHUTDOWN, "hindsight-shutdown"));
        Thread flusher = new Task(Task.FLUSH, "hindsight-flusher");
        flusher.setDaemon(true);
        flusher.start();
        return true;
    }

    private static String[] toInternal(List<String> patterns) {
        String[] r = new String[patterns.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = patterns.get(i).replace('.', '/');
        }
        return r;
    }

    private static void hello() {
        Bytes b = new Bytes(256);
        b.varint(ProcessHandle.current().pid());
        b.varint(System.currentTimeMillis());
        b.str(System.getProperty("java.vm.name", "") + " " + System.getProperty("java.vm.version", ""));
        b.str(System.getProperty("sun.java.command", ""));
        b.str(Version.VERSION);
        Out.write(Out.frame(Out.HELLO, b));
    }

    /**
     * Whether a class (internal name) is application code to instrument, by name: not the JDK,
     * not the agent, and within include / outside exclude. Call sites use the same test to
     * decide whether a callee is uninstrumented code.
     */
    public static boolean instrumentable(String internalName) {
        if (internalName.startsWith("[")) {
            return false;
        }
        for (String p : JDK_PACKAGES) {
            if (internalName.startsWith(p)) {
                return false;
            }
        }
        if (include.length > 0 && !matchesAny(include, internalName)) {
            return false;
        }
        return !matchesAny(exclude, internalName);
    }

    private static boolean matchesAny(String[] patterns, String name) {
        for (String p : patterns) {
            if (p.endsWith("/*")) {
                if (name.startsWith(p.substring(0, p.length() - 1))) {
                    return true;
                }
            } else if (name.equals(p) || name.startsWith(p + "$")) {
                return true;
            }
        }
        return false;
    }

    /** Prints and records that a class runs uninstrumented. */
    public static void warn(String message) {
        System.err.println("hindsight: " + message);
        Defs.warning(message);
    }

    static void register(Buf b) {
        synchronized (BUFS) {
            if (registered++ > 0) {
                Encoder.share();
            }
            for (Iterator<WeakReference<Buf>> it = BUFS.iterator(); it.hasNext(); ) {
                Buf o = it.next().get();
                if (o == null || (!o.thread.isAlive() && o.count == 0)) {
                    it.remove();
                }
            }
            BUFS.add(new WeakReference<>(b));
        }
    }

    /** The flusher thread and the shutdown hook. */
    private static final class Task extends Thread {
        static final int FLUSH = 0, SHUTDOWN = 1;
        private final int job;

        Task(int job, String name) {
            super(name);
            this.job = job;
        }

        @Override
        public void run() {
            if (job == FLUSH) {
                flushLoop();
            } else {
                shutdown();
            }
        }
    }

    private static void flushLoop() {
        while (!Out.dead) {
            try {
                Thread.sleep(FLUSH_INTERVAL_MS);
            } catch (InterruptedException e) {
                return;
            }
            Buf.flushEpoch++;
            for (Buf b : buffers()) {
                b.flushIfParked();
            }
        }
    }

    private static List<Buf> buffers() {
        List<Buf> all = new ArrayList<>();
        synchronized (BUFS) {
            for (WeakReference<Buf> r : BUFS) {
                Buf b = r.get();
                if (b != null) {
                    all.add(b);
                }
            }
        }
        return all;
    }

    /** Flushes every buffer and sends END. Threads still running may lose their last events. */
    private static void shutdown() {
        for (Buf b : buffers()) {
            if (b.isParked()) {
                b.flushIfParked();
            } else {
                b.flush();
            }
        }
        Out.end(exitStatus);
    }
}
