package hindsight.eclipse.tests;

import org.eclipse.swt.widgets.Display;

/**
 * Measures the longest time the UI thread was busy: a background thread posts a probe every
 * 10 ms and notes how long each waited before the UI thread ran it. A probe posted while a
 * task runs waits for the rest of it, so the longest wait is (within 10 ms) the longest task.
 */
final class UiLatency implements AutoCloseable {
    private final Display display;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long maxNanos;
    private volatile long probes;
    /** The UI thread's stack during the longest stall seen over 150 ms, or null. */
    private volatile String stall;
    private volatile long stallNanos;

    UiLatency(Display display) {
        this.display = display;
        thread = new Thread(this::loop, "ui-latency-probe");
        thread.setDaemon(true);
        thread.start();
    }

    private void loop() {
        while (running && !display.isDisposed()) {
            long posted = System.nanoTime();
            java.util.concurrent.atomic.AtomicBoolean ran = new java.util.concurrent.atomic.AtomicBoolean();
            display.asyncExec(() -> {
                long waited = System.nanoTime() - posted;
                if (waited > maxNanos) {
                    maxNanos = waited;
                }
                probes++;
                ran.set(true);
            });
            // One probe at a time: the next is posted once this one ran (or 10 ms later).
            long until = System.nanoTime() + 10_000_000L;
            boolean dumped = false;
            while (!ran.get() && running) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
                long waited = System.nanoTime() - posted;
                // A long stall: note what the UI thread is doing, to say what to fix.
                if (!dumped && waited > 150_000_000L && waited > stallNanos) {
                    dumped = true;
                    StringBuilder b = new StringBuilder();
                    for (StackTraceElement e : display.getThread().getStackTrace()) {
                        b.append("\n    at ").append(e);
                        if (b.length() > 6000) {
                            break;
                        }
                    }
                    stall = b.toString();
                    stallNanos = waited;
                }
            }
            long left = until - System.nanoTime();
            if (left > 0) {
                try {
                    Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** The longest wait so far, in milliseconds. */
    long maxMillis() {
        return maxNanos / 1_000_000L;
    }

    long probes() {
        return probes;
    }

    /** What the UI thread was doing in the longest stall over 150 ms, or an empty string. */
    String stall() {
        return stall == null ? "" : stall;
    }

    @Override
    public void close() {
        running = false;
    }
}
