package hindsight.eclipse.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** The session the views show (at most one), and who wants to know when it changes. */
public final class Sessions {
    private static volatile TraceSession current;
    private static final List<Consumer<TraceSession>> LISTENERS = new CopyOnWriteArrayList<>();

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

    public static void addListener(Consumer<TraceSession> listener) {
        LISTENERS.add(listener);
    }

    public static void removeListener(Consumer<TraceSession> listener) {
        LISTENERS.remove(listener);
    }
}
