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
            while (!ran.get() && running) {
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
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

    @Override
    public void close() {
        running = false;
    }
}
