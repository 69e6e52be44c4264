package hindsight.runtime;

/** Entry points of instrumented code that are not event writers. */
public final class R {
    private static final ThreadLocal<Buf> BUFS = new ThreadLocal<>();

    private R() {}

    /** The calling thread's buffer, for the duration of one instrumented call. */
    public static Buf enter() {
        Buf b = BUFS.get();
        if (b == null) {
            b = new Buf(Thread.currentThread());
            BUFS.set(b);
            Agent.register(b);
        } else if (b.isParked()) {
            b.enterFromParked();
        }
        b.depth++;
        return b;
    }

    /**
     * Sends the calling thread's buffered events now. A Java debugger invokes it on a thread
     * suspended at a breakpoint (always between two events), so that the recording reaches the
     * suspended moment; the thread's events would otherwise wait for its buffer to fill.
     */
    public static void flush() {
        Buf b = BUFS.get();
        if (b != null && !b.isParked()) {
            b.flush();
        }
    }

    /** Called before application code calls System.exit, Runtime.exit or Runtime.halt. */
    public static void noteExit(int status) {
        Agent.exitStatus = status;
        Agent.exitNoted = true;
    }

    /** The outermost frame of the main thread ended by an exception: the JVM will exit with 1. */
    static void unwound(Buf b) {
        if (b.depth == 1 && "main".equals(b.thread.getName()) && !Agent.exitNoted) {
            Agent.exitStatus = 1;
        }
    }
}
