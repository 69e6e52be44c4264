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
    /** Garbage collection time while the longest wait lasted, in ms. */
    private volatile long gcDuringMax;
    /** The longest time the probe thread itself got no CPU while the longest wait lasted, in ms. */
    private volatile long starvedDuringMax;
    private volatile long starvedNanos;
    /** Probes that waited more than 200 ms. */
    private volatile long over200;
    /** The longest time queueing a probe took (the probe thread got no CPU), in ns. */
    private volatile long maxPostNanos;
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
            long gcBefore = gcMillis();
            java.util.concurrent.atomic.AtomicLong postedAt = new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
            java.util.concurrent.atomic.AtomicLong waitedNanos = new java.util.concurrent.atomic.AtomicLong();
            display.asyncExec(() -> {
                // Measured from the moment the probe was queued: the time the post itself
                // took (the process descheduled) is noted apart.
                long now = System.nanoTime();
                waitedNanos.set(now - Math.min(postedAt.get(), now));
                ran.set(true);
            });
            long queued = System.nanoTime();
            postedAt.compareAndSet(Long.MAX_VALUE, queued);
            long post = queued - posted;
            if (post > maxPostNanos) {
                maxPostNanos = post;
            }
            // One probe at a time: the next is posted once this one ran (or 10 ms later).
            long until = System.nanoTime() + 10_000_000L;
            boolean dumped = false;
            starvedNanos = 0;
            while (!ran.get() && running) {
                long before = System.nanoTime();
                try {
                    Thread.sleep(1);
                } catch (InterruptedException e) {
                    return;
                }
                // A sleep of 1 ms that took much longer: the whole process got no CPU.
                long overshoot = System.nanoTime() - before - 1_000_000L;
                if (overshoot > starvedNanos) {
                    starvedNanos = overshoot;
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
            if (ran.get()) {
                long waited = waitedNanos.get();
                if (waited > 200_000_000L) {
                    over200++;
                }
                if (waited > maxNanos) {
                    maxNanos = waited;
                    gcDuringMax = gcMillis() - gcBefore;
                    starvedDuringMax = starvedNanos / 1_000_000L;
                }
                probes++;
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

    private static long gcMillis() {
        long t = 0;
        for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            t += Math.max(0, gc.getCollectionTime());
        }
        return t;
    }

    /** What else happened during the longest wait: the process's GC time and CPU starvation. */
    String context() {
        return over200 + " of " + probes + " probes waited over 200 ms; queueing a probe took up to "
                + maxPostNanos / 1_000_000L + " ms; during the longest wait: " + gcDuringMax + " ms of garbage collection, the probe thread itself starved up to "
                + starvedDuringMax + " ms";
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
