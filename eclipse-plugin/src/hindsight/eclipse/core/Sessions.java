package hindsight.eclipse.core;

import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.eclipse.debug.core.ILaunch;

/**
 * The session the views show (at most one), the launch that records it, and who wants to know
 * when it changes. A launch that failed to start its program keeps its (empty) session open
 * with the reason, so that the views never show an older trace as if it were this launch's.
 */
public final class Sessions {
    private static volatile TraceSession current;
    private static final List<Consumer<TraceSession>> LISTENERS = new CopyOnWriteArrayList<>();
    private static final Map<TraceSession, ILaunch> LAUNCHES = new WeakHashMap<>();
    private static final Map<TraceSession, String> FAILURES = new WeakHashMap<>();

    private Sessions() {
    }

    /** The open session, or null when no trace is open. */
    public static TraceSession current() {
        return current;
    }

    /** Makes {@code session} (or null) the open one, closing the previous one. */
    public static void open(TraceSession session) {
        TraceSession old = current;
        current = session;
        if (old != null && old != session) {
            old.close();
        }
        for (Consumer<TraceSession> l : LISTENERS) {
            l.accept(session);
        }
    }

    /** Opens the session of a launch's recording. */
    public static void open(TraceSession session, ILaunch launch) {
        synchronized (LAUNCHES) {
            LAUNCHES.put(session, launch);
        }
        open(session);
    }

    /** The launch that records {@code session}, or null (a trace opened from a file). */
    public static ILaunch launchOf(TraceSession session) {
        synchronized (LAUNCHES) {
            return session == null ? null : LAUNCHES.get(session);
        }
    }

    /** Marks {@code session}'s launch as failed to start its program, with the reason. */
    public static void failed(TraceSession session, String reason) {
        synchronized (LAUNCHES) {
            FAILURES.put(session, reason == null ? "the launch failed" : reason);
        }
        if (current != session) {
            open(session);
        } else {
            for (Consumer<TraceSession> l : LISTENERS) {
                l.accept(session);
            }
        }
    }

    /** Why {@code session}'s launch failed to start its program, or null. */
    public static String failure(TraceSession session) {
        synchronized (LAUNCHES) {
            return session == null ? null : FAILURES.get(session);
        }
    }

    public static void addListener(Consumer<TraceSession> listener) {
        LISTENERS.add(listener);
    }

    public static void removeListener(Consumer<TraceSession> listener) {
        LISTENERS.remove(listener);
    }
}
