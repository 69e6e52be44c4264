package hindsight.replay;

import java.io.InputStream;
import java.lang.invoke.MethodType;

/**
 * The output calls recorded during one replayed call: {@code OUT} lines and the records of the
 * objects their arguments reach, described when the call is made.
 */
final class Capture {
    /** The capture of the call under way; null between calls (output is then dropped). */
    private static volatile Capture current;

    private final StringBuilder outs = new StringBuilder();
    private final StringBuilder records = new StringBuilder();
    private int next = 1;
    private String failure;

    /** A JDK output method: its name as {@code OUT} writes it and its parameter types. */
    record Method(String name, Class<?>[] params) {
        /** {@code signature} as {@code println(Ljava/lang/String;)V}. */
        static Method of(String signature) {
            int paren = signature.indexOf('(');
            MethodType type = MethodType.fromMethodDescriptorString(signature.substring(paren), null);
            return new Method("java.io.PrintStream." + signature, type.parameterArray());
        }
    }

    /**
     * Puts the capturing streams in place of {@code System.out} and {@code System.err}, and an
     * empty standard input (the requests are the replayer's). Called again after each call, in
     * case the program replaced them.
     */
    static void install() {
        if (!(System.out instanceof CapturingStream)) {
            System.setOut(new CapturingStream());
        }
        if (!(System.err instanceof CapturingStream)) {
            System.setErr(new CapturingStream());
        }
        System.setIn(InputStream.nullInputStream());
    }

    static Capture begin() {
        Capture c = new Capture();
        current = c;
        return c;
    }

    static void end() {
        current = null;
    }

    /** Records one output call, if a call is being replayed. */
    static void record(Method method, Object... args) {
        Capture c = current;
        if (c == null) {
            return;
        }
        synchronized (c) {
            if (c.failure != null) {
                return;
            }
            try {
                StateWriter w = new StateWriter(c.next);
                StringBuilder line = new StringBuilder("OUT ").append(method.name()).append(' ').append(args.length);
                for (int i = 0; i < args.length; i++) {
                    line.append(' ').append(w.token(args[i], method.params()[i]));
                }
                c.records.append(w.drain());
                c.outs.append(line).append('\n');
                c.next = w.next();
            } catch (RuntimeException | LinkageError e) {
                c.failure = "cannot describe the arguments of " + method.name() + ": " + e;
            }
        }
    }

    /** The first number the exit state may use. */
    synchronized int next() {
        return next;
    }

    /** The object records of the output calls' arguments. */
    synchronized String records() {
        return records.toString();
    }

    /** The {@code OUT} lines. */
    synchronized String outs() {
        return outs.toString();
    }

    /** Why the output could not be recorded, or null. */
    synchronized String failure() {
        return failure;
    }
}
