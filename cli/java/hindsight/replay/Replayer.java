package hindsight.replay;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The replayer of the reference oracle's rule 3 (docs/replay-protocol.md): reads requests on
 * standard input until its end, answers each on standard output. Run as {@code java -cp
 * PROGRAM_CLASSES:REPLAYER_CLASSES hindsight.replay.Replayer}.
 */
public final class Replayer {
    /** How long one request may run: a wrong entry state may make correct code loop. */
    static final long TIMEOUT_MILLIS = 5_000;
    /** The exit status after a timeout: the call's thread cannot be stopped. */
    static final int TIMEOUT_STATUS = 3;

    private static final PrintStream DIAGNOSTICS =
            new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    private static final OutputStream ANSWERS = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
    /** Set while a request is replayed: the program ending the JVM then still gets its answer. */
    private static volatile boolean replaying;

    private Replayer() {}

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(
                new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8));
        // The program must neither read the requests nor write into the answers.
        Capture.install();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (replaying) {
                answer(fail("the replayed call ended the JVM (System.exit)"));
            }
        }));
        RequestReader reader = new RequestReader(in);
        while (true) {
            String answer;
            try {
                Request req = reader.next();
                if (req == null) {
                    break;
                }
                answer = replayWithinTimeout(req);
            } catch (Failure f) {
                answer = fail(f.getMessage());
            }
            answer(answer);
        }
        // halt, not exit: threads the program started must not keep the replayer alive.
        Runtime.getRuntime().halt(0);
    }

    /** Replays on a thread of its own, which gets {@link #TIMEOUT_MILLIS}. */
    private static String replayWithinTimeout(Request req) {
        String[] answer = new String[1];
        Thread worker = new Thread(() -> answer[0] = replay(req), "hindsight-replay");
        worker.setDaemon(true);
        replaying = true;
        worker.start();
        try {
            worker.join(TIMEOUT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (worker.isAlive()) {
            answer(fail("timeout: the call of " + req.owner + "." + req.name + req.descriptor
                    + " (request at line " + req.line + ") ran longer than " + TIMEOUT_MILLIS / 1000
                    + " s; the replayer exits"));
            Runtime.getRuntime().halt(TIMEOUT_STATUS);
        }
        replaying = false;
        return answer[0];
    }

    /** The answer to {@code req}; any failure of the replayer itself is a FAIL too. */
    private static String replay(Request req) {
        try {
            return Invoker.replay(req);
        } catch (Failure f) {
            return fail(f.getMessage());
        } catch (Throwable t) {
            DIAGNOSTICS.println("hindsight replayer: internal error on the request at line " + req.line + ":");
            t.printStackTrace(DIAGNOSTICS);
            return fail("internal error of the replayer on the request at line " + req.line + ": " + t);
        }
    }

    /** A FAIL answer; its reason kept on one line. */
    static String fail(String reason) {
        return "FAIL " + reason.replaceAll("[\\r\\n]+", " ") + "\nEND\n";
    }

    private static synchronized void answer(String text) {
        try {
            ANSWERS.write(text.getBytes(StandardCharsets.UTF_8));
            ANSWERS.flush();
        } catch (IOException e) {
            // The core went away: nobody is left to answer.
            Runtime.getRuntime().halt(1);
        }
    }
}
